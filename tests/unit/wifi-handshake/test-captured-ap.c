/* test-captured-ap.c - the authenticator replayed against real handshakes
 * between hostapd 2.10 and wpa_supplicant 2.10 (the fixtures of
 * test-captured.c): given hostapd's ANonce, replay counter and group keys,
 * its message 1 and message 3 must be byte for byte hostapd's, it must
 * accept wpa_supplicant's message 2 and 4 and install wpa_supplicant's TK.
 * That checks the frame layout, the Key Data order, the key wrap and the
 * MIC against an independent authenticator. */
#include <string.h>

#include "captured-handshakes.h"
#include "eapol-key.h"
#include "hs-test-util.h"
#include "joind-secret.h"
#include "rsn-authenticator.h"

typedef struct {
	const CapturedHandshake *c;
	GBytes *msg1, *msg2, *msg3, *msg4; /* hostapd's 1 and 3, wpa_supplicant's 2 and 4 */
	WifiEapolKey k1, k2, k3;
	GPtrArray *sent, *installed;
} Capture;

static gboolean
parse(const Capture *cap, GBytes *frame, WifiEapolKey *key)
{
	gsize mic_len = wifi_akm_info(cap->c->akm)->mic_len;

	return wifi_eapol_key_parse(g_bytes_get_data(frame, NULL), g_bytes_get_size(frame), mic_len,
	                            key, NULL);
}

/* The first message 3, the message 1 before it with the replay counter
 * below its, and wpa_supplicant's answers to both. */
static void
capture_find(Capture *cap)
{
	const CapturedFrame *f = cap->c->frames;
	WifiEapolKey k;

	for (guint i = 0; f[i].kind != CAPTURED_END && cap->msg3 == NULL; i++) {
		g_autoptr(GBytes) frame =
		        f[i].kind == CAPTURED_SNONCE ? NULL : hs_test_hex(f[i].hex);

		if (frame == NULL || !parse(cap, frame, &k))
			continue;
		if (f[i].kind == CAPTURED_RX && (k.key_info & WIFI_KEY_INFO_INSTALL)) {
			cap->msg3 = g_bytes_ref(frame);
			cap->msg4 = hs_test_hex(f[i + 1].hex);
		} else if (f[i].kind == CAPTURED_RX && !(k.key_info & WIFI_KEY_INFO_MIC)) {
			g_clear_pointer(&cap->msg1, g_bytes_unref);
			cap->msg1 = g_bytes_ref(frame);
		} else if (f[i].kind == CAPTURED_TX && (k.key_info & WIFI_KEY_INFO_PAIRWISE)) {
			g_clear_pointer(&cap->msg2, g_bytes_unref);
			cap->msg2 = g_bytes_ref(frame);
		}
	}
	g_assert_nonnull(cap->msg1);
	g_assert_nonnull(cap->msg2);
	g_assert_nonnull(cap->msg3);
	g_assert_true(parse(cap, cap->msg1, &cap->k1));
	g_assert_true(parse(cap, cap->msg2, &cap->k2));
	g_assert_true(parse(cap, cap->msg3, &cap->k3));
	g_assert_cmpuint(cap->k3.replay_counter, ==, cap->k1.replay_counter + 1);
	g_assert_cmpuint(cap->k2.replay_counter, ==, cap->k1.replay_counter);
}

/* hostapd's group keys, from message 3's Key Data (decrypted with the PTK
 * the capture's PMK and nonces give). */
static void
capture_group_keys(Capture *cap, const guint8 *pmk, gsize pmk_len, WifiGroupKeys *gk,
                   guint8 *transition_disable)
{
	g_autoptr(GError) error = NULL;
	guint8 aa[6], spa[6];
	g_autofree guint8 *plain = NULL;
	gsize plain_len = 0;
	WifiKeyData kd;
	WifiPtk ptk;

	hs_test_hex_into(cap->c->aa, aa, 6);
	hs_test_hex_into(cap->c->spa, spa, 6);
	g_assert_true(wifi_ptk_derive(cap->c->akm, cap->c->pairwise, pmk, pmk_len, aa, spa,
	                              cap->k3.nonce, cap->k2.nonce, &ptk, &error));
	plain = wifi_eapol_key_data_decrypt(ptk.kek, ptk.kek_len, cap->k3.key_data,
	                                    cap->k3.key_data_len, &plain_len, &error);
	g_assert_no_error(error);
	g_assert_true(wifi_key_data_parse(plain, plain_len, &kd, &error));
	g_assert_true(kd.has_gtk);
	gk->gtk_id = kd.gtk_key_id;
	memcpy(gk->gtk, kd.gtk, kd.gtk_len);
	gk->gtk_len = kd.gtk_len;
	memcpy(gk->gtk_rsc, cap->k3.rsc, 8);
	if (kd.has_igtk) {
		gk->igtk_id = kd.igtk_key_id;
		memcpy(gk->igtk, kd.igtk, kd.igtk_len);
		gk->igtk_len = kd.igtk_len;
		memcpy(gk->ipn, kd.igtk_ipn, WIFI_IPN_LEN);
	}
	*transition_disable = kd.has_transition_disable ? kd.transition_disable : 0;
	joind_secret_clear(plain, plain_len);
	wifi_ptk_clear(&ptk);
}

static void
cap_send(const guint8 *frame, gsize len, gpointer user_data)
{
	g_ptr_array_add(((Capture *)user_data)->sent, g_bytes_new(frame, len));
}

static void
cap_install(const WifiHandshakeKey *key, gpointer user_data)
{
	g_ptr_array_add(((Capture *)user_data)->installed, g_bytes_new(key->key, key->key_len));
}

static void
assert_sent(Capture *cap, guint i, GBytes *expected)
{
	g_assert_cmpuint(cap->sent->len, ==, i + 1);
	g_assert_cmpmem(g_bytes_get_data(g_ptr_array_index(cap->sent, i), NULL),
	                g_bytes_get_size(g_ptr_array_index(cap->sent, i)),
	                g_bytes_get_data(expected, NULL), g_bytes_get_size(expected));
}

/* The PMKID KDE of hostapd's message 1, if any. */
static const guint8 *
msg1_pmkid(const Capture *cap)
{
	WifiKeyData kd;

	if (cap->k1.key_data_len == 0 ||
	    !wifi_key_data_parse(cap->k1.key_data, cap->k1.key_data_len, &kd, NULL))
		return NULL;
	return kd.pmkid;
}

static WifiAuthenticator *
capture_authenticator(Capture *cap, GBytes **hold, WifiGroupKeys *gk)
{
	static const WifiAuthenticatorCallbacks cb = {cap_send, cap_install, NULL};
	g_autoptr(GError) error = NULL;
	WifiAuthenticatorConfig c = {0};
	WifiAuthenticator *auth;

	hold[0] = hs_test_hex(cap->c->pmk);
	hold[1] = hs_test_hex(cap->c->ap_rsne);
	hold[2] = hs_test_hex(cap->c->ap_rsnxe);
	hold[3] = hs_test_hex(cap->c->own_rsne);
	hold[4] = hs_test_hex(cap->c->own_rsnxe);
	c.akm = cap->c->akm;
	c.pairwise_cipher = cap->c->pairwise;
	c.group_cipher = cap->c->group;
	c.group_mgmt_cipher = cap->c->group_mgmt;
	hs_test_hex_into(cap->c->aa, c.aa, 6);
	hs_test_hex_into(cap->c->spa, c.spa, 6);
	c.pmk = g_bytes_get_data(hold[0], &c.pmk_len);
	c.pmkid = msg1_pmkid(cap);
	c.own_rsne = g_bytes_get_data(hold[1], &c.own_rsne_len);
	c.own_rsnxe = g_bytes_get_data(hold[2], &c.own_rsnxe_len);
	c.sta_rsne = g_bytes_get_data(hold[3], &c.sta_rsne_len);
	c.sta_rsnxe = g_bytes_get_data(hold[4], &c.sta_rsnxe_len);
	capture_group_keys(cap, c.pmk, c.pmk_len, gk, &c.transition_disable);
	c.group_keys = gk;
	auth = wifi_authenticator_new(&c, &cb, cap, &error);
	g_assert_no_error(error);
	wifi_authenticator_set_anonce(auth, cap->k1.nonce, cap->k1.replay_counter - 1);
	return auth;
}

static WifiHandshakeRx
feed(WifiAuthenticator *auth, GBytes *frame)
{
	g_autoptr(GError) error = NULL;
	WifiHandshakeRx rx = wifi_authenticator_rx(auth, g_bytes_get_data(frame, NULL),
	                                           g_bytes_get_size(frame), &error);

	g_assert_no_error(error);
	return rx;
}

static void
test_replay(gconstpointer data)
{
	Capture cap = {.c = data};
	GBytes *hold[5] = {NULL};
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) tk = NULL;
	WifiGroupKeys gk = {0};
	WifiAuthenticator *auth;

	cap.sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	cap.installed = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	capture_find(&cap);
	auth = capture_authenticator(&cap, hold, &gk);
	g_assert_true(wifi_authenticator_start(auth, &error));
	assert_sent(&cap, 0, cap.msg1);
	g_assert_cmpint(feed(auth, cap.msg2), ==, WIFI_HANDSHAKE_RX_ACCEPTED);
	assert_sent(&cap, 1, cap.msg3);
	g_assert_cmpint(feed(auth, cap.msg4), ==, WIFI_HANDSHAKE_RX_ACCEPTED);
	g_assert_cmpint(wifi_authenticator_get_state(auth), ==, WIFI_AUTHENTICATOR_STATE_COMPLETE);
	g_assert_cmpuint(cap.installed->len, ==, 1);
	g_assert_cmpint(cap.c->keys[0].kind, ==, WIFI_KEY_KIND_PAIRWISE);
	tk = hs_test_hex(cap.c->keys[0].hex);
	g_assert_true(g_bytes_equal(tk, g_ptr_array_index(cap.installed, 0)));
	wifi_authenticator_free(auth);
	joind_secret_clear(&gk, sizeof(gk));
	for (guint i = 0; i < G_N_ELEMENTS(hold); i++)
		g_bytes_unref(hold[i]);
	g_bytes_unref(cap.msg1);
	g_bytes_unref(cap.msg2);
	g_bytes_unref(cap.msg3);
	g_bytes_unref(cap.msg4);
	g_ptr_array_unref(cap.sent);
	g_ptr_array_unref(cap.installed);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; captured_handshakes[i] != NULL; i++) {
		g_autofree gchar *path =
		        g_strdup_printf("/ap-handshake/captured/%s", captured_handshakes[i]->name);

		g_test_add_data_func(path, captured_handshakes[i], test_replay);
	}
	return g_test_run();
}
