/* test-scan.c - the scanner's state machine driven through a fake nl80211:
 * one scan, coalescing of requests, a busy radio, aborted scans, another
 * program's scan, reading results (again, filtered by age), scans whose end
 * never comes (the bound), a scanner freed mid-scan, and a connection
 * attempt's hold on the radio. */
#include <errno.h>

#include "fake-bss.h"
#include "joind-error.h"
#include "joind.h"
#include "log-capture.h"
#include "scan.h"

typedef struct {
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	WifiScanner *scanner;
	guint n_results;
	guint n_bsses;
	gboolean authoritative;
	gboolean scanning;
} Fixture;

/* One caller of wifi_scanner_scan(). */
typedef struct {
	guint n_done;
	GError *error;
} Call;

static void
call_clear(Call *call)
{
	g_clear_error(&call->error);
}

static void
on_results(GPtrArray *bsses, const GArray *freqs, gboolean authoritative, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_results++;
	f->n_bsses = bsses->len;
	f->authoritative = authoritative;
}

static void
on_scanning(gboolean scanning, gpointer user_data)
{
	((Fixture *)user_data)->scanning = scanning;
}

static void on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data);

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);

	wiphy->max_scan_ssids = 4;
	f->nl = fake_nl_new(&f->fake);
	f->iface = wifi_iface_new(f->nl, NULL, wiphy, 7, "wlan0");
	f->scanner = wifi_scanner_new(f->iface, on_results, on_scanning, f);
	wifi_nl_add_listener(f->nl, on_event, f);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	wifi_scanner_free(f->scanner);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	wifi_iface_unref(f->iface);
	wifi_nl_free(f->nl);
}

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Call *call = user_data;

	call->n_done++;
	g_clear_error(&call->error);
	wifi_scanner_scan_finish(NULL, result, &call->error);
}

/* Scan parameters: n frequencies (MHz), then an SSID to probe or NULL. */
static WifiScanParams *
params_new(guint n_freqs, const guint32 *freqs, const gchar *ssid)
{
	WifiScanParams *params = wifi_scan_params_new();

	if (n_freqs > 0) {
		params->freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
		g_array_append_vals(params->freqs, freqs, n_freqs);
	}
	if (ssid != NULL) {
		g_autoptr(GBytes) bytes = g_bytes_new(ssid, strlen(ssid));

		wifi_scan_params_add_ssid(params, bytes);
	}
	return params;
}

static void
request(Fixture *f, WifiScanParams *params, Call *call)
{
	wifi_scanner_scan(f->scanner, params, "test", NULL, call_done, call);
}

/* The scanner hears its interface's events as the station hands them on. */
static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	Fixture *f = user_data;

	if (f->scanner != NULL)
		wifi_scanner_handle_event(f->scanner, cmd, attrs);
}

static void iterate(void);

static void
scanner_event(Fixture *f, guint8 cmd)
{
	fake_nl_event(f->nl, fake_nl_iface_event_new(cmd, 7));
	iterate();
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static gboolean
wait_expired(gpointer user_data)
{
	g_error("waited too long");
	return G_SOURCE_REMOVE;
}

/* The pending trigger's SSIDs (the wildcard first, then the probed ones)
 * and frequencies, "ssid,ssid/freq,freq". */
static gchar *
trigger_describe(FakeNlRequest *req)
{
	GString *s = g_string_new(NULL);
	struct nlattr *a;
	int rem;
	guint n = 0;

	if (req->attrs[NL80211_ATTR_SCAN_SSIDS] != NULL)
		nla_for_each_nested(a, req->attrs[NL80211_ATTR_SCAN_SSIDS], rem)
		        g_string_append_printf(s, "%s%.*s", n++ > 0 ? "," : "", nla_len(a),
		                               (const gchar *)nla_data(a));
	g_string_append_c(s, '/');
	n = 0;
	if (req->attrs[NL80211_ATTR_SCAN_FREQUENCIES] != NULL)
		nla_for_each_nested(a, req->attrs[NL80211_ATTR_SCAN_FREQUENCIES], rem)
		        g_string_append_printf(s, "%s%u", n++ > 0 ? "," : "", nla_get_u32(a));
	return g_string_free(s, FALSE);
}

/* ACKs the trigger, then reports and dumps its results (n entries). */
static void
complete_scan(Fixture *f, const FakeBss *bsses, guint n)
{
	fake_bss_complete_scan(f->fake, f->nl, bsses, n);
	iterate();
}

static const FakeBss fresh_bss = {.last = 1, .freq = 2412, .signal_mbm = -5000, .ssid = "home"};

/* A request triggers a scan; its results are dumped after NEW_SCAN_RESULTS
 * and the caller completes after the results callback. */
static void
test_scan_one(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	Call call = {0};

	request(f, wifi_scan_params_new(), &call);
	req = fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, 7);
	g_assert_true(f->scanning);
	complete_scan(f, &fresh_bss, 1);
	g_assert_cmpuint(f->n_results, ==, 1);
	g_assert_cmpuint(f->n_bsses, ==, 1);
	g_assert_true(f->authoritative);
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_no_error(call.error);
	g_assert_false(f->scanning);
	g_assert_cmpuint(wifi_scanner_get_n_triggered(f->scanner), ==, 1);
	call_clear(&call);
}

/* A request the running scan covers joins it; ones it does not cover wait
 * and are merged into one next scan; every caller completes. */
static void
test_scan_coalesce(Fixture *f, gconstpointer data)
{
	static const guint32 f2412 = 2412, f5180 = 5180;
	Call first = {0}, wide = {0}, same = {0}, alpha = {0}, beta = {0};
	g_autofree gchar *trigger1 = NULL;
	g_autofree gchar *trigger2 = NULL;

	request(f, params_new(1, &f2412, NULL), &first);
	request(f, params_new(1, &f5180, NULL), &wide);
	trigger1 = trigger_describe(fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN));
	g_assert_cmpstr(trigger1, ==, "/2412");
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	request(f, params_new(1, &f2412, NULL), &same);
	request(f, params_new(1, &f2412, "alpha"), &alpha);
	request(f, params_new(1, &f5180, "beta"), &beta);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);

	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), NULL, 0);
	iterate();
	g_assert_cmpuint(first.n_done, ==, 1);
	g_assert_cmpuint(same.n_done, ==, 1);
	g_assert_no_error(same.error);
	g_assert_cmpuint(wide.n_done + alpha.n_done + beta.n_done, ==, 0);

	/* The three that waited are one scan, wide enough for each. */
	trigger2 = trigger_describe(fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN));
	g_assert_cmpstr(trigger2, ==, ",alpha,beta/5180,2412");
	g_assert_true(f->scanning);
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(wide.n_done + alpha.n_done + beta.n_done, ==, 3);
	g_assert_no_error(wide.error);
	g_assert_no_error(alpha.error);
	g_assert_no_error(beta.error);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 2);
	g_assert_false(f->scanning);
}

/* EBUSY: another scan runs. Its end event retries at once; while busy, any
 * request joins (the scan is not under way yet, so it widens). */
static void
test_scan_busy_event(Fixture *f, gconstpointer data)
{
	static const guint32 f2412 = 2412;
	Call call = {0}, joined = {0};
	g_autofree gchar *retry = NULL;

	request(f, params_new(1, &f2412, NULL), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), -EBUSY);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	request(f, params_new(0, NULL, "alpha"), &joined);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	retry = trigger_describe(fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN));
	g_assert_cmpstr(retry, ==, ",alpha/");
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_cmpuint(joined.n_done, ==, 1);
	g_assert_no_error(call.error);
	g_assert_no_error(joined.error);
	g_assert_cmpuint(wifi_scanner_get_n_triggered(f->scanner), ==, 2);
}

/* A radio that stays busy fails the scan with Busy after the retries;
 * the end of the other scan seen before our trigger's answer retries at
 * once. */
static void
test_scan_busy_gives_up(Fixture *f, gconstpointer data)
{
	Call call = {0};
	guint n = 0;

	request(f, wifi_scan_params_new(), &call);
	while (call.n_done == 0) {
		FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN);

		scanner_event(f, NL80211_CMD_SCAN_ABORTED);
		fake_nl_done(f->fake, req, -EBUSY);
		iterate();
		n++;
	}
	g_assert_error(call.error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_assert_cmpuint(n, ==, 16);
	g_assert_false(f->scanning);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	call_clear(&call);
}

/* SCAN_ABORTED fails the waiters with Aborted; no results are read. */
static void
test_scan_aborted(Fixture *f, gconstpointer data)
{
	Call call = {0};

	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	scanner_event(f, NL80211_CMD_SCAN_ABORTED);
	g_assert_error(call.error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_GET_SCAN), ==, 0);
	g_assert_cmpuint(f->n_results, ==, 0);
	g_assert_false(f->scanning);
	call_clear(&call);
}

/* A trigger the kernel refuses fails the scan with its errno. */
static void
test_scan_refused(Fixture *f, gconstpointer data)
{
	Call call = {0};

	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), -EOPNOTSUPP);
	iterate();
	g_assert_error(call.error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_nonnull(strstr(call.error->message, g_strerror(EOPNOTSUPP)));
	g_assert_false(f->scanning);
	call_clear(&call);
}

/* The end event can overtake the trigger's ACK: the results are read once
 * the ACK comes. */
static void
test_scan_early_end(Fixture *f, gconstpointer data)
{
	Call call = {0};

	request(f, wifi_scan_params_new(), &call);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_GET_SCAN));
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), &fresh_bss, 1);
	iterate();
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_no_error(call.error);
}

/* Another program's scan (TRIGGER_SCAN while idle) is waited out and its
 * results used (not authoritative: we do not know what it covered); then
 * the request that waited scans. */
static void
test_scan_external(Fixture *f, gconstpointer data)
{
	Call call = {0};

	scanner_event(f, NL80211_CMD_TRIGGER_SCAN);
	request(f, wifi_scan_params_new(), &call);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), &fresh_bss, 1);
	g_assert_cmpuint(f->n_results, ==, 1);
	g_assert_cmpuint(f->n_bsses, ==, 1);
	g_assert_false(f->authoritative);
	g_assert_cmpuint(call.n_done, ==, 0);
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_true(f->authoritative);
	g_assert_cmpuint(wifi_scanner_get_n_triggered(f->scanner), ==, 1);
}

/* Another program's scan that is aborted: nothing to read; ours goes on. */
static void
test_scan_external_aborted(Fixture *f, gconstpointer data)
{
	Call call = {0};

	scanner_event(f, NL80211_CMD_TRIGGER_SCAN);
	request(f, wifi_scan_params_new(), &call);
	scanner_event(f, NL80211_CMD_SCAN_ABORTED);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_GET_SCAN));
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_no_error(call.error);
	g_assert_cmpuint(f->n_results, ==, 1);
}

/* -EAGAIN: the kernel's results changed during the dump; it is read again
 * (what the interrupted dump gave is dropped), a few times at most. */
static void
test_scan_dump_again(Fixture *f, gconstpointer data)
{
	Call call = {0};
	FakeNlRequest *req;

	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN);
	fake_nl_reply(f->fake, req, fake_bss_entry(&fresh_bss));
	fake_nl_done(f->fake, req, -EAGAIN);
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), &fresh_bss, 1);
	iterate();
	g_assert_cmpuint(f->n_bsses, ==, 1);
	g_assert_no_error(call.error);
	g_assert_cmpuint(call.n_done, ==, 1);

	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	/* Each retry is sent as the previous one ends: 1 + 3 retries. */
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_GET_SCAN, -EAGAIN), ==, 4);
	iterate();
	g_assert_cmpuint(call.n_done, ==, 2);
	g_assert_error(call.error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_cmpuint(f->n_results, ==, 1);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_GET_SCAN), ==, 6);
	call_clear(&call);
}

/* The kernel's cache also holds what earlier scans saw: entries last seen
 * before the trigger are left out (by LAST_SEEN_BOOTTIME, or SEEN_MS_AGO
 * where that is missing); malformed ones are skipped. */
static void
test_scan_dump_age(Fixture *f, gconstpointer data)
{
	Call call = {0};
	FakeBss bsses[] = {
	        {.last = 1, .freq = 2412, .signal_mbm = -5000, .ssid = "new"},
	        {.last = 2, .freq = 2437, .signal_mbm = -6000, .ssid = "old", .seen_ms_ago = 60000},
	        {.last = 3, .freq = 2462, .signal_mbm = -7000, .ssid = "before"},
	        {.last = 4, .freq = 2462, .signal_mbm = -7000, .ssid = "after"},
	        {.last = 5, .freq = 2462, .signal_mbm = -7000, .ssid = "bad", .no_ies = TRUE},
	};

	bsses[2].last_seen = fake_bss_now_ns();
	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	bsses[3].last_seen = fake_bss_now_ns();
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), bsses,
	                     G_N_ELEMENTS(bsses));
	iterate();
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_cmpuint(f->n_bsses, ==, 2);
}

/* How a scanner is left waiting on the kernel, for the timers' test. */
typedef enum {
	STALL_TRIGGER,  /* the trigger is never answered */
	STALL_RESULTS,  /* ACKed, then no end event (2 frequencies) */
	STALL_DUMP,     /* the results' dump never ends */
	STALL_EXTERNAL, /* another program's scan never ends */
	STALL_BUSY,     /* EBUSY, and no event follows */
	N_STALLS,
} Stall;

static void
stall_start(Fixture *f, Stall stall, Call *call)
{
	static const guint32 freqs[] = {2412, 2437};

	if (stall == STALL_EXTERNAL)
		scanner_event(f, NL80211_CMD_TRIGGER_SCAN);
	request(f, params_new(stall == STALL_RESULTS ? 2 : 0, freqs, NULL), call);
	if (stall == STALL_TRIGGER || stall == STALL_EXTERNAL)
		return;
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN),
	             stall == STALL_BUSY ? -EBUSY : 0);
	if (stall != STALL_DUMP)
		return;
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	fake_nl_reply(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN),
	              fake_bss_entry(&fresh_bss));
}

/* Given up (the call failed), or the scan triggered again. */
static gboolean
stall_over(Fixture *f, Call *call)
{
	return call->n_done > 0 || fake_nl_find(f->fake, NL80211_CMD_TRIGGER_SCAN) != NULL;
}

/* The stall is over: the failed caller's next request scans, the one that
 * waited gets its scan. Done at once, before another bound passes. */
static void
stall_finish(Fixture *f, Stall stall, Call *call)
{
	Call next = {0};

	if (stall == STALL_EXTERNAL || stall == STALL_BUSY) {
		g_assert_cmpuint(call->n_done, ==, 0);
	} else {
		g_assert_error(call->error, JOIND_ERROR, JOIND_ERROR_FAILED);
		g_assert_false(f->scanning);
		g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
		g_assert_cmpuint(f->n_results, ==, 0);
		request(f, wifi_scan_params_new(), &next);
	}
	complete_scan(f, &fresh_bss, 1);
	g_assert_cmpuint(call->n_done + next.n_done, ==, stall <= STALL_DUMP ? 2 : 1);
	g_assert_no_error(next.error);
	g_assert_cmpuint(f->n_bsses, ==, 1);
}

/* Waits on the kernel are bounded: one second plus a quarter per scanned
 * frequency (from the trigger to the end event; reading the results;
 * another program's scan), with a warning; EBUSY without an event is
 * retried on a timer. The callers fail (no callback of the given-up
 * request runs later), the scanner goes back to idle and the next request
 * scans. The stalls run side by side, each on its own scanner, to keep the
 * test short. */
static void
test_scan_timers(void)
{
	Fixture fx[N_STALLS] = {0};
	Call calls[N_STALLS] = {0};
	gboolean over[N_STALLS] = {0};
	gint64 start = g_get_monotonic_time();
	guint guard = g_timeout_add(5000, wait_expired, NULL);
	guint n_over = 0;

	log_capture_reset();
	log_capture_allow_warning("wlan0: no answer from the kernel within *; giving the scan up");
	for (Stall s = 0; s < N_STALLS; s++) {
		fixture_set_up(&fx[s], NULL);
		stall_start(&fx[s], s, &calls[s]);
	}
	while (n_over < N_STALLS) {
		g_main_context_iteration(NULL, TRUE);
		for (Stall s = 0; s < N_STALLS; s++) {
			if (over[s] || !stall_over(&fx[s], &calls[s]))
				continue;
			if (s == STALL_RESULTS) {
				g_assert_cmpint(g_get_monotonic_time() - start, >=, 1500 * 1000);
				g_assert_nonnull(strstr(calls[s].error->message, "1.5 s"));
			}
			stall_finish(&fx[s], s, &calls[s]);
			over[s] = TRUE;
			n_over++;
		}
	}
	g_source_remove(guard);
	g_assert_cmpuint(log_capture_count("WARNING: wlan0: no answer from the kernel within *"),
	                 ==, 4);
	g_assert_cmpuint(log_capture_count("WARNING: * 1500 ms while running*"), ==, 1);
	g_assert_cmpuint(log_capture_count("WARNING: * 1000 ms while triggering*"), ==, 1);
	g_assert_cmpuint(log_capture_count("WARNING: * 1000 ms while dumping*"), ==, 1);
	g_assert_cmpuint(log_capture_count("WARNING: * 1000 ms while external*"), ==, 1);
	for (Stall s = 0; s < N_STALLS; s++) {
		call_clear(&calls[s]);
		fixture_tear_down(&fx[s], NULL);
	}
}

/* The scanner freed mid-scan (the interface went away): the running scan's
 * and the waiting scan's callers fail with Aborted, its request is
 * cancelled. */
static void
test_scan_freed(Fixture *f, gconstpointer data)
{
	Call running = {0}, waiting = {0};

	request(f, wifi_scan_params_new(), &running);
	request(f, params_new(0, NULL, "alpha"), &waiting);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_GET_SCAN));
	g_clear_pointer(&f->scanner, wifi_scanner_free);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	iterate();
	g_assert_error(running.error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	g_assert_error(waiting.error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	call_clear(&running);
	call_clear(&waiting);
}

/* Only as many SSIDs as the radio probes for in one scan go into it (the
 * wildcard is one); a radio that probes for none scans passively. */
static void
test_scan_ssid_limit(Fixture *f, gconstpointer data)
{
	WifiScanParams *params = params_new(0, NULL, "a");
	Call call = {0};
	g_autofree gchar *active = NULL;
	FakeNlRequest *req;

	for (const gchar *const *s = (const gchar *const[]){"b", "c", "d", NULL}; *s != NULL; s++) {
		g_autoptr(GBytes) ssid = g_bytes_new(*s, 1);

		wifi_scan_params_add_ssid(params, ssid);
	}
	request(f, params, &call);
	active = trigger_describe(fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN));
	g_assert_cmpstr(active, ==, ",a,b,c/");
	complete_scan(f, NULL, 0);

	f->iface->wiphy->max_scan_ssids = 0;
	request(f, params_new(0, NULL, "a"), &call);
	req = fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_null(req->attrs[NL80211_ATTR_SCAN_SSIDS]);
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(call.n_done, ==, 2);
}

/* Events were lost while the scan ran: its results are read at once
 * instead of waiting for an end event that will not come. */
static void
test_scan_resync(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	Call call = {0};

	wifi_scanner_resync(f->scanner); /* idle: nothing to do */
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	wifi_scanner_resync(f->scanner);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN);
	fake_bss_answer_dump(f->fake, req, &fresh_bss, 1);
	iterate();
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_no_error(call.error);
	g_assert_cmpuint(f->n_bsses, ==, 1);
	call_clear(&call);
}

/* ---- a connection attempt's hold ------------------------------------------- */

static void
on_ready(gpointer user_data)
{
	(*(guint *)user_data)++;
}

/* Held while idle: granted at once; a request waits for the release. */
static void
test_hold_idle(Fixture *f, gconstpointer data)
{
	Call call = {0};
	guint ready = 0;

	g_assert_true(wifi_scanner_hold(f->scanner, on_ready, &ready));
	request(f, wifi_scan_params_new(), &call);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 0);
	g_assert_false(f->scanning);
	wifi_scanner_release(f->scanner);
	complete_scan(f, &fresh_bss, 1);
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_no_error(call.error);
	g_assert_cmpuint(ready, ==, 0);
	call_clear(&call);
}

/* Asked during a scan: granted when it has delivered its results, before
 * the scan that waited behind it, which starts on the release. */
static void
test_hold_waits_for_scan(Fixture *f, gconstpointer data)
{
	static const guint32 f5180 = 5180;
	Call running = {0}, queued = {0};
	guint ready = 0;

	request(f, wifi_scan_params_new(), &running);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	g_assert_false(wifi_scanner_hold(f->scanner, on_ready, &ready));
	request(f, params_new(1, &f5180, "alpha"), &queued);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	g_assert_cmpuint(ready, ==, 0);
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), &fresh_bss, 1);
	iterate();
	g_assert_cmpuint(running.n_done, ==, 1);
	g_assert_cmpuint(f->n_results, ==, 1);
	g_assert_cmpuint(ready, ==, 1);
	g_assert_false(f->scanning);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
	wifi_scanner_release(f->scanner);
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(queued.n_done, ==, 1);
	g_assert_no_error(queued.error);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 2);
	g_assert_cmpuint(ready, ==, 1);
	call_clear(&running);
}

/* Our trigger met a busy radio: when the other scan ends, the connection
 * goes first and our scan waits, its caller unanswered, for the release. */
static void
test_hold_busy(Fixture *f, gconstpointer data)
{
	Call call = {0}, later = {0};
	guint ready = 0;

	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), -EBUSY);
	iterate();
	g_assert_false(wifi_scanner_hold(f->scanner, on_ready, &ready));
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	g_assert_cmpuint(ready, ==, 1);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	g_assert_false(f->scanning);
	request(f, params_new(0, NULL, "alpha"), &later);
	g_assert_cmpuint(call.n_done + later.n_done, ==, 0);
	wifi_scanner_release(f->scanner);
	g_assert_true(f->scanning);
	complete_scan(f, NULL, 0);
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_cmpuint(later.n_done, ==, 1);
	g_assert_no_error(call.error);
	g_assert_no_error(later.error);
}

/* A hold released before its scan ended (the attempt was dropped) grants
 * nothing; the queue runs as before. */
static void
test_hold_released_while_waiting(Fixture *f, gconstpointer data)
{
	Call call = {0};
	guint ready = 0;

	request(f, wifi_scan_params_new(), &call);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	g_assert_false(wifi_scanner_hold(f->scanner, on_ready, &ready));
	wifi_scanner_release(f->scanner);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), NULL, 0);
	iterate();
	g_assert_cmpuint(call.n_done, ==, 1);
	g_assert_cmpuint(ready, ==, 0);
	g_assert_true(wifi_scanner_hold(f->scanner, on_ready, &ready));
	wifi_scanner_release(f->scanner);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
	ADD("/scan/one", test_scan_one);
	ADD("/scan/resync", test_scan_resync);
	ADD("/scan/coalesce", test_scan_coalesce);
	ADD("/scan/busy/event", test_scan_busy_event);
	ADD("/scan/busy/gives-up", test_scan_busy_gives_up);
	ADD("/scan/aborted", test_scan_aborted);
	ADD("/scan/refused", test_scan_refused);
	ADD("/scan/early-end", test_scan_early_end);
	ADD("/scan/external", test_scan_external);
	ADD("/scan/external-aborted", test_scan_external_aborted);
	ADD("/scan/dump/again", test_scan_dump_again);
	ADD("/scan/dump/age", test_scan_dump_age);
	ADD("/scan/freed", test_scan_freed);
	ADD("/scan/ssid-limit", test_scan_ssid_limit);
	ADD("/scan/hold/idle", test_hold_idle);
	ADD("/scan/hold/waits-for-scan", test_hold_waits_for_scan);
	ADD("/scan/hold/busy", test_hold_busy);
	ADD("/scan/hold/released-while-waiting", test_hold_released_while_waiting);
#undef ADD
	g_test_add_func("/scan/timers", test_scan_timers);
	return g_test_run();
}
