/* test-station.c - the supplicant side of the handshake tests: a
 * WifiHandshake whose callbacks record what it sends and installs. */
#include "test-station.h"

#include <string.h>

#include "hs-test-util.h"

static void
installed_free(gpointer p)
{
	Installed *k = p;

	g_bytes_unref(k->key);
	g_clear_pointer(&k->seq, g_bytes_unref);
	g_free(k);
}

void
sta_send(const guint8 *frame, gsize len, gpointer user_data)
{
	Sta *sta = user_data;

	g_ptr_array_add(sta->sent, g_bytes_new(frame, len));
	/* Message 2 and 4 of the first handshake go out before any TK. */
	if (sta->hs != NULL)
		sta->ptk_when_sent = g_string_append_c(sta->ptk_when_sent,
		                                       wifi_handshake_has_ptk(sta->hs) ? 'y' : 'n');
}

void
sta_install(const WifiHandshakeKey *key, gpointer user_data)
{
	Sta *sta = user_data;
	Installed *k = g_new0(Installed, 1);

	k->kind = key->kind;
	k->id = key->key_id;
	k->cipher = key->cipher;
	k->key = g_bytes_new(key->key, key->key_len);
	if (key->seq_len > 0)
		k->seq = g_bytes_new(key->seq, key->seq_len);
	k->has_addr = key->addr != NULL;
	g_ptr_array_add(sta->installed, k);
}

static void
sta_state(WifiHandshakeState old_state, WifiHandshakeState new_state, gpointer user_data)
{
	Sta *sta = user_data;

	g_string_append_printf(sta->states, "%s>%s;", wifi_handshake_state_to_string(old_state),
	                       wifi_handshake_state_to_string(new_state));
}

static const WifiHandshakeCallbacks sta_callbacks = {sta_send, sta_install, sta_state};

void
sta_free(Sta *sta)
{
	wifi_handshake_free(sta->hs);
	g_ptr_array_unref(sta->sent);
	g_ptr_array_unref(sta->installed);
	g_string_free(sta->states, TRUE);
	g_string_free(sta->ptk_when_sent, TRUE);
	g_free(sta);
}

/* A supplicant configured to match the authenticator. */
Sta *
sta_new(TestAuth *a, const gchar *own_rsne_hex, const gchar *ap_rsnxe_hex)
{
	g_autoptr(GBytes) own = hs_test_hex(own_rsne_hex);
	g_autoptr(GBytes) ap_rsnxe = ap_rsnxe_hex ? hs_test_hex(ap_rsnxe_hex) : NULL;
	g_autoptr(GError) error = NULL;
	Sta *sta = g_new0(Sta, 1);
	WifiHandshakeConfig c = {0};

	c.akm = a->akm;
	c.pairwise_cipher = a->pairwise;
	c.group_cipher = a->group;
	c.group_mgmt_cipher = a->group_mgmt;
	memcpy(c.spa, a->spa, 6);
	memcpy(c.aa, a->aa, 6);
	c.pmk = a->pmk;
	c.pmk_len = a->pmk_len;
	c.own_rsne = g_bytes_get_data(own, &c.own_rsne_len);
	c.ap_rsne = g_bytes_get_data(a->rsne, &c.ap_rsne_len);
	if (ap_rsnxe != NULL)
		c.ap_rsnxe = g_bytes_get_data(ap_rsnxe, &c.ap_rsnxe_len);
	sta->sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	sta->installed = g_ptr_array_new_with_free_func(installed_free);
	sta->states = g_string_new(NULL);
	sta->ptk_when_sent = g_string_new(NULL);
	sta->hs = wifi_handshake_new(&c, &sta_callbacks, sta, &error);
	g_assert_no_error(error);
	g_assert_nonnull(sta->hs);
	g_clear_pointer(&a->sta_ie, g_bytes_unref);
	a->sta_ie = g_bytes_ref(own);
	return sta;
}

GBytes *
last_sent(Sta *sta)
{
	g_assert_cmpuint(sta->sent->len, >, 0);
	return g_ptr_array_index(sta->sent, sta->sent->len - 1);
}

/* Feeds a frame and checks the outcome (and error code when not accepted). */
void
sta_rx(Sta *sta, GBytes *frame, WifiHandshakeRx expect, gint code)
{
	g_autoptr(GError) error = NULL;
	WifiHandshakeRx rx = wifi_handshake_rx(sta->hs, g_bytes_get_data(frame, NULL),
	                                       g_bytes_get_size(frame), &error);

	if (rx != expect)
		g_error("rx returned %d, expected %d: %s", rx, expect,
		        error ? error->message : "no error");
	if (expect == WIFI_HANDSHAKE_RX_ACCEPTED)
		g_assert_no_error(error);
	else
		g_assert_error(error, WIFI_HANDSHAKE_ERROR, code);
}

void
auth_accepts(gboolean (*check)(TestAuth *, GBytes *, gchar **), TestAuth *a, GBytes *frame)
{
	g_autofree gchar *why = NULL;

	if (!check(a, frame, &why))
		g_error("the authenticator rejected the frame: %s", why);
}

/* Messages 1 to 4, each side checking the other. */
void
run_4way(Sta *sta, TestAuth *a)
{
	g_autoptr(GBytes) m1 = test_auth_msg1(a);
	g_autoptr(GBytes) m3 = NULL;

	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_WAIT_MSG3);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
	auth_accepts(test_auth_rx_msg4, a, last_sent(sta));
}

Installed *
installed(Sta *sta, guint i)
{
	g_assert_cmpuint(i, <, sta->installed->len);
	return g_ptr_array_index(sta->installed, i);
}

void
assert_installed(Installed *k, WifiKeyKind kind, guint id, guint cipher, const guint8 *key,
                 gsize len)
{
	g_assert_cmpint(k->kind, ==, kind);
	g_assert_cmpuint(k->id, ==, id);
	g_assert_cmpuint(k->cipher, ==, cipher);
	g_assert_cmpmem(g_bytes_get_data(k->key, NULL), g_bytes_get_size(k->key), key, len);
	g_assert_cmpint(k->has_addr, ==, kind == WIFI_KEY_KIND_PAIRWISE);
}
