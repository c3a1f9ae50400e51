/* test-captured.c - replays real handshakes between hostapd 2.10 and
 * wpa_supplicant 2.10 (captured in the VM, see capture/) through our
 * supplicant: given the same PMK, elements and SNonce, every frame it sends
 * must be byte for byte the frame wpa_supplicant sent, and it must install
 * the same keys. This checks the PTK derivation, MIC, key unwrap and frame
 * layout against two independent implementations at once. */
#include <string.h>

#include "captured-handshakes.h"
#include "hs-test-util.h"
#include "rsn-handshake.h"

typedef struct {
	GPtrArray *sent;      /* GBytes */
	GPtrArray *installed; /* GBytes: kind, key ID, then the key */
} Replay;

static void
replay_send(const guint8 *frame, gsize len, gpointer user_data)
{
	Replay *r = user_data;

	g_ptr_array_add(r->sent, g_bytes_new(frame, len));
}

static void
replay_install(const WifiHandshakeKey *key, gpointer user_data)
{
	Replay *r = user_data;
	GByteArray *k = g_byte_array_new();
	guint8 head[2] = {(guint8)key->kind, (guint8)key->key_id};

	g_byte_array_append(k, head, 2);
	g_byte_array_append(k, key->key, (guint)key->key_len);
	g_ptr_array_add(r->installed, g_byte_array_free_to_bytes(k));
}

static WifiHandshake *
replay_start(const CapturedHandshake *c, Replay *r, GBytes **hold)
{
	static const WifiHandshakeCallbacks cb = {replay_send, replay_install, NULL};
	WifiHandshakeConfig cfg = {0};
	g_autoptr(GError) error = NULL;
	WifiHandshake *hs;

	cfg.akm = c->akm;
	cfg.pairwise_cipher = c->pairwise;
	cfg.group_cipher = c->group;
	cfg.group_mgmt_cipher = c->group_mgmt;
	hs_test_hex_into(c->aa, cfg.aa, 6);
	hs_test_hex_into(c->spa, cfg.spa, 6);
	hold[0] = hs_test_hex(c->pmk);
	hold[1] = hs_test_hex(c->own_rsne);
	hold[2] = hs_test_hex(c->own_rsnxe);
	hold[3] = hs_test_hex(c->ap_rsne);
	hold[4] = hs_test_hex(c->ap_rsnxe);
	cfg.pmk = g_bytes_get_data(hold[0], &cfg.pmk_len);
	cfg.own_rsne = g_bytes_get_data(hold[1], &cfg.own_rsne_len);
	cfg.own_rsnxe = g_bytes_get_data(hold[2], &cfg.own_rsnxe_len);
	cfg.ap_rsne = g_bytes_get_data(hold[3], &cfg.ap_rsne_len);
	cfg.ap_rsnxe = g_bytes_get_data(hold[4], &cfg.ap_rsnxe_len);
	hs = wifi_handshake_new(&cfg, &cb, r, &error);
	g_assert_no_error(error);
	return hs;
}

/* Feeds one received frame; answered says whether wpa_supplicant sent a
 * frame in reply (then ours must be identical). */
static void
replay_rx(WifiHandshake *hs, Replay *r, const gchar *hex, const gchar *answer)
{
	g_autoptr(GBytes) frame = hs_test_hex(hex);
	g_autoptr(GError) error = NULL;
	guint before = r->sent->len;
	WifiHandshakeRx rx = wifi_handshake_rx(hs, g_bytes_get_data(frame, NULL),
	                                       g_bytes_get_size(frame), &error);

	if (answer == NULL) {
		g_assert_cmpuint(r->sent->len, ==, before);
		return;
	}
	g_assert_no_error(error);
	g_assert_cmpint(rx, ==, WIFI_HANDSHAKE_RX_ACCEPTED);
	g_assert_cmpuint(r->sent->len, ==, before + 1);
	hs_assert_hex(g_bytes_get_data(g_ptr_array_index(r->sent, before), NULL),
	              g_bytes_get_size(g_ptr_array_index(r->sent, before)), answer);
}

static void
replay_check_keys(const CapturedHandshake *c, Replay *r)
{
	guint n = 0;

	for (const CapturedKey *k = c->keys; k->hex != NULL; k++, n++) {
		g_autoptr(GBytes) key = hs_test_hex(k->hex);
		GBytes *ours;
		const guint8 *p;

		g_assert_cmpuint(n, <, r->installed->len);
		ours = g_ptr_array_index(r->installed, n);
		p = g_bytes_get_data(ours, NULL);
		g_assert_cmpuint(p[0], ==, k->kind);
		g_assert_cmpuint(p[1], ==, k->key_id);
		g_assert_cmpmem(p + 2, g_bytes_get_size(ours) - 2, g_bytes_get_data(key, NULL),
		                g_bytes_get_size(key));
	}
	g_assert_cmpuint(r->installed->len, ==, n);
}

static void
test_replay(gconstpointer data)
{
	const CapturedHandshake *c = data;
	GBytes *hold[5] = {NULL};
	Replay r = {
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref),
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref),
	};
	WifiHandshake *hs = replay_start(c, &r, hold);
	guint n_rx = 0;

	for (const CapturedFrame *f = c->frames; f->kind != CAPTURED_END; f++) {
		if (f->kind == CAPTURED_SNONCE) {
			guint8 snonce[32];

			hs_test_hex_into(f->hex, snonce, sizeof(snonce));
			wifi_handshake_set_snonce(hs, snonce);
		} else if (f->kind == CAPTURED_RX) {
			replay_rx(hs, &r, f->hex, f[1].kind == CAPTURED_TX ? f[1].hex : NULL);
			n_rx++;
		}
	}
	g_assert_cmpuint(n_rx, >=, 2);
	replay_check_keys(c, &r);
	g_test_message("%s: %u frames received, %u sent, %u keys installed, state %s", c->name,
	               n_rx, r.sent->len, r.installed->len,
	               wifi_handshake_state_to_string(wifi_handshake_get_state(hs)));
	wifi_handshake_free(hs);
	for (guint i = 0; i < G_N_ELEMENTS(hold); i++)
		g_bytes_unref(hold[i]);
	g_ptr_array_unref(r.sent);
	g_ptr_array_unref(r.installed);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; captured_handshakes[i] != NULL; i++) {
		g_autofree gchar *path = g_strdup_printf("/wifi-handshake/captured/%s",
		                                         captured_handshakes[i]->name);

		g_test_add_data_func(path, captured_handshakes[i], test_replay);
	}
	return g_test_run();
}
