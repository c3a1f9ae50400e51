/* network.h - BSSes grouped into networks (SSID + security), and ranks. */
#pragma once

#include "bss.h"
#include "joind-station.h"

G_BEGIN_DECLS

#define WIFI_TYPE_NETWORK (wifi_network_get_type())
G_DECLARE_FINAL_TYPE(WifiNetwork, wifi_network, WIFI, NETWORK, JoindNetwork)

WifiNetwork *wifi_network_new(GBytes *ssid, JoindNetworkType type);

/* Who lists a network and joins it: the station the network was seen on.
 * The network holds its owner weakly and never knows its type, so the
 * layers above (station, autoconnect) stay above. */
typedef struct {
	/* Network1.Connect(): join network; completes like the network's
	 * connect_finish (a boolean GTask on network). */
	void (*connect)(GObject *owner, WifiNetwork *network, GCancellable *cancellable,
	                GAsyncReadyCallback callback, gpointer user_data);
} WifiNetworkOwnerOps;

/* Sets the owner Connect() goes to; without one (or once it is gone),
 * Connect() fails with NOT_FOUND. */
void wifi_network_set_owner(WifiNetwork *self, const WifiNetworkOwnerOps *ops, GObject *owner);
/* Replaces the network's BSSes (WifiBss, any order): sorted best first,
 * Strength follows the best signal, the rank is recomputed. */
void wifi_network_set_bsses(WifiNetwork *self, GPtrArray *bsses);
/* WifiBss, best first (borrowed). */
GPtrArray *wifi_network_get_bsses(WifiNetwork *self);
/* Seconds since the epoch of the last connection, 0 for never. */
void wifi_network_set_last_connected(WifiNetwork *self, gint64 unix_time);
gint wifi_network_get_rank(WifiNetwork *self);
/* Recomputes the rank, e.g. after the profile changed. */
void wifi_network_update_rank(WifiNetwork *self);

/* Best first: higher rank, then stronger, then name (stable output). */
gint wifi_network_compare(WifiNetwork *a, WifiNetwork *b);

/* The score of one BSS and the rank of a network are documented in
 * network.c. */
gint wifi_bss_score(const WifiBss *bss);
/* The same score for bss heard at signal (hundredths of a dBm): the
 * roam scores the current BSS at the link's latest signal, not the
 * scan's, and every candidate the way a connect would choose it. */
gint wifi_bss_score_at(const WifiBss *bss, gint signal);
gint wifi_network_rank(gint best_bss_score, JoindNetworkType type, gboolean known,
                       gint64 last_connected, gint64 now);

/* "<ssid-hex>_<type>": the key networks are grouped by (and the last
 * element of their D-Bus path). */
gchar *wifi_network_key(const guint8 *ssid, gsize ssid_len, JoindNetworkType type);
/* "<ssid-hex>_<suffix>", the spelling every SSID-keyed table here uses. */
gchar *wifi_ssid_key(const guint8 *ssid, gsize ssid_len, const gchar *suffix);
/* Groups BSSes by network key: key -> GPtrArray of WifiBss, the first
 * naming the network. BSSes hiding their SSID belong to no network and are
 * left out, but for the OWE BSS of a transition pair, which joins its open
 * BSS's network (as does one that shows its SSID). */
GHashTable *wifi_group_bsses(GPtrArray *bsses);

/* The key of the profile an SSID is known by. Keyed by profile, not
 * network type: sae and psk share a .psk file. */
gchar *wifi_known_profile_key(GBytes *ssid, JoindProfileType type);
/* The key of the profile a network would be known by; NULL when joind
 * cannot join its type. */
gchar *wifi_known_network_key(JoindNetwork *network);

G_END_DECLS
