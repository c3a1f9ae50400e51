/* test-network.c - BSS security classification, grouping into networks,
 * ranking, SSID display names and scan parameter coverage. */
#include <string.h>

#include "bss.h"
#include "joind-error.h"
#include "network.h"
#include "scan.h"

/* Elements of a beacon: SSID, DS channel, and an RSN element with the given
 * AKM suite types (00-0F-AC:n) when n_akms > 0. */
static GByteArray *
build_ies(const guint8 *ssid, gsize ssid_len, const guint8 *akms, guint n_akms, gboolean wpa1)
{
	GByteArray *b = g_byte_array_new();
	guint8 hdr[2] = {WIFI_IE_SSID, (guint8)ssid_len};
	static const guint8 ds[] = {WIFI_IE_DS_PARAMETER, 1, 6};
	static const guint8 rsn_head[] = {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	                                  0x01, 0x00, 0x00, 0x0f, 0xac, 0x04};
	static const guint8 wpa[] = {WIFI_IE_VENDOR, 22,   0x00, 0x50, 0xf2, 0x01, 0x01, 0x00,
	                             0x00,           0x50, 0xf2, 0x02, 0x01, 0x00, 0x00, 0x50,
	                             0xf2,           0x02, 0x01, 0x00, 0x00, 0x50, 0xf2, 0x02};

	g_byte_array_append(b, hdr, 2);
	g_byte_array_append(b, ssid, ssid_len);
	g_byte_array_append(b, ds, sizeof(ds));
	if (n_akms > 0) {
		guint8 rsn_hdr[2] = {WIFI_IE_RSN, (guint8)(sizeof(rsn_head) + 2 + 4 * n_akms)};
		guint8 count[2] = {(guint8)n_akms, 0};

		g_byte_array_append(b, rsn_hdr, 2);
		g_byte_array_append(b, rsn_head, sizeof(rsn_head));
		g_byte_array_append(b, count, 2);
		for (guint i = 0; i < n_akms; i++) {
			guint8 suite[4] = {0x00, 0x0f, 0xac, akms[i]};

			g_byte_array_append(b, suite, 4);
		}
	}
	if (wpa1)
		g_byte_array_append(b, wpa, sizeof(wpa));
	return b;
}

static WifiBss *
make_bss(guint8 last, guint32 freq, gint signal, const gchar *ssid, const guint8 *akms,
         guint n_akms, guint16 capability)
{
	g_autoptr(GByteArray) ies =
	        build_ies((const guint8 *)ssid, strlen(ssid), akms, n_akms, FALSE);
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x00, last};
	g_autoptr(GError) error = NULL;
	WifiBss *bss = wifi_bss_new(bssid, freq, signal, capability, ies->data, ies->len, &error);

	g_assert_no_error(error);
	g_assert_nonnull(bss);
	return bss;
}

/* Which network type each RSN/WPA/capability mix is: PSK, SAE or both are
 * one type, psk (as iwd's). */
typedef struct {
	const gchar *name;
	guint8 akms[3];
	guint n;
	gboolean wpa1;
	guint16 capability;
	JoindNetworkType want;
	const gchar *security;
} ClassifyCase;

static const ClassifyCase classify_cases[] = {
        {"open", {0}, 0, FALSE, WIFI_CAPABILITY_ESS, JOIND_NETWORK_TYPE_OPEN, "open"},
        {"wep",
         {0},
         0,
         FALSE,
         WIFI_CAPABILITY_ESS | WIFI_CAPABILITY_PRIVACY,
         JOIND_NETWORK_TYPE_WEP,
         "wep"},
        {"wpa2-psk", {2}, 1, FALSE, WIFI_CAPABILITY_PRIVACY, JOIND_NETWORK_TYPE_PSK, "wpa2-psk"},
        {"psk-sha256", {6}, 1, FALSE, WIFI_CAPABILITY_PRIVACY, JOIND_NETWORK_TYPE_PSK, "wpa2-psk"},
        {"wpa3-sae", {8}, 1, FALSE, WIFI_CAPABILITY_PRIVACY, JOIND_NETWORK_TYPE_PSK, "wpa3-sae"},
        {"transition",
         {2, 8},
         2,
         FALSE,
         WIFI_CAPABILITY_PRIVACY,
         JOIND_NETWORK_TYPE_PSK,
         "wpa2-wpa3"},
        {"sae-ext-key",
         {24},
         1,
         FALSE,
         WIFI_CAPABILITY_PRIVACY,
         JOIND_NETWORK_TYPE_PSK,
         "wpa3-sae"},
        {"wpa2-enterprise",
         {1},
         1,
         FALSE,
         WIFI_CAPABILITY_PRIVACY,
         JOIND_NETWORK_TYPE_8021X,
         "wpa2-enterprise"},
        {"ft-8021x + sha256",
         {3, 5},
         2,
         FALSE,
         WIFI_CAPABILITY_PRIVACY,
         JOIND_NETWORK_TYPE_8021X,
         "wpa2-enterprise"},
        {"suite-b-192",
         {12},
         1,
         FALSE,
         WIFI_CAPABILITY_PRIVACY,
         JOIND_NETWORK_TYPE_8021X,
         "wpa3-enterprise-192"},
        {"owe", {18}, 1, FALSE, WIFI_CAPABILITY_PRIVACY, JOIND_NETWORK_TYPE_OPEN, "owe"},
        {"wpa1 only", {0}, 0, TRUE, WIFI_CAPABILITY_PRIVACY, JOIND_NETWORK_TYPE_PSK, "wpa2-psk"},
};

static void
test_classify(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(classify_cases); i++) {
		g_autoptr(GByteArray) ies =
		        build_ies((const guint8 *)"x", 1, classify_cases[i].akms,
		                  classify_cases[i].n, classify_cases[i].wpa1);
		WifiIes parsed;
		JoindNetworkType type;

		g_test_message("case: %s", classify_cases[i].name);
		g_assert_true(wifi_ies_parse(ies->data, ies->len, &parsed, NULL));
		g_assert_true(wifi_security_classify(&parsed, classify_cases[i].capability, &type));
		g_assert_cmpstr(joind_network_type_to_string(type), ==,
		                joind_network_type_to_string(classify_cases[i].want));
		g_assert_cmpstr(wifi_security_name(type,
		                                   (parsed.has_rsn ? parsed.rsn.akms : 0) |
		                                           (parsed.has_wpa ? parsed.wpa.akms : 0),
		                                   FALSE),
		                ==, classify_cases[i].security);
	}
}

static void
test_bss_rejected(void)
{
	/* Only DPP (50-6F-9A:2) is offered: nothing joind can use. */
	static const guint8 dpp_only[] = {0x00, 0x01, 'x',  0x30, 0x12, 0x01, 0x00, 0x00,
	                                  0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac,
	                                  0x04, 0x01, 0x00, 0x50, 0x6f, 0x9a, 0x02};
	static const guint8 truncated[] = {0x00, 0x05, 'x'};
	static const guint8 bssid[6] = {2, 0, 0, 0, 0, 1};
	g_autoptr(GError) error = NULL;

	g_assert_null(wifi_bss_new(bssid, 2412, -4000, WIFI_CAPABILITY_PRIVACY, dpp_only,
	                           sizeof(dpp_only), &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_clear_error(&error);
	g_assert_null(wifi_bss_new(bssid, 2412, -4000, 0, truncated, sizeof(truncated), &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "02:00:00:00:00:01"));
}

static void
test_grouping(void)
{
	static const guint8 psk[] = {2};
	static const guint8 sae_psk[] = {2, 8};
	g_autoptr(GPtrArray) bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GHashTable) groups = NULL;
	GPtrArray *home;
	g_autoptr(WifiNetwork) network = NULL;
	g_autofree gchar *security = NULL;
	g_autoptr(GBytes) ssid = g_bytes_new_static("home", 4);

	/* One SSID on two channels, the same SSID open (another network), a
	 * hidden BSS, and the same SSID as a WPA3 transition BSS, which is the
	 * same psk network. */
	g_ptr_array_add(bsses, make_bss(1, 2412, -6000, "home", psk, 1, 0x11));
	g_ptr_array_add(bsses, make_bss(2, 5180, -5500, "home", psk, 1, 0x11));
	g_ptr_array_add(bsses, make_bss(3, 2437, -4000, "home", NULL, 0, 0x01));
	g_ptr_array_add(bsses, make_bss(4, 2462, -3000, "", psk, 1, 0x11));
	g_ptr_array_add(bsses, make_bss(5, 2462, -7000, "home", sae_psk, 2, 0x11));
	groups = wifi_group_bsses(bsses);
	g_assert_cmpuint(g_hash_table_size(groups), ==, 2);
	home = g_hash_table_lookup(groups, "686f6d65_psk");
	g_assert_nonnull(home);
	g_assert_cmpuint(home->len, ==, 3);
	g_assert_nonnull(g_hash_table_lookup(groups, "686f6d65_open"));

	network = wifi_network_new(ssid, JOIND_NETWORK_TYPE_PSK);
	wifi_network_set_bsses(network, home);
	g_assert_cmpint(joind_network_get_strength(JOIND_NETWORK(network)), ==, -5500);
	/* Best first: the 5 GHz BSS is stronger and gets the band bonus. */
	g_assert_cmpuint(((WifiBss *)g_ptr_array_index(wifi_network_get_bsses(network), 0))->freq,
	                 ==, 5180);
	g_assert_cmpstr(joind_network_get_name(JOIND_NETWORK(network)), ==, "home");
	/* WPA2 BSSes and a transition one: both are offered. */
	g_object_get(network, "security", &security, NULL);
	g_assert_cmpstr(security, ==, "wpa2-wpa3");
	/* 802.1X-SHA256 is WPA3-Enterprise only with MFP required everywhere. */
	g_assert_cmpstr(wifi_security_name(JOIND_NETWORK_TYPE_8021X, WIFI_AKM_8021X_SHA256, TRUE),
	                ==, "wpa3-enterprise");
	g_assert_cmpstr(wifi_security_name(JOIND_NETWORK_TYPE_8021X, WIFI_AKM_8021X_SHA256, FALSE),
	                ==, "wpa2-enterprise");
}

static void
test_rank(void)
{
	const gint64 now = 1700000000;
	WifiBss weak5 = {.signal = -8000, .freq = 5180};
	WifiBss good5 = {.signal = -6000, .freq = 5180};
	WifiBss good24 = {.signal = -6000, .freq = 2437};
	WifiBss loaded = {.signal = -6000, .freq = 2437};

	/* Band bonus only above -75 dBm; load costs up to 5 dB. */
	g_assert_cmpint(wifi_bss_score(&weak5), ==, -8000);
	g_assert_cmpint(wifi_bss_score(&good5), ==, -5500);
	g_assert_cmpint(wifi_bss_score(&good24), ==, -6000);
	loaded.ies.has_bss_load = TRUE;
	loaded.ies.bss_load_utilization = 255;
	g_assert_cmpint(wifi_bss_score(&loaded), ==, -6500);

	/* Security and known-ness, then recency. */
	g_assert_cmpint(wifi_network_rank(-6000, JOIND_NETWORK_TYPE_OPEN, FALSE, 0, now), ==,
	                -6000);
	g_assert_cmpint(wifi_network_rank(-6000, JOIND_NETWORK_TYPE_PSK, FALSE, 0, now), ==, -5800);
	g_assert_cmpint(wifi_network_rank(-6000, JOIND_NETWORK_TYPE_SAE, TRUE, 0, now), ==, -4700);
	g_assert_cmpint(wifi_network_rank(-6000, JOIND_NETWORK_TYPE_SAE, TRUE, now, now), ==,
	                -3700);
	g_assert_cmpint(
	        wifi_network_rank(-6000, JOIND_NETWORK_TYPE_SAE, TRUE, now - 15 * 86400, now), ==,
	        -4200);
	g_assert_cmpint(
	        wifi_network_rank(-6000, JOIND_NETWORK_TYPE_SAE, TRUE, now - 40 * 86400, now), ==,
	        -4700);
	/* A known network 10 dB weaker ties with an unknown one. */
	g_assert_cmpint(wifi_network_rank(-7000, JOIND_NETWORK_TYPE_PSK, TRUE, 0, now), ==,
	                wifi_network_rank(-6000, JOIND_NETWORK_TYPE_PSK, FALSE, 0, now));
}

static void
test_compare(void)
{
	static const guint8 psk[] = {2};
	g_autoptr(GBytes) a_ssid = g_bytes_new_static("a", 1);
	g_autoptr(GBytes) b_ssid = g_bytes_new_static("b", 1);
	g_autoptr(WifiNetwork) a = wifi_network_new(a_ssid, JOIND_NETWORK_TYPE_OPEN);
	g_autoptr(WifiNetwork) b = wifi_network_new(b_ssid, JOIND_NETWORK_TYPE_PSK);
	g_autoptr(GPtrArray) la = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GPtrArray) lb = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);

	g_ptr_array_add(la, make_bss(1, 2412, -5000, "a", NULL, 0, 0x01));
	g_ptr_array_add(lb, make_bss(2, 2412, -5100, "b", psk, 1, 0x11));
	wifi_network_set_bsses(a, la);
	wifi_network_set_bsses(b, lb);
	/* PSK's +2 dB beats open's 1 dB more signal. */
	g_assert_cmpint(wifi_network_compare(b, a), <, 0);
	g_assert_cmpint(wifi_network_compare(a, b), >, 0);
	g_assert_cmpint(wifi_network_compare(a, a), ==, 0);
}

static void
test_display_name(void)
{
	static const guint8 latin1[] = {'c', 'a', 'f', 0xe9};
	static const guint8 nul[] = {'a', 0x00, 'b'};
	static const guint8 utf8[] = {0xc3, 0xa9, 't', 0xc3, 0xa9};
	g_autofree gchar *a = joind_ssid_to_display(latin1, sizeof(latin1));
	g_autofree gchar *b = joind_ssid_to_display(nul, sizeof(nul));
	g_autofree gchar *c = joind_ssid_to_display(utf8, sizeof(utf8));
	g_autofree gchar *key = wifi_network_key(latin1, sizeof(latin1), JOIND_NETWORK_TYPE_PSK);

	g_assert_cmpstr(a, ==, "caf\\xe9");
	g_assert_cmpstr(b, ==, "a\\x00b");
	g_assert_cmpstr(c, ==, "été");
	g_assert_true(g_utf8_validate(a, -1, NULL));
	g_assert_cmpstr(key, ==, "636166e9_psk");
}

static void
test_scan_params(void)
{
	g_autoptr(WifiScanParams) all = wifi_scan_params_new();
	g_autoptr(WifiScanParams) some = wifi_scan_params_new();
	g_autoptr(GBytes) hidden = g_bytes_new_static("hidden", 6);
	guint32 f = 2412;

	some->freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_array_append_val(some->freqs, f);
	g_assert_true(wifi_scan_params_covers(all, some));
	g_assert_false(wifi_scan_params_covers(some, all));
	g_assert_true(wifi_scan_params_covers(all, all));
	/* A directed probe is only covered by a scan that sends it. */
	wifi_scan_params_add_ssid(some, hidden);
	wifi_scan_params_add_ssid(some, hidden);
	g_assert_cmpuint(some->ssids->len, ==, 1);
	g_assert_false(wifi_scan_params_covers(all, some));
	wifi_scan_params_add_ssid(all, hidden);
	g_assert_true(wifi_scan_params_covers(all, some));
	/* A passive dwell is covered only by another passive scan. */
	some->passive = TRUE;
	g_assert_false(wifi_scan_params_covers(all, some));
	all->passive = TRUE;
	g_assert_true(wifi_scan_params_covers(all, some));
	g_assert_true(wifi_scan_params_covers(some, some));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/network/classify", test_classify);
	g_test_add_func("/wifi/network/bss-rejected", test_bss_rejected);
	g_test_add_func("/wifi/network/grouping", test_grouping);
	g_test_add_func("/wifi/network/rank", test_rank);
	g_test_add_func("/wifi/network/compare", test_compare);
	g_test_add_func("/wifi/network/display-name", test_display_name);
	g_test_add_func("/wifi/network/scan-params", test_scan_params);
	return g_test_run();
}
