/* test-authenticator.c - the authenticator model for the handshake tests. */
#include "test-authenticator.h"

#include <string.h>

#include "eapol-key.h"
#include "hs-test-util.h"
#include "rsn-kde.h"
#include "rsn-suites.h"

TestAuth *
test_auth_new(guint akm, guint pairwise, guint group, guint group_mgmt, const guint8 *pmk,
              const gchar *rsne_hex)
{
	TestAuth *a = g_new0(TestAuth, 1);
	const guint8 aa[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};
	const guint8 spa[6] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x00};

	a->akm = akm;
	a->pairwise = pairwise;
	a->group = group;
	a->group_mgmt = group_mgmt;
	memcpy(a->aa, aa, sizeof(aa));
	memcpy(a->spa, spa, sizeof(spa));
	a->pmk_len = wifi_akm_info(akm)->pmk_len;
	memcpy(a->pmk, pmk, a->pmk_len);
	a->rsne = hs_test_hex(rsne_hex);
	a->protocol_version = 2;
	a->counter = 0x10;
	memset(a->gtk, 0x47, sizeof(a->gtk));
	a->gtk_id = 1;
	a->gtk_rsc[0] = 0x05;
	memset(a->igtk, 0x49, sizeof(a->igtk));
	a->igtk_id = 4;
	a->ipn[0] = 0x09;
	return a;
}

void
test_auth_free(TestAuth *a)
{
	if (a == NULL)
		return;
	g_clear_pointer(&a->rsne, g_bytes_unref);
	g_clear_pointer(&a->rsnxe, g_bytes_unref);
	g_clear_pointer(&a->msg3_rsne, g_bytes_unref);
	g_clear_pointer(&a->sta_ie, g_bytes_unref);
	g_clear_pointer(&a->ft_ies, g_bytes_unref);
	g_free(a);
}

static guint
auth_version(const TestAuth *a)
{
	return wifi_akm_info_sized(a->akm, a->pmk_len, 0)->version;
}

static gsize
auth_mic_len(const TestAuth *a)
{
	return wifi_akm_info_sized(a->akm, a->pmk_len, 0)->mic_len;
}

/* Builds a frame from the authenticator, signed when key_info has MIC. */
static GBytes *
auth_frame(TestAuth *a, guint16 key_info, guint16 key_length, const guint8 *nonce,
           const guint8 *rsc, const guint8 *key_data, gsize key_data_len)
{
	WifiEapolKey key = {0};
	g_autoptr(GError) error = NULL;
	guint8 *frame;
	gsize len = 0;

	key.protocol_version = a->protocol_version;
	key.descriptor_type = WIFI_EAPOL_KEY_DESC_RSN;
	key.key_info = (guint16)(key_info | auth_version(a));
	key.key_length = key_length;
	key.replay_counter = ++a->counter;
	if (nonce != NULL)
		memcpy(key.nonce, nonce, WIFI_NONCE_LEN);
	if (rsc != NULL)
		memcpy(key.rsc, rsc, 8);
	key.mic_len = auth_mic_len(a);
	key.key_data = key_data;
	key.key_data_len = key_data_len;
	frame = wifi_eapol_key_build(&key, &len);
	if (key_info & WIFI_KEY_INFO_MIC) {
		g_assert_true(wifi_eapol_key_sign(a->akm, a->ptk.kck, a->ptk.kck_len, frame, len,
		                                  key.mic_len, &error));
		g_assert_no_error(error);
	}
	return g_bytes_new_take(frame, len);
}

GBytes *
test_auth_msg1(TestAuth *a)
{
	a->anonce_seed++;
	for (guint i = 0; i < WIFI_NONCE_LEN; i++)
		a->anonce[i] = (guint8)(a->anonce_seed * 31 + i * 7);
	return test_auth_msg1_again(a);
}

GBytes *
test_auth_msg1_again(TestAuth *a)
{
	g_autoptr(GByteArray) kd = g_byte_array_new();

	if (a->msg1_pmkid != NULL)
		wifi_kde_append_pmkid(kd, a->msg1_pmkid);
	return auth_frame(a, WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_ACK,
	                  (guint16)wifi_cipher_key_len(a->pairwise), a->anonce, NULL, kd->data,
	                  kd->len);
}

/* The PTK for snonce and the current ANonce. */
static void
auth_derive(TestAuth *a, const guint8 *snonce)
{
	g_autoptr(GError) error = NULL;

	if (a->ft != NULL)
		g_assert_true(wifi_ft_ptk_derive(a->ft, a->pairwise, snonce, a->anonce, a->aa,
		                                 a->spa, &a->ptk, NULL, &error));
	else
		g_assert_true(wifi_ptk_derive(a->akm, a->pairwise, a->pmk, a->pmk_len, a->aa,
		                              a->spa, a->anonce, snonce, &a->ptk, &error));
	g_assert_no_error(error);
}

static gboolean
auth_parse(const TestAuth *a, GBytes *frame, WifiEapolKey *key, gchar **why)
{
	g_autoptr(GError) error = NULL;

	if (!wifi_eapol_key_parse(g_bytes_get_data(frame, NULL), g_bytes_get_size(frame),
	                          auth_mic_len(a), key, &error)) {
		*why = g_strdup(error->message);
		return FALSE;
	}
	return TRUE;
}

static gboolean
auth_check_reply(TestAuth *a, GBytes *frame, WifiEapolKey *key, guint16 expect_info, gchar **why)
{
	g_autoptr(GError) error = NULL;

	if (!auth_parse(a, frame, key, why))
		return FALSE;
	if (key->key_info != (expect_info | auth_version(a))) {
		*why = g_strdup_printf("key info 0x%04x, expected 0x%04x", key->key_info,
		                       expect_info | auth_version(a));
		return FALSE;
	}
	if (key->replay_counter != a->counter) {
		*why = g_strdup_printf("replay counter %" G_GUINT64_FORMAT
		                       ", expected %" G_GUINT64_FORMAT,
		                       key->replay_counter, a->counter);
		return FALSE;
	}
	if (key->protocol_version != a->protocol_version) {
		*why = g_strdup("protocol version not echoed");
		return FALSE;
	}
	if (!wifi_eapol_key_verify_mic(a->akm, a->ptk.kck, a->ptk.kck_len,
	                               g_bytes_get_data(frame, NULL), key, &error)) {
		*why = g_strdup(error->message);
		return FALSE;
	}
	return TRUE;
}

gboolean
test_auth_rx_msg2(TestAuth *a, GBytes *frame, gchar **why)
{
	WifiEapolKey key;
	WifiPtk ptk = a->ptk;
	gboolean had = a->have_ptk;

	if (!auth_parse(a, frame, &key, why))
		return FALSE;
	auth_derive(a, key.nonce);
	if (!auth_check_reply(a, frame, &key, WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC, why)) {
		a->ptk = ptk; /* like hostapd: a bad message 2 changes nothing */
		a->have_ptk = had;
		return FALSE;
	}
	if (a->sta_ie != NULL &&
	    (key.key_data_len != g_bytes_get_size(a->sta_ie) ||
	     memcmp(key.key_data, g_bytes_get_data(a->sta_ie, NULL), key.key_data_len) != 0)) {
		*why = g_strdup("message 2 does not carry the station's RSNE");
		return FALSE;
	}
	memcpy(a->snonce, key.nonce, WIFI_NONCE_LEN);
	a->have_ptk = TRUE;
	return TRUE;
}

void
test_auth_take_snonce(TestAuth *a, GBytes *msg2)
{
	g_autoptr(GError) error = NULL;
	WifiEapolKey key;

	g_assert_true(wifi_eapol_key_parse(g_bytes_get_data(msg2, NULL), g_bytes_get_size(msg2),
	                                   auth_mic_len(a), &key, &error));
	memcpy(a->snonce, key.nonce, WIFI_NONCE_LEN);
	auth_derive(a, a->snonce);
	a->have_ptk = TRUE;
}

/* Encrypted key data with the group keys (and, for message 3, the RSNE). */
static GBytes *
auth_key_data(TestAuth *a, gboolean msg3)
{
	GByteArray *kd = g_byte_array_sized_new(256);
	g_autoptr(GError) error = NULL;
	guint8 other_kek[16];
	guint8 *enc;
	gsize enc_len = 0;
	GBytes *rsne = a->msg3_rsne != NULL ? a->msg3_rsne : a->rsne;

	if (msg3) {
		g_byte_array_append(kd, g_bytes_get_data(rsne, NULL), g_bytes_get_size(rsne));
		if (a->rsnxe != NULL && !a->omit_rsnxe)
			g_byte_array_append(kd, g_bytes_get_data(a->rsnxe, NULL),
			                    g_bytes_get_size(a->rsnxe));
		if (a->transition_disable != 0)
			wifi_kde_append_transition_disable(kd, a->transition_disable);
	}
	if (!a->omit_gtk)
		wifi_kde_append_gtk(kd, a->gtk_id, FALSE, a->gtk, wifi_cipher_key_len(a->group));
	if (a->group_mgmt != 0 && !a->omit_igtk)
		wifi_kde_append_igtk(kd, a->igtk_id, a->ipn, a->igtk,
		                     wifi_cipher_key_len(a->group_mgmt));
	if (msg3 && a->ft_ies != NULL)
		g_byte_array_append(kd, g_bytes_get_data(a->ft_ies, NULL),
		                    (guint)g_bytes_get_size(a->ft_ies));
	if (a->plain_key_data) {
		GBytes *plain = g_bytes_new(kd->data, kd->len);

		wifi_key_data_free(kd);
		return plain;
	}
	memset(other_kek, 0x99, sizeof(other_kek));
	enc = wifi_eapol_key_data_encrypt(a->wrong_kek ? other_kek : a->ptk.kek, a->ptk.kek_len,
	                                  kd->data, kd->len, &enc_len, &error);
	g_assert_no_error(error);
	wifi_key_data_free(kd);
	return g_bytes_new_take(enc, enc_len);
}

GBytes *
test_auth_msg3(TestAuth *a)
{
	g_autoptr(GBytes) kd = auth_key_data(a, TRUE);
	guint16 info = WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_INSTALL | WIFI_KEY_INFO_ACK |
	               WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE;

	g_assert_true(a->have_ptk);
	if (!a->plain_key_data)
		info |= WIFI_KEY_INFO_ENCRYPTED;
	return auth_frame(a, info, (guint16)wifi_cipher_key_len(a->pairwise), a->anonce, a->gtk_rsc,
	                  g_bytes_get_data(kd, NULL), g_bytes_get_size(kd));
}

gboolean
test_auth_rx_msg4(TestAuth *a, GBytes *frame, gchar **why)
{
	WifiEapolKey key;

	if (!auth_check_reply(a, frame, &key,
	                      WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE,
	                      why))
		return FALSE;
	if (key.key_data_len != 0) {
		*why = g_strdup("message 4 carries key data");
		return FALSE;
	}
	return TRUE;
}

GBytes *
test_auth_group_msg1(TestAuth *a)
{
	g_autoptr(GBytes) kd = auth_key_data(a, FALSE);
	guint16 info = WIFI_KEY_INFO_ACK | WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE;

	if (!a->plain_key_data)
		info |= WIFI_KEY_INFO_ENCRYPTED;
	return auth_frame(a, info, 0, NULL, a->gtk_rsc, g_bytes_get_data(kd, NULL),
	                  g_bytes_get_size(kd));
}

gboolean
test_auth_rx_group_msg2(TestAuth *a, GBytes *frame, gchar **why)
{
	WifiEapolKey key;

	if (!auth_check_reply(a, frame, &key, WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE, why))
		return FALSE;
	if (key.key_data_len != 0) {
		*why = g_strdup("group message 2 carries key data");
		return FALSE;
	}
	return TRUE;
}

void
test_auth_rekey_group(TestAuth *a)
{
	a->gtk_id = a->gtk_id == 1 ? 2 : 1;
	for (guint i = 0; i < sizeof(a->gtk); i++)
		a->gtk[i] = (guint8)(a->gtk[i] + 0x11 + i);
	a->gtk_rsc[0] = 0;
	a->igtk_id = a->igtk_id == 4 ? 5 : 4;
	for (guint i = 0; i < sizeof(a->igtk); i++)
		a->igtk[i] = (guint8)(a->igtk[i] + 0x13 + i);
	a->ipn[0] = 0;
}
