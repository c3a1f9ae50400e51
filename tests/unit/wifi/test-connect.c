/* test-connect.c - the connector's state machine driven through a fake
 * nl80211 (connect-fixture.h): open networks on joind's SME and the
 * kernel's, refusals, timeouts, teardowns and aborts. The keyed connections
 * are in test-connect-psk.c, -eap.c, -wpa3.c and -transition.c. */
#include "connect-keys.h"
#include "fake-bss.h"

static void
test_open_sme(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	g_autoptr(JoindProfile) saved = NULL;

	join_open(f, network, TRUE);
	assert_connected(f, network);
	g_assert_null(wifi_connector_get_rsn_plan(f->connector));
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONNECT), ==, 0);
	/* Like iwd: an open network once joined is known. */
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"cafe", 4,
	                                        JOIND_PROFILE_TYPE_OPEN);
	g_assert_nonnull(saved);
	/* The CONNECT event cfg80211 sends after the association is not ours. */
	send_connect_event(f, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

static void
test_open_connect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	gint64 started, up;

	join_open(f, network, FALSE);
	assert_connected(f, network);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_AUTHENTICATE), ==, 0);
	wifi_connector_get_times(f->connector, &started, &up);
	g_assert_cmpint(started, >, 0);
	g_assert_cmpint(up, >, 0);
}

static void
test_auth_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	/* Another BSS's answer is not ours. */
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	g_assert_cmpuint(f->n_done, ==, 0);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 17);
	assert_failed(f, JOIND_ERROR_FAILED, "refused the authentication (access point full)", "R");
}

static void
test_assoc_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 43);
	assert_failed(f, JOIND_ERROR_FAILED, "refused the association (invalid AKM)", "R");
}

/* No answer: the network's other access point is tried within the same
 * call; when it is silent too, the call fails. */
static void
test_auth_timed_out(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_timed_out(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	g_assert_cmpuint(f->n_done, ==, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_timed_out(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	assert_failed(f, JOIND_ERROR_FAILED, "did not answer (authentication)", "N");
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_AUTHENTICATE), ==, 2);
}

/* The first access point went away since the scan: the second one of the
 * network joins the same Connect(). */
static void
test_next_bss(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	authenticate(f, ap_addr);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	authenticate(f, ap2_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 0);
	assert_connected(f, network);
	g_assert_cmpmem(wifi_connector_get_connected_bss(f->connector)->bssid, 6, ap2_addr, 6);
}

static void
test_connect_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_CONNECT, ap_addr);
	send_connect_event(f, 17);
	assert_failed(f, JOIND_ERROR_FAILED, "refused the association (access point full)", "R");
}

static void
test_kernel_refuses(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_CONNECT), -EINVAL);
	iterate();
	assert_failed(f, JOIND_ERROR_FAILED, "The kernel refused to connect", "F");
}

/* cfg80211 authenticates only to a BSS in its scan table: the kernel's
 * SME takes over. */
static void
test_sme_unknown_bss(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE), -ENOENT);
	iterate();
	ack(f, NL80211_CMD_CONNECT, ap_addr);
	/* A DISCONNECT event before the association is an earlier link's. */
	send_disconnect_event(f, 3);
	send_connect_event(f, 0);
	assert_connected(f, network);
}

/* A second Connect() during the first's authentication: the first is
 * Aborted, joind's SME deauthenticates (our own DEAUTHENTICATE event ends
 * it) and the second starts without passing through "disconnected". */
static void
test_second_connect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) first = make_network(f, "cafe", NULL, NULL);
	g_autoptr(WifiNetwork) second = make_network(f, "bar", NULL, NULL);
	g_autoptr(GError) first_error = NULL;

	connect_to(f, first);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	connect_to(f, second);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	first_error = g_steal_pointer(&f->error);
	f->n_done = 0;
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	send_deauth_event(f, FALSE, 3);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_string_truncate(f->events, 0);
	g_string_append_c(f->events, 'C');
	assert_connected(f, second);
	g_assert_false(network_connected(first));
}

static void
test_disconnect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, FALSE);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTING);
	/* A second call waits for the same teardown. */
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	ack(f, NL80211_CMD_DISCONNECT, NULL);
	g_assert_cmpuint(f->n_done, ==, 1);
	send_disconnect_event(f, 3);
	g_assert_cmpuint(f->n_done, ==, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_false(network_connected(network));
	/* Disconnected already: answered at once. */
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 4);
}

static void
scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_assert_true(wifi_scanner_scan_finish(NULL, result, NULL));
	(*(guint *)user_data)++;
}

/* A scan of ours is under way (triggered, not yet ended). */
static void
start_scan(Fixture *f, guint *n_scans)
{
	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "test", NULL, scan_done, n_scans);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	iterate();
}

/* The scan under way ends and its results are read. */
static void
end_scan(Fixture *f)
{
	fake_nl_event(f->nl, fake_nl_iface_event_new(NL80211_CMD_NEW_SCAN_RESULTS, 7));
	iterate();
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), NULL, 0);
	iterate();
}

/* Connect() during a scan: the attempt is shown connecting, and its first
 * frame waits for the scan's end (mac80211 would cut the scan short and
 * lose the table); a scan asked for during the attempt waits for the
 * link. */
static void
test_waits_for_scan(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	guint n_scans = 0;

	start_scan(f, &n_scans);
	connect_to(f, network);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	g_assert_true(joind_station_get_target_network(f->station) == JOIND_NETWORK(network));
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	end_scan(f);
	g_assert_cmpuint(n_scans, ==, 1);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "test", NULL, scan_done, &n_scans);
	iterate();
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	assert_connected(f, network);
	fake_bss_complete_scan(f->fake, f->nl, NULL, 0);
	iterate();
	g_assert_cmpuint(n_scans, ==, 2);
}

/* Disconnect() while the attempt waits: both calls are answered at once,
 * and no frame is sent when the scan ends. */
static void
test_waiting_disconnect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	guint n_scans = 0;

	start_scan(f, &n_scans);
	connect_to(f, network);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 2);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_null(joind_station_get_target_network(f->station));
	end_scan(f);
	g_assert_cmpuint(n_scans, ==, 1);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
}

/* No event after the teardown command: its timer ends it. */
static void
test_teardown_without_event(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, TRUE);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	while (f->n_done < 2)
		g_main_context_iteration(NULL, TRUE);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* The kernel says the link was not up: no event follows. */
static void
test_teardown_not_connected(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, FALSE);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_DISCONNECT), -ENOTCONN);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 2);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* The access point deauthenticates us: the link is lost at once, and the
 * DISCONNECT event that follows finds nothing to end. */
static void
test_link_lost(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, TRUE);
	send_deauth_event(f, TRUE, 7);
	g_assert_cmpstr(f->events->str, ==, "CL");
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	send_disconnect_event(f, 7);
	g_assert_cmpstr(f->events->str, ==, "CL");
	join_open(f, network, TRUE);
	send_disconnect_event(f, 4);
	g_assert_cmpstr(f->events->str, ==, "CLCL");
}

/* A second observer that takes itself off as it hears a lost link. */
static void
on_event_once_lost(WifiConnectEvent event, WifiNetwork *network, const WifiBss *bss,
                   gpointer user_data)
{
	Fixture *f = user_data;

	g_string_append_c(f->events, event == WIFI_CONNECT_EVENT_LINK_LOST ? 'l' : 'c');
	if (event == WIFI_CONNECT_EVENT_LINK_LOST)
		wifi_connector_remove_observer(f->connector, on_event_once_lost, f);
}

/* Every observer hears every event, in the order they were added (the
 * fixture's first); one removed, even while it hears, hears no more. */
static void
test_observers(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	wifi_connector_add_observer(f->connector, on_event_once_lost, f);
	join_open(f, network, TRUE);
	g_assert_cmpstr(f->events->str, ==, "Cc");
	send_deauth_event(f, TRUE, 7);
	g_assert_cmpstr(f->events->str, ==, "CcLl");
	join_open(f, network, TRUE);
	send_disconnect_event(f, 4);
	g_assert_cmpstr(f->events->str, ==, "CcLlCL");
}

/* The interface goes away in the middle of a connect. */
static void
test_interface_removed(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	wifi_connector_free(g_steal_pointer(&f->connector));
	iterate();
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	f->connector =
	        wifi_connector_new(f->tc->core, f->station, f->iface, f->scanner, f->pmksa_cache);
}

/* Events were lost: the kernel is asked whether the link is still up. */
static void
test_resync(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	FakeNlRequest *req;
	struct nl_msg *reply;

	join_open(f, network, TRUE);
	wifi_connector_resync(f->connector);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_INTERFACE);
	reply = event_new(NL80211_CMD_NEW_INTERFACE);
	nla_put(reply, NL80211_ATTR_SSID, 4, "cafe");
	fake_nl_reply(f->fake, req, reply);
	fake_nl_done(f->fake, req, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	wifi_connector_resync(f->connector);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_INTERFACE);
	fake_nl_reply(f->fake, req, event_new(NL80211_CMD_NEW_INTERFACE));
	fake_nl_done(f->fake, req, 0);
	iterate();
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_cmpstr(f->events->str, ==, "CL");
	/* Not associated: nothing to ask. */
	wifi_connector_resync(f->connector);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_GET_INTERFACE));
}

static void
test_refusals(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) no_secret = make_network(f, "home", RSNE_PSK, NULL);
	g_autoptr(GBytes) corp = g_bytes_new_static("corp", 4);
	g_autoptr(WifiNetwork) enterprise = wifi_network_new(corp, JOIND_NETWORK_TYPE_8021X);
	g_autoptr(GBytes) ssid = g_bytes_new_static("gone", 4);
	g_autoptr(WifiNetwork) gone = wifi_network_new(ssid, JOIND_NETWORK_TYPE_OPEN);

	assert_refused_at_once(f, no_secret, JOIND_ERROR_NO_AGENT);
	wifi_network_set_bsses(enterprise, wifi_network_get_bsses(no_secret));
	assert_refused_at_once(f, enterprise, JOIND_ERROR_NOT_FOUND);
	assert_refused_at_once(f, gone, JOIND_ERROR_NOT_FOUND);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	CONNECT_TEST_ADD("/connect/open/sme", &sme, test_open_sme);
	CONNECT_TEST_ADD("/connect/open/kernel-sme", &kernel_sme, test_open_connect);
	CONNECT_TEST_ADD("/connect/refused/authentication", &sme, test_auth_refused);
	CONNECT_TEST_ADD("/connect/refused/association", &sme, test_assoc_refused);
	CONNECT_TEST_ADD("/connect/refused/connect", &kernel_sme, test_connect_refused);
	CONNECT_TEST_ADD("/connect/refused/kernel", &kernel_sme, test_kernel_refuses);
	CONNECT_TEST_ADD("/connect/refused/at-once", &sme, test_refusals);
	CONNECT_TEST_ADD("/connect/timed-out/authentication", &sme, test_auth_timed_out);
	CONNECT_TEST_ADD("/connect/timed-out/next-access-point", &sme, test_next_bss);
	CONNECT_TEST_ADD("/connect/sme/unknown-bss", &sme, test_sme_unknown_bss);
	CONNECT_TEST_ADD("/connect/second-connect-aborts-first", &sme, test_second_connect);
	CONNECT_TEST_ADD("/connect/disconnect", &kernel_sme, test_disconnect);
	CONNECT_TEST_ADD("/connect/disconnect/no-event", &sme, test_teardown_without_event);
	CONNECT_TEST_ADD("/connect/waits-for-scan", &sme, test_waits_for_scan);
	CONNECT_TEST_ADD("/connect/waits-for-scan/disconnect", &sme, test_waiting_disconnect);
	CONNECT_TEST_ADD("/connect/disconnect/not-connected", &kernel_sme,
	                 test_teardown_not_connected);
	CONNECT_TEST_ADD("/connect/link-lost", &sme, test_link_lost);
	CONNECT_TEST_ADD("/connect/observers", &sme, test_observers);
	CONNECT_TEST_ADD("/connect/interface-removed", &sme, test_interface_removed);
	CONNECT_TEST_ADD("/connect/resync", &sme, test_resync);
	return g_test_run();
}
