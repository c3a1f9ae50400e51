/* test-rfkill.c - airplane mode and suspend: /dev/rfkill events (read
 * through a pipe, with a fake /sys/class/rfkill), a blocked radio's
 * station (powered off, no scans, no autoconnect) and its unblock (the
 * link set up again, a quick scan of the remembered frequency, a join),
 * the station's resume from sleep, and logind's signal on a private bus. */
#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <linux/if.h>
#include <linux/rfkill.h>
#include <unistd.h>

#include "fake-bss.h"
#include "fake-link.h"
#include "joind-error.h"
#include "log-capture.h"
#include "rfkill.h"
#include "sleep.h"
#include "device.h"
#include "station.h"
#include "settings.h"
#include "test-bus.h"
#include "test-core.h"
#include "profile-keys.h"
#include "test-loop.h"

/* ---- the event reader ------------------------------------------------------ */

static void
put_event(guint8 *buf, guint32 idx, guint8 type, guint8 op, gboolean soft, gboolean hard)
{
	memcpy(buf, &idx, sizeof(idx));
	buf[4] = type;
	buf[5] = op;
	buf[6] = (guint8)soft;
	buf[7] = (guint8)hard;
}

/* A full event, one with the newer kernels' extra byte, and short reads. */
static void
test_parse(void)
{
	guint8 buf[9] = {0};
	WifiRfkillEvent ev;

	put_event(buf, 3, RFKILL_TYPE_WLAN, RFKILL_OP_CHANGE, TRUE, FALSE);
	g_assert_true(wifi_rfkill_parse_event(buf, RFKILL_EVENT_SIZE_V1, &ev));
	g_assert_cmpuint(ev.idx, ==, 3);
	g_assert_cmpuint(ev.type, ==, RFKILL_TYPE_WLAN);
	g_assert_cmpuint(ev.op, ==, RFKILL_OP_CHANGE);
	g_assert_true(ev.soft);
	g_assert_false(ev.hard);

	put_event(buf, 70000, RFKILL_TYPE_BLUETOOTH, RFKILL_OP_ADD, FALSE, TRUE);
	buf[8] = 1; /* hard_block_reasons */
	g_assert_true(wifi_rfkill_parse_event(buf, sizeof(buf), &ev));
	g_assert_cmpuint(ev.idx, ==, 70000);
	g_assert_false(ev.soft);
	g_assert_true(ev.hard);

	for (gsize len = 0; len < RFKILL_EVENT_SIZE_V1; len++)
		g_assert_false(wifi_rfkill_parse_event(buf, len, &ev));
}

typedef struct {
	gchar *dir; /* the fake /sys/class/rfkill */
	gint wfd;   /* the kernel's end of the pipe */
	WifiRfkill *rfkill;
	GPtrArray *heard; /* "phy0 blocked: <reason>" / "phy0 unblocked" */
} Reader;

static void
on_switch(const gchar *wiphy_name, gboolean blocked, const gchar *reason, gpointer user_data)
{
	Reader *r = user_data;

	g_ptr_array_add(r->heard, blocked ? g_strdup_printf("%s blocked: %s", wiphy_name, reason)
	                                  : g_strdup_printf("%s unblocked", wiphy_name));
}

static void
name_switch(Reader *r, guint idx, const gchar *name)
{
	g_autofree gchar *dir = g_strdup_printf("%s/rfkill%u", r->dir, idx);
	g_autofree gchar *file = g_build_filename(dir, "name", NULL);
	g_autofree gchar *text = g_strdup_printf("%s\n", name);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0700), ==, 0);
	g_assert_true(g_file_set_contents(file, text, -1, NULL));
}

static void
remove_sysfs(Reader *r, guint n)
{
	for (guint idx = 0; idx < n; idx++) {
		g_autofree gchar *dir = g_strdup_printf("%s/rfkill%u", r->dir, idx);
		g_autofree gchar *file = g_build_filename(dir, "name", NULL);

		g_assert_cmpint(g_unlink(file), ==, 0);
		g_assert_cmpint(g_rmdir(dir), ==, 0);
	}
	g_assert_cmpint(g_rmdir(r->dir), ==, 0);
	g_free(r->dir);
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void
kernel_write(Reader *r, const guint8 *buf, gsize len)
{
	g_assert_cmpint(write(r->wfd, buf, len), ==, (gssize)len);
	iterate();
}

static void
kernel_event(Reader *r, guint32 idx, guint8 type, guint8 op, gboolean soft, gboolean hard)
{
	guint8 buf[RFKILL_EVENT_SIZE_V1];

	put_event(buf, idx, type, op, soft, hard);
	kernel_write(r, buf, sizeof(buf));
}

static const gchar *
heard(Reader *r, guint i)
{
	g_assert_cmpuint(i, <, r->heard->len);
	return g_ptr_array_index(r->heard, i);
}

/* Switches as the kernel reports them: only WLAN switches with a name
 * count, a change that does not change "blocked" is not repeated, a
 * short read is dropped with a warning and the next event still read. */
static void
test_reader(void)
{
	Reader r = {0};
	gint fds[2];
	const gchar *reason = NULL;
	const guint8 junk[5] = {1, 2, 3, 4, 5};

	log_capture_reset();
	log_capture_allow_warning("rfkill: a short event (5 bytes) ignored");
	r.dir = g_dir_make_tmp("test-rfkill-XXXXXX", NULL);
	r.heard = g_ptr_array_new_with_free_func(g_free);
	name_switch(&r, 0, "phy0");
	name_switch(&r, 1, "hci0");
	g_assert_true(g_unix_open_pipe(fds, FD_CLOEXEC, NULL));
	g_assert_true(g_unix_set_fd_nonblocking(fds[0], TRUE, NULL));
	r.wfd = fds[1];
	/* What opening /dev/rfkill queues is read at once. */
	kernel_event(&r, 0, RFKILL_TYPE_WLAN, RFKILL_OP_ADD, FALSE, FALSE);
	r.rfkill = wifi_rfkill_new_full(fds[0], r.dir, on_switch, &r);
	g_assert_cmpuint(r.heard->len, ==, 1);
	g_assert_cmpstr(heard(&r, 0), ==, "phy0 unblocked");
	g_assert_false(wifi_rfkill_is_blocked(r.rfkill, "phy0", &reason));

	kernel_event(&r, 1, RFKILL_TYPE_BLUETOOTH, RFKILL_OP_ADD, TRUE, FALSE);
	kernel_event(&r, 2, RFKILL_TYPE_WLAN, RFKILL_OP_ADD, TRUE, FALSE); /* no name */
	g_assert_cmpuint(r.heard->len, ==, 1);

	kernel_event(&r, 0, RFKILL_TYPE_WLAN, RFKILL_OP_CHANGE, TRUE, FALSE);
	g_assert_cmpuint(r.heard->len, ==, 2);
	g_assert_cmpstr(heard(&r, 1), ==, "phy0 blocked: soft-blocked (airplane mode or rfkill)");
	g_assert_true(wifi_rfkill_is_blocked(r.rfkill, "phy0", &reason));
	g_assert_cmpstr(reason, ==, "soft-blocked (airplane mode or rfkill)");

	kernel_write(&r, junk, sizeof(junk));
	g_assert_cmpuint(log_capture_count("WARNING: rfkill: a short event (5 bytes) ignored"), ==,
	                 1);
	kernel_event(&r, 0, RFKILL_TYPE_WLAN, RFKILL_OP_CHANGE, TRUE, TRUE);
	g_assert_cmpuint(r.heard->len, ==, 2);
	g_assert_true(wifi_rfkill_is_blocked(r.rfkill, "phy0", &reason));
	g_assert_cmpstr(reason, ==,
	                "hard- and soft-blocked (a switch, and airplane mode or rfkill)");

	/* A rename (the wiphy's) is read again with the next event. */
	name_switch(&r, 0, "radio");
	kernel_event(&r, 0, RFKILL_TYPE_WLAN, RFKILL_OP_CHANGE, FALSE, FALSE);
	g_assert_cmpuint(r.heard->len, ==, 3);
	g_assert_cmpstr(heard(&r, 2), ==, "radio unblocked");

	kernel_event(&r, 0, RFKILL_TYPE_WLAN, RFKILL_OP_CHANGE, FALSE, TRUE);
	g_assert_true(wifi_rfkill_is_blocked(r.rfkill, "radio", &reason));
	kernel_event(&r, 0, RFKILL_TYPE_WLAN, RFKILL_OP_DEL, FALSE, TRUE);
	g_assert_false(wifi_rfkill_is_blocked(r.rfkill, "radio", &reason));
	g_assert_cmpuint(r.heard->len, ==, 4);

	/* The kernel's end closed: the watch goes, nothing spins. */
	close(r.wfd);
	iterate();
	wifi_rfkill_free(r.rfkill);
	g_ptr_array_unref(r.heard);
	remove_sysfs(&r, 2);
}

/* ---- the station ------------------------------------------------------------ */

typedef struct {
	TestCore *tc;
	FakeNl *fake;
	WifiNl *nl;
	FakeLink *link;
	WifiLink *wifi_link;
	WifiIface *iface;
	WifiStation *station;
} Fixture;

/* The manager's part: the interface's nl80211 events to its station. */
static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	wifi_station_handle_event(((Fixture *)user_data)->station, cmd, attrs);
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	WifiStationSetup setup = {0};

	log_capture_reset();
	wiphy->name = g_strdup("phy0");
	wiphy->max_scan_ssids = 4;
	wiphy->supports_connect = TRUE;
	f->tc = test_core_new("[Scan]\nInitialPeriodicScanInterval=1\n", wifi_settings);
	joind_core_declare_profile_keys(f->tc->core, wifi_profile_keys);
	f->nl = fake_nl_new(&f->fake);
	f->wifi_link = fake_link_new(&f->link);
	f->iface = wifi_iface_new(f->nl, f->wifi_link, wiphy, 7, "wlan0");
	setup.core = f->tc->core;
	setup.iface = f->iface;
	setup.device = JOIND_DEVICE(wifi_device_new(7, "wlan0", NULL, NULL));
	g_assert_true(joind_core_add_device(f->tc->core, setup.device, NULL));
	f->station = wifi_station_new(&setup);
	/* The station holds the device from now on. */
	g_object_unref(setup.device);
	wifi_nl_add_listener(f->nl, on_event, f);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	joind_core_remove_device(f->tc->core, wifi_station_get_joind_device(f->station));
	wifi_station_stop(f->station);
	g_object_unref(f->station);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	wifi_iface_unref(f->iface);
	wifi_link_free(f->wifi_link);
	wifi_nl_free(f->nl);
	test_core_free(f->tc);
}

static JoindDevice *
device(Fixture *f)
{
	return wifi_station_get_joind_device(f->station);
}

static const FakeBss cafe = {.last = 1, .freq = 2412, .signal_mbm = -5000, .ssid = "cafe"};
static const FakeBss home = {.last = 2, .freq = 2437, .signal_mbm = -6000, .ssid = "home"};

/* "home" is known, last joined on 2437 MHz. */
static void
remember_home(Fixture *f)
{
	test_core_add_profile(f->tc, "home.open", "");
	joind_core_note_connected(f->tc->core, (const guint8 *)"home", 4, JOIND_PROFILE_TYPE_OPEN,
	                          home.freq);
}

static void
start(Fixture *f)
{
	wifi_station_start(f->station);
	iterate();
}

/* The frequencies a TRIGGER_SCAN names, as a string ("" for all). */
static gchar *
trigger_freqs(FakeNlRequest *req)
{
	struct nlattr *attr = req->attrs[NL80211_ATTR_SCAN_FREQUENCIES];
	GString *freqs = g_string_new(NULL);
	struct nlattr *freq;
	int rem;

	if (attr == NULL)
		return g_string_free(freqs, FALSE);
	nla_for_each_nested(freq, attr, rem)
	{
		g_string_append_printf(freqs, "%s%u", freqs->len > 0 ? " " : "", nla_get_u32(freq));
	}
	return g_string_free(freqs, FALSE);
}

/* Answers the pending scan with n results; the frequencies it named. */
static gchar *
answer_scan(Fixture *f, const FakeBss *bsses, guint n)
{
	gchar *freqs = trigger_freqs(fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN));

	fake_bss_complete_scan(f->fake, f->nl, bsses, n);
	iterate();
	return freqs;
}

static void
expect_scan(Fixture *f, const gchar *freqs, const FakeBss *bsses, guint n)
{
	g_autofree gchar *scanned = answer_scan(f, bsses, n);

	g_assert_cmpstr(scanned, ==, freqs);
}

/* Started with "home" remembered but out of range: the quick scan and the
 * full scan find nothing; autoconnect waits. */
static void
start_idle(Fixture *f)
{
	remember_home(f);
	start(f);
	expect_scan(f, "2437", NULL, 0);
	expect_scan(f, "", &cafe, 1);
	g_assert_true(joind_device_get_powered(device(f)));
	/* The connector's first DISCONNECT finds no earlier association. */
	fake_nl_done_all(f->fake, NL80211_CMD_DISCONNECT, -ENOTCONN);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
}

static void
scan_refused(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;

	g_assert_false(joind_station_scan_finish(JOIND_STATION(source), result, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	(*(guint *)user_data)++;
}

/* Blocked (cfg80211 sets the link down; its event may come first or
 * after): Powered false, the reason in the log, no periodic scan, no
 * Scan(), no autoconnect on a profile change. Unblocked: the link is set
 * up again, and once it is up autoconnect quick-scans the remembered
 * frequency and joins. */
static void
test_block_unblock(Fixture *f, gconstpointer data)
{
	guint refused = 0;

	start_idle(f);
	fake_nl_clear_sent(f->fake);
	f->link->flags = 0;
	wifi_station_set_blocked(f->station, TRUE, "soft-blocked (airplane mode or rfkill)");
	g_assert_false(joind_device_get_powered(device(f)));
	g_assert_cmpint(joind_device_get_state(device(f)), ==, JOIND_DEVICE_STATE_DOWN);
	g_assert_cmpuint(
	        log_capture_count("INFO: wlan0: radio phy0 soft-blocked (airplane mode or rfkill)"),
	        ==, 1);
	g_assert_cmpuint(
	        log_capture_count(
	                "INFO: wlan0: powered off (soft-blocked (airplane mode or rfkill))"),
	        ==, 1);
	wifi_station_link_changed(f->station, NULL, NULL, 0);
	/* A stale "up" (the link is up, the radio still blocked). */
	f->link->flags = IFF_UP;
	wifi_station_link_changed(f->station, NULL, NULL, IFF_UP);
	g_assert_false(joind_device_get_powered(device(f)));
	f->link->flags = 0;
	joind_station_scan(JOIND_STATION(f->station), NULL, scan_refused, &refused);
	test_core_add_profile(f->tc, "work.open", "");
	test_loop_run_for(1500);
	g_assert_cmpuint(refused, ==, 1);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 0);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONNECT), ==, 0);

	g_assert_cmpuint(f->link->n_set_up, ==, 1);
	wifi_station_set_blocked(f->station, FALSE, "unblocked");
	g_assert_cmpuint(f->link->n_set_up, ==, 2);
	g_assert_false(joind_device_get_powered(device(f)));
	wifi_station_link_changed(f->station, NULL, NULL, IFF_UP);
	g_assert_true(joind_device_get_powered(device(f)));
	g_assert_cmpint(joind_device_get_state(device(f)), ==, JOIND_DEVICE_STATE_NO_CARRIER);
	expect_scan(f, "2437", &home, 1);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONNECT), ==, 1);
	fake_nl_done_all(f->fake, NL80211_CMD_CONNECT, -ECONNREFUSED);
	iterate();
}

/* Blocked before it starts: the link is left alone (setting it up would
 * fail); the unblock sets it up and powers the station. */
static void
test_blocked_at_start(Fixture *f, gconstpointer data)
{
	wifi_station_set_blocked(f->station, TRUE, "hard-blocked (a switch or the firmware)");
	start(f);
	g_assert_cmpuint(f->link->n_set_up, ==, 0);
	g_assert_false(joind_device_get_powered(device(f)));
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 0);
	wifi_station_resumed(f->station);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 0);

	wifi_station_set_blocked(f->station, FALSE, "unblocked");
	g_assert_cmpuint(f->link->n_set_up, ==, 1);
	wifi_station_link_changed(f->station, NULL, NULL, IFF_UP);
	g_assert_true(joind_device_get_powered(device(f)));
	expect_scan(f, "", &cafe, 1);
}

/* Resumed while disconnected: the remembered frequency is scanned at once
 * (not at the periodic scan, 1 s on) and "home", now in range, joined. */
static void
test_resume_quick_scan(Fixture *f, gconstpointer data)
{
	start_idle(f);
	fake_nl_clear_sent(f->fake);
	wifi_station_resumed(f->station);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: autoconnect: quick scan of 2437 MHz"), ==,
	                 2);
	expect_scan(f, "2437", &home, 1);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONNECT), ==, 1);
	fake_nl_done_all(f->fake, NL80211_CMD_CONNECT, -ECONNREFUSED);
	iterate();
}

/* Nothing remembered: the station scans every frequency at once. */
static void
test_resume_full_scan(Fixture *f, gconstpointer data)
{
	start(f);
	expect_scan(f, "", &cafe, 1);
	fake_nl_clear_sent(f->fake);
	wifi_station_resumed(f->station);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
	g_assert_cmpuint(log_capture_count("INFO: wlan0: scan * (resumed from sleep): triggered*"),
	                 ==, 1);
	expect_scan(f, "", &cafe, 1);
}

/* ---- logind's signal ---------------------------------------------------------- */

static void
prepare_for_sleep(GDBusConnection *c, gboolean start)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(g_dbus_connection_emit_signal(
	        c, NULL, "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
	        "PrepareForSleep", g_variant_new("(b)", start), &error));
	g_assert_no_error(error);
	g_assert_true(g_dbus_connection_flush_sync(c, NULL, &error));
}

static void
on_resumed(gpointer user_data)
{
	(*(guint *)user_data)++;
}

/* Only PrepareForSleep(false) from the owner of org.freedesktop.login1 is
 * a resume: not the announcement of a suspend, not a signal of the same
 * name from anyone else. */
static void
test_sleep_signal(void)
{
	TestCore *tc = test_core_new(NULL, wifi_settings);
	joind_core_declare_profile_keys(tc->core, wifi_profile_keys);
	g_autoptr(GDBusConnection) logind = test_bus_new_client(tc->bus);
	g_autoptr(GDBusConnection) impostor = test_bus_new_client(tc->bus);
	g_autoptr(GVariant) owned = NULL;
	g_autoptr(GError) error = NULL;
	guint resumed = 0;
	WifiSleep *sleep = wifi_sleep_new(tc->conn, on_resumed, &resumed);

	owned = g_dbus_connection_call_sync(
	        logind, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "RequestName", g_variant_new("(su)", "org.freedesktop.login1", 4),
	        G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	g_assert_no_error(error);
	prepare_for_sleep(impostor, FALSE);
	prepare_for_sleep(logind, TRUE);
	prepare_for_sleep(logind, FALSE);
	while (resumed == 0)
		g_main_context_iteration(NULL, TRUE);
	test_loop_run_for(100);
	g_assert_cmpuint(resumed, ==, 1);
	g_assert_cmpuint(log_capture_count("INFO: the system is going to sleep"), ==, 1);
	wifi_sleep_free(sleep);
	test_core_free(tc);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
	g_test_add_func("/rfkill/parse", test_parse);
	g_test_add_func("/rfkill/reader", test_reader);
#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
	ADD("/rfkill/block-unblock", test_block_unblock);
	ADD("/rfkill/blocked-at-start", test_blocked_at_start);
	ADD("/rfkill/resume-quick-scan", test_resume_quick_scan);
	ADD("/rfkill/resume-full-scan", test_resume_full_scan);
#undef ADD
	g_test_add_func("/rfkill/sleep-signal", test_sleep_signal);
	return g_test_run();
}
