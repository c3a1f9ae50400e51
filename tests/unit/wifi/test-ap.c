/* test-ap.c - the access point (plugins/wifi/ap) against a fake nl80211
 * (fake-nl.c) and the station's own supplicant as its client: the
 * start-up steps and what START_AP carries, open system authentication,
 * association and NEW_STATION, the 4-way handshake over the control
 * port, the TK and the port, a group key rotation, refusals (another
 * AKM, a full AP, association without authentication, a forbidden
 * channel), probes of a hidden AP, the kernel refusing START_AP, stop,
 * the station table, the channel choice. */
#include <errno.h>
#include <string.h>

#include "ap-channel.h"
#include "ap-fixture.h"
#include "bss.h"
#include "fake-bss.h"
#include "ie.h"
#include "mgmt-request.h"
#include "mgmt.h"

static void
test_wpa2_join(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", "correct horse");
	FakeNlRequest *req;

	(void)data;
	start(f, &c);
	join(f, rsne_psk, sizeof(rsne_psk), FALSE);
	g_assert_cmpuint(f->sta_keys, ==, 2); /* TK, GTK */
	/* The station leaves (reason 3): the kernel forgets it, and is not
	 * asked to deauthenticate it again (cfg80211 refuses reason 0). */
	rx_frame(f, wifi_mgmt_build_leave(sta_mac, bssid, FALSE, 3));
	req = fake_nl_expect(f->fake, NL80211_CMD_DEL_STATION);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, sta_mac, 6);
	g_assert_null(req->attrs[NL80211_ATTR_REASON_CODE]);
	fake_nl_done(f->fake, req, 0);
	g_assert_cmpuint(wifi_ap_get_n_stations(f->ap), ==, 0);
	g_assert_cmpstr(f->log->str, ==, "starting started +02 -02 ");
}

/* MFP negotiated: NEW_STATION says so and message 3 carries the IGTK; then
 * a rotation reaches the client as group message 1, encrypted. */
static void
test_mfp_and_rekey(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", "correct horse");
	FakeNlRequest *req;

	(void)data;
	start(f, &c);
	join(f, rsne_mfpc, sizeof(rsne_mfpc), TRUE);
	g_assert_cmpuint(f->sta_keys, ==, 3); /* TK, GTK, IGTK */
	wifi_ap_rekey_group(f->ap);
	req = fake_nl_expect(f->fake, NL80211_CMD_NEW_KEY);
	g_assert_cmpuint(nla_get_u8(req->attrs[NL80211_ATTR_KEY_IDX]), ==, 2);
	g_assert_null(req->attrs[NL80211_ATTR_MAC]);
	fake_nl_done(f->fake, req, 0);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_SET_KEY), 0);
	eapol_to_client(f, TRUE); /* group message 1 */
	eapol_to_ap(f);           /* group message 2 */
	g_assert_cmpuint(f->sta_keys, ==, 5);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
}

/* Refusals: another AKM (status 43), association without authentication
 * (deauthentication, reason 7), a full AP (status 17). */
static void
test_refusals(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", "correct horse");
	g_autoptr(GBytes) deauth = NULL;
	WifiMgmtLeave leave;

	(void)data;
	c.max_stations = 1;
	start(f, &c);
	rx_frame(f,
	         request(WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00", rsne_psk, sizeof(rsne_psk)));
	deauth = tx_frame(f);
	g_assert_true(wifi_mgmt_parse_leave(g_bytes_get_data(deauth, NULL),
	                                    g_bytes_get_size(deauth), &leave, NULL));
	g_assert_cmpuint(leave.reason, ==, 7);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 0);
	rx_frame(f,
	         request(WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00", rsne_sae, sizeof(rsne_sae)));
	expect_answer(f, TRUE, 43);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_NEW_STATION));
	/* SAE authentication is refused (status 13) until joind answers it. */
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "030001000000", NULL, 0));
	expect_answer(f, FALSE, 13);
	join(f, rsne_psk, sizeof(rsne_psk), FALSE);
	/* A second station finds the AP full. */
	rx_frame(f, request_from(other_mac, WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 0);
	rx_frame(f, request_from(other_mac, WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00", rsne_psk,
	                         sizeof(rsne_psk)));
	expect_answer(f, TRUE, 17);
}

/* A hidden AP answers only probes that name it; beacons carry no SSID. */
static void
test_hidden_probes(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", NULL);
	g_autoptr(GBytes) resp = NULL;
	const guint8 *p;

	(void)data;
	c.hidden = TRUE;
	start(f, &c);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_PROBE_REQ, "0000", NULL, 0));
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_FRAME));
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_PROBE_REQ, "0004686f6d65", NULL, 0));
	resp = tx_frame(f);
	p = g_bytes_get_data(resp, NULL);
	g_assert_cmpuint(p[0], ==, WIFI_MGMT_FC_SUBTYPE_PROBE_RESP);
	g_assert_cmpmem(p + 38, 4, "home", 4);
	/* Open: no privacy bit, and the association opens the port at once. */
	g_assert_cmpuint(p[34] & 0x10, ==, 0);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 0);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00", NULL, 0));
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_NEW_STATION), 0);
	expect_answer(f, TRUE, 0);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_SET_STATION), 0);
	g_assert_cmpuint(wifi_ap_get_n_stations(f->ap), ==, 1);
}

/* Channels the regulatory domain forbids, a short passphrase: refused
 * with a sentence, nothing sent. */
static void
test_config_refused(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", "correct horse");
	g_autoptr(GError) error = NULL;

	(void)data;
	c.channel = 12;
	g_assert_false(wifi_ap_start(f->ap, &c, &error));
	g_assert_nonnull(strstr(error->message, "Channel 12 (2467 MHz) is disabled"));
	g_clear_error(&error);
	c.channel = 13;
	g_assert_false(wifi_ap_start(f->ap, &c, &error));
	g_assert_nonnull(strstr(error->message, "passive only"));
	g_clear_error(&error);
	c.channel = 36;
	g_assert_false(wifi_ap_start(f->ap, &c, &error));
	g_assert_nonnull(strstr(error->message, "not one of the radio's"));
	g_clear_error(&error);
	c = config("home", "short");
	g_assert_false(wifi_ap_start(f->ap, &c, &error));
	g_assert_nonnull(error);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	g_assert_cmpint(wifi_ap_get_state(f->ap), ==, WIFI_AP_STATE_IDLE);
}

/* The kernel refuses START_AP: the AP stops and says why; a stop after a
 * join says the station left. */
static void
test_start_refused_and_stop(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", "correct horse");
	g_autoptr(GError) error = NULL;

	(void)data;
	g_assert_true(wifi_ap_start(f->ap, &c, &error));
	fake_nl_done_all(f->fake, NL80211_CMD_REGISTER_FRAME, 0);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_START_AP), -EBUSY);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_SET_BSS));
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_STOP_AP), 0);
	g_assert_cmpstr(f->log->str, ==, "starting stopping idle ");
	g_string_truncate(f->log, 0);
	start(f, &c);
	join(f, rsne_psk, sizeof(rsne_psk), FALSE);
	wifi_ap_stop(f->ap, "asked to");
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_STOP_AP), 0);
	g_assert_cmpstr(f->log->str, ==, "starting started +02 -02 stopping idle ");
}

/* A start after a stop derives the PSK again when the secret changed
 * (the client's handshake needs the new one) and keeps it when not. */
static void
test_restart_psk(Fixture *f, gconstpointer data)
{
	WifiApConfig other = config("home", "another horse");
	WifiApConfig c = config("home", "correct horse");

	(void)data;
	for (guint i = 0; i < 3; i++) {
		start(f, i == 0 ? &other : &c);
		if (i > 0)
			join(f, rsne_psk, sizeof(rsne_psk), FALSE);
		wifi_ap_stop(f->ap, "asked to");
		fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_STOP_AP), 0);
	}
	g_assert_cmpstr(f->log->str, ==,
	                "starting started stopping idle starting started +02 -02 stopping idle "
	                "starting started +02 -02 stopping idle ");
}

/* Message 1 waits for the association response's acknowledgement (else it
 * can overtake the response), and for 200 ms at most when the kernel says
 * nothing. */
/* A WPA2 AP started, a station authenticated and associating: the
 * association response's CMD_FRAME, not answered yet. */
static FakeNlRequest *
assoc_response(Fixture *f)
{
	WifiApConfig c = config("home", "correct horse");
	FakeNlRequest *req;

	start(f, &c);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 0);
	rx_frame(f,
	         request(WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00", rsne_psk, sizeof(rsne_psk)));
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_NEW_STATION), 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_FRAME);
	g_assert_null(req->attrs[NL80211_ATTR_DONT_WAIT_FOR_ACK]);
	return req;
}

static void
test_msg1_after_ack(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req = assoc_response(f);
	gint64 until;

	(void)data;
	fake_nl_done(f->fake, req, 0); /* no cookie: no status will come */
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME));
	until = g_get_monotonic_time() + 2 * G_USEC_PER_SEC;
	while (fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME) == NULL &&
	       g_get_monotonic_time() < until)
		g_main_context_iteration(NULL, TRUE);
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME));
}

/* The association response's transmission status read before the reply
 * carrying its cookie (two sockets): message 1 goes at the reply, not
 * after the 200 ms that stand for a status that never comes. */
static void
test_msg1_status_first(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req = assoc_response(f);
	struct nl_msg *reply = wifi_test_msg_new(NL80211_CMD_FRAME);

	(void)data;
	tx_status(f, 77);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME));
	nla_put_u64(reply, NL80211_ATTR_COOKIE, 77);
	fake_nl_reply(f->fake, req, reply);
	fake_nl_done(f->fake, req, 0);
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME));
}

/* One GET_STATION dump entry: the station's signal, rate and idle time. */
static struct nl_msg *
station_entry(const guint8 mac[6], gint8 signal, guint32 inactive_ms)
{
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_NEW_STATION);
	struct nlattr *info, *rate;

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, IFINDEX);
	nla_put(msg, NL80211_ATTR_MAC, 6, mac);
	info = nla_nest_start(msg, NL80211_ATTR_STA_INFO);
	nla_put_u8(msg, NL80211_STA_INFO_SIGNAL, (guint8)signal);
	nla_put_u32(msg, NL80211_STA_INFO_INACTIVE_TIME, inactive_ms);
	nla_put_u32(msg, NL80211_STA_INFO_CONNECTED_TIME, 42);
	rate = nla_nest_start(msg, NL80211_STA_INFO_TX_BITRATE);
	nla_put_u32(msg, NL80211_RATE_INFO_BITRATE32, 540);
	nla_nest_end(msg, rate);
	nla_nest_end(msg, info);
	return msg;
}

/* The station table from the kernel's dump; a station idle past the limit
 * is deauthenticated with reason 4 (inactivity). */
static void
test_station_table(Fixture *f, gconstpointer data)
{
	WifiApConfig c = config("home", "correct horse");
	g_autoptr(GArray) stations = NULL;
	FakeNlRequest *req;
	const WifiApStation *s;

	(void)data;
	c.max_inactivity = 60;
	start(f, &c);
	join(f, rsne_psk, sizeof(rsne_psk), FALSE);
	wifi_ap_check_stations(f->ap);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_STATION);
	fake_nl_reply(f->fake, req, station_entry(sta_mac, -48, 1500));
	fake_nl_done(f->fake, req, 0);
	stations = wifi_ap_get_stations(f->ap);
	g_assert_cmpuint(stations->len, ==, 1);
	s = &g_array_index(stations, WifiApStation, 0);
	g_assert_cmpmem(s->address, 6, sta_mac, 6);
	g_assert_cmpint(s->signal_dbm, ==, -48);
	g_assert_cmpuint(s->tx_bitrate_100kbps, ==, 540);
	g_assert_cmpuint(s->connected_s, ==, 42);
	g_assert_cmpuint(s->inactive_ms, ==, 1500);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_DEL_STATION));
	wifi_ap_check_stations(f->ap);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_STATION);
	fake_nl_reply(f->fake, req, station_entry(sta_mac, -70, 61000));
	fake_nl_done(f->fake, req, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_DEL_STATION);
	g_assert_cmpuint(nla_get_u16(req->attrs[NL80211_ATTR_REASON_CODE]), ==, 4);
	fake_nl_done(f->fake, req, 0);
	g_assert_cmpuint(wifi_ap_get_n_stations(f->ap), ==, 0);
}

/* No channel configured: a scan, and the least used of 1, 6 and 11 (6
 * here: 1 has a loud neighbour, 11 two quiet ones near it). */
static void
test_channel_from_scan(Fixture *f, gconstpointer data)
{
	static const FakeBss around[] = {
	        {.last = 1, .freq = 2412, .signal_mbm = -5000, .ssid = "a"},
	        {.last = 2, .freq = 2437, .signal_mbm = -8000, .ssid = "b"},
	        {.last = 3, .freq = 2452, .signal_mbm = -8000, .ssid = "c"},
	        {.last = 4, .freq = 2462, .signal_mbm = -8000, .ssid = "d"},
	        {.last = 5, .freq = 5180, .signal_mbm = -3000, .ssid = "e"},
	};
	WifiApConfig c = config("home", "correct horse");
	g_autoptr(GError) error = NULL;
	FakeNlRequest *req;

	(void)data;
	c.channel = 0;
	g_assert_true(wifi_ap_start(f->ap, &c, &error));
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_REGISTER_FRAME));
	fake_bss_complete_scan(f->fake, f->nl, around, G_N_ELEMENTS(around));
	while (g_main_context_iteration(NULL, FALSE))
		;
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_REGISTER_FRAME, 0), ==, 6);
	req = fake_nl_expect(f->fake, NL80211_CMD_START_AP);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_WIPHY_FREQ]), ==, 2437);
	fake_nl_done(f->fake, req, 0);
}

/* The choice itself: ties go to the lowest channel, forbidden channels
 * are skipped, none allowed is 0. */
static void
test_choose_channel(Fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	WifiBss *bss = g_new0(WifiBss, 1);
	const gchar *why;

	(void)data;
	bss->refcount = 1;
	bss->freq = 2412;
	bss->signal = -6000;
	g_ptr_array_add(bsses, bss);
	g_assert_cmpuint(wifi_ap_choose_channel(NULL, f->iface->wiphy), ==, 1);
	g_assert_cmpuint(wifi_ap_choose_channel(bsses, f->iface->wiphy), ==, 6);
	g_assert_cmpuint(wifi_ap_channel_freq(f->iface->wiphy, 12, &why), ==, 0);
	g_assert_cmpstr(why, ==, "disabled");
	g_array_index(f->iface->wiphy->channels, WifiChannel, 5).disabled = TRUE; /* 6 */
	g_array_index(f->iface->wiphy->channels, WifiChannel, 10).no_ir = TRUE;   /* 11 */
	g_assert_cmpuint(wifi_ap_choose_channel(bsses, f->iface->wiphy), ==, 1);
	g_array_index(f->iface->wiphy->channels, WifiChannel, 0).radar = TRUE; /* 1 */
	g_assert_cmpuint(wifi_ap_choose_channel(bsses, f->iface->wiphy), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, set_up, fn, tear_down)
	ADD("/ap/wpa2-join", test_wpa2_join);
	ADD("/ap/mfp-and-rekey", test_mfp_and_rekey);
	ADD("/ap/refusals", test_refusals);
	ADD("/ap/hidden-probes", test_hidden_probes);
	ADD("/ap/config-refused", test_config_refused);
	ADD("/ap/start-refused-and-stop", test_start_refused_and_stop);
	ADD("/ap/restart-psk", test_restart_psk);
	ADD("/ap/channel-from-scan", test_channel_from_scan);
	ADD("/ap/station-table", test_station_table);
	ADD("/ap/msg1-after-ack", test_msg1_after_ack);
	ADD("/ap/msg1-status-first", test_msg1_status_first);
	ADD("/ap/choose-channel", test_choose_channel);
	return g_test_run();
}
