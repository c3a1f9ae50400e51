/* scan.c - triggered scans, one owner per interface (see scan.h).
 *
 * State machine (scanner_enter() runs every transition and owns the
 * timers):
 *   idle --request--> triggering --ACK--> running --NEW_SCAN_RESULTS--> dumping --> idle
 *   triggering --EBUSY--> busy --other scan's end event or retry timer--> triggering
 *   running --SCAN_ABORTED--> idle (waiters fail with Aborted)
 *   idle --another program's TRIGGER_SCAN--> external --NEW_SCAN_RESULTS--> dumping --> idle
 *   triggering, running, dumping, external --bound passed--> idle (waiters fail)
 *   busy --a connection waits for the radio--> idle (the scan waits again)
 * Requests arriving while a scan is triggering, running or busy and that
 * the scan covers join it; the others are merged into the next scan. A
 * connection attempt's hold (wifi_scanner_hold()) goes before the next
 * scan, and no scan starts while it lasts.
 */
#include "scan.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "joind-error.h"
#include "address.h"
#include "joind-log.h"

#define BUSY_RETRY_SECONDS 2
#define BUSY_MAX_RETRIES   15
#define DUMP_MAX_RETRIES   3

/* How long joind waits for the kernel before it takes a scan for lost (an
 * event dropped, a driver that never reports): from the trigger to its end
 * event, and again for reading the results. A passive channel needs about
 * one beacon interval (102.4 ms) of listening, an active one a few tens of
 * ms, and a connected radio goes back to its own channel between scanned
 * ones: 250 ms per channel is about twice the slowest of these. The base
 * covers the driver's start-up and the request round trips. So a full
 * dual-band scan (about 40 channels) may take 11 s, one with 6 GHz (about
 * 100) 26 s, and a quick scan of 2 remembered frequencies 1.5 s. */
#define SCAN_BOUND_BASE_MS        1000
#define SCAN_BOUND_PER_CHANNEL_MS 250

typedef enum {
	SCAN_IDLE,
	SCAN_TRIGGERING,
	SCAN_RUNNING,
	SCAN_DUMPING,
	SCAN_BUSY,
	SCAN_EXTERNAL,             /* another program's scan runs; we wait for it */
	SCAN_LAST = SCAN_EXTERNAL, /* move with a new last state: the names check it */
} ScanState;

typedef struct {
	guint id;
	WifiScanParams *params; /* NULL for another program's scan */
	GPtrArray *waiters;     /* GTask */
	GString *why;
	guint64 start_ns;
} Scan;

struct _WifiScanner {
	WifiIface *iface;
	WifiScanResultsFunc results;
	WifiScanningFunc scanning;
	gpointer user_data;

	ScanState state;
	Scan *current;
	Scan *next;
	guint8 early_event; /* end event seen before our trigger's ACK */
	guint64 external_start_ns;
	guint request; /* nl80211 request in flight */
	guint busy_timer;
	guint busy_retries;
	guint timeout; /* the bound on waiting for the kernel */
	guint timeout_ms;
	guint dump_retries;
	GPtrArray *dumped;               /* WifiBss of the dump in progress */
	gboolean held;                   /* for a connection attempt, granted or waiting */
	WifiScannerReadyFunc hold_ready; /* set while the hold waits */
	gpointer hold_data;
	guint n_triggered;
	guint last_id;
};

static void scanner_start_next(WifiScanner *self);
static void scanner_trigger(WifiScanner *self, const gchar *reason);

static guint64
boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (guint64)ts.tv_sec * G_GUINT64_CONSTANT(1000000000) + (guint64)ts.tv_nsec;
}

/* ---- parameters ----------------------------------------------------------- */

WifiScanParams *
wifi_scan_params_new(void)
{
	WifiScanParams *params = g_new0(WifiScanParams, 1);

	params->ssids = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	return params;
}

void
wifi_scan_params_free(WifiScanParams *params)
{
	if (params == NULL)
		return;
	g_ptr_array_unref(params->ssids);
	g_clear_pointer(&params->freqs, g_array_unref);
	g_free(params);
}

static gboolean
ssids_contain(GPtrArray *ssids, GBytes *ssid)
{
	for (guint i = 0; i < ssids->len; i++) {
		if (g_bytes_equal(g_ptr_array_index(ssids, i), ssid))
			return TRUE;
	}
	return FALSE;
}

void
wifi_scan_params_add_ssid(WifiScanParams *params, GBytes *ssid)
{
	if (!ssids_contain(params->ssids, ssid))
		g_ptr_array_add(params->ssids, g_bytes_ref(ssid));
}

static gboolean
freqs_contain(const GArray *freqs, guint32 freq)
{
	for (guint i = 0; i < freqs->len; i++) {
		if (g_array_index(freqs, guint32, i) == freq)
			return TRUE;
	}
	return FALSE;
}

gboolean
wifi_scan_params_covers(const WifiScanParams *a, const WifiScanParams *b)
{
	if (b->passive && !a->passive)
		return FALSE;
	for (guint i = 0; i < b->ssids->len; i++) {
		if (!ssids_contain(a->ssids, g_ptr_array_index(b->ssids, i)))
			return FALSE;
	}
	if (a->freqs == NULL)
		return TRUE;
	if (b->freqs == NULL)
		return FALSE;
	for (guint i = 0; i < b->freqs->len; i++) {
		if (!freqs_contain(a->freqs, g_array_index(b->freqs, guint32, i)))
			return FALSE;
	}
	return TRUE;
}

/* Widens into so that it covers from as well. */
static void
params_merge(WifiScanParams *into, const WifiScanParams *from)
{
	into->passive = into->passive && from->passive;
	for (guint i = 0; i < from->ssids->len; i++)
		wifi_scan_params_add_ssid(into, g_ptr_array_index(from->ssids, i));
	if (into->freqs == NULL)
		return;
	if (from->freqs == NULL) {
		g_clear_pointer(&into->freqs, g_array_unref);
		return;
	}
	for (guint i = 0; i < from->freqs->len; i++) {
		guint32 f = g_array_index(from->freqs, guint32, i);

		if (!freqs_contain(into->freqs, f))
			g_array_append_val(into->freqs, f);
	}
}

/* ---- scans ---------------------------------------------------------------- */

static Scan *
scan_new(WifiScanner *self, WifiScanParams *params)
{
	Scan *scan = g_new0(Scan, 1);

	scan->id = ++self->last_id;
	scan->params = params;
	scan->waiters = g_ptr_array_new_with_free_func(g_object_unref);
	scan->why = g_string_new(NULL);
	return scan;
}

static void
scan_add_waiter(Scan *scan, GTask *task, const gchar *why)
{
	g_ptr_array_add(scan->waiters, task);
	if (strstr(scan->why->str, why) == NULL)
		g_string_append_printf(scan->why, "%s%s", scan->why->len > 0 ? ", " : "", why);
}

static void
scan_free(Scan *scan)
{
	g_ptr_array_unref(scan->waiters);
	wifi_scan_params_free(scan->params);
	g_string_free(scan->why, TRUE);
	g_free(scan);
}

/* Answers every waiter (error NULL: success) and frees the scan. */
static void
scan_finish(Scan *scan, const GError *error)
{
	for (guint i = 0; i < scan->waiters->len; i++) {
		GTask *task = g_ptr_array_index(scan->waiters, i);

		if (error != NULL)
			g_task_return_error(task, g_error_copy(error));
		else
			g_task_return_boolean(task, TRUE);
	}
	scan_free(scan);
}

/* ---- the state machine ---------------------------------------------------- */

static const gchar *
scan_state_name(ScanState state)
{
	static const gchar *const names[] = {
	        [SCAN_IDLE] = "idle",       [SCAN_TRIGGERING] = "triggering",
	        [SCAN_RUNNING] = "running", [SCAN_DUMPING] = "dumping",
	        [SCAN_BUSY] = "busy",       [SCAN_EXTERNAL] = "external",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == SCAN_LAST + 1);

	return names[state];
}

/* The bound for one wait on the kernel (see SCAN_BOUND_BASE_MS): from the
 * frequencies the scan covers, or every usable channel of the radio. */
static guint
scanner_bound_ms(WifiScanner *self)
{
	const WifiScanParams *params = self->current != NULL ? self->current->params : NULL;
	GArray *channels = self->iface->wiphy->channels;
	guint n = 0;

	if (params != NULL && params->freqs != NULL) {
		n = params->freqs->len;
	} else {
		for (guint i = 0; channels != NULL && i < channels->len; i++)
			n += g_array_index(channels, WifiChannel, i).disabled ? 0 : 1;
	}
	return SCAN_BOUND_BASE_MS + n * SCAN_BOUND_PER_CHANNEL_MS;
}

static gboolean busy_retry(gpointer user_data);
static gboolean scanner_timed_out(gpointer user_data);

/* Every transition: logs it, stops the timer of the state left and arms
 * the one of the state entered. Running goes on with the bound armed at
 * the trigger: that bound is for the whole scan. */
static void
scanner_enter(WifiScanner *self, ScanState state, const gchar *reason)
{
	ScanState old = self->state;

	if (old == state)
		return;
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->iface->name, NULL, "scan state"},
	                       scan_state_name(old), scan_state_name(state), reason);
	self->state = state;
	g_clear_handle_id(&self->busy_timer, g_source_remove);
	if (old != SCAN_TRIGGERING || state != SCAN_RUNNING)
		g_clear_handle_id(&self->timeout, g_source_remove);
	switch (state) {
	case SCAN_BUSY:
		/* Usually another scan: its end event retries at once. The
		 * timer is for busy states that send no event (an
		 * association in progress). */
		self->busy_timer = g_timeout_add_seconds(BUSY_RETRY_SECONDS, busy_retry, self);
		break;
	case SCAN_TRIGGERING:
	case SCAN_DUMPING:
	case SCAN_EXTERNAL:
		self->timeout_ms = scanner_bound_ms(self);
		self->timeout = g_timeout_add(self->timeout_ms, scanner_timed_out, self);
		break;
	case SCAN_RUNNING:
	case SCAN_IDLE:
		break;
	}
}

/* The current scan is over: answer it and move on to the next. */
static void
scanner_end_current(WifiScanner *self, const GError *error, const gchar *reason)
{
	Scan *scan = g_steal_pointer(&self->current);

	scanner_enter(self, SCAN_IDLE, reason);
	self->early_event = 0;
	if (scan != NULL)
		scan_finish(scan, error);
	scanner_start_next(self);
	if (self->state == SCAN_IDLE)
		self->scanning(FALSE, self->user_data);
}

static void
scanner_fail_current(WifiScanner *self, gint code, const gchar *message)
{
	g_autoptr(GError) error = g_error_new_literal(JOIND_ERROR, code, message);

	wifi_iface_info(self->iface, "scan %u failed: %s", self->current->id, error->message);
	scanner_end_current(self, error, "failed");
}

/* The kernel did not answer within the bound: an event or a reply was
 * lost. Stop waiting so that the next request can scan again. */
static gboolean
scanner_timed_out(gpointer user_data)
{
	WifiScanner *self = user_data;
	g_autofree gchar *msg = NULL;

	self->timeout = 0;
	wifi_nl_cancel(self->iface->nl, self->request);
	self->request = 0;
	g_clear_pointer(&self->dumped, g_ptr_array_unref);
	wifi_iface_warning(self->iface,
	                   "no answer from the kernel within %u ms while %s; giving the scan up",
	                   self->timeout_ms, scan_state_name(self->state));
	if (self->state == SCAN_EXTERNAL) {
		scanner_enter(self, SCAN_IDLE, "another program's scan timed out");
		scanner_start_next(self);
		return G_SOURCE_REMOVE;
	}
	msg = g_strdup_printf("The scan did not finish within %.1f s.", self->timeout_ms / 1000.0);
	scanner_fail_current(self, JOIND_ERROR_FAILED, msg);
	return G_SOURCE_REMOVE;
}

/* ---- dumping results ------------------------------------------------------ */

static void
dump_entry(struct nlattr **attrs, gpointer user_data)
{
	WifiScanner *self = user_data;
	Scan *scan = self->current;
	g_autoptr(GError) error = NULL;
	g_autoptr(WifiBss) bss = NULL;
	guint64 elapsed_ms = (boottime_ns() - scan->start_ns) / 1000000;

	if (attrs[NL80211_ATTR_BSS] == NULL)
		return;
	bss = wifi_bss_new_from_nl(attrs[NL80211_ATTR_BSS], &error);
	if (bss == NULL) {
		wifi_iface_debug(self->iface, "skipping a scan entry: %s", error->message);
		return;
	}
	/* The kernel's cache holds entries from earlier scans too: keep only
	 * what this scan saw. */
	if (bss->last_seen_ns != 0 ? bss->last_seen_ns < scan->start_ns
	                           : bss->seen_ms_ago > elapsed_ms)
		return;
	g_ptr_array_add(self->dumped, g_steal_pointer(&bss));
}

static void scanner_dump(WifiScanner *self, const gchar *reason);

static void
dump_done(int err, gpointer user_data)
{
	WifiScanner *self = user_data;
	Scan *scan = self->current;
	g_autoptr(GPtrArray) bsses = g_steal_pointer(&self->dumped);
	gboolean ours = scan->params != NULL;
	gdouble seconds = (boottime_ns() - scan->start_ns) / 1e9;

	self->request = 0;
	if (err == -EAGAIN && ++self->dump_retries <= DUMP_MAX_RETRIES) {
		wifi_iface_debug(self->iface,
		                 "scan results changed while reading them; reading again");
		scanner_dump(self, "reading again");
		return;
	}
	if (err < 0) {
		g_autofree gchar *msg =
		        g_strdup_printf("Reading scan results failed: %s.", g_strerror(-err));

		scanner_fail_current(self, JOIND_ERROR_FAILED, msg);
		return;
	}
	wifi_iface_info(self->iface, "scan %u (%s): %u BSSes in %.1f s", scan->id,
	                ours ? scan->why->str : "another program's", bsses->len, seconds);
	self->results(bsses, ours ? scan->params->freqs : NULL, ours, self->user_data);
	scanner_end_current(self, NULL, "results read");
}

static void
scanner_dump(WifiScanner *self, const gchar *reason)
{
	struct nl_msg *msg = wifi_nl_msg_new(self->iface->nl, NL80211_CMD_GET_SCAN, NLM_F_DUMP);

	scanner_enter(self, SCAN_DUMPING, reason);
	g_clear_pointer(&self->dumped, g_ptr_array_unref);
	self->dumped = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->iface->ifindex);
	self->request = wifi_nl_send(self->iface->nl, msg, dump_entry, dump_done, self, NULL);
}

/* ---- triggering ----------------------------------------------------------- */

/* current goes back to wait, its waiters and parameters merged into next. */
static void
scanner_requeue_current(WifiScanner *self)
{
	Scan *scan = g_steal_pointer(&self->current);
	Scan *next = g_steal_pointer(&self->next);

	if (next != NULL) {
		params_merge(scan->params, next->params);
		while (next->waiters->len > 0)
			scan_add_waiter(scan, g_ptr_array_steal_index(next->waiters, 0),
			                next->why->str);
		scan_free(next);
	}
	self->next = scan;
}

/* A busy radio may try again: unless a connection waits for it, which
 * goes first. */
static void
scanner_retry(WifiScanner *self, const gchar *reason)
{
	if (self->hold_ready == NULL) {
		scanner_trigger(self, reason);
		return;
	}
	scanner_requeue_current(self);
	scanner_enter(self, SCAN_IDLE, "a connection waits for the radio");
	scanner_start_next(self);
	if (self->state == SCAN_IDLE)
		self->scanning(FALSE, self->user_data);
}

static gboolean
busy_retry(gpointer user_data)
{
	WifiScanner *self = user_data;

	self->busy_timer = 0;
	scanner_retry(self, "retrying");
	return G_SOURCE_REMOVE;
}

static void
scanner_busy(WifiScanner *self)
{
	if (++self->busy_retries > BUSY_MAX_RETRIES) {
		scanner_fail_current(self, JOIND_ERROR_BUSY,
		                     "The radio stayed busy; scanning is not possible now.");
		return;
	}
	scanner_enter(self, SCAN_BUSY, "the radio is busy");
	if (self->early_event != 0) {
		/* The scan that made us busy has already ended. */
		scanner_retry(self, "the other scan has ended");
		return;
	}
	wifi_iface_info(self->iface, "scan %u: the radio is busy; retrying when it is free",
	                self->current->id);
}

static void
scanner_handle_end(WifiScanner *self, guint8 cmd)
{
	if (cmd == NL80211_CMD_SCAN_ABORTED) {
		scanner_fail_current(self, JOIND_ERROR_ABORTED, "The scan was aborted.");
		return;
	}
	self->dump_retries = 0;
	scanner_dump(self, "results ready");
}

static void
trigger_done(int err, gpointer user_data)
{
	WifiScanner *self = user_data;

	self->request = 0;
	if (err == -EBUSY) {
		scanner_busy(self);
		return;
	}
	if (err < 0) {
		g_autofree gchar *msg =
		        g_strdup_printf("Starting a scan failed: %s.", g_strerror(-err));

		scanner_fail_current(self, JOIND_ERROR_FAILED, msg);
		return;
	}
	scanner_enter(self, SCAN_RUNNING, "started");
	if (self->early_event != 0)
		scanner_handle_end(self, self->early_event);
}

/* Probe requests go out: the radio can send them, and params wants them. */
static gboolean
scan_is_active(WifiScanner *self, const WifiScanParams *params)
{
	return self->iface->wiphy->max_scan_ssids > 0 && !params->passive;
}

static struct nl_msg *
build_trigger(WifiScanner *self, const WifiScanParams *params)
{
	struct nl_msg *msg = wifi_nl_msg_new(self->iface->nl, NL80211_CMD_TRIGGER_SCAN, 0);
	guint max = self->iface->wiphy->max_scan_ssids;

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->iface->ifindex);
	/* Without any SSID the scan is passive; the wildcard makes it active
	 * and each named SSID is a directed probe (for hidden networks). */
	if (scan_is_active(self, params)) {
		struct nlattr *ssids = nla_nest_start(msg, NL80211_ATTR_SCAN_SSIDS);

		nla_put(msg, 1, 0, "");
		for (guint i = 0; i < params->ssids->len && i + 1 < max; i++) {
			GBytes *ssid = g_ptr_array_index(params->ssids, i);

			nla_put(msg, i + 2, g_bytes_get_size(ssid), g_bytes_get_data(ssid, NULL));
		}
		if (params->ssids->len + 1 > max)
			wifi_iface_debug(self->iface, "only %u of %u SSIDs fit into one scan",
			                 max - 1, params->ssids->len);
		nla_nest_end(msg, ssids);
	}
	/* The kernel refuses a random source address while associated. */
	if (wifi_address_randomize_scans(self->iface->address) && !self->iface->associated &&
	    (self->iface->wiphy->features & NL80211_FEATURE_SCAN_RANDOM_MAC_ADDR))
		nla_put_u32(msg, NL80211_ATTR_SCAN_FLAGS, NL80211_SCAN_FLAG_RANDOM_ADDR);
	if (params->freqs != NULL) {
		struct nlattr *freqs = nla_nest_start(msg, NL80211_ATTR_SCAN_FREQUENCIES);

		for (guint i = 0; i < params->freqs->len; i++)
			nla_put_u32(msg, i + 1, g_array_index(params->freqs, guint32, i));
		nla_nest_end(msg, freqs);
	}
	return msg;
}

static void
scanner_trigger(WifiScanner *self, const gchar *reason)
{
	Scan *scan = self->current;
	const WifiScanParams *params = scan->params;

	self->early_event = 0;
	self->n_triggered++;
	scan->start_ns = boottime_ns();
	scanner_enter(self, SCAN_TRIGGERING, reason);
	wifi_iface_info(self->iface, "scan %u (%s): triggered, %s, %u SSIDs probed, %s", scan->id,
	                scan->why->str, scan_is_active(self, params) ? "active" : "passive",
	                params->ssids->len,
	                params->freqs != NULL ? "some frequencies" : "all frequencies");
	self->request = wifi_nl_send(self->iface->nl, build_trigger(self, params), NULL,
	                             trigger_done, self, NULL);
}

static void
scanner_start_next(WifiScanner *self)
{
	if (self->state != SCAN_IDLE)
		return;
	if (self->hold_ready != NULL) {
		WifiScannerReadyFunc ready = g_steal_pointer(&self->hold_ready);

		wifi_iface_debug(self->iface, "the radio is free for the connection");
		ready(self->hold_data);
		return;
	}
	if (self->held || self->next == NULL)
		return;
	self->current = g_steal_pointer(&self->next);
	self->busy_retries = 0;
	self->scanning(TRUE, self->user_data);
	scanner_trigger(self, "request");
}

/* ---- public --------------------------------------------------------------- */

WifiScanner *
wifi_scanner_new(WifiIface *iface, WifiScanResultsFunc results, WifiScanningFunc scanning,
                 gpointer user_data)
{
	WifiScanner *self = g_new0(WifiScanner, 1);

	self->iface = wifi_iface_ref(iface);
	self->results = results;
	self->scanning = scanning;
	self->user_data = user_data;
	return self;
}

void
wifi_scanner_free(WifiScanner *self)
{
	g_autoptr(GError) error = NULL;

	if (self == NULL)
		return;
	error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_ABORTED,
	                            "The interface went away during the scan.");
	wifi_nl_cancel(self->iface->nl, self->request);
	g_clear_handle_id(&self->busy_timer, g_source_remove);
	g_clear_handle_id(&self->timeout, g_source_remove);
	if (self->current != NULL)
		scan_finish(g_steal_pointer(&self->current), error);
	if (self->next != NULL)
		scan_finish(g_steal_pointer(&self->next), error);
	g_clear_pointer(&self->dumped, g_ptr_array_unref);
	wifi_iface_unref(self->iface);
	g_free(self);
}

void
wifi_scanner_scan(WifiScanner *self, WifiScanParams *params, const gchar *why,
                  GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(NULL, cancellable, callback, user_data);
	Scan *cur = self->current;

	g_task_set_source_tag(task, wifi_scanner_scan);
	/* A scan not yet under way can still widen; a running one joins if
	 * it covers the request. */
	if (cur != NULL && cur->params != NULL &&
	    (self->state == SCAN_BUSY ||
	     ((self->state == SCAN_TRIGGERING || self->state == SCAN_RUNNING) &&
	      wifi_scan_params_covers(cur->params, params)))) {
		params_merge(cur->params, params);
		wifi_scan_params_free(params);
		wifi_iface_info(self->iface, "scan request (%s) joins scan %u", why, cur->id);
		scan_add_waiter(cur, task, why);
		return;
	}
	if (self->next == NULL) {
		self->next = scan_new(self, params);
	} else {
		params_merge(self->next->params, params);
		wifi_scan_params_free(params);
	}
	scan_add_waiter(self->next, task, why);
	if (self->held)
		wifi_iface_info(self->iface, "scan request (%s) waits for the connection attempt",
		                why);
	else if (self->state == SCAN_EXTERNAL)
		wifi_iface_info(self->iface,
		                "scan request (%s) waits for another program's scan to end", why);
	else if (self->state != SCAN_IDLE)
		wifi_iface_info(self->iface, "scan request (%s) waits for scan %u to end", why,
		                cur != NULL ? cur->id : 0);
	scanner_start_next(self);
}

gboolean
wifi_scanner_hold(WifiScanner *self, WifiScannerReadyFunc ready, gpointer user_data)
{
	if (self->state == SCAN_IDLE && self->hold_ready == NULL) {
		self->held = TRUE;
		return TRUE;
	}
	if (self->hold_ready == NULL && self->current != NULL && self->current->params != NULL)
		wifi_iface_info(self->iface, "the connection waits for scan %u to end",
		                self->current->id);
	else if (self->hold_ready == NULL)
		wifi_iface_info(self->iface,
		                "the connection waits for another program's scan to end");
	self->held = TRUE;
	self->hold_ready = ready;
	self->hold_data = user_data;
	return FALSE;
}

void
wifi_scanner_release(WifiScanner *self)
{
	if (!self->held)
		return;
	self->held = FALSE;
	self->hold_ready = NULL;
	scanner_start_next(self);
}

gboolean
wifi_scanner_scan_finish(WifiScanner *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, NULL), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}

/* Another program's scan ended: read what it found, then start what
 * waits. */
static void
scanner_external_ended(WifiScanner *self, guint8 cmd)
{
	if (cmd == NL80211_CMD_NEW_SCAN_RESULTS) {
		self->current = scan_new(self, NULL);
		self->current->start_ns = self->external_start_ns;
		self->dump_retries = 0;
		scanner_dump(self, "another program's results ready");
		return;
	}
	scanner_enter(self, SCAN_IDLE, "another program's scan aborted");
	scanner_start_next(self);
}

void
wifi_scanner_resync(WifiScanner *self)
{
	/* Events were lost: the end of the scan we wait for may be among
	 * them. What the kernel holds now is read as that scan's results; a
	 * scan still running is cut short, which costs a partial table until
	 * the next one, not a scanner that waits for an event never to come. */
	if (self->state == SCAN_RUNNING)
		scanner_handle_end(self, NL80211_CMD_NEW_SCAN_RESULTS);
	else if (self->state == SCAN_EXTERNAL)
		scanner_external_ended(self, NL80211_CMD_NEW_SCAN_RESULTS);
}

void
wifi_scanner_handle_event(WifiScanner *self, guint8 cmd, struct nlattr **attrs)
{
	if (cmd == NL80211_CMD_TRIGGER_SCAN) {
		/* Ours is announced too, but only while we trigger or run it. */
		if (self->state == SCAN_IDLE) {
			self->external_start_ns = boottime_ns();
			scanner_enter(self, SCAN_EXTERNAL, "another program scans");
		}
		return;
	}
	if (cmd != NL80211_CMD_NEW_SCAN_RESULTS && cmd != NL80211_CMD_SCAN_ABORTED)
		return;
	switch (self->state) {
	case SCAN_TRIGGERING:
		self->early_event = cmd;
		break;
	case SCAN_RUNNING:
		scanner_handle_end(self, cmd);
		break;
	case SCAN_BUSY:
		scanner_retry(self, "the other scan has ended");
		break;
	case SCAN_EXTERNAL:
		scanner_external_ended(self, cmd);
		break;
	case SCAN_IDLE:
	case SCAN_DUMPING:
		break;
	}
}

guint
wifi_scanner_get_n_triggered(WifiScanner *self)
{
	return self->n_triggered;
}
