/* connect.c - a station's connection over nl80211: one state machine
 * (see connect.h).
 *
 *   IDLE              nothing associated
 *   AUTHENTICATING    joind's SME: the attempt's authentication method
 *                     (auth-method.h) sends its first frame: CMD_AUTHENTICATE
 *                     answered by the AUTHENTICATE event (open system), or
 *                     SAE's commits and confirms, its PMK then keying's
 *   ASSOCIATING       joind's SME: CMD_ASSOCIATE sent, the ASSOCIATE event
 *                     answers; or the kernel's: CMD_CONNECT sent, the
 *                     CONNECT event answers
 *   KEYING            associated to a secured network: the key step runs
 *                     (keying.c: the 4-way handshake over the PMK, keys,
 *                     the authorized port); its timer bounds it
 *   CONNECTED         associated, keyed and authorized
 *   DEAUTHENTICATING  joind's SME before the association: CMD_DEAUTHENTICATE
 *                     sent; our own DEAUTHENTICATE event ends it
 *   DISCONNECTING     CMD_DISCONNECT (CMD_DEAUTHENTICATE on the SME path)
 *                     sent; the DISCONNECT event ends it
 *   REASSOCIATING     a roam's ASSOCIATING (connect-roam.c): CMD_ASSOCIATE
 *                     naming the BSS left, while the network stays
 *                     connected
 * Only connector_enter() changes the state; it logs `old -> new (reason)`,
 * cancels the old state's command and timer and runs the new state's
 * entry actions. A Connect() waits in `next` (for its secret, or for the
 * old link's teardown) and becomes `cur` when it starts; the states above
 * IDLE run on `cur`.
 *
 * Events come in order on one socket, so waiting for the DISCONNECT event
 * that our own command causes keeps an event of the link being torn down
 * from being taken for the next attempt's; a DISCONNECT event before an
 * association (an earlier link's) is ignored. When no event comes within
 * a second, the timer ends the teardown.
 *
 * The operational state of the interface follows (link.c): "dormant"
 * until the port is authorized (open: associated), then "up".
 *
 * What nl80211's events do to the machine is in connect-events.c; the
 * state both files share is connect-private.h.
 */
#include "connect-private.h"

#include <errno.h>

#include "joind-mac.h"
#include "auth-method.h"
#include "diagnostics.h"
#include "joind-log.h"
#include "sme.h"

/* IEEE 802.11 reason code 3: deauthenticated because the station leaves. */
#define WIFI_REASON_DEAUTH_LEAVING 3
/* After the association: hostapd sends message 1 four times a second
 * apart before it gives up, so this lets a wrong passphrase show. */
#define WIFI_HANDSHAKE_TIMEOUT_S 5
#define WIFI_TEARDOWN_TIMEOUT_S  1
/* cfg80211 answers authentication and association within a few hundred
 * milliseconds (its own retries included) and CMD_CONNECT within a scan
 * and that; an answer later than this was lost (an event socket overrun). */
#define WIFI_ASSOCIATION_TIMEOUT_S 15

const gchar *const conn_state_names[] = {
        [CONN_IDLE] = "idle",
        [CONN_WAITING] = "waiting for the radio",
        [CONN_AUTHENTICATING] = "authenticating",
        [CONN_ASSOCIATING] = "associating",
        [CONN_KEYING] = "keying",
        [CONN_CONNECTED] = "connected",
        [CONN_DEAUTHENTICATING] = "deauthenticating",
        [CONN_DISCONNECTING] = "disconnecting",
        [CONN_REASSOCIATING] = "reassociating",
};
G_STATIC_ASSERT(G_N_ELEMENTS(conn_state_names) == CONN_LAST + 1);

/* ---- attempts ------------------------------------------------------------- */

static void
connector_notify(WifiConnector *self, WifiConnectEvent event)
{
	g_autoptr(GArray) observers = NULL;

	if (self->cur == NULL || self->observers->len == 0)
		return;
	/* A copy: an observer may remove itself (or another) as it hears. */
	observers = g_array_copy(self->observers);
	for (guint i = 0; i < observers->len; i++) {
		const WifiConnectObserverEntry *o =
		        &g_array_index(observers, WifiConnectObserverEntry, i);

		o->func(event, self->cur->network, self->cur->bss, o->user_data);
	}
}

/* The attempt under way failed: the observer learns how, the caller why;
 * then the link goes (next: a teardown state, or IDLE when nothing is
 * associated). */
void
connector_fail(WifiConnector *self, WifiConnectEvent event, gint code, const gchar *message,
               ConnState next)
{
	if (self->roaming && connector_roam_elsewhere(self, message))
		return;
	connector_notify(self, event);
	wifi_attempt_fail(self->cur, self->iface->name, code, message);
	connector_enter(self, next, message);
}

void
connector_set_oper_up(WifiConnector *self, gboolean up)
{
	if (self->oper_up == up || self->iface->link == NULL)
		return;
	self->oper_up = up;
	wifi_iface_debug(self->iface, "operational state %s", up ? "up" : "dormant");
	wifi_link_set_oper_up(self->iface->link, (gint)self->iface->ifindex, up);
}

/* cur is over: its network is no longer connected. */
void
connector_release(WifiConnector *self)
{
	g_clear_pointer(&self->keying, wifi_keying_free);
	connector_rescan_cancel(self);
	if (self->method != NULL)
		self->method->release(self);
	self->method = NULL;
	connector_set_oper_up(self, FALSE);
	connector_keep_neighbours(self, FALSE);
	if (self->cur != NULL)
		joind_network_set_connected(JOIND_NETWORK(self->cur->network), FALSE);
	g_clear_pointer(&self->cur, wifi_attempt_free);
	joind_station_set_connected_network(self->station, NULL);
	joind_station_set_connected_access_point(self->station, NULL);
	joind_station_set_target_network(self->station, NULL);
}

static void
connector_complete_disconnects(WifiConnector *self)
{
	g_autoptr(GPtrArray) tasks = g_steal_pointer(&self->disconnect_tasks);

	self->disconnect_tasks = g_ptr_array_new_with_free_func(g_object_unref);
	for (guint i = 0; i < tasks->len; i++)
		g_task_return_boolean(g_ptr_array_index(tasks, i), TRUE);
}

/* ---- commands ------------------------------------------------------------- */

void
connector_teardown_done(WifiConnector *self, const gchar *why)
{
	/* A Connect() waiting for the teardown starts without flapping
	 * through "disconnected". */
	if (self->next != NULL && self->next->secret == NULL) {
		connector_release(self);
		connector_start(self);
	} else {
		connector_enter(self, CONN_IDLE, why);
	}
	connector_complete_disconnects(self);
}

static void
teardown_sent(int error, gpointer user_data)
{
	WifiConnector *self = user_data;

	self->request = 0;
	if (error == 0)
		return;
	/* -ENOTCONN, -EALREADY: not associated after all, no event follows. */
	if (error != -ENOTCONN && error != -EALREADY)
		wifi_iface_warning(self->iface, "%s: %s",
		                   self->via_sme ? "DEAUTHENTICATE" : "DISCONNECT",
		                   g_strerror(-error));
	connector_teardown_done(self, "disconnected");
}

static gboolean
teardown_timeout(gpointer user_data)
{
	WifiConnector *self = user_data;

	self->timer = 0;
	wifi_iface_debug(self->iface, "no event after the teardown command");
	connector_teardown_done(self, "disconnected");
	return G_SOURCE_REMOVE;
}

/* cur is there whenever a teardown state is entered; were it not, a
 * DISCONNECT would leave whatever the kernel holds. */
static void
send_teardown(WifiConnector *self)
{
	const guint8 *bssid = self->via_sme && self->cur != NULL ? self->cur->bss->bssid : NULL;
	struct nl_msg *msg = wifi_sme_msg_leave(self->iface->nl, self->iface->ifindex, bssid,
	                                        WIFI_REASON_DEAUTH_LEAVING);

	connector_set_oper_up(self, FALSE);
	/* Armed first: a send that fails at once ends the teardown before
	 * wifi_nl_send() returns. */
	self->timer = g_timeout_add_seconds(WIFI_TEARDOWN_TIMEOUT_S, teardown_timeout, self);
	self->request = wifi_nl_send(self->iface->nl, msg, NULL, teardown_sent, self, NULL);
}

static void
command_sent(int error, gpointer user_data)
{
	WifiConnector *self = user_data;
	const gchar *stage = self->state == CONN_AUTHENTICATING ? "authentication" : "association";
	g_autofree gchar *message = NULL;

	self->request = 0;
	if (error == 0)
		return;
	/* cfg80211 authenticates only to a BSS in its scan table; its own
	 * SME scans first, so it takes over this attempt (not a roam's: it
	 * cannot reassociate, and the roamer has the BSS scanned). */
	if (error == -ENOENT && self->state == CONN_AUTHENTICATING && !self->roaming) {
		wifi_iface_info(self->iface,
		                "the kernel no longer knows the BSS: CMD_CONNECT instead");
		self->via_sme = FALSE;
		connector_enter(self, CONN_ASSOCIATING, "the kernel's SME takes over");
		return;
	}
	message = self->via_sme ? g_strdup_printf("The kernel refused the %s: %s", stage,
	                                          g_strerror(-error))
	                        : g_strdup_printf("The kernel refused to connect: %s",
	                                          g_strerror(-error));
	connector_fail(self, WIFI_CONNECT_EVENT_FAILED, JOIND_ERROR_FAILED, message, CONN_IDLE);
}

void
connector_send_command(WifiConnector *self, guint8 cmd)
{
	WifiAttempt *cur = self->cur;
	struct nl_msg *msg;
	gchar addr[JOIND_MAC_STRING_LEN];

	msg = wifi_sme_msg_command(self->iface->nl, cmd, self->iface->ifindex, cur->bss,
	                           cur->secure ? &cur->plan : NULL, self->iface->wiphy,
	                           self->control_port_nl);
	/* A roam's is a reassociation request: it names the BSS left. */
	if (cmd == NL80211_CMD_ASSOCIATE && self->roaming)
		nla_put(msg, NL80211_ATTR_PREV_BSSID, 6, self->roam_from);
	if (cmd == NL80211_CMD_CONNECT)
		wifi_iface_info(self->iface, "CONNECT (the kernel's SME) to %s",
		                joind_mac_to_string(cur->bss->bssid, addr));
	else
		wifi_iface_info(self->iface, "%s with %s (userspace SME)", wifi_nl_cmd_name(cmd),
		                joind_mac_to_string(cur->bss->bssid, addr));
	self->request = wifi_nl_send(self->iface->nl, msg, NULL, command_sent, self, NULL);
}

/* ---- states --------------------------------------------------------------- */

static ConnState teardown_state(WifiConnector *self);

static gboolean
association_timeout(gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autofree gchar *message = g_strdup_printf(
	        "No answer to the %s came within %d s.",
	        self->state == CONN_AUTHENTICATING ? "authentication" : "association",
	        WIFI_ASSOCIATION_TIMEOUT_S);

	self->timer = 0;
	connector_fail(self, WIFI_CONNECT_EVENT_NO_ANSWER, JOIND_ERROR_FAILED, message,
	               teardown_state(self));
	return G_SOURCE_REMOVE;
}

static gboolean
keying_timeout(gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autoptr(GError) error = NULL;

	self->timer = 0;
	error = wifi_keying_abort(self->keying, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0);
	connector_keying_failed(self, error, CONN_DISCONNECTING);
	return G_SOURCE_REMOVE;
}

static void
enter_connected(WifiConnector *self, const gchar *reason)
{
	WifiAttempt *cur = self->cur;
	g_autoptr(GTask) task = g_steal_pointer(&cur->task);
	gchar bssid[JOIND_MAC_STRING_LEN];

	self->connected_mono = g_get_monotonic_time();
	wifi_scanner_release(self->scanner);
	wifi_attempt_remember(cur, self->core, self->keying);
	joind_network_set_connected(JOIND_NETWORK(cur->network), TRUE);
	wifi_network_set_last_connected(cur->network, g_get_real_time() / G_USEC_PER_SEC);
	joind_station_set_connected_network(self->station, JOIND_NETWORK(cur->network));
	joind_station_set_connected_access_point(self->station,
	                                         joind_mac_to_string(cur->bss->bssid, bssid));
	connector_notify(self, WIFI_CONNECT_EVENT_CONNECTED);
	joind_device_set_state(joind_station_get_device(self->station), JOIND_DEVICE_STATE_UP);
	connector_set_oper_up(self, TRUE);
	connector_keep_neighbours(self, FALSE);
	joind_station_set_state(self->station, JOIND_STATION_STATE_CONNECTED, reason);
	if (task != NULL)
		g_task_return_boolean(task, TRUE);
}

static void
enter_idle(WifiConnector *self, const gchar *reason)
{
	JoindDevice *device = joind_station_get_device(self->station);

	wifi_attempt_fail(self->cur, self->iface->name, JOIND_ERROR_FAILED, reason);
	connector_release(self);
	wifi_scanner_release(self->scanner);
	if (device != NULL)
		joind_device_set_state(device, JOIND_DEVICE_STATE_NO_CARRIER);
	joind_station_set_state(self->station, JOIND_STATION_STATE_DISCONNECTED, reason);
}

void
connector_enter(WifiConnector *self, ConnState state, const gchar *reason)
{
	ConnState old = self->state;
	/* Idle after a teardown, or after a wait that Disconnect() ended, is
	 * no failure. */
	gboolean torn_down =
	        old == CONN_DISCONNECTING || old == CONN_DEAUTHENTICATING || old == CONN_WAITING;

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO,
	                       state == CONN_CONNECTED            ? JOIND_LOG_AUTHORIZATION
	                       : state == CONN_IDLE && !torn_down ? JOIND_LOG_FAILURE
	                                                          : JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->iface->name,
	                                          wifi_attempt_get_name(self->cur), "connection"},
	                       conn_state_names[old], conn_state_names[state], reason);
	g_clear_handle_id(&self->timer, g_source_remove);
	wifi_nl_cancel(self->iface->nl, self->request);
	self->request = 0;
	self->state = state;
	if (state == CONN_CONNECTED || state == CONN_IDLE)
		self->roaming = FALSE;
	self->iface->associated =
	        state == CONN_KEYING || state == CONN_CONNECTED || state == CONN_DISCONNECTING;
	switch (state) {
	case CONN_IDLE:
		enter_idle(self, reason);
		break;
	case CONN_WAITING:
		break; /* the scanner's bound ends the scan, and so the wait */
	case CONN_AUTHENTICATING:
	case CONN_ASSOCIATING:
	case CONN_REASSOCIATING:
		/* Armed first: a command the kernel refuses at once leaves
		 * the state before the command is sent. */
		self->timer = g_timeout_add_seconds(WIFI_ASSOCIATION_TIMEOUT_S, association_timeout,
		                                    self);
		if (state == CONN_AUTHENTICATING)
			self->method->authenticate(self);
		else
			connector_send_command(self, self->via_sme ? NL80211_CMD_ASSOCIATE
			                                           : NL80211_CMD_CONNECT);
		break;
	case CONN_KEYING:
		wifi_keying_associated(self->keying);
		if (!wifi_keying_is_8021x(self->keying))
			self->timer = g_timeout_add_seconds(WIFI_HANDSHAKE_TIMEOUT_S,
			                                    keying_timeout, self);
		break;
	case CONN_CONNECTED:
		enter_connected(self, reason);
		break;
	case CONN_DEAUTHENTICATING:
	case CONN_DISCONNECTING:
		send_teardown(self);
		break;
	}
}

ConnState
connector_association_state(WifiConnector *self)
{
	return self->roaming ? CONN_REASSOCIATING : CONN_ASSOCIATING;
}

/* The teardown a link in the current state needs. */
static ConnState
teardown_state(WifiConnector *self)
{
	gboolean associated = self->state != CONN_AUTHENTICATING &&
	                      self->state != CONN_ASSOCIATING && self->state != CONN_REASSOCIATING;

	return self->via_sme && !associated ? CONN_DEAUTHENTICATING : CONN_DISCONNECTING;
}

/* ---- the key step --------------------------------------------------------- */

/* No message 3 after a PSK's message 2 is a suspicion about the
 * passphrase; after 802.1X it says nothing of the credentials. SAE fails
 * before there is a key step (no keying): its error says it all. */
static WifiConnectEvent
keying_event(WifiConnector *self, const GError *error)
{
	gboolean eap = self->keying != NULL && wifi_keying_is_8021x(self->keying);

	if (!self->method->has_credentials)
		return WIFI_CONNECT_EVENT_HANDSHAKE_FAILED;
	if (self->keying != NULL ? wifi_keying_blames_credentials(self->keying, error)
	                         : g_error_matches(error, WIFI_HANDSHAKE_ERROR,
	                                           WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE))
		return WIFI_CONNECT_EVENT_WRONG_PASSPHRASE;
	if (g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3) && !eap)
		return WIFI_CONNECT_EVENT_KEYS_REFUSED;
	return WIFI_CONNECT_EVENT_HANDSHAKE_FAILED;
}

/* A handshake failed: nothing is saved; the link goes (next: the
 * teardown, or IDLE when the access point already ended it). An EAP
 * server refused for want of trust is kept for the diagnostics, where a
 * person reads what to pin. */
void
connector_keying_failed(WifiConnector *self, const GError *error, ConnState next)
{
	GVariant *report = self->keying != NULL && self->cur->eap_profile != NULL
	                           ? wifi_keying_get_eap_server_cert(self->keying)
	                           : NULL;

	g_clear_pointer(&self->refused_server, g_variant_unref);
	if (report != NULL)
		self->refused_server = wifi_diagnostics_refused_server(
		        report, joind_profile_get_name(self->cur->eap_profile));
	if (self->refused_server != NULL)
		g_variant_ref_sink(self->refused_server);
	self->cur->psk.save = FALSE;
	if (self->method->keying_failed(self, error, next))
		return;
	connector_fail(self, keying_event(self, error),
	               self->method->has_credentials ? wifi_keying_error_code(error)
	                                             : JOIND_ERROR_FAILED,
	               error->message, next);
}

static void
on_keyed(const GError *error, gpointer user_data)
{
	WifiConnector *self = user_data;

	/* A handshake the access point started over on the keyed link that
	 * could not finish: the link is lost (autoconnect comes back). */
	if (error != NULL && self->state == CONN_CONNECTED &&
	    g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_TIMEOUT)) {
		connector_fail(self, WIFI_CONNECT_EVENT_LINK_LOST, JOIND_ERROR_FAILED,
		               error->message, teardown_state(self));
		return;
	}
	if (error != NULL) {
		connector_keying_failed(self, error, teardown_state(self));
		return;
	}
	if (self->state == CONN_KEYING)
		connector_enter(self, CONN_CONNECTED, "keys installed, port authorized");
}

/* ---- starting an attempt -------------------------------------------------- */

gboolean
connector_key_step(WifiConnector *self)
{
	g_autoptr(GError) error = NULL;
	WifiKeyingConfig config;

	wifi_attempt_keying_config(self->cur, self->core, self->control_port_nl, &config);
	self->keying = wifi_keying_new(self->iface, &config, on_keyed, self, &error);
	if (self->keying == NULL)
		connector_fail(self, WIFI_CONNECT_EVENT_FAILED, JOIND_ERROR_FAILED, error->message,
		               CONN_IDLE);
	return self->keying != NULL;
}

void
connector_radio_ready(gpointer user_data)
{
	WifiConnector *self = user_data;

	if (self->state == CONN_WAITING)
		self->method->go(self, "the scan ended");
	else
		wifi_scanner_release(self->scanner);
}

/* next becomes cur and is shown as connecting; it goes once no scan is
 * under way (a scan mac80211 cut short for its authentication would
 * leave it without the table it needs). */
void
connector_start(WifiConnector *self)
{
	g_autoptr(GError) error = NULL;
	gchar addr[JOIND_MAC_STRING_LEN];
	WifiAttempt *cur = self->cur = g_steal_pointer(&self->next);

	g_clear_pointer(&self->refused_server, g_variant_unref);
	if (!wifi_attempt_take_address(
	            cur, self->iface,
	            joind_device_get_address(joind_station_get_device(self->station)), &error)) {
		connector_fail(self, WIFI_CONNECT_EVENT_FAILED, JOIND_ERROR_FAILED, error->message,
		               CONN_IDLE);
		return;
	}
	self->via_sme = self->use_sme;
	self->rescans = 0;
	self->method = wifi_auth_method_for(cur);
	/* Named before the state turns: iwd's clients read it with it. */
	joind_station_set_target_network(self->station, JOIND_NETWORK(cur->network));
	joind_station_set_state(self->station, JOIND_STATION_STATE_CONNECTING, "Connect()");
	wifi_iface_info(self->iface, "connecting to “%s” via %s on %u MHz (%s)",
	                wifi_attempt_get_name(cur), joind_mac_to_string(cur->bss->bssid, addr),
	                cur->bss->freq, self->via_sme ? "userspace SME" : "CMD_CONNECT");
	if (wifi_scanner_hold(self->scanner, connector_radio_ready, self))
		self->method->go(self, "Connect()");
	else
		connector_enter(self, CONN_WAITING, "a scan is under way");
}

/* next has its secret: start it now, or after the current link's
 * teardown. */
static void
connector_begin(WifiConnector *self)
{
	switch (self->state) {
	case CONN_IDLE:
		connector_start(self);
		break;
	case CONN_WAITING: /* nothing to take down: next waits instead */
		connector_release(self);
		connector_start(self);
		break;
	case CONN_DEAUTHENTICATING:
	case CONN_DISCONNECTING:
		break; /* connector_teardown_done() starts it */
	default:
		connector_enter(self, teardown_state(self), "another Connect()");
		break;
	}
}

/* ---- Connect() and Disconnect() ------------------------------------------- */

static void
secret_received(WifiAttempt *next, const GError *error, gpointer user_data)
{
	WifiConnector *self = user_data;

	if (error != NULL) {
		wifi_attempt_fail(next, self->iface->name,
		                  error->domain == JOIND_ERROR ? error->code : JOIND_ERROR_FAILED,
		                  error->message);
		g_clear_pointer(&self->next, wifi_attempt_free);
		return;
	}
	connector_begin(self);
}

/* Whatever Connect() was pending or under way is answered: Aborted. */
static void
connector_abort_calls(WifiConnector *self, const gchar *why)
{
	if (self->next != NULL) {
		wifi_attempt_fail(self->next, self->iface->name, JOIND_ERROR_ABORTED, why);
		g_clear_pointer(&self->next, wifi_attempt_free);
	}
	wifi_attempt_fail(self->cur, self->iface->name, JOIND_ERROR_ABORTED, why);
}

void
wifi_connector_connect_bss(WifiConnector *self, WifiNetwork *network, WifiBss *bss,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(network, cancellable, callback, user_data);
	GPtrArray *bsses = wifi_network_get_bsses(network);
	JoindDevice *device = joind_station_get_device(self->station);
	g_autoptr(GError) error = NULL;
	WifiAttempt *attempt;
	gboolean ask_agent;

	if (bsses == NULL || bsses->len == 0) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "No access point of “%s” is in range.",
		                        joind_network_get_name(JOIND_NETWORK(network)));
		return;
	}
	connector_abort_calls(self, "Aborted by a newer Connect().");
	attempt = wifi_attempt_new(self->core, network,
	                           bss != NULL ? bss : g_ptr_array_index(bsses, 0), self->iface,
	                           self->pmksa_cache, self->use_sme,
	                           joind_device_get_address(device), &ask_agent, &error);
	if (attempt == NULL) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	attempt->task = g_steal_pointer(&task);
	self->next = attempt;
	self->connect_started_real = g_get_real_time();
	if (ask_agent)
		wifi_attempt_request_secret(attempt, self->core, secret_received, self);
	else
		connector_begin(self);
}

gboolean
wifi_connector_take_over(WifiConnector *self, WifiNetwork *network, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
	WifiAttempt *cur = self->cur;
	g_autoptr(GTask) first = NULL;

	if (self->next != NULL || cur == NULL || cur->task == NULL || cur->network != network ||
	    cur->eap_profile != NULL ||
	    (self->state != CONN_WAITING && self->state != CONN_AUTHENTICATING &&
	     self->state != CONN_ASSOCIATING && self->state != CONN_KEYING))
		return FALSE;
	first = g_steal_pointer(&cur->task);
	cur->task = g_task_new(network, cancellable, callback, user_data);
	g_task_return_new_error(first, JOIND_ERROR, JOIND_ERROR_ABORTED,
	                        "A newer Connect() took the attempt over.");
	return TRUE;
}

void
wifi_connector_disconnect(WifiConnector *self, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(self->station, cancellable, callback, user_data);

	connector_abort_calls(self, "Aborted by Disconnect().");
	if (self->state == CONN_WAITING) /* nothing to take down */
		connector_enter(self, CONN_IDLE, "Disconnect()");
	if (self->state == CONN_IDLE) {
		g_task_return_boolean(task, TRUE);
		g_object_unref(task);
		return;
	}
	g_ptr_array_add(self->disconnect_tasks, task);
	if (self->state == CONN_DEAUTHENTICATING || self->state == CONN_DISCONNECTING)
		return;
	joind_station_set_state(self->station, JOIND_STATION_STATE_DISCONNECTING, "Disconnect()");
	connector_enter(self, teardown_state(self), "Disconnect()");
}

/* ---- what the link is, for diagnostics ----------------------------------- */

WifiBss *
wifi_connector_get_connected_bss(WifiConnector *self)
{
	return self->state == CONN_CONNECTED ? self->cur->bss : NULL;
}

const WifiRsnPlan *
wifi_connector_get_rsn_plan(WifiConnector *self)
{
	return self->state == CONN_CONNECTED && self->cur->secure ? &self->cur->plan : NULL;
}

WifiKeying *
wifi_connector_get_keying(WifiConnector *self)
{
	return self->keying;
}

void
wifi_connector_get_times(WifiConnector *self, gint64 *started_real, gint64 *connected_mono)
{
	*started_real = self->connect_started_real;
	*connected_mono = self->connected_mono;
}

GVariant *
wifi_connector_get_refused_server(WifiConnector *self)
{
	return self->refused_server;
}

/* ---- life cycle ----------------------------------------------------------- */

/* A killed joind leaves its association in the kernel, which then refuses
 * every new authentication (EALREADY): IDLE starts from a clean link. */
static void
connector_clear_kernel_link(WifiConnector *self)
{
	struct nl_msg *msg = wifi_sme_msg_leave(self->iface->nl, self->iface->ifindex, NULL,
	                                        WIFI_REASON_DEAUTH_LEAVING);

	self->request = wifi_nl_send(self->iface->nl, msg, NULL, NULL, NULL, NULL);
}

WifiConnector *
wifi_connector_new(JoindCore *core, JoindStation *station, WifiIface *iface, WifiScanner *scanner,
                   WifiPmksaCache *pmksa_cache)
{
	WifiConnector *self = g_new0(WifiConnector, 1);

	self->core = core;
	self->iface = wifi_iface_ref(iface);
	self->scanner = scanner;
	self->pmksa_cache = pmksa_cache;
	self->control_port_nl =
	        wifi_wiphy_can_control_port_nl80211(iface->wiphy) &&
	        joind_core_get_config_bool(core, "General", "ControlPortOverNL80211");
	self->use_sme = iface->wiphy->supports_auth_assoc &&
	                joind_core_get_config_bool(core, "General", "UserspaceSME");
	self->station = station;
	/* "dormant" until a link is authorized, so that whoever waits for
	 * an "up" link waits for keys, not for the association. */
	if (iface->link != NULL)
		wifi_link_set_dormant_mode(iface->link, (gint)iface->ifindex, TRUE);
	self->disconnect_tasks = g_ptr_array_new_with_free_func(g_object_unref);
	self->observers = g_array_new(FALSE, FALSE, sizeof(WifiConnectObserverEntry));
	connector_clear_kernel_link(self);
	return self;
}

void
wifi_connector_add_observer(WifiConnector *self, WifiConnectObserver func, gpointer user_data)
{
	WifiConnectObserverEntry entry = {func, user_data};

	g_array_append_val(self->observers, entry);
}

void
wifi_connector_remove_observer(WifiConnector *self, WifiConnectObserver func,
                               gconstpointer user_data)
{
	for (guint i = 0; i < self->observers->len; i++) {
		const WifiConnectObserverEntry *o =
		        &g_array_index(self->observers, WifiConnectObserverEntry, i);

		if (o->func == func && o->user_data == user_data) {
			g_array_remove_index(self->observers, i);
			return;
		}
	}
}

void
wifi_connector_free(WifiConnector *self)
{
	if (self == NULL)
		return;
	connector_abort_calls(self, "The interface went away.");
	wifi_nl_cancel(self->iface->nl, self->request);
	if (self->state != CONN_IDLE)
		connector_enter(self, CONN_IDLE, "interface removed");
	connector_complete_disconnects(self);
	if (self->iface->link != NULL)
		wifi_link_set_dormant_mode(self->iface->link, (gint)self->iface->ifindex, FALSE);
	g_ptr_array_unref(self->disconnect_tasks);
	g_array_unref(self->observers);
	g_clear_pointer(&self->refused_server, g_variant_unref);
	wifi_iface_unref(self->iface);
	g_free(self);
}
