/* roam.h - the roamer: while a station is connected, it watches the
 * link (CQM signal thresholds, beacon and packet loss, the access
 * point's BSS transition requests) and moves it to a better BSS of the
 * same network before it breaks.
 *
 * It finds candidates by asking the access point for its neighbours
 * (802.11k) when it advertises neighbour reports and scanning only their
 * channels, then the network's known frequencies, and a full scan only
 * when both found nothing; ranks them (roam-choice.h) and has the station
 * move the link (WifiRoamerOps.move). A signal-driven search that finds
 * nothing good enough waits RoamRetryInterval before the next one; a
 * signal that comes back above the threshold cancels the search.
 *
 * What the roamer needs of the station and the connector is the ops
 * table below, so the unit tests drive it with a fake connector
 * (tests/unit/wifi/test-roam.c); the kernel is reached through the
 * interface's WifiNl (SET_CQM, REGISTER_FRAME, FRAME).
 */
#pragma once

#include "bss.h"
#include "iface.h"
#include "roam-choice.h"

G_BEGIN_DECLS

typedef struct _WifiRoamer WifiRoamer;

/* main.conf [General] RoamThreshold, RoamThreshold5G (dBm) and
 * RoamRetryInterval (seconds), iwd's keys and defaults. */
typedef struct {
	gint threshold;
	gint threshold_5g;
	guint retry_interval_s;
} WifiRoamSettings;

#define WIFI_ROAM_DEFAULT_THRESHOLD      (-70)
#define WIFI_ROAM_DEFAULT_THRESHOLD_5G   (-76)
#define WIFI_ROAM_DEFAULT_RETRY_INTERVAL 60

/* What the roamer asks of the station (user_data: the station). */
typedef struct {
	/* The connected link's BSS (borrowed), NULL when not connected. */
	WifiBss *(*current_bss)(gpointer user_data);
	/* The SSID of the connected network (borrowed), for the neighbour
	 * request. */
	GBytes *(*current_ssid)(gpointer user_data);
	/* The interface's MAC address (6 octets, borrowed): the source of the
	 * frames the roamer sends. */
	const guint8 *(*own_address)(gpointer user_data);
	/* The BSSes of the connected network the station knows now (a new
	 * array holding references). */
	GPtrArray *(*network_bsses)(gpointer user_data);
	/* The connected network's remembered frequencies (guint32), or NULL. */
	GArray *(*known_freqs)(gpointer user_data);
	/* Scans freqs (guint32; NULL: every channel) for the network; the
	 * station answers with wifi_roamer_scan_done() once the results are
	 * in its table. */
	void (*scan)(GArray *freqs, gpointer user_data);
	/* Moves the link to bss (reassociation); the station answers with
	 * wifi_roamer_move_done(). */
	void (*move)(WifiBss *bss, gpointer user_data);
	/* Station1.State: roaming while a move runs. */
	void (*roaming_changed)(gboolean roaming, gpointer user_data);
} WifiRoamerOps;

WifiRoamer *wifi_roamer_new(WifiIface *iface, const WifiRoamSettings *settings,
                            const WifiRoamerOps *ops, gpointer user_data);
void wifi_roamer_free(WifiRoamer *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiRoamer, wifi_roamer_free)

/* The link came up (or a move ended on a new BSS): thresholds for its
 * band, frames registered, watching. */
void wifi_roamer_connected(WifiRoamer *self);
/* The link is gone, or not ours to move any more: whatever runs stops. */
void wifi_roamer_disconnected(WifiRoamer *self);

/* NOTIFY_CQM and FRAME events of the interface. TRUE when the roamer
 * takes a beacon or packet loss on (a roam starts at once): the station
 * then does not drop the link for it. */
gboolean wifi_roamer_handle_event(WifiRoamer *self, guint8 cmd, struct nlattr **attrs);

/* A manual roam to bssid (joinctl station DEV roam BSSID): it must be a
 * BSS of the connected network in the station's table. */
gboolean wifi_roamer_roam_to(WifiRoamer *self, const guint8 *bssid, GError **error);

/* The scan asked for through WifiRoamerOps.scan is over (ok: it ran). */
void wifi_roamer_scan_done(WifiRoamer *self, gboolean ok);
/* The move is over: ok, or refused with status (an IEEE 802.11 status
 * code, 0 when the access point did not answer). */
void wifi_roamer_move_done(WifiRoamer *self, gboolean ok, guint16 status);
/* How the move under way reached its BSS ("FT over the air"; a static
 * string), once the connector knows, for its log line and record; a move
 * it is not told of is a reassociation. */
void wifi_roamer_set_move_method(WifiRoamer *self, const gchar *method);
/* The move failed as wifi_roamer_move_done() says, but the link may move
 * on at once: the next candidate of the network in the station's table
 * (no margin to beat: the link has left the current BSS), a new
 * reference the station moves to, the roamer still moving; or NULL, the
 * move then over. */
WifiBss *wifi_roamer_move_failed(WifiRoamer *self, guint16 status);

/* A move runs (the link is expected to drop and come back). */
gboolean wifi_roamer_is_moving(WifiRoamer *self);
/* The state's name, for diagnostics and tests. */
const gchar *wifi_roamer_get_state_name(WifiRoamer *self);
/* The station's diagnostics: roam_state (the name above) and roams (the
 * last moves and the counters, roam-history.h). */
void wifi_roamer_add_diagnostics(WifiRoamer *self, GVariantDict *d);

G_END_DECLS
