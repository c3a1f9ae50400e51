/* test-autoconnect-fake.c - the autoconnect state machine against a fake
 * connector: the test plays the connector (WifiAutoconnectConnectorOps),
 * answering each connect with success or with the event and error a real
 * one would give, so that autoconnect's decisions are tested without
 * playing a link through nl80211 (test-autoconnect.c does that, end to
 * end). The networks are put in the station as a scan would leave them;
 * the scans autoconnect starts on the fake nl80211 end with that same
 * picture (the test answers them empty and keeps its networks). */
#include <string.h>

#include "autoconnect-timings.h"
#include "autoconnect.h"
#include "station-bed.h"
#include "device.h"
#include "fake-bss.h"
#include "fake-nl.h"
#include "profile-keys.h"
#include "settings.h"
#include "test-core.h"

#define IFINDEX STATION_BED_IFINDEX

/* One connect_bss() the fake connector was asked for. */
typedef struct {
	WifiNetwork *network;
	WifiBss *bss;
	GTask *task;
	GTask *joined; /* a take_over() of the same attempt */
} FakeCall;

typedef struct {
	StationBed bed; /* core, fake nl80211, wlan0, its device and station */
	WifiScanner *scanner;
	WifiAutoconnect *ac;
	/* The fake connector. */
	GPtrArray *calls; /* FakeCall *, in the order asked */
	guint take_overs;
	WifiConnectObserver observer;
	gpointer observer_data;
	gboolean user_done;
	gboolean user_ok;
} Fixture;

static void
fake_call_free(gpointer data)
{
	FakeCall *call = data;

	g_object_unref(call->network);
	wifi_bss_unref(call->bss);
	g_clear_object(&call->task);
	g_clear_object(&call->joined);
	g_free(call);
}

/* ---- the fake connector ---------------------------------------------------- */

static void
fake_connect_bss(gpointer connector, WifiNetwork *network, WifiBss *bss, GCancellable *cancellable,
                 GAsyncReadyCallback callback, gpointer user_data)
{
	Fixture *f = connector;
	FakeCall *call = g_new0(FakeCall, 1);

	call->network = g_object_ref(network);
	call->bss = wifi_bss_ref(
	        bss != NULL ? bss : g_ptr_array_index(wifi_network_get_bsses(network), 0));
	call->task = g_task_new(network, cancellable, callback, user_data);
	g_ptr_array_add(f->calls, call);
}

static gboolean
fake_take_over(gpointer connector, WifiNetwork *network, GCancellable *cancellable,
               GAsyncReadyCallback callback, gpointer user_data)
{
	Fixture *f = connector;
	FakeCall *last = f->calls->len > 0 ? g_ptr_array_index(f->calls, f->calls->len - 1) : NULL;

	if (last == NULL || last->network != network || last->task == NULL)
		return FALSE;
	f->take_overs++;
	last->joined = g_task_new(network, cancellable, callback, user_data);
	return TRUE;
}

static void
fake_disconnect(gpointer connector, GCancellable *cancellable, GAsyncReadyCallback callback,
                gpointer user_data)
{
	Fixture *f = connector;
	g_autoptr(GTask) task = g_task_new(f->bed.station, cancellable, callback, user_data);

	joind_station_set_connected_network(f->bed.station, NULL);
	joind_station_set_state(f->bed.station, JOIND_STATION_STATE_DISCONNECTED,
	                        "fake disconnect");
	g_task_return_boolean(task, TRUE);
}

static void
fake_add_observer(gpointer connector, WifiConnectObserver func, gpointer user_data)
{
	Fixture *f = connector;

	g_assert_null(f->observer);
	f->observer = func;
	f->observer_data = user_data;
}

static void
fake_remove_observer(gpointer connector, WifiConnectObserver func, gconstpointer user_data)
{
	Fixture *f = connector;

	g_assert_true(f->observer == func && f->observer_data == user_data);
	f->observer = NULL;
}

static const WifiAutoconnectConnectorOps fake_ops = {
        .connect_bss = fake_connect_bss,
        .take_over = fake_take_over,
        .disconnect = fake_disconnect,
        .add_observer = fake_add_observer,
        .remove_observer = fake_remove_observer,
};

/* ---- what the test answers as the connector ------------------------------- */

static FakeCall *
last_call(Fixture *f)
{
	g_assert_cmpuint(f->calls->len, >, 0);
	return g_ptr_array_index(f->calls, f->calls->len - 1);
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

/* The attempt asked for last comes up, as the real connector's does:
 * the event first, then the caller's answer. */
static void
connector_succeeds(Fixture *f)
{
	FakeCall *call = last_call(f);

	joind_station_set_connected_network(f->bed.station, JOIND_NETWORK(call->network));
	joind_station_set_state(f->bed.station, JOIND_STATION_STATE_CONNECTED, "fake");
	f->observer(WIFI_CONNECT_EVENT_CONNECTED, call->network, call->bss, f->observer_data);
	g_task_return_boolean(call->task, TRUE);
	g_clear_object(&call->task);
	if (call->joined != NULL)
		g_task_return_boolean(call->joined, TRUE);
	g_clear_object(&call->joined);
	iterate();
}

static void
connector_fails(Fixture *f, WifiConnectEvent event, const gchar *message)
{
	FakeCall *call = last_call(f);

	f->observer(event, call->network, call->bss, f->observer_data);
	joind_station_set_state(f->bed.station, JOIND_STATION_STATE_DISCONNECTED, message);
	g_task_return_new_error(call->task, JOIND_ERROR, JOIND_ERROR_FAILED, "%s", message);
	g_clear_object(&call->task);
	iterate();
}

static void
connector_link_lost(Fixture *f)
{
	FakeCall *call = last_call(f);

	f->observer(WIFI_CONNECT_EVENT_LINK_LOST, call->network, call->bss, f->observer_data);
	joind_station_set_connected_network(f->bed.station, NULL);
	joind_station_set_state(f->bed.station, JOIND_STATION_STATE_DISCONNECTED, "link lost");
	iterate();
}

static gboolean
guard_fire(gpointer user_data)
{
	*(gboolean *)user_data = TRUE;
	return G_SOURCE_REMOVE;
}

/* Runs the main loop until the connector was asked n times in all, at
 * most ms, answering the scans on the way; TRUE when it was. */
static gboolean
wait_calls(Fixture *f, guint n, guint ms)
{
	gboolean fired = FALSE;
	guint source = g_timeout_add(ms, guard_fire, &fired);

	while (f->calls->len < n && !fired) {
		if (fake_nl_find(f->bed.fake, NL80211_CMD_TRIGGER_SCAN) != NULL)
			fake_bss_complete_scan(f->bed.fake, f->bed.nl, NULL, 0);
		g_main_context_iteration(NULL, TRUE);
	}
	if (!fired)
		g_source_remove(source);
	return f->calls->len >= n;
}

/* ---- the station's part: networks as a scan leaves them ------------------- */

static WifiBss *
make_bss(const gchar *ssid, guint8 last, guint32 freq, gint dbm)
{
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x00, last};
	g_autoptr(GByteArray) ies = g_byte_array_new();
	guint8 head[2] = {0, (guint8)strlen(ssid)};
	g_autoptr(GError) error = NULL;
	WifiBss *bss;

	g_byte_array_append(ies, head, sizeof(head));
	g_byte_array_append(ies, (const guint8 *)ssid, strlen(ssid));
	bss = wifi_bss_new(bssid, freq, dbm * 100, WIFI_CAPABILITY_ESS, ies->data, ies->len,
	                   &error);
	g_assert_no_error(error);
	return bss;
}

/* An open network on the air with its BSSes (the first the strongest),
 * its profile matched as station.c does. */
static void
network_on_air(Fixture *f, const gchar *ssid, guint8 first, guint n, gint dbm)
{
	g_autoptr(GBytes) bytes = g_bytes_new(ssid, strlen(ssid));
	g_autoptr(WifiNetwork) network = wifi_network_new(bytes, JOIND_NETWORK_TYPE_OPEN);
	g_autoptr(GPtrArray) bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(JoindProfile) profile = joind_core_find_network_profile(
	        f->bed.tc->core, (const guint8 *)ssid, strlen(ssid), JOIND_PROFILE_TYPE_OPEN);

	for (guint i = 0; i < n; i++)
		g_ptr_array_add(bsses,
		                make_bss(ssid, first + i, 2412 + 25 * i, dbm - 10 * (gint)i));
	wifi_network_set_bsses(network, bsses);
	joind_network_set_profile(JOIND_NETWORK(network), profile);
	wifi_network_update_rank(network);
	joind_station_add_network(f->bed.station, JOIND_NETWORK(network));
}

static const gchar *
call_ssid(const FakeCall *call)
{
	return joind_network_get_name(JOIND_NETWORK(call->network));
}

/* ---- fixture ---------------------------------------------------------------- */

/* A scan ended: the networks stay what the test put in the station. */
static void
scan_results(GPtrArray *bsses, const GArray *freqs, gboolean authoritative, gpointer user_data)
{
	Fixture *f = user_data;

	wifi_autoconnect_scan_results(f->ac);
}

static void
scanning(gboolean on, gpointer user_data)
{
}

static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	Fixture *f = user_data;

	if (cmd == NL80211_CMD_NEW_SCAN_RESULTS || cmd == NL80211_CMD_TRIGGER_SCAN)
		wifi_scanner_handle_event(f->scanner, cmd, attrs);
}

static WifiScanParams *
full_scan_params(gpointer user_data)
{
	return wifi_scan_params_new();
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	g_autoptr(GError) error = NULL;
	WifiAutoconnectSetup setup = {0};

	station_bed_init(&f->bed, wiphy, on_event, f);
	f->scanner = wifi_scanner_new(f->bed.iface, scan_results, scanning, f);
	f->calls = g_ptr_array_new_with_free_func(fake_call_free);
	setup.core = f->bed.tc->core;
	setup.station = f->bed.station;
	setup.connector = f;
	setup.connector_ops = &fake_ops;
	setup.scanner = f->scanner;
	setup.iface = f->bed.iface;
	setup.full_scan_params = full_scan_params;
	setup.timings = &test_timings;
	f->ac = wifi_autoconnect_new(&setup);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	wifi_autoconnect_free(f->ac);
	g_assert_null(f->observer);
	/* Attempts left unanswered end as the connector's teardown ends them. */
	for (guint i = 0; i < f->calls->len; i++) {
		FakeCall *call = g_ptr_array_index(f->calls, i);

		if (call->task != NULL)
			g_task_return_new_error(call->task, JOIND_ERROR, JOIND_ERROR_ABORTED,
			                        "test over");
		g_clear_object(&call->task);
	}
	iterate();
	g_ptr_array_unref(f->calls);
	wifi_scanner_free(f->scanner);
	station_bed_clear(&f->bed);
}

static void
start_with(Fixture *f)
{
	wifi_autoconnect_start(f->ac, "test");
	wifi_autoconnect_scan_results(f->ac);
	iterate();
}

/* ---- the tests -------------------------------------------------------------- */

/* The known network is asked for, via its strongest access point; an
 * unknown stronger one is not. */
static void
test_joins_known(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	network_on_air(f, "cafe", 0x21, 1, -30);
	network_on_air(f, "home", 0x01, 2, -60);
	start_with(f);
	g_assert_cmpuint(f->calls->len, ==, 1);
	g_assert_cmpstr(call_ssid(last_call(f)), ==, "home");
	g_assert_cmpuint(last_call(f)->bss->bssid[5], ==, 0x01);
	connector_succeeds(f);
	g_assert_false(wifi_autoconnect_is_retrying(f->ac));
	g_assert_cmpuint(f->calls->len, ==, 1);
}

/* An access point that refused is avoided: after the retry wait the same
 * network is asked for via its other, weaker access point. */
static void
test_refused_bss_avoided(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	network_on_air(f, "home", 0x01, 2, -60);
	start_with(f);
	connector_fails(f, WIFI_CONNECT_EVENT_REFUSED, "refused (status 17)");
	g_assert_true(wait_calls(f, 2, 2000));
	g_assert_cmpstr(call_ssid(last_call(f)), ==, "home");
	g_assert_cmpuint(last_call(f)->bss->bssid[5], ==, 0x02);
}

/* A wrong passphrase blocks the network: no try within the block, a
 * profile change lifts it at once. */
static void
test_wrong_passphrase_blocks(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	network_on_air(f, "home", 0x01, 1, -60);
	start_with(f);
	connector_fails(f, WIFI_CONNECT_EVENT_WRONG_PASSPHRASE, "MIC failure");
	g_assert_false(wait_calls(f, 2, test_timings.retry_max_ms + 100));
	test_core_add_profile(f->bed.tc, "home.open", "[Settings]\nAutoConnect=true\n");
	wifi_autoconnect_scan_results(f->ac);
	g_assert_true(wait_calls(f, 2, 2000));
	g_assert_cmpstr(call_ssid(last_call(f)), ==, "home");
}

/* A lost link is retried on its own: autoconnect says it is retrying
 * (the station holds its full scans) and scans the network's frequency
 * at once, not the whole band. */
static void
test_link_lost_retried(Fixture *f, gconstpointer data)
{
	FakeNlRequest *scan;

	test_core_add_profile(f->bed.tc, "home.open", "");
	network_on_air(f, "home", 0x01, 1, -60);
	start_with(f);
	connector_succeeds(f);
	joind_core_note_connected(f->bed.tc->core, (const guint8 *)"home", 4,
	                          JOIND_PROFILE_TYPE_OPEN, 2412);
	connector_link_lost(f);
	g_assert_true(wifi_autoconnect_is_retrying(f->ac));
	scan = fake_nl_find(f->bed.fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_nonnull(scan);
	g_assert_nonnull(scan->attrs[NL80211_ATTR_SCAN_FREQUENCIES]);
}

static void
user_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->user_ok = g_task_propagate_boolean(G_TASK(result), NULL);
	f->user_done = TRUE;
}

/* A user's Connect() of the network autoconnect is joining takes that
 * attempt over: no second attempt, and the user hears its outcome. */
static void
test_user_takes_over(Fixture *f, gconstpointer data)
{
	FakeCall *call;

	test_core_add_profile(f->bed.tc, "home.open", "");
	network_on_air(f, "home", 0x01, 1, -60);
	start_with(f);
	call = last_call(f);
	joind_station_set_target_network(f->bed.station, JOIND_NETWORK(call->network));
	joind_station_set_state(f->bed.station, JOIND_STATION_STATE_CONNECTING, "fake");
	wifi_autoconnect_user_connect(f->ac, call->network, NULL, user_done, f);
	g_assert_cmpuint(f->take_overs, ==, 1);
	g_assert_cmpuint(f->calls->len, ==, 1);
	connector_succeeds(f);
	g_assert_true(f->user_done);
	g_assert_true(f->user_ok);
}

/* After a user's Disconnect() autoconnect stays off: a lost link and new
 * scan results bring no attempt. */
static void
test_user_disconnect_stays_off(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	network_on_air(f, "home", 0x01, 1, -60);
	start_with(f);
	connector_succeeds(f);
	wifi_autoconnect_user_disconnect(f->ac);
	connector_link_lost(f);
	wifi_autoconnect_scan_results(f->ac);
	g_assert_false(wait_calls(f, 2, test_timings.retry_max_ms + 100));
	g_assert_false(wifi_autoconnect_is_retrying(f->ac));
}

#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	ADD("/autoconnect-fake/joins-known", test_joins_known);
	ADD("/autoconnect-fake/refused-bss-avoided", test_refused_bss_avoided);
	ADD("/autoconnect-fake/wrong-passphrase-blocks", test_wrong_passphrase_blocks);
	ADD("/autoconnect-fake/link-lost-retried", test_link_lost_retried);
	ADD("/autoconnect-fake/user-takes-over", test_user_takes_over);
	ADD("/autoconnect-fake/user-disconnect-stays-off", test_user_disconnect_stays_off);
	return g_test_run();
}
