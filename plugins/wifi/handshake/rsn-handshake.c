/* rsn-handshake.c - the supplicant's 4-way and group key handshakes. */
#include "rsn-handshake.h"

#include <string.h>

#include "eapol-key.h"
#include "joind-secret.h"
#include "rsn-crypto.h"
#include "rsn-kde.h"

#define ELEMENT_MAX 257 /* ID, length and 255 octets */
#define PMK_MAX     64
#define SEQ_LEN     6 /* the PN/IPN octets nl80211 takes for CCMP, GCMP and BIP */

struct _WifiHandshake {
	WifiHandshakeCallbacks cb;
	gpointer user_data;
	const WifiAkmInfo *akm;
	guint pairwise_cipher, group_cipher, group_mgmt_cipher;
	guint8 spa[WIFI_ADDR_LEN], aa[WIFI_ADDR_LEN];
	guint8 pmk[PMK_MAX];
	gsize pmk_len;
	guint8 pmkid[WIFI_PMKID_LEN];
	gboolean has_pmkid;
	guint8 own_ie[2 * ELEMENT_MAX]; /* own RSNE then RSNXE: message 2's key data */
	gsize own_ie_len;
	guint8 ap_rsne[ELEMENT_MAX];
	gsize ap_rsne_len;
	guint8 ap_rsnxe[ELEMENT_MAX];
	gsize ap_rsnxe_len;

	WifiHandshakeState state;
	gboolean completed_once; /* a PTK is installed: group rekeys are allowed */
	gboolean snonce_fixed, have_snonce;
	guint8 snonce[WIFI_NONCE_LEN];
	guint8 anonce[WIFI_NONCE_LEN];
	WifiPtk tptk; /* derived at message 1, verified by message 3 */
	WifiPtk ptk;  /* installed */
	gboolean replay_valid;
	guint64 replay_counter; /* of the last frame whose MIC verified */
	guint8 protocol_version;

	/* Installed group keys by key ID (GTK 0..3, IGTK 4..5): a key is never
	 * reinstalled under the ID that holds it already, which would reset
	 * its receive counter and reopen the replay window (KRACK). */
	guint8 gtk[4][WIFI_GTK_MAX_LEN];
	gsize gtk_len[4];
	guint gtk_key_id; /* the last one installed */
	guint8 igtk[2][WIFI_IGTK_MAX_LEN];
	gsize igtk_len[2];

	/* Evidence for wifi_handshake_abort(), for the current 4-way handshake. */
	guint n_msg1;
	guint n_msg3_mic_failures;
};

const gchar *
wifi_handshake_state_to_string(WifiHandshakeState state)
{
	switch (state) {
	case WIFI_HANDSHAKE_STATE_WAIT_MSG1:
		return "wait-msg1";
	case WIFI_HANDSHAKE_STATE_WAIT_MSG3:
		return "wait-msg3";
	case WIFI_HANDSHAKE_STATE_COMPLETE:
		return "complete";
	case WIFI_HANDSHAKE_STATE_FAILED:
		return "failed";
	default:
		return "unknown";
	}
}

/* The one place the state changes: logs "old -> new (reason)". */
static void hs_transition(WifiHandshake *hs, WifiHandshakeState new_state, const gchar *format, ...)
        G_GNUC_PRINTF(3, 4);

static void
hs_transition(WifiHandshake *hs, WifiHandshakeState new_state, const gchar *format, ...)
{
	WifiHandshakeState old_state = hs->state;
	g_autofree gchar *reason = NULL;
	va_list args;

	va_start(args, format);
	reason = g_strdup_vprintf(format, args);
	va_end(args);
	g_debug("handshake with %02x:%02x:%02x:%02x:%02x:%02x: %s -> %s (%s)", hs->aa[0], hs->aa[1],
	        hs->aa[2], hs->aa[3], hs->aa[4], hs->aa[5],
	        wifi_handshake_state_to_string(old_state),
	        wifi_handshake_state_to_string(new_state), reason);
	hs->state = new_state;
	if (new_state == WIFI_HANDSHAKE_STATE_FAILED)
		wifi_ptk_clear(&hs->tptk);
	if (hs->cb.state_changed != NULL)
		hs->cb.state_changed(old_state, new_state, hs->user_data);
}

/* A frame the standard says to discard: report it, keep the state. */
static WifiHandshakeRx hs_drop(GError **error, WifiHandshakeErrorCode code, const gchar *format,
                               ...) G_GNUC_PRINTF(3, 4);

static WifiHandshakeRx
hs_drop(GError **error, WifiHandshakeErrorCode code, const gchar *format, ...)
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

/* Ends the handshake with error (taken over). */
static WifiHandshakeRx
hs_fail(WifiHandshake *hs, GError *failure, GError **error)
{
	hs_transition(hs, WIFI_HANDSHAKE_STATE_FAILED, "%s", failure->message);
	g_propagate_error(error, failure);
	return WIFI_HANDSHAKE_RX_FAILED;
}

static WifiHandshakeRx hs_fail_new(WifiHandshake *hs, GError **error, WifiHandshakeErrorCode code,
                                   const gchar *format, ...) G_GNUC_PRINTF(4, 5);

static WifiHandshakeRx
hs_fail_new(WifiHandshake *hs, GError **error, WifiHandshakeErrorCode code, const gchar *format,
            ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	return hs_fail(hs, g_error_new_literal(WIFI_HANDSHAKE_ERROR, code, message), error);
}

static gboolean
config_check_element(const guint8 *ie, gsize len, guint8 id, gboolean required, const gchar *what,
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

static gboolean
config_check(const WifiHandshakeConfig *c, GError **error)
{
	const WifiAkmInfo *akm = wifi_akm_info(c->akm);

	if (akm == NULL || !wifi_cipher_is_data(c->pairwise_cipher) ||
	    !wifi_cipher_is_data(c->group_cipher) ||
	    (c->group_mgmt_cipher != 0 && !wifi_cipher_is_group_mgmt(c->group_mgmt_cipher))) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "Unsupported security: AKM %s, pairwise %s, group %s, management %s",
		            wifi_akm_suite_to_string(c->akm),
		            wifi_cipher_suite_to_string(c->pairwise_cipher),
		            wifi_cipher_suite_to_string(c->group_cipher),
		            wifi_cipher_suite_to_string(c->group_mgmt_cipher));
		return FALSE;
	}
	if (c->pmk == NULL || wifi_akm_info_sized(c->akm, c->pmk_len, 0) == NULL) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "AKM %s needs a PMK of %" G_GSIZE_FORMAT " octets",
		            wifi_akm_suite_to_string(c->akm), akm->pmk_len);
		return FALSE;
	}
	return config_check_element(c->own_rsne, c->own_rsne_len, WIFI_ELEMENT_RSN, TRUE,
	                            "our own RSN element", error) &&
	       config_check_element(c->own_rsnxe, c->own_rsnxe_len, WIFI_ELEMENT_RSNX, FALSE,
	                            "our own RSNX element", error) &&
	       config_check_element(c->ap_rsne, c->ap_rsne_len, WIFI_ELEMENT_RSN, TRUE,
	                            "the access point's RSN element", error) &&
	       config_check_element(c->ap_rsnxe, c->ap_rsnxe_len, WIFI_ELEMENT_RSNX, FALSE,
	                            "the access point's RSNX element", error);
}

WifiHandshake *
wifi_handshake_new(const WifiHandshakeConfig *config, const WifiHandshakeCallbacks *callbacks,
                   gpointer user_data, GError **error)
{
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
	hs->state = WIFI_HANDSHAKE_STATE_WAIT_MSG1;
	hs->protocol_version = 2;
	g_debug("handshake with %02x:%02x:%02x:%02x:%02x:%02x: %s, pairwise %s, group %s%s%s",
	        hs->aa[0], hs->aa[1], hs->aa[2], hs->aa[3], hs->aa[4], hs->aa[5],
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
static gboolean
hs_send(WifiHandshake *hs, const WifiPtk *ptk, guint16 key_info, guint64 replay_counter,
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

static void
hs_install(WifiHandshake *hs, WifiKeyKind kind, guint key_id, guint cipher, const guint8 *key,
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

/* Why two sides can derive different keys, by AKM: the sentence a person
 * reads when message 3 fails its MIC or message 1 keeps coming back. */
static const gchar *
pmk_mismatch_cause(const WifiHandshake *hs)
{
	switch (hs->akm->akm) {
	case WIFI_AKM_SUITE_PSK:
	case WIFI_AKM_SUITE_PSK_SHA256:
		return "the passphrase is most likely wrong";
	case WIFI_AKM_SUITE_SAE:
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

static WifiHandshakeRx
rx_msg1(WifiHandshake *hs, const WifiEapolKey *key, GError **error)
{
	gboolean rekey = hs->state == WIFI_HANDSHAKE_STATE_COMPLETE;
	gboolean resent = hs->state == WIFI_HANDSHAKE_STATE_WAIT_MSG3;
	GError *local = NULL;

	if (hs->replay_valid && key->replay_counter <= hs->replay_counter)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
		               "message 1 with replay counter %" G_GUINT64_FORMAT
		               ", not above %" G_GUINT64_FORMAT,
		               key->replay_counter, hs->replay_counter);
	if (!msg1_pmkid_matches(hs, key))
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_PMKID_MISMATCH,
		               "message 1 names a PMKID other than that of our PMK");
	/* A retransmitted message 1 keeps our SNonce, so that a message 3 for
	 * either message 2 verifies; a new handshake (rekey) takes a new one. */
	if ((!hs->have_snonce || rekey) && !hs->snonce_fixed) {
		if (!wifi_random_bytes(hs->snonce, WIFI_NONCE_LEN, &local))
			return hs_fail(hs, local, error);
		hs->have_snonce = TRUE;
	}
	if (!resent) {
		hs->n_msg1 = 0;
		hs->n_msg3_mic_failures = 0;
	}
	memcpy(hs->anonce, key->nonce, WIFI_NONCE_LEN);
	if (!wifi_ptk_derive(hs->akm->akm, hs->pairwise_cipher, hs->pmk, hs->pmk_len, hs->aa,
	                     hs->spa, hs->anonce, hs->snonce, &hs->tptk, &local))
		return hs_fail(hs, local, error);
	hs->protocol_version = key->protocol_version;
	if (!hs_send(hs, &hs->tptk, WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC, key->replay_counter,
	             hs->snonce, hs->own_ie, hs->own_ie_len, &local))
		return hs_fail(hs, local, error);
	hs->n_msg1++;
	if (resent)
		hs_transition(hs, WIFI_HANDSHAKE_STATE_WAIT_MSG3,
		              "message 1 again (%u so far), replay counter %" G_GUINT64_FORMAT
		              ": message 2 sent again",
		              hs->n_msg1, key->replay_counter);
	else
		hs_transition(hs, WIFI_HANDSHAKE_STATE_WAIT_MSG3,
		              "%s, replay counter %" G_GUINT64_FORMAT ": message 2 sent",
		              rekey ? "message 1 of a PTK rekey" : "message 1",
		              key->replay_counter);
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

/* Decrypts and parses the Key Data of a MIC-verified frame; the returned
 * buffer (which holds keys) is what kd points into. */
static guint8 *
decrypt_key_data(const WifiPtk *ptk, const WifiEapolKey *key, const gchar *what, gsize *len,
                 WifiKeyData *kd, GError **error)
{
	g_autoptr(GError) local = NULL;
	guint8 *plain;

	if (!(key->key_info & WIFI_KEY_INFO_ENCRYPTED) || key->key_data_len == 0) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "%s carries no encrypted key data, so no group key", what);
		return NULL;
	}
	plain = wifi_eapol_key_data_decrypt(ptk->kek, ptk->kek_len, key->key_data,
	                                    key->key_data_len, len, &local);
	if (plain == NULL) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "The key data of %s did not decrypt: %s", what, local->message);
		return NULL;
	}
	if (!wifi_key_data_parse(plain, *len, kd, &local)) {
		joind_secret_clear(plain, *len);
		g_free(plain);
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "The key data of %s does not parse: %s", what, local->message);
		return NULL;
	}
	return plain;
}

/* The group keys of message 3 or a group message 1 fit what was
 * negotiated. IGTKs are checked only when management frame protection is
 * on (without it they are not installed). */
static gboolean
check_group_keys(const WifiHandshake *hs, const WifiKeyData *kd, gboolean need_igtk,
                 const gchar *what, GError **error)
{
	if (!kd->has_gtk || kd->gtk_len != wifi_cipher_key_len(hs->group_cipher)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "%s has %s GTK for group cipher %s", what,
		            kd->has_gtk ? "a wrong-sized" : "no",
		            wifi_cipher_suite_to_string(hs->group_cipher));
		return FALSE;
	}
	if (hs->group_mgmt_cipher == 0)
		return TRUE;
	if (!kd->has_igtk) {
		if (!need_igtk)
			return TRUE;
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "%s has no IGTK although management frame protection was "
		            "negotiated",
		            what);
		return FALSE;
	}
	if ((kd->igtk_key_id != 4 && kd->igtk_key_id != 5) ||
	    kd->igtk_len != wifi_cipher_key_len(hs->group_mgmt_cipher)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "%s has an IGTK with key ID %u and %" G_GSIZE_FORMAT
		            " octets, which does not fit %s",
		            what, kd->igtk_key_id, kd->igtk_len,
		            wifi_cipher_suite_to_string(hs->group_mgmt_cipher));
		return FALSE;
	}
	return TRUE;
}

/* Installs a group key unless its key ID holds that very key already (a
 * retransmission). Returns whether it installed. */
static gboolean
install_group_key(WifiHandshake *hs, WifiKeyKind kind, guint key_id, const guint8 *key, gsize len,
                  const guint8 *seq)
{
	gboolean mgmt = kind == WIFI_KEY_KIND_GROUP_MGMT;
	guint8 *slot = mgmt ? hs->igtk[key_id - 4] : hs->gtk[key_id];
	gsize *slot_len = mgmt ? &hs->igtk_len[key_id - 4] : &hs->gtk_len[key_id];

	if (*slot_len == len && memcmp(slot, key, len) == 0)
		return FALSE;
	memcpy(slot, key, len);
	*slot_len = len;
	hs_install(hs, kind, key_id, mgmt ? hs->group_mgmt_cipher : hs->group_cipher, key, len,
	           seq);
	return TRUE;
}

/* Installs the GTK and, with MFP, the IGTK of checked key data (key IDs
 * and lengths were checked by check_group_keys()). */
static gboolean
install_group_keys(WifiHandshake *hs, const WifiKeyData *kd, const guint8 rsc[8])
{
	gboolean new_gtk = install_group_key(hs, WIFI_KEY_KIND_GROUP, kd->gtk_key_id, kd->gtk,
	                                     kd->gtk_len, rsc);

	hs->gtk_key_id = kd->gtk_key_id;
	if (hs->group_mgmt_cipher != 0 && kd->has_igtk)
		(void)install_group_key(hs, WIFI_KEY_KIND_GROUP_MGMT, kd->igtk_key_id, kd->igtk,
		                        kd->igtk_len, kd->igtk_ipn);
	return new_gtk;
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
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "message 3 before message 1");
	if (memcmp(key->nonce, hs->anonce, WIFI_NONCE_LEN) != 0)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "the ANonce of message 3 differs from message 1's");
	if (hs->replay_valid && key->replay_counter <= hs->replay_counter)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
		               "message 3 with replay counter %" G_GUINT64_FORMAT
		               ", not above %" G_GUINT64_FORMAT,
		               key->replay_counter, hs->replay_counter);
	if (!wifi_eapol_key_verify_mic(hs->akm->akm, ptk->kck, ptk->kck_len, frame, key, &local)) {
		if (local->code != WIFI_HANDSHAKE_ERROR_MIC) {
			g_propagate_error(error, g_steal_pointer(&local));
			return WIFI_HANDSHAKE_RX_DROPPED;
		}
		hs->n_msg3_mic_failures++;
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_MIC,
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
	hs_install(hs, WIFI_KEY_KIND_PAIRWISE, 0, hs->pairwise_cipher, hs->ptk.tk, hs->ptk.tk_len,
	           NULL);
}

static WifiHandshakeRx
rx_msg3(WifiHandshake *hs, const guint8 *frame, const WifiEapolKey *key, GError **error)
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
		return hs_fail_new(hs, error, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		                   "Message 3 announces a %u octet pairwise key, but %s keys have "
		                   "%" G_GSIZE_FORMAT " octets",
		                   key->key_length,
		                   wifi_cipher_suite_to_string(hs->pairwise_cipher), tk_len);
	plain = decrypt_key_data(ptk, key, "message 3", &plain_len, &kd, &local);
	if (plain == NULL || !check_msg3_elements(hs, &kd, &local) ||
	    !check_group_keys(hs, &kd, TRUE, "Message 3", &local) ||
	    !hs_send(hs, ptk, WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE,
	             key->replay_counter, NULL, NULL, 0, &local)) {
		if (plain != NULL)
			joind_secret_clear(plain, plain_len);
		return hs_fail(hs, local, error);
	}
	install_ptk(hs, ptk);
	(void)install_group_keys(hs, &kd, key->rsc);
	joind_secret_clear(plain, plain_len);
	hs->completed_once = TRUE;
	hs->n_msg1 = 0;
	hs_transition(hs, WIFI_HANDSHAKE_STATE_COMPLETE,
	              again ? "message 3 again: message 4 sent again, keys kept"
	                    : "message 3 verified: message 4 sent, keys installed");
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

static WifiHandshakeRx
rx_group_msg1(WifiHandshake *hs, const guint8 *frame, const WifiEapolKey *key, GError **error)
{
	g_autofree guint8 *plain = NULL;
	gsize plain_len = 0;
	WifiKeyData kd;
	GError *local = NULL;
	gboolean new_gtk;

	if (!hs->completed_once)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "a group key message before the 4-way handshake completed");
	if (hs->replay_valid && key->replay_counter <= hs->replay_counter)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
		               "group message 1 with replay counter %" G_GUINT64_FORMAT
		               ", not above %" G_GUINT64_FORMAT,
		               key->replay_counter, hs->replay_counter);
	if (!wifi_eapol_key_verify_mic(hs->akm->akm, hs->ptk.kck, hs->ptk.kck_len, frame, key,
	                               error)) {
		g_debug("EAPOL-Key frame dropped: group message 1 failed its MIC");
		return WIFI_HANDSHAKE_RX_DROPPED;
	}
	hs->replay_valid = TRUE;
	hs->replay_counter = key->replay_counter;
	plain = decrypt_key_data(&hs->ptk, key, "group message 1", &plain_len, &kd, &local);
	if (plain == NULL || !check_group_keys(hs, &kd, FALSE, "Group message 1", &local) ||
	    !hs_send(hs, &hs->ptk, WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE, key->replay_counter,
	             NULL, NULL, 0, &local)) {
		if (plain != NULL)
			joind_secret_clear(plain, plain_len);
		return hs_fail(hs, local, error);
	}
	new_gtk = install_group_keys(hs, &kd, key->rsc);
	joind_secret_clear(plain, plain_len);
	hs_transition(hs, hs->state, "group key handshake: GTK %u %s, group message 2 sent",
	              hs->gtk_key_id, new_gtk ? "installed" : "unchanged (a retransmission)");
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}

WifiHandshakeRx
wifi_handshake_rx(WifiHandshake *hs, const guint8 *frame, gsize len, GError **error)
{
	WifiEapolKey key;
	guint16 info;

	g_return_val_if_fail(hs != NULL, WIFI_HANDSHAKE_RX_DROPPED);
	if (hs->state == WIFI_HANDSHAKE_STATE_FAILED)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "the handshake has failed already");
	if (!wifi_eapol_key_parse(frame, len, hs->akm->mic_len, &key, error)) {
		g_debug("EAPOL-Key frame dropped: it does not parse");
		return WIFI_HANDSHAKE_RX_DROPPED;
	}
	info = key.key_info;
	if (wifi_eapol_key_version(&key) != hs->akm->version)
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		               "key descriptor version %u, but AKM %s uses version %u",
		               wifi_eapol_key_version(&key), wifi_akm_suite_to_string(hs->akm->akm),
		               hs->akm->version);
	if (!(info & WIFI_KEY_INFO_ACK) ||
	    (info & (WIFI_KEY_INFO_REQUEST | WIFI_KEY_INFO_ERROR | WIFI_KEY_INFO_SMK)))
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "key information 0x%04x is not a message from an authenticator",
		               info);
	if (info & WIFI_KEY_INFO_PAIRWISE) {
		if (!(info & WIFI_KEY_INFO_MIC))
			return rx_msg1(hs, &key, error);
		if (info & WIFI_KEY_INFO_INSTALL)
			return rx_msg3(hs, frame, &key, error);
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "a pairwise message with key information 0x%04x is neither "
		               "message 1 nor message 3",
		               info);
	}
	if (!(info & WIFI_KEY_INFO_MIC))
		return hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		               "a group key message without a MIC");
	return rx_group_msg1(hs, frame, &key, error);
}

const gchar *
wifi_reason_to_string(guint16 reason_code)
{
	switch (reason_code) {
	case 1:
		return "unspecified";
	case 2:
		return "previous authentication no longer valid";
	case 3:
		return "the access point is leaving or shutting down";
	case 4:
		return "inactivity";
	case 5:
		return "the access point cannot handle all associated stations";
	case 6:
	case 7:
		return "frame received from a station that is not associated";
	case 8:
		return "the station is leaving";
	case 13:
		return "invalid element";
	case 14:
		return "message integrity code (MIC) failure";
	case 15:
		return "4-way handshake timeout";
	case 16:
		return "group key handshake timeout";
	case 17:
		return "element in 4-way handshake different from (re)association";
	case 18:
		return "invalid group cipher";
	case 19:
		return "invalid pairwise cipher";
	case 20:
		return "invalid AKMP";
	case 21:
		return "unsupported RSNE version";
	case 22:
		return "invalid RSNE capabilities";
	case 23:
		return "IEEE 802.1X authentication failed";
	case 24:
		return "cipher suite rejected by security policy";
	default:
		return "reason not known to joind";
	}
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
	hs_fail(hs, failure, error);
}
