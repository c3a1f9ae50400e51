/* rsn-handshake.c - the supplicant's handshake object: its configuration,
 * its state and the dispatch of each received EAPOL-Key frame to the 4-way
 * handshake (rsn-handshake-4way.c) or the group key handshake
 * (rsn-handshake-group.c).
 */
#include "rsn-handshake-private.h"

#include <string.h>

#include "joind-mac.h"
#include "joind-log.h"
#include "joind-secret.h"

const gchar *
wifi_handshake_state_to_string(WifiHandshakeState state)
{
	static const gchar *const names[] = {
	        [WIFI_HANDSHAKE_STATE_WAIT_MSG1] = "wait-msg1",
	        [WIFI_HANDSHAKE_STATE_WAIT_MSG3] = "wait-msg3",
	        [WIFI_HANDSHAKE_STATE_COMPLETE] = "complete",
	        [WIFI_HANDSHAKE_STATE_FAILED] = "failed",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == WIFI_HANDSHAKE_STATE_LAST + 1);

	if ((guint)state < G_N_ELEMENTS(names))
		return names[state];
	return "unknown";
}

void
wifi_hs_transition(WifiHandshake *hs, WifiHandshakeState new_state, const gchar *format, ...)
{
	WifiHandshakeState old_state = hs->state;
	g_autofree gchar *reason = NULL;
	g_autofree gchar *machine = NULL;
	gchar aa[JOIND_MAC_STRING_LEN];
	va_list args;

	va_start(args, format);
	reason = g_strdup_vprintf(format, args);
	va_end(args);
	machine = g_strconcat("handshake with ", joind_mac_to_string(hs->aa, aa), NULL);
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", NULL, NULL, machine},
	                       wifi_handshake_state_to_string(old_state),
	                       wifi_handshake_state_to_string(new_state), reason);
	hs->state = new_state;
	if (new_state == WIFI_HANDSHAKE_STATE_FAILED)
		wifi_ptk_clear(&hs->tptk);
	if (hs->cb.state_changed != NULL)
		hs->cb.state_changed(old_state, new_state, hs->user_data);
}

WifiHandshakeRx
wifi_hs_drop(GError **error, WifiHandshakeErrorCode code, const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_debug("EAPOL-Key frame dropped: %s", message);
	g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, code, message);
	return WIFI_HANDSHAKE_RX_DROPPED;
}

WifiHandshakeRx
wifi_hs_fail(WifiHandshake *hs, GError *failure, GError **error)
{
	wifi_hs_transition(hs, WIFI_HANDSHAKE_STATE_FAILED, "%s", failure->message);
	g_propagate_error(error, failure);
	return WIFI_HANDSHAKE_RX_FAILED;
}

WifiHandshakeRx
wifi_hs_fail_new(WifiHandshake *hs, GError **error, WifiHandshakeErrorCode code,
                 const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	return wifi_hs_fail(hs, g_error_new_literal(WIFI_HANDSHAKE_ERROR, code, message), error);
}

gboolean
wifi_hs_check_element(const guint8 *ie, gsize len, guint8 id, gboolean required, const gchar *what,
                      GError **error)
{
	if (ie == NULL || len == 0) {
		if (!required)
			return TRUE;
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "The handshake needs %s", what);
		return FALSE;
	}
	if (len < 2 || len > ELEMENT_MAX || ie[0] != id || (gsize)ie[1] + 2 != len) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "%s is not one whole element", what);
		return FALSE;
	}
	return TRUE;
}

gboolean
wifi_hs_check_suites(guint akm_suite, guint pairwise, guint group, guint group_mgmt,
                     const guint8 *pmk, gsize pmk_len, GError **error)
{
	const WifiAkmInfo *akm = wifi_akm_info(akm_suite);

	if (akm == NULL || !wifi_cipher_is_data(pairwise) || !wifi_cipher_is_data(group) ||
	    (group_mgmt != 0 && !wifi_cipher_is_group_mgmt(group_mgmt))) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "Unsupported security: AKM %s, pairwise %s, group %s, management %s",
		            wifi_akm_suite_to_string(akm_suite),
		            wifi_cipher_suite_to_string(pairwise),
		            wifi_cipher_suite_to_string(group),
		            wifi_cipher_suite_to_string(group_mgmt));
		return FALSE;
	}
	if (pmk == NULL || wifi_akm_info_sized(akm_suite, pmk_len, 0) == NULL) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "AKM %s needs a PMK of %" G_GSIZE_FORMAT " octets",
		            wifi_akm_suite_to_string(akm_suite), akm->pmk_len);
		return FALSE;
	}
	return TRUE;
}

static gboolean
config_check(const WifiHandshakeConfig *c, GError **error)
{
	if (!wifi_hs_check_suites(c->akm, c->pairwise_cipher, c->group_cipher, c->group_mgmt_cipher,
	                          c->pmk, c->pmk_len, error))
		return FALSE;
	return wifi_hs_check_element(c->own_rsne, c->own_rsne_len, WIFI_ELEMENT_RSN, TRUE,
	                             "our own RSN element", error) &&
	       wifi_hs_check_element(c->own_rsnxe, c->own_rsnxe_len, WIFI_ELEMENT_RSNX, FALSE,
	                             "our own RSNX element", error) &&
	       wifi_hs_check_element(c->ap_rsne, c->ap_rsne_len, WIFI_ELEMENT_RSN, TRUE,
	                             "the access point's RSN element", error) &&
	       wifi_hs_check_element(c->ap_rsnxe, c->ap_rsnxe_len, WIFI_ELEMENT_RSNX, FALSE,
	                             "the access point's RSNX element", error);
}

WifiHandshake *
wifi_handshake_new(const WifiHandshakeConfig *config, const WifiHandshakeCallbacks *callbacks,
                   gpointer user_data, GError **error)
{
	gchar aa[JOIND_MAC_STRING_LEN];
	WifiHandshake *hs;

	g_return_val_if_fail(config != NULL && callbacks != NULL, NULL);
	g_return_val_if_fail(callbacks->send != NULL && callbacks->install_key != NULL, NULL);
	if (!config_check(config, error))
		return NULL;
	hs = g_new0(WifiHandshake, 1);
	hs->cb = *callbacks;
	hs->user_data = user_data;
	hs->akm = wifi_akm_info_sized(config->akm, config->pmk_len, 0);
	hs->pairwise_cipher = config->pairwise_cipher;
	hs->group_cipher = config->group_cipher;
	hs->group_mgmt_cipher = config->group_mgmt_cipher;
	memcpy(hs->spa, config->spa, WIFI_ADDR_LEN);
	memcpy(hs->aa, config->aa, WIFI_ADDR_LEN);
	memcpy(hs->pmk, config->pmk, config->pmk_len);
	hs->pmk_len = config->pmk_len;
	hs->has_pmkid = config->pmkid != NULL;
	if (hs->has_pmkid)
		memcpy(hs->pmkid, config->pmkid, WIFI_PMKID_LEN);
	memcpy(hs->own_ie, config->own_rsne, config->own_rsne_len);
	hs->own_ie_len = config->own_rsne_len;
	if (config->own_rsnxe_len > 0) {
		memcpy(hs->own_ie + hs->own_ie_len, config->own_rsnxe, config->own_rsnxe_len);
		hs->own_ie_len += config->own_rsnxe_len;
	}
	memcpy(hs->ap_rsne, config->ap_rsne, config->ap_rsne_len);
	hs->ap_rsne_len = config->ap_rsne_len;
	if (config->ap_rsnxe_len > 0)
		memcpy(hs->ap_rsnxe, config->ap_rsnxe, config->ap_rsnxe_len);
	hs->ap_rsnxe_len = config->ap_rsnxe_len;
	if (!wifi_hs_ft_setup(hs, config, error)) {
		wifi_handshake_free(hs);
		return NULL;
	}
	hs->state = WIFI_HANDSHAKE_STATE_WAIT_MSG1;
	hs->protocol_version = 2;
	g_debug("handshake with %s: %s, pairwise %s, group %s%s%s", joind_mac_to_string(hs->aa, aa),
	        wifi_akm_suite_to_string(config->akm),
	        wifi_cipher_suite_to_string(hs->pairwise_cipher),
	        wifi_cipher_suite_to_string(hs->group_cipher),
	        hs->group_mgmt_cipher != 0 ? ", management " : "",
	        hs->group_mgmt_cipher != 0 ? wifi_cipher_suite_to_string(hs->group_mgmt_cipher)
	                                   : "");
	return hs;
}

void
wifi_handshake_free(WifiHandshake *hs)
{
	if (hs == NULL)
		return;
	/* PMK, PTKs and group keys live inside the struct. */
	joind_secret_clear(hs, sizeof(*hs));
	g_free(hs);
}

WifiHandshakeState
wifi_handshake_get_state(const WifiHandshake *hs)
{
	return hs->state;
}

guint8
wifi_handshake_get_transition_disable(const WifiHandshake *hs)
{
	return hs->transition_disable;
}

gboolean
wifi_handshake_has_ptk(const WifiHandshake *hs)
{
	return hs->completed_once;
}

gboolean
wifi_handshake_set_pmk(WifiHandshake *hs, const guint8 *pmk, gsize pmk_len, const guint8 *pmkid,
                       GError **error)
{
	if (pmk == NULL || pmk_len != hs->akm->pmk_len) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "AKM %s needs a PMK of %" G_GSIZE_FORMAT " octets",
		            wifi_akm_suite_to_string(hs->akm->akm), hs->akm->pmk_len);
		return FALSE;
	}
	joind_secret_clear(hs->pmk, sizeof(hs->pmk));
	memcpy(hs->pmk, pmk, pmk_len);
	hs->pmk_len = pmk_len;
	hs->has_pmkid = pmkid != NULL;
	if (pmkid != NULL)
		memcpy(hs->pmkid, pmkid, WIFI_PMKID_LEN);
	return TRUE;
}

void
wifi_handshake_set_snonce(WifiHandshake *hs, const guint8 snonce[WIFI_NONCE_LEN])
{
	memcpy(hs->snonce, snonce, WIFI_NONCE_LEN);
	hs->snonce_fixed = TRUE;
	hs->have_snonce = TRUE;
}

/* Builds, signs and sends a supplicant frame (message 2, 4, group 2). */
gboolean
wifi_hs_send(WifiHandshake *hs, const WifiPtk *ptk, guint16 key_info, guint64 replay_counter,
             const guint8 *nonce, const guint8 *key_data, gsize key_data_len, GError **error)
{
	WifiEapolKey key = {0};
	g_autofree guint8 *frame = NULL;
	gsize len = 0;

	key.protocol_version = hs->protocol_version;
	key.descriptor_type = WIFI_EAPOL_KEY_DESC_RSN;
	key.key_info = (guint16)(key_info | hs->akm->version);
	key.replay_counter = replay_counter;
	if (nonce != NULL)
		memcpy(key.nonce, nonce, WIFI_NONCE_LEN);
	key.mic_len = hs->akm->mic_len;
	key.key_data = key_data;
	key.key_data_len = key_data_len;
	frame = wifi_eapol_key_build(&key, &len);
	if (!wifi_eapol_key_sign(hs->akm->akm, ptk->kck, ptk->kck_len, frame, len, key.mic_len,
	                         error))
		return FALSE;
	hs->cb.send(frame, len, hs->user_data);
	return TRUE;
}

void
wifi_hs_install(WifiHandshake *hs, WifiKeyKind kind, guint key_id, guint cipher, const guint8 *key,
                gsize key_len, const guint8 *seq)
{
	WifiHandshakeKey k = {
	        .kind = kind,
	        .key_id = key_id,
	        .cipher = cipher,
	        .key = key,
	        .key_len = key_len,
	        .seq = seq,
	        .seq_len = seq != NULL ? SEQ_LEN : 0,
	        .addr = kind == WIFI_KEY_KIND_PAIRWISE ? hs->aa : NULL,
	};

	g_debug("installing %s key %u (%s, %" G_GSIZE_FORMAT " octets)",
	        kind == WIFI_KEY_KIND_PAIRWISE ? "pairwise"
	        : kind == WIFI_KEY_KIND_GROUP  ? "group"
	                                       : "group management",
	        key_id, wifi_cipher_suite_to_string(cipher), key_len);
	hs->cb.install_key(&k, hs->user_data);
}

WifiHandshakeRx
wifi_handshake_rx(WifiHandshake *hs, const guint8 *frame, gsize len, GError **error)
{
	WifiEapolKey key;
	guint16 info;

	g_return_val_if_fail(hs != NULL, WIFI_HANDSHAKE_RX_DROPPED);
	if (hs->state == WIFI_HANDSHAKE_STATE_FAILED)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "the handshake has failed already");
	if (!wifi_eapol_key_parse(frame, len, hs->akm->mic_len, &key, error)) {
		g_debug("EAPOL-Key frame dropped: it does not parse");
		return WIFI_HANDSHAKE_RX_DROPPED;
	}
	info = key.key_info;
	if (wifi_eapol_key_version(&key) != hs->akm->version)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		                    "key descriptor version %u, but AKM %s uses version %u",
		                    wifi_eapol_key_version(&key),
		                    wifi_akm_suite_to_string(hs->akm->akm), hs->akm->version);
	if (!(info & WIFI_KEY_INFO_ACK) ||
	    (info & (WIFI_KEY_INFO_REQUEST | WIFI_KEY_INFO_ERROR | WIFI_KEY_INFO_SMK)))
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "key information 0x%04x is not a message from an authenticator",
		                    info);
	if (info & WIFI_KEY_INFO_PAIRWISE) {
		if (!(info & WIFI_KEY_INFO_MIC))
			return wifi_hs_rx_msg1(hs, &key, error);
		if (info & WIFI_KEY_INFO_INSTALL)
			return wifi_hs_rx_msg3(hs, frame, &key, error);
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "a pairwise message with key information 0x%04x is neither "
		                    "message 1 nor message 3",
		                    info);
	}
	if (!(info & WIFI_KEY_INFO_MIC))
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "a group key message without a MIC");
	return wifi_hs_rx_group_msg1(hs, frame, &key, error);
}
