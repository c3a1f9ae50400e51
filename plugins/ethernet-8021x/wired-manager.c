/* wired-manager.c - Ethernet devices from link events, each with its 802.1X
 * port. */
#include "wired-manager.h"

#include "wired-link-monitor.h"
#include "wired-operstate.h"
#include "wired-port.h"

#define WIRED_PLUGIN_NAME "ethernet-8021x"

struct _WiredManager {
	JoindCore *core;
	WiredLinkMonitor *monitor;
	WiredOperstateSocket *oper_socket;
	GHashTable *devices; /* ifindex -> JoindDevice (with its WiredPort attached) */
	WiredPaeTimers timers;
	gulong profile_changed_id;
	gulong shutting_down_id;
	gulong agent_registered_id;
};

static JoindDeviceState
link_device_state(const WiredLink *link)
{
	if (!link->admin_up)
		return JOIND_DEVICE_STATE_DOWN;
	return link->carrier ? JOIND_DEVICE_STATE_UP : JOIND_DEVICE_STATE_NO_CARRIER;
}

static WiredPort *
device_port(JoindDevice *device)
{
	return WIRED_PORT(joind_device_get_port(device));
}

static void
manager_update_device(JoindDevice *device, const WiredLink *link)
{
	joind_device_set_name(device, link->name);
	joind_device_set_address(device, link->address);
	joind_device_set_powered(device, link->admin_up);
	joind_device_set_state(device, link_device_state(link));
	wired_port_update_link(device_port(device), link->name, link->address, link->admin_up,
	                       link->carrier);
}

static void
manager_link_added(WiredManager *self, const WiredLink *link)
{
	g_autoptr(JoindDevice) device = joind_device_new(
	        link->ifindex, link->name, JOIND_DEVICE_KIND_ETHERNET, WIRED_PLUGIN_NAME);
	g_autoptr(WiredPort) port = NULL;
	g_autoptr(GError) error = NULL;

	joind_device_set_address(device, link->address);
	port = wired_port_new(self->core, device, &self->timers, self->oper_socket);
	joind_device_attach_port(device, JOIND_PORT_8021X(port));
	if (!joind_core_add_device(self->core, device, &error)) {
		joind_dev_warning(link->name, "%s", error->message);
		return;
	}
	g_hash_table_insert(self->devices, GINT_TO_POINTER(link->ifindex), g_object_ref(device));
	/* Link state first, so a matching profile starts with EAPOL-Start at
	 * once when the link is already up. */
	manager_update_device(device, link);
	wired_port_match_profile(port, NULL);
}

static void
manager_link_event(WiredLinkEvent event, const WiredLink *link, gpointer user_data)
{
	WiredManager *self = user_data;
	JoindDevice *device = g_hash_table_lookup(self->devices, GINT_TO_POINTER(link->ifindex));

	switch (event) {
	case WIRED_LINK_ADDED:
		joind_dev_debug(link->name, "link %d appeared", link->ifindex);
		if (device == NULL)
			manager_link_added(self, link);
		break;
	case WIRED_LINK_CHANGED:
		if (device != NULL)
			manager_update_device(device, link);
		break;
	case WIRED_LINK_REMOVED:
		if (device != NULL) {
			joind_dev_debug(joind_device_get_name(device), "link %d went away",
			                link->ifindex);
			/* Gone with its link: nothing to log off from. A link
			 * found gone by a new listing has no name any more. */
			wired_port_update_link(device_port(device), joind_device_get_name(device),
			                       joind_device_get_address(device), FALSE, FALSE);
			wired_port_release(device_port(device), "the link went away");
			joind_core_remove_device(self->core, device);
			g_hash_table_remove(self->devices, GINT_TO_POINTER(link->ifindex));
		}
		break;
	}
}

static void
manager_profile_changed(JoindCore *core, JoindProfile *profile, JoindProfileChange change,
                        gpointer user_data)
{
	WiredManager *self = user_data;
	GHashTableIter iter;
	gpointer device;

	if (joind_profile_get_profile_type(profile) != JOIND_PROFILE_TYPE_WIRED)
		return;
	g_debug("wired profile %s %s", joind_profile_get_path(profile),
	        change == JOIND_PROFILE_CHANGE_ADDED     ? "added"
	        : change == JOIND_PROFILE_CHANGE_CHANGED ? "changed"
	                                                 : "removed");
	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		wired_port_match_profile(device_port(device),
		                         change == JOIND_PROFILE_CHANGE_CHANGED ? profile : NULL);
}

static void
manager_agent_registered(JoindCore *core, gpointer user_data)
{
	WiredManager *self = user_data;
	GHashTableIter iter;
	gpointer device;

	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		wired_pae_agent_available(wired_port_get_pae(device_port(device)));
}

static void
manager_shutting_down(JoindCore *core, gpointer user_data)
{
	WiredManager *self = user_data;
	GHashTableIter iter;
	gpointer device;

	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		wired_port_shutdown(device_port(device));
}

/* main.conf [Wired] gives the 802.1X timers in seconds. */
static void
manager_read_timers(WiredManager *self)
{
	self->timers.start_period_ms =
	        1000 * joind_core_get_config_int(self->core, "Wired", "StartPeriod");
	self->timers.max_start = joind_core_get_config_int(self->core, "Wired", "MaxStart");
	self->timers.held_period_ms =
	        1000 * joind_core_get_config_int(self->core, "Wired", "HeldPeriod");
	self->timers.auth_period_ms =
	        1000 * joind_core_get_config_int(self->core, "Wired", "AuthPeriod");
}

WiredManager *
wired_manager_new(JoindCore *core, GError **error)
{
	g_autoptr(WiredManager) self = g_new0(WiredManager, 1);

	self->core = core;
	manager_read_timers(self);
	self->devices = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_object_unref);
	self->profile_changed_id = g_signal_connect(core, "profile-changed",
	                                            G_CALLBACK(manager_profile_changed), self);
	self->shutting_down_id =
	        g_signal_connect(core, "shutting-down", G_CALLBACK(manager_shutting_down), self);
	self->agent_registered_id = g_signal_connect(core, "agent-registered",
	                                             G_CALLBACK(manager_agent_registered), self);
	self->oper_socket = wired_operstate_socket_new(error);
	if (self->oper_socket == NULL)
		return NULL;
	self->monitor = wired_link_monitor_new(manager_link_event, self, error);
	if (self->monitor == NULL)
		return NULL;
	return g_steal_pointer(&self);
}

void
wired_manager_free(WiredManager *self)
{
	GHashTableIter iter;
	gpointer device;

	if (self == NULL)
		return;
	g_clear_signal_handler(&self->profile_changed_id, self->core);
	g_clear_signal_handler(&self->shutting_down_id, self->core);
	g_clear_signal_handler(&self->agent_registered_id, self->core);
	g_clear_pointer(&self->monitor, wired_link_monitor_free);
	if (self->devices != NULL) {
		g_hash_table_iter_init(&iter, self->devices);
		while (g_hash_table_iter_next(&iter, NULL, &device)) {
			/* The port outlives the plugin only if a D-Bus call holds
			 * it; it must not keep its socket and timers then. */
			wired_port_release(device_port(device), "the plugin is unloading");
			joind_core_remove_device(self->core, device);
		}
		g_hash_table_unref(self->devices);
	}
	g_clear_pointer(&self->oper_socket, wired_operstate_socket_free);
	g_free(self);
}
