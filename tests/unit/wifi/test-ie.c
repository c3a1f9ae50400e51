/* test-ie.c - information element parsers, from hand-built elements laid out
 * as IEEE 802.11-2020 clause 9.4.2 defines them (and as hostapd sends them). */
#include <string.h>

#include "ie.h"

/* A WPA2-PSK access point's beacon elements, as hostapd 2.10 builds them for
 * ssid=home, channel 6, ieee80211n=1, bss_load_update_period, rrm, mobility
 * domain (FT), BSS transition. */
static const guint8 beacon_wpa2[] = {
        0x00, 0x04, 'h',  'o',  'm',  'e',                          /* SSID */
        0x01, 0x08, 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24, /* rates */
        0x03, 0x01, 0x06,                                           /* DS: channel 6 */
        0x0b, 0x05, 0x02, 0x00, 0x40, 0x00, 0x00,                   /* BSS Load */
        0x32, 0x04, 0x30, 0x48, 0x60, 0x6c,                         /* ext rates */
        0x30, 0x14, 0x01, 0x00,                                     /* RSN v1 */
        0x00, 0x0f, 0xac, 0x04,                                     /* group CCMP */
        0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,                         /* pairwise CCMP */
        0x01, 0x00, 0x00, 0x0f, 0xac, 0x02,                         /* AKM PSK */
        0x0c, 0x00,                                                 /* caps */
        0x2d, 0x1a, 0xef, 0x01, 0x1b, 0xff, 0xff, 0x00, 0x00, 0x00, /* HT caps */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,       /* (26 octets) */
        0x36, 0x03, 0x34, 0x12, 0x01,                         /* MDE 0x1234, FT over DS */
        0x3d, 0x16, 0x06, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, /* HT op: prim 6, 40 MHz */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00,                               /* (22 octets) */
        0x46, 0x05, 0x72, 0x00, 0x00, 0x00, 0x00,                   /* RM: neighbor, beacon p/a/t */
        0x7f, 0x08, 0x04, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x40, /* ext caps: bit 19 */
        0xdd, 0x18, 0x00, 0x50, 0xf2, 0x02, 0x01, 0x01, 0x00, 0x00, /* WMM (ignored) */
        0x03, 0xa4, 0x00, 0x00, 0x27, 0xa4, 0x00, 0x00, 0x42, 0x43,
        0x5e, 0x00, 0x62, 0x32, 0x2f, 0x00,
};

/* Extended Capabilities bit (IEEE 802.11-2020 9.4.2.26) as parsed. */
static gboolean
has_ext_cap(const WifiIes *ies, guint bit)
{
	if (bit / 8 >= MIN(ies->ext_caps_len, sizeof(ies->ext_caps)))
		return FALSE;
	return (ies->ext_caps[bit / 8] & (1u << (bit % 8))) != 0;
}

static void
test_beacon_wpa2(void)
{
	g_autoptr(GError) error = NULL;
	WifiIes ies;

	g_assert_true(wifi_ies_parse(beacon_wpa2, sizeof(beacon_wpa2), &ies, &error));
	g_assert_no_error(error);
	g_assert_true(ies.has_ssid);
	g_assert_cmpmem(ies.ssid, ies.ssid_len, "home", 4);
	g_assert_cmpuint(ies.max_rate, ==, 108); /* 54 Mb/s */
	g_assert_false(ies.sae_h2e_only);
	g_assert_cmpuint(ies.ds_channel, ==, 6);
	g_assert_true(ies.has_bss_load);
	g_assert_cmpuint(ies.bss_load_stations, ==, 2);
	g_assert_cmpuint(ies.bss_load_utilization, ==, 0x40);
	g_assert_true(ies.has_rsn);
	g_assert_false(ies.has_wpa);
	g_assert_cmpuint(ies.rsn.group_cipher, ==, WIFI_CIPHER_CCMP);
	g_assert_cmpuint(ies.rsn.pairwise_ciphers, ==, WIFI_CIPHER_CCMP);
	g_assert_cmpuint(ies.rsn.akms, ==, WIFI_AKM_PSK);
	g_assert_cmpuint(ies.rsn.capabilities, ==, 0x000c);
	g_assert_cmpuint(ies.rsn.group_mgmt_cipher, ==, 0);
	g_assert_true(ies.has_ht);
	g_assert_cmpuint(ies.ht_cap_info, ==, 0x01ef);
	g_assert_cmpuint(ies.ht_streams, ==, 2);
	g_assert_true(ies.has_ht_op);
	g_assert_cmpuint(ies.ht_primary_channel, ==, 6);
	g_assert_cmpuint(ies.ht_width, ==, WIFI_CHAN_WIDTH_40);
	g_assert_true(ies.has_mde);
	g_assert_cmpuint(ies.mdid, ==, 0x1234);
	g_assert_cmpuint(ies.ft_capability, ==, 1);
	g_assert_true(ies.has_rm);
	g_assert_cmpuint(ies.rm_caps[0], ==,
	                 WIFI_RM_NEIGHBOR_REPORT | WIFI_RM_BEACON_PASSIVE | WIFI_RM_BEACON_ACTIVE |
	                         WIFI_RM_BEACON_TABLE);
	g_assert_true(has_ext_cap(&ies, WIFI_EXT_CAP_BSS_TRANSITION));
	g_assert_true(has_ext_cap(&ies, WIFI_EXT_CAP_OPMODE_NOTIF));
	g_assert_false(has_ext_cap(&ies, WIFI_EXT_CAP_INTERWORKING));
	g_assert_false(has_ext_cap(&ies, 200)); /* beyond the element */
	g_assert_false(ies.has_vht);
	g_assert_false(ies.has_owe_transition);
	g_assert_cmpuint(ies.n_ignored, ==, 0);
}

/* Cutting a valid list anywhere inside an element must fail, never read
 * past the cut (valgrind/ASan watch that), and cutting at element
 * boundaries must succeed. */
static void
test_beacon_every_prefix(void)
{
	gsize boundary = 0;

	for (gsize n = 0; n <= sizeof(beacon_wpa2); n++) {
		g_autoptr(GError) error = NULL;
		g_autofree guint8 *copy = g_memdup2(beacon_wpa2, n);
		WifiIes ies;
		gboolean ok = wifi_ies_parse(copy, n, &ies, &error);

		if (n == boundary) {
			g_assert_no_error(error);
			g_assert_true(ok);
			if (n < sizeof(beacon_wpa2))
				boundary += 2 + beacon_wpa2[n + 1];
		} else {
			g_assert_false(ok);
			g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
		}
	}
	g_assert_cmpuint(boundary, ==, sizeof(beacon_wpa2));
}

static void
test_iter_extension(void)
{
	/* HE Capabilities (ext 35): MAC 6, PHY 11 (80 MHz only), MCS maps 4:
	 * two streams (map 0xfffa). */
	static const guint8 list[] = {
	        0xff, 0x16, 35,   0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00,
	        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfa, 0xff, 0xfa, 0xff,
	};
	g_autoptr(GError) error = NULL;
	WifiIeIter iter;
	const guint8 *body;
	gsize len;
	guint id;
	WifiIes ies;

	wifi_ie_iter_init(&iter, list, sizeof(list));
	g_assert_true(wifi_ie_iter_next(&iter, &id, &body, &len, &error));
	g_assert_cmpuint(id, ==, WIFI_IE_HE_CAPABILITIES);
	g_assert_cmpuint(len, ==, 21);
	g_assert_true(body == list + 3);
	g_assert_false(wifi_ie_iter_next(&iter, &id, &body, &len, &error));
	g_assert_no_error(error);

	g_assert_true(wifi_ies_parse(list, sizeof(list), &ies, &error));
	g_assert_true(ies.has_he);
	g_assert_cmpuint(ies.he_streams, ==, 2);
	g_assert_nonnull(wifi_ie_find(list, sizeof(list), WIFI_IE_HE_CAPABILITIES, &len));
	g_assert_null(wifi_ie_find(list, sizeof(list), WIFI_IE_SSID, &len));
}

static void
test_list_malformed(void)
{
	static const struct {
		const gchar *name;
		guint8 data[8];
		gsize len;
		gint code;
	} cases[] = {
	        {"lone id", {0x00}, 1, WIFI_IE_ERROR_TRUNCATED},
	        {"length past end", {0x00, 0x05, 'a', 'b'}, 4, WIFI_IE_ERROR_TRUNCATED},
	        {"second element cut",
	         {0x03, 0x01, 0x06, 0x30, 0x02, 0x01},
	         6,
	         WIFI_IE_ERROR_TRUNCATED},
	        {"empty extension", {0xff, 0x00}, 2, WIFI_IE_ERROR_INVALID},
	        {"two SSIDs", {0x00, 0x01, 'a', 0x00, 0x01, 'b'}, 6, WIFI_IE_ERROR_INVALID},
	        {"two RSN",
	         {0x30, 0x02, 0x01, 0x00, 0x30, 0x02, 0x01, 0x00},
	         8,
	         WIFI_IE_ERROR_INVALID},
	        {"bad RSN version", {0x30, 0x02, 0x02, 0x00}, 4, WIFI_IE_ERROR_INVALID},
	        {"MDE too short", {0x36, 0x02, 0x34, 0x12}, 4, WIFI_IE_ERROR_TRUNCATED},
	        {"RSNX empty", {0xf4, 0x00}, 2, WIFI_IE_ERROR_TRUNCATED},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		WifiIes ies;

		g_test_message("case: %s", cases[i].name);
		g_assert_false(wifi_ies_parse(cases[i].data, cases[i].len, &ies, &error));
		g_assert_error(error, WIFI_IE_ERROR, cases[i].code);
	}
}

static void
test_ssid(void)
{
	guint8 list[2 + 33];
	g_autoptr(GError) error = NULL;
	WifiIes ies;

	memset(list, 'x', sizeof(list));
	list[0] = WIFI_IE_SSID;
	list[1] = 33;
	g_assert_false(wifi_ies_parse(list, sizeof(list), &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);

	list[1] = 32;
	g_assert_true(wifi_ies_parse(list, 34, &ies, &error));
	g_assert_cmpuint(ies.ssid_len, ==, 32);
	g_assert_false(wifi_ssid_is_hidden(ies.ssid, ies.ssid_len));

	/* Hidden SSIDs: empty, or as long as the real one but all zeros. */
	list[1] = 0;
	g_assert_true(wifi_ies_parse(list, 2, &ies, &error));
	g_assert_true(ies.has_ssid);
	g_assert_true(wifi_ssid_is_hidden(ies.ssid, ies.ssid_len));
	memset(list + 2, 0, 5);
	list[1] = 5;
	g_assert_true(wifi_ies_parse(list, 7, &ies, &error));
	g_assert_true(wifi_ssid_is_hidden(ies.ssid, ies.ssid_len));
	g_assert_true(wifi_ssid_is_hidden(NULL, 0));
}

/* WPA2/WPA3 transition with MFP capable, BIP-CMAC, and the RSNX element's
 * SAE hash-to-element bit, as hostapd sends for wpa_key_mgmt=WPA-PSK SAE,
 * ieee80211w=1, sae_pwe=2. */
static void
test_rsn_transition(void)
{
	static const guint8 list[] = {
	        0x30, 0x1a, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
	        0x00, 0x0f, 0xac, 0x04, 0x02, 0x00, 0x00, 0x0f, 0xac, 0x02,
	        0x00, 0x0f, 0xac, 0x08, 0x80, 0x00, 0x00, 0x00, /* caps MFPC, 0 PMKIDs */
	        0xf4, 0x01, 0x20,                               /* RSNX: field length 1, SAE H2E */
	};
	static const guint8 with_mgmt[] = {
	        0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f,
	        0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x08, 0xc0, 0x00,
	        0x00, 0x00, 0x00, 0x0f, 0xac, 0x06, 0xaa, 0xbb, /* trailing octets of a later
	                                                           amendment */
	};
	g_autoptr(GError) error = NULL;
	WifiIes ies;
	WifiRsnInfo rsn;

	g_assert_true(wifi_ies_parse(list, sizeof(list), &ies, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(ies.rsn.akms, ==, WIFI_AKM_PSK | WIFI_AKM_SAE);
	g_assert_cmpuint(ies.rsn.capabilities & WIFI_RSN_CAP_MFPC, !=, 0);
	g_assert_cmpuint(ies.rsn.n_pmkids, ==, 0);
	g_assert_true(ies.has_rsnx);
	g_assert_cmpuint(ies.rsnx & WIFI_RSNX_SAE_H2E, !=, 0);
	g_assert_cmpuint(ies.rsnx & WIFI_RSNX_SAE_PK, ==, 0);

	g_assert_true(wifi_ie_parse_rsn(with_mgmt, sizeof(with_mgmt), &rsn, &error));
	g_assert_cmpuint(rsn.akms, ==, WIFI_AKM_SAE);
	g_assert_cmpuint(rsn.capabilities & (WIFI_RSN_CAP_MFPR | WIFI_RSN_CAP_MFPC), ==,
	                 WIFI_RSN_CAP_MFPR | WIFI_RSN_CAP_MFPC);
	g_assert_cmpuint(rsn.group_mgmt_cipher, ==, WIFI_CIPHER_BIP_CMAC);
}

/* Optional trailing fields: what is left out takes the standard's default
 * (group and pairwise CCMP-128, AKM 802.1X). */
static void
test_rsn_defaults(void)
{
	static const guint8 version_only[] = {0x01, 0x00};
	static const guint8 group_only[] = {0x01, 0x00, 0x00, 0x0f, 0xac, 0x02};
	static const guint8 with_pmkid[] = {
	        0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01,
	        0x00, 0x00, 0x0f, 0xac, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x02, 0x03, 0x04,
	        0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10};
	g_autoptr(GError) error = NULL;
	WifiRsnInfo rsn;

	g_assert_true(wifi_ie_parse_rsn(version_only, sizeof(version_only), &rsn, &error));
	g_assert_cmpuint(rsn.group_cipher, ==, WIFI_CIPHER_CCMP);
	g_assert_cmpuint(rsn.pairwise_ciphers, ==, WIFI_CIPHER_CCMP);
	g_assert_cmpuint(rsn.akms, ==, WIFI_AKM_8021X);

	g_assert_true(wifi_ie_parse_rsn(group_only, sizeof(group_only), &rsn, &error));
	g_assert_cmpuint(rsn.group_cipher, ==, WIFI_CIPHER_TKIP);
	g_assert_cmpuint(rsn.akms, ==, WIFI_AKM_8021X);

	g_assert_true(wifi_ie_parse_rsn(with_pmkid, sizeof(with_pmkid), &rsn, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(rsn.akms, ==, WIFI_AKM_8021X);
	g_assert_cmpuint(rsn.n_pmkids, ==, 1);
	g_assert_cmpuint(rsn.group_mgmt_cipher, ==, 0);
}

static void
test_rsn_unknown_suites(void)
{
	/* AKM 00-0F-AC:99 and a vendor cipher are counted, not failed: a
	 * station just cannot use them. */
	static const guint8 body[] = {
	        0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x02, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x00,
	        0x10, 0x18, 0x01, 0x02, 0x00, 0x00, 0x0f, 0xac, 0x63, 0x50, 0x6f, 0x9a, 0x02,
	};
	g_autoptr(GError) error = NULL;
	WifiRsnInfo rsn;

	g_assert_true(wifi_ie_parse_rsn(body, sizeof(body), &rsn, &error));
	g_assert_cmpuint(rsn.pairwise_ciphers, ==, WIFI_CIPHER_CCMP);
	g_assert_cmpuint(rsn.unknown_ciphers, ==, 1);
	g_assert_cmpuint(rsn.akms, ==, WIFI_AKM_DPP);
	g_assert_cmpuint(rsn.unknown_akms, ==, 1);
}

/* RSN element bodies the parser must refuse, and the error each gets. */
typedef struct {
	const gchar *name;
	guint8 data[32];
	gsize len;
	gint code;
} RsnMalformedCase;

static const RsnMalformedCase rsn_malformed_cases[] = {
        {"empty", {0}, 0, WIFI_IE_ERROR_TRUNCATED},
        {"half version", {0x01}, 1, WIFI_IE_ERROR_TRUNCATED},
        {"version 0", {0x00, 0x00}, 2, WIFI_IE_ERROR_INVALID},
        {"group cut", {0x01, 0x00, 0x00, 0x0f, 0xac}, 5, WIFI_IE_ERROR_TRUNCATED},
        {"group is BIP", {0x01, 0x00, 0x00, 0x0f, 0xac, 0x06}, 6, WIFI_IE_ERROR_INVALID},
        {"pairwise count cut",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01},
         7,
         WIFI_IE_ERROR_TRUNCATED},
        {"pairwise count 0",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x00, 0x00},
         8,
         WIFI_IE_ERROR_INVALID},
        {"pairwise count too big",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x02, 0x00, 0x00, 0x0f, 0xac, 0x04},
         12,
         WIFI_IE_ERROR_TRUNCATED},
        {"pairwise count huge",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0xff, 0xff, 0x00, 0x0f, 0xac, 0x04},
         12,
         WIFI_IE_ERROR_TRUNCATED},
        {"AKM count 0",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x00, 0x00},
         14,
         WIFI_IE_ERROR_INVALID},
        {"AKM cut",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
          0x0f},
         16,
         WIFI_IE_ERROR_TRUNCATED},
        {"caps cut",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
          0x0f, 0xac, 0x02, 0x00},
         19,
         WIFI_IE_ERROR_TRUNCATED},
        {"MFPR without MFPC",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f,
          0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x40, 0x00},
         20,
         WIFI_IE_ERROR_INVALID},
        {"PMKID list cut",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
          0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x00, 0x00, 0x01, 0x00, 0xaa, 0xbb},
         24,
         WIFI_IE_ERROR_TRUNCATED},
        {"mgmt cipher cut",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
          0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x80, 0x00, 0x00, 0x00, 0x00, 0x0f},
         24,
         WIFI_IE_ERROR_TRUNCATED},
        {"mgmt cipher is CCMP",
         {0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01,
          0x00, 0x00, 0x0f, 0xac, 0x02, 0x80, 0x00, 0x00, 0x00, 0x00, 0x0f, 0xac, 0x04},
         26,
         WIFI_IE_ERROR_INVALID},
};

static void
test_rsn_malformed(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(rsn_malformed_cases); i++) {
		g_autoptr(GError) error = NULL;
		WifiRsnInfo rsn;

		g_test_message("case: %s", rsn_malformed_cases[i].name);
		g_assert_false(wifi_ie_parse_rsn(rsn_malformed_cases[i].data,
		                                 rsn_malformed_cases[i].len, &rsn, &error));
		g_assert_error(error, WIFI_IE_ERROR, rsn_malformed_cases[i].code);
	}
}

/* The pre-RSN WPA element, as a WPA1/WPA2 mixed-mode access point sends it:
 * vendor 00-50-F2 type 1, TKIP group, TKIP+CCMP pairwise, PSK. */
static void
test_wpa_vendor(void)
{
	static const guint8 list[] = {
	        0xdd, 0x1a, 0x00, 0x50, 0xf2, 0x01, 0x01, 0x00, 0x00, 0x50, 0xf2, 0x02, 0x02, 0x00,
	        0x00, 0x50, 0xf2, 0x02, 0x00, 0x50, 0xf2, 0x04, 0x01, 0x00, 0x00, 0x50, 0xf2, 0x02,
	};
	static const guint8 bad_oui_cut[] = {0xdd, 0x09, 0x00, 0x50, 0xf2, 0x01,
	                                     0x01, 0x00, 0x00, 0x50, 0xf2};
	static const guint8 short_vendor[] = {0xdd, 0x02, 0x00, 0x50};
	g_autoptr(GError) error = NULL;
	WifiIes ies;

	g_assert_true(wifi_ies_parse(list, sizeof(list), &ies, &error));
	g_assert_no_error(error);
	g_assert_true(ies.has_wpa);
	g_assert_false(ies.has_rsn);
	g_assert_cmpuint(ies.wpa.group_cipher, ==, WIFI_CIPHER_TKIP);
	g_assert_cmpuint(ies.wpa.pairwise_ciphers, ==, WIFI_CIPHER_TKIP | WIFI_CIPHER_CCMP);
	g_assert_cmpuint(ies.wpa.akms, ==, WIFI_AKM_PSK);

	g_assert_false(wifi_ies_parse(bad_oui_cut, sizeof(bad_oui_cut), &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);
	/* A vendor element too short to name its OUI and type is not ours. */
	g_assert_true(wifi_ies_parse(short_vendor, sizeof(short_vendor), &ies, &error));
	g_assert_false(ies.has_wpa);
}

static void
test_owe_transition(void)
{
	static const guint8 list[] = {
	        0xdd, 0x12, 0x50, 0x6f, 0x9a, 0x1c, 0x02, 0x00, 0x00, 0x00,
	        0x01, 0x00, 0x07, 'o',  'w',  'e',  '-',  'h',  'i',  'd',
	};
	static const guint8 with_channel[] = {
	        0x50, 0x6f, 0x9a, 0x1c, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 'x', 0x51, 0x24,
	};
	g_autoptr(GError) error = NULL;
	WifiIes ies;
	guint8 bad[48];

	g_assert_true(wifi_ies_parse(list, sizeof(list), &ies, &error));
	g_assert_true(ies.has_owe_transition);
	g_assert_cmpmem(ies.owe_ssid, ies.owe_ssid_len, "owe-hid", 7);
	g_assert_cmpuint(ies.owe_bssid[5], ==, 0x00);
	g_assert_cmpuint(ies.owe_bssid[4], ==, 0x01);
	g_assert_cmpuint(ies.owe_channel, ==, 0);

	memset(&ies, 0, sizeof(ies));
	g_assert_true(wifi_ie_parse_owe_transition(with_channel + 4, sizeof(with_channel) - 4, &ies,
	                                           &error));
	g_assert_cmpuint(ies.owe_band, ==, 0x51);
	g_assert_cmpuint(ies.owe_channel, ==, 0x24);

	/* A lone band octet, an SSID past the end, an SSID over 32 octets. */
	g_assert_false(wifi_ie_parse_owe_transition(with_channel + 4, sizeof(with_channel) - 5,
	                                            &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	memcpy(bad, with_channel + 4, 8);
	bad[6] = 5;
	g_assert_false(wifi_ie_parse_owe_transition(bad, 9, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);
	memset(bad + 7, 'a', 33);
	bad[6] = 33;
	g_assert_false(wifi_ie_parse_owe_transition(bad, 40, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_owe_transition(bad, 6, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
}

static void
test_rates(void)
{
	/* 11b basic rates, then the SAE H2E-only selector (0x80 | 123). */
	static const guint8 list[] = {0x01, 0x05, 0x82, 0x84, 0x8b, 0x96, 0xfb};
	static const guint8 zero_rate[] = {0x01, 0x02, 0x82, 0x00, 0x03, 0x01, 0x0b};
	g_autoptr(GError) error = NULL;
	WifiIes ies;

	g_assert_true(wifi_ies_parse(list, sizeof(list), &ies, &error));
	g_assert_cmpuint(ies.max_rate, ==, 22);
	g_assert_true(ies.sae_h2e_only);

	/* Informational elements that fail are dropped and counted. */
	g_assert_true(wifi_ies_parse(zero_rate, sizeof(zero_rate), &ies, &error));
	g_assert_cmpuint(ies.n_ignored, ==, 1);
	g_assert_cmpuint(ies.ds_channel, ==, 11);
	g_assert_false(wifi_ie_parse_rates(list, 0, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
}

static void
test_vht_op(void)
{
	/* VHT Capabilities: 3 streams (map 0xffea); operation at 80 MHz centred
	 * on 42, then 160 MHz (seg0 50, seg1 ... expressed as 42/50). */
	static const guint8 caps[] = {0x92, 0x01, 0x80, 0x03, 0xea, 0xff,
	                              0x00, 0x00, 0xea, 0xff, 0x00, 0x00};
	static const guint8 op80[] = {0x01, 42, 0, 0x00, 0x00};
	static const guint8 op160[] = {0x01, 42, 50, 0x00, 0x00};
	static const guint8 op_bad[] = {0x04, 42, 0, 0x00, 0x00};
	g_autoptr(GError) error = NULL;
	WifiIes ies = {0};

	g_assert_true(wifi_ie_parse_vht(caps, sizeof(caps), &ies, &error));
	g_assert_cmpuint(ies.vht_streams, ==, 3);
	g_assert_cmpuint(ies.vht_cap_info, ==, 0x03800192);
	g_assert_true(wifi_ie_parse_vht_op(op80, sizeof(op80), &ies, &error));
	g_assert_cmpuint(ies.vht_width, ==, WIFI_CHAN_WIDTH_80);
	g_assert_cmpuint(ies.vht_center_seg0, ==, 42);
	g_assert_true(wifi_ie_parse_vht_op(op160, sizeof(op160), &ies, &error));
	g_assert_cmpuint(ies.vht_width, ==, WIFI_CHAN_WIDTH_160);
	g_assert_false(wifi_ie_parse_vht_op(op_bad, sizeof(op_bad), &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_vht(caps, 11, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
}

static void
test_ht_malformed(void)
{
	guint8 ht_op[22] = {6, 0x06}; /* secondary offset 2 is reserved */
	g_autoptr(GError) error = NULL;
	WifiIes ies = {0};
	guint8 ht[27] = {0};

	g_assert_false(wifi_ie_parse_ht_op(ht_op, sizeof(ht_op), &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_ht(ht, 25, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_ht(ht, 27, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	/* 20 MHz: offset 1 without the STA channel width bit. */
	ht_op[1] = 0x01;
	g_assert_true(wifi_ie_parse_ht_op(ht_op, sizeof(ht_op), &ies, &error));
	g_assert_cmpuint(ies.ht_width, ==, WIFI_CHAN_WIDTH_20);
}

static void
test_he(void)
{
	/* PHY octet 0 announces 160 MHz (bit 3): 8 MCS octets needed. */
	guint8 he[6 + 11 + 8] = {0};
	guint8 op[6 + 5] = {0};
	g_autoptr(GError) error = NULL;
	WifiIes ies = {0};

	he[6] = 1u << 3;
	he[17] = 0xfe; /* one stream */
	he[18] = 0xff;
	g_assert_true(wifi_ie_parse_he(he, sizeof(he), &ies, &error));
	g_assert_cmpuint(ies.he_streams, ==, 1);
	g_assert_false(wifi_ie_parse_he(he, 6 + 11 + 4, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_he(he, 10, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);

	/* HE Operation with 6 GHz Operation Information (bit 17). */
	op[2] = 0x02;
	g_assert_true(wifi_ie_parse_he_op(op, sizeof(op), &ies, &error));
	g_assert_true(ies.has_he_op);
	g_assert_false(wifi_ie_parse_he_op(op, 8, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
}

static void
test_small_elements_malformed(void)
{
	static const guint8 six[6] = {0};
	g_autoptr(GError) error = NULL;
	WifiIes ies = {0};
	guint32 bits;

	g_assert_false(wifi_ie_parse_bss_load(six, 4, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_bss_load(six, 6, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_rm(six, 6, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_mde(six, 4, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ie_parse_ext_caps(six, 0, &ies, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	/* RSNX says 3 octets, has 2. */
	g_assert_false(wifi_ie_parse_rsnx((const guint8 *)"\x02\x00", 2, &bits, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED);
	g_clear_error(&error);
	g_assert_true(wifi_ie_parse_rsnx((const guint8 *)"\x61\x00", 2, &bits, &error));
	g_assert_cmpuint(bits, ==, 0x61);
}

static void
test_names(void)
{
	g_assert_cmpstr(wifi_cipher_to_string(WIFI_CIPHER_CCMP), ==, "CCMP");
	g_assert_cmpstr(wifi_cipher_to_string(WIFI_CIPHER_BIP_CMAC_256), ==, "BIP-CMAC-256");
	g_assert_cmpstr(wifi_cipher_to_string(1u << 3), ==, "unknown");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/ie/beacon-wpa2", test_beacon_wpa2);
	g_test_add_func("/wifi/ie/beacon-every-prefix", test_beacon_every_prefix);
	g_test_add_func("/wifi/ie/iter-extension", test_iter_extension);
	g_test_add_func("/wifi/ie/list-malformed", test_list_malformed);
	g_test_add_func("/wifi/ie/ssid", test_ssid);
	g_test_add_func("/wifi/ie/rsn-transition", test_rsn_transition);
	g_test_add_func("/wifi/ie/rsn-defaults", test_rsn_defaults);
	g_test_add_func("/wifi/ie/rsn-unknown-suites", test_rsn_unknown_suites);
	g_test_add_func("/wifi/ie/rsn-malformed", test_rsn_malformed);
	g_test_add_func("/wifi/ie/wpa-vendor", test_wpa_vendor);
	g_test_add_func("/wifi/ie/owe-transition", test_owe_transition);
	g_test_add_func("/wifi/ie/rates", test_rates);
	g_test_add_func("/wifi/ie/vht", test_vht_op);
	g_test_add_func("/wifi/ie/ht-malformed", test_ht_malformed);
	g_test_add_func("/wifi/ie/he", test_he);
	g_test_add_func("/wifi/ie/small-malformed", test_small_elements_malformed);
	g_test_add_func("/wifi/ie/names", test_names);
	return g_test_run();
}
