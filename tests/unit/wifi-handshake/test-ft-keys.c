/* test-ft-keys.c - the FT key hierarchy and the FTE MIC against values
 * recorded from a real FT-PSK exchange: hostapd 2.10 (two BSSes, mobility
 * domain a1b2, R0KH-ID "ap1.example.com", R1KH-IDs 02:00:00:00:00:11 and
 * :22, ft_psk_generate_local=1) and wpa_supplicant 2.10 on mac80211_hwsim,
 * SSID "ft-rec", passphrase "correct horse battery staple", station
 * 02:00:00:00:02:00; their debug output with keys (-dd -K) gave every
 * intermediate value: the initial mobility domain association's
 * hierarchy and PTK, then an FT over the air roam to 02:00:00:00:01:00
 * (its PMK-R1, PTK and the MICs of the reassociation request and
 * response). The standard has no FT vectors; the SHA-384 variant is
 * cross-checked against GLib's own HMAC and hashes (independent of
 * OpenSSL). */
#include <string.h>

#include "ft-keys.h"
#include "hs-test-util.h"
#include "rsn-suites.h"

#define SSID "ft-rec"

static void
recorded_holders(WifiFtHolders *h, const gchar *r1kh)
{
	memset(h, 0, sizeof(*h));
	h->mdid[0] = 0xa1;
	h->mdid[1] = 0xb2;
	h->r0kh_id_len = strlen("ap1.example.com");
	memcpy(h->r0kh_id, "ap1.example.com", h->r0kh_id_len);
	hs_test_hex_into(r1kh, h->r1kh_id, sizeof(h->r1kh_id));
	hs_test_hex_into("020000000200", h->spa, sizeof(h->spa));
}

static void
recorded_keys(WifiFtKeys *keys, const gchar *r1kh)
{
	g_autoptr(GError) error = NULL;
	WifiFtHolders h;
	guint8 psk[WIFI_PSK_LEN];

	recorded_holders(&h, r1kh);
	g_assert_true(wifi_psk_from_passphrase("correct horse battery staple", (const guint8 *)SSID,
	                                       strlen(SSID), psk, &error));
	hs_assert_hex(psk, sizeof(psk),
	              "c3a6bb3d9470312bd6baa1f6f19780c432469b9624087e9e5654d229a563f31e");
	g_assert_true(wifi_ft_keys_derive(WIFI_AKM_SUITE_FT_PSK, psk, sizeof(psk),
	                                  (const guint8 *)SSID, strlen(SSID), &h, keys, &error));
	g_assert_no_error(error);
}

/* A recorded PTK: the nonces and BSSID in, then "KCK KEK TK PTKName". */
typedef struct {
	const gchar *snonce, *anonce, *bssid, *expected;
} PtkVector;

static void
check_ptk(const WifiFtKeys *keys, const PtkVector *v)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) want = hs_test_hex(v->expected);
	guint8 snonce[32], anonce[32], bssid[6], sta[6], got[16 * 4];
	WifiPtk ptk;

	hs_test_hex_into(v->snonce, snonce, 32);
	hs_test_hex_into(v->anonce, anonce, 32);
	hs_test_hex_into(v->bssid, bssid, 6);
	hs_test_hex_into("020000000200", sta, 6);
	g_assert_true(wifi_ft_ptk_derive(keys, WIFI_CIPHER_SUITE_CCMP, snonce, anonce, bssid, sta,
	                                 &ptk, got + 48, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(ptk.kck_len + ptk.kek_len + ptk.tk_len, ==, 48);
	memcpy(got, ptk.kck, 16);
	memcpy(got + 16, ptk.kek, 16);
	memcpy(got + 32, ptk.tk, 16);
	g_assert_cmpmem(got, sizeof(got), g_bytes_get_data(want, NULL), g_bytes_get_size(want));
	wifi_ptk_clear(&ptk);
}

/* The initial mobility domain association: PMK-R0, PMK-R1 for the first
 * access point and the PTK of its 4-way handshake. */
static void
test_initial_association(void)
{
	static const PtkVector v = {
	        "72f63e1611e7ccba3935eb808120c86ee42c7a562b549e44c1d6efbbf9f30189",
	        "5a17159b179909c4fd2907206c1f216b0587ba733383e839ca9eb466dc91f354", "020000000000",
	        "4aa6f5e0359f3c60ba089cdfcdd3ce53 ea78b3e3c4a25ec808ca54bee08c0a94"
	        "74d9d76280e204cbe6961e10bf64cf49 5f5fdd541803fd8717ad1f40ade48ce0"};
	WifiFtKeys keys;

	recorded_keys(&keys, "020000000011");
	g_assert_cmpuint(keys.pmk_len, ==, 32);
	hs_assert_hex(keys.pmk_r0, keys.pmk_len,
	              "a0e8c422fb80b218586fb8343e7b81e876f0b3500f18f6491c92d41dcf2117e4");
	hs_assert_hex(keys.pmk_r0_name, 16, "75609e578f100b7dbe874743812b89b8");
	hs_assert_hex(keys.pmk_r1, keys.pmk_len,
	              "6d6b3428ec881a1df589236c9807bfbae6d2e3cbfc76e75c6d0b199d31ed1df5");
	hs_assert_hex(keys.pmk_r1_name, 16, "e3ae367cc3920f01e0cebe7959219b54");
	check_ptk(&keys, &v);
	wifi_ft_keys_clear(&keys);
	g_assert_cmpuint(keys.pmk_r0[0] | keys.pmk_r1[5], ==, 0);
}

/* The transition: PMK-R1 for the target's R1KH-ID from the same PMK-R0,
 * the PTK from the nonces of the authentication frames. */
static void
test_transition_ptk(void)
{
	static const PtkVector v = {
	        "51084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e32",
	        "cbe87b4ca8295b71210a913ae4172708f57cbb9c05025e52a753b845ce1980f5", "020000000100",
	        "3f7d698fdea6d67d76f314bab50f3a06 678798207bd2fa1bfef8c81ca364ea44"
	        "863c9cd0727a208da71b5119abaff598 e281b255528e381cee1d0851d50e1a54"};
	g_autoptr(GError) error = NULL;
	guint8 sta[6], r1kh[6];
	WifiFtKeys keys;

	recorded_keys(&keys, "020000000011");
	hs_test_hex_into("020000000022", r1kh, 6);
	hs_test_hex_into("020000000200", sta, 6);
	g_assert_true(wifi_ft_keys_for_r1kh(&keys, r1kh, sta, &error));
	hs_assert_hex(keys.pmk_r1, keys.pmk_len,
	              "015337a385c791de984aa4b020484b22c84ae264d936196798449d318e5a4055");
	hs_assert_hex(keys.pmk_r1_name, 16, "c1acfd90898c36f34a2de8f69dc72328");
	check_ptk(&keys, &v);
	wifi_ft_keys_clear(&keys);
}

/* The recorded RSNE (PMKID PMKR1Name) and MDE of the reassociation. */
#define REC_RSNE \
	"3026010000 0fac04 0100000fac04 0100000fac04 0000 0100 c1acfd90898c36f34a2de8f69dc72328"
#define REC_MDE "3603a1b200"
#define REC_NONCES                                                         \
	"cbe87b4ca8295b71210a913ae4172708f57cbb9c05025e52a753b845ce1980f5" \
	"51084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e32"
#define REC_SUBELEMENTS "0106020000000022 030f6170312e6578616d706c652e636f6d"

static void
check_mic(guint8 transaction, const gchar *fte_hex, const gchar *expected)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) rsne = hs_test_hex(REC_RSNE);
	g_autoptr(GBytes) mde = hs_test_hex(REC_MDE);
	g_autoptr(GBytes) fte = hs_test_hex(fte_hex);
	guint8 kck[16], sta[6], ap[6], mic[WIFI_FT_MIC_MAX_LEN];
	gsize mic_len = 0;
	WifiFtMicInput in = {sta, ap, transaction};

	hs_test_hex_into("3f7d698fdea6d67d76f314bab50f3a06", kck, 16);
	hs_test_hex_into("020000000200", sta, 6);
	hs_test_hex_into("020000000100", ap, 6);
	in.rsne = g_bytes_get_data(rsne, &in.rsne_len);
	in.mde = g_bytes_get_data(mde, &in.mde_len);
	in.fte = g_bytes_get_data(fte, &in.fte_len);
	g_assert_true(wifi_ft_mic(WIFI_AKM_SUITE_FT_PSK, kck, 16, &in, mic, &mic_len, &error));
	g_assert_no_error(error);
	hs_assert_hex(mic, mic_len, expected);
}

/* The reassociation request's MIC (transaction 5) and the response's (6,
 * with the GTK subelement), as both hostapd and wpa_supplicant checked
 * them. */
static void
test_fte_mic(void)
{
	check_mic(5, "376b 0003 00000000000000000000000000000000" REC_NONCES REC_SUBELEMENTS,
	          "5fa942085e8ccb3bbde60dffa7342f04");
	check_mic(6,
	          "3790 0003 00000000000000000000000000000000" REC_NONCES REC_SUBELEMENTS
	          "0223 0100 10 0000000000000000"
	          "23891d01dd38aae61ddc6cd1cea2ca9ca8711efe4ff3aa0c",
	          "bd5c1d5e462fa3c4840d1dbb6ac28ca7");
}

/* GLib's HMAC-SHA-384, for the KDF of the cross-check. */
static void
glib_kdf384(const guint8 *key, gsize key_len, const gchar *label, const guint8 *ctx, gsize ctx_len,
            guint8 *out, gsize out_len)
{
	guint8 len_le[2] = {(guint8)((out_len * 8) & 0xff), (guint8)((out_len * 8) >> 8)};

	for (gsize i = 1, done = 0; done < out_len; i++) {
		g_autoptr(GHmac) h = g_hmac_new(G_CHECKSUM_SHA384, key, key_len);
		guint8 i_le[2] = {(guint8)i, (guint8)(i >> 8)}, block[48];
		gsize n = sizeof(block);

		g_hmac_update(h, i_le, 2);
		g_hmac_update(h, (const guchar *)label, (gssize)strlen(label));
		g_hmac_update(h, ctx, (gssize)ctx_len);
		g_hmac_update(h, len_le, 2);
		g_hmac_get_digest(h, block, &n);
		memcpy(out + done, block, MIN(out_len - done, n));
		done += (guint16)MIN(out_len - done, n);
	}
}

/* FT-802.1X-SHA384: the hierarchy's steps recomputed with GLib. */
static void
test_sha384_cross_check(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GChecksum) c = g_checksum_new(G_CHECKSUM_SHA384);
	guint8 xxkey[48], data[64], r1[48], r1ctx[12], digest[48];
	gsize n = sizeof(digest);
	guint8 ctx[1 + 6 + 2 + 1 + 15 + 6] = {6};
	WifiFtHolders h;
	WifiFtKeys keys;

	memset(xxkey, 0x3c, sizeof(xxkey));
	recorded_holders(&h, "020000000011");
	g_assert_true(wifi_ft_keys_derive(WIFI_AKM_SUITE_FT_8021X_SHA384, xxkey, 48,
	                                  (const guint8 *)SSID, 6, &h, &keys, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(keys.pmk_len, ==, 48);
	memcpy(ctx + 1, SSID, 6);
	memcpy(ctx + 7, h.mdid, 2);
	ctx[9] = 15;
	memcpy(ctx + 10, h.r0kh_id, 15);
	memcpy(ctx + 25, h.spa, 6);
	glib_kdf384(xxkey, 48, "FT-R0", ctx, sizeof(ctx), data, 64);
	g_assert_cmpmem(keys.pmk_r0, 48, data, 48);
	g_checksum_update(c, (const guchar *)"FT-R0N", 6);
	g_checksum_update(c, data + 48, 16);
	g_checksum_get_digest(c, digest, &n);
	g_assert_cmpmem(keys.pmk_r0_name, 16, digest, 16);
	memcpy(r1ctx, h.r1kh_id, 6);
	memcpy(r1ctx + 6, h.spa, 6);
	glib_kdf384(data, 48, "FT-R1", r1ctx, sizeof(r1ctx), r1, 48);
	g_assert_cmpmem(keys.pmk_r1, 48, r1, 48);
	wifi_ft_keys_clear(&keys);
}

/* A non-FT AKM, a short XXKey, an empty R0KH-ID are refused; the plain
 * PTK derivation refuses the FT AKMs. */
static void
test_refusals(void)
{
	guint8 xxkey[32] = {0}, n1[32] = {0}, n2[32] = {0}, a[6] = {0}, b[6] = {1};
	WifiFtHolders h;
	WifiFtKeys keys;
	WifiPtk ptk;
	GError *error = NULL;

	recorded_holders(&h, "020000000011");
	g_assert_false(wifi_ft_keys_derive(WIFI_AKM_SUITE_PSK, xxkey, 32, (const guint8 *)SSID, 6,
	                                   &h, &keys, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	g_clear_error(&error);
	g_assert_false(wifi_ft_keys_derive(WIFI_AKM_SUITE_FT_PSK, xxkey, 16, (const guint8 *)SSID,
	                                   6, &h, &keys, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	h.r0kh_id_len = 0;
	g_assert_false(wifi_ft_keys_derive(WIFI_AKM_SUITE_FT_PSK, xxkey, 32, (const guint8 *)SSID,
	                                   6, &h, &keys, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_ptk_derive(WIFI_AKM_SUITE_FT_PSK, WIFI_CIPHER_SUITE_CCMP, xxkey, 32, a,
	                               b, n1, n2, &ptk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	g_clear_error(&error);
	g_assert_true(wifi_ft_akm_is_ft(WIFI_AKM_SUITE_FT_SAE));
	g_assert_false(wifi_ft_akm_is_ft(WIFI_AKM_SUITE_SAE));
	g_assert_cmpstr(wifi_akm_suite_to_string(WIFI_AKM_SUITE_FT_8021X), ==, "FT-802.1X");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi-handshake/ft/initial-association", test_initial_association);
	g_test_add_func("/wifi-handshake/ft/transition-ptk", test_transition_ptk);
	g_test_add_func("/wifi-handshake/ft/fte-mic", test_fte_mic);
	g_test_add_func("/wifi-handshake/ft/sha384-cross-check", test_sha384_cross_check);
	g_test_add_func("/wifi-handshake/ft/refusals", test_refusals);
	return g_test_run();
}
