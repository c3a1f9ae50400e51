/* test-ap-frames.c - the access point's frames: the beacon and probe
 * response laid out octet by octet as IEEE 802.11-2020 9.3.3.2 and
 * 9.3.3.10 define them (and read back by the station's own element
 * parser), and the requests a station sends, parsed from frames laid out
 * as wpa_supplicant 2.10 sends them. */
#include <string.h>

#include "ap-ies.h"
#include "ie.h"
#include "mgmt-request.h"
#include "mgmt.h"

static const guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};
static const guint8 sta[6] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x00};
static const guint8 rsne[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
                              0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x80, 0x00};
static const guint8 ext_caps[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40};

static void
ap_ies(WifiApIes *ies, gboolean hidden)
{
	memset(ies, 0, sizeof(*ies));
	memcpy(ies->bssid, bssid, 6);
	ies->ssid = (const guint8 *)"home";
	ies->ssid_len = 4;
	ies->hidden = hidden;
	ies->channel = 6;
	ies->privacy = TRUE;
	wifi_ap_ies_default_rates(ies, FALSE);
	ies->rsne = rsne;
	ies->rsne_len = sizeof(rsne);
	ies->ext_caps = ext_caps;
	ies->ext_caps_len = sizeof(ext_caps);
}

static void
test_beacon_layout(void)
{
	static const guint8 head[] = {
	        0x80, 0x00, 0x00, 0x00,                         /* beacon */
	        0xff, 0xff, 0xff, 0xff, 0xff, 0xff,             /* DA */
	        0x02, 0x00, 0x00, 0x00, 0x01, 0x00,             /* SA */
	        0x02, 0x00, 0x00, 0x00, 0x01, 0x00,             /* BSSID */
	        0x00, 0x00,                                     /* sequence */
	        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* timestamp */
	        0x64, 0x00,                                     /* 100 TU */
	        0x31, 0x04,                        /* ESS, privacy, short preamble, slot */
	        0x00, 0x04, 'h',  'o',  'm',  'e', /* SSID */
	        0x01, 0x08, 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24, /* rates */
	        0x03, 0x01, 0x06,                                           /* DS: 6 */
	};
	static const guint8 tail[] = {
	        0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
	        0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x80, 0x00, /* RSNE */
	        0x32, 0x04, 0x30, 0x48, 0x60, 0x6c,                               /* ext rates */
	        0x7f, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40,       /* ext caps */
	};
	WifiApIes ies;
	g_autoptr(GBytes) h = NULL;
	g_autoptr(GBytes) t = NULL;

	ap_ies(&ies, FALSE);
	h = wifi_ap_beacon_head(&ies);
	t = wifi_ap_beacon_tail(&ies);
	g_assert_cmpmem(g_bytes_get_data(h, NULL), g_bytes_get_size(h), head, sizeof(head));
	g_assert_cmpmem(g_bytes_get_data(t, NULL), g_bytes_get_size(t), tail, sizeof(tail));
}

/* The station's parser reads the probe response's elements as any AP's. */
static void
test_probe_response_parses(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) resp = NULL;
	const guint8 *p;
	gsize len;
	WifiApIes ies;
	WifiIes parsed;

	ap_ies(&ies, TRUE);
	resp = wifi_ap_probe_response(&ies, sta);
	p = g_bytes_get_data(resp, &len);
	g_assert_cmpuint(p[0], ==, 0x50);
	g_assert_cmpmem(p + 4, 6, sta, 6);
	g_assert_true(wifi_ies_parse(p + 36, len - 36, &parsed, &error));
	g_assert_no_error(error);
	g_assert_true(parsed.has_ssid);
	g_assert_cmpmem(parsed.ssid, parsed.ssid_len, "home", 4);
	g_assert_cmpuint(parsed.ds_channel, ==, 6);
	g_assert_cmpuint(parsed.max_rate, ==, 108);
	g_assert_true(parsed.has_rsn);
	g_assert_cmpuint(parsed.rsn.akms, ==, WIFI_AKM_PSK);
	g_assert_cmpuint(parsed.rsn.capabilities, ==, WIFI_RSN_CAP_MFPC);
	g_assert_cmpuint(parsed.n_ignored, ==, 0);
}

/* A hidden AP's beacon has an empty SSID element; only a probe naming
 * the SSID is answered. */
static void
test_hidden(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) h = NULL;
	const guint8 *p;
	WifiApIes ies;

	ap_ies(&ies, TRUE);
	h = wifi_ap_beacon_head(&ies);
	p = g_bytes_get_data(h, NULL);
	g_assert_cmpuint(p[36], ==, 0x00);
	g_assert_cmpuint(p[37], ==, 0);
	g_assert_false(wifi_ap_probe_matches(&ies, NULL, 0));
	g_assert_true(wifi_ap_probe_matches(&ies, (const guint8 *)"home", 4));
	g_assert_false(wifi_ap_probe_matches(&ies, (const guint8 *)"hom", 3));
	ies.hidden = FALSE;
	g_assert_true(wifi_ap_probe_matches(&ies, NULL, 0));
	/* An open AP without Privacy, 5 GHz rates. */
	ies.privacy = FALSE;
	wifi_ap_ies_default_rates(&ies, TRUE);
	g_assert_cmpuint(wifi_ap_capabilities(&ies), ==, 0x0421);
	g_assert_cmpuint(ies.n_rates, ==, 8);
}

static GBytes *
frame(guint8 fc, const gchar *fixed_and_ies_hex)
{
	GByteArray *f = g_byte_array_new();
	guint8 h[24] = {fc};
	gsize n = strlen(fixed_and_ies_hex) / 2;

	memcpy(h + 4, bssid, 6);
	memcpy(h + 10, sta, 6);
	memcpy(h + 16, bssid, 6);
	g_byte_array_append(f, h, sizeof(h));
	for (gsize i = 0; i < n; i++) {
		guint8 b = (guint8)(g_ascii_xdigit_value(fixed_and_ies_hex[2 * i]) * 16 +
		                    g_ascii_xdigit_value(fixed_and_ies_hex[2 * i + 1]));
		g_byte_array_append(f, &b, 1);
	}
	return g_byte_array_free_to_bytes(f);
}

static gboolean
parse(GBytes *f, WifiMgmtRequest *r, GError **error)
{
	return wifi_mgmt_parse_request(g_bytes_get_data(f, NULL), g_bytes_get_size(f), r, error);
}

/* wpa_supplicant's association request to a WPA2 AP: capabilities,
 * listen interval, SSID, rates, RSNE, extended capabilities. */
static void
test_assoc_request(void)
{
	g_autoptr(GBytes) f = frame(0x00, "31040a00"
	                                  "0004686f6d65"
	                                  "010802040b160c121824"
	                                  "32043048606c"
	                                  "30140100000fac040100000fac040100000fac020000"
	                                  "f40120"
	                                  "7f080400000000000040");
	g_autoptr(GError) error = NULL;
	WifiMgmtRequest r;

	g_assert_true(parse(f, &r, &error));
	g_assert_no_error(error);
	g_assert_cmpint(r.kind, ==, WIFI_MGMT_REQUEST_ASSOC);
	g_assert_cmpmem(r.sa, 6, sta, 6);
	g_assert_cmpuint(r.capabilities, ==, 0x0431);
	g_assert_cmpuint(r.listen_interval, ==, 10);
	g_assert_cmpmem(r.ssid, r.ssid_len, "home", 4);
	g_assert_cmpuint(r.rsne_len, ==, 22);
	g_assert_cmpuint(r.rsne[0], ==, 0x30);
	g_assert_cmpuint(r.rsnxe_len, ==, 3);
	g_assert_cmpuint(r.n_rates, ==, 12);
	g_assert_cmpuint(r.rates[11], ==, 0x6c);
}

static void
test_auth_and_reassoc(void)
{
	g_autoptr(GBytes) auth = frame(0xb0, "000001000000");
	g_autoptr(GBytes) sae = frame(0xb0, "0300010000001300aabb");
	g_autoptr(GBytes) reassoc = frame(0x20, "31040a00020000000100"
	                                        "0004686f6d65");
	g_autoptr(GError) error = NULL;
	WifiMgmtRequest r;

	g_assert_true(parse(auth, &r, &error));
	g_assert_cmpint(r.kind, ==, WIFI_MGMT_REQUEST_AUTH);
	g_assert_cmpuint(r.auth_algorithm, ==, 0);
	g_assert_cmpuint(r.auth_seq, ==, 1);
	g_assert_cmpuint(r.body_len, ==, 0);
	g_assert_true(parse(sae, &r, &error));
	g_assert_cmpuint(r.auth_algorithm, ==, 3);
	g_assert_cmpuint(r.body_len, ==, 4);
	g_assert_true(parse(reassoc, &r, &error));
	g_assert_cmpint(r.kind, ==, WIFI_MGMT_REQUEST_REASSOC);
	g_assert_cmpmem(r.current_ap, 6, bssid, 6);
	g_assert_true(r.has_ssid);
	g_assert_null(r.rsne);
}

static void
check_refused(guint8 fc, const gchar *hex, const gchar *why)
{
	g_autoptr(GBytes) f = frame(fc, hex);
	g_autoptr(GError) error = NULL;
	WifiMgmtRequest r;

	g_assert_false(parse(f, &r, &error));
	g_assert_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED);
	g_assert_nonnull(strstr(error->message, why));
}

static void
test_requests_refused(void)
{
	check_refused(0x00, "3104", "fixed fields");
	check_refused(0xb0, "0000", "fixed fields");
	check_refused(0x00,
	              "31040a00"
	              "0004686f6d65"
	              "0004686f6d65",
	              "SSID");
	check_refused(0x00,
	              "31040a00"
	              "0021"
	              "686f6d65",
	              "do not parse");
	check_refused(0x00,
	              "31040a00"
	              "30140100000fac040100000fac040100000fac020000"
	              "30140100000fac040100000fac040100000fac020000",
	              "RSNE twice");
	check_refused(0x10, "000000000100", "not a station's request");
	check_refused(0x08, "", "not a station's request");
}

/* The answers: an authentication, an association response with the AID's
 * top bits set, a deauthentication, each readable by the station's parsers. */
static void
test_answers(void)
{
	g_autoptr(GBytes) auth = wifi_mgmt_build_auth(bssid, sta, 0, 2, 0, NULL, 0);
	g_autoptr(GBytes) assoc = wifi_mgmt_build_assoc_resp(bssid, sta, FALSE, 0x0431, 0, 3,
	                                                     (const guint8 *)"\x01\x01\x82", 3);
	g_autoptr(GBytes) deauth = wifi_mgmt_build_leave(bssid, sta, FALSE, 15);
	g_autoptr(GError) error = NULL;
	WifiMgmtAnswer a;
	WifiMgmtLeave l;
	const guint8 *p;

	g_assert_true(wifi_mgmt_parse_answer(g_bytes_get_data(auth, NULL), g_bytes_get_size(auth),
	                                     &a, &error));
	g_assert_false(a.assoc);
	g_assert_cmpuint(a.auth_seq, ==, 2);
	g_assert_cmpmem(a.bssid, 6, bssid, 6);
	g_assert_true(wifi_mgmt_parse_answer(g_bytes_get_data(assoc, NULL), g_bytes_get_size(assoc),
	                                     &a, &error));
	g_assert_true(a.assoc);
	g_assert_cmpuint(a.aid, ==, 3);
	g_assert_cmpuint(a.ies_len, ==, 3);
	p = g_bytes_get_data(assoc, NULL);
	g_assert_cmpuint(p[29], ==, 0xc0);
	g_assert_true(wifi_mgmt_parse_leave(g_bytes_get_data(deauth, NULL),
	                                    g_bytes_get_size(deauth), &l, &error));
	g_assert_false(l.disassoc);
	g_assert_cmpuint(l.reason, ==, 15);
	g_assert_cmpmem(l.da, 6, sta, 6);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ap-frames/beacon-layout", test_beacon_layout);
	g_test_add_func("/ap-frames/probe-response-parses", test_probe_response_parses);
	g_test_add_func("/ap-frames/hidden", test_hidden);
	g_test_add_func("/ap-frames/assoc-request", test_assoc_request);
	g_test_add_func("/ap-frames/auth-and-reassoc", test_auth_and_reassoc);
	g_test_add_func("/ap-frames/requests-refused", test_requests_refused);
	g_test_add_func("/ap-frames/answers", test_answers);
	return g_test_run();
}
