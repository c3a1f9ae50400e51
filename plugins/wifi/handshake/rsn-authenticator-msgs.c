/* rsn-authenticator-msgs.c - the authenticator's messages: message 1 and 3
 * and group message 1 built and signed the way hostapd lays them out (so
 * that a replayed capture is byte for byte the same), and the station's
 * message 2, message 4 and group message 2 verified.
 */
#include "rsn-authenticator-private.h"

#include <string.h>

#include "joind-secret.h"
#include "rsn-handshake-private.h"

/* Builds, signs (when MIC is in key_info) and sends a frame with the next
 * replay counter. */
static gboolean
auth_send(WifiAuthenticator *auth, guint16 key_info, guint16 key_length, const guint8 *nonce,
          const guint8 *rsc, const guint8 *key_data, gsize key_data_len, GError **error)
{
	WifiEapolKey key = {0};
	g_autofree guint8 *frame = NULL;
	gsize len = 0;

	key.protocol_version = 2;
	key.descriptor_type = WIFI_EAPOL_KEY_DESC_RSN;
	key.key_info = (guint16)(key_info | auth->akm->version);
	key.key_length = key_length;
	key.replay_counter = auth->counter + 1;
	if (nonce != NULL)
		memcpy(key.nonce, nonce, WIFI_NONCE_LEN);
	if (rsc != NULL)
		memcpy(key.rsc, rsc, 8);
	key.mic_len = auth->akm->mic_len;
	key.key_data = key_data;
	key.key_data_len = key_data_len;
	frame = wifi_eapol_key_build(&key, &len);
	if ((key_info & WIFI_KEY_INFO_MIC) &&
	    !wifi_eapol_key_sign(auth->akm->akm, auth->ptk.kck, auth->ptk.kck_len, frame, len,
	                         key.mic_len, error))
		return FALSE;
	auth->counter++;
	auth->sends++;
	auth->cb.send(frame, len, auth->user_data);
	return TRUE;
}

gboolean
wifi_auth_send_msg1(WifiAuthenticator *auth, GError **error)
{
	g_autoptr(GByteArray) kd = g_byte_array_new();

	if (auth->has_pmkid)
		wifi_kde_append_pmkid(kd, auth->pmkid);
	return auth_send(auth, WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_ACK,
	                 (guint16)wifi_cipher_key_len(auth->pairwise_cipher), auth->anonce, NULL,
	                 kd->data, kd->len, error);
}

/* Sends a frame whose Key Data holds keys: wrapped with the KEK. */
static gboolean
auth_send_keys(WifiAuthenticator *auth, guint16 key_info, guint16 key_length, const guint8 *nonce,
               GByteArray *plain, GError **error)
{
	g_autofree guint8 *wrapped = NULL;
	gsize wrapped_len = 0;

	wrapped = wifi_eapol_key_data_encrypt(auth->ptk.kek, auth->ptk.kek_len, plain->data,
	                                      plain->len, &wrapped_len, error);
	wifi_key_data_free(plain);
	if (wrapped == NULL)
		return FALSE;
	return auth_send(auth, key_info | WIFI_KEY_INFO_ENCRYPTED | WIFI_KEY_INFO_MIC, key_length,
	                 nonce, auth->group_keys->gtk_rsc, wrapped, wrapped_len, error);
}

static void
append_group_keys(const WifiAuthenticator *auth, GByteArray *kd)
{
	const WifiGroupKeys *gk = auth->group_keys;

	wifi_kde_append_gtk(kd, gk->gtk_id, FALSE, gk->gtk, gk->gtk_len);
	if (auth->group_mgmt_cipher != 0)
		wifi_kde_append_igtk(kd, gk->igtk_id, gk->ipn, gk->igtk, gk->igtk_len);
}

gboolean
wifi_auth_send_msg3(WifiAuthenticator *auth, GError **error)
{
	GByteArray *kd = g_byte_array_sized_new(256);

	g_byte_array_append(kd, auth->own_ie, (guint)auth->own_ie_len);
	append_group_keys(auth, kd);
	if (auth->transition_disable != 0)
		wifi_kde_append_transition_disable(kd, auth->transition_disable);
	return auth_send_keys(auth,
	                      WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_INSTALL | WIFI_KEY_INFO_ACK |
	                              WIFI_KEY_INFO_SECURE,
	                      (guint16)wifi_cipher_key_len(auth->pairwise_cipher), auth->anonce, kd,
	                      error);
}

gboolean
wifi_auth_send_group_msg1(WifiAuthenticator *auth, GError **error)
{
	GByteArray *kd = g_byte_array_sized_new(128);

	append_group_keys(auth, kd);
	return auth_send_keys(auth, WIFI_KEY_INFO_ACK | WIFI_KEY_INFO_SECURE, 0, NULL, kd, error);
}

/* The replay counter names a frame sent for the message waited on. */
static gboolean
in_window(const WifiAuthenticator *auth, const WifiEapolKey *key, const gchar *what, GError **error)
{
	if (key->replay_counter >= auth->window_start && key->replay_counter <= auth->counter)
		return TRUE;
	wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
	             "%s with replay counter %" G_GUINT64_FORMAT ", not one of %" G_GUINT64_FORMAT
	             "..%" G_GUINT64_FORMAT,
	             what, key->replay_counter, auth->window_start, auth->counter);
	return FALSE;
}

/* Message 2 repeats the RSNE (and RSNXE) of the association request; a
 * difference means someone changed what the station asked for. */
static gboolean
msg2_elements_match(const WifiAuthenticator *auth, const WifiEapolKey *key)
{
	WifiKeyData kd;

	if (!wifi_key_data_parse(key->key_data, key->key_data_len, &kd, NULL) || kd.rsne == NULL)
		return FALSE;
	if (kd.rsne_len != auth->sta_rsne_len || memcmp(kd.rsne, auth->sta_rsne, kd.rsne_len) != 0)
		return FALSE;
	if (auth->sta_rsnxe_len == 0)
		return TRUE;
	return kd.rsnxe_len == auth->sta_rsnxe_len &&
	       memcmp(kd.rsnxe, auth->sta_rsnxe, kd.rsnxe_len) == 0;
}

WifiHandshakeRx
wifi_auth_rx_msg2(WifiAuthenticator *auth, const guint8 *frame, const WifiEapolKey *key,
                  GError **error)
{
	WifiPtk ptk;
	GError *local = NULL;
	gboolean mic_ok;

	if (auth->state != WIFI_AUTHENTICATOR_STATE_WAIT_MSG2)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED, "message 2 while %s",
		                    wifi_authenticator_state_to_string(auth->state));
	if (!in_window(auth, key, "message 2", error))
		return WIFI_HANDSHAKE_RX_DROPPED;
	if (!wifi_ptk_derive(auth->akm->akm, auth->pairwise_cipher, auth->pmk, auth->pmk_len,
	                     auth->aa, auth->spa, auth->anonce, key->nonce, &ptk, &local)) {
		wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_FAILED, "%s", local->message);
		g_propagate_error(error, local);
		return WIFI_HANDSHAKE_RX_FAILED;
	}
	mic_ok = wifi_eapol_key_verify_mic(auth->akm->akm, ptk.kck, ptk.kck_len, frame, key, error);
	if (!mic_ok) {
		wifi_ptk_clear(&ptk);
		auth->n_msg2_mic_failures++;
		g_debug("message 2 dropped: its MIC does not verify (another PMK?)");
		return WIFI_HANDSHAKE_RX_DROPPED;
	}
	auth->ptk = ptk;
	wifi_ptk_clear(&ptk);
	if (!msg2_elements_match(auth, key)) {
		g_set_error_literal(&local, WIFI_HANDSHAKE_ERROR,
		                    WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
		                    "Message 2's RSN element differs from the station's "
		                    "association request");
		wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_FAILED, "%s", local->message);
		g_propagate_error(error, local);
		return WIFI_HANDSHAKE_RX_FAILED;
	}
	wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_WAIT_MSG4, "message 2 verified");
	if (!wifi_auth_send_msg3(auth, error))
		return WIFI_HANDSHAKE_RX_FAILED;
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

static void
install_tk(WifiAuthenticator *auth)
{
	WifiHandshakeKey k = {
	        .kind = WIFI_KEY_KIND_PAIRWISE,
	        .key_id = 0,
	        .cipher = auth->pairwise_cipher,
	        .key = auth->ptk.tk,
	        .key_len = auth->ptk.tk_len,
	        .addr = auth->spa,
	};

	auth->cb.install_key(&k, auth->user_data);
	auth->has_ptk = TRUE;
}

WifiHandshakeRx
wifi_auth_rx_msg4(WifiAuthenticator *auth, const guint8 *frame, const WifiEapolKey *key,
                  GError **error)
{
	if (auth->state != WIFI_AUTHENTICATOR_STATE_WAIT_MSG4)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED, "message 4 while %s",
		                    wifi_authenticator_state_to_string(auth->state));
	if (!in_window(auth, key, "message 4", error))
		return WIFI_HANDSHAKE_RX_DROPPED;
	if (!wifi_eapol_key_verify_mic(auth->akm->akm, auth->ptk.kck, auth->ptk.kck_len, frame, key,
	                               error))
		return WIFI_HANDSHAKE_RX_DROPPED;
	install_tk(auth);
	wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_COMPLETE, "message 4 verified");
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

WifiHandshakeRx
wifi_auth_rx_group_msg2(WifiAuthenticator *auth, const guint8 *frame, const WifiEapolKey *key,
                        GError **error)
{
	if (auth->state != WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "group message 2 while %s",
		                    wifi_authenticator_state_to_string(auth->state));
	if (!in_window(auth, key, "group message 2", error))
		return WIFI_HANDSHAKE_RX_DROPPED;
	if (!wifi_eapol_key_verify_mic(auth->akm->akm, auth->ptk.kck, auth->ptk.kck_len, frame, key,
	                               error))
		return WIFI_HANDSHAKE_RX_DROPPED;
	wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_COMPLETE, "group key %u acknowledged",
	                auth->group_keys->gtk_id);
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}
