/* rsn-handshake-group.c - the supplicant's group key handshake (IEEE
 * 802.11-2020 12.7.7), and the Key Data checks and group key installs that
 * message 3 of the 4-way handshake shares with it.
 */
#include "rsn-handshake-private.h"

#include <string.h>

#include "joind-secret.h"

/* Decrypts and parses the Key Data of a MIC-verified frame; the returned
 * buffer (which holds keys) is what kd points into. */
guint8 *
wifi_hs_decrypt_key_data(const WifiPtk *ptk, const WifiEapolKey *key, const gchar *what, gsize *len,
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
gboolean
wifi_hs_check_group_keys(const WifiHandshake *hs, const WifiKeyData *kd, gboolean need_igtk,
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
	wifi_hs_install(hs, kind, key_id, mgmt ? hs->group_mgmt_cipher : hs->group_cipher, key, len,
	                seq);
	return TRUE;
}

/* Installs the GTK and, with MFP, the IGTK of checked key data (key IDs
 * and lengths were checked by wifi_hs_check_group_keys()). */
gboolean
wifi_hs_install_group_keys(WifiHandshake *hs, const WifiKeyData *kd, const guint8 rsc[8])
{
	gboolean new_gtk = install_group_key(hs, WIFI_KEY_KIND_GROUP, kd->gtk_key_id, kd->gtk,
	                                     kd->gtk_len, rsc);

	hs->gtk_key_id = kd->gtk_key_id;
	if (hs->group_mgmt_cipher != 0 && kd->has_igtk)
		(void)install_group_key(hs, WIFI_KEY_KIND_GROUP_MGMT, kd->igtk_key_id, kd->igtk,
		                        kd->igtk_len, kd->igtk_ipn);
	return new_gtk;
}

WifiHandshakeRx
wifi_hs_rx_group_msg1(WifiHandshake *hs, const guint8 *frame, const WifiEapolKey *key,
                      GError **error)
{
	g_autofree guint8 *plain = NULL;
	gsize plain_len = 0;
	WifiKeyData kd;
	GError *local = NULL;
	gboolean new_gtk;

	if (!hs->completed_once)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_UNEXPECTED,
		                    "a group key message before the 4-way handshake completed");
	if (hs->replay_valid && key->replay_counter <= hs->replay_counter)
		return wifi_hs_drop(error, WIFI_HANDSHAKE_ERROR_REPLAY,
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
	plain = wifi_hs_decrypt_key_data(&hs->ptk, key, "group message 1", &plain_len, &kd, &local);
	if (plain == NULL || !wifi_hs_check_group_keys(hs, &kd, FALSE, "Group message 1", &local) ||
	    !wifi_hs_send(hs, &hs->ptk, WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE,
	                  key->replay_counter, NULL, NULL, 0, &local)) {
		if (plain != NULL)
			joind_secret_clear(plain, plain_len);
		return wifi_hs_fail(hs, local, error);
	}
	new_gtk = wifi_hs_install_group_keys(hs, &kd, key->rsc);
	joind_secret_clear(plain, plain_len);
	wifi_hs_transition(hs, hs->state, "group key handshake: GTK %u %s, group message 2 sent",
	                   hs->gtk_key_id, new_gtk ? "installed" : "unchanged (a retransmission)");
	return WIFI_HANDSHAKE_RX_ACCEPTED;
}
