/* scan-bench.c - the CPU the wifi plugin and the core spend on one full
 * scan, through the fake nl80211 layer of the unit tests (no radio, no VM).
 *
 *   scan-bench [ROUNDS] [SIZES...]      default 8 rounds, 1 10 120 500 1000
 *
 * For each size, a station on a real JoindCore (exported on a private bus)
 * scans N BSSes of N different networks: the first scan creates every
 * network (objects, D-Bus export, signals), the next ROUNDS find the same
 * BSSes again. The kernel's dump messages are built before the clock
 * starts; what is measured is the process's CPU (every thread, getrusage)
 * from the scan request to the last D-Bus signal flushed. Then one
 * GetOrderedNetworks call from another connection is timed (wall), and
 * the heap the first scan kept is divided by N (RssAnon before and after).
 * Prints "scan N first_ms median_ms ordered_ms heap_bytes_per_network".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fake-bss.h"
#include "fake-link.h"
#include "device.h"
#include "station.h"
#include "settings.h"
#include "test-core.h"

typedef struct {
	TestCore *tc;
	FakeNl *fake;
	WifiNl *nl;
	WifiLink *link;
	WifiIface *iface;
	WifiStation *station;
	GPtrArray *entries; /* struct nl_msg *, one per BSS, built once */
} Bench;

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	wifi_station_handle_event(((Bench *)user_data)->station, cmd, attrs);
}

/* N networks, alternately open and WPA2-PSK, over 2.4 and 5 GHz. */
static GPtrArray *
entries_new(guint n, GPtrArray *ssids)
{
	static const guint32 freqs[] = {2412, 2437, 2462, 5180, 5200, 5500, 5745};
	GPtrArray *entries = g_ptr_array_new_with_free_func((GDestroyNotify)nlmsg_free);

	for (guint i = 0; i < n; i++) {
		gchar *ssid = g_strdup_printf("bench-net-%04u", i);
		FakeBss bss = {.last = (guint8)(i & 0xff),
		               .high = (guint8)(i >> 8),
		               .freq = freqs[i % G_N_ELEMENTS(freqs)],
		               .signal_mbm = -3000 - (gint)(i % 60) * 100,
		               .ssid = ssid,
		               .psk = (i % 2) == 1};

		g_ptr_array_add(ssids, ssid);
		g_ptr_array_add(entries, fake_bss_entry(&bss));
	}
	return entries;
}

static Bench *
bench_new(guint n)
{
	Bench *b = g_new0(Bench, 1);
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	g_autoptr(GPtrArray) ssids = g_ptr_array_new_with_free_func(g_free);
	WifiStationSetup setup = {0};
	FakeLink *fake_link = NULL;

	wiphy->name = g_strdup("phy0");
	wiphy->max_scan_ssids = 4;
	wiphy->supports_connect = TRUE;
	/* Periodic scans off: only the bench's scans run. */
	b->tc = test_core_new("[Scan]\nDisablePeriodicScan=true\n", wifi_settings);
	b->nl = fake_nl_new(&b->fake);
	b->link = fake_link_new(&fake_link);
	b->iface = wifi_iface_new(b->nl, b->link, wiphy, 7, "wlan0");
	setup.core = b->tc->core;
	setup.iface = b->iface;
	setup.device = JOIND_DEVICE(wifi_device_new(7, "wlan0", NULL, NULL));
	joind_device_set_address(setup.device, "02:00:00:00:00:aa");
	g_assert_true(joind_core_add_device(b->tc->core, setup.device, NULL));
	b->station = wifi_station_new(&setup);
	/* The station holds the device from now on. */
	g_object_unref(setup.device);
	fake_nl_done_all(b->fake, NL80211_CMD_DISCONNECT, -ENOTCONN);
	wifi_nl_add_listener(b->nl, on_event, b);
	b->entries = entries_new(n, ssids);
	wifi_station_start(b->station);
	iterate();
	return b;
}

static void
bench_free(Bench *b)
{
	joind_core_remove_device(b->tc->core, wifi_station_get_joind_device(b->station));
	wifi_station_stop(b->station);
	g_object_unref(b->station);
	wifi_iface_unref(b->iface);
	wifi_link_free(b->link);
	wifi_nl_free(b->nl);
	test_core_free(b->tc);
	g_ptr_array_unref(b->entries);
	g_free(b);
}

static gdouble
cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* The pending trigger acknowledged, the results announced and dumped. */
static void
complete_scan(Bench *b)
{
	FakeNlRequest *dump;

	fake_nl_done(b->fake, fake_nl_expect(b->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	fake_nl_event(b->nl, fake_nl_iface_event_new(NL80211_CMD_NEW_SCAN_RESULTS, 7));
	dump = fake_nl_expect(b->fake, NL80211_CMD_GET_SCAN);
	for (guint i = 0; i < b->entries->len; i++) {
		struct nl_msg *entry = g_ptr_array_index(b->entries, i);

		/* fake_nl_reply() consumes one reference; the entry stays built. */
		nlmsg_get(entry);
		fake_nl_reply(b->fake, dump, entry);
	}
	fake_nl_done(b->fake, dump, 0);
	iterate();
	g_dbus_connection_flush_sync(b->tc->conn, NULL, NULL);
}

static void
on_scanned(GObject *source, GAsyncResult *result, gpointer user_data)
{
	joind_station_scan_finish(JOIND_STATION(source), result, NULL);
}

/* One scan (the first after start is already pending), in CPU ms. */
static gdouble
scan_once(Bench *b, gboolean first)
{
	gdouble t0 = cpu_ms();

	if (!first) {
		joind_station_scan(JOIND_STATION(b->station), NULL, on_scanned, NULL);
		iterate();
	}
	complete_scan(b);
	return cpu_ms() - t0;
}

static void
on_ordered(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GVariant **reply = user_data;
	g_autoptr(GError) error = NULL;

	*reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	if (*reply == NULL)
		g_error("GetOrderedNetworks: %s", error->message);
}

/* Wall time of Station1.GetOrderedNetworks from another connection. */
static gdouble
ordered_networks_ms(Bench *b, guint expect)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) client = g_dbus_connection_new_for_address_sync(
	        g_test_dbus_get_bus_address(b->tc->bus),
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, NULL, &error);
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariant) list = NULL;
	gint64 t0;

	if (client == NULL)
		g_error("client: %s", error->message);
	t0 = g_get_monotonic_time();
	g_dbus_connection_call(client, g_dbus_connection_get_unique_name(b->tc->conn),
	                       "/net/joind/device/7", "net.joind.Station1", "GetOrderedNetworks",
	                       NULL, G_VARIANT_TYPE("(a(on))"), G_DBUS_CALL_FLAGS_NONE, 60000, NULL,
	                       on_ordered, &reply);
	while (reply == NULL)
		g_main_context_iteration(NULL, TRUE);
	list = g_variant_get_child_value(reply, 0);
	if (g_variant_n_children(list) != expect)
		g_error("GetOrderedNetworks: %zu networks, expected %u", g_variant_n_children(list),
		        expect);
	return (g_get_monotonic_time() - t0) / 1000.0;
}

static gint64
rss_anon_kib(void)
{
	g_autofree gchar *status = NULL;
	const gchar *line;

	if (!g_file_get_contents("/proc/self/status", &status, NULL, NULL) ||
	    (line = strstr(status, "RssAnon:")) == NULL)
		return 0;
	return g_ascii_strtoll(line + strlen("RssAnon:"), NULL, 10);
}

static gint
compare_double(gconstpointer a, gconstpointer b)
{
	gdouble x = *(const gdouble *)a, y = *(const gdouble *)b;

	return x < y ? -1 : x > y;
}

static void
bench_size(guint n, guint rounds)
{
	Bench *b = bench_new(n);
	g_autoptr(GArray) times = g_array_new(FALSE, FALSE, sizeof(gdouble));
	gint64 heap0 = rss_anon_kib();
	gdouble first = scan_once(b, TRUE);
	gint64 heap1 = rss_anon_kib();
	gdouble ordered;

	for (guint r = 0; r < rounds; r++) {
		gdouble t = scan_once(b, FALSE);

		g_array_append_val(times, t);
	}
	g_array_sort(times, compare_double);
	ordered = ordered_networks_ms(b, n);
	printf("scan %u %.2f %.2f %.2f %" G_GINT64_FORMAT "\n", n, first,
	       rounds > 0 ? g_array_index(times, gdouble, rounds / 2) : 0.0, ordered,
	       (heap1 - heap0) * 1024 / n);
	fflush(stdout);
	bench_free(b);
}

int
main(int argc, char **argv)
{
	static const guint sizes[] = {1, 10, 120, 500, 1000};
	guint rounds = argc > 1 ? (guint)g_ascii_strtoull(argv[1], NULL, 10) : 8;

	if (argc > 2) {
		for (int i = 2; i < argc; i++)
			bench_size((guint)g_ascii_strtoull(argv[i], NULL, 10), rounds);
		return EXIT_SUCCESS;
	}
	for (guint i = 0; i < G_N_ELEMENTS(sizes); i++)
		bench_size(sizes[i], rounds);
	return EXIT_SUCCESS;
}
