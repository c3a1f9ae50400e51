/* connect.c - a station's connection over nl80211 CMD_CONNECT (see connect.h).
 *
 * The kernel's SME (cfg80211) authenticates and associates; joind picks
 * the BSS and follows the outcome. Phases:
 *   IDLE        nothing associated
 *   CONNECTING  CMD_CONNECT sent, waiting for the CONNECT event
 *   CONNECTED   associated (and, later, keyed and authorized)
 *   TEARDOWN    CMD_DISCONNECT sent, waiting for its answer; a Connect()
 *               queued meanwhile starts when it comes
 * Our own CMD_DISCONNECT makes the kernel send a DISCONNECT event too; it
 * may be read after the answer, so own_disconnects counts the events to
 * ignore. A CONNECT event settles the count: the kernel multicasts in order.
 */
#include "connect.h"

#include <errno.h>
#include <netlink/attr.h>
#include <string.h>

#include "joind.h"

/* IEEE 802.11 reason code 3: deauthenticated because the station leaves. */
#define WIFI_REASON_DEAUTH_LEAVING 3

typedef enum {
	PHASE_IDLE,
	PHASE_CONNECTING,
	PHASE_CONNECTED,
	PHASE_TEARDOWN,
} Phase;

struct _WifiConnector {
	JoindStation *station; /* the station owns the connector */
	WifiNl *nl;
	guint32 ifindex;
	gchar *ifname;
	Phase phase;
	WifiNetwork *network; /* being connected or connected */
	WifiBss *bss;
	GTask *connect_task;         /* the one pending Connect() */
	GPtrArray *disconnect_tasks; /* Disconnect() calls waiting for TEARDOWN */
	guint request;
	guint own_disconnects;
};

static void connector_start(WifiConnector *self);

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
	g_info("%s: connect to “%s” failed: %s", self->ifname, network_name(self->network),
	       message);
	g_task_return_new_error(task, JOIND_ERROR, code, "%s", message);
}

/* Back to IDLE: the network is no longer connected. */
static void
connector_link_down(WifiConnector *self, const gchar *reason)
{
	JoindDevice *device = joind_station_get_device(self->station);

	self->phase = PHASE_IDLE;
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
disconnect_done(int error, gpointer user_data)
{
	WifiConnector *self = user_data;

	self->request = 0;
	/* Not associated after all: no DISCONNECT event follows. */
	if (error == -ENOTCONN || error == -EALREADY)
		self->own_disconnects = 0;
	else if (error < 0)
		g_warning("%s: DISCONNECT: %s", self->ifname, g_strerror(-error));
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

static void
connector_teardown(WifiConnector *self)
{
	struct nl_msg *msg;

	if (self->phase == PHASE_TEARDOWN)
		return;
	wifi_nl_cancel(self->nl, self->request);
	self->own_disconnects++;
	self->phase = PHASE_TEARDOWN;
	msg = wifi_nl_msg_new(self->nl, NL80211_CMD_DISCONNECT, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->ifindex);
	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, WIFI_REASON_DEAUTH_LEAVING);
	self->request = wifi_nl_send(self->nl, msg, NULL, disconnect_done, self, NULL);
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
	connector_fail_connect(self, JOIND_ERROR_FAILED, message);
	connector_link_down(self, "connect refused");
}

static void
connector_start(WifiConnector *self)
{
	struct nl_msg *msg = wifi_nl_msg_new(self->nl, NL80211_CMD_CONNECT, 0);
	gchar addr[18];

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->ifindex);
	nla_put(msg, NL80211_ATTR_SSID, (int)self->bss->ies.ssid_len, self->bss->ies.ssid);
	nla_put(msg, NL80211_ATTR_MAC, 6, self->bss->bssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, self->bss->freq);
	nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM);
	self->phase = PHASE_CONNECTING;
	joind_station_set_state(self->station, JOIND_STATION_STATE_CONNECTING, "Connect()");
	g_info("%s: connecting to “%s” via %s on %u MHz", self->ifname, network_name(self->network),
	       wifi_bssid_to_string(self->bss->bssid, addr), self->bss->freq);
	self->request = wifi_nl_send(self->nl, msg, NULL, connect_sent, self, NULL);
}

void
wifi_connector_connect(WifiConnector *self, WifiNetwork *network, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(network, cancellable, callback, user_data);
	GPtrArray *bsses = wifi_network_get_bsses(network);
	JoindNetworkType type = joind_network_get_network_type(JOIND_NETWORK(network));

	if (type != JOIND_NETWORK_TYPE_OPEN) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                        "joind cannot join %s networks yet.",
		                        joind_network_type_to_string(type));
		return;
	}
	if (bsses == NULL || bsses->len == 0) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "No access point of “%s” is in range.",
		                        network_name(network));
		return;
	}
	connector_fail_connect(self, JOIND_ERROR_ABORTED, "Aborted by a newer Connect().");
	self->connect_task = g_steal_pointer(&task);
	if (self->network != NULL && self->network != network)
		joind_network_set_connected(JOIND_NETWORK(self->network), FALSE);
	g_set_object(&self->network, network);
	g_clear_pointer(&self->bss, wifi_bss_unref);
	self->bss = wifi_bss_ref(g_ptr_array_index(bsses, 0));
	if (self->phase == PHASE_IDLE)
		connector_start(self);
	else
		connector_teardown(self); /* then starts the queued connect */
}

void
wifi_connector_disconnect(WifiConnector *self, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(self->station, cancellable, callback, user_data);

	connector_fail_connect(self, JOIND_ERROR_ABORTED, "Aborted by Disconnect().");
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

static void
on_connect_event(WifiConnector *self, struct nlattr **attrs)
{
	guint16 status = attrs[NL80211_ATTR_STATUS_CODE] != NULL
	                         ? nla_get_u16(attrs[NL80211_ATTR_STATUS_CODE])
	                         : 1;
	gboolean timed_out = attrs[NL80211_ATTR_TIMED_OUT] != NULL;
	g_autofree gchar *message = NULL;
	g_autoptr(GTask) task = NULL;

	self->own_disconnects = 0;
	if (self->phase != PHASE_CONNECTING) {
		g_debug("%s: CONNECT event ignored (not connecting)", self->ifname);
		return;
	}
	if (status != 0 || timed_out) {
		message = timed_out ? g_strdup("The access point did not answer.")
		                    : g_strdup_printf("The access point refused (status %u).",
		                                      status);
		connector_fail_connect(self, JOIND_ERROR_FAILED, message);
		connector_link_down(self, timed_out ? "connect timed out" : "connect refused");
		return;
	}
	self->phase = PHASE_CONNECTED;
	joind_network_set_connected(JOIND_NETWORK(self->network), TRUE);
	wifi_network_set_last_connected(self->network, g_get_real_time() / G_USEC_PER_SEC);
	joind_station_set_connected_network(self->station, JOIND_NETWORK(self->network));
	joind_device_set_state(joind_station_get_device(self->station), JOIND_DEVICE_STATE_UP);
	joind_station_set_state(self->station, JOIND_STATION_STATE_CONNECTED, "associated");
	task = g_steal_pointer(&self->connect_task);
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

	if (!by_ap && self->own_disconnects > 0) {
		self->own_disconnects--;
		return;
	}
	if (self->phase != PHASE_CONNECTING && self->phase != PHASE_CONNECTED)
		return;
	why = g_strdup_printf("%s (reason %u)",
	                      by_ap ? "the access point disconnected us" : "link lost", reason);
	connector_fail_connect(self, JOIND_ERROR_FAILED, why);
	connector_link_down(self, why);
}

void
wifi_connector_handle_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs)
{
	if (cmd == NL80211_CMD_CONNECT)
		on_connect_event(self, attrs);
	else if (cmd == NL80211_CMD_DISCONNECT)
		on_disconnect_event(self, attrs);
}

/* ---- life cycle ----------------------------------------------------------- */

WifiConnector *
wifi_connector_new(JoindStation *station, WifiNl *nl, guint32 ifindex, const gchar *ifname)
{
	WifiConnector *self = g_new0(WifiConnector, 1);

	self->station = station;
	self->nl = nl;
	self->ifindex = ifindex;
	self->ifname = g_strdup(ifname);
	self->disconnect_tasks = g_ptr_array_new_with_free_func(g_object_unref);
	return self;
}

void
wifi_connector_set_ifname(WifiConnector *self, const gchar *ifname)
{
	g_free(self->ifname);
	self->ifname = g_strdup(ifname);
}

void
wifi_connector_free(WifiConnector *self)
{
	if (self == NULL)
		return;
	wifi_nl_cancel(self->nl, self->request);
	connector_fail_connect(self, JOIND_ERROR_ABORTED, "The interface went away.");
	if (self->phase != PHASE_IDLE)
		connector_link_down(self, "interface removed");
	connector_complete_disconnects(self);
	g_ptr_array_unref(self->disconnect_tasks);
	g_free(self->ifname);
	g_free(self);
}
