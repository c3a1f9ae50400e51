/* test-rsn-keys.c - the key hierarchy and its primitives against published
 * vectors: IEEE 802.11-2020 Annex J.4 (passphrase to PSK), J.3 (PRF), J.7
 * (PTK), IEEE P802.11az/D2.6 J.13 (SHA-256 KDF), RFC 3394 (AES key wrap),
 * RFC 4493 (AES-CMAC), hashcat's published PMKID example; plus a cross-check
 * of PRF/KDF/PMKID against GLib's own HMAC (an implementation independent
 * of OpenSSL). */
#include <string.h>

#include "hs-test-util.h"
#include "rsn-crypto.h"
#include "rsn-keys.h"
#include "rsn-suites.h"

static void
check_psk(const gchar *passphrase, const guint8 *ssid, gsize ssid_len, const gchar *expected)
{
	g_autoptr(GError) error = NULL;
	guint8 psk[WIFI_PSK_LEN];

	g_assert_true(wifi_psk_from_passphrase(passphrase, ssid, ssid_len, psk, &error));
	g_assert_no_error(error);
	hs_assert_hex(psk, sizeof(psk), expected);
}

/* IEEE 802.11-2020 J.4.2, table J-4. */
static void
test_psk_annex_j4(void)
{
	g_autofree gchar *a32 = g_strnfill(32, 'a');
	g_autofree gchar *z32 = g_strnfill(32, 'Z');

	check_psk("password", (const guint8 *)"IEEE", 4,
	          "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e");
	check_psk("ThisIsAPassword", (const guint8 *)"ThisIsASSID", 11,
	          "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af");
	check_psk(a32, (const guint8 *)z32, 32,
	          "becb93866bb8c3832cb777c2f559807c8c59afcb6eae734885001300a981cc62");
}

/* hashcat's published example for modes 16800/16801: passphrase
 * "hashcat!", a binary 16-octet SSID, PMK and PMKID. */
static void
test_psk_and_pmkid_hashcat(void)
{
	g_autoptr(GError) error = NULL;
	guint8 ssid[16], aa[6], spa[6], psk[WIFI_PSK_LEN], pmkid[WIFI_PMKID_LEN];

	hs_test_hex_into("ed487162465a774bfba60eb603a39f3a", ssid, sizeof(ssid));
	hs_test_hex_into("4604ba734d4e", aa, sizeof(aa));
	hs_test_hex_into("89acf0e761f4", spa, sizeof(spa));
	check_psk("hashcat!", ssid, sizeof(ssid),
	          "5b13d4babb3714ccc62c9f71864bc984efd6a55f237c7a87fc2151e1ca658a9d");
	g_assert_true(wifi_psk_from_passphrase("hashcat!", ssid, sizeof(ssid), psk, &error));
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_PSK, psk, sizeof(psk), aa, spa, pmkid, &error));
	g_assert_no_error(error);
	hs_assert_hex(pmkid, sizeof(pmkid), "2582a8281bf9d4308d6f5731d0e61c61");
}

static void
check_psk_refused(const gchar *secret, const guint8 *ssid, gsize ssid_len)
{
	g_autoptr(GError) error = NULL;
	guint8 psk[WIFI_PSK_LEN];

	g_assert_false(wifi_psk_from_secret(secret, ssid, ssid_len, psk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	/* The message tells a person what is wrong with the input. */
	g_assert_true(strstr(error->message, "passphrase") != NULL ||
	              strstr(error->message, "PSK") != NULL ||
	              strstr(error->message, "SSID") != NULL);
}

static void
test_psk_invalid(void)
{
	g_autofree gchar *c63 = g_strnfill(63, 'x');
	g_autofree gchar *c64 = g_strnfill(64, 'x');
	g_autofree gchar *c65 = g_strnfill(65, 'x');
	g_autofree gchar *z33 = g_strnfill(33, 'Z');
	guint8 psk[WIFI_PSK_LEN];
	g_autoptr(GError) error = NULL;

	check_psk_refused("1234567", (const guint8 *)"net", 3);
	check_psk_refused(c64, (const guint8 *)"net", 3); /* 64 characters, not hex */
	check_psk_refused(c65, (const guint8 *)"net", 3);
	check_psk_refused("pass\tword", (const guint8 *)"net", 3);
	check_psk_refused("passw\x7f"
	                  "rd",
	                  (const guint8 *)"net", 3);
	check_psk_refused("passw\xc3\xa4rd", (const guint8 *)"net", 3); /* not ASCII */
	check_psk_refused("password", (const guint8 *)"", 0);
	check_psk_refused("password", (const guint8 *)z33, 33);
	/* The edges are accepted. */
	g_assert_true(wifi_psk_from_secret(c63, (const guint8 *)"net", 3, psk, &error));
	g_assert_true(wifi_psk_from_secret("12345678", (const guint8 *)z33, 32, psk, &error));
	g_assert_true(wifi_psk_from_secret(" ~ ~ ~ ~", (const guint8 *)"n", 1, psk, &error));
	g_assert_no_error(error);
}

static void
test_psk_hex(void)
{
	g_autoptr(GError) error = NULL;
	guint8 psk[WIFI_PSK_LEN];

	g_assert_true(wifi_psk_from_secret(
	        "F42C6FC52DF0EBEF9EBB4B90B38A5F902E83FE1B135A70E23AED762E9710A12E",
	        (const guint8 *)"ignored", 7, psk, &error));
	g_assert_no_error(error);
	hs_assert_hex(psk, sizeof(psk),
	              "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e");
	g_assert_false(wifi_psk_from_hex("f42c", psk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_psk_from_hex(
	        "g42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e", psk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
}

static void
check_prf(const guint8 *key, gsize key_len, const gchar *label, const gchar *data, gsize bits,
          const gchar *expected)
{
	g_autoptr(GError) error = NULL;
	guint8 out[64];

	g_assert_cmpuint(bits / 8, <=, sizeof(out));
	g_assert_true(wifi_prf_sha1(key, key_len, label, (const guint8 *)data, strlen(data), out,
	                            bits / 8, &error));
	g_assert_no_error(error);
	hs_assert_hex(out, bits / 8, expected);
}

/* IEEE 802.11-2020 J.3.2 (numbered J.6.5 in 802.11-2016): PRF-192 to 512. */
static void
test_prf_annex_j3(void)
{
	guint8 k0b[20], kaa[80];

	memset(k0b, 0x0b, sizeof(k0b));
	memset(kaa, 0xaa, sizeof(kaa));
	check_prf(k0b, sizeof(k0b), "prefix", "Hi There", 192,
	          "bcd4c650b30b9684951829e0d75f9d54b862175ed9f00606");
	check_prf((const guint8 *)"Jefe", 4, "prefix-2", "what do ya want for nothing?", 256,
	          "47c4908e30c947521ad20be9053450ecbea23d3aa604b77326d8b3825ff7475c");
	check_prf(kaa, sizeof(kaa), "prefix-3",
	          "Test Using Larger Than Block-Size Key - Hash Key First", 384,
	          "0ab6c33ccf70d0d736f4b04c8a7373255511abc5073713163bd0b8c9eeb7e195"
	          "6fa066820a73ddee3f6d3bd407e0682a");
	check_prf(k0b, sizeof(k0b), "prefix-4", "Hi There Again", 512,
	          "248cfbc532ab38ffa483c8a2e40bf170eb542a2e0916d7bf6d97da2c4c5ca877"
	          "736c53a65b03fa4b3745ce7613f6ad68e0e4a798b7cf691c96176fd634a59a49");
}

/* IEEE 802.11-2020 J.7.1 and J.7.2 (table J-14): PSK AKM with CCMP. The AA
 * a0:a1:a1:a3:a4:a5 is as printed in the standard. */
static void
test_ptk_annex_j7(void)
{
	g_autoptr(GError) error = NULL;
	guint8 pmk[32], aa[6], spa[6], anonce[32], snonce[32];
	WifiPtk ptk;

	hs_test_hex_into("0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af", pmk,
	                 sizeof(pmk));
	hs_test_hex_into("a0a1a1a3a4a5", aa, sizeof(aa));
	hs_test_hex_into("b0b1b2b3b4b5", spa, sizeof(spa));
	hs_test_hex_into("e0e1e2e3e4e5e6e7e8e9f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405", anonce,
	                 sizeof(anonce));
	hs_test_hex_into("c0c1c2c3c4c5c6c7c8c9d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5", snonce,
	                 sizeof(snonce));
	g_assert_true(wifi_ptk_derive(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, pmk, sizeof(pmk),
	                              aa, spa, anonce, snonce, &ptk, &error));
	g_assert_no_error(error);
	hs_assert_hex(ptk.kck, ptk.kck_len, "379f9852d0199236b94e407ce4c00ec8");
	hs_assert_hex(ptk.kek, ptk.kek_len, "47c9edc01c2c6e5b4910caddfb3e51a7");
	hs_assert_hex(ptk.tk, ptk.tk_len, "b2360c79e9710fdd58bea93deaf06599");
	/* The authenticator, with the roles of addresses and nonces swapped in
	 * the call, derives the same keys. */
	{
		WifiPtk other;

		g_assert_true(wifi_ptk_derive(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, pmk,
		                              sizeof(pmk), spa, aa, snonce, anonce, &other,
		                              &error));
		g_assert_cmpmem(&other, sizeof(other), &ptk, sizeof(ptk));
	}
}

/* IEEE P802.11az/D2.6 J.13 (as used by hostapd's module tests): the SHA-256
 * KDF for SAE with CCMP and a 256-bit KDK, i.e. KDF-640. */
static void
test_kdf_80211az_j13(void)
{
	g_autoptr(GError) error = NULL;
	guint8 pmk[32], aa[6], spa[6], anonce[32], snonce[32];
	guint8 context[WIFI_PTK_CONTEXT_LEN], out[80];

	hs_test_hex_into("def43e5567e01ca6649265f19a290eeff8bd888f6c1d9cc9d10f04bd378f3cad", pmk,
	                 sizeof(pmk));
	hs_test_hex_into("c0ffd4a8dbc1", aa, sizeof(aa));
	hs_test_hex_into("00904c01c107", spa, sizeof(spa));
	hs_test_hex_into("be7a1ca284347b5bd67dbd2dfdb4d99f1afae0b88ba18e008718417e4b27ef5f", anonce,
	                 sizeof(anonce));
	hs_test_hex_into("404b012ffb43ed0fb43ea1f287c91f2506d21b4a92d74b5ea50c943350ce8671", snonce,
	                 sizeof(snonce));
	wifi_ptk_context(aa, spa, anonce, snonce, context);
	g_assert_true(wifi_kdf_sha256(pmk, sizeof(pmk), "Pairwise key expansion", context,
	                              sizeof(context), out, sizeof(out), &error));
	g_assert_no_error(error);
	hs_assert_hex(out, 16, "cd7b9e7555362df0b63568484a8112f5");      /* KCK */
	hs_assert_hex(out + 16, 16, "99cad3588da0f1e63fd190191039bb4b"); /* KEK */
	hs_assert_hex(out + 32, 16, "9e2e9377e7532e737a1bc250fe194a03"); /* TK */
	hs_assert_hex(out + 48, 32,
	              "6c7fb97ceb55b01acff00f070942bdf5" /* KDK */
	              "291feb4bee38e0365b25a250bb2ac9ff");
}

/* GLib's GHmac is a second, independent HMAC: the PRF and KDF built from
 * it by hand must agree with ours for several lengths. */
static void
test_prf_kdf_cross_check(void)
{
	const guint8 key[] = "a key of some length";
	const guint8 data[] = "context data";

	for (gsize len = 1; len <= 80; len += 13) {
		g_autoptr(GError) error = NULL;
		guint8 ours[80], theirs[96];

		g_assert_true(wifi_prf_sha1(key, sizeof(key), "Label", data, sizeof(data), ours,
		                            len, &error));
		for (guint i = 0; i * 20 < len; i++) {
			g_autoptr(GHmac) h = g_hmac_new(G_CHECKSUM_SHA1, key, sizeof(key));
			guint8 zero = 0, ctr = (guint8)i;
			gsize n = 20;

			g_hmac_update(h, (const guchar *)"Label", 5);
			g_hmac_update(h, &zero, 1);
			g_hmac_update(h, data, sizeof(data));
			g_hmac_update(h, &ctr, 1);
			g_hmac_get_digest(h, theirs + 20 * i, &n);
		}
		g_assert_cmpmem(ours, len, theirs, len);

		g_assert_true(wifi_kdf_sha256(key, sizeof(key), "Label", data, sizeof(data), ours,
		                              len, &error));
		g_assert_no_error(error);
		for (guint i = 1; (i - 1) * 32 < len; i++) {
			g_autoptr(GHmac) h = g_hmac_new(G_CHECKSUM_SHA256, key, sizeof(key));
			guint8 i_le[2] = {(guint8)i, 0};
			guint8 l_le[2] = {(guint8)((len * 8) & 0xff), (guint8)((len * 8) >> 8)};
			gsize n = 32;

			g_hmac_update(h, i_le, 2);
			g_hmac_update(h, (const guchar *)"Label", 5);
			g_hmac_update(h, data, sizeof(data));
			g_hmac_update(h, l_le, 2);
			g_hmac_get_digest(h, theirs + 32 * (i - 1), &n);
		}
		g_assert_cmpmem(ours, len, theirs, len);
	}
}

/* Key sizes per AKM and cipher (12.7.1.3, tables 12-8 and 12-11), and the
 * choice of PRF or KDF. */
static void
test_ptk_sizes(void)
{
	g_autoptr(GError) error = NULL;
	guint8 pmk[32], aa[6] = {2, 0, 0, 0, 0, 1}, spa[6] = {2, 0, 0, 0, 0, 2};
	guint8 an[32], sn[32], ctx[WIFI_PTK_CONTEXT_LEN], raw[64];
	WifiPtk ptk;

	memset(pmk, 0x42, sizeof(pmk));
	memset(an, 0x01, sizeof(an));
	memset(sn, 0x02, sizeof(sn));
	wifi_ptk_context(aa, spa, an, sn, ctx);

	g_assert_true(wifi_ptk_derive(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_GCMP_256, pmk, 32, aa,
	                              spa, an, sn, &ptk, &error));
	g_assert_cmpuint(ptk.kck_len + ptk.kek_len + ptk.tk_len, ==, 64);
	g_assert_true(wifi_prf_sha1(pmk, 32, "Pairwise key expansion", ctx, sizeof(ctx), raw, 64,
	                            &error));
	g_assert_cmpmem(ptk.tk, 32, raw + 32, 32);

	g_assert_true(wifi_ptk_derive(WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP, pmk, 32,
	                              aa, spa, an, sn, &ptk, &error));
	g_assert_cmpuint(ptk.tk_len, ==, 16);
	g_assert_true(wifi_kdf_sha256(pmk, 32, "Pairwise key expansion", ctx, sizeof(ctx), raw, 48,
	                              &error));
	g_assert_cmpmem(ptk.kck, 16, raw, 16);
	g_assert_cmpmem(ptk.kek, 16, raw + 16, 16);
	g_assert_cmpmem(ptk.tk, 16, raw + 32, 16);

	/* SAE and 802.1X-SHA256 use the KDF too; CCMP-256 has a 32 octet TK. */
	g_assert_true(wifi_ptk_derive(WIFI_AKM_SUITE_SAE, WIFI_CIPHER_SUITE_CCMP_256, pmk, 32, aa,
	                              spa, an, sn, &ptk, &error));
	g_assert_true(wifi_kdf_sha256(pmk, 32, "Pairwise key expansion", ctx, sizeof(ctx), raw, 64,
	                              &error));
	g_assert_cmpmem(ptk.tk, 32, raw + 32, 32);
	g_assert_no_error(error);
	wifi_ptk_clear(&ptk);
	g_assert_cmpuint(ptk.tk_len, ==, 0);
}

/* The 192-bit AKM (00-0F-AC:12): KDF-SHA-384 of a 48-octet PMK into a
 * 24-octet KCK, 32-octet KEK and GCMP-256's 32-octet TK (table 12-8); the
 * expected parts were computed independently (Python's hmac/hashlib,
 * 12.7.1.6.2's KDF written out). */
static void
test_ptk_suite_b(void)
{
	g_autoptr(GError) error = NULL;
	guint8 pmk[48], aa[6] = {2, 0, 0, 0, 0, 1}, spa[6] = {2, 0, 0, 0, 0, 2};
	guint8 an[32], sn[32], kck[24], kek[32], tk[32];
	WifiPtk ptk;

	memset(pmk, 0x42, sizeof(pmk));
	memset(an, 0x01, sizeof(an));
	memset(sn, 0x02, sizeof(sn));
	hs_test_hex_into("68a397d33d5235bd3633718c30348ec94b26f57a63b9efe5", kck, 24);
	hs_test_hex_into("e03ee9a95bf1ba61a9ddd3dda99dc5ee21281f3bdccba187a7b423c9d3713ce6", kek,
	                 32);
	hs_test_hex_into("4e6b0351e505c064c4240f6374a04fa94b079adb6e9378d11905fbb8cc5ddadc", tk,
	                 32);
	g_assert_true(wifi_ptk_derive(WIFI_AKM_SUITE_8021X_SUITE_B_192, WIFI_CIPHER_SUITE_GCMP_256,
	                              pmk, 48, aa, spa, an, sn, &ptk, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(ptk.kck, ptk.kck_len, kck, 24);
	g_assert_cmpmem(ptk.kek, ptk.kek_len, kek, 32);
	g_assert_cmpmem(ptk.tk, ptk.tk_len, tk, 32);
	/* A 32-octet PMK is not this AKM's. */
	g_assert_false(wifi_ptk_derive(WIFI_AKM_SUITE_8021X_SUITE_B_192, WIFI_CIPHER_SUITE_GCMP_256,
	                               pmk, 32, aa, spa, an, sn, &ptk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	wifi_ptk_clear(&ptk);
}

static void
test_ptk_unsupported(void)
{
	guint8 pmk[48] = {0}, a[6] = {0}, n[32] = {0};
	WifiPtk ptk;
	g_autoptr(GError) error = NULL;

	g_assert_false(wifi_ptk_derive(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_TKIP, pmk, 32, a, a, n,
	                               n, &ptk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	g_clear_error(&error);
	g_assert_false(
	        wifi_ptk_derive(13, WIFI_CIPHER_SUITE_CCMP, pmk, 48, a, a, n, n, &ptk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	g_clear_error(&error);
	g_assert_false(wifi_ptk_derive(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, pmk, 48, a, a, n,
	                               n, &ptk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
}

/* PMKID with SHA-256 for the SHA-256 AKMs, cross-checked with GHmac; SAE
 * refused (its PMKID comes from the SAE exchange). */
static void
test_pmkid_sha256(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GHmac) h = NULL;
	guint8 pmk[32], aa[6] = {1, 2, 3, 4, 5, 6}, spa[6] = {6, 5, 4, 3, 2, 1};
	guint8 pmkid[16], digest[32];
	gsize n = sizeof(digest);

	memset(pmk, 0x5a, sizeof(pmk));
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_PSK_SHA256, pmk, 32, aa, spa, pmkid, &error));
	h = g_hmac_new(G_CHECKSUM_SHA256, pmk, sizeof(pmk));
	g_hmac_update(h, (const guchar *)"PMK Name", 8);
	g_hmac_update(h, aa, 6);
	g_hmac_update(h, spa, 6);
	g_hmac_get_digest(h, digest, &n);
	g_assert_cmpmem(pmkid, 16, digest, 16);
	g_assert_false(wifi_pmkid(WIFI_AKM_SUITE_SAE, pmk, 32, aa, spa, pmkid, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
}

typedef struct {
	const gchar *kek, *key, *wrapped;
} WrapVector;

/* RFC 3394 section 4, all six vectors, both directions. */
static void
test_key_wrap_rfc3394(void)
{
	static const WrapVector vectors[] = {
	        {"000102030405060708090A0B0C0D0E0F", "00112233445566778899AABBCCDDEEFF",
	         "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"},
	        {"000102030405060708090A0B0C0D0E0F1011121314151617",
	         "00112233445566778899AABBCCDDEEFF",
	         "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"},
	        {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
	         "00112233445566778899AABBCCDDEEFF",
	         "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"},
	        {"000102030405060708090A0B0C0D0E0F1011121314151617",
	         "00112233445566778899AABBCCDDEEFF0001020304050607",
	         "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2"},
	        {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
	         "00112233445566778899AABBCCDDEEFF0001020304050607",
	         "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1"},
	        {"000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
	         "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
	         "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD2"
	         "1"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(vectors); i++) {
		g_autoptr(GBytes) kek = hs_test_hex(vectors[i].kek);
		g_autoptr(GBytes) key = hs_test_hex(vectors[i].key);
		g_autoptr(GBytes) wrapped = hs_test_hex(vectors[i].wrapped);
		g_autoptr(GError) error = NULL;
		guint8 out[40], back[32];
		gsize klen = g_bytes_get_size(key);

		g_assert_true(wifi_aes_key_wrap(g_bytes_get_data(kek, NULL), g_bytes_get_size(kek),
		                                g_bytes_get_data(key, NULL), klen, out, &error));
		g_assert_no_error(error);
		g_assert_cmpmem(out, klen + 8, g_bytes_get_data(wrapped, NULL),
		                g_bytes_get_size(wrapped));
		g_assert_true(wifi_aes_key_unwrap(g_bytes_get_data(kek, NULL),
		                                  g_bytes_get_size(kek), out, klen + 8, back,
		                                  &error));
		g_assert_no_error(error);
		g_assert_cmpmem(back, klen, g_bytes_get_data(key, NULL), klen);
	}
}

static void
test_key_wrap_failures(void)
{
	g_autoptr(GError) error = NULL;
	guint8 kek[16], other[16], plain[16], wrapped[24], out[32];

	memset(kek, 1, sizeof(kek));
	memset(other, 2, sizeof(other));
	memset(plain, 3, sizeof(plain));
	g_assert_true(wifi_aes_key_wrap(kek, 16, plain, 16, wrapped, &error));
	/* The wrong KEK and a flipped bit both fail the integrity check. */
	g_assert_false(wifi_aes_key_unwrap(other, 16, wrapped, 24, out, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	g_clear_error(&error);
	wrapped[11] ^= 0x10;
	g_assert_false(wifi_aes_key_unwrap(kek, 16, wrapped, 24, out, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	g_clear_error(&error);
	/* Bad lengths: 8 octets of data, not a multiple of 8, a 20 octet KEK,
	 * a 16 octet ciphertext. */
	g_assert_false(wifi_aes_key_wrap(kek, 16, plain, 8, out, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_aes_key_wrap(kek, 16, plain, 12, out, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_aes_key_wrap(kek, 20, plain, 16, out, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_aes_key_unwrap(kek, 16, wrapped, 16, out, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
}

/* RFC 4493 section 4, examples 1-4. */
static void
test_cmac_rfc4493(void)
{
	static const struct {
		gsize len;
		const gchar *mac;
	} examples[] = {
	        {0, "bb1d6929e95937287fa37d129b756746"},
	        {16, "070a16b46b4d4144f79bdd9dd04a287c"},
	        {40, "dfa66747de9ae63030ca32611497c827"},
	        {64, "51f0bebf7e3b9d92fc49741779363cfe"},
	};
	g_autoptr(GBytes) key = hs_test_hex("2b7e151628aed2a6abf7158809cf4f3c");
	g_autoptr(GBytes) msg = hs_test_hex("6bc1bee22e409f96e93d7e117393172a"
	                                    "ae2d8a571e03ac9c9eb76fac45af8e51"
	                                    "30c81c46a35ce411e5fbc1191a0a52ef"
	                                    "f69f2445df4f9b17ad2b417be66c3710");

	for (gsize i = 0; i < G_N_ELEMENTS(examples); i++) {
		g_autoptr(GError) error = NULL;
		const guint8 *m = g_bytes_get_data(msg, NULL);
		/* Split the message in two pieces to exercise the iovec. */
		WifiIov iov[] = {{m, examples[i].len / 3},
		                 {m + examples[i].len / 3, examples[i].len - examples[i].len / 3}};
		guint8 mac[16];

		g_assert_true(wifi_aes_cmac(g_bytes_get_data(key, NULL), 16, iov, 2, mac, &error));
		g_assert_no_error(error);
		hs_assert_hex(mac, 16, examples[i].mac);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi-handshake/psk/annex-j4", test_psk_annex_j4);
	g_test_add_func("/wifi-handshake/psk/hashcat-pmkid", test_psk_and_pmkid_hashcat);
	g_test_add_func("/wifi-handshake/psk/invalid", test_psk_invalid);
	g_test_add_func("/wifi-handshake/psk/hex", test_psk_hex);
	g_test_add_func("/wifi-handshake/prf/annex-j3", test_prf_annex_j3);
	g_test_add_func("/wifi-handshake/kdf/802.11az-j13", test_kdf_80211az_j13);
	g_test_add_func("/wifi-handshake/prf-kdf/ghmac-cross-check", test_prf_kdf_cross_check);
	g_test_add_func("/wifi-handshake/ptk/annex-j7", test_ptk_annex_j7);
	g_test_add_func("/wifi-handshake/ptk/sizes", test_ptk_sizes);
	g_test_add_func("/wifi-handshake/ptk/unsupported", test_ptk_unsupported);
	g_test_add_func("/wifi-handshake/pmkid/sha256", test_pmkid_sha256);
	g_test_add_func("/wifi-handshake/ptk/suite-b-192", test_ptk_suite_b);
	g_test_add_func("/wifi-handshake/key-wrap/rfc3394", test_key_wrap_rfc3394);
	g_test_add_func("/wifi-handshake/key-wrap/failures", test_key_wrap_failures);
	g_test_add_func("/wifi-handshake/cmac/rfc4493", test_cmac_rfc4493);
	return g_test_run();
}
