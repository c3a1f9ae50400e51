/* test-ft-handshake.c - the 4-way handshake of fast transition's initial
 * mobility domain association, replayed from the exchange recorded between
 * hostapd 2.10 and wpa_supplicant 2.10 (see test-ft-keys.c): given the
 * recorded hierarchy, SNonce and association response, our message 2 must
 * carry wpa_supplicant's key data (RSNE naming PMKR1Name, the MDE and FTE
 * of the association response) under a MIC of the recorded KCK, and
 * hostapd's message 3 must verify and install hostapd's TK and GTK. A
 * message 3 whose FTE or PMKR1Name differs is refused. */
#include <string.h>

#include "eapol-key.h"
#include "ft-keys.h"
#include "hs-test-util.h"
#include "rsn-handshake.h"

#define OWN_RSNE "30140100000fac040100000fac040100000fac040000"
#define MDE      "3603a1b200"
#define FTE_ZERO                                                           \
	"376b0000"                                                         \
	"00000000000000000000000000000000"                                 \
	"0000000000000000000000000000000000000000000000000000000000000000" \
	"0000000000000000000000000000000000000000000000000000000000000000" \
	"0106020000000011030f6170312e6578616d706c652e636f6d"
#define MSG1                                                               \
	"0203005f02008b00100000000000000001"                               \
	"5a17159b179909c4fd2907206c1f216b0587ba733383e839ca9eb466dc91f354" \
	"0000000000000000000000000000000000000000000000000000000000000000" \
	"0000000000000000000000000000000000000000000000000000000000000000000000"
#define MSG3                                                                                 \
	"0203012702"                                                                         \
	"13cb00100000000000000002"                                                           \
	"5a17159b179909c4fd2907206c1f216b0587ba733383e839ca9eb466dc91f354"                   \
	"00000000000000000000000000000000"                                                   \
	"0000000000000000"                                                                   \
	"0000000000000000"                                                                   \
	"55e837a07ec4ece110069ae0281eb266"                                                   \
	"00c8"                                                                               \
	"fe78bb9c8c2bfe0117330f3fa25b16e55778f0c11bf90fa0c0e2fbe0754868249c43a3a84c431699ba" \
	"380319b47bd07feaa6f2c4c5ebefa609b879de2d94d5e4eaac96cc7e1de80128da408551512a46f052" \
	"b5d7c95b73c2156f0e18905466df2d5792dbb52835ab21e432ea4dfd7d604d5e33194891a704236c9f" \
	"2db624dca756ebbebc0b4b7524cc6176ae3222f5751ce0e0b00a03a5672aa79a289974a54dc5bc1d35" \
	"172ae9b0e467ab878cc994a1de36e2dfa50dafa0a91a13418b323a323bab445c3a951149"
/* wpa_supplicant's message 2 key data: RSNE with PMKR1Name, MDE, FTE. */
#define MSG2_KEY_DATA                                                                          \
	"30260100000fac040100000fac040100000fac0400000100e3ae367cc3920f01e0cebe7959219b54" MDE \
	        FTE_ZERO

typedef struct {
	GPtrArray *sent;
	GPtrArray *installed;
} Seen;

static void
seen_send(const guint8 *frame, gsize len, gpointer user_data)
{
	g_ptr_array_add(((Seen *)user_data)->sent, g_bytes_new(frame, len));
}

static void
seen_install(const WifiHandshakeKey *key, gpointer user_data)
{
	g_ptr_array_add(((Seen *)user_data)->installed, g_bytes_new(key->key, key->key_len));
}

static void
recorded_ft_keys(WifiFtKeys *keys)
{
	g_autoptr(GError) error = NULL;
	WifiFtHolders h = {.mdid = {0xa1, 0xb2}, .r0kh_id_len = 15};
	guint8 psk[32];

	memcpy(h.r0kh_id, "ap1.example.com", 15);
	hs_test_hex_into("020000000011", h.r1kh_id, 6);
	hs_test_hex_into("020000000200", h.spa, 6);
	hs_test_hex_into("c3a6bb3d9470312bd6baa1f6f19780c432469b9624087e9e5654d229a563f31e", psk,
	                 32);
	g_assert_true(wifi_ft_keys_derive(WIFI_AKM_SUITE_FT_PSK, psk, 32, (const guint8 *)"ft-rec",
	                                  6, &h, keys, &error));
}

/* The handshake as joind starts it after the association response; fte
 * is the association response's FTE. */
static WifiHandshake *
start(Seen *seen, WifiFtKeys *keys, GBytes **hold, const gchar *fte, GError **error)
{
	static const WifiHandshakeCallbacks cb = {seen_send, seen_install, NULL};
	WifiHandshakeConfig cfg = {.akm = WIFI_AKM_SUITE_FT_PSK,
	                           .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	                           .group_cipher = WIFI_CIPHER_SUITE_CCMP};
	guint8 snonce[32];
	WifiHandshake *hs;

	recorded_ft_keys(keys);
	hs_test_hex_into("020000000000", cfg.aa, 6);
	hs_test_hex_into("020000000200", cfg.spa, 6);
	hold[0] = hs_test_hex(OWN_RSNE);
	hold[1] = hs_test_hex(MDE);
	hold[2] = hs_test_hex(fte);
	cfg.pmk = keys->pmk_r1;
	cfg.pmk_len = keys->pmk_len;
	cfg.own_rsne = g_bytes_get_data(hold[0], &cfg.own_rsne_len);
	cfg.ap_rsne = cfg.own_rsne;
	cfg.ap_rsne_len = cfg.own_rsne_len;
	cfg.ft = keys;
	cfg.ft_mde = g_bytes_get_data(hold[1], &cfg.ft_mde_len);
	cfg.ft_fte = g_bytes_get_data(hold[2], &cfg.ft_fte_len);
	hs = wifi_handshake_new(&cfg, &cb, seen, error);
	if (hs == NULL)
		return NULL;
	hs_test_hex_into("72f63e1611e7ccba3935eb808120c86ee42c7a562b549e44c1d6efbbf9f30189", snonce,
	                 32);
	wifi_handshake_set_snonce(hs, snonce);
	return hs;
}

static void
finish(WifiHandshake *hs, Seen *seen, GBytes **hold)
{
	wifi_handshake_free(hs);
	for (guint i = 0; i < 3; i++)
		g_bytes_unref(hold[i]);
	g_ptr_array_unref(seen->sent);
	g_ptr_array_unref(seen->installed);
}

static WifiHandshakeRx
feed(WifiHandshake *hs, const gchar *hex, GError **error)
{
	g_autoptr(GBytes) frame = hs_test_hex(hex);

	return wifi_handshake_rx(hs, g_bytes_get_data(frame, NULL), g_bytes_get_size(frame), error);
}

static void
test_recorded(void)
{
	g_autoptr(GError) error = NULL;
	Seen seen = {g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref),
	             g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref)};
	GBytes *hold[3];
	WifiFtKeys keys;
	WifiEapolKey msg2;
	guint8 kck[16];
	const guint8 *frame;
	gsize len;
	WifiHandshake *hs = start(&seen, &keys, hold, FTE_ZERO, &error);

	g_assert_no_error(error);
	g_assert_cmpint(feed(hs, MSG1, &error), ==, WIFI_HANDSHAKE_RX_ACCEPTED);
	g_assert_cmpuint(seen.sent->len, ==, 1);
	frame = g_bytes_get_data(seen.sent->pdata[0], &len);
	g_assert_true(wifi_eapol_key_parse(frame, len, 16, &msg2, &error));
	hs_assert_hex(msg2.nonce, 32,
	              "72f63e1611e7ccba3935eb808120c86ee42c7a562b549e44c1d6efbbf9f30189");
	hs_assert_hex(msg2.key_data, msg2.key_data_len, MSG2_KEY_DATA);
	hs_test_hex_into("4aa6f5e0359f3c60ba089cdfcdd3ce53", kck, 16);
	g_assert_true(
	        wifi_eapol_key_verify_mic(WIFI_AKM_SUITE_FT_PSK, kck, 16, frame, &msg2, &error));
	g_assert_no_error(error);
	g_assert_cmpint(feed(hs, MSG3, &error), ==, WIFI_HANDSHAKE_RX_ACCEPTED);
	g_assert_no_error(error);
	g_assert_cmpint(wifi_handshake_get_state(hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
	g_assert_cmpuint(seen.installed->len, ==, 2);
	hs_assert_hex(g_bytes_get_data(seen.installed->pdata[0], NULL), 16,
	              "74d9d76280e204cbe6961e10bf64cf49");
	hs_assert_hex(g_bytes_get_data(seen.installed->pdata[1], NULL), 16,
	              "a14a8bc5562a4079dca53374d4fb7855");
	finish(hs, &seen, hold);
}

/* An association response whose FTE differs from the one message 3
 * carries (another R1KH-ID): message 3 is refused, nothing installed. */
static void
test_fte_mismatch(void)
{
	g_autoptr(GError) error = NULL;
	Seen seen = {g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref),
	             g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref)};
	g_autofree gchar *other = g_strdup(FTE_ZERO);
	GBytes *hold[3];
	WifiFtKeys keys;
	WifiHandshake *hs;

	/* R1KH-ID ...11 -> ...12 in our copy of the association response. */
	other[strlen(other) - 33] = '2';
	hs = start(&seen, &keys, hold, other, &error);
	g_assert_no_error(error);
	g_assert_cmpint(feed(hs, MSG1, &error), ==, WIFI_HANDSHAKE_RX_ACCEPTED);
	g_assert_cmpint(feed(hs, MSG3, &error), ==, WIFI_HANDSHAKE_RX_FAILED);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
	g_assert_cmpuint(seen.installed->len, ==, 0);
	finish(hs, &seen, hold);
}

/* An FT AKM without the hierarchy, or the hierarchy with a plain AKM, is
 * refused at the start. */
static void
test_config_refused(void)
{
	static const WifiHandshakeCallbacks cb = {seen_send, seen_install, NULL};
	g_autoptr(GBytes) rsne = hs_test_hex(OWN_RSNE);
	WifiHandshakeConfig cfg = {.akm = WIFI_AKM_SUITE_FT_PSK,
	                           .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	                           .group_cipher = WIFI_CIPHER_SUITE_CCMP};
	guint8 pmk[32] = {1};
	GError *error = NULL;
	WifiFtKeys keys;

	cfg.pmk = pmk;
	cfg.pmk_len = 32;
	cfg.own_rsne = g_bytes_get_data(rsne, &cfg.own_rsne_len);
	cfg.ap_rsne = cfg.own_rsne;
	cfg.ap_rsne_len = cfg.own_rsne_len;
	g_assert_null(wifi_handshake_new(&cfg, &cb, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	recorded_ft_keys(&keys);
	cfg.akm = WIFI_AKM_SUITE_PSK;
	cfg.ft = &keys;
	g_assert_null(wifi_handshake_new(&cfg, &cb, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi-handshake/ft-4way/recorded", test_recorded);
	g_test_add_func("/wifi-handshake/ft-4way/fte-mismatch", test_fte_mismatch);
	g_test_add_func("/wifi-handshake/ft-4way/config-refused", test_config_refused);
	return g_test_run();
}
