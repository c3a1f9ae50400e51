/* autoconnect.c - a station's autoconnect state machine (see autoconnect.h).
 *
 * States:
 *   OFF         the interface is down, or a user's Disconnect() turned it off
 *   IDLE        nothing to join in range; the station's periodic scans
 *               (their results) or a profile change wake it
 *   QUICK_SCAN  scanning only the frequencies remembered for the
 *               autoconnectable known networks (joind_core_get_known_frequencies)
 *   FULL_SCAN   the quick scan found none: every frequency
 *   CONNECTING  its own connect attempt runs
 *   RETRY_WAIT  after a failure or a link loss: the timer runs
 *   USER        a user's Connect() runs; autoconnect stands aside
 *   CONNECTED   connected (by it or by a user); CQM is subscribed
 *   LEAVING     disconnecting because the network's profile went away
 *
 * Retries: after a failed attempt the wait doubles from 1 s up to 60 s,
 * at most AC_MAX_ATTEMPTS times in a row; after a link loss the remembered
 * frequencies are quick-scanned every 0.5 s, 1 s, then 2 s for
 * AC_LINK_LOSS_WINDOW_S, so joind is back within about a dwell plus 2 s
 * of the access point's return. A BSS that refused us or whose handshake
 * failed is avoided for AC_AVOID_S; a wrong passphrase blocks the network
 * until its profile changes.
 */
#include "autoconnect.h"

#include <netlink/attr.h>
#include <string.h>
#include <time.h>

#include "autochoice.h"
#include "cqm.h"

#define AC_AVOID_S               60
#define AC_MAX_ATTEMPTS          8
#define AC_RETRY_INITIAL_MS      1000
#define AC_RETRY_MAX_MS          60000
#define AC_LINK_RETRY_INITIAL_MS 500
#define AC_LINK_RETRY_MAX_MS     2000
#define AC_LINK_LOSS_WINDOW_S    60
#define AC_CQM_HYSTERESIS_DB     4

typedef enum {
	AC_OFF,
	AC_IDLE,
	AC_QUICK_SCAN,
	AC_FULL_SCAN,
	AC_CONNECTING,
	AC_RETRY_WAIT,
	AC_USER,
	AC_CONNECTED,
	AC_LEAVING,
} AcState;

static const gchar *const ac_state_names[] = {"off",       "idle",       "quick-scan",
                                              "full-scan", "connecting", "retry-wait",
                                              "user",      "connected",  "leaving"};

struct _WifiAutoconnect {
	JoindCore *core;
	JoindStation *station;
	WifiConnector *connector;
	WifiScanner *scanner;
	WifiIface *iface;
	WifiAutoconnectParamsFunc full_scan_params;
	gpointer user_data;

	AcState state;
	gboolean powered;
	gboolean user_disabled;
	/* Cancelled (and replaced) whenever autoconnect stands aside: a scan
	 * or connect of its own that completes later is then ignored. */
	GCancellable *token;
	guint retry_timer;
	guint idle_kick;
	gchar *kick_reason;  /* waits for State=disconnected */
	guint attempts;      /* failed tries in a row */
	gboolean quick_only; /* a link-loss retry: no full scan after a quick miss */
	gboolean scan_first; /* after a link loss the table still shows the lost BSS */
	gint64 link_lost_at; /* monotonic µs, 0 when not recently */
	WifiAvoidList *avoid;
	GHashTable *blocked; /* profile key -> reason */
	WifiNetwork *target; /* of its own attempt */
	guint8 bssid[6];     /* connected to */
	gulong state_handler;
	guint cqm_request;
	guint roam_scans;
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
static void ac_scan(WifiAutoconnect *self, gboolean quick, const gchar *reason);

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

static void
ac_set_state(WifiAutoconnect *self, AcState state, const gchar *reason)
{
	if (self->state == state)
		return;
	g_info("%s: autoconnect %s -> %s (%s)", self->iface->name, ac_state_names[self->state],
	       ac_state_names[state], reason);
	self->state = state;
}

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

static guint64
boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (guint64)ts.tv_sec * 1000000000u + (guint64)ts.tv_nsec;
}

/* Cancels what runs on its behalf: scans, the retry timer, a pending kick. */
static void
ac_stand_aside(WifiAutoconnect *self)
{
	g_cancellable_cancel(self->token);
	g_object_unref(self->token);
	self->token = g_cancellable_new();
	g_clear_handle_id(&self->retry_timer, g_source_remove);
	g_clear_handle_id(&self->idle_kick, g_source_remove);
	g_clear_pointer(&self->kick_reason, g_free);
	g_clear_object(&self->target);
}

/* ---- what is known ---------------------------------------------------- */

static gchar *
profile_key(GBytes *ssid, JoindProfileType type)
{
	gsize len = 0;
	const guint8 *data = g_bytes_get_data(ssid, &len);
	g_autofree gchar *suffix = g_strdup_printf("profile%d", (gint)type);

	/* Keyed by profile, not network type: sae and psk share a .psk file. */
	return wifi_ssid_key(data, len, suffix);
}

static gchar *
network_profile_key(JoindNetwork *network)
{
	JoindProfileType type;

	if (!joind_network_type_to_profile_type(joind_network_get_network_type(network), &type))
		return NULL;
	return profile_key(joind_network_get_ssid(network), type);
}

/* Known, AutoConnect not false, and joinable without asking anyone. */
static gboolean
profile_autoconnects(JoindProfile *profile)
{
	if (profile == NULL || !joind_profile_get_boolean(profile, "Settings", "AutoConnect", TRUE))
		return FALSE;
	if (joind_profile_get_profile_type(profile) == JOIND_PROFILE_TYPE_PSK)
		return joind_profile_has_key(profile, "Security", "PreSharedKey") ||
		       joind_profile_has_key(profile, "Security", "Passphrase");
	return TRUE;
}

/* The remembered frequencies of every autoconnectable known network,
 * most recently connected first. */
static GArray *
ac_quick_freqs(WifiAutoconnect *self)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_PSK, JOIND_PROFILE_TYPE_OPEN,
	                                         JOIND_PROFILE_TYPE_8021X};
	g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	g_autoptr(GArray) order = g_array_new(FALSE, FALSE, sizeof(gint64));

	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(self->core, types[t]);

		for (guint i = 0; profiles != NULL && i < profiles->len; i++) {
			JoindProfile *p = g_ptr_array_index(profiles, i);
			GBytes *ssid = joind_profile_get_ssid(p);
			gsize len = 0;
			const guint8 *data;
			gint64 last;
			guint at = 0;

			if (ssid == NULL || !profile_autoconnects(p))
				continue;
			data = g_bytes_get_data(ssid, &len);
			last = joind_core_get_last_connected(self->core, data, len, types[t]);
			while (at < order->len && g_array_index(order, gint64, at) >= last)
				at++;
			g_array_insert_val(order, at, last);
			g_ptr_array_insert(
			        lists, (gint)at,
			        joind_core_get_known_frequencies(self->core, data, len, types[t]));
		}
	}
	return wifi_autoconnect_quick_freqs(lists, JOIND_KNOWN_MAX_FREQUENCIES);
}

/* ---- choosing and connecting ------------------------------------------ */

static void ac_connect_done(GObject *source, GAsyncResult *result, gpointer user_data);

static GArray *
ac_candidates(WifiAutoconnect *self, GPtrArray *networks)
{
	GArray *out = g_array_new(FALSE, TRUE, sizeof(WifiAutoCandidate));

	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *n = g_ptr_array_index(networks, i);
		JoindProfile *profile = joind_network_get_profile(n);
		g_autofree gchar *key = network_profile_key(n);
		WifiAutoCandidate c = {
		        .network = n,
		        .rank = wifi_network_get_rank(WIFI_NETWORK(n)),
		        .known = profile != NULL,
		        .autoconnect = profile_autoconnects(profile),
		        .blocked = key == NULL || g_hash_table_contains(self->blocked, key),
		        .bsses = wifi_network_get_bsses(WIFI_NETWORK(n)),
		};

		g_array_append_val(out, c);
	}
	return out;
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
	gchar addr[18];
	gint i;

	if (networks == NULL)
		return FALSE;
	candidates = ac_candidates(self, networks);
	i = wifi_autoconnect_choose((WifiAutoCandidate *)(gpointer)candidates->data,
	                            candidates->len, self->avoid, g_get_monotonic_time(),
	                            boottime_ns(), &bss);
	if (i < 0)
		return FALSE;
	network = WIFI_NETWORK(g_array_index(candidates, WifiAutoCandidate, i).network);
	g_clear_handle_id(&self->retry_timer, g_source_remove);
	g_set_object(&self->target, network);
	g_info("%s: autoconnect chooses “%s” via %s on %u MHz (rank %d, %d dBm)", self->iface->name,
	       joind_network_get_name(JOIND_NETWORK(network)),
	       wifi_bssid_to_string(bss->bssid, addr), bss->freq, wifi_network_get_rank(network),
	       bss->signal / 100);
	ac_set_state(self, AC_CONNECTING, reason);
	wifi_connector_connect_bss(self->connector, network, bss, NULL, ac_connect_done,
	                           ac_request_new(self));
	return TRUE;
}

static gboolean
ac_retry_fire(gpointer user_data)
{
	WifiAutoconnect *self = user_data;
	g_autofree gchar *why = g_strdup_printf("retry %u", self->attempts);

	self->retry_timer = 0;
	ac_set_state(self, AC_IDLE, why);
	ac_kick(self, why);
	return G_SOURCE_REMOVE;
}

static gboolean
ac_link_loss_recent(WifiAutoconnect *self)
{
	return self->link_lost_at != 0 &&
	       g_get_monotonic_time() - self->link_lost_at < AC_LINK_LOSS_WINDOW_S * G_USEC_PER_SEC;
}

/* Nothing to join now: wait and retry, or rest until something happens. */
static void
ac_wait(WifiAutoconnect *self, const gchar *reason)
{
	guint ms;
	g_autofree gchar *why = NULL;

	if (ac_link_loss_recent(self)) {
		ms = wifi_autoconnect_backoff_ms(self->attempts++, AC_LINK_RETRY_INITIAL_MS,
		                                 AC_LINK_RETRY_MAX_MS);
		self->quick_only = TRUE;
	} else if (self->attempts > 0 && self->attempts < AC_MAX_ATTEMPTS) {
		ms = wifi_autoconnect_backoff_ms(self->attempts - 1, AC_RETRY_INITIAL_MS,
		                                 AC_RETRY_MAX_MS);
		self->quick_only = FALSE;
	} else {
		self->link_lost_at = 0;
		self->quick_only = FALSE;
		self->scan_first = FALSE;
		ac_set_state(self, AC_IDLE, reason);
		return;
	}
	why = g_strdup_printf("%s; next try in %u ms", reason, ms);
	ac_set_state(self, AC_RETRY_WAIT, why);
	g_clear_handle_id(&self->retry_timer, g_source_remove);
	self->retry_timer = g_timeout_add(ms, ac_retry_fire, self);
}

static void
ac_connect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	g_autoptr(GError) error = NULL;

	if (g_task_propagate_boolean(G_TASK(result), &error) ||
	    g_cancellable_is_cancelled(req->token))
		return;
	g_clear_object(&self->target);
	if (g_error_matches(error, JOIND_ERROR, JOIND_ERROR_ABORTED)) {
		if (self->state == AC_CONNECTING)
			ac_set_state(self, AC_IDLE, "attempt aborted");
		return;
	}
	/* What a retry cannot fix waits for the profile to change. */
	if (g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED) ||
	    g_error_matches(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS) ||
	    g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT)) {
		g_autofree gchar *key = network_profile_key(JOIND_NETWORK(source));

		if (key != NULL)
			g_hash_table_replace(self->blocked, g_steal_pointer(&key),
			                     g_strdup(error->message));
		g_info("%s: not autoconnecting to “%s” until its profile changes: %s",
		       self->iface->name, joind_network_get_name(JOIND_NETWORK(source)),
		       error->message);
	}
	self->attempts++;
	ac_wait(self, error->message);
}

/* ---- scanning ------------------------------------------------------------- */

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
		g_info("%s: autoconnect scan: %s", self->iface->name, error->message);
	if (!ac_station_disconnected(self)) {
		ac_set_state(self, AC_IDLE, "no longer disconnected");
		return;
	}
	if (ac_try_connect(self, req->quick ? "found by the quick scan" : "found by the full scan"))
		return;
	if (req->quick && !self->quick_only) {
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
		params->freqs = ac_quick_freqs(self);
	if (params->freqs == NULL)
		quick = FALSE;
	for (guint i = 0; quick && i < params->freqs->len; i++)
		g_string_append_printf(list, "%s%u", i > 0 ? " " : "",
		                       g_array_index(params->freqs, guint32, i));
	ac_set_state(self, quick ? AC_QUICK_SCAN : AC_FULL_SCAN, reason);
	if (quick)
		g_info("%s: autoconnect: quick scan of %s MHz", self->iface->name, list->str);
	g_string_free(list, TRUE);
	req = ac_request_new(self);
	req->quick = quick;
	wifi_scanner_scan(self->scanner, params, quick ? "autoconnect, quick" : "autoconnect, full",
	                  req->token, ac_scan_done, req);
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
	if (!ac_station_disconnected(self)) {
		/* Connected: nothing to do. Connecting or disconnecting (e.g. a
		 * teardown after a failure): once disconnected. */
		if (joind_station_get_state(self->station) != JOIND_STATION_STATE_CONNECTED) {
			g_free(self->kick_reason);
			self->kick_reason = g_strdup(reason);
		}
		return;
	}
	g_clear_handle_id(&self->retry_timer, g_source_remove);
	if (!self->scan_first && ac_try_connect(self, reason))
		return;
	ac_scan(self, TRUE, reason);
}

static gboolean
ac_idle_kick(gpointer user_data)
{
	WifiAutoconnect *self = user_data;
	g_autofree gchar *reason = g_steal_pointer(&self->kick_reason);

	self->idle_kick = 0;
	ac_kick(self, reason != NULL ? reason : "link lost");
	return G_SOURCE_REMOVE;
}

/* Later, from the main loop: the connector is still in the middle of it. */
static void
ac_kick_later(WifiAutoconnect *self, const gchar *reason)
{
	g_free(self->kick_reason);
	self->kick_reason = g_strdup(reason);
	if (self->idle_kick == 0)
		self->idle_kick = g_idle_add(ac_idle_kick, self);
}

/* ---- what became of a connection ---------------------------------------- */

static void
cqm_set(int error, gpointer user_data)
{
	WifiAutoconnect *self = user_data;

	self->cqm_request = 0;
	if (error < 0)
		g_info("%s: no signal monitoring (SET_CQM: %s)", self->iface->name,
		       g_strerror(-error));
}

static void
ac_subscribe_cqm(WifiAutoconnect *self)
{
	gint threshold = joind_core_get_config_int(self->core, "Roam", "RoamThreshold");

	wifi_nl_cancel(self->iface->nl, self->cqm_request);
	g_debug("%s: CQM: events below %d dBm", self->iface->name, threshold);
	self->cqm_request = wifi_nl_send(self->iface->nl,
	                                 wifi_cqm_msg_new(self->iface->nl, self->iface->ifindex,
	                                                  threshold, AC_CQM_HYSTERESIS_DB),
	                                 NULL, cqm_set, self, NULL);
}

static void
ac_observe(WifiConnectEvent event, WifiNetwork *network, const WifiBss *bss, gpointer user_data)
{
	WifiAutoconnect *self = user_data;
	const gchar *name = joind_network_get_name(JOIND_NETWORK(network));
	g_autofree gchar *key = NULL;
	gchar addr[18];

	switch (event) {
	case WIFI_CONNECT_EVENT_CONNECTED:
		self->attempts = 0;
		self->link_lost_at = 0;
		self->quick_only = FALSE;
		self->scan_first = FALSE;
		g_clear_handle_id(&self->retry_timer, g_source_remove);
		g_clear_pointer(&self->kick_reason, g_free);
		if (bss != NULL)
			memcpy(self->bssid, bss->bssid, 6);
		ac_set_state(self, AC_CONNECTED, name);
		ac_subscribe_cqm(self);
		break;
	case WIFI_CONNECT_EVENT_REFUSED:
	case WIFI_CONNECT_EVENT_HANDSHAKE_FAILED:
		if (bss == NULL)
			break;
		g_info("%s: avoiding %s (“%s”) for %d s", self->iface->name,
		       wifi_bssid_to_string(bss->bssid, addr), name, AC_AVOID_S);
		wifi_avoid_list_add(self->avoid, bss->bssid, g_get_monotonic_time(),
		                    AC_AVOID_S * G_USEC_PER_SEC);
		break;
	case WIFI_CONNECT_EVENT_WRONG_PASSPHRASE:
		key = network_profile_key(JOIND_NETWORK(network));
		if (key != NULL)
			g_hash_table_replace(self->blocked, g_steal_pointer(&key),
			                     g_strdup("wrong passphrase"));
		g_info("%s: “%s”: wrong passphrase; no autoconnect until its profile changes",
		       self->iface->name, name);
		break;
	case WIFI_CONNECT_EVENT_LINK_LOST:
		g_info("%s: link to “%s” lost; reconnecting on its own", self->iface->name, name);
		self->attempts = 0;
		self->link_lost_at = g_get_monotonic_time();
		/* The access point is most likely back where it was: only its
		 * remembered channels are scanned, often (the station's full
		 * scans hold off meanwhile, see wifi_autoconnect_is_retrying). */
		self->quick_only = TRUE;
		self->scan_first = TRUE;
		if (self->state == AC_CONNECTED)
			ac_set_state(self, AC_IDLE, "link lost");
		ac_kick_later(self, "link lost");
		break;
	case WIFI_CONNECT_EVENT_NO_ANSWER:
	case WIFI_CONNECT_EVENT_FAILED:
		break;
	}
}

/* Connected, connecting, disconnecting: a kick that waited for
 * State=disconnected runs now. */
static void
on_station_state(JoindStation *station, GParamSpec *pspec, gpointer user_data)
{
	WifiAutoconnect *self = user_data;

	if (!ac_station_disconnected(self))
		return;
	if (self->state == AC_CONNECTED) {
		/* Down without a word from the connector (not ours, not a loss
		 * it saw): start over. */
		ac_set_state(self, AC_IDLE, "disconnected");
		ac_kick_later(self, "disconnected");
		return;
	}
	if (self->kick_reason != NULL && self->idle_kick == 0)
		self->idle_kick = g_idle_add(ac_idle_kick, self);
}

/* ---- the user ------------------------------------------------------------- */

static void
ac_user_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	g_autoptr(GError) error = NULL;
	gboolean ok = g_task_propagate_boolean(G_TASK(result), &error);
	gboolean aborted = g_error_matches(error, JOIND_ERROR, JOIND_ERROR_ABORTED);

	if (ok)
		g_task_return_boolean(req->outer, TRUE);
	else
		g_task_return_error(req->outer, g_steal_pointer(&error));
	if (g_cancellable_is_cancelled(req->token) || self->state != AC_USER || aborted)
		return;
	if (ok) {
		ac_set_state(self, AC_CONNECTED, "the user's Connect() succeeded");
		return;
	}
	ac_set_state(self, AC_IDLE, "the user's Connect() failed");
	ac_kick_later(self, "the user's Connect() failed");
}

/* The BSS a user's Connect() takes: the best one not avoided (the best of
 * all when every one is). */
static WifiBss *
ac_pick_bss(WifiAutoconnect *self, WifiNetwork *network)
{
	GPtrArray *bsses = wifi_network_get_bsses(network);
	gint64 now = g_get_monotonic_time();

	for (guint i = 0; bsses != NULL && i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (!wifi_avoid_list_contains(self->avoid, bss->bssid, now))
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

	self->user_disabled = FALSE;
	self->attempts = 0;
	ac_stand_aside(self);
	ac_set_state(self, AC_USER, "Connect() by a user");
	req = ac_request_new(self);
	req->outer = g_task_new(network, cancellable, callback, user_data);
	wifi_connector_connect_bss(self->connector, network, ac_pick_bss(self, network),
	                           cancellable, ac_user_done, req);
}

void
wifi_autoconnect_user_disconnect(WifiAutoconnect *self)
{
	self->user_disabled = TRUE;
	ac_stand_aside(self);
	ac_set_state(self, AC_OFF, "Disconnect() by a user: off until the next Connect()");
}

/* ---- profiles -------------------------------------------------------------- */

static void
ac_leave_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	g_autoptr(GError) error = NULL;

	if (!g_task_propagate_boolean(G_TASK(result), &error))
		g_info("%s: disconnecting: %s", req->self->iface->name, error->message);
	if (g_cancellable_is_cancelled(req->token))
		return;
	ac_set_state(self, AC_IDLE, "left the network");
	ac_kick(self, "after leaving the network");
}

/* The network the station is on or is joining for autoconnect. */
static JoindNetwork *
ac_current_network(WifiAutoconnect *self)
{
	JoindNetwork *network = joind_station_get_connected_network(self->station);

	if (network == NULL && self->state == AC_CONNECTING && self->target != NULL)
		network = JOIND_NETWORK(self->target);
	return network;
}

static void
ac_leave(WifiAutoconnect *self, const gchar *reason)
{
	ac_stand_aside(self);
	ac_set_state(self, AC_LEAVING, reason);
	wifi_connector_disconnect(self->connector, NULL, ac_leave_done, ac_request_new(self));
}

void
wifi_autoconnect_profile_changed(WifiAutoconnect *self, JoindProfile *profile,
                                 JoindProfileChange change)
{
	GBytes *ssid = joind_profile_get_ssid(profile);
	g_autofree gchar *key = NULL;
	g_autofree gchar *current = NULL;
	g_autofree gchar *why = NULL;
	JoindNetwork *network;

	if (ssid == NULL)
		return; /* wired */
	key = profile_key(ssid, joind_profile_get_profile_type(profile));
	g_hash_table_remove(self->blocked, key);
	network = ac_current_network(self);
	if (network != NULL)
		current = network_profile_key(network);
	if (change == JOIND_PROFILE_CHANGE_REMOVED) {
		if (g_strcmp0(current, key) != 0 || self->state == AC_LEAVING)
			return;
		why = g_strdup_printf("the profile of “%s” was removed",
		                      joind_profile_get_name(profile));
		ac_leave(self, why);
		return;
	}
	if (!profile_autoconnects(profile))
		return;
	self->attempts = 0;
	why = g_strdup_printf("profile of “%s” %s", joind_profile_get_name(profile),
	                      change == JOIND_PROFILE_CHANGE_ADDED ? "added" : "changed");
	ac_kick(self, why);
}

/* ---- scan results and CQM -------------------------------------------------- */

/* Remembers where the known networks are (state.json). */
static void
ac_note_seen(WifiAutoconnect *self, GPtrArray *networks)
{
	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *n = g_ptr_array_index(networks, i);
		GPtrArray *bsses = wifi_network_get_bsses(WIFI_NETWORK(n));
		JoindProfileType type;
		gsize len = 0;
		const guint8 *ssid;

		if (joind_network_get_profile(n) == NULL ||
		    !joind_network_type_to_profile_type(joind_network_get_network_type(n), &type))
			continue;
		ssid = g_bytes_get_data(joind_network_get_ssid(n), &len);
		for (guint j = 0; j < bsses->len; j++) {
			WifiBss *bss = g_ptr_array_index(bsses, j);

			if (bss->misses == 0)
				joind_core_note_seen(self->core, ssid, len, type, bss->freq);
		}
	}
}

void
wifi_autoconnect_scan_results(WifiAutoconnect *self)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(self->station);

	if (networks != NULL)
		ac_note_seen(self, networks);
	if (!ac_enabled(self) || !ac_station_disconnected(self))
		return;
	if (self->state == AC_IDLE || self->state == AC_RETRY_WAIT) {
		self->scan_first = FALSE;
		ac_try_connect(self, "a known network is in range");
	}
}

/* Low signal: a full roam is not done yet; scan and log what it would do. */
static void
roam_scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(AcRequest) req = user_data;
	WifiAutoconnect *self = req->self;
	JoindNetwork *network;
	GPtrArray *bsses;
	WifiBss *best;
	gchar a[18], b[18];

	wifi_scanner_scan_finish(NULL, result, NULL);
	if (g_cancellable_is_cancelled(req->token))
		return;
	network = joind_station_get_connected_network(self->station);
	if (network == NULL)
		return;
	bsses = wifi_network_get_bsses(WIFI_NETWORK(network));
	best = bsses->len > 0 ? g_ptr_array_index(bsses, 0) : NULL;
	if (best == NULL || memcmp(best->bssid, self->bssid, 6) == 0)
		g_info("%s: roam scan: no better BSS of “%s” than %s", self->iface->name,
		       joind_network_get_name(network), wifi_bssid_to_string(self->bssid, a));
	else
		/* joind does not roam (issue 6 asks for staying connected, not
		 * for moving between BSSes): the better BSS is logged to show
		 * what a roam would gain, and the link stays as it is. */
		g_info("%s: roam scan: %s is better than %s (%d dBm, score %d); staying, "
		       "joind does not roam",
		       self->iface->name, wifi_bssid_to_string(best->bssid, b),
		       wifi_bssid_to_string(self->bssid, a), best->signal / 100,
		       wifi_bss_score(best));
}

static void
ac_beacon_loss(WifiAutoconnect *self)
{
	self->attempts = 0;
	self->link_lost_at = g_get_monotonic_time();
	self->scan_first = TRUE;
	self->quick_only = TRUE;
	ac_leave(self, "beacon loss (CQM): dropping the link");
}

void
wifi_autoconnect_handle_event(WifiAutoconnect *self, guint8 cmd, struct nlattr **attrs)
{
	gint rssi = 0;
	WifiCqmEvent event;

	if (cmd != NL80211_CMD_NOTIFY_CQM)
		return;
	event = wifi_cqm_parse(attrs, &rssi);
	g_info("%s: CQM: %s (%d dBm)", self->iface->name, wifi_cqm_event_to_string(event), rssi);
	if (self->state != AC_CONNECTED)
		return;
	if (event == WIFI_CQM_BEACON_LOSS) {
		ac_beacon_loss(self);
	} else if (event == WIFI_CQM_RSSI_LOW) {
		self->roam_scans++;
		g_info("%s: signal below the roam threshold: scanning for a better BSS",
		       self->iface->name);
		wifi_scanner_scan(self->scanner, self->full_scan_params(self->user_data), "roam",
		                  self->token, roam_scan_done, ac_request_new(self));
	}
}

/* ---- life cycle ------------------------------------------------------------ */

gboolean
wifi_autoconnect_start(WifiAutoconnect *self, const gchar *why)
{
	g_autoptr(GArray) freqs = NULL;

	self->powered = TRUE;
	self->attempts = 0;
	if (self->user_disabled || !ac_station_disconnected(self))
		return FALSE;
	ac_set_state(self, AC_IDLE, why);
	freqs = ac_quick_freqs(self);
	if (freqs == NULL)
		return FALSE; /* the station's first full scan's results decide */
	ac_scan(self, TRUE, why);
	return TRUE;
}

void
wifi_autoconnect_stop(WifiAutoconnect *self)
{
	self->powered = FALSE;
	ac_stand_aside(self);
	ac_set_state(self, AC_OFF, "interface down");
}

WifiAutoconnect *
wifi_autoconnect_new(const WifiAutoconnectSetup *setup)
{
	WifiAutoconnect *self = g_new0(WifiAutoconnect, 1);

	self->core = setup->core;
	self->station = setup->station;
	self->connector = setup->connector;
	self->scanner = setup->scanner;
	self->iface = wifi_iface_ref(setup->iface);
	self->full_scan_params = setup->full_scan_params;
	self->user_data = setup->user_data;
	self->state = AC_OFF;
	self->token = g_cancellable_new();
	self->avoid = wifi_avoid_list_new();
	self->blocked = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	wifi_connector_set_observer(self->connector, ac_observe, self);
	self->state_handler = g_signal_connect(self->station, "notify::state",
	                                       G_CALLBACK(on_station_state), self);
	return self;
}

gboolean
wifi_autoconnect_is_retrying(WifiAutoconnect *self)
{
	return ac_enabled(self) && self->quick_only && ac_link_loss_recent(self) &&
	       (self->state == AC_RETRY_WAIT || self->state == AC_QUICK_SCAN);
}

void
wifi_autoconnect_free(WifiAutoconnect *self)
{
	if (self == NULL)
		return;
	ac_stand_aside(self);
	g_cancellable_cancel(self->token);
	wifi_nl_cancel(self->iface->nl, self->cqm_request);
	wifi_connector_set_observer(self->connector, NULL, NULL);
	g_signal_handler_disconnect(self->station, self->state_handler);
	wifi_avoid_list_free(self->avoid);
	g_hash_table_unref(self->blocked);
	g_object_unref(self->token);
	wifi_iface_unref(self->iface);
	g_free(self);
}
