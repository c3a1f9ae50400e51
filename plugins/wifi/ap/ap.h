/* ap.h - an interface in access point mode: joind is the access point's
 * MLME and authenticator (no hostapd underneath). It builds the beacon and
 * probe responses (ieee80211/ap-ies.h), starts the BSS with START_AP,
 * answers authentication and (re)association requests itself (registered
 * management frames), admits each station with NEW_STATION, runs the
 * 4-way handshake as the authenticator (handshake/rsn-authenticator.h),
 * opens the station's port when it completes, and rotates the group key.
 *
 *   idle --start--> starting --(frames registered, START_AP, group key)--> started
 *   starting/started --stop or a kernel refusal--> stopping --STOP_AP--> idle
 *
 * Security: WPA2-Personal (AKM 00-0F-AC:2, CCMP) with management frame
 * protection optional when the radio has BIP, as iwd 2.3's AP; WPA3-
 * Personal (SAE as the responder, hunting and pecking or hash-to-element
 * as the station chooses; MFP required) or both; or open, only when asked
 * for explicitly. The passphrase is never logged.
 */
#pragma once

#include <glib.h>

#include "iface.h"

G_BEGIN_DECLS

typedef enum {
	WIFI_AP_STATE_IDLE,
	WIFI_AP_STATE_STARTING,
	WIFI_AP_STATE_STARTED,
	WIFI_AP_STATE_STOPPING,
	/* the last value, which name tables are checked against */
	WIFI_AP_STATE_LAST = WIFI_AP_STATE_STOPPING,
} WifiApState;

/* Stations at most, when the configuration names none. */
#define WIFI_AP_DEFAULT_MAX_STATIONS 32
/* A station idle this long is deauthenticated, when the configuration
 * names no limit (hostapd's ap_max_inactivity). */
#define WIFI_AP_DEFAULT_MAX_INACTIVITY_S 300
/* How often the kernel is asked for the stations' facts. */
#define WIFI_AP_STATION_CHECK_S 30

/* What a secured AP offers: WPA2-Personal (AKM PSK, MFP optional),
 * WPA3-Personal (SAE, MFP required) or both (transition: MFP optional). */
typedef enum {
	WIFI_AP_SECURITY_WPA2,
	WIFI_AP_SECURITY_WPA3,
	WIFI_AP_SECURITY_WPA2_WPA3,
} WifiApSecurity;

typedef struct {
	guint8 ssid[32];
	gsize ssid_len;
	/* A passphrase (8..63 characters) or 64 hex digits (WPA2 only); NULL
	 * with open. */
	const gchar *secret;
	gboolean open;
	WifiApSecurity security; /* unless open */
	guint channel;           /* 2.4 GHz channel 1..14; 0: channel 6 */
	gboolean hidden;         /* beacons without the SSID */
	guint rekey_interval;    /* seconds between group key rotations; 0: never */
	guint max_stations;      /* 0: WIFI_AP_DEFAULT_MAX_STATIONS */
	guint max_inactivity;    /* seconds; 0: WIFI_AP_DEFAULT_MAX_INACTIVITY_S */
} WifiApConfig;

/* A station whose port is open, as the kernel last reported it (0 for a
 * fact not yet read). */
typedef struct {
	guint8 address[6];
	gint signal_dbm;
	guint32 tx_bitrate_100kbps;
	guint32 connected_s;
	guint32 inactive_ms;
	gboolean mfp;
} WifiApStation;

typedef struct {
	/* Optional: the AP's state changed (reason: why, for a person). */
	void (*state_changed)(WifiApState old_state, WifiApState new_state, const gchar *reason,
	                      gpointer user_data);
	/* Optional: a station was authorised (joined) or left. */
	void (*station_changed)(const guint8 mac[6], gboolean joined, gpointer user_data);
} WifiApCallbacks;

typedef struct _WifiAp WifiAp;

/* address: the interface's, which becomes the BSSID. */
WifiAp *wifi_ap_new(WifiIface *iface, const guint8 address[6], const WifiApCallbacks *callbacks,
                    gpointer user_data);
/* Stops the BSS (STOP_AP, not waited for) and frees. */
void wifi_ap_free(WifiAp *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiAp, wifi_ap_free)

/* Starts the BSS (idle only). Fails with a sentence for a bad SSID or
 * passphrase, or a channel the radio or its regulatory domain forbids. */
gboolean wifi_ap_start(WifiAp *self, const WifiApConfig *config, GError **error);
/* Deauthenticates every station and stops the BSS. */
void wifi_ap_stop(WifiAp *self, const gchar *reason);
/* nl80211 events of the interface (frames, EAPOL, station and AP events). */
void wifi_ap_handle_event(WifiAp *self, guint8 cmd, struct nlattr **attrs);
/* A new group key now (the rekey timer calls it too). */
void wifi_ap_rekey_group(WifiAp *self);

WifiApState wifi_ap_get_state(const WifiAp *self);
const gchar *wifi_ap_state_to_string(WifiApState state);
guint32 wifi_ap_get_frequency(const WifiAp *self);
/* The SSID of the last start, as people read it (joind_ssid_to_display()). */
gchar *wifi_ap_get_ssid_display(const WifiAp *self);
WifiApSecurity wifi_ap_get_security(const WifiAp *self);
/* Can the radio protect management frames (BIP), as WPA3 needs? */
gboolean wifi_ap_can_protect_frames(const WifiAp *self);
/* Stations whose port is open. */
guint wifi_ap_get_n_stations(const WifiAp *self);
/* Those stations (WifiApStation), in no order. */
GArray *wifi_ap_get_stations(WifiAp *self);
/* Reads the stations' facts from the kernel now (the timer does it every
 * WIFI_AP_STATION_CHECK_S) and deauthenticates the idle ones. */
void wifi_ap_check_stations(WifiAp *self);

G_END_DECLS
