/* test-pmksa.c - the PMKSA cache (per access point, address and network;
 * expiry, flush), the PMKID it keys on, and the PMK an 802.1X AKM takes
 * from the EAP method's MSK. */
#include <string.h>

#include "hs-test-util.h"
#include "pmksa.h"

static const guint8 aa[6] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5};
static const guint8 aa2[6] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa6};
static const guint8 spa[6] = {0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5};
static const guint8 spa2[6] = {0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb6};
/* IEEE 802.11-2020 J.4: passphrase "password", SSID "IEEE". */
#define J4_PSK "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"
#define S      ((gint64)G_USEC_PER_SEC)

/* The SHA-1 PMKID (802.1X and PSK AKMs) against hashcat's published
 * example (mode 16800): passphrase "hashcat!", SSID "hashcat-essid". */
static void
test_pmkid_sha1(void)
{
	static const gchar ssid[] = "hashcat-essid";
	guint8 ap[6], sta[6], psk[32], pmkid[16], want[16];
	g_autoptr(GError) error = NULL;

	hs_test_hex_into("fc690c158264", ap, 6);
	hs_test_hex_into("f4747f87f9f4", sta, 6);
	hs_test_hex_into("4d4fe7aac3a2cecab195321ceb99a7d0", want, 16);
	g_assert_true(wifi_psk_from_passphrase("hashcat!", (const guint8 *)ssid, strlen(ssid), psk,
	                                       &error));
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_PSK, psk, 32, ap, sta, pmkid, &error));
	g_assert_cmpmem(pmkid, 16, want, 16);
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_8021X, psk, 32, ap, sta, pmkid, &error));
	g_assert_cmpmem(pmkid, 16, want, 16);
	g_assert_no_error(error);
}

/* The SHA-256 PMKID (802.1X-SHA256): HMAC-SHA-256 of "PMK Name" || AA ||
 * SPA under the J.4 PSK, as `openssl dgst -sha256 -mac HMAC` computes it. */
static void
test_pmkid_sha256(void)
{
	guint8 pmk[32], pmkid[16], want[16];
	g_autoptr(GError) error = NULL;

	hs_test_hex_into(J4_PSK, pmk, 32);
	hs_test_hex_into("39e7613b7cb2b47d1d36d85e1f471dc7", want, 16);
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_8021X_SHA256, pmk, 32, aa, spa, pmkid, &error));
	g_assert_cmpmem(pmkid, 16, want, 16);
	g_assert_false(wifi_pmkid(WIFI_AKM_SUITE_SAE, pmk, 32, aa, spa, pmkid, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
}

/* PMK = L(MSK, 0, 256) for the 802.1X AKMs (384 bits for the 192-bit one);
 * other AKMs and short MSKs are refused. */
static void
test_msk_to_pmk(void)
{
	guint8 msk[64], pmk[WIFI_PMK_MAX_LEN];
	gsize len = 0;
	g_autoptr(GError) error = NULL;

	for (guint i = 0; i < sizeof(msk); i++)
		msk[i] = (guint8)(0x40 + i);
	g_assert_true(wifi_pmk_from_msk(WIFI_AKM_SUITE_8021X, msk, 64, pmk, &len, &error));
	g_assert_cmpuint(len, ==, 32);
	g_assert_cmpmem(pmk, len, msk, 32);
	len = 0;
	g_assert_true(wifi_pmk_from_msk(WIFI_AKM_SUITE_8021X_SHA256, msk, 64, pmk, &len, &error));
	g_assert_cmpmem(pmk, len, msk, 32);
	/* The 192-bit AKM takes L(MSK, 0, 384). */
	g_assert_true(
	        wifi_pmk_from_msk(WIFI_AKM_SUITE_8021X_SUITE_B_192, msk, 64, pmk, &len, &error));
	g_assert_cmpuint(len, ==, 48);
	g_assert_cmpmem(pmk, len, msk, 48);
	g_assert_false(wifi_pmk_from_msk(WIFI_AKM_SUITE_PSK, msk, 64, pmk, &len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	g_clear_error(&error);
	g_assert_false(wifi_pmk_from_msk(WIFI_AKM_SUITE_8021X, msk, 31, pmk, &len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
}

static WifiPmksa *
entry(const guint8 *bssid, const guint8 *sta, const gchar *network, guint lifetime_s, gint64 now)
{
	guint8 pmk[32];
	g_autoptr(GError) error = NULL;
	WifiPmksa *pmksa;

	hs_test_hex_into(J4_PSK, pmk, 32);
	pmksa = wifi_pmksa_new(WIFI_AKM_SUITE_8021X, pmk, 32, bssid, sta, network, lifetime_s, now,
	                       &error);
	g_assert_no_error(error);
	return pmksa;
}

/* An entry answers for its access point, address, network and AKM only. */
static void
test_cache_per_bss(void)
{
	WifiPmksaCache *cache = wifi_pmksa_cache_new();
	const WifiPmksa *hit;
	guint8 want[16];

	wifi_pmksa_cache_add(cache, entry(aa, spa, "corp_8021x", 60, 0));
	hit = wifi_pmksa_cache_lookup(cache, aa, spa, "corp_8021x", WIFI_AKM_SUITE_8021X, S);
	g_assert_nonnull(hit);
	g_assert_true(
	        wifi_pmkid(WIFI_AKM_SUITE_8021X, hit->pmk, hit->pmk_len, aa, spa, want, NULL));
	g_assert_cmpmem(hit->pmkid, 16, want, 16);
	g_assert_null(
	        wifi_pmksa_cache_lookup(cache, aa2, spa, "corp_8021x", WIFI_AKM_SUITE_8021X, S));
	g_assert_null(
	        wifi_pmksa_cache_lookup(cache, aa, spa2, "corp_8021x", WIFI_AKM_SUITE_8021X, S));
	g_assert_null(
	        wifi_pmksa_cache_lookup(cache, aa, spa, "other_8021x", WIFI_AKM_SUITE_8021X, S));
	g_assert_null(wifi_pmksa_cache_lookup(cache, aa, spa, "corp_8021x",
	                                      WIFI_AKM_SUITE_8021X_SHA256, S));
	/* The same key replaces; the access point that lost it drops it. */
	wifi_pmksa_cache_add(cache, entry(aa, spa, "corp_8021x", 60, 0));
	wifi_pmksa_cache_add(cache, entry(aa2, spa, "corp_8021x", 60, 0));
	g_assert_cmpuint(wifi_pmksa_cache_size(cache), ==, 2);
	g_assert_true(wifi_pmksa_cache_remove(cache, aa, spa, "corp_8021x"));
	g_assert_false(wifi_pmksa_cache_remove(cache, aa, spa, "corp_8021x"));
	g_assert_nonnull(
	        wifi_pmksa_cache_lookup(cache, aa2, spa, "corp_8021x", WIFI_AKM_SUITE_8021X, S));
	wifi_pmksa_cache_free(cache);
}

/* SAE's PMKID comes from its exchange, not from the PMK; the cache keeps
 * it per AKM like any other. */
static void
test_cache_sae(void)
{
	WifiPmksaCache *cache = wifi_pmksa_cache_new();
	guint8 pmk[32], pmkid[16];
	g_autoptr(GError) error = NULL;
	WifiPmksa *pmksa;
	const WifiPmksa *hit;

	memset(pmk, 0x42, sizeof(pmk));
	memset(pmkid, 0x17, sizeof(pmkid));
	g_assert_false(wifi_pmkid(WIFI_AKM_SUITE_SAE, pmk, 32, aa, spa, pmkid, NULL));
	pmksa = wifi_pmksa_new_with_pmkid(WIFI_AKM_SUITE_SAE, pmk, 32, pmkid, aa, spa, "home_psk",
	                                  60, 0, &error);
	g_assert_no_error(error);
	pmksa->sae_group = 20;
	wifi_pmksa_cache_add(cache, pmksa);
	hit = wifi_pmksa_cache_lookup(cache, aa, spa, "home_psk", WIFI_AKM_SUITE_SAE, S);
	g_assert_nonnull(hit);
	g_assert_cmpmem(hit->pmkid, 16, pmkid, 16);
	g_assert_cmpmem(hit->pmk, hit->pmk_len, pmk, 32);
	g_assert_cmpuint(hit->sae_group, ==, 20);
	g_assert_null(wifi_pmksa_cache_lookup(cache, aa, spa, "home_psk", WIFI_AKM_SUITE_PSK, S));
	g_assert_null(wifi_pmksa_new_with_pmkid(WIFI_AKM_SUITE_SAE, pmk, 0, pmkid, aa, spa,
	                                        "home_psk", 60, 0, NULL));
	wifi_pmksa_cache_free(cache);
}

/* Live until its lifetime is over, then gone. */
static void
test_cache_expiry(void)
{
	WifiPmksaCache *cache = wifi_pmksa_cache_new();
	gint64 t0 = 1000 * S;

	wifi_pmksa_cache_add(cache, entry(aa, spa, "corp_8021x", 10, t0));
	g_assert_nonnull(wifi_pmksa_cache_lookup(cache, aa, spa, "corp_8021x", WIFI_AKM_SUITE_8021X,
	                                         t0 + 10 * S - 1));
	g_assert_null(wifi_pmksa_cache_lookup(cache, aa, spa, "corp_8021x", WIFI_AKM_SUITE_8021X,
	                                      t0 + 10 * S));
	g_assert_cmpuint(wifi_pmksa_cache_size(cache), ==, 0);
	/* The default lifetime is dot11RSNAConfigPMKLifetime's 12 h. */
	wifi_pmksa_cache_add(cache, entry(aa, spa, "corp_8021x", WIFI_PMKSA_DEFAULT_LIFETIME_S, 0));
	g_assert_nonnull(wifi_pmksa_cache_lookup(cache, aa, spa, "corp_8021x", WIFI_AKM_SUITE_8021X,
	                                         43199 * S));
	g_assert_null(wifi_pmksa_cache_lookup(cache, aa, spa, "corp_8021x", WIFI_AKM_SUITE_8021X,
	                                      43200 * S));
	wifi_pmksa_cache_free(cache);
}

/* A profile that changes or goes takes its network's entries, and only
 * those; the cache never grows past WIFI_PMKSA_MAX (the oldest go). */
static void
test_cache_flush(void)
{
	WifiPmksaCache *cache = wifi_pmksa_cache_new();
	guint8 bssid[6] = {0x02, 0, 0, 0, 0, 0};

	wifi_pmksa_cache_add(cache, entry(aa, spa, "corp_8021x", 60, 0));
	wifi_pmksa_cache_add(cache, entry(aa2, spa, "corp_8021x", 60, 0));
	wifi_pmksa_cache_add(cache, entry(aa, spa, "eduroam_8021x", 60, 0));
	g_assert_cmpuint(wifi_pmksa_cache_flush_network(cache, "corp_8021x"), ==, 2);
	g_assert_cmpuint(wifi_pmksa_cache_flush_network(cache, "corp_8021x"), ==, 0);
	g_assert_nonnull(
	        wifi_pmksa_cache_lookup(cache, aa, spa, "eduroam_8021x", WIFI_AKM_SUITE_8021X, S));
	for (guint i = 0; i < WIFI_PMKSA_MAX + 3; i++) {
		bssid[5] = (guint8)i;
		wifi_pmksa_cache_add(cache, entry(bssid, spa, "many_8021x", 60, 0));
	}
	g_assert_cmpuint(wifi_pmksa_cache_size(cache), ==, WIFI_PMKSA_MAX);
	bssid[5] = 0;
	g_assert_null(
	        wifi_pmksa_cache_lookup(cache, bssid, spa, "many_8021x", WIFI_AKM_SUITE_8021X, S));
	bssid[5] = WIFI_PMKSA_MAX + 2;
	g_assert_nonnull(
	        wifi_pmksa_cache_lookup(cache, bssid, spa, "many_8021x", WIFI_AKM_SUITE_8021X, S));
	wifi_pmksa_cache_free(cache);
}

/* Opportunistic key caching: the network's newest entry for our address
 * and AKM, whichever access point gave it, yields the PMKSA another access
 * point of the network holds: same PMK and expiry, the PMKID computed for
 * that access point. */
static void
test_okc(void)
{
	static const guint8 aa3[6] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa7};
	WifiPmksaCache *cache = wifi_pmksa_cache_new();
	g_autoptr(WifiPmksa) derived = NULL;
	g_autoptr(WifiPmksa) suite_b = NULL;
	g_autoptr(GError) error = NULL;
	const WifiPmksa *from;
	guint8 want[16];

	wifi_pmksa_cache_add(cache, entry(aa, spa, "corp_8021x", 60, 0));
	wifi_pmksa_cache_add(cache, entry(aa2, spa, "corp_8021x", 120, 0));
	from = wifi_pmksa_cache_lookup_network(cache, spa, "corp_8021x", WIFI_AKM_SUITE_8021X, S);
	g_assert_nonnull(from);
	g_assert_cmpmem(from->bssid, 6, aa2, 6);
	g_assert_null(wifi_pmksa_cache_lookup_network(cache, spa2, "corp_8021x",
	                                              WIFI_AKM_SUITE_8021X, S));
	g_assert_null(wifi_pmksa_cache_lookup_network(cache, spa, "other_8021x",
	                                              WIFI_AKM_SUITE_8021X, S));
	g_assert_null(wifi_pmksa_cache_lookup_network(cache, spa, "corp_8021x",
	                                              WIFI_AKM_SUITE_8021X_SHA256, S));
	derived = wifi_pmksa_derive(from, aa3, &error);
	g_assert_no_error(error);
	g_assert_true(
	        wifi_pmkid(WIFI_AKM_SUITE_8021X, from->pmk, from->pmk_len, aa3, spa, want, NULL));
	g_assert_cmpmem(derived->pmkid, 16, want, 16);
	g_assert_cmpmem(derived->bssid, 6, aa3, 6);
	g_assert_cmpmem(derived->pmk, derived->pmk_len, from->pmk, from->pmk_len);
	g_assert_cmpint(derived->expires, ==, from->expires);
	g_assert_cmpstr(derived->network, ==, "corp_8021x");
	/* The 192-bit AKM's PMKID comes from the KCK: nothing to derive. */
	suite_b = wifi_pmksa_copy(from);
	suite_b->akm = WIFI_AKM_SUITE_8021X_SUITE_B_192;
	g_assert_null(wifi_pmksa_derive(suite_b, aa3, &error));
	g_assert_nonnull(error);
	/* Expired entries lend nothing. */
	g_assert_null(wifi_pmksa_cache_lookup_network(cache, spa, "corp_8021x",
	                                              WIFI_AKM_SUITE_8021X, 120 * S));
	wifi_pmksa_cache_free(cache);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/pmksa/pmkid/sha1", test_pmkid_sha1);
	g_test_add_func("/pmksa/pmkid/sha256", test_pmkid_sha256);
	g_test_add_func("/pmksa/msk-to-pmk", test_msk_to_pmk);
	g_test_add_func("/pmksa/cache/per-bss", test_cache_per_bss);
	g_test_add_func("/pmksa/cache/expiry", test_cache_expiry);
	g_test_add_func("/pmksa/cache/flush", test_cache_flush);
	g_test_add_func("/pmksa/cache/okc", test_okc);
	g_test_add_func("/pmksa/cache/sae", test_cache_sae);
	return g_test_run();
}
