/* adhoc.h - an interface in ad-hoc (IBSS) mode: joind joins (or starts)
 * the IBSS with JOIN_IBSS and follows its peers through the kernel's
 * NEW_STATION and DEL_STATION events. An open IBSS's peers are linked as
 * soon as the kernel sees them. In an RSN IBSS (WPA2-PSK, CCMP) each pair
 * of peers runs the 4-way handshake twice, each side being once the
 * supplicant (handshake/rsn-handshake.h) and once the authenticator
 * (handshake/rsn-authenticator.h); the pairwise key of the handshake whose
 * authenticator has the higher address is used, each peer's group key is
 * installed for that peer, and the peer's port opens when both are done.
 *
 *   idle --start--> joining --JOIN_IBSS done--> joined
 *   joining/joined --stop or a kernel refusal--> leaving --LEAVE_IBSS--> idle
 *
 * The passphrase is never logged.
 */
#pragma once

#include <glib.h>

#include "iface.h"

G_BEGIN_DECLS

typedef enum {
	WIFI_ADHOC_STATE_IDLE,
	WIFI_ADHOC_STATE_JOINING,
	WIFI_ADHOC_STATE_JOINED,
	WIFI_ADHOC_STATE_LEAVING,
	/* the last value, which name tables are checked against */
	WIFI_ADHOC_STATE_LAST = WIFI_ADHOC_STATE_LEAVING,
} WifiAdhocState;

/* The channel when the configuration names none (2437 MHz). */
#define WIFI_ADHOC_DEFAULT_FREQ 2437
/* How long a peer's two handshakes may take before it is dropped. */
#define WIFI_ADHOC_KEYING_TIMEOUT_S 10

typedef struct {
	guint8 ssid[32];
	gsize ssid_len;
	/* A passphrase (8..63 characters) or 64 hex digits; NULL: open. */
	const gchar *secret;
	guint32 freq; /* MHz; 0: WIFI_ADHOC_DEFAULT_FREQ */
} WifiAdhocConfig;

typedef struct {
	/* Optional: the IBSS's state changed (reason: why, for a person). */
	void (*state_changed)(WifiAdhocState old_state, WifiAdhocState new_state,
	                      const gchar *reason, gpointer user_data);
	/* Optional: a peer's link opened (joined) or it left. */
	void (*peer_changed)(const guint8 mac[6], gboolean joined, gpointer user_data);
} WifiAdhocCallbacks;

typedef struct _WifiAdhoc WifiAdhoc;

/* address: the interface's. */
WifiAdhoc *wifi_adhoc_new(WifiIface *iface, const guint8 address[6],
                          const WifiAdhocCallbacks *callbacks, gpointer user_data);
/* Leaves the IBSS (LEAVE_IBSS, not waited for) and frees. */
void wifi_adhoc_free(WifiAdhoc *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiAdhoc, wifi_adhoc_free)

/* Joins the IBSS (idle only). Fails with a sentence for a bad SSID or
 * passphrase, or a frequency the radio cannot use for it. */
gboolean wifi_adhoc_start(WifiAdhoc *self, const WifiAdhocConfig *config, GError **error);
/* Drops every peer and leaves the IBSS. */
void wifi_adhoc_stop(WifiAdhoc *self, const gchar *reason);
/* nl80211 events of the interface (stations, EAPOL, the IBSS's). */
void wifi_adhoc_handle_event(WifiAdhoc *self, guint8 cmd, struct nlattr **attrs);

WifiAdhocState wifi_adhoc_get_state(const WifiAdhoc *self);
const gchar *wifi_adhoc_state_to_string(WifiAdhocState state);
gboolean wifi_adhoc_is_open(const WifiAdhoc *self);
/* The SSID of the last start, as people read it (joind_ssid_to_display()). */
gchar *wifi_adhoc_get_ssid_display(const WifiAdhoc *self);
/* Peers whose link is open. */
guint wifi_adhoc_get_n_peers(const WifiAdhoc *self);

G_END_DECLS
