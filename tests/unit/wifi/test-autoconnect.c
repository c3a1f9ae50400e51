/* test-autoconnect.c - the autoconnect state machine driven with a real
 * connector and scanner through a fake nl80211 and a real core.
 *
 * The test is the kernel: it answers the scans with the access points "on
 * the air" on the frequencies a scan covers, and answers CMD_CONNECT with
 * CONNECT events. The station is a plain JoindStation with a few lines of
 * glue standing in for station.c: its networks are what the last scan found.
 * Open networks, but for the passphrase tests: there the test is the
 * access point's authenticator too (tests/unit/wifi-handshake). The
 * waits are scaled down (test_timings) so that the whole runs in a few
 * seconds.
 */
#include <string.h>

#include "autoconnect-timings.h"
#include "autoconnect.h"
#include "station-bed.h"
#include "device.h"
#include "fake-nl.h"
#include "hs-test-util.h"
#include "psk-secret.h"
#include "test-authenticator.h"
#include "settings.h"
#include "test-core.h"
#include "profile-keys.h"

#define IFINDEX STATION_BED_IFINDEX

typedef struct {
	const gchar *ssid;
	guint8 id; /* last octet of the BSSID */
	guint32 freq;
	gint dbm;
	gboolean psk; /* WPA2-PSK, else open */
} TestAp;

static const TestAp ap_home = {"home", 0x01, 2437, -60};
static const TestAp ap_home2 = {"home", 0x02, 2462, -75};
static const TestAp ap_home_5g = {"home", 0x03, 5180, -60};
static const TestAp ap_work = {"work", 0x11, 2412, -45};
static const TestAp ap_cafe = {"cafe", 0x21, 2412, -35};
static const TestAp ap_street = {"street", 0x31, 2462, -30};
static const TestAp ap_flat = {"flat", 0x41, 2412, -50, TRUE};
static const TestAp ap_flat2 = {"flat", 0x42, 2437, -70, TRUE};

#define RSNE_PSK   "30 14 0100 000fac04 0100 000fac04 0100 000fac02 0000"
#define STA_ADDR   "02:00:00:00:05:01"
#define PASSPHRASE "correct horse battery"

typedef struct {
	StationBed bed; /* core, fake nl80211, wlan0, its device and station */
	WifiScanner *scanner;
	WifiPmksaCache *pmksa_cache;
	WifiConnector *connector;
	WifiAutoconnect *ac;
	GPtrArray *air; /* const TestAp *: what the scans find */
	gboolean done;
	GError *error;
} Fixture;

/* ---- the station's part (station.c in joind) ------------------------------ */

static void
glue_set_profile(Fixture *f, JoindNetwork *network)
{
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(network), &len);
	JoindProfileType type;
	g_autoptr(JoindProfile) profile = NULL;

	g_assert_true(
	        joind_network_type_to_profile_type(joind_network_get_network_type(network), &type));
	profile = joind_core_find_network_profile(f->bed.tc->core, ssid, len, type);
	joind_network_set_profile(network, profile);
	wifi_network_update_rank(WIFI_NETWORK(network));
}

/* The networks become what the scan found. */
static void
glue_scan_results(GPtrArray *bsses, const GArray *freqs, gboolean authoritative, gpointer user_data)
{
	Fixture *f = user_data;
	g_autoptr(GHashTable) groups = wifi_group_bsses(bsses);
	g_autoptr(GPtrArray) old = joind_station_get_networks(f->bed.station);
	GHashTableIter iter;
	GPtrArray *group;

	for (guint i = 0; i < old->len; i++)
		joind_station_remove_network(f->bed.station, g_ptr_array_index(old, i));
	g_hash_table_iter_init(&iter, groups);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&group)) {
		WifiBss *first = g_ptr_array_index(group, 0);
		g_autoptr(GBytes) ssid = g_bytes_new(first->ies.ssid, first->ies.ssid_len);
		g_autoptr(WifiNetwork) network = wifi_network_new(ssid, first->type);

		wifi_network_set_bsses(network, group);
		glue_set_profile(f, JOIND_NETWORK(network));
		joind_station_add_network(f->bed.station, JOIND_NETWORK(network));
	}
	wifi_autoconnect_scan_results(f->ac);
}

static void
glue_profile_changed(JoindCore *core, JoindProfile *profile, gint change, gpointer user_data)
{
	Fixture *f = user_data;
	g_autoptr(GPtrArray) networks = joind_station_get_networks(f->bed.station);

	for (guint i = 0; i < networks->len; i++)
		glue_set_profile(f, g_ptr_array_index(networks, i));
	wifi_autoconnect_profile_changed(f->ac, profile, change);
}

static void
glue_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	Fixture *f = user_data;

	if (cmd == NL80211_CMD_NEW_SCAN_RESULTS || cmd == NL80211_CMD_TRIGGER_SCAN)
		wifi_scanner_handle_event(f->scanner, cmd, attrs);
	else if (cmd == NL80211_CMD_NOTIFY_CQM)
		wifi_autoconnect_handle_event(f->ac, cmd, attrs);
	else
		wifi_connector_handle_event(f->connector, cmd, attrs);
}

static void
glue_scanning(gboolean scanning, gpointer user_data)
{
	joind_station_set_scanning(((Fixture *)user_data)->bed.station, scanning);
}

static WifiScanParams *
glue_full_scan_params(gpointer user_data)
{
	return wifi_scan_params_new();
}

static WifiAutoconnect *
autoconnect_new(Fixture *f, const WifiAutoconnectTimings *timings)
{
	WifiAutoconnectSetup setup = {0};

	setup.core = f->bed.tc->core;
	setup.station = f->bed.station;
	setup.connector = f->connector;
	setup.scanner = f->scanner;
	setup.iface = f->bed.iface;
	setup.full_scan_params = glue_full_scan_params;
	setup.timings = timings;
	return wifi_autoconnect_new(&setup);
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	g_autoptr(GError) error = NULL;

	wiphy->max_scan_ssids = 4;
	wiphy->supports_connect = TRUE;
	wiphy->ext_features[NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211 / 8] |=
	        1u << (NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211 % 8);
	station_bed_init(&f->bed, wiphy, glue_event, f);
	joind_device_set_address(f->bed.device, STA_ADDR);
	f->pmksa_cache = wifi_pmksa_cache_new();
	f->scanner = wifi_scanner_new(f->bed.iface, glue_scan_results, glue_scanning, f);
	f->connector = wifi_connector_new(f->bed.tc->core, f->bed.station, f->bed.iface, f->scanner,
	                                  f->pmksa_cache);
	f->ac = autoconnect_new(f, &test_timings);
	g_signal_connect(f->bed.tc->core, "profile-changed", G_CALLBACK(glue_profile_changed), f);
	f->air = g_ptr_array_new();
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	g_signal_handlers_disconnect_by_data(f->bed.tc->core, f);
	wifi_autoconnect_free(f->ac);
	wifi_connector_free(f->connector);
	wifi_pmksa_cache_free(f->pmksa_cache);
	wifi_scanner_free(f->scanner);
	station_bed_clear(&f->bed);
	g_ptr_array_unref(f->air);
	g_clear_error(&f->error);
}

/* ---- the kernel's part ------------------------------------------------------ */

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

/* A time limit for a loop over the main context: fired says it ran out.
 * It clears its own source when it fires, so stopping it is safe whether
 * or not it fired (it may fire in the iteration that brought what the
 * loop waited for). */
typedef struct {
	gboolean fired;
	guint source;
} Guard;

static gboolean
guard_fire(gpointer user_data)
{
	Guard *g = user_data;

	g->fired = TRUE;
	g->source = 0;
	return G_SOURCE_REMOVE;
}

static void
guard_start(Guard *g, guint ms)
{
	g->fired = FALSE;
	g->source = g_timeout_add(ms, guard_fire, g);
}

static void
guard_stop(Guard *g)
{
	g_clear_handle_id(&g->source, g_source_remove);
}

/* Runs the main loop until a request of cmd is pending, at most 2 s;
 * returns it and, in *waited_ms, how long that took. */
static FakeNlRequest *
wait_request(Fixture *f, guint8 cmd, gint64 *waited_ms)
{
	gint64 start = g_get_monotonic_time();
	Guard guard;

	guard_start(&guard, 2000);
	while (fake_nl_find(f->bed.fake, cmd) == NULL && !guard.fired)
		g_main_context_iteration(NULL, TRUE);
	guard_stop(&guard);
	if (fake_nl_find(f->bed.fake, cmd) == NULL)
		g_error("no %s request within 2 s", wifi_nl_cmd_name(cmd));
	if (waited_ms != NULL)
		*waited_ms = (g_get_monotonic_time() - start) / 1000;
	return fake_nl_find(f->bed.fake, cmd);
}

/* Runs the main loop for ms and fails if a request of cmd is sent meanwhile. */
static void
assert_no_request(Fixture *f, guint8 cmd, guint ms)
{
	guint before = fake_nl_n_sent(f->bed.fake, cmd);
	Guard guard;

	guard_start(&guard, ms);
	while (!guard.fired)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpuint(fake_nl_n_sent(f->bed.fake, cmd), ==, before);
	g_assert_null(fake_nl_find(f->bed.fake, cmd));
}

static void
kernel_event(Fixture *f, struct nl_msg *msg)
{
	fake_nl_event(f->bed.nl, msg);
}

static struct nl_msg *
event_new(guint8 cmd)
{
	struct nl_msg *msg = wifi_test_msg_new(cmd);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, IFINDEX);
	return msg;
}

static void
ap_bssid(const TestAp *ap, guint8 *bssid)
{
	static const guint8 prefix[5] = {0x02, 0x00, 0x00, 0x00, 0xac};

	memcpy(bssid, prefix, 5);
	bssid[5] = ap->id;
}

static struct nl_msg *
ap_scan_entry(const TestAp *ap)
{
	struct nl_msg *msg = event_new(NL80211_CMD_NEW_SCAN_RESULTS);
	gsize len = strlen(ap->ssid);
	guint8 ies[2 + 32 + 22] = {0, (guint8)len};
	gsize ies_len = 2 + len;
	guint8 bssid[6];
	struct nlattr *bss;

	memcpy(ies + 2, ap->ssid, len);
	if (ap->psk) {
		hs_test_hex_into(RSNE_PSK, ies + ies_len, 22);
		ies_len += 22;
	}
	ap_bssid(ap, bssid);
	bss = nla_nest_start(msg, NL80211_ATTR_BSS);
	nla_put(msg, NL80211_BSS_BSSID, 6, bssid);
	nla_put_u32(msg, NL80211_BSS_FREQUENCY, ap->freq);
	nla_put_u32(msg, NL80211_BSS_SIGNAL_MBM, (guint32)(ap->dbm * 100));
	nla_put_u16(msg, NL80211_BSS_CAPABILITY,
	            WIFI_CAPABILITY_ESS | (ap->psk ? WIFI_CAPABILITY_PRIVACY : 0));
	nla_put(msg, NL80211_BSS_INFORMATION_ELEMENTS, (int)ies_len, ies);
	nla_nest_end(msg, bss);
	return msg;
}

/* The frequencies a TRIGGER_SCAN names, NULL for all. */
static GArray *
trigger_freqs(FakeNlRequest *req)
{
	struct nlattr *attr = req->attrs[NL80211_ATTR_SCAN_FREQUENCIES];
	struct nlattr *freq;
	GArray *out;
	int rem;

	if (attr == NULL)
		return NULL;
	out = g_array_new(FALSE, FALSE, sizeof(guint32));
	nla_for_each_nested(freq, attr, rem)
	{
		guint32 mhz = nla_get_u32(freq);

		g_array_append_val(out, mhz);
	}
	return out;
}

static gboolean
freqs_contain(const GArray *freqs, guint32 freq)
{
	for (guint i = 0; freqs != NULL && i < freqs->len; i++) {
		if (g_array_index(freqs, guint32, i) == freq)
			return TRUE;
	}
	return freqs == NULL;
}

/* Answers the next scan as the kernel would: the APs on the air on the
 * frequencies it covers. Returns those frequencies (NULL: all). */
static GArray *
kernel_scan(Fixture *f)
{
	FakeNlRequest *req = wait_request(f, NL80211_CMD_TRIGGER_SCAN, NULL);
	GArray *freqs = trigger_freqs(req);

	fake_nl_done(f->bed.fake, req, 0);
	kernel_event(f, event_new(NL80211_CMD_NEW_SCAN_RESULTS));
	req = fake_nl_expect(f->bed.fake, NL80211_CMD_GET_SCAN);
	for (guint i = 0; i < f->air->len; i++) {
		const TestAp *ap = g_ptr_array_index(f->air, i);

		if (freqs_contain(freqs, ap->freq))
			fake_nl_reply(f->bed.fake, req, ap_scan_entry(ap));
	}
	fake_nl_done(f->bed.fake, req, 0);
	iterate();
	return freqs;
}

/* Like kernel_scan(), checking that it covers exactly one frequency. */
static void
kernel_quick_scan(Fixture *f, guint32 freq)
{
	g_autoptr(GArray) freqs = kernel_scan(f);

	g_assert_nonnull(freqs);
	g_assert_cmpuint(freqs->len, ==, 1);
	g_assert_cmpuint(g_array_index(freqs, guint32, 0), ==, freq);
}

static void
kernel_full_scan(Fixture *f)
{
	g_autoptr(GArray) freqs = kernel_scan(f);

	g_assert_null(freqs);
}

/* The pending CMD_CONNECT, checked to be for ap; ACKed. */
static void
expect_connect(Fixture *f, const TestAp *ap, gint64 *waited_ms)
{
	FakeNlRequest *req = wait_request(f, NL80211_CMD_CONNECT, waited_ms);
	guint8 bssid[6];

	ap_bssid(ap, bssid);
	g_assert_nonnull(req->attrs[NL80211_ATTR_MAC]);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, bssid, 6);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_WIPHY_FREQ]), ==, ap->freq);
	fake_nl_done(f->bed.fake, req, 0);
}

/* The CONNECT event: status 0 connects, else the AP refused (or, with
 * timed_out, did not answer). */
static void
kernel_connect_result(Fixture *f, const TestAp *ap, guint16 status, gboolean timed_out)
{
	struct nl_msg *msg = event_new(NL80211_CMD_CONNECT);
	guint8 bssid[6];

	ap_bssid(ap, bssid);
	nla_put(msg, NL80211_ATTR_MAC, 6, bssid);
	if (timed_out)
		nla_put_flag(msg, NL80211_ATTR_TIMED_OUT);
	else
		nla_put_u16(msg, NL80211_ATTR_STATUS_CODE, status);
	kernel_event(f, msg);
	iterate();
}

static void
assert_connected_to(Fixture *f, const gchar *ssid)
{
	JoindNetwork *network = joind_station_get_connected_network(f->bed.station);

	g_assert_cmpint(joind_station_get_state(f->bed.station), ==, JOIND_STATION_STATE_CONNECTED);
	g_assert_nonnull(network);
	g_assert_cmpstr(joind_network_get_name(network), ==, ssid);
}

static void
connect_to(Fixture *f, const TestAp *ap)
{
	expect_connect(f, ap, NULL);
	kernel_connect_result(f, ap, 0, FALSE);
	assert_connected_to(f, ap->ssid);
}

/* The link goes down: the AP is off the air, the kernel says so. */
static void
kernel_link_lost(Fixture *f, const TestAp *ap)
{
	struct nl_msg *msg = event_new(NL80211_CMD_DISCONNECT);

	g_ptr_array_remove(f->air, (gpointer)ap);
	nla_put_flag(msg, NL80211_ATTR_DISCONNECTED_BY_AP);
	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, 3);
	kernel_event(f, msg);
}

/* Answers joind's CMD_DISCONNECT and confirms with the event. */
static void
kernel_disconnect(Fixture *f)
{
	fake_nl_done(f->bed.fake, wait_request(f, NL80211_CMD_DISCONNECT, NULL), 0);
	kernel_event(f, event_new(NL80211_CMD_DISCONNECT));
	iterate();
	g_assert_cmpint(joind_station_get_state(f->bed.station), ==,
	                JOIND_STATION_STATE_DISCONNECTED);
}

/* What the station's own full scan (periodic or at start) does. */
static void
station_scan(Fixture *f)
{
	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "station", NULL, NULL, NULL);
	kernel_full_scan(f);
}

static void
remember_frequency(Fixture *f, const gchar *ssid, guint32 freq)
{
	joind_core_note_connected(f->bed.tc->core, (const guint8 *)ssid, strlen(ssid),
	                          JOIND_PROFILE_TYPE_OPEN, freq);
}

static void
on_air(Fixture *f, const TestAp *ap)
{
	g_ptr_array_add(f->air, (gpointer)ap);
}

/* ---- the tests -------------------------------------------------------------- */

/* The best-ranked known network with AutoConnect on is joined: not a
 * stronger one whose profile says AutoConnect=false, not an unknown one. */
static void
test_choice(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	test_core_add_profile(f->bed.tc, "work.open", "[Settings]\nAutoConnect=true\n");
	test_core_add_profile(f->bed.tc, "cafe.open", "[Settings]\nAutoConnect=false\n");
	on_air(f, &ap_home);
	on_air(f, &ap_work);
	on_air(f, &ap_cafe);
	on_air(f, &ap_street);
	/* Nothing remembered: the station's first full scan decides. */
	g_assert_false(wifi_autoconnect_start(f->ac, "test"));
	g_assert_null(fake_nl_find(f->bed.fake, NL80211_CMD_TRIGGER_SCAN));
	station_scan(f);
	connect_to(f, &ap_work);
}

static void
test_nothing_known(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "cafe.open", "[Settings]\nAutoConnect=false\n");
	on_air(f, &ap_cafe);
	on_air(f, &ap_street);
	g_assert_false(wifi_autoconnect_start(f->ac, "test"));
	station_scan(f);
	/* It rests: no connect, no scan of its own. */
	assert_no_request(f, NL80211_CMD_CONNECT, 100);
	g_assert_null(fake_nl_find(f->bed.fake, NL80211_CMD_TRIGGER_SCAN));
	g_assert_cmpint(joind_station_get_state(f->bed.station), ==,
	                JOIND_STATION_STATE_DISCONNECTED);
}

/* An access point that does not answer: the waits double between tries,
 * and after max_attempts failures in a row autoconnect rests. */
static void
test_backoff(Fixture *f, gconstpointer data)
{
	gint64 waited[3];
	gint64 t0;

	test_core_add_profile(f->bed.tc, "home.open", "");
	on_air(f, &ap_home);
	wifi_autoconnect_start(f->ac, "test");
	station_scan(f);
	expect_connect(f, &ap_home, NULL);
	/* Measured from before the failure that arms the wait: a timer never
	 * fires early, so a loaded machine cannot make these too short. */
	t0 = g_get_monotonic_time();
	kernel_connect_result(f, &ap_home, 0, TRUE);
	for (guint i = 0; i < G_N_ELEMENTS(waited); i++) {
		expect_connect(f, &ap_home, NULL);
		waited[i] = (g_get_monotonic_time() - t0) / 1000;
		t0 = g_get_monotonic_time();
		kernel_connect_result(f, &ap_home, 0, TRUE);
	}
	g_assert_cmpint(waited[0], >=, test_timings.retry_initial_ms);
	g_assert_cmpint(waited[1], >=, 2 * test_timings.retry_initial_ms);
	g_assert_cmpint(waited[2], >=, 4 * test_timings.retry_initial_ms);
	/* The fourth failure in a row: no fifth try (it would come after the
	 * longest wait, retry_max_ms). */
	assert_no_request(f, NL80211_CMD_CONNECT, test_timings.retry_max_ms + 150);
	assert_no_request(f, NL80211_CMD_TRIGGER_SCAN, 0);
	/* A profile change is a fresh start. */
	test_core_add_profile(f->bed.tc, "home.open", "[Settings]\nAutoConnect=true\n");
	connect_to(f, &ap_home);
}

/* A BSS that refused is avoided: the next try takes another BSS of the
 * same network, although it is weaker. */
static void
test_avoid(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	on_air(f, &ap_home);
	on_air(f, &ap_home2);
	wifi_autoconnect_start(f->ac, "test");
	station_scan(f);
	expect_connect(f, &ap_home, NULL);
	kernel_connect_result(f, &ap_home, 17, FALSE);
	g_assert_cmpint(joind_station_get_state(f->bed.station), ==,
	                JOIND_STATION_STATE_DISCONNECTED);
	connect_to(f, &ap_home2);
}

/* Started with a remembered frequency: only it is scanned, and what the
 * quick scan finds is joined without a full scan. */
static void
test_quick_scan(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	remember_frequency(f, "home", ap_home.freq);
	on_air(f, &ap_home);
	g_assert_true(wifi_autoconnect_start(f->ac, "test"));
	kernel_quick_scan(f, ap_home.freq);
	connect_to(f, &ap_home);
	g_assert_cmpuint(fake_nl_n_sent(f->bed.fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
}

/* The network moved to another frequency: the quick scan finds nothing,
 * a full scan follows and finds it. */
static void
test_quick_then_full_scan(Fixture *f, gconstpointer data)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	remember_frequency(f, "home", ap_home.freq);
	on_air(f, &ap_home_5g);
	g_assert_true(wifi_autoconnect_start(f->ac, "test"));
	kernel_quick_scan(f, ap_home.freq);
	g_assert_null(fake_nl_find(f->bed.fake, NL80211_CMD_CONNECT));
	kernel_full_scan(f);
	connect_to(f, &ap_home_5g);
}

static void
connect_home_quickly(Fixture *f)
{
	test_core_add_profile(f->bed.tc, "home.open", "");
	remember_frequency(f, "home", ap_home.freq);
	on_air(f, &ap_home);
	g_assert_true(wifi_autoconnect_start(f->ac, "test"));
	kernel_quick_scan(f, ap_home.freq);
	connect_to(f, &ap_home);
	g_assert_false(wifi_autoconnect_is_retrying(f->ac));
}

/* Link loss: the remembered frequency is rescanned quickly (no full scan)
 * until the access point is back, then joined again. */
static void
test_link_loss(Fixture *f, gconstpointer data)
{
	gint64 waited;
	gint64 t0;

	connect_home_quickly(f);
	kernel_link_lost(f, &ap_home);
	t0 = g_get_monotonic_time();
	kernel_quick_scan(f, ap_home.freq);
	g_assert_true(wifi_autoconnect_is_retrying(f->ac));
	wait_request(f, NL80211_CMD_TRIGGER_SCAN, NULL);
	waited = (g_get_monotonic_time() - t0) / 1000;
	g_assert_cmpint(waited, >=, test_timings.link_retry_initial_ms);
	kernel_quick_scan(f, ap_home.freq);
	on_air(f, &ap_home);
	kernel_quick_scan(f, ap_home.freq);
	connect_to(f, &ap_home);
	g_assert_false(wifi_autoconnect_is_retrying(f->ac));
}

static void
kernel_beacon_loss(Fixture *f)
{
	struct nl_msg *msg = event_new(NL80211_CMD_NOTIFY_CQM);
	struct nlattr *cqm = nla_nest_start(msg, NL80211_ATTR_CQM);

	nla_put_flag(msg, NL80211_ATTR_CQM_BEACON_LOSS_EVENT);
	nla_nest_end(msg, cqm);
	kernel_event(f, msg);
}

/* Beacon loss (CQM): joind drops the link itself and reconnects as after
 * any link loss. A signal event changes nothing. */
static void
test_beacon_loss(Fixture *f, gconstpointer data)
{
	struct nl_msg *msg = event_new(NL80211_CMD_NOTIFY_CQM);
	struct nlattr *cqm = nla_nest_start(msg, NL80211_ATTR_CQM);

	connect_home_quickly(f);
	nla_put_u32(msg, NL80211_ATTR_CQM_RSSI_THRESHOLD_EVENT,
	            NL80211_CQM_RSSI_THRESHOLD_EVENT_LOW);
	nla_put_u32(msg, NL80211_ATTR_CQM_RSSI_LEVEL, (guint32)-80);
	nla_nest_end(msg, cqm);
	kernel_event(f, msg);
	assert_no_request(f, NL80211_CMD_DISCONNECT, 0);
	assert_no_request(f, NL80211_CMD_TRIGGER_SCAN, 0);
	kernel_beacon_loss(f);
	kernel_disconnect(f);
	kernel_quick_scan(f, ap_home.freq);
	connect_to(f, &ap_home);
}

static void
disconnect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->done = g_task_propagate_boolean(G_TASK(result), &f->error);
}

/* The station's network of that SSID and type (borrowed), or NULL. */
static JoindNetwork *
find_network(JoindStation *station, GBytes *ssid, JoindNetworkType type)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(station);

	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *n = g_ptr_array_index(networks, i);

		if (joind_network_get_network_type(n) == type &&
		    g_bytes_equal(joind_network_get_ssid(n), ssid))
			return n;
	}
	return NULL;
}

/* A user's Disconnect() turns autoconnect off (scan results and profile
 * changes join nothing) until the user's Connect(); after that a link
 * loss is recovered on its own again. */
static void
test_user_disconnect(Fixture *f, gconstpointer data)
{
	g_autoptr(GBytes) ssid = g_bytes_new_static("home", 4);
	JoindNetwork *home;

	connect_home_quickly(f);
	wifi_autoconnect_user_disconnect(f->ac);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	kernel_disconnect(f);
	g_assert_true(f->done);
	station_scan(f);
	test_core_add_profile(f->bed.tc, "home.open", "[Settings]\nAutoConnect=true\n");
	assert_no_request(f, NL80211_CMD_CONNECT, 100);
	assert_no_request(f, NL80211_CMD_TRIGGER_SCAN, 0);

	f->done = FALSE;
	home = find_network(f->bed.station, ssid, JOIND_NETWORK_TYPE_OPEN);
	wifi_autoconnect_user_connect(f->ac, WIFI_NETWORK(home), NULL, disconnect_done, f);
	connect_to(f, &ap_home);
	iterate();
	g_assert_no_error(f->error);
	g_assert_true(f->done);
	kernel_link_lost(f, &ap_home);
	kernel_quick_scan(f, ap_home.freq);
}

/* A user's Connect() of the network autoconnect is joining (a client that
 * wrote its profile, then asked for it) takes that attempt over: no
 * second CMD_CONNECT, no teardown, and the user's call is answered once
 * connected. */
static void
test_user_joins_attempt(Fixture *f, gconstpointer data)
{
	g_autoptr(GBytes) ssid = g_bytes_new_static("home", 4);
	FakeNlRequest *req;
	JoindNetwork *home;
	guint disconnects;

	test_core_add_profile(f->bed.tc, "home.open", "");
	remember_frequency(f, "home", ap_home.freq);
	on_air(f, &ap_home);
	g_assert_true(wifi_autoconnect_start(f->ac, "test"));
	kernel_quick_scan(f, ap_home.freq);
	req = wait_request(f, NL80211_CMD_CONNECT, NULL);
	home = find_network(f->bed.station, ssid, JOIND_NETWORK_TYPE_OPEN);
	g_assert_nonnull(home);
	disconnects = fake_nl_n_sent(f->bed.fake, NL80211_CMD_DISCONNECT);
	wifi_autoconnect_user_connect(f->ac, WIFI_NETWORK(home), NULL, disconnect_done, f);
	iterate();
	g_assert_false(f->done);
	g_assert_no_error(f->error);
	fake_nl_done(f->bed.fake, req, 0);
	kernel_connect_result(f, &ap_home, 0, FALSE);
	assert_connected_to(f, "home");
	g_assert_true(f->done);
	g_assert_no_error(f->error);
	g_assert_cmpuint(fake_nl_n_sent(f->bed.fake, NL80211_CMD_CONNECT), ==, 1);
	g_assert_cmpuint(fake_nl_n_sent(f->bed.fake, NL80211_CMD_DISCONNECT), ==, disconnects);
}

/* The profile of the network joind is on is removed: it leaves, and does
 * not come back. */
static void
test_profile_removed(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(GError) error = NULL;

	connect_home_quickly(f);
	profile = joind_core_find_network_profile(f->bed.tc->core, (const guint8 *)"home", 4,
	                                          JOIND_PROFILE_TYPE_OPEN);
	g_assert_true(joind_core_remove_profile(f->bed.tc->core, profile, &error));
	g_assert_no_error(error);
	kernel_disconnect(f);
	/* Nothing known is left: a full scan, then rest. */
	kernel_full_scan(f);
	assert_no_request(f, NL80211_CMD_CONNECT, 100);
	assert_no_request(f, NL80211_CMD_TRIGGER_SCAN, 0);
}

/* ---- a passphrase in doubt -------------------------------------------------- */

static const guint8 sta_addr[6] = {0x02, 0, 0, 0, 0x05, 0x01};

/* The authenticator of ap, whose passphrase is passphrase. */
static TestAuth *
ap_auth(const TestAp *ap, const gchar *passphrase)
{
	guint8 pmk[32];
	g_autoptr(GError) error = NULL;
	TestAuth *a;

	g_assert_true(wifi_psk_from_secret(passphrase, (const guint8 *)ap->ssid, strlen(ap->ssid),
	                                   pmk, &error));
	a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                  pmk, RSNE_PSK);
	ap_bssid(ap, a->aa);
	memcpy(a->spa, sta_addr, 6);
	return a;
}

/* The access point's EAPOL frame, over the control port. */
static void
kernel_eapol(Fixture *f, const TestAp *ap, GBytes *frame)
{
	struct nl_msg *msg = event_new(NL80211_CMD_CONTROL_PORT_FRAME);
	guint8 bssid[6];

	ap_bssid(ap, bssid);
	nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame),
	        g_bytes_get_data(frame, NULL));
	nla_put(msg, NL80211_ATTR_MAC, 6, bssid);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, 0x888e);
	kernel_event(f, msg);
	iterate();
}

/* The station's EAPOL frame the control port was asked to send (acked). */
static GBytes *
take_eapol(Fixture *f)
{
	FakeNlRequest *req = wait_request(f, NL80211_CMD_CONTROL_PORT_FRAME, NULL);
	struct nlattr *frame = req->attrs[NL80211_ATTR_FRAME];
	GBytes *bytes = g_bytes_new(nla_data(frame), (gsize)nla_len(frame));

	fake_nl_done(f->bed.fake, req, 0);
	return bytes;
}

/* The next connect, to ap, up to our message 2 of the 4-way handshake
 * (taken by the authenticator when it verifies). */
static void
connect_to_msg2(Fixture *f, const TestAp *ap, TestAuth *a, gint64 *waited_ms)
{
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *why = NULL;

	expect_connect(f, ap, waited_ms);
	kernel_connect_result(f, ap, 0, FALSE);
	msg1 = test_auth_msg1(a);
	kernel_eapol(f, ap, msg1);
	msg2 = take_eapol(f);
	test_auth_rx_msg2(a, msg2, &why);
}

/* After our message 2, a deauthentication "from" the access point with
 * reason: whoever sent it. */
static void
kernel_deauth_after_msg2(Fixture *f, const TestAp *ap, TestAuth *a, guint16 reason,
                         gint64 *waited_ms)
{
	struct nl_msg *msg = event_new(NL80211_CMD_DISCONNECT);

	connect_to_msg2(f, ap, a, waited_ms);
	nla_put_flag(msg, NL80211_ATTR_DISCONNECTED_BY_AP);
	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
	kernel_event(f, msg);
	iterate();
	g_assert_cmpint(joind_station_get_state(f->bed.station), ==,
	                JOIND_STATION_STATE_DISCONNECTED);
}

/* Messages 3 and 4, the keys, the open port: connected to ap. */
static void
finish_handshake(Fixture *f, const TestAp *ap, TestAuth *a)
{
	g_autoptr(GBytes) msg3 = test_auth_msg3(a);
	g_autoptr(GBytes) msg4 = NULL;
	g_autofree gchar *why = NULL;

	g_assert_true(a->have_ptk); /* message 2 verified: the passphrase is right */
	kernel_eapol(f, ap, msg3);
	msg4 = take_eapol(f);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	g_assert_cmpuint(fake_nl_done_all(f->bed.fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
	fake_nl_done(f->bed.fake, wait_request(f, NL80211_CMD_SET_STATION, NULL), 0);
	iterate();
	assert_connected_to(f, ap->ssid);
}

/* Answers the pending scan; FALSE when there is none. */
static gboolean
answer_scan(Fixture *f)
{
	GArray *freqs;

	if (fake_nl_find(f->bed.fake, NL80211_CMD_TRIGGER_SCAN) == NULL)
		return FALSE;
	freqs = kernel_scan(f);
	if (freqs != NULL)
		g_array_unref(freqs);
	return TRUE;
}

/* Runs the main loop for ms, answering autoconnect's scans; fails if it
 * connects meanwhile. */
static void
assert_no_connect_while_scanning(Fixture *f, guint ms)
{
	Guard guard;

	guard_start(&guard, ms);
	while (!guard.fired) {
		if (!answer_scan(f))
			g_main_context_iteration(NULL, TRUE);
		g_assert_null(fake_nl_find(f->bed.fake, NL80211_CMD_CONNECT));
	}
}

/* Answers autoconnect's scans until it connects (within 2 s). */
static void
scan_until_connect(Fixture *f)
{
	Guard guard;

	guard_start(&guard, 2000);
	while (fake_nl_find(f->bed.fake, NL80211_CMD_CONNECT) == NULL) {
		g_assert_false(guard.fired);
		if (!answer_scan(f))
			g_main_context_iteration(NULL, TRUE);
	}
	guard_stop(&guard);
}

/* One deauthentication after our message 2 (anyone can send it): not a
 * wrong passphrase; tried again after the usual wait, and joined. */
static void
test_spoofed_deauth(Fixture *f, gconstpointer data)
{
	g_autoptr(TestAuth) a = ap_auth(&ap_flat, PASSPHRASE);
	gint64 waited;

	test_core_add_profile(f->bed.tc, "flat.psk", "[Security]\nPassphrase=" PASSPHRASE "\n");
	on_air(f, &ap_flat);
	wifi_autoconnect_start(f->ac, "test");
	station_scan(f);
	kernel_deauth_after_msg2(f, &ap_flat, a, 3, NULL);
	connect_to_msg2(f, &ap_flat, a, &waited);
	g_assert_cmpint(waited, >=, test_timings.retry_initial_ms);
	finish_handshake(f, &ap_flat, a);
}

/* A wrong passphrase: the handshake stops after message 2 on two BSSes,
 * three times: blocked (the station's scans join nothing) until the
 * profile changes. The waits are long here so that the station's scans,
 * not the retry timer, decide which BSS is tried. */
static void
test_keys_refused_two_bsses(Fixture *f, gconstpointer data)
{
	WifiAutoconnectTimings slow = test_timings;
	g_autoptr(TestAuth) a = ap_auth(&ap_flat, PASSPHRASE);
	g_autoptr(TestAuth) a2 = ap_auth(&ap_flat2, PASSPHRASE);

	slow.retry_initial_ms = 5000;
	/* Released by the profile, not by time: a loaded machine that takes
	 * long between the refusals must not forget the first ones. */
	slow.block_ms = 60000;
	wifi_autoconnect_free(f->ac);
	f->ac = autoconnect_new(f, &slow);
	test_core_add_profile(f->bed.tc, "flat.psk", "[Security]\nPassphrase=wrong horse\n");
	on_air(f, &ap_flat);
	on_air(f, &ap_flat2);
	wifi_autoconnect_start(f->ac, "test");
	station_scan(f);
	kernel_deauth_after_msg2(f, &ap_flat, a, 15, NULL);
	/* Its strongest BSS out of range: the next try takes the other. */
	g_ptr_array_remove(f->air, (gpointer)&ap_flat);
	station_scan(f);
	kernel_deauth_after_msg2(f, &ap_flat2, a2, 15, NULL);
	g_assert_false(a2->have_ptk); /* the passphrase is wrong indeed */
	station_scan(f);
	kernel_deauth_after_msg2(f, &ap_flat2, a2, 15, NULL);
	/* Three times on two BSSes: blocked. */
	station_scan(f);
	assert_no_request(f, NL80211_CMD_CONNECT, 100);
	/* The passphrase is fixed: released at once. */
	test_core_add_profile(f->bed.tc, "flat.psk", "[Security]\nPassphrase=" PASSPHRASE "\n");
	scan_until_connect(f);
	connect_to_msg2(f, &ap_flat2, a2, NULL);
	finish_handshake(f, &ap_flat2, a2);
}

/* The access point says MIC failure (reason 14): blocked at once, but not
 * for good: after block_ms it is tried once; refused again (by any
 * reason), blocked again; a user's Connect() releases it. */
static void
test_wrong_passphrase_backoff(Fixture *f, gconstpointer data)
{
	g_autoptr(GBytes) ssid = g_bytes_new_static("flat", 4);
	g_autoptr(TestAuth) a = ap_auth(&ap_flat, PASSPHRASE);

	test_core_add_profile(f->bed.tc, "flat.psk", "[Security]\nPassphrase=" PASSPHRASE "\n");
	on_air(f, &ap_flat);
	wifi_autoconnect_start(f->ac, "test");
	station_scan(f);
	kernel_deauth_after_msg2(f, &ap_flat, a, 14, NULL);
	assert_no_connect_while_scanning(f, test_timings.block_ms / 2);
	/* The long back-off is over: one try. */
	scan_until_connect(f);
	kernel_deauth_after_msg2(f, &ap_flat, a, 3, NULL);
	assert_no_connect_while_scanning(f, test_timings.block_ms / 2);
	/* The user asks for it. Autoconnect may have a scan under way: the
	 * attempt goes once the kernel has ended it. */
	wifi_autoconnect_user_connect(
	        f->ac, WIFI_NETWORK(find_network(f->bed.station, ssid, JOIND_NETWORK_TYPE_PSK)),
	        NULL, disconnect_done, f);
	scan_until_connect(f);
	connect_to_msg2(f, &ap_flat, a, NULL);
	finish_handshake(f, &ap_flat, a);
	iterate();
	g_assert_no_error(f->error);
	g_assert_true(f->done);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
	ADD("/autoconnect/choice", test_choice);
	ADD("/autoconnect/nothing-known", test_nothing_known);
	ADD("/autoconnect/backoff", test_backoff);
	ADD("/autoconnect/avoid", test_avoid);
	ADD("/autoconnect/quick-scan", test_quick_scan);
	ADD("/autoconnect/quick-then-full-scan", test_quick_then_full_scan);
	ADD("/autoconnect/link-loss", test_link_loss);
	ADD("/autoconnect/beacon-loss", test_beacon_loss);
	ADD("/autoconnect/user-disconnect", test_user_disconnect);
	ADD("/autoconnect/profile-removed", test_profile_removed);
	ADD("/autoconnect/user-joins-attempt", test_user_joins_attempt);
	ADD("/autoconnect/passphrase/spoofed-deauth", test_spoofed_deauth);
	ADD("/autoconnect/passphrase/two-bsses", test_keys_refused_two_bsses);
	ADD("/autoconnect/passphrase/backoff", test_wrong_passphrase_backoff);
#undef ADD
	return g_test_run();
}
