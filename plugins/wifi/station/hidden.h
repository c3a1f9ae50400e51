/* hidden.h - Station1.ConnectHiddenNetwork(ssid), with iwd's semantics:
 * an SSID the scans show already is refused (use Network1.Connect()), an
 * empty or longer than 32 octets one too; otherwise an active scan probes
 * for it, the network that answers is connected the usual way (profile
 * secret or the agent), and on success its profile says
 * [Settings] Hidden=true so that later scans probe for it.
 */
#pragma once

#include "joind.h"
#include "network.h"

G_BEGIN_DECLS

/* What a ConnectHiddenNetwork() call needs of the station it runs on
 * (station.c implements it; the unit test fakes it). */
typedef struct {
	/* Whether the station's scans probe for ssid already (a Hidden=true
	 * profile, or another call running). */
	gboolean (*probes_ssid)(JoindStation *station, GBytes *ssid);
	/* The station's scans probe for ssid until it is removed again (the
	 * additions are counted). */
	void (*add_probe_ssid)(JoindStation *station, GBytes *ssid);
	void (*remove_probe_ssid)(JoindStation *station, GBytes *ssid);
	/* Every WifiBss the station knows, hiding ones included (borrowed;
	 * transfer container). */
	GPtrArray *(*get_bsses)(JoindStation *station);
	/* A full scan probing for those SSIDs; completes (finish with
	 * g_task_propagate_boolean()) once its results are the station's
	 * networks. */
	void (*scan)(JoindStation *station, GCancellable *cancellable, GAsyncReadyCallback callback,
	             gpointer user_data);
	/* Network1.Connect() of one of its networks; the GTask's source
	 * object is network, finish with g_task_propagate_boolean(). */
	void (*connect)(JoindStation *station, WifiNetwork *network, GCancellable *cancellable,
	                GAsyncReadyCallback callback, gpointer user_data);
} WifiHiddenStationOps;

/* 1..32 octets; JOIND_ERROR_INVALID_ARGS with a sentence otherwise. */
gboolean wifi_hidden_check_ssid(GBytes *ssid, GError **error);

/* Whether a network (its WifiBss, network_bsses) was seen broadcasting its
 * SSID, so that ConnectHiddenNetwork() must refuse it: FALSE when joind
 * probes for the SSID itself (probed: a Hidden=true profile or a call in
 * progress), or when each of its BSSes also has a beacon hiding the SSID
 * (a BSS with the same BSSID and an empty SSID) among all_bsses. */
gboolean wifi_hidden_network_is_visible(GPtrArray *network_bsses, GPtrArray *all_bsses,
                                        gboolean probed);

/* Station1's hidden access points among all_bsses (WifiBss): the
 * entries whose beacon hides the SSID, for as long as the station keeps
 * them (a single missed scan does not drop them). Element type
 * JoindHiddenAccessPoint, unsorted. */
GArray *wifi_hidden_access_points(GPtrArray *all_bsses);

/* The GTask's source object is station; finish with
 * g_task_propagate_boolean(). Errors: INVALID_ARGS (bad or visible SSID),
 * NOT_FOUND (nothing answered the probe), then those of Network1.Connect(). */
void wifi_hidden_connect(JoindStation *station, const WifiHiddenStationOps *ops, JoindCore *core,
                         GBytes *ssid, GCancellable *cancellable, GAsyncReadyCallback callback,
                         gpointer user_data);

G_END_DECLS
