/* wired-manager.c - Ethernet devices from link events. */
#include "wired-manager.h"

#include "wired-link-monitor.h"

#define WIRED_PLUGIN_NAME "ethernet-8021x"

struct _WiredManager {
	JoindCore *core;
	WiredLinkMonitor *monitor;
	GHashTable *devices; /* ifindex -> JoindDevice */
};

static JoindDeviceState
link_device_state(const WiredLink *link)
{
	if (!link->admin_up)
		return JOIND_DEVICE_STATE_DOWN;
	return link->carrier ? JOIND_DEVICE_STATE_UP : JOIND_DEVICE_STATE_NO_CARRIER;
}

static void
manager_update_device(JoindDevice *device, const WiredLink *link)
{
	joind_device_set_name(device, link->name);
	joind_device_set_address(device, link->address);
	joind_device_set_powered(device, link->admin_up);
	joind_device_set_state(device, link_device_state(link));
}

static void
manager_link_added(WiredManager *self, const WiredLink *link)
{
	g_autoptr(JoindDevice) device = joind_device_new(
	        link->ifindex, link->name, JOIND_DEVICE_KIND_ETHERNET, WIRED_PLUGIN_NAME);
	g_autoptr(GError) error = NULL;

	manager_update_device(device, link);
	if (!joind_core_add_device(self->core, device, &error)) {
		g_warning("%s: %s", link->name, error->message);
		return;
	}
	g_hash_table_insert(self->devices, GINT_TO_POINTER(link->ifindex),
	                    g_steal_pointer(&device));
}

static void
manager_link_event(WiredLinkEvent event, const WiredLink *link, gpointer user_data)
{
	WiredManager *self = user_data;
	JoindDevice *device = g_hash_table_lookup(self->devices, GINT_TO_POINTER(link->ifindex));

	switch (event) {
	case WIRED_LINK_ADDED:
		g_debug("%s: link %d appeared", link->name, link->ifindex);
		if (device == NULL)
			manager_link_added(self, link);
		break;
	case WIRED_LINK_CHANGED:
		if (device != NULL)
			manager_update_device(device, link);
		break;
	case WIRED_LINK_REMOVED:
		g_debug("%s: link %d went away", link->name, link->ifindex);
		if (device != NULL) {
			joind_core_remove_device(self->core, device);
			g_hash_table_remove(self->devices, GINT_TO_POINTER(link->ifindex));
		}
		break;
	}
}

WiredManager *
wired_manager_new(JoindCore *core, GError **error)
{
	g_autoptr(WiredManager) self = g_new0(WiredManager, 1);

	self->core = core;
	self->devices = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_object_unref);
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
	g_clear_pointer(&self->monitor, wired_link_monitor_free);
	if (self->devices != NULL) {
		g_hash_table_iter_init(&iter, self->devices);
		while (g_hash_table_iter_next(&iter, NULL, &device))
			joind_core_remove_device(self->core, device);
		g_hash_table_unref(self->devices);
	}
	g_free(self);
}
