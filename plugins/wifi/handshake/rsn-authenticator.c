/* rsn-authenticator.c - the authenticator's object: its configuration, its
 * state, the dispatch of each EAPOL-Key frame from the station, the
 * retransmissions its owner's timer drives, and the access point's group
 * keys.
 */
#include "rsn-authenticator-private.h"

#include <string.h>

#include "joind-mac.h"
#include "joind-log.h"
#include "joind-secret.h"
#include "rsn-crypto.h"
#include "rsn-handshake-private.h"

const gchar *
wifi_authenticator_state_to_string(WifiAuthenticatorState state)
{
	static const gchar *const names[] = {
	        [WIFI_AUTHENTICATOR_STATE_IDLE] = "idle",
	        [WIFI_AUTHENTICATOR_STATE_WAIT_MSG2] = "wait-msg2",
	        [WIFI_AUTHENTICATOR_STATE_WAIT_MSG4] = "wait-msg4",
	        [WIFI_AUTHENTICATOR_STATE_COMPLETE] = "complete",
	        [WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2] = "wait-group-msg2",
	        [WIFI_AUTHENTICATOR_STATE_FAILED] = "failed",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == WIFI_AUTHENTICATOR_STATE_LAST + 1);

	if ((guint)state < G_N_ELEMENTS(names))
		return names[state];
	return "unknown";
}

void
wifi_auth_enter(WifiAuthenticator *auth, WifiAuthenticatorState new_state, const gchar *format, ...)
{
	WifiAuthenticatorState old_state = auth->state;
	g_autofree gchar *reason = NULL;
	g_autofree gchar *machine = NULL;
	gchar spa[JOIND_MAC_STRING_LEN];
	va_list args;

	va_start(args, format);
	reason = g_strdup_vprintf(format, args);
	va_end(args);
	machine = g_strconcat("authenticator for ", joind_mac_to_string(auth->spa, spa), NULL);
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", NULL, NULL, machine},
	                       wifi_authenticator_state_to_string(old_state),
	                       wifi_authenticator_state_to_string(new_state), reason);
	auth->state = new_state;
	auth->sends = 0;
	auth->window_start = auth->counter + 1;
	if (new_state == WIFI_AUTHENTICATOR_STATE_FAILED)
		wifi_ptk_clear(&auth->ptk);
	if (auth->cb.state_changed != NULL)
		auth->cb.state_changed(old_state, new_state, auth->user_data);
}

gboolean
wifi_group_keys_generate(WifiGroupKeys *keys, guint group_cipher, guint group_mgmt_cipher,
                         const WifiGroupKeys *previous, GError **error)
{
	WifiGroupKeys next = {0};
	gboolean ok;

	next.gtk_len = wifi_cipher_key_len(group_cipher);
	next.igtk_len = group_mgmt_cipher != 0 ? wifi_cipher_key_len(group_mgmt_cipher) : 0;
	if (!wifi_cipher_is_data(group_cipher) ||
	    (group_mgmt_cipher != 0 && !wifi_cipher_is_group_mgmt(group_mgmt_cipher))) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "Unsupported group ciphers %s and %s",
		            wifi_cipher_suite_to_string(group_cipher),
		            wifi_cipher_suite_to_string(group_mgmt_cipher));
		return FALSE;
	}
	next.gtk_id = previous != NULL && previous->gtk_id == 1 ? 2 : 1;
	next.igtk_id = previous != NULL && previous->igtk_id == 4 ? 5 : 4;
	ok = wifi_random_bytes(next.gtk, next.gtk_len, error) &&
	     wifi_random_bytes(next.igtk, next.igtk_len, error);
	if (ok)
		*keys = next;
	joind_secret_clear(&next, sizeof(next));
	return ok;
}

static gboolean
config_check(const WifiAuthenticatorConfig *c, GError **error)
{
	if (c->group_keys == NULL ||
	    c->group_keys->gtk_len != wifi_cipher_key_len(c->group_cipher) ||
	    (c->group_mgmt_cipher != 0 &&
	     c->group_keys->igtk_len != wifi_cipher_key_len(c->group_mgmt_cipher))) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "The authenticator needs group keys for %s%s%s",
		            wifi_cipher_suite_to_string(c->group_cipher),
		            c->group_mgmt_cipher != 0 ? " and " : "",
		            c->group_mgmt_cipher != 0
		                    ? wifi_cipher_suite_to_string(c->group_mgmt_cipher)
		                    : "");
		return FALSE;
	}
	return wifi_hs_check_suites(c->akm, c->pairwise_cipher, c->group_cipher,
	                            c->group_mgmt_cipher, c->pmk, c->pmk_len, error) &&
	       wifi_hs_check_element(c->own_rsne, c->own_rsne_len, WIFI_ELEMENT_RSN, TRUE,
	                             "our own RSN element", error) &&
	       wifi_hs_check_element(c->own_rsnxe, c->own_rsnxe_len, WIFI_ELEMENT_RSNX, FALSE,
	                             "our own RSNX element", error) &&
	       wifi_hs_check_element(c->sta_rsne, c->sta_rsne_len, WIFI_ELEMENT_RSN, TRUE,
	                             "the station's RSN element", error) &&
	       wifi_hs_check_element(c->sta_rsnxe, c->sta_rsnxe_len, WIFI_ELEMENT_RSNX, FALSE,
	                             "the station's RSNX element", error);
}

static void
config_copy(WifiAuthenticator *auth, const WifiAuthenticatorConfig *c)
{
	auth->akm = wifi_akm_info_sized(c->akm, c->pmk_len, 0);
	auth->pairwise_cipher = c->pairwise_cipher;
	auth->group_cipher = c->group_cipher;
	auth->group_mgmt_cipher = c->group_mgmt_cipher;
	memcpy(auth->aa, c->aa, WIFI_ADDR_LEN);
	memcpy(auth->spa, c->spa, WIFI_ADDR_LEN);
	memcpy(auth->pmk, c->pmk, c->pmk_len);
	auth->pmk_len = c->pmk_len;
	auth->has_pmkid = c->pmkid != NULL;
	if (auth->has_pmkid)
		memcpy(auth->pmkid, c->pmkid, WIFI_PMKID_LEN);
	memcpy(auth->own_ie, c->own_rsne, c->own_rsne_len);
	auth->own_ie_len = c->own_rsne_len;
	if (c->own_rsnxe_len > 0) {
		memcpy(auth->own_ie + auth->own_ie_len, c->own_rsnxe, c->own_rsnxe_len);
		auth->own_ie_len += c->own_rsnxe_len;
	}
	memcpy(auth->sta_rsne, c->sta_rsne, c->sta_rsne_len);
	auth->sta_rsne_len = c->sta_rsne_len;
	if (c->sta_rsnxe_len > 0)
		memcpy(auth->sta_rsnxe, c->sta_rsnxe, c->sta_rsnxe_len);
	auth->sta_rsnxe_len = c->sta_rsnxe_len;
	auth->transition_disable = c->transition_disable;
	auth->group_keys = c->group_keys;
}

WifiAuthenticator *
wifi_authenticator_new(const WifiAuthenticatorConfig *config,
                       const WifiAuthenticatorCallbacks *callbacks, gpointer user_data,
                       GError **error)
{
	WifiAuthenticator *auth;

	g_return_val_if_fail(config != NULL && callbacks != NULL, NULL);
	g_return_val_if_fail(callbacks->send != NULL && callbacks->install_key != NULL, NULL);
	if (!config_check(config, error))
		return NULL;
	auth = g_new0(WifiAuthenticator, 1);
	auth->cb = *callbacks;
	auth->user_data = user_data;
	config_copy(auth, config);
	auth->state = WIFI_AUTHENTICATOR_STATE_IDLE;
	return auth;
}

void
wifi_authenticator_free(WifiAuthenticator *auth)
{
	if (auth == NULL)
		return;
	/* The PMK and PTK live inside the struct. */
	joind_secret_clear(auth, sizeof(*auth));
	g_free(auth);
}

WifiAuthenticatorState
wifi_authenticator_get_state(const WifiAuthenticator *auth)
{
	return auth->state;
}

gboolean
wifi_authenticator_has_ptk(const WifiAuthenticator *auth)
{
	return auth->has_ptk;
}

void
wifi_authenticator_set_anonce(WifiAuthenticator *auth, const guint8 anonce[WIFI_NONCE_LEN],
                              guint64 last_replay_counter)
{
	memcpy(auth->anonce, anonce, WIFI_NONCE_LEN);
	auth->anonce_fixed = TRUE;
	auth->counter = last_replay_counter;
}

gboolean
wifi_authenticator_start(WifiAuthenticator *auth, GError **error)
{
	g_return_val_if_fail(auth->state == WIFI_AUTHENTICATOR_STATE_IDLE, FALSE);
	if (!auth->anonce_fixed && !wifi_random_bytes(auth->anonce, WIFI_NONCE_LEN, error))
		return FALSE;
	wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_WAIT_MSG2, "associated");
	return wifi_auth_send_msg1(auth, error);
}

gboolean
wifi_authenticator_rekey_group(WifiAuthenticator *auth, GError **error)
{
	if (auth->state != WIFI_AUTHENTICATOR_STATE_COMPLETE &&
	    auth->state != WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2)
		return TRUE;
	wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2, "group key %u",
	                auth->group_keys->gtk_id);
	return wifi_auth_send_group_msg1(auth, error);
}

/* Retries exhausted: the cause the evidence points to. */
static void
timeout_fail(WifiAuthenticator *auth, GError **error)
{
	GError *failure;

	if (auth->state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG2 && auth->n_msg2_mic_failures > 0)
		failure = g_error_new(WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE,
		                      "The station's message 2 failed its MIC check %u times: it "
		                      "most likely has another passphrase",
		                      auth->n_msg2_mic_failures);
	else
		failure = g_error_new(
		        WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_TIMEOUT,
		        "The station did not answer %s after %u tries",
		        auth->state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG2   ? "message 1"
		        : auth->state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG4 ? "message 3"
		                                                            : "group message 1",
		        WIFI_AUTHENTICATOR_TRIES);
	wifi_auth_enter(auth, WIFI_AUTHENTICATOR_STATE_FAILED, "%s", failure->message);
	g_propagate_error(error, failure);
}

gboolean
wifi_authenticator_timeout(WifiAuthenticator *auth, GError **error)
{
	switch (auth->state) {
	case WIFI_AUTHENTICATOR_STATE_WAIT_MSG2:
	case WIFI_AUTHENTICATOR_STATE_WAIT_MSG4:
	case WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2:
		break;
	default:
		return TRUE;
	}
	if (auth->sends >= WIFI_AUTHENTICATOR_TRIES) {
		timeout_fail(auth, error);
		return FALSE;
	}
	if (auth->state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG2)
		return wifi_auth_send_msg1(auth, error);
	if (auth->state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG4)
		return wifi_auth_send_msg3(auth, error);
	return wifi_auth_send_group_msg1(auth, error);
}

WifiHandshakeRx
wifi_authenticator_rx(WifiAuthenticator *auth, const guint8 *frame, gsize len, GError **error)
{
	WifiEapolKey key;
	guint16 info;

	g_return_val_if_fail(auth != NULL, WIFI_HANDSHAKE_RX_DROPPED);
	if (!wifi_eapol_key_parse(frame, len, auth->akm->mic_len, &key, error)) {
		g_debug("EAPOL-Key frame from the station dropped: it does not parse");
		return WIFI_HANDSHAKE_RX_DROPPED;
	}
	info = key.key_info;
	if (wifi_eapol_key_version(&key) != auth->akm->version)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		                    "key descriptor version %u, but AKM %s uses version %u",
		                    wifi_eapol_key_version(&key),
		                    wifi_akm_suite_to_string(auth->akm->akm), auth->akm->version);
	if ((info & (WIFI_KEY_INFO_ACK | WIFI_KEY_INFO_INSTALL | WIFI_KEY_INFO_REQUEST |
	             WIFI_KEY_INFO_ERROR | WIFI_KEY_INFO_SMK)) ||
	    !(info & WIFI_KEY_INFO_MIC))
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "key information 0x%04x is not an answer from a supplicant",
		                    info);
	if ((info & WIFI_KEY_INFO_PAIRWISE) && !(info & WIFI_KEY_INFO_SECURE))
		return wifi_auth_rx_msg2(auth, frame, &key, error);
	if (info & WIFI_KEY_INFO_PAIRWISE)
		return wifi_auth_rx_msg4(auth, frame, &key, error);
	if (info & WIFI_KEY_INFO_SECURE)
		return wifi_auth_rx_group_msg2(auth, frame, &key, error);
	return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
	                    "a group message with key information 0x%04x", info);
}
