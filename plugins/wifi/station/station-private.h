/* station-private.h - what the parts of a station share: its fields, and
 * the scanning half (station-scan.c: scan results into BSSes and
 * networks, the periodic and D-Bus scans) that station.c wires.
 */
#pragma once

#include "autoconnect.h"
#include "connect.h"
#include "roam.h"
#include "station.h"

G_BEGIN_DECLS

struct _WifiStation {
	JoindStation parent_instance;
	JoindCore *core;
	WifiIface *iface;
	JoindDevice *device;
	WifiScanner *scanner;
	GHashTable *bsses;    /* WifiBss, each its own key (wifi_bss_entry_hash) */
	GHashTable *networks; /* network key -> WifiNetwork */
	gboolean powered;     /* the link is up and no rfkill switch blocks the radio */
	gboolean link_up;
	gboolean blocked;
	gboolean started;
	guint periodic_timer;
	guint periodic_interval;
	guint periodic_initial;
	guint periodic_max;
	gboolean periodic_disabled;
	GCancellable *cancellable; /* the station's own scans */
	/* What full 802.1X and SAE authentications on this interface left, for
	 * the reconnections that skip them (in memory only). */
	WifiPmksaCache *pmksa_cache;
	WifiConnector *connector;
	WifiAutoconnect *autoconnect;
	/* Roaming (station-roam.c): the roamer, and the link it watches as the
	 * connector last reported it. */
	WifiRoamer *roamer;
	WifiNetwork *roam_network;
	WifiBss *roam_bss;
	guint8 own_address[6];
	GPtrArray *probe_ssids; /* GBytes: ConnectHiddenNetwork() calls running */
};

/* Scans in a row that must miss a BSS before it is taken for gone. */
#define WIFI_BSS_MAX_MISSES 2

/* The scanner's callbacks (user_data: the station). */
void station_scan_results(GPtrArray *bsses, const GArray *scanned_freqs, gboolean authoritative,
                          gpointer user_data);
void station_scanning_changed(gboolean scanning, gpointer user_data);
/* A full scan that also probes for every hidden network joind knows. */
WifiScanParams *station_scan_params(WifiStation *self);
/* The same, for autoconnect (user_data: the station). */
WifiScanParams *station_full_scan_params(gpointer user_data);
/* Scans now (why: for the log), and the periodic scan's next turn. */
void station_scan_now(WifiStation *self, const gchar *why);
void station_periodic_schedule(WifiStation *self);
/* A network's profile and rank again after its profile changed. */
void station_update_profile(WifiStation *self, WifiNetwork *network);
/* Station1.Scan() and GetOrderedNetworks(). */
void wifi_station_scan(JoindStation *station, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data);
GPtrArray *wifi_station_get_ordered_networks(JoindStation *station);

/* Roaming (station-roam.c): the roamer made and observing the connector,
 * and gone; the station's state changed; an event it may take (TRUE: the
 * roamer took a beacon loss on: the link is not dropped for it). */
void station_add_roamer(WifiStation *self);
void station_remove_roamer(WifiStation *self);
void station_roam_state_changed(WifiStation *self);
gboolean station_roam_handle_event(WifiStation *self, guint8 cmd, struct nlattr **attrs);
/* Station1.Roam(). */
gboolean wifi_station_roam(JoindStation *station, const guint8 *bssid, GError **error);

G_END_DECLS
