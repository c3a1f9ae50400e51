/* test-connect-netlink.c - the connector when nl80211 misbehaves, through
 * the fake nl80211 with its real request timeout: a reply that comes late,
 * one that never comes, a scan whose end event is dropped while a
 * connection waits for it, and events lost (ENOBUFS) while connected whose
 * check's own reply is lost too. Each time joind goes on without a
 * restart: the next connection on the same connector joins. */
#include "connect-keys.h"
#include "log-capture.h"
#include "test-loop.h"

/* The same connector joins again: joind needed no restart. */
static void
joins_again(Fixture *f, WifiNetwork *network)
{
	f->n_done = 0;
	g_string_truncate(f->events, 0);
	join_open(f, network, TRUE);
	assert_connected(f, network);
}

/* The kernel acknowledges the authentication request a second and a half
 * late (its bound is 5 s): the connection goes on. */
static void
test_slow_reply(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	test_loop_run_for(1500);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	g_assert_cmpuint(f->n_done, ==, 0);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	assert_connected(f, network);
}

/* The authentication request is never answered (lost in an overrun): the
 * request times out, the call fails with a sentence, nothing stays
 * associated, and the next Connect() joins. */
static void
test_vanished_reply(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	log_capture_reset();
	log_capture_allow_warning("nl80211: * got no answer *");
	connect_to(f, network);
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	test_loop_run_until(&f->n_done, 1, 10000);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_test_message("the call failed: %s", f->error->message);
	g_assert_cmpuint(log_capture_count("WARNING: nl80211: * got no answer *"), ==, 1);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	/* Whatever the kernel may have half done is let go. */
	fake_nl_done_all(f->fake, NL80211_CMD_DEAUTHENTICATE, 0);
	iterate();
	joins_again(f, network);
}

static void
scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	(*(guint *)user_data)++;
}

/* Connect() during a scan whose end event is dropped: the scanner's bound
 * (one second and a quarter per frequency) gives the scan up and the
 * waiting connection goes on. */
static void
test_dropped_scan_end(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	guint n_scans = 0;

	log_capture_reset();
	log_capture_allow_warning("wlan0: no answer from the kernel within *");
	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "test", NULL, scan_done, &n_scans);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	iterate();
	connect_to(f, network);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	/* NEW_SCAN_RESULTS never comes. */
	test_loop_run_until(&n_scans, 1, 5000);
	g_assert_cmpuint(log_capture_count("WARNING: wlan0: no answer from the kernel within *"),
	                 ==, 1);
	iterate();
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	assert_connected(f, network);
}

static void
on_events_lost(gpointer user_data)
{
	wifi_connector_resync(((Fixture *)user_data)->connector);
}

/* Events are lost while connected (ENOBUFS): the connector asks the kernel
 * whether the link is still up, and that question's answer is lost too;
 * it stays connected. The next loss is answered: the link went down while
 * nobody heard; the connector says so and the next Connect() joins. */
static void
test_enobufs(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	FakeNlRequest *req;

	log_capture_reset();
	log_capture_allow_warning("nl80211: * got no answer *");
	/* The station's part: the manager hands the loss on to it. */
	wifi_nl_add_resync_listener(f->nl, on_events_lost, f);
	join_open(f, network, TRUE);
	assert_connected(f, network);

	wifi_nl_events_lost(f->nl, "event");
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_GET_INTERFACE));
	test_loop_run_for(6500); /* the question's bound: 5 s, on a whole-second timer */
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_GET_INTERFACE));
	g_assert_cmpuint(log_capture_count("WARNING: nl80211: * got no answer *"), ==, 1);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);

	wifi_nl_events_lost(f->nl, "event");
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_INTERFACE);
	fake_nl_reply(f->fake, req, event_new(NL80211_CMD_NEW_INTERFACE));
	fake_nl_done(f->fake, req, 0);
	iterate();
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_cmpuint(wifi_nl_get_n_overruns(f->nl), ==, 2);
	joins_again(f, network);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
	CONNECT_TEST_ADD("/connect/netlink/slow-reply", &sme, test_slow_reply);
	CONNECT_TEST_ADD("/connect/netlink/vanished-reply", &sme, test_vanished_reply);
	CONNECT_TEST_ADD("/connect/netlink/dropped-scan-end", &sme, test_dropped_scan_end);
	CONNECT_TEST_ADD("/connect/netlink/enobufs", &sme, test_enobufs);
	return g_test_run();
}
