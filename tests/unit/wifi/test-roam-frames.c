/* test-roam-frames.c - the frames of roaming, laid out by hand as IEEE
 * 802.11-2020 defines them and as hostapd 2.10 sends them: Neighbor Report
 * elements (9.4.2.36), the Neighbor Report Request and Response (9.6.6.6,
 * 9.6.6.7), the BSS Transition Management Request and Response (9.6.13.9,
 * 9.6.13.10) and the Action frame around them (9.3.3.13). */
#include <string.h>

#include "action.h"
#include "btm.h"
#include "neighbor.h"

static const guint8 ap1[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};
static const guint8 ap2[6] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x00};

/* hostapd's `set_neighbor 02:00:00:00:01:00 ssid="home"
 * nr=0200000001008f0000005106070301ff`: reachable, same security and key
 * scope, radio measurement; class 81 channel 6, HT; preference 255. */
#define NR_AP1                                                                                    \
	0x34, 0x10, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x8f, 0x00, 0x00, 0x00, 0x51, 0x06, 0x07, \
	        0x03, 0x01, 0xff
/* The second on channel 36 (class 115), VHT, preference 10. */
#define NR_AP2                                                                                    \
	0x34, 0x10, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x8f, 0x04, 0x00, 0x00, 0x73, 0x24, 0x09, \
	        0x03, 0x01, 0x0a

static void
test_neighbor_element(void)
{
	static const guint8 list[] = {NR_AP1, NR_AP2};
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) n = wifi_neighbor_list_parse(list, sizeof(list), &error);
	const WifiNeighbor *a, *b;

	g_assert_no_error(error);
	g_assert_cmpuint(n->len, ==, 2);
	a = &g_array_index(n, WifiNeighbor, 0);
	b = &g_array_index(n, WifiNeighbor, 1);
	g_assert_cmpmem(a->bssid, 6, ap1, 6);
	g_assert_cmpuint(WIFI_NEIGHBOR_REACHABILITY(a->info), ==, 3);
	g_assert_true(a->info & WIFI_NEIGHBOR_INFO_SECURITY);
	g_assert_true(a->info & WIFI_NEIGHBOR_INFO_RM);
	g_assert_false(a->info & WIFI_NEIGHBOR_INFO_MOBILITY);
	g_assert_cmpuint(a->op_class, ==, 81);
	g_assert_cmpuint(a->channel, ==, 6);
	g_assert_cmpuint(a->phy_type, ==, 7);
	g_assert_cmpuint(a->freq, ==, 2437);
	g_assert_true(a->has_preference);
	g_assert_cmpuint(a->preference, ==, 255);
	g_assert_false(a->has_termination);
	g_assert_cmpmem(b->bssid, 6, ap2, 6);
	g_assert_true(b->info & WIFI_NEIGHBOR_INFO_MOBILITY);
	g_assert_cmpuint(b->freq, ==, 5180);
	g_assert_cmpuint(b->preference, ==, 10);
}

static void
test_neighbor_malformed(void)
{
	/* 12 octets: the PHY type is missing. */
	static const guint8 short_body[] = {2, 0, 0, 0, 1, 0, 0x8f, 0, 0, 0, 81, 6};
	/* A subelement claiming 5 octets where 2 remain. */
	static const guint8 overrun[] = {2, 0, 0, 0, 1, 0, 0x8f, 0, 0, 0, 81, 6, 7, 3, 5, 1, 2};
	/* A preference of two octets. */
	static const guint8 long_pref[] = {2, 0, 0, 0, 1, 0, 0x8f, 0, 0, 0, 81, 6, 7, 3, 2, 1, 2};
	/* An element list cut inside the second element. */
	static const guint8 cut[] = {NR_AP1, 0x34, 0x10, 0x02};
	WifiNeighbor n;
	GError *error = NULL;

	g_assert_false(wifi_neighbor_parse(short_body, sizeof(short_body), &n, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_false(wifi_neighbor_parse(overrun, sizeof(overrun), &n, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_false(wifi_neighbor_parse(long_pref, sizeof(long_pref), &n, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_null(wifi_neighbor_list_parse(cut, sizeof(cut), &error));
	g_assert_nonnull(error);
	g_clear_error(&error);
}

static void
test_op_class_freq(void)
{
	g_assert_cmpuint(wifi_op_class_channel_to_freq(81, 1), ==, 2412);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(82, 14), ==, 2484);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(115, 36), ==, 5180);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(128, 42), ==, 5210);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(131, 1), ==, 5955);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(136, 2), ==, 5935);
	/* A country's class: the channel's number decides. */
	g_assert_cmpuint(wifi_op_class_channel_to_freq(12, 11), ==, 2462);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(1, 40), ==, 5200);
	/* A channel the class does not have, and an unknown class. */
	g_assert_cmpuint(wifi_op_class_channel_to_freq(81, 36), ==, 0);
	g_assert_cmpuint(wifi_op_class_channel_to_freq(200, 6), ==, 0);
}

static void
test_neighbor_request(void)
{
	static const guint8 with_ssid[] = {5, 4, 7, 0, 4, 'h', 'o', 'm', 'e'};
	static const guint8 bare[] = {5, 4, 8};
	g_autoptr(GBytes) a = wifi_neighbor_request_build(7, (const guint8 *)"home", 4);
	g_autoptr(GBytes) b = wifi_neighbor_request_build(8, NULL, 0);

	g_assert_cmpmem(g_bytes_get_data(a, NULL), g_bytes_get_size(a), with_ssid,
	                sizeof(with_ssid));
	g_assert_cmpmem(g_bytes_get_data(b, NULL), g_bytes_get_size(b), bare, sizeof(bare));
}

static void
test_neighbor_response(void)
{
	static const guint8 resp[] = {5, 5, 7, NR_AP1, NR_AP2};
	static const guint8 empty[] = {5, 5, 9};
	static const guint8 not_resp[] = {5, 4, 7};
	g_autoptr(GArray) n = NULL;
	g_autoptr(GArray) none = NULL;
	GError *error = NULL;
	guint8 token = 0;

	g_assert_true(wifi_neighbor_response_parse(resp, sizeof(resp), &token, &n, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(token, ==, 7);
	g_assert_cmpuint(n->len, ==, 2);
	g_assert_true(wifi_neighbor_response_parse(empty, sizeof(empty), &token, &none, &error));
	g_assert_cmpuint(token, ==, 9);
	g_assert_cmpuint(none->len, ==, 0);
	g_assert_false(
	        wifi_neighbor_response_parse(not_resp, sizeof(not_resp), &token, &n, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_OTHER);
	g_clear_error(&error);
	g_assert_false(wifi_neighbor_response_parse(resp, 2, &token, &n, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED);
	g_clear_error(&error);
}

/* hostapd's `bss_tm_req STA disassoc_imminent=1 disassoc_timer=10
 * valid_int=255 pref=1 neighbor=02:00:00:00:01:00,0x8f,81,6,7,0301ff
 * neighbor=...:02:00,...` with dialog token 3. */
static void
test_btm_request(void)
{
	static const guint8 req[] = {10, 7, 3, 0x05, 10, 0, 255, NR_AP1, NR_AP2,
	                             /* an MBO element after the list is passed over */
	                             0xdd, 0x07, 0x50, 0x6f, 0x9a, 0x16, 0x06, 0x01, 0x00};
	g_auto(WifiBtmRequest) r = {0};
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_btm_request_parse(req, sizeof(req), &r, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(r.token, ==, 3);
	g_assert_cmpuint(r.mode, ==,
	                 WIFI_BTM_MODE_CANDIDATE_LIST | WIFI_BTM_MODE_DISASSOC_IMMINENT);
	g_assert_cmpuint(r.disassoc_timer, ==, 10);
	g_assert_cmpuint(r.validity, ==, 255);
	g_assert_null(r.url);
	g_assert_cmpuint(r.candidates->len, ==, 2);
	g_assert_cmpmem(g_array_index(r.candidates, WifiNeighbor, 1).bssid, 6, ap2, 6);
}

static void
test_btm_request_optional_fields(void)
{
	/* BSS termination in 0x0102030405060708 TSF for 5 minutes, then an
	 * ESS disassociation's URL, no candidate list. */
	static const guint8 req[] = {10,   7,    4,    0x18, 0,    0, 1, 4, 10,  0x08, 0x07, 0x06,
	                             0x05, 0x04, 0x03, 0x02, 0x01, 5, 0, 3, 'a', '.',  'b'};
	g_auto(WifiBtmRequest) r = {0};
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_btm_request_parse(req, sizeof(req), &r, &error));
	g_assert_no_error(error);
	g_assert_cmphex(r.termination_tsf, ==, G_GUINT64_CONSTANT(0x0102030405060708));
	g_assert_cmpuint(r.termination_minutes, ==, 5);
	g_assert_cmpstr(r.url, ==, "a.b");
	g_assert_cmpuint(r.candidates->len, ==, 0);
}

static void
test_btm_request_malformed(void)
{
	/* Termination flagged but absent; URL longer than the frame; a list
	 * with a cut candidate; a BTM response; six octets. */
	static const guint8 no_term[] = {10, 7, 1, 0x08, 0, 0, 1};
	static const guint8 long_url[] = {10, 7, 1, 0x10, 0, 0, 1, 9, 'a'};
	static const guint8 cut[] = {10, 7, 1, 0x01, 0, 0, 1, 0x34, 0x05, 1, 2, 3, 4, 5};
	static const guint8 resp[] = {10, 8, 1, 0, 0, 0, 0};
	const struct {
		const guint8 *data;
		gsize len;
		gint code;
	} cases[] = {
	        {no_term, sizeof(no_term), WIFI_ACTION_ERROR_MALFORMED},
	        {long_url, sizeof(long_url), WIFI_ACTION_ERROR_MALFORMED},
	        {cut, sizeof(cut), WIFI_ACTION_ERROR_MALFORMED},
	        {resp, sizeof(resp), WIFI_ACTION_ERROR_OTHER},
	        {resp, 6, WIFI_ACTION_ERROR_MALFORMED},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		WifiBtmRequest r = {0};
		GError *error = NULL;

		g_assert_false(wifi_btm_request_parse(cases[i].data, cases[i].len, &r, &error));
		g_assert_error(error, WIFI_ACTION_ERROR, cases[i].code);
		g_assert_null(r.url);
		g_assert_null(r.candidates);
		g_clear_error(&error);
	}
}

static void
test_btm_response(void)
{
	static const guint8 accept[] = {10, 8, 3, 0, 0, 2, 0, 0, 0, 2, 0};
	static const guint8 reject[] = {10, 8, 4, 7, 0};
	g_autoptr(GBytes) a = wifi_btm_response_build(3, WIFI_BTM_ACCEPT, 0, ap2);
	g_autoptr(GBytes) r = wifi_btm_response_build(4, WIFI_BTM_REJECT_NO_CANDIDATES, 0, ap2);

	g_assert_cmpmem(g_bytes_get_data(a, NULL), g_bytes_get_size(a), accept, sizeof(accept));
	g_assert_cmpmem(g_bytes_get_data(r, NULL), g_bytes_get_size(r), reject, sizeof(reject));
	g_assert_cmpstr(wifi_btm_status_to_string(WIFI_BTM_ACCEPT), ==, "accept");
	g_assert_cmpstr(wifi_btm_status_to_string(WIFI_BTM_REJECT_LEAVING_ESS), ==,
	                "reject: leaving the ESS");
	g_assert_cmpstr(wifi_btm_status_to_string(9), ==, "reserved");
}

static void
test_action_frame(void)
{
	static const guint8 sta[6] = {0x02, 0, 0, 0, 0, 0x99};
	static const guint8 body[] = {10, 8, 3, 7, 0};
	g_autoptr(GBytes) frame = wifi_action_build(ap1, sta, body, sizeof(body));
	const guint8 *d = g_bytes_get_data(frame, NULL);
	gsize len = g_bytes_get_size(frame);
	guint8 beacon[30] = {0x80};
	WifiActionFrame f;
	GError *error = NULL;

	g_assert_cmpuint(len, ==, 24 + sizeof(body));
	g_assert_cmphex(d[0], ==, 0xd0);
	g_assert_true(wifi_action_parse(d, len, &f, &error));
	g_assert_cmpmem(f.da, 6, ap1, 6);
	g_assert_cmpmem(f.sa, 6, sta, 6);
	g_assert_cmpmem(f.bssid, 6, ap1, 6);
	g_assert_cmpuint(f.category, ==, WIFI_ACTION_WNM);
	g_assert_cmpmem(f.body, f.body_len, body, sizeof(body));
	g_assert_false(wifi_action_parse(beacon, sizeof(beacon), &f, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_OTHER);
	g_clear_error(&error);
	g_assert_false(wifi_action_parse(d, 24, &f, &error));
	g_assert_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED);
	g_clear_error(&error);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/roam-frames/neighbor-element", test_neighbor_element);
	g_test_add_func("/wifi/roam-frames/neighbor-malformed", test_neighbor_malformed);
	g_test_add_func("/wifi/roam-frames/op-class-freq", test_op_class_freq);
	g_test_add_func("/wifi/roam-frames/neighbor-request", test_neighbor_request);
	g_test_add_func("/wifi/roam-frames/neighbor-response", test_neighbor_response);
	g_test_add_func("/wifi/roam-frames/btm-request", test_btm_request);
	g_test_add_func("/wifi/roam-frames/btm-request-optional", test_btm_request_optional_fields);
	g_test_add_func("/wifi/roam-frames/btm-request-malformed", test_btm_request_malformed);
	g_test_add_func("/wifi/roam-frames/btm-response", test_btm_response);
	g_test_add_func("/wifi/roam-frames/action-frame", test_action_frame);
	return g_test_run();
}
