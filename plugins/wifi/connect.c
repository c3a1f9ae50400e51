/* connect.c - a station's connection over nl80211 (see connect.h).
 *
 * Either joind's userspace SME (sme.c: CMD_AUTHENTICATE, CMD_ASSOCIATE,
 * when the radio has both and main.conf allows it) or the kernel's
 * (cfg80211, CMD_CONNECT) authenticates and associates; joind picks the
 * BSS and follows the outcome. Phases:
 *   IDLE        nothing associated
 *   CONNECTING  CMD_CONNECT sent, waiting for the CONNECT event; or the
 *               SME's sequence under way (the CONNECT event cfg80211
 *               sends after the association response is then not ours:
 *               the ASSOCIATE event decided already)
 *   HANDSHAKE   associated to a WPA2-PSK network: the 4-way handshake
 *               runs (EAPOL over the nl80211 control port, or over an
 *               AF_PACKET socket when the radio cannot or main.conf says
 *               ControlPortOverNL80211=false), then the keys go in and the
 *               port is authorized; with management frame protection the
 *               IGTK too
 *   CONNECTED   associated (and keyed and authorized)
 *   TEARDOWN    CMD_DISCONNECT (CMD_DEAUTHENTICATE on the SME path) sent,
 *               waiting for its answer; a Connect() queued meanwhile
 *               starts when it comes
 * TEARDOWN ends with the DISCONNECT event our CMD_DISCONNECT causes, not
 * with the command's answer (which may be read first): events come in
 * order, so a CONNECT event of the attempt being torn down (ignored in
 * TEARDOWN) cannot be taken for the next attempt's. When the kernel says
 * it was not connected, or no event comes within a second, the answer
 * ends it. On the SME path before the association, no DISCONNECT event
 * follows: the DEAUTHENTICATE event of our own frame ends it.
 *
 * The operational state of the interface follows (link.c): "dormant"
 * until the port is authorized (open: associated), then "up".
 */
#include "connect.h"

#include <errno.h>
#include <netlink/attr.h>
#include <string.h>

#include "eapol-socket.h"
#include "joind.h"
#include "mgmt.h"
#include "rsn.h"
#include "sme.h"

/* IEEE 802.11 reason code 3: deauthenticated because the station leaves. */
#define WIFI_REASON_DEAUTH_LEAVING 3
/* After the association: hostapd sends message 1 four times a second
 * apart before it gives up, so this lets a wrong passphrase show. */
#define WIFI_HANDSHAKE_TIMEOUT_S 5

typedef enum {
	PHASE_IDLE,
	PHASE_CONNECTING,
	PHASE_HANDSHAKE,
	PHASE_CONNECTED,
	PHASE_TEARDOWN,
} Phase;

struct _WifiConnector {
	JoindStation *station; /* the station owns the connector */
	JoindCore *core;
	WifiIface *iface;
	gboolean control_port_nl;      /* EAPOL over nl80211 (else AF_PACKET) */
	WifiEapolSocket *eapol_socket; /* the AF_PACKET path, while connecting/connected */
	Phase phase;
	/* The userspace SME: used for the attempt under way (sme_attempt)
	 * when the radio can and main.conf allows it (use_sme). */
	WifiSme *sme;
	gboolean use_sme;
	gboolean sme_attempt;
	gboolean associated; /* the kernel has (had) the association */
	gboolean oper_up;
	WifiNetwork *network; /* being connected or connected */
	WifiBss *bss;
	GTask *connect_task;         /* the one pending Connect() */
	GPtrArray *disconnect_tasks; /* Disconnect() calls waiting for TEARDOWN */
	guint request;
	guint teardown_timer; /* fallback when no DISCONNECT event comes */
	/* WPA2-PSK: the plan, the PSK, the handshake and its timer. */
	gboolean secure;
	WifiRsnPlan plan;
	guint8 pmk[WIFI_PSK_LEN];
	gboolean save_psk; /* the profile does not hold this PSK yet */
	guint8 spa[6];
	WifiHandshake *hs;
	guint hs_timer;
	GCancellable *secret_cancellable; /* an agent request */
	WifiConnectObserver observer;
	gpointer observer_data;
	/* A DEAUTHENTICATE/DISASSOCIATE event ended the link: the DISCONNECT
	 * event that usually follows belongs to it. */
	gboolean stale_disconnect;
	/* For diagnostics: when Connect() was accepted (wall clock, µs) and
	 * when the link came up (monotonic, µs). */
	gint64 connect_started_real;
	gint64 connected_mono;
};

static void connector_start(WifiConnector *self);
static void connector_teardown(WifiConnector *self);

static void
connector_set_oper_up(WifiConnector *self, gboolean up)
{
	if (self->oper_up == up || self->iface->link == NULL)
		return;
	self->oper_up = up;
	g_debug("%s: operational state %s", self->iface->name, up ? "up" : "dormant");
	wifi_link_set_oper_up(self->iface->link, (gint)self->iface->ifindex, up);
}

static void
connector_notify(WifiConnector *self, WifiConnectEvent event)
{
	if (self->observer != NULL && self->network != NULL)
		self->observer(event, self->network, self->bss, self->observer_data);
}

static const gchar *
network_name(WifiNetwork *network)
{
	return network != NULL ? joind_network_get_name(JOIND_NETWORK(network)) : "?";
}

static void
connector_fail_connect(WifiConnector *self, gint code, const gchar *message)
{
	g_autoptr(GTask) task = g_steal_pointer(&self->connect_task);

	if (task == NULL)
		return;
	g_info("%s: connect to “%s” failed: %s", self->iface->name, network_name(self->network),
	       message);
	g_task_return_new_error(task, JOIND_ERROR, code, "%s", message);
}

/* Back to IDLE: the network is no longer connected. */
static void
connector_link_down(WifiConnector *self, const gchar *reason)
{
	JoindDevice *device = joind_station_get_device(self->station);

	self->phase = PHASE_IDLE;
	self->associated = FALSE;
	wifi_sme_reset(self->sme);
	connector_set_oper_up(self, FALSE);
	g_clear_handle_id(&self->hs_timer, g_source_remove);
	g_clear_pointer(&self->hs, wifi_handshake_free);
	g_clear_pointer(&self->eapol_socket, wifi_eapol_socket_free);
	joind_secret_clear(self->pmk, sizeof(self->pmk));
	self->secure = FALSE;
	if (self->network != NULL)
		joind_network_set_connected(JOIND_NETWORK(self->network), FALSE);
	g_clear_object(&self->network);
	g_clear_pointer(&self->bss, wifi_bss_unref);
	joind_station_set_connected_network(self->station, NULL);
	if (device != NULL)
		joind_device_set_state(device, JOIND_DEVICE_STATE_NO_CARRIER);
	joind_station_set_state(self->station, JOIND_STATION_STATE_DISCONNECTED, reason);
}

static void
connector_complete_disconnects(WifiConnector *self)
{
	g_autoptr(GPtrArray) tasks = g_steal_pointer(&self->disconnect_tasks);

	self->disconnect_tasks = g_ptr_array_new_with_free_func(g_object_unref);
	for (guint i = 0; i < tasks->len; i++)
		g_task_return_boolean(g_ptr_array_index(tasks, i), TRUE);
}

/* ---- CMD_DISCONNECT ------------------------------------------------------- */

static void
teardown_done(WifiConnector *self)
{
	g_clear_handle_id(&self->teardown_timer, g_source_remove);
	wifi_nl_cancel(self->iface->nl, self->request);
	self->request = 0;
	if (self->connect_task != NULL) {
		/* A queued Connect(): do not flap through "disconnected". */
		if (self->network != NULL)
			joind_network_set_connected(JOIND_NETWORK(self->network), FALSE);
		joind_station_set_connected_network(self->station, NULL);
		connector_start(self);
	} else {
		connector_link_down(self, "disconnected on request");
	}
	connector_complete_disconnects(self);
}

static gboolean
teardown_timeout(gpointer user_data)
{
	WifiConnector *self = user_data;

	self->teardown_timer = 0;
	g_debug("%s: no DISCONNECT event after CMD_DISCONNECT", self->iface->name);
	teardown_done(self);
	return G_SOURCE_REMOVE;
}

static void
disconnect_done(int error, gpointer user_data)
{
	WifiConnector *self = user_data;

	self->request = 0;
	if (self->phase != PHASE_TEARDOWN)
		return;
	if (error == 0) {
		self->teardown_timer = g_timeout_add_seconds(1, teardown_timeout, self);
		return;
	}
	/* -ENOTCONN, -EALREADY: not associated after all, no event follows. */
	if (error != -ENOTCONN && error != -EALREADY)
		g_warning("%s: %s: %s", self->iface->name,
		          self->sme_attempt ? "DEAUTHENTICATE" : "DISCONNECT", g_strerror(-error));
	teardown_done(self);
}

static void
connector_teardown(WifiConnector *self)
{
	struct nl_msg *msg;

	if (self->phase == PHASE_TEARDOWN)
		return;
	wifi_nl_cancel(self->iface->nl, self->request);
	/* The old handshake's timer must not fire into a queued connect; no
	 * EAPOL frame matters any more. */
	g_clear_handle_id(&self->hs_timer, g_source_remove);
	g_clear_pointer(&self->eapol_socket, wifi_eapol_socket_free);
	self->phase = PHASE_TEARDOWN;
	connector_set_oper_up(self, FALSE);
	if (self->sme_attempt) {
		wifi_sme_reset(self->sme);
		msg = wifi_nl_msg_new(self->iface->nl, NL80211_CMD_DEAUTHENTICATE, 0);
		wifi_sme_put_deauthenticate(msg, self->iface->ifindex, self->bss->bssid,
		                            WIFI_REASON_DEAUTH_LEAVING);
	} else {
		msg = wifi_nl_msg_new(self->iface->nl, NL80211_CMD_DISCONNECT, 0);
		nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->iface->ifindex);
		nla_put_u16(msg, NL80211_ATTR_REASON_CODE, WIFI_REASON_DEAUTH_LEAVING);
	}
	self->request = wifi_nl_send(self->iface->nl, msg, NULL, disconnect_done, self, NULL);
}

/* ---- WPA2-PSK: the 4-way handshake ---------------------------------------- */

static void
log_failure(int error, gpointer user_data)
{
	if (error < 0)
		g_warning("%s: %s", (const gchar *)user_data, g_strerror(-error));
}

static void
hs_send(const guint8 *frame, gsize len, gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autoptr(GError) error = NULL;
	struct nl_msg *msg;

	if (self->eapol_socket != NULL) {
		/* The kernel encrypts once a pairwise key is in; the handshake
		 * sends message 4 before it installs the first one. */
		if (!wifi_eapol_socket_send(self->eapol_socket, self->bss->bssid, frame, len,
		                            &error))
			g_warning("%s: %s", self->iface->name, error->message);
		return;
	}
	/* Before the first pairwise key, frames go out in the clear. */
	msg = wifi_rsn_msg_eapol(self->iface->nl, self->iface->ifindex, self->bss->bssid, frame,
	                         len, !wifi_handshake_has_ptk(self->hs));
	wifi_nl_send(self->iface->nl, msg, NULL, log_failure,
	             g_strdup_printf("%s: sending EAPOL", self->iface->name), g_free);
}

static const gchar *
key_kind_name(WifiKeyKind kind)
{
	switch (kind) {
	case WIFI_KEY_KIND_PAIRWISE:
		return "pairwise key (TK)";
	case WIFI_KEY_KIND_GROUP:
		return "group key (GTK)";
	case WIFI_KEY_KIND_GROUP_MGMT:
		return "group management key (IGTK)";
	default:
		return "key";
	}
}

static void
hs_install_key(const WifiHandshakeKey *key, gpointer user_data)
{
	WifiConnector *self = user_data;
	struct nl_msg *set_default;

	/* Once connected, a new group key is a rekey: said at info level so
	 * that a log shows the link living through them. */
	if (self->phase == PHASE_CONNECTED && key->kind != WIFI_KEY_KIND_PAIRWISE)
		g_info("%s: rekey: new %s, key ID %u (%s)", self->iface->name,
		       key_kind_name(key->kind), key->key_id,
		       wifi_cipher_suite_to_string(key->cipher));
	else
		g_debug("%s: installing the %s, key ID %u (%s)", self->iface->name,
		        key_kind_name(key->kind), key->key_id,
		        wifi_cipher_suite_to_string(key->cipher));
	wifi_nl_send(self->iface->nl,
	             wifi_rsn_msg_new_key(self->iface->nl, self->iface->ifindex, key), NULL,
	             log_failure, g_strdup_printf("%s: NEW_KEY", self->iface->name), g_free);
	/* Requests run in order: SET_KEY finds the key NEW_KEY added. */
	set_default = wifi_rsn_msg_set_default_key(self->iface->nl, self->iface->ifindex, key);
	if (set_default != NULL)
		wifi_nl_send(self->iface->nl, set_default, NULL, log_failure,
		             g_strdup_printf("%s: SET_KEY", self->iface->name), g_free);
}

static gint
handshake_error_code(const GError *error)
{
	return g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE)
	               ? JOIND_ERROR_AUTHENTICATION_FAILED
	               : JOIND_ERROR_FAILED;
}

/* Reports the failure and deauthenticates (associated) or forgets the link
 * (the access point already ended it). Nothing is saved. */
static void
connector_handshake_failed(WifiConnector *self, const GError *error, gboolean associated)
{
	const gchar *message = error != NULL ? error->message : "The key handshake failed.";

	self->save_psk = FALSE;
	g_clear_handle_id(&self->hs_timer, g_source_remove);
	connector_notify(self, error != NULL && handshake_error_code(error) ==
	                                                JOIND_ERROR_AUTHENTICATION_FAILED
	                               ? WIFI_CONNECT_EVENT_WRONG_PASSPHRASE
	                               : WIFI_CONNECT_EVENT_HANDSHAKE_FAILED);
	connector_fail_connect(
	        self, error != NULL ? handshake_error_code(error) : JOIND_ERROR_FAILED, message);
	if (associated)
		connector_teardown(self);
	else
		connector_link_down(self, message);
}

static void connector_connected(WifiConnector *self);

static void
authorized(int error, gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autoptr(GError) local = NULL;

	self->request = 0;
	if (self->phase != PHASE_HANDSHAKE && self->phase != PHASE_CONNECTING)
		return;
	if (error < 0) {
		local = g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "Cannot authorize the port: %s", g_strerror(-error));
		connector_handshake_failed(self, local, TRUE);
		return;
	}
	connector_connected(self);
}

static void
hs_state_changed(WifiHandshakeState old_state, WifiHandshakeState new_state, gpointer user_data)
{
	WifiConnector *self = user_data;

	if (new_state != WIFI_HANDSHAKE_STATE_COMPLETE)
		return;
	if (old_state == WIFI_HANDSHAKE_STATE_COMPLETE) {
		g_info("%s: group key renewed", self->iface->name);
		return;
	}
	g_clear_handle_id(&self->hs_timer, g_source_remove);
	g_info("%s: 4-way handshake complete, authorizing the port", self->iface->name);
	self->request = wifi_nl_send(
	        self->iface->nl,
	        wifi_rsn_msg_authorize(self->iface->nl, self->iface->ifindex, self->bss->bssid),
	        NULL, authorized, self, NULL);
}

static gboolean
hs_timeout(gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autoptr(GError) error = NULL;

	self->hs_timer = 0;
	wifi_handshake_abort(self->hs, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0, &error);
	connector_handshake_failed(self, error, TRUE);
	return G_SOURCE_REMOVE;
}

static const WifiHandshakeCallbacks hs_callbacks = {hs_send, hs_install_key, hs_state_changed};

static gboolean
connector_handshake_new(WifiConnector *self)
{
	WifiHandshakeConfig config = {
	        .akm = self->plan.akm,
	        .pairwise_cipher = self->plan.pairwise_cipher,
	        .group_cipher = self->plan.group_cipher,
	        .group_mgmt_cipher = self->plan.group_mgmt_cipher,
	        .pmk = self->pmk,
	        .pmk_len = sizeof(self->pmk),
	        .own_rsne = self->plan.own_rsne,
	        .own_rsne_len = self->plan.own_rsne_len,
	        .ap_rsne = self->plan.ap_rsne,
	        .ap_rsne_len = self->plan.ap_rsne_len,
	};
	g_autoptr(GError) error = NULL;

	memcpy(config.spa, self->spa, 6);
	memcpy(config.aa, self->bss->bssid, 6);
	g_clear_pointer(&self->hs, wifi_handshake_free);
	self->hs = wifi_handshake_new(&config, &hs_callbacks, self, &error);
	if (self->hs == NULL) {
		connector_fail_connect(self, JOIND_ERROR_FAILED, error->message);
		connector_link_down(self, "handshake set-up failed");
		return FALSE;
	}
	return TRUE;
}

/* The one receive path of EAPOL frames, from nl80211's control port or
 * from the AF_PACKET socket. */
static void
connector_eapol_rx(WifiConnector *self, const guint8 *src, const guint8 *frame, gsize len)
{
	g_autoptr(GError) error = NULL;

	if (self->hs == NULL || (self->phase != PHASE_CONNECTING &&
	                         self->phase != PHASE_HANDSHAKE && self->phase != PHASE_CONNECTED))
		return;
	if (src != NULL && memcmp(src, self->bss->bssid, 6) != 0)
		return;
	switch (wifi_handshake_rx(self->hs, frame, len, &error)) {
	case WIFI_HANDSHAKE_RX_ACCEPTED:
		break;
	case WIFI_HANDSHAKE_RX_DROPPED:
		g_debug("%s: EAPOL frame dropped: %s", self->iface->name, error->message);
		break;
	case WIFI_HANDSHAKE_RX_FAILED:
		connector_handshake_failed(self, error, TRUE);
		break;
	}
}

static void
on_eapol_frame(WifiConnector *self, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];

	if (frame == NULL)
		return;
	if (attrs[NL80211_ATTR_CONTROL_PORT_ETHERTYPE] != NULL &&
	    nla_get_u16(attrs[NL80211_ATTR_CONTROL_PORT_ETHERTYPE]) != WIFI_ETH_P_PAE)
		return;
	connector_eapol_rx(
	        self, attrs[NL80211_ATTR_MAC] != NULL ? nla_data(attrs[NL80211_ATTR_MAC]) : NULL,
	        nla_data(frame), (gsize)nla_len(frame));
}

static void
on_eapol_socket_frame(const guint8 *src, const guint8 *frame, gsize len, gpointer user_data)
{
	connector_eapol_rx(user_data, src, frame, len);
}

/* Before CMD_CONNECT (message 1 may come before the CONNECT event): the
 * AF_PACKET socket when EAPOL does not travel over nl80211. */
static gboolean
connector_open_eapol(WifiConnector *self)
{
	g_autoptr(GError) error = NULL;

	g_clear_pointer(&self->eapol_socket, wifi_eapol_socket_free);
	if (self->control_port_nl) {
		g_info("%s: EAPOL over the nl80211 control port", self->iface->name);
		return TRUE;
	}
	self->eapol_socket =
	        wifi_eapol_socket_new(self->iface->ifindex, on_eapol_socket_frame, self, &error);
	if (self->eapol_socket == NULL) {
		connector_fail_connect(self, JOIND_ERROR_FAILED, error->message);
		connector_link_down(self, "no EAPOL socket");
		return FALSE;
	}
	g_info("%s: EAPOL over AF_PACKET (%s)", self->iface->name,
	       wifi_wiphy_can_control_port_nl80211(self->iface->wiphy)
	               ? "main.conf: ControlPortOverNL80211=false"
	               : "the radio cannot carry EAPOL over nl80211");
	return TRUE;
}

/* ---- the profile ---------------------------------------------------------- */

/* Caches the PSK in <ssid>.psk. An existing profile gets only its
 * PreSharedKey line set, so whatever else its author wrote (comments, other
 * keys, the Passphrase) stays; otherwise a new profile holds just the PSK
 * (a passphrase given by an agent is never written). */
static void
connector_save_profile(WifiConnector *self)
{
	JoindNetwork *network = JOIND_NETWORK(self->network);
	JoindProfile *profile = joind_network_get_profile(network);
	g_autoptr(GError) error = NULL;
	gchar hex[2 * WIFI_PSK_LEN + 1];
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(network), &len);
	gboolean ok;

	if (!self->save_psk)
		return;
	self->save_psk = FALSE;
	for (gsize i = 0; i < sizeof(self->pmk); i++)
		g_snprintf(hex + 2 * i, 3, "%02x", self->pmk[i]);
	if (profile != NULL) {
		const gchar *const keys[] = {"PreSharedKey", NULL};
		const gchar *const values[] = {hex, NULL};

		ok = joind_core_update_profile_keys(self->core, profile, "Security", keys, values,
		                                    &error);
	} else {
		g_autoptr(GKeyFile) kf = g_key_file_new();

		g_key_file_set_string(kf, "Security", "PreSharedKey", hex);
		ok = joind_core_save_network_profile(self->core, ssid, len, JOIND_PROFILE_TYPE_PSK,
		                                     kf, &error);
	}
	joind_secret_clear(hex, sizeof(hex));
	if (!ok)
		g_warning("%s: cannot save the profile of “%s”: %s", self->iface->name,
		          joind_network_get_name(network), error->message);
	else
		g_info("%s: saved the profile of “%s”", self->iface->name,
		       joind_network_get_name(network));
}

/* The PSK from the profile (PreSharedKey, else Passphrase). FALSE with
 * error unset when the profile holds neither. */
static gboolean
connector_psk_from_profile(WifiConnector *self, WifiNetwork *network, GError **error)
{
	JoindProfile *profile = joind_network_get_profile(JOIND_NETWORK(network));
	g_autoptr(GError) local = NULL;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(JOIND_NETWORK(network)), &len);
	gchar *secret;
	gboolean ok;

	if (profile == NULL)
		return FALSE;
	secret = joind_profile_get_string(profile, "Security", "PreSharedKey");
	self->save_psk = secret == NULL;
	if (secret == NULL)
		secret = joind_profile_get_string(profile, "Security", "Passphrase");
	if (secret == NULL)
		return FALSE;
	ok = wifi_psk_from_secret(secret, ssid, len, self->pmk, &local);
	joind_secret_wipe(secret);
	if (!ok)
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "The profile %s: %s",
		            joind_profile_get_name(profile), local->message);
	return ok;
}

/* ---- CMD_CONNECT ---------------------------------------------------------- */

static void
connect_sent(int error, gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autofree gchar *message = NULL;

	self->request = 0;
	if (error == 0 || self->phase != PHASE_CONNECTING)
		return;
	message = g_strdup_printf("The kernel refused to connect: %s", g_strerror(-error));
	connector_notify(self, WIFI_CONNECT_EVENT_FAILED);
	connector_fail_connect(self, JOIND_ERROR_FAILED, message);
	connector_link_down(self, "connect refused");
}

/* CMD_CONNECT: the kernel's SME. */
static void
connector_send_connect(WifiConnector *self)
{
	struct nl_msg *msg = wifi_nl_msg_new(self->iface->nl, NL80211_CMD_CONNECT, 0);

	self->sme_attempt = FALSE;
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->iface->ifindex);
	nla_put(msg, NL80211_ATTR_SSID, (int)self->bss->ies.ssid_len, self->bss->ies.ssid);
	nla_put(msg, NL80211_ATTR_MAC, 6, self->bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, self->bss->freq);
	nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM);
	if (self->secure)
		wifi_rsn_put_connect(msg, &self->plan, self->control_port_nl);
	g_info("%s: CONNECT (the kernel's SME)", self->iface->name);
	self->request = wifi_nl_send(self->iface->nl, msg, NULL, connect_sent, self, NULL);
}

static void
connector_start(WifiConnector *self)
{
	gchar addr[18];

	/* Message 1 may be read before the CONNECT / ASSOCIATE event. */
	if (self->secure && (!connector_handshake_new(self) || !connector_open_eapol(self)))
		return;
	self->phase = PHASE_CONNECTING;
	self->associated = FALSE;
	joind_station_set_state(self->station, JOIND_STATION_STATE_CONNECTING, "Connect()");
	g_info("%s: connecting to “%s” via %s on %u MHz (%s)", self->iface->name,
	       network_name(self->network), wifi_bssid_to_string(self->bss->bssid, addr),
	       self->bss->freq, self->use_sme ? "userspace SME" : "CMD_CONNECT");
	if (!self->use_sme) {
		connector_send_connect(self);
		return;
	}
	self->sme_attempt = TRUE;
	wifi_sme_start(self->sme, self->bss, self->secure ? &self->plan : NULL,
	               self->control_port_nl);
}

static void
connector_begin(WifiConnector *self)
{
	if (self->phase == PHASE_IDLE)
		connector_start(self);
	else
		connector_teardown(self); /* then starts the queued connect */
}

static void
connector_cancel_secret(WifiConnector *self)
{
	if (self->secret_cancellable != NULL)
		g_cancellable_cancel(self->secret_cancellable);
	g_clear_object(&self->secret_cancellable);
}

/* An agent request; the connector may be freed before it is answered
 * (then the request was cancelled first). */
typedef struct {
	WifiConnector *self;
	JoindCore *core;
	GCancellable *cancellable;
} SecretRequest;

static void
secret_received(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree SecretRequest *req = user_data;
	g_autoptr(GCancellable) cancellable = req->cancellable;
	WifiConnector *self = req->self;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindSecret) secret = joind_core_request_secret_finish(req->core, result, &error);
	gsize len = 0;
	const guint8 *ssid;

	/* Cancelled: the call was answered already, the connector may be gone. */
	if (g_cancellable_is_cancelled(cancellable)) {
		g_clear_pointer(&secret, joind_secret_free);
		return;
	}
	g_clear_object(&self->secret_cancellable);
	if (secret == NULL && error == NULL)
		error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED,
		                            "The agent gave no passphrase.");
	ssid = g_bytes_get_data(joind_network_get_ssid(JOIND_NETWORK(self->network)), &len);
	if (secret != NULL && !wifi_psk_from_secret(secret->secret, ssid, len, self->pmk, &error)) {
		g_autoptr(GError) bad = g_steal_pointer(&error);

		error = g_error_new(JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s", bad->message);
	}
	if (error != NULL) {
		connector_fail_connect(
		        self, error->domain == JOIND_ERROR ? error->code : JOIND_ERROR_FAILED,
		        error->message);
		if (self->phase != PHASE_IDLE)
			connector_teardown(self);
		return;
	}
	self->save_psk = TRUE;
	connector_begin(self);
}

/* What the network needs before the connect can start: the plan and the
 * PSK of a WPA2-PSK network. FALSE with error set when it cannot be done;
 * *ask_agent when the PSK must come from the agent. */
static gboolean
connector_prepare(WifiConnector *self, WifiNetwork *network, WifiBss *bss, gboolean *ask_agent,
                  GError **error)
{
	JoindNetworkType type = joind_network_get_network_type(JOIND_NETWORK(network));
	g_autoptr(GError) local = NULL;

	*ask_agent = FALSE;
	self->secure = FALSE;
	if (type == JOIND_NETWORK_TYPE_OPEN)
		return TRUE;
	if (type != JOIND_NETWORK_TYPE_PSK) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "joind cannot join %s networks yet.",
		            joind_network_type_to_string(type));
		return FALSE;
	}
	if (!wifi_parse_address(joind_device_get_address(joind_station_get_device(self->station)),
	                        self->spa)) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "The interface has no MAC address.");
		return FALSE;
	}
	if (!wifi_rsn_plan(bss, self->iface->wiphy, &self->plan, error))
		return FALSE;
	self->secure = TRUE;
	if (connector_psk_from_profile(self, network, &local))
		return TRUE;
	if (local != NULL) {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	if (!joind_core_has_agent(self->core)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT,
		            "“%s” needs a passphrase and no agent is registered to ask for it.",
		            network_name(network));
		return FALSE;
	}
	*ask_agent = TRUE;
	return TRUE;
}

void
wifi_connector_connect_bss(WifiConnector *self, WifiNetwork *network, WifiBss *bss,
                           GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(network, cancellable, callback, user_data);
	GPtrArray *bsses = wifi_network_get_bsses(network);
	g_autoptr(GError) error = NULL;
	SecretRequest *req;
	gboolean ask_agent;

	if (bsses == NULL || bsses->len == 0) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "No access point of “%s” is in range.",
		                        network_name(network));
		return;
	}
	if (bss == NULL)
		bss = g_ptr_array_index(bsses, 0);
	connector_fail_connect(self, JOIND_ERROR_ABORTED, "Aborted by a newer Connect().");
	connector_cancel_secret(self);
	if (!connector_prepare(self, network, bss, &ask_agent, &error)) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	self->connect_task = g_steal_pointer(&task);
	self->connect_started_real = g_get_real_time();
	if (self->network != NULL && self->network != network)
		joind_network_set_connected(JOIND_NETWORK(self->network), FALSE);
	g_set_object(&self->network, network);
	g_clear_pointer(&self->bss, wifi_bss_unref);
	self->bss = wifi_bss_ref(bss);
	if (!ask_agent) {
		connector_begin(self);
		return;
	}
	req = g_new0(SecretRequest, 1);
	req->self = self;
	req->core = self->core;
	self->secret_cancellable = g_cancellable_new();
	req->cancellable = g_object_ref(self->secret_cancellable);
	joind_core_request_secret(self->core, JOIND_SECRET_PASSPHRASE,
	                          joind_network_get_object_path(JOIND_NETWORK(network)), NULL,
	                          self->secret_cancellable, secret_received, req);
}

void
wifi_connector_disconnect(WifiConnector *self, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(self->station, cancellable, callback, user_data);

	connector_fail_connect(self, JOIND_ERROR_ABORTED, "Aborted by Disconnect().");
	connector_cancel_secret(self);
	if (self->phase == PHASE_IDLE) {
		g_task_return_boolean(task, TRUE);
		g_object_unref(task);
		return;
	}
	g_ptr_array_add(self->disconnect_tasks, task);
	if (self->phase != PHASE_TEARDOWN)
		joind_station_set_state(self->station, JOIND_STATION_STATE_DISCONNECTING,
		                        "Disconnect()");
	connector_teardown(self);
}

/* ---- events --------------------------------------------------------------- */

/* Associated (CONNECT event, or the SME's ASSOCIATE event): the
 * handshake runs, or an open network is connected. */
static void
connector_associated(WifiConnector *self)
{
	self->associated = TRUE;
	if (self->secure) {
		self->phase = PHASE_HANDSHAKE;
		g_clear_handle_id(&self->hs_timer, g_source_remove);
		/* EAPOL and the CONNECT event come on different sockets: the
		 * handshake may be over already, the port being authorized. */
		if (wifi_handshake_get_state(self->hs) == WIFI_HANDSHAKE_STATE_COMPLETE) {
			g_info("%s: associated, 4-way handshake done already", self->iface->name);
			return;
		}
		g_info("%s: associated, waiting for the 4-way handshake", self->iface->name);
		self->hs_timer = g_timeout_add_seconds(WIFI_HANDSHAKE_TIMEOUT_S, hs_timeout, self);
		return;
	}
	connector_connected(self);
}

static void
on_connect_event(WifiConnector *self, struct nlattr **attrs)
{
	guint16 status = attrs[NL80211_ATTR_STATUS_CODE] != NULL
	                         ? nla_get_u16(attrs[NL80211_ATTR_STATUS_CODE])
	                         : 1;
	gboolean timed_out = attrs[NL80211_ATTR_TIMED_OUT] != NULL;
	g_autofree gchar *message = NULL;

	self->stale_disconnect = FALSE;
	if (self->phase != PHASE_CONNECTING || self->sme_attempt) {
		/* On the SME path cfg80211 reports the association response
		 * it passed on in the ASSOCIATE event once more. */
		g_debug("%s: CONNECT event ignored (%s)", self->iface->name,
		        self->phase == PHASE_CONNECTING ? "userspace SME" : "not connecting");
		return;
	}
	if (status != 0 || timed_out) {
		message = timed_out ? g_strdup("The access point did not answer.")
		                    : g_strdup_printf("The access point refused (status %u).",
		                                      status);
		connector_notify(self, timed_out ? WIFI_CONNECT_EVENT_NO_ANSWER
		                                 : WIFI_CONNECT_EVENT_REFUSED);
		connector_fail_connect(self, JOIND_ERROR_FAILED, message);
		connector_link_down(self, timed_out ? "connect timed out" : "connect refused");
		return;
	}
	connector_associated(self);
}

/* How the SME's sequence ended. */
static void
on_sme_result(WifiSmeResult result, const gchar *stage, guint16 status, int kernel_error,
              gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autofree gchar *message = NULL;
	gchar buf[16];

	if (self->phase != PHASE_CONNECTING)
		return;
	switch (result) {
	case WIFI_SME_RESULT_ASSOCIATED:
		connector_associated(self);
		return;
	case WIFI_SME_RESULT_KERNEL:
		/* cfg80211 authenticates only to a BSS in its scan table; its
		 * own SME scans first, so it takes over this attempt. */
		if (kernel_error == -ENOENT && g_str_equal(stage, "authentication")) {
			g_info("%s: the kernel no longer knows the BSS: CMD_CONNECT instead",
			       self->iface->name);
			connector_send_connect(self);
			return;
		}
		message = g_strdup_printf("The kernel refused the %s: %s", stage,
		                          g_strerror(-kernel_error));
		connector_notify(self, WIFI_CONNECT_EVENT_FAILED);
		break;
	case WIFI_SME_RESULT_NO_ANSWER:
		message = g_strdup_printf("The access point did not answer (%s).", stage);
		connector_notify(self, WIFI_CONNECT_EVENT_NO_ANSWER);
		break;
	case WIFI_SME_RESULT_REFUSED:
	default:
		message = g_strdup_printf("The access point refused the %s (%s).", stage,
		                          wifi_sme_status_to_string(status, buf));
		connector_notify(self, WIFI_CONNECT_EVENT_REFUSED);
		break;
	}
	connector_fail_connect(self, JOIND_ERROR_FAILED, message);
	connector_link_down(self, result == WIFI_SME_RESULT_NO_ANSWER ? "connect timed out"
	                                                              : "connect refused");
}

/* What joind learned (state.json) and, for an open network joined for the
 * first time, its profile: like iwd, an open network once joined is known
 * and autoconnects. */
static void
connector_note_connected(WifiConnector *self)
{
	JoindNetwork *network = JOIND_NETWORK(self->network);
	g_autoptr(GKeyFile) kf = NULL;
	g_autoptr(GError) error = NULL;
	JoindProfileType type;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(network), &len);

	if (!joind_network_type_to_profile_type(joind_network_get_network_type(network), &type))
		return;
	joind_core_note_connected(self->core, ssid, len, type, self->bss->freq);
	if (type != JOIND_PROFILE_TYPE_OPEN || joind_network_get_profile(network) != NULL)
		return;
	kf = g_key_file_new();
	if (!joind_core_save_network_profile(self->core, ssid, len, type, kf, &error))
		g_warning("%s: cannot save the profile of “%s”: %s", self->iface->name,
		          joind_network_get_name(network), error->message);
	else
		g_info("%s: saved the profile of “%s”", self->iface->name,
		       joind_network_get_name(network));
}

static void
connector_connected(WifiConnector *self)
{
	g_autoptr(GTask) task = g_steal_pointer(&self->connect_task);

	/* The handshake can complete before the CONNECT event is read, which
	 * then arms the handshake timer: it must not fire into the link. */
	g_clear_handle_id(&self->hs_timer, g_source_remove);
	self->phase = PHASE_CONNECTED;
	self->connected_mono = g_get_monotonic_time();
	if (self->secure)
		connector_save_profile(self);
	joind_network_set_connected(JOIND_NETWORK(self->network), TRUE);
	wifi_network_set_last_connected(self->network, g_get_real_time() / G_USEC_PER_SEC);
	joind_station_set_connected_network(self->station, JOIND_NETWORK(self->network));
	connector_note_connected(self);
	connector_notify(self, WIFI_CONNECT_EVENT_CONNECTED);
	joind_device_set_state(joind_station_get_device(self->station), JOIND_DEVICE_STATE_UP);
	connector_set_oper_up(self, TRUE);
	joind_station_set_state(self->station, JOIND_STATION_STATE_CONNECTED,
	                        self->secure ? "keys installed, port authorized" : "associated");
	if (task != NULL)
		g_task_return_boolean(task, TRUE);
}

static void
on_disconnect_event(WifiConnector *self, struct nlattr **attrs)
{
	gboolean by_ap = attrs[NL80211_ATTR_DISCONNECTED_BY_AP] != NULL;
	guint16 reason = attrs[NL80211_ATTR_REASON_CODE] != NULL
	                         ? nla_get_u16(attrs[NL80211_ATTR_REASON_CODE])
	                         : 0;
	g_autofree gchar *why = NULL;

	if (self->phase == PHASE_TEARDOWN) {
		teardown_done(self);
		return;
	}
	if (self->phase == PHASE_CONNECTING && wifi_sme_is_pending(self->sme)) {
		/* Not associated yet: the end of an earlier link. */
		g_debug("%s: DISCONNECT event of an earlier link", self->iface->name);
		return;
	}
	if (self->stale_disconnect) {
		self->stale_disconnect = FALSE;
		g_debug("%s: DISCONNECT event of a link already down", self->iface->name);
		return;
	}
	if (self->phase == PHASE_HANDSHAKE) {
		g_autoptr(GError) error = NULL;

		wifi_handshake_abort(self->hs, WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED, reason,
		                     &error);
		connector_handshake_failed(self, error, FALSE);
		return;
	}
	if (self->phase != PHASE_CONNECTING && self->phase != PHASE_CONNECTED)
		return;
	why = g_strdup_printf("%s (reason %u)",
	                      by_ap ? "the access point disconnected us" : "link lost", reason);
	connector_notify(self, self->phase == PHASE_CONNECTED ? WIFI_CONNECT_EVENT_LINK_LOST
	                                                      : WIFI_CONNECT_EVENT_NO_ANSWER);
	connector_fail_connect(self, JOIND_ERROR_FAILED, why);
	connector_link_down(self, why);
}

/* A deauthentication or disassociation (from the AP, or mac80211's own
 * after beacon loss) normally comes with a DISCONNECT event; should that
 * not follow, the link is down all the same. */
static void
on_deauth_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	g_autoptr(GError) error = NULL;
	g_autofree gchar *why = NULL;
	WifiMgmtLeave leave;

	/* On the SME path before the association, our own deauthentication
	 * is all that ends a teardown (no DISCONNECT event follows). */
	if (self->phase == PHASE_TEARDOWN && self->sme_attempt && !self->associated &&
	    cmd == NL80211_CMD_DEAUTHENTICATE) {
		teardown_done(self);
		return;
	}
	if (self->phase != PHASE_CONNECTED || frame == NULL)
		return;
	if (!wifi_mgmt_parse_leave(nla_data(frame), (gsize)nla_len(frame), &leave, &error)) {
		g_debug("%s: %s event: %s", self->iface->name, wifi_nl_cmd_name(cmd),
		        error->message);
		return;
	}
	if (memcmp(leave.bssid, self->bss->bssid, 6) != 0)
		return;
	why = g_strdup_printf(
	        "%s by %s (reason %u)", leave.disassoc ? "disassociated" : "deauthenticated",
	        memcmp(leave.sa, self->bss->bssid, 6) == 0 ? "the access point" : "the station",
	        leave.reason);
	self->stale_disconnect = TRUE;
	connector_notify(self, WIFI_CONNECT_EVENT_LINK_LOST);
	connector_link_down(self, why);
}

void
wifi_connector_handle_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs)
{
	if (cmd == NL80211_CMD_CONNECT)
		on_connect_event(self, attrs);
	else if (cmd == NL80211_CMD_DISCONNECT)
		on_disconnect_event(self, attrs);
	else if (cmd == NL80211_CMD_DEAUTHENTICATE || cmd == NL80211_CMD_DISASSOCIATE)
		on_deauth_event(self, cmd, attrs);
	else if (cmd == NL80211_CMD_CONTROL_PORT_FRAME)
		on_eapol_frame(self, attrs);
	else if (cmd == NL80211_CMD_AUTHENTICATE || cmd == NL80211_CMD_ASSOCIATE) {
		if (!wifi_sme_handle_event(self->sme, cmd, attrs))
			g_debug("%s: %s event not awaited", self->iface->name,
			        wifi_nl_cmd_name(cmd));
	}
}

/* ---- what the link is, for diagnostics ----------------------------------- */

WifiBss *
wifi_connector_get_connected_bss(WifiConnector *self)
{
	return self->phase == PHASE_CONNECTED ? self->bss : NULL;
}

const WifiRsnPlan *
wifi_connector_get_rsn_plan(WifiConnector *self)
{
	return self->phase == PHASE_CONNECTED && self->secure ? &self->plan : NULL;
}

void
wifi_connector_get_times(WifiConnector *self, gint64 *started_real, gint64 *connected_mono)
{
	*started_real = self->connect_started_real;
	*connected_mono = self->connected_mono;
}

/* ---- life cycle ----------------------------------------------------------- */

WifiConnector *
wifi_connector_new(JoindCore *core, JoindStation *station, WifiIface *iface)
{
	WifiConnector *self = g_new0(WifiConnector, 1);

	self->core = core;
	self->iface = wifi_iface_ref(iface);
	self->control_port_nl =
	        wifi_wiphy_can_control_port_nl80211(iface->wiphy) &&
	        joind_core_get_config_bool(core, "General", "ControlPortOverNL80211");
	self->use_sme = iface->wiphy->supports_auth_assoc &&
	                joind_core_get_config_bool(core, "General", "UserspaceSME");
	self->station = station;
	self->sme = wifi_sme_new(iface, on_sme_result, self);
	/* "dormant" until a link is authorized, so that whoever waits for
	 * an "up" link waits for keys, not for the association. */
	if (iface->link != NULL)
		wifi_link_set_dormant_mode(iface->link, (gint)iface->ifindex, TRUE);
	self->disconnect_tasks = g_ptr_array_new_with_free_func(g_object_unref);
	return self;
}

void
wifi_connector_set_observer(WifiConnector *self, WifiConnectObserver func, gpointer user_data)
{
	self->observer = func;
	self->observer_data = user_data;
}

void
wifi_connector_free(WifiConnector *self)
{
	if (self == NULL)
		return;
	wifi_nl_cancel(self->iface->nl, self->request);
	connector_cancel_secret(self);
	connector_fail_connect(self, JOIND_ERROR_ABORTED, "The interface went away.");
	if (self->phase != PHASE_IDLE)
		connector_link_down(self, "interface removed");
	connector_complete_disconnects(self);
	g_clear_handle_id(&self->teardown_timer, g_source_remove);
	g_clear_handle_id(&self->hs_timer, g_source_remove);
	g_clear_pointer(&self->hs, wifi_handshake_free);
	g_clear_pointer(&self->eapol_socket, wifi_eapol_socket_free);
	g_clear_pointer(&self->sme, wifi_sme_free);
	if (self->iface->link != NULL)
		wifi_link_set_dormant_mode(self->iface->link, (gint)self->iface->ifindex, FALSE);
	joind_secret_clear(self->pmk, sizeof(self->pmk));
	g_ptr_array_unref(self->disconnect_tasks);
	wifi_iface_unref(self->iface);
	g_free(self);
}
