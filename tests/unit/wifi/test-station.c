/* test-station.c - a WifiStation driven through a fake nl80211, a fake
 * link and a real JoindCore: start-up, networks from scan results, profile
 * matching, the periodic scan and its back-off, renames, the interface
 * going down and up, stopping mid-scan, diagnostics, hidden access points. */
#include <errno.h>
#include <linux/if.h>

#include "autoconnect-known.h"
#include "fake-bss.h"
#include "fake-link.h"
#include "joind-error.h"
#include "log-capture.h"
#include "device.h"
#include "station.h"
#include "settings.h"
#include "test-core.h"
#include "profile-keys.h"
#include "test-loop.h"

typedef struct {
	TestCore *tc;
	FakeNl *fake;
	WifiNl *nl;
	FakeLink *link;
	WifiLink *wifi_link;
	WifiIface *iface;
	JoindDevice *device; /* the manager's, made and published here */
	WifiStation *station;
	gboolean stopped;
} Fixture;

static void on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data);

/* main.conf of each test: its data (NULL: none). */
static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	WifiStationSetup setup = {0};

	log_capture_reset();
	wiphy->name = g_strdup("phy0");
	wiphy->max_scan_ssids = 4;
	wiphy->supports_connect = TRUE;
	f->tc = test_core_new(data, wifi_settings);
	joind_core_declare_profile_keys(f->tc->core, wifi_profile_keys);
	f->nl = fake_nl_new(&f->fake);
	f->wifi_link = fake_link_new(&f->link);
	f->iface = wifi_iface_new(f->nl, f->wifi_link, wiphy, 7, "wlan0");
	f->device = JOIND_DEVICE(wifi_device_new(7, "wlan0", NULL, NULL));
	joind_device_set_address(f->device, "02:00:00:00:00:aa");
	g_assert_true(joind_core_add_device(f->tc->core, f->device, NULL));
	setup.core = f->tc->core;
	setup.iface = f->iface;
	setup.device = f->device;
	f->station = wifi_station_new(&setup);
	/* The connector's first DISCONNECT finds no earlier association. */
	fake_nl_done_all(f->fake, NL80211_CMD_DISCONNECT, -ENOTCONN);
	wifi_nl_add_listener(f->nl, on_event, f);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	if (!f->stopped)
		wifi_station_stop(f->station);
	g_object_unref(f->station);
	joind_core_remove_device(f->tc->core, f->device);
	g_object_unref(f->device);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	wifi_iface_unref(f->iface);
	wifi_link_free(f->wifi_link);
	wifi_nl_free(f->nl);
	test_core_free(f->tc);
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

/* The manager's part: the interface's nl80211 events to its station. */
static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	wifi_station_handle_event(((Fixture *)user_data)->station, cmd, attrs);
}

static void
station_event(Fixture *f, guint8 cmd)
{
	fake_nl_event(f->nl, fake_nl_iface_event_new(cmd, 7));
	iterate();
}

/* ACKs the pending trigger, then reports and dumps n results. */
static void
complete_scan(Fixture *f, const FakeBss *bsses, guint n)
{
	fake_bss_complete_scan(f->fake, f->nl, bsses, n);
	iterate();
}

static void
start(Fixture *f)
{
	wifi_station_start(f->station);
	iterate();
}

static JoindStation *
jstation(Fixture *f)
{
	return JOIND_STATION(f->station);
}

static JoindNetwork *
find_network(Fixture *f, const gchar *ssid, JoindNetworkType type)
{
	g_autoptr(GBytes) bytes = g_bytes_new(ssid, strlen(ssid));
	g_autoptr(GPtrArray) networks = joind_station_get_networks(jstation(f));

	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *n = g_ptr_array_index(networks, i);

		if (g_bytes_equal(joind_network_get_ssid(n), bytes) &&
		    joind_network_get_network_type(n) == type)
			return n;
	}
	return NULL;
}

static guint
n_networks(Fixture *f)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(jstation(f));

	return networks->len;
}

static const FakeBss cafe = {.last = 1, .freq = 2412, .signal_mbm = -5000, .ssid = "cafe"};
static const FakeBss home = {
        .last = 2, .freq = 2437, .signal_mbm = -6000, .ssid = "home", .psk = TRUE};

/* Start attaches the station to its device, brings the link up and
 * scans; the results become networks. */
static void
test_station_start(Fixture *f, gconstpointer data)
{
	const FakeBss both[] = {cafe, home};
	JoindDevice *device;

	start(f);
	device = joind_core_lookup_device(f->tc->core, 7);
	g_assert_true(device == wifi_station_get_joind_device(f->station));
	g_assert_true(joind_device_get_station(device) == jstation(f));
	g_assert_cmpstr(joind_device_get_name(device), ==, "wlan0");
	g_assert_cmpstr(joind_device_get_address(device), ==, "02:00:00:00:00:aa");
	g_assert_true(joind_device_get_powered(device));
	g_assert_cmpuint(f->link->n_set_up, ==, 1);
	g_assert_cmpint(f->link->dormant, ==, 1);
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_TRIGGER_SCAN));
	g_assert_true(joind_station_get_scanning(jstation(f)));
	g_assert_cmpuint(log_capture_count("INFO: wlan0: scan 1 (link up): triggered*"), ==, 1);

	complete_scan(f, both, G_N_ELEMENTS(both));
	g_assert_false(joind_station_get_scanning(jstation(f)));
	g_assert_cmpuint(n_networks(f), ==, 2);
	g_assert_nonnull(find_network(f, "cafe", JOIND_NETWORK_TYPE_OPEN));
	g_assert_nonnull(find_network(f, "home", JOIND_NETWORK_TYPE_PSK));
}

/* A link that cannot be brought up (rfkill): the device is there, powered
 * off, and nothing scans. */
static void
test_station_start_refused(Fixture *f, gconstpointer data)
{
	f->link->refuse_up = TRUE;
	log_capture_allow_warning("Cannot bring wlan0 up: *");
	start(f);
	g_assert_nonnull(joind_core_lookup_device(f->tc->core, 7));
	g_assert_false(joind_device_get_powered(wifi_station_get_joind_device(f->station)));
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 0);
	g_assert_cmpuint(log_capture_count("WARNING: Cannot bring wlan0 up: *"), ==, 1);
}

static void
diagnostics_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GVariant **out = user_data;
	g_autoptr(GError) error = NULL;

	*out = joind_device_get_diagnostics_finish(JOIND_DEVICE(source), result, &error);
	g_assert_no_error(error);
	g_assert_nonnull(*out);
}

/* The device's part of GetDiagnostics(); not connected, so no request
 * to the kernel is awaited. */
static GVariant *
diagnostics(Fixture *f)
{
	GVariant *d = NULL;

	joind_device_get_diagnostics(wifi_station_get_joind_device(f->station), NULL,
	                             diagnostics_done, &d);
	while (d == NULL)
		g_main_context_iteration(NULL, TRUE);
	return d;
}

/* A BSS goes only after WIFI_BSS_MAX_MISSES (2) of joind's scans in a row
 * missed it; its network with it. */
static void
test_station_networks_vanish(Fixture *f, gconstpointer data)
{
	const FakeBss both[] = {cafe, home};
	g_autoptr(GVariant) d = NULL;
	g_autoptr(GVariant) bsses = NULL;

	start(f);
	complete_scan(f, both, G_N_ELEMENTS(both));
	g_assert_cmpuint(n_networks(f), ==, 2);
	for (guint miss = 1; miss <= 2; miss++) {
		joind_station_scan(jstation(f), NULL, NULL, NULL);
		complete_scan(f, &cafe, 1);
		g_assert_cmpuint(n_networks(f), ==, miss < 2 ? 2 : 1);
	}
	g_assert_null(find_network(f, "home", JOIND_NETWORK_TYPE_PSK));
	d = diagnostics(f);
	bsses = g_variant_lookup_value(d, "bsses", G_VARIANT_TYPE("aa{sv}"));
	g_assert_cmpuint(g_variant_n_children(bsses), ==, 1);
	/* Seen again: back. */
	joind_station_scan(jstation(f), NULL, NULL, NULL);
	complete_scan(f, both, G_N_ELEMENTS(both));
	g_assert_nonnull(find_network(f, "home", JOIND_NETWORK_TYPE_PSK));
}

/* The network a connection is under way to (or up with) stays listed,
 * however many scans miss its access point (one restarting); once the
 * station has no target any more, the next misses take it. */
static void
test_station_network_in_use_stays(Fixture *f, gconstpointer data)
{
	const FakeBss both[] = {cafe, home};
	JoindNetwork *in_use;

	start(f);
	complete_scan(f, both, G_N_ELEMENTS(both));
	in_use = find_network(f, "home", JOIND_NETWORK_TYPE_PSK);
	g_assert_nonnull(in_use);
	joind_station_set_target_network(jstation(f), in_use);
	for (guint miss = 1; miss <= 3; miss++) {
		joind_station_scan(jstation(f), NULL, NULL, NULL);
		complete_scan(f, &cafe, 1);
		g_assert_true(find_network(f, "home", JOIND_NETWORK_TYPE_PSK) == in_use);
	}
	joind_station_set_target_network(jstation(f), NULL);
	joind_station_scan(jstation(f), NULL, NULL, NULL);
	complete_scan(f, &cafe, 1);
	g_assert_null(find_network(f, "home", JOIND_NETWORK_TYPE_PSK));
}

static void
assert_hidden_ap(GArray *aps, guint i, guint8 last, gint16 strength, JoindNetworkType type)
{
	const JoindHiddenAccessPoint *ap = &g_array_index(aps, JoindHiddenAccessPoint, i);
	const guint8 address[6] = {0x02, 0x00, 0x00, 0x00, 0x00, last};

	g_assert_cmpmem(ap->address, sizeof(ap->address), address, sizeof(address));
	g_assert_cmpint(ap->strength, ==, strength);
	g_assert_cmpint(ap->type, ==, type);
}

/* The hidden access points are those of the recent scans whose beacon
 * hides the SSID: strongest first, equal signals by address, with their
 * type; one that a later scan missed stays (its beacon may just have
 * fallen outside the dwell), and goes when a second scan in a row missed
 * it. */
static void
test_station_hidden_access_points(Fixture *f, gconstpointer data)
{
	const FakeBss hidden_open = {.last = 5, .freq = 2412, .signal_mbm = -7000, .ssid = ""};
	const FakeBss hidden_psk = {
	        .last = 4, .freq = 2437, .signal_mbm = -4000, .ssid = "", .psk = TRUE};
	const FakeBss hidden_weak = {
	        .last = 3, .freq = 2462, .signal_mbm = -7000, .ssid = "", .psk = TRUE};
	const FakeBss all[] = {cafe, hidden_open, home, hidden_psk, hidden_weak};
	const FakeBss later[] = {cafe, hidden_open, home, hidden_weak};
	g_autoptr(GArray) none = NULL;
	g_autoptr(GArray) aps = NULL;
	g_autoptr(GArray) missed = NULL;
	g_autoptr(GArray) after = NULL;

	start(f);
	none = joind_station_get_hidden_access_points(jstation(f));
	g_assert_cmpuint(none->len, ==, 0);
	complete_scan(f, all, G_N_ELEMENTS(all));
	aps = joind_station_get_hidden_access_points(jstation(f));
	g_assert_cmpuint(aps->len, ==, 3);
	assert_hidden_ap(aps, 0, 4, -4000, JOIND_NETWORK_TYPE_PSK);
	assert_hidden_ap(aps, 1, 3, -7000, JOIND_NETWORK_TYPE_PSK);
	assert_hidden_ap(aps, 2, 5, -7000, JOIND_NETWORK_TYPE_OPEN);

	joind_station_scan(jstation(f), NULL, NULL, NULL);
	complete_scan(f, later, G_N_ELEMENTS(later));
	missed = joind_station_get_hidden_access_points(jstation(f));
	g_assert_cmpuint(missed->len, ==, 3);
	assert_hidden_ap(missed, 0, 4, -4000, JOIND_NETWORK_TYPE_PSK);

	joind_station_scan(jstation(f), NULL, NULL, NULL);
	complete_scan(f, later, G_N_ELEMENTS(later));
	after = joind_station_get_hidden_access_points(jstation(f));
	g_assert_cmpuint(after->len, ==, 2);
	assert_hidden_ap(after, 0, 3, -7000, JOIND_NETWORK_TYPE_PSK);
	assert_hidden_ap(after, 1, 5, -7000, JOIND_NETWORK_TYPE_OPEN);
	g_assert_cmpuint(n_networks(f), ==, 2);
}

/* Networks carry the profile of the same SSID and security, from the start
 * and when a profile is added later. */
static void
test_station_profiles(Fixture *f, gconstpointer data)
{
	const FakeBss both[] = {cafe, home};

	test_core_add_profile(f->tc, "cafe.open", "[Settings]\nAutoConnect=false\n");
	start(f);
	complete_scan(f, both, G_N_ELEMENTS(both));
	g_assert_nonnull(
	        joind_network_get_profile(find_network(f, "cafe", JOIND_NETWORK_TYPE_OPEN)));
	g_assert_null(joind_network_get_profile(find_network(f, "home", JOIND_NETWORK_TYPE_PSK)));
	/* An open profile does not match a PSK network of the same name. */
	test_core_add_profile(f->tc, "home.open", "[Settings]\nAutoConnect=false\n");
	iterate();
	g_assert_null(joind_network_get_profile(find_network(f, "home", JOIND_NETWORK_TYPE_PSK)));
	test_core_add_profile(f->tc, "home.psk",
	                      "[Security]\nPassphrase=secret123\n[Settings]\nAutoConnect=false\n");
	iterate();
	g_assert_nonnull(
	        joind_network_get_profile(find_network(f, "home", JOIND_NETWORK_TYPE_PSK)));
}

/* A profile that appears or changes takes the cached PMKSAs of its network
 * (and only those) with it. */
static void
test_station_pmksa_flush(Fixture *f, gconstpointer data)
{
	static const guint8 ap[6] = {0x02, 0, 0, 0, 0x0a, 0x01};
	static const guint8 sta[6] = {0x02, 0, 0, 0, 0, 0xaa};
	g_autoptr(GBytes) ssid = g_bytes_new_static("home", 4);
	g_autofree gchar *psk_key = wifi_known_profile_key(ssid, JOIND_PROFILE_TYPE_PSK);
	g_autofree gchar *eap_key = wifi_known_profile_key(ssid, JOIND_PROFILE_TYPE_8021X);
	guint8 pmk[32] = {1, 2, 3};
	gint64 now = g_get_monotonic_time();

	start(f);
	wifi_pmksa_cache_add(
	        wifi_station_get_pmksa_cache(f->station),
	        wifi_pmksa_new(WIFI_AKM_SUITE_8021X, pmk, 32, ap, sta, psk_key, 60, now, NULL));
	wifi_pmksa_cache_add(
	        wifi_station_get_pmksa_cache(f->station),
	        wifi_pmksa_new(WIFI_AKM_SUITE_8021X, pmk, 32, ap, sta, eap_key, 60, now, NULL));
	test_core_add_profile(f->tc, "home.psk",
	                      "[Security]\nPassphrase=secret123\n[Settings]\nAutoConnect=false\n");
	iterate();
	g_assert_cmpuint(wifi_pmksa_cache_size(wifi_station_get_pmksa_cache(f->station)), ==, 1);
	g_assert_nonnull(wifi_pmksa_cache_lookup(wifi_station_get_pmksa_cache(f->station), ap, sta,
	                                         eap_key, WIFI_AKM_SUITE_8021X, now));
}

static guint
diagnostics_uint(Fixture *f, const gchar *key)
{
	g_autoptr(GVariant) d = diagnostics(f);
	guint value = 0;

	g_assert_true(g_variant_lookup(d, key, "u", &value));
	return value;
}

/* The periodic scan while disconnected: from InitialPeriodicScanInterval,
 * doubling after each scan up to MaximumPeriodicScanInterval. */
static void
test_station_periodic(Fixture *f, gconstpointer data)
{
	start(f);
	complete_scan(f, &cafe, 1);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: next periodic scan in 1 s"), ==, 1);
	g_assert_cmpuint(diagnostics_uint(f, "periodic_scan_interval"), ==, 2);
	while (fake_nl_find(f->fake, NL80211_CMD_TRIGGER_SCAN) == NULL)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: scan 2 (periodic): triggered*"), ==, 1);
	/* A scan that fails still schedules the next one. */
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	station_event(f, NL80211_CMD_SCAN_ABORTED);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: next periodic scan in 2 s"), ==, 1);
	g_assert_cmpuint(diagnostics_uint(f, "periodic_scan_interval"), ==, 4);
	g_assert_cmpuint(diagnostics_uint(f, "scans_triggered"), ==, 2);
}

/* DisablePeriodicScan: the first scan only, however long one waits (here
 * past the initial interval). */
static void
test_station_periodic_disabled(Fixture *f, gconstpointer data)
{
	start(f);
	complete_scan(f, &cafe, 1);
	test_loop_run_for(1500);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: next periodic scan in *"), ==, 0);
}

/* A rename reaches every room through the shared WifiIface (the scanner's
 * log lines here) and the device's Name. */
static void
test_station_rename(Fixture *f, gconstpointer data)
{
	start(f);
	complete_scan(f, &cafe, 1);
	wifi_station_link_changed(f->station, "wlan1", "02:00:00:00:00:bb", IFF_UP);
	g_assert_cmpstr(f->iface->name, ==, "wlan1");
	g_assert_cmpstr(joind_device_get_name(wifi_station_get_joind_device(f->station)), ==,
	                "wlan1");
	g_assert_cmpstr(joind_device_get_address(wifi_station_get_joind_device(f->station)), ==,
	                "02:00:00:00:00:bb");
	g_assert_cmpuint(log_capture_count("INFO: wlan0: renamed to wlan1"), ==, 1);
	joind_station_scan(jstation(f), NULL, NULL, NULL);
	g_assert_cmpuint(log_capture_count("INFO: wlan1: scan 2 (D-Bus): triggered*"), ==, 1);
	complete_scan(f, &cafe, 1);
	g_assert_cmpuint(log_capture_count("INFO: wlan1: scan 2 (D-Bus): 1 BSSes in *"), ==, 1);
}

static void
scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GError **error = user_data;

	g_assert_false(joind_station_scan_finish(JOIND_STATION(source), result, error));
}

/* The interface down: not powered, no scans, Scan() refused. Up again: a
 * scan at once. An event that trails the truth (says down while the link
 * is up) changes nothing. */
static void
test_station_down_up(Fixture *f, gconstpointer data)
{
	JoindDevice *device = wifi_station_get_joind_device(f->station);
	GError *error = NULL;

	start(f);
	complete_scan(f, &cafe, 1);
	wifi_station_link_changed(f->station, NULL, NULL, 0);
	g_assert_true(joind_device_get_powered(device));

	f->link->flags = 0;
	wifi_station_link_changed(f->station, NULL, NULL, 0);
	g_assert_false(joind_device_get_powered(device));
	g_assert_cmpint(joind_device_get_state(device), ==, JOIND_DEVICE_STATE_DOWN);
	joind_station_scan(jstation(f), NULL, scan_done, &error);
	iterate();
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_clear_error(&error);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);

	f->link->flags = IFF_UP;
	wifi_station_link_changed(f->station, NULL, NULL, IFF_UP);
	g_assert_true(joind_device_get_powered(device));
	g_assert_cmpint(joind_device_get_state(device), ==, JOIND_DEVICE_STATE_NO_CARRIER);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: scan 2 (link up): triggered*"), ==, 1);
	complete_scan(f, &cafe, 1);
}

static void
stopped_diagnostics_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	gboolean *done = user_data;
	g_autoptr(GError) error = NULL;

	g_assert_null(joind_device_get_diagnostics_finish(JOIND_DEVICE(source), result, &error));
	g_assert_no_error(error);
	*done = TRUE;
}

/* Stopped mid-scan: the scan's callers fail with Aborted, the requests are
 * cancelled, the networks are gone, the device (which stays: another mode
 * may take the interface) has no station and answers no more
 * diagnostics. */
static void
test_station_stop_mid_scan(Fixture *f, gconstpointer data)
{
	JoindDevice *device = wifi_station_get_joind_device(f->station);
	GError *error = NULL;
	gboolean done = FALSE;

	start(f);
	complete_scan(f, &cafe, 1);
	joind_station_scan(jstation(f), NULL, scan_done, &error);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	wifi_station_stop(f->station);
	f->stopped = TRUE;
	iterate();
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	g_clear_error(&error);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	g_assert_true(joind_core_lookup_device(f->tc->core, 7) == device);
	g_assert_null(joind_device_get_station(device));
	g_assert_cmpuint(n_networks(f), ==, 0);
	joind_device_get_diagnostics(device, NULL, stopped_diagnostics_done, &done);
	while (!done)
		g_main_context_iteration(NULL, TRUE);
}

/* GetDiagnostics: the radio, scanning, the periodic interval, networks and
 * every BSS seen, and the connection. */
static void
test_station_diagnostics(Fixture *f, gconstpointer data)
{
	const FakeBss both[] = {cafe, home};
	g_autoptr(GVariant) d = NULL;
	g_autoptr(GVariant) bsses = NULL;
	g_autoptr(GVariant) connection = NULL;
	const gchar *wiphy = NULL;
	gboolean scanning = TRUE;

	start(f);
	complete_scan(f, both, G_N_ELEMENTS(both));
	d = diagnostics(f);
	g_assert_true(g_variant_lookup(d, "wiphy", "&s", &wiphy));
	g_assert_cmpstr(wiphy, ==, "phy0");
	g_assert_true(g_variant_lookup(d, "scanning", "b", &scanning));
	g_assert_false(scanning);
	g_assert_cmpuint(diagnostics_uint(f, "scans_triggered"), ==, 1);
	g_assert_cmpuint(diagnostics_uint(f, "networks"), ==, 2);
	g_assert_cmpuint(diagnostics_uint(f, "periodic_scan_interval"), ==, 20);
	bsses = g_variant_lookup_value(d, "bsses", G_VARIANT_TYPE("aa{sv}"));
	g_assert_nonnull(bsses);
	g_assert_cmpuint(g_variant_n_children(bsses), ==, 2);
	for (gsize i = 0; i < 2; i++) {
		g_autoptr(GVariant) bss = g_variant_get_child_value(bsses, i);
		const gchar *ssid = NULL, *bssid = NULL, *security = NULL;
		guint32 freq = 0;
		gint dbm = 0, score = 0;
		gboolean hidden = TRUE;

		g_assert_true(g_variant_lookup(bss, "ssid", "&s", &ssid));
		g_assert_true(g_variant_lookup(bss, "bssid", "&s", &bssid));
		g_assert_true(g_variant_lookup(bss, "security", "&s", &security));
		g_assert_true(g_variant_lookup(bss, "frequency", "u", &freq));
		g_assert_true(g_variant_lookup(bss, "signal_dbm", "i", &dbm));
		g_assert_true(g_variant_lookup(bss, "hidden", "b", &hidden));
		g_assert_false(hidden);
		g_assert_true(g_variant_lookup(bss, "rank_score", "i", &score));
		if (g_str_equal(ssid, "cafe")) {
			g_assert_cmpstr(bssid, ==, "02:00:00:00:00:01");
			g_assert_cmpstr(security, ==, "open");
			g_assert_cmpuint(freq, ==, 2412);
			g_assert_cmpint(dbm, ==, -50);
		} else {
			g_assert_cmpstr(ssid, ==, "home");
			g_assert_cmpstr(security, ==, "psk");
			g_assert_cmpint(dbm, ==, -60);
		}
	}
	connection = g_variant_lookup_value(d, "connection", NULL);
	g_assert_nonnull(connection);
}

/* Scans probe for every Hidden=true profile's SSID (after the wildcard). */
static void
test_station_probes(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	struct nlattr *ssid;
	GPtrArray *seen = g_ptr_array_new_with_free_func(g_free);
	int rem;

	test_core_add_profile(
	        f->tc, "attic.psk",
	        "[Security]\nPassphrase=secret123\n[Settings]\nHidden=true\nAutoConnect=false\n");
	start(f);
	req = fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_nonnull(req->attrs[NL80211_ATTR_SCAN_SSIDS]);
	nla_for_each_nested(ssid, req->attrs[NL80211_ATTR_SCAN_SSIDS], rem)
	        g_ptr_array_add(seen, g_strndup(nla_data(ssid), (gsize)nla_len(ssid)));
	g_assert_cmpuint(seen->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(seen, 0), ==, "");
	g_assert_cmpstr(g_ptr_array_index(seen, 1), ==, "attic");
	g_assert_null(req->attrs[NL80211_ATTR_SCAN_FREQUENCIES]);
	g_ptr_array_unref(seen);
	complete_scan(f, &cafe, 1);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
#define ADD(path, conf, func) \
	g_test_add(path, Fixture, conf, fixture_set_up, func, fixture_tear_down)
	ADD("/station/start", NULL, test_station_start);
	ADD("/station/start-refused", NULL, test_station_start_refused);
	ADD("/station/networks-vanish", NULL, test_station_networks_vanish);
	ADD("/station/network-in-use-stays", NULL, test_station_network_in_use_stays);
	ADD("/station/profiles", NULL, test_station_profiles);
	ADD("/station/hidden-access-points", NULL, test_station_hidden_access_points);
	ADD("/station/periodic",
	    "[Scan]\nInitialPeriodicScanInterval=1\nMaximumPeriodicScanInterval=4\n",
	    test_station_periodic);
	ADD("/station/periodic-disabled",
	    "[Scan]\nInitialPeriodicScanInterval=1\nDisablePeriodicScan=true\n",
	    test_station_periodic_disabled);
	ADD("/station/rename", NULL, test_station_rename);
	ADD("/station/down-up", NULL, test_station_down_up);
	ADD("/station/stop-mid-scan", NULL, test_station_stop_mid_scan);
	ADD("/station/diagnostics", NULL, test_station_diagnostics);
	ADD("/station/probes", NULL, test_station_probes);
	ADD("/station/pmksa-flush", NULL, test_station_pmksa_flush);
#undef ADD
	return g_test_run();
}
