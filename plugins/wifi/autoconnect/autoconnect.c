/* autoconnect.c - a station's autoconnect state machine (see autoconnect.h).
 *
 * States:
 *   OFF         the interface is down, or a user's Disconnect() turned it off
 *   IDLE        nothing to join in range; the station's periodic scans
 *               (their results) or a profile change wake it
 *   PENDING     something may be joinable, but the connector is still busy
 *               (a link going down, a teardown): decides from the main loop
 *               once the station is disconnected
 *   QUICK_SCAN  scanning only the frequencies remembered for the
 *               autoconnectable known networks (joind_core_get_known_frequencies)
 *   FULL_SCAN   the quick scan found none: every frequency
 *   CONNECTING  its own connect attempt runs
 *   RETRY_WAIT  after a failure or a link loss: the retry timer runs
 *   USER        a user's Connect() runs; autoconnect stands aside
 *   CONNECTED   connected (by it or by a user)
 *   LEAVING     disconnecting because the network's profile went away or
 *               its beacons did
 *
 * ac_enter() is the one place the state changes. Leaving a state abandons
 * what it started: its token is cancelled (a scan of its own completes as
 * cancelled, a late connect or disconnect result is ignored) and its timer
 * is removed. Entering RETRY_WAIT arms the retry timer, entering PENDING
 * the main-loop callback that decides. The waits, the avoid list and the
 * blocked networks are kept by autoconnect-retry.c; what the core knows
 * (profiles, remembered frequencies) is read by autoconnect-known.c.
 */
#include "autoconnect.h"

#include <time.h>

#include "joind-mac.h"
#include "autoconnect-known.h"
#include "cqm.h"

typedef enum {
	AC_OFF,
	AC_IDLE,
	AC_PENDING,
	AC_QUICK_SCAN,
	AC_FULL_SCAN,
	AC_CONNECTING,
	AC_RETRY_WAIT,
	AC_USER,
	AC_CONNECTED,
	AC_LEAVING,
	AC_LAST = AC_LEAVING, /* move with a new last state: the names check it */
} AcState;

static const gchar *const ac_state_names[] = {
        [AC_OFF] = "off",
        [AC_IDLE] = "idle",
        [AC_PENDING] = "pending",
        [AC_QUICK_SCAN] = "quick-scan",
        [AC_FULL_SCAN] = "full-scan",
        [AC_CONNECTING] = "connecting",
        [AC_RETRY_WAIT] = "retry-wait",
        [AC_USER] = "user",
        [AC_CONNECTED] = "connected",
        [AC_LEAVING] = "leaving",
};
G_STATIC_ASSERT(G_N_ELEMENTS(ac_state_names) == AC_LAST + 1);

struct _WifiAutoconnect {
	JoindCore *core;
	JoindStation *station;
	gpointer connector;
	const WifiAutoconnectConnectorOps *connector_ops;
	WifiScanner *scanner;
	WifiIface *iface;
	WifiAutoconnectParamsFunc full_scan_params;
	gpointer user_data;

	AcState state;
	gboolean powered;
	gboolean user_disabled;
	GCancellable *token; /* of what the current state started */
	guint timer;         /* RETRY_WAIT's timeout, PENDING's idle callback */
	guint wait_ms;       /* of the next RETRY_WAIT */
	WifiAutoRetry *retry;
	WifiNetwork *target; /* CONNECTING: the network it joins */
	gulong state_handler;
};

/* An operation's callback data: the autoconnect may be gone by then (its
 * token is cancelled first). */
typedef struct {
	WifiAutoconnect *self;
	GCancellable *token;
	GTask *outer; /* a user's Connect() */
	gboolean quick;
} AcRequest;

static void ac_kick(WifiAutoconnect *self, const gchar *reason);
static void ac_decide(WifiAutoconnect *self, const gchar *reason);

static AcRequest *
ac_request_new(WifiAutoconnect *self)
{
	AcRequest *req = g_new0(AcRequest, 1);

	req->self = self;
	req->token = g_object_ref(self->token);
	return req;
}

static void
ac_request_free(AcRequest *req)
{
	g_object_unref(req->token);
	g_clear_object(&req->outer);
	g_free(req);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AcRequest, ac_request_free)

static gboolean
ac_enabled(WifiAutoconnect *self)
{
	return self->powered && !self->user_disabled;
}

static gboolean
ac_station_disconnected(WifiAutoconnect *self)
{
	return joind_station_get_state(self->station) == JOIND_STATION_STATE_DISCONNECTED;
}

/* ---- the transition function ------------------------------------------ */

static gboolean
ac_retry_fire(gpointer user_data)
{
	WifiAutoconnect *self = user_data;
	g_autofree gchar *why =
	        g_strdup_printf("retry %u", wifi_auto_retry_get_attempts(self->retry));

	self->timer = 0;
	ac_kick(self, why);
	return G_SOURCE_REMOVE;
}

/* PENDING: the connector has unwound by now; decide once disconnected
 * (on_station_state enters PENDING again when that comes later). */
static gboolean
ac_pending_fire(gpointer user_data)
{
	WifiAutoconnect *self = user_data;

	self->timer = 0;
	if (ac_station_disconnected(self))
		ac_decide(self, "disconnected");
	return G_SOURCE_REMOVE;
}

static void
ac_run_exit_actions(WifiAutoconnect *self)
{
	g_cancellable_cancel(self->token);
	g_object_unref(self->token);
	self->token = g_cancellable_new();
	g_clear_handle_id(&self->timer, g_source_remove);
	g_clear_object(&self->target);
}

static void
ac_run_entry_actions(WifiAutoconnect *self)
{
	switch (self->state) {
	case AC_RETRY_WAIT:
		self->timer = g_timeout_add(self->wait_ms, ac_retry_fire, self);
		break;
	case AC_PENDING:
		self->timer = g_idle_add(ac_pending_fire, self);
		break;
	case AC_CONNECTED:
		wifi_auto_retry_connected(self->retry);
		break;
	default:
		break;
	}
}

static void
ac_enter(WifiAutoconnect *self, AcState state, const gchar *reason)
{
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->iface->name, NULL, "autoconnect"},
	                       ac_state_names[self->state], ac_state_names[state], reason);
	ac_run_exit_actions(self);
	self->state = state;
	ac_run_entry_actions(self);
}

/* ---- choosing and connecting ------------------------------------------ */

static guint64
boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (guint64)ts.tv_sec * 1000000000u + (guint64)ts.tv_nsec;
}

/* Nothing to join now: wait and try again, or rest until something
 * happens. */
static void
ac_wait(WifiAutoconnect *self, const gchar *reason)
{
	g_autofree gchar *why = NULL;

	if (!wifi_auto_retry_next_wait(self->retry, g_get_monotonic_time(), &self->wait_ms)) {
		ac_enter(self, AC_IDLE, reason);
		return;
	}
	why = g_strdup_printf("%s; next try in %u ms", reason, self->wait_ms);
	ac_enter(self, AC_RETRY_WAIT, why);
}

static void
ac_connect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *key = NULL;

	/* Success: CONNECTED was entered already (the connector's event). */
	if (g_task_propagate_boolean(G_TASK(result), &error) ||
	    g_cancellable_is_cancelled(req->token))
		return;
	/* What a retry cannot fix waits for the profile to change. */
	if (g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED) ||
	    g_error_matches(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS) ||
	    g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT)) {
		key = wifi_known_network_key(JOIND_NETWORK(source));
		wifi_auto_retry_block(self->retry, key);
		wifi_iface_info(self->iface,
		                "not autoconnecting to “%s” until its profile changes: %s",
		                joind_network_get_name(JOIND_NETWORK(source)), error->message);
	}
	wifi_auto_retry_failed(self->retry);
	ac_wait(self, error->message);
}

/* Starts a connect to the best autoconnectable network in range; FALSE
 * when there is none. */
static gboolean
ac_try_connect(WifiAutoconnect *self, const gchar *reason)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(self->station);
	g_autoptr(GArray) candidates = NULL;
	WifiBss *bss = NULL;
	WifiNetwork *network;
	gchar addr[JOIND_MAC_STRING_LEN];
	gint i;

	if (networks == NULL)
		return FALSE;
	candidates = wifi_known_candidates(networks, self->retry);
	i = wifi_autoconnect_choose((WifiAutoCandidate *)(gpointer)candidates->data,
	                            candidates->len, wifi_auto_retry_get_avoid_list(self->retry),
	                            g_get_monotonic_time(), boottime_ns(), &bss);
	if (i < 0)
		return FALSE;
	network = WIFI_NETWORK(g_array_index(candidates, WifiAutoCandidate, i).network);
	wifi_iface_info(self->iface, "autoconnect chooses “%s” via %s on %u MHz (rank %d, %d dBm)",
	                joind_network_get_name(JOIND_NETWORK(network)),
	                joind_mac_to_string(bss->bssid, addr), bss->freq,
	                wifi_network_get_rank(network), bss->signal / 100);
	ac_enter(self, AC_CONNECTING, reason);
	self->target = g_object_ref(network);
	self->connector_ops->connect_bss(self->connector, network, bss, NULL, ac_connect_done,
	                                 ac_request_new(self));
	return TRUE;
}

/* ---- scanning ------------------------------------------------------------- */

static void ac_scan(WifiAutoconnect *self, gboolean quick, const gchar *reason);

static void
ac_scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	g_autoptr(GError) error = NULL;

	if (!wifi_scanner_scan_finish(NULL, result, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	if (g_cancellable_is_cancelled(req->token))
		return;
	if (error != NULL)
		wifi_iface_info(self->iface, "autoconnect scan: %s", error->message);
	if (!ac_station_disconnected(self)) {
		ac_enter(self, AC_IDLE, "no longer disconnected");
		return;
	}
	if (ac_try_connect(self, req->quick ? "found by the quick scan" : "found by the full scan"))
		return;
	if (req->quick && !wifi_auto_retry_after_link_loss(self->retry, g_get_monotonic_time())) {
		ac_scan(self, FALSE, "the quick scan found no known network");
		return;
	}
	ac_wait(self, "no known network in range");
}

static void
ac_scan(WifiAutoconnect *self, gboolean quick, const gchar *reason)
{
	WifiScanParams *params = self->full_scan_params(self->user_data);
	AcRequest *req;
	GString *list = g_string_new(NULL);

	if (quick)
		params->freqs = wifi_known_quick_freqs(self->core);
	if (params->freqs == NULL)
		quick = FALSE;
	for (guint i = 0; quick && i < params->freqs->len; i++)
		g_string_append_printf(list, "%s%u", i > 0 ? " " : "",
		                       g_array_index(params->freqs, guint32, i));
	ac_enter(self, quick ? AC_QUICK_SCAN : AC_FULL_SCAN, reason);
	if (quick)
		wifi_iface_info(self->iface, "autoconnect: quick scan of %s MHz", list->str);
	g_string_free(list, TRUE);
	req = ac_request_new(self);
	req->quick = quick;
	wifi_scanner_scan(self->scanner, params, quick ? "autoconnect, quick" : "autoconnect, full",
	                  req->token, ac_scan_done, req);
}

/* Disconnected: join what is in range, or look for it first. */
static void
ac_decide(WifiAutoconnect *self, const gchar *reason)
{
	if (!wifi_auto_retry_scan_first(self->retry) && ac_try_connect(self, reason))
		return;
	ac_scan(self, TRUE, reason);
}

/* Something happened that may make a network joinable. */
static void
ac_kick(WifiAutoconnect *self, const gchar *reason)
{
	if (!ac_enabled(self))
		return;
	switch (self->state) {
	case AC_QUICK_SCAN:
	case AC_FULL_SCAN:
	case AC_CONNECTING:
	case AC_USER:
	case AC_LEAVING:
		return; /* what runs decides again when it ends */
	default:
		break;
	}
	if (ac_station_disconnected(self)) {
		ac_decide(self, reason);
		return;
	}
	/* Connected: nothing to do. Connecting or disconnecting (e.g. a
	 * teardown after a failure): once disconnected. */
	if (joind_station_get_state(self->station) != JOIND_STATION_STATE_CONNECTED)
		ac_enter(self, AC_PENDING, reason);
}

/* ---- what became of a connection ---------------------------------------- */

/* The handshake stopped after our message 2: weighed with the earlier
 * ones (autoconnect-retry.c) before the network is blocked. The BSS is
 * not avoided: the suspicion is about the network's passphrase, and
 * avoiding would turn each forged frame into a minute without the BSS. */
static void
ac_keys_refused(WifiAutoconnect *self, const gchar *key, const gchar *name, const WifiBss *bss)
{
	guint block_s = wifi_auto_retry_get_timings(self->retry)->block_ms / 1000;

	if (wifi_auto_retry_keys_refused(self->retry, key, bss != NULL ? bss->bssid : NULL,
	                                 g_get_monotonic_time()))
		wifi_iface_info(
		        self->iface,
		        "“%s”: the access points keep refusing our keys: the passphrase is "
		        "most likely wrong; no autoconnect for %u s or until its profile changes",
		        name, block_s);
	else
		wifi_iface_info(self->iface,
		                "“%s”: no message 3 after our message 2 (a wrong passphrase, or a "
		                "forged or late frame); trying again",
		                name);
}

static void
ac_wrong_passphrase(WifiAutoconnect *self, const gchar *key, const gchar *name)
{
	wifi_auto_retry_wrong_passphrase(self->retry, key, g_get_monotonic_time());
	wifi_iface_info(self->iface,
	                "“%s”: the access point reports a MIC failure: wrong passphrase; no "
	                "autoconnect for %u s or until its profile changes",
	                name, wifi_auto_retry_get_timings(self->retry)->block_ms / 1000);
}

static void
ac_link_lost(WifiAutoconnect *self, const gchar *name)
{
	wifi_iface_info(self->iface, "link to “%s” lost; reconnecting on its own", name);
	/* The access point is most likely back where it was: only its
	 * remembered channels are scanned, often (the station's full scans
	 * hold off meanwhile, see wifi_autoconnect_is_retrying). */
	wifi_auto_retry_link_lost(self->retry, g_get_monotonic_time());
	if (self->state == AC_CONNECTED && ac_enabled(self))
		ac_enter(self, AC_PENDING, "link lost");
}

static void
ac_observe(WifiConnectEvent event, WifiNetwork *network, const WifiBss *bss, gpointer user_data)
{
	WifiAutoconnect *self = user_data;
	const gchar *name = joind_network_get_name(JOIND_NETWORK(network));
	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));
	gchar addr[JOIND_MAC_STRING_LEN];

	switch (event) {
	case WIFI_CONNECT_EVENT_CONNECTED:
		/* The passphrase works: what was held against it is void. */
		if (key != NULL)
			wifi_auto_retry_unblock(self->retry, key);
		ac_enter(self, AC_CONNECTED, name);
		break;
	case WIFI_CONNECT_EVENT_REFUSED:
	case WIFI_CONNECT_EVENT_HANDSHAKE_FAILED:
		if (bss == NULL)
			break;
		wifi_iface_info(self->iface, "avoiding %s (“%s”) for %u s",
		                joind_mac_to_string(bss->bssid, addr), name,
		                wifi_auto_retry_get_timings(self->retry)->avoid_ms / 1000);
		wifi_auto_retry_avoid(self->retry, bss->bssid, g_get_monotonic_time());
		break;
	case WIFI_CONNECT_EVENT_KEYS_REFUSED:
		if (key != NULL)
			ac_keys_refused(self, key, name, bss);
		break;
	case WIFI_CONNECT_EVENT_WRONG_PASSPHRASE:
		if (key != NULL)
			ac_wrong_passphrase(self, key, name);
		break;
	case WIFI_CONNECT_EVENT_LINK_LOST:
		ac_link_lost(self, name);
		break;
	case WIFI_CONNECT_EVENT_NO_ANSWER:
	case WIFI_CONNECT_EVENT_FAILED:
		break;
	}
}

/* Disconnected: a decision that waited for it runs now. */
static void
on_station_state(JoindStation *station, GParamSpec *pspec, gpointer user_data)
{
	WifiAutoconnect *self = user_data;

	if (!ac_station_disconnected(self))
		return;
	/* Down without a word from the connector (not ours, not a loss it
	 * saw): start over. */
	if (self->state == AC_CONNECTED && ac_enabled(self))
		ac_enter(self, AC_PENDING, "disconnected");
	else if (self->state == AC_PENDING && self->timer == 0)
		ac_enter(self, AC_PENDING, "disconnected");
}

/* ---- the user ------------------------------------------------------------- */

static void
ac_user_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	g_autoptr(GError) error = NULL;

	/* Success: CONNECTED was entered already (the connector's event). */
	if (g_task_propagate_boolean(G_TASK(result), &error)) {
		g_task_return_boolean(req->outer, TRUE);
		return;
	}
	g_task_return_error(req->outer, g_steal_pointer(&error));
	if (!g_cancellable_is_cancelled(req->token))
		ac_enter(self, AC_PENDING, "the user's Connect() failed");
}

/* The BSS a user's Connect() takes: the best one not avoided (the best of
 * all when every one is). */
static WifiBss *
ac_pick_bss(WifiAutoconnect *self, WifiNetwork *network)
{
	GPtrArray *bsses = wifi_network_get_bsses(network);
	WifiAvoidList *avoid = wifi_auto_retry_get_avoid_list(self->retry);
	gint64 now = g_get_monotonic_time();

	for (guint i = 0; bsses != NULL && i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (!wifi_avoid_list_contains(avoid, bss->bssid, now))
			return bss;
	}
	return NULL;
}

void
wifi_autoconnect_user_connect(WifiAutoconnect *self, WifiNetwork *network,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
	AcRequest *req;
	gboolean joining = self->state == AC_CONNECTING && self->target == network;

	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));

	self->user_disabled = FALSE;
	wifi_auto_retry_reset(self->retry);
	/* The user asks for it: whatever blocked it is theirs to overrule. */
	if (key != NULL)
		wifi_auto_retry_unblock(self->retry, key);
	ac_enter(self, AC_USER,
	         joining ? "Connect() by a user, of the network being joined"
	                 : "Connect() by a user");
	req = ac_request_new(self);
	req->outer = g_task_new(network, cancellable, callback, user_data);
	/* A client that made the network known and then asks for it (as
	 * NetworkManager does) finds autoconnect already on its way there. */
	if (joining && self->connector_ops->take_over(self->connector, network, cancellable,
	                                              ac_user_done, req))
		return;
	self->connector_ops->connect_bss(self->connector, network, ac_pick_bss(self, network),
	                                 cancellable, ac_user_done, req);
}

void
wifi_autoconnect_user_disconnect(WifiAutoconnect *self)
{
	self->user_disabled = TRUE;
	ac_enter(self, AC_OFF, "Disconnect() by a user: off until the next Connect()");
}

/* ---- leaving a network ---------------------------------------------------- */

static void
ac_leave_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	g_autoptr(GError) error = NULL;

	if (!g_task_propagate_boolean(G_TASK(result), &error))
		wifi_iface_info(req->self->iface, "disconnecting: %s", error->message);
	if (!g_cancellable_is_cancelled(req->token))
		ac_enter(req->self, AC_PENDING, "left the network");
}

static void
ac_leave(WifiAutoconnect *self, const gchar *reason)
{
	ac_enter(self, AC_LEAVING, reason);
	self->connector_ops->disconnect(self->connector, NULL, ac_leave_done, ac_request_new(self));
}

/* The network the station is on or autoconnect is joining. */
static JoindNetwork *
ac_current_network(WifiAutoconnect *self)
{
	JoindNetwork *network = joind_station_get_connected_network(self->station);

	if (network == NULL && self->target != NULL)
		network = JOIND_NETWORK(self->target);
	return network;
}

static void
ac_profile_removed(WifiAutoconnect *self, JoindProfile *profile, const gchar *key)
{
	JoindNetwork *network = ac_current_network(self);
	g_autofree gchar *current = network != NULL ? wifi_known_network_key(network) : NULL;
	g_autofree gchar *why = NULL;

	if (g_strcmp0(current, key) != 0 || self->state == AC_LEAVING)
		return;
	why = g_strdup_printf("the profile of “%s” was removed", joind_profile_get_name(profile));
	ac_leave(self, why);
}

void
wifi_autoconnect_profile_changed(WifiAutoconnect *self, JoindProfile *profile,
                                 JoindProfileChange change)
{
	GBytes *ssid = joind_profile_get_ssid(profile);
	g_autofree gchar *key = NULL;
	g_autofree gchar *why = NULL;

	if (ssid == NULL)
		return; /* wired */
	key = wifi_known_profile_key(ssid, joind_profile_get_profile_type(profile));
	wifi_auto_retry_unblock(self->retry, key);
	if (change == JOIND_PROFILE_CHANGE_REMOVED) {
		ac_profile_removed(self, profile, key);
		return;
	}
	if (!wifi_known_autoconnects(profile))
		return;
	wifi_auto_retry_reset(self->retry);
	why = g_strdup_printf("profile of “%s” %s", joind_profile_get_name(profile),
	                      change == JOIND_PROFILE_CHANGE_ADDED ? "added" : "changed");
	ac_kick(self, why);
}

void
wifi_autoconnect_handle_event(WifiAutoconnect *self, guint8 cmd, struct nlattr **attrs)
{
	gint rssi = 0;
	WifiCqmEvent event;

	if (cmd != NL80211_CMD_NOTIFY_CQM)
		return;
	event = wifi_cqm_parse(attrs, &rssi);
	wifi_iface_info(self->iface, "CQM: %s (%d dBm)", wifi_cqm_event_to_string(event), rssi);
	if (event != WIFI_CQM_BEACON_LOSS || self->state != AC_CONNECTED)
		return;
	wifi_auto_retry_link_lost(self->retry, g_get_monotonic_time());
	ac_leave(self, "beacon loss (CQM): dropping the link");
}

/* ---- scan results and life cycle ------------------------------------------ */

void
wifi_autoconnect_scan_results(WifiAutoconnect *self)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(self->station);

	if (networks != NULL)
		wifi_known_note_seen(self->core, networks);
	if (!ac_enabled(self) || !ac_station_disconnected(self))
		return;
	if (self->state == AC_IDLE || self->state == AC_RETRY_WAIT) {
		wifi_auto_retry_scanned(self->retry);
		ac_try_connect(self, "a known network is in range");
	}
}

gboolean
wifi_autoconnect_start(WifiAutoconnect *self, const gchar *why)
{
	g_autoptr(GArray) freqs = NULL;

	self->powered = TRUE;
	wifi_auto_retry_reset(self->retry);
	if (self->user_disabled || !ac_station_disconnected(self))
		return FALSE;
	freqs = wifi_known_quick_freqs(self->core);
	if (freqs == NULL) {
		/* The station's first full scan's results decide. */
		ac_enter(self, AC_IDLE, why);
		return FALSE;
	}
	ac_scan(self, TRUE, why);
	return TRUE;
}

void
wifi_autoconnect_stop(WifiAutoconnect *self)
{
	self->powered = FALSE;
	ac_enter(self, AC_OFF, "interface down");
}

gboolean
wifi_autoconnect_resumed(WifiAutoconnect *self)
{
	g_autoptr(GArray) freqs = NULL;

	if (!ac_enabled(self))
		return FALSE;
	if (self->state != AC_IDLE && self->state != AC_RETRY_WAIT)
		return TRUE;
	freqs = wifi_known_quick_freqs(self->core);
	if (freqs == NULL || !ac_station_disconnected(self))
		return FALSE;
	wifi_auto_retry_reset(self->retry);
	ac_scan(self, TRUE, "resumed from sleep");
	return TRUE;
}

gboolean
wifi_autoconnect_is_retrying(WifiAutoconnect *self)
{
	return ac_enabled(self) &&
	       wifi_auto_retry_after_link_loss(self->retry, g_get_monotonic_time()) &&
	       (self->state == AC_RETRY_WAIT || self->state == AC_QUICK_SCAN);
}

WifiAutoconnect *
wifi_autoconnect_new(const WifiAutoconnectSetup *setup)
{
	WifiAutoconnect *self = g_new0(WifiAutoconnect, 1);

	self->core = setup->core;
	self->station = setup->station;
	self->connector = setup->connector;
	self->connector_ops = setup->connector_ops != NULL ? setup->connector_ops
	                                                   : &wifi_autoconnect_connector_ops;
	self->scanner = setup->scanner;
	self->iface = wifi_iface_ref(setup->iface);
	self->full_scan_params = setup->full_scan_params;
	self->user_data = setup->user_data;
	self->state = AC_OFF;
	self->token = g_cancellable_new();
	self->retry = wifi_auto_retry_new(setup->timings != NULL ? setup->timings
	                                                         : &wifi_autoconnect_timings);
	self->connector_ops->add_observer(self->connector, ac_observe, self);
	self->state_handler = g_signal_connect(self->station, "notify::state",
	                                       G_CALLBACK(on_station_state), self);
	return self;
}

void
wifi_autoconnect_free(WifiAutoconnect *self)
{
	if (self == NULL)
		return;
	ac_run_exit_actions(self);
	self->connector_ops->remove_observer(self->connector, ac_observe, self);
	g_signal_handler_disconnect(self->station, self->state_handler);
	wifi_auto_retry_free(self->retry);
	g_object_unref(self->token);
	wifi_iface_unref(self->iface);
	g_free(self);
}
