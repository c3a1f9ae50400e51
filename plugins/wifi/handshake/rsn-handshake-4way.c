/* rsn-handshake-4way.c - the supplicant's 4-way handshake (IEEE 802.11-2020
 * 12.7.6): message 1 answered with message 2, message 3 verified and
 * answered with message 4, the keys installed; and, when the station gives
 * up, the error the evidence gathered so far points to.
 */
#include "rsn-handshake-private.h"

#include <string.h>

#include "codes.h"
#include "joind-secret.h"
#include "rsn-crypto.h"

/* Why two sides can derive different keys, by AKM: the sentence a person
 * reads when message 3 fails its MIC or message 1 keeps coming back. */
static const gchar *
pmk_mismatch_cause(const WifiHandshake *hs)
{
	switch (hs->akm->akm) {
	case WIFI_AKM_SUITE_PSK:
	case WIFI_AKM_SUITE_PSK_SHA256:
	case WIFI_AKM_SUITE_FT_PSK:
		return "the passphrase is most likely wrong";
	case WIFI_AKM_SUITE_SAE:
	case WIFI_AKM_SUITE_FT_SAE:
		return "the SAE exchange left the two sides with different keys";
	case WIFI_AKM_SUITE_OWE:
		return "the OWE exchange left the two sides with different keys";
	default:
		return "the 802.1X authentication left the two sides with different keys";
	}
}

/* Message 1's Key Data is in the clear; a PMKID KDE there names the PMK
 * the access point keys with. */
static gboolean
msg1_pmkid_matches(const WifiHandshake *hs, const WifiEapolKey *key)
{
	WifiKeyData kd;

	if (!hs->has_pmkid || key->key_data_len == 0 ||
	    !wifi_key_data_parse(key->key_data, key->key_data_len, &kd, NULL) || kd.pmkid == NULL)
		return TRUE;
	return memcmp(kd.pmkid, hs->pmkid, WIFI_PMKID_LEN) == 0;
}

WifiHandshakeRx
wifi_hs_rx_msg1(WifiHandshake *hs, const WifiEapolKey *key, GError **error)
{
	gboolean rekey = hs->state == WIFI_HANDSHAKE_STATE_COMPLETE;
	gboolean resent = hs->state == WIFI_HANDSHAKE_STATE_WAIT_MSG3;
	GError *local = NULL;

	if (hs->replay_valid && key->replay_counter <= hs->replay_counter)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
		                    "message 1 with replay counter %" G_GUINT64_FORMAT
		                    ", not above %" G_GUINT64_FORMAT,
		                    key->replay_counter, hs->replay_counter);
	if (!msg1_pmkid_matches(hs, key))
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_PMKID_MISMATCH,
		                    "message 1 names a PMKID other than that of our PMK");
	/* A retransmitted message 1 keeps our SNonce, so that a message 3 for
	 * either message 2 verifies; a new handshake (rekey) takes a new one. */
	if ((!hs->have_snonce || rekey) && !hs->snonce_fixed) {
		if (!wifi_random_bytes(hs->snonce, WIFI_NONCE_LEN, &local))
			return wifi_hs_fail(hs, local, error);
		hs->have_snonce = TRUE;
	}
	if (!resent) {
		hs->n_msg1 = 0;
		hs->n_msg3_mic_failures = 0;
	}
	memcpy(hs->anonce, key->nonce, WIFI_NONCE_LEN);
	if (!wifi_hs_derive_ptk(hs, &local))
		return wifi_hs_fail(hs, local, error);
	hs->protocol_version = key->protocol_version;
	if (!wifi_hs_send(hs, &hs->tptk, WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC,
	                  key->replay_counter, hs->snonce, hs->own_ie, hs->own_ie_len, &local))
		return wifi_hs_fail(hs, local, error);
	hs->n_msg1++;
	if (resent)
		wifi_hs_transition(hs, WIFI_HANDSHAKE_STATE_WAIT_MSG3,
		                   "message 1 again (%u so far), replay counter %" G_GUINT64_FORMAT
		                   ": message 2 sent again",
		                   hs->n_msg1, key->replay_counter);
	else
		wifi_hs_transition(hs, WIFI_HANDSHAKE_STATE_WAIT_MSG3,
		                   "%s, replay counter %" G_GUINT64_FORMAT ": message 2 sent",
		                   rekey ? "message 1 of a PTK rekey" : "message 1",
		                   key->replay_counter);
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

/* Message 3's elements say what the beacon said (12.7.6.4). */
static gboolean
check_msg3_elements(const WifiHandshake *hs, const WifiKeyData *kd, GError **error)
{
	WifiRsne second;

	if (kd->rsne == NULL) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
		                    "Message 3 of the 4-way handshake carries no RSN element to "
		                    "compare with the beacon's; not connecting");
		return FALSE;
	}
	if (!wifi_rsne_matches(hs->ap_rsne, hs->ap_rsne_len, kd->rsne, kd->rsne_len, error))
		return FALSE;
	/* A second RSNE assigns the pairwise cipher: it must be ours. */
	if (kd->rsne2 != NULL &&
	    (!wifi_rsne_parse(kd->rsne2, kd->rsne2_len, &second, NULL) || second.n_pairwise != 1 ||
	     second.pairwise[0] != wifi_cipher_suite_selector(hs->pairwise_cipher))) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
		                    "Message 3 of the 4-way handshake assigns a pairwise cipher "
		                    "other than the one we associated with; not connecting");
		return FALSE;
	}
	if (hs->ap_rsnxe_len != kd->rsnxe_len ||
	    (kd->rsnxe_len > 0 && memcmp(hs->ap_rsnxe, kd->rsnxe, kd->rsnxe_len) != 0)) {
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
		                    "The access point's RSNX element in message 3 of the 4-way "
		                    "handshake differs from the one in its beacon: a possible "
		                    "downgrade attack; not connecting");
		return FALSE;
	}
	return TRUE;
}

/* The checks before message 3 is trusted; a failure drops the frame. */
static WifiHandshakeRx
msg3_verify(WifiHandshake *hs, const WifiPtk *ptk, const guint8 *frame, const WifiEapolKey *key,
            GError **error)
{
	g_autoptr(GError) local = NULL;

	if (hs->state == WIFI_HANDSHAKE_STATE_WAIT_MSG1)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "message 3 before message 1");
	if (memcmp(key->nonce, hs->anonce, WIFI_NONCE_LEN) != 0)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "the ANonce of message 3 differs from message 1's");
	if (hs->replay_valid && key->replay_counter <= hs->replay_counter)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
		                    "message 3 with replay counter %" G_GUINT64_FORMAT
		                    ", not above %" G_GUINT64_FORMAT,
		                    key->replay_counter, hs->replay_counter);
	if (!wifi_eapol_key_verify_mic(hs->akm->akm, ptk->kck, ptk->kck_len, frame, key, &local)) {
		if (local->code != WIFI_HANDSHAKE_ERROR_MIC) {
			g_propagate_error(error, g_steal_pointer(&local));
			return WIFI_HANDSHAKE_RX_DROPPED;
		}
		hs->n_msg3_mic_failures++;
		return wifi_hs_drop(
		        error, WIFI_HANDSHAKE_ERROR_MIC,
		        "Message 3 of the 4-way handshake failed its integrity check "
		        "(MIC): the access point derived different keys from ours, so %s",
		        pmk_mismatch_cause(hs));
	}
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

/* Installs the PTK of a verified message 3, once per PTK. */
static void
install_ptk(WifiHandshake *hs, const WifiPtk *verified)
{
	if (hs->completed_once && verified == &hs->ptk)
		return;
	if (hs->completed_once && memcmp(hs->ptk.tk, verified->tk, verified->tk_len) == 0)
		return;
	hs->ptk = *verified;
	wifi_hs_install(hs, WIFI_KEY_KIND_PAIRWISE, 0, hs->pairwise_cipher, hs->ptk.tk,
	                hs->ptk.tk_len, NULL);
}

WifiHandshakeRx
wifi_hs_rx_msg3(WifiHandshake *hs, const guint8 *frame, const WifiEapolKey *key, GError **error)
{
	/* A retransmitted message 3 (our message 4 was lost) is checked with
	 * the installed PTK. */
	gboolean again = hs->state == WIFI_HANDSHAKE_STATE_COMPLETE;
	const WifiPtk *ptk = again ? &hs->ptk : &hs->tptk;
	gsize tk_len = wifi_cipher_key_len(hs->pairwise_cipher);
	g_autofree guint8 *plain = NULL;
	gsize plain_len = 0;
	WifiKeyData kd;
	GError *local = NULL;
	WifiHandshakeRx rx = msg3_verify(hs, ptk, frame, key, error);

	if (rx != WIFI_HANDSHAKE_RX_ACCEPTED)
		return rx;
	hs->replay_valid = TRUE;
	hs->replay_counter = key->replay_counter;
	if (key->key_length != 0 && key->key_length != tk_len)
		return wifi_hs_fail_new(
		        hs, error, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		        "Message 3 announces a %u octet pairwise key, but %s keys have "
		        "%" G_GSIZE_FORMAT " octets",
		        key->key_length, wifi_cipher_suite_to_string(hs->pairwise_cipher), tk_len);
	plain = wifi_hs_decrypt_key_data(ptk, key, "message 3", &plain_len, &kd, &local);
	if (plain == NULL || !check_msg3_elements(hs, &kd, &local) ||
	    !wifi_hs_ft_check_msg3(hs, &kd, &local) ||
	    !wifi_hs_check_group_keys(hs, &kd, TRUE, "Message 3", &local) ||
	    !wifi_hs_send(hs, ptk,
	                  WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE,
	                  key->replay_counter, NULL, NULL, 0, &local)) {
		if (plain != NULL)
			joind_secret_clear(plain, plain_len);
		return wifi_hs_fail(hs, local, error);
	}
	install_ptk(hs, ptk);
	(void)wifi_hs_install_group_keys(hs, &kd, key->rsc);
	if (kd.has_transition_disable)
		hs->transition_disable |= kd.transition_disable;
	joind_secret_clear(plain, plain_len);
	hs->completed_once = TRUE;
	hs->n_msg1 = 0;
	wifi_hs_transition(hs, WIFI_HANDSHAKE_STATE_COMPLETE,
	                   again ? "message 3 again: message 4 sent again, keys kept"
	                         : "message 3 verified: message 4 sent, keys installed");
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

/* Whether the access point said why it ended the handshake in terms that
 * name a key mismatch. Only reason 14 (MIC failure) does. Reason 15 (4-way
 * handshake timeout) is what an access point sends for a wrong passphrase
 * (our message 2 fails its check, it gives up) but just as much for a lost
 * or late message 2, and reason 23 (802.1X authentication failed) says
 * nothing about a PSK and, after an EAP success, nothing about the
 * credentials either: both stay suspicions. */
static gboolean
reason_says_mic_failure(WifiHandshakeAbort cause, guint16 reason_code)
{
	return cause == WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED && reason_code == 14;
}

/* The error for an abort in wait-msg3: message 2 was sent, message 3
 * never verified. Every sign of a wrong passphrase here (a deauthentication
 * or a timeout, message 1 sent again, a message 3 that fails its MIC) is an
 * unprotected frame or its absence, which anyone in radio range can forge
 * and a slow access point causes by accident: NO_MSG3, a suspicion that
 * autoconnect weighs over several attempts. Only the access point's own
 * word, a MIC-failure reason, makes WRONG_PASSPHRASE. */
static GError *
abort_wait_msg3_error(const WifiHandshake *hs, WifiHandshakeAbort cause, guint16 reason_code,
                      const gchar *how)
{
	const gchar *mismatch = pmk_mismatch_cause(hs);
	gint code = reason_says_mic_failure(cause, reason_code)
	                    ? WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE
	                    : WIFI_HANDSHAKE_ERROR_NO_MSG3;

	if (hs->n_msg3_mic_failures > 0)
		return g_error_new(WIFI_HANDSHAKE_ERROR, code,
		                   "The 4-way handshake failed (%s): message 3 from the access "
		                   "point failed its integrity check %u time(s), so the two sides "
		                   "derived different keys: %s",
		                   how, hs->n_msg3_mic_failures, mismatch);
	if (hs->n_msg1 > 1)
		return g_error_new(WIFI_HANDSHAKE_ERROR, code,
		                   "The 4-way handshake failed (%s): the access point sent "
		                   "message 1 %u times instead of answering our message 2, i.e. it "
		                   "could not verify it: %s",
		                   how, hs->n_msg1, mismatch);
	return g_error_new(WIFI_HANDSHAKE_ERROR, code,
	                   "The 4-way handshake failed (%s): the access point never answered our "
	                   "message 2; %s",
	                   how,
	                   hs->akm->akm == WIFI_AKM_SUITE_PSK ||
	                                   hs->akm->akm == WIFI_AKM_SUITE_PSK_SHA256
	                           ? "the passphrase may be wrong"
	                           : "the two sides may hold different keys");
}

void
wifi_handshake_abort(WifiHandshake *hs, WifiHandshakeAbort cause, guint16 reason_code,
                     GError **error)
{
	g_autofree gchar *how = NULL;
	GError *failure;

	g_return_if_fail(hs != NULL);
	if (cause == WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED)
		how = g_strdup_printf("the access point disconnected us, reason %u: %s",
		                      reason_code, wifi_reason_to_string(reason_code));
	else
		how = g_strdup("timed out");
	switch (hs->state) {
	case WIFI_HANDSHAKE_STATE_WAIT_MSG1:
		failure = g_error_new(WIFI_HANDSHAKE_ERROR,
		                      cause == WIFI_HANDSHAKE_ABORT_TIMEOUT
		                              ? WIFI_HANDSHAKE_ERROR_TIMEOUT
		                              : WIFI_HANDSHAKE_ERROR_DEAUTHENTICATED,
		                      "The 4-way handshake failed (%s): the access point never "
		                      "sent message 1",
		                      how);
		break;
	case WIFI_HANDSHAKE_STATE_WAIT_MSG3:
		/* After a first success the passphrase is known to be good. */
		if (hs->completed_once)
			failure = g_error_new(WIFI_HANDSHAKE_ERROR,
			                      cause == WIFI_HANDSHAKE_ABORT_TIMEOUT
			                              ? WIFI_HANDSHAKE_ERROR_TIMEOUT
			                              : WIFI_HANDSHAKE_ERROR_DEAUTHENTICATED,
			                      "A PTK rekey failed (%s)", how);
		else
			failure = abort_wait_msg3_error(hs, cause, reason_code, how);
		break;
	case WIFI_HANDSHAKE_STATE_COMPLETE:
		failure = g_error_new(WIFI_HANDSHAKE_ERROR,
		                      cause == WIFI_HANDSHAKE_ABORT_TIMEOUT
		                              ? WIFI_HANDSHAKE_ERROR_TIMEOUT
		                              : WIFI_HANDSHAKE_ERROR_DEAUTHENTICATED,
		                      "The connection ended (%s)", how);
		break;
	case WIFI_HANDSHAKE_STATE_FAILED:
	default:
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		            "The handshake had failed already (%s)", how);
		return;
	}
	wifi_hs_fail(hs, failure, error);
}
