/* rsn-authenticator-private.h - the authenticator's object, shared by
 * rsn-authenticator.c (the object, its state, the dispatch of each frame
 * and the retransmissions) and rsn-authenticator-msgs.c (the messages it
 * builds and the answers it verifies).
 */
#pragma once

#include "eapol-key.h"
#include "rsn-authenticator.h"

G_BEGIN_DECLS

#define AUTH_ELEMENT_MAX 257 /* ID, length and 255 octets */
#define AUTH_PMK_MAX     64

struct _WifiAuthenticator {
	WifiAuthenticatorCallbacks cb;
	gpointer user_data;
	const WifiAkmInfo *akm;
	guint pairwise_cipher, group_cipher, group_mgmt_cipher;
	guint8 aa[WIFI_ADDR_LEN], spa[WIFI_ADDR_LEN];
	guint8 pmk[AUTH_PMK_MAX];
	gsize pmk_len;
	guint8 pmkid[WIFI_PMKID_LEN];
	gboolean has_pmkid;
	guint8 own_ie[2 * AUTH_ELEMENT_MAX]; /* our RSNE then RSNXE: message 3's */
	gsize own_ie_len;
	guint8 sta_rsne[AUTH_ELEMENT_MAX];
	gsize sta_rsne_len;
	guint8 sta_rsnxe[AUTH_ELEMENT_MAX];
	gsize sta_rsnxe_len;
	guint8 transition_disable;
	const WifiGroupKeys *group_keys;

	WifiAuthenticatorState state;
	gboolean has_ptk;
	gboolean anonce_fixed;
	guint8 anonce[WIFI_NONCE_LEN];
	WifiPtk ptk;          /* from the verified message 2 */
	guint64 counter;      /* the replay counter of the last frame sent */
	guint64 window_start; /* the first frame sent of the message waited on */
	guint sends;          /* sends of the message waited on */
	guint n_msg2_mic_failures;
};

/* The one place the state changes: logs "old -> new (reason)". */
void wifi_auth_enter(WifiAuthenticator *auth, WifiAuthenticatorState new_state, const gchar *format,
                     ...) G_GNUC_PRINTF(3, 4);

/* The messages (rsn-authenticator-msgs.c). Each send takes the next replay
 * counter. */
gboolean wifi_auth_send_msg1(WifiAuthenticator *auth, GError **error);
gboolean wifi_auth_send_msg3(WifiAuthenticator *auth, GError **error);
gboolean wifi_auth_send_group_msg1(WifiAuthenticator *auth, GError **error);
/* Verify an answer (replay counter in the window, MIC) and act on it. */
WifiHandshakeRx wifi_auth_rx_msg2(WifiAuthenticator *auth, const guint8 *frame,
                                  const WifiEapolKey *key, GError **error);
WifiHandshakeRx wifi_auth_rx_msg4(WifiAuthenticator *auth, const guint8 *frame,
                                  const WifiEapolKey *key, GError **error);
WifiHandshakeRx wifi_auth_rx_group_msg2(WifiAuthenticator *auth, const guint8 *frame,
                                        const WifiEapolKey *key, GError **error);

G_END_DECLS
