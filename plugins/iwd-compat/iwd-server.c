/* iwd-server.c - the iwd front end (see iwd-server.h).
 *
 * The tree is complete before the name is taken, so a client that sees
 * the name finds every object. Adapters are per radio (phy): iwd's paths
 * carry the radio's index, which the interface's sysfs entry gives.
 */
#include "iwd-server.h"

#include "iwd-auth.h"
#include "iwd-bus.h"
#include "iwd-calls.h"
#include "iwd-device.h"
#include "iwd-iface.h"
#include "iwd-introspection.h"
#include "iwd-known.h"
#include "iwd-names.h"

/* The iwd release whose API this is (Daemon.GetInfo's Version). */
#define IWD_API_VERSION "2.3"

typedef struct {
	GDBusObjectSkeleton *object;
	IwdIface *iface;
	GPtrArray *devices; /* JoindDevice, those on this radio */
} IwdAdapter;

struct _IwdServer {
	JoindCore *core;
	GDBusConnection *bus;
	GDBusObjectManagerServer *manager;
	GDBusObjectSkeleton *root;
	GHashTable *adapters; /* phy index -> IwdAdapter */
	GHashTable *devices;  /* JoindDevice -> IwdDevice */
	GHashTable *phys;     /* JoindDevice -> phy index */
	IwdKnown *known;
	gulong device_ids[2];
};

/* ---- Daemon and AgentManager --------------------------------------------------- */

static void
daemon_get_info(JoindCall *call, gpointer target, gpointer data)
{
	JoindCore *core = iwd_iface_get_context(target);
	GVariantBuilder info;

	g_variant_builder_init(&info, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(&info, "{sv}", "Version", g_variant_new_string(IWD_API_VERSION));
	g_variant_builder_add(&info, "{sv}", "StateDirectory",
	                      g_variant_new_string(joind_core_get_state_dir(core)));
	g_variant_builder_add(&info, "{sv}", "NetworkConfigurationEnabled",
	                      g_variant_new_boolean(FALSE));
	joind_call_return(call, g_variant_new("(a{sv})", &info));
}

static const IwdMethod daemon_methods[] = {
        {"GetInfo", daemon_get_info},
        {NULL, NULL},
};

/* A network's or device's path in the core's API, as iwd names it. */
static gchar *
server_map_path(const gchar *path, gpointer user_data)
{
	IwdServer *self = user_data;
	GHashTableIter iter;
	gpointer device;

	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device)) {
		gchar *mapped = iwd_device_map_path(device, path);

		if (mapped != NULL)
			return mapped;
	}
	return NULL;
}

static void
agents_register(JoindCall *call, gpointer target, gpointer data)
{
	IwdServer *self = iwd_iface_get_context(target);

	joind_core_register_agent(self->core, call, IWD_IFACE_AGENT, server_map_path, self);
}

static void
agents_unregister(JoindCall *call, gpointer target, gpointer data)
{
	IwdServer *self = iwd_iface_get_context(target);

	joind_core_unregister_agent(self->core, call);
}

static const IwdMethod agent_methods[] = {
        {"RegisterAgent", agents_register},
        {"UnregisterAgent", agents_unregister},
        {NULL, NULL},
};

static void
server_export_root(IwdServer *self)
{
	g_autoptr(IwdIface) daemon = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_DAEMON),
	                                           daemon_methods, NULL, NULL);
	g_autoptr(IwdIface) agents = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_AGENTS),
	                                           agent_methods, NULL, NULL);

	iwd_iface_set_context(daemon, self->core);
	iwd_iface_set_context(agents, self);
	self->root = g_dbus_object_skeleton_new(IWD_ROOT_PATH);
	g_dbus_object_skeleton_add_interface(self->root, G_DBUS_INTERFACE_SKELETON(daemon));
	g_dbus_object_skeleton_add_interface(self->root, G_DBUS_INTERFACE_SKELETON(agents));
	g_dbus_object_manager_server_export(self->manager, self->root);
}

/* ---- adapters ------------------------------------------------------------------ */

/* The radio of a network interface, from sysfs (what iwd's paths use). */
static gboolean
server_phy_of(JoindDevice *device, guint *phy)
{
	g_autofree gchar *file =
	        g_strdup_printf("/sys/class/net/%s/phy80211/index", joind_device_get_name(device));
	g_autofree gchar *text = NULL;
	guint64 index = 0;

	if (!g_file_get_contents(file, &text, NULL, NULL) ||
	    !g_ascii_string_to_unsigned(g_strstrip(text), 10, 0, G_MAXUINT32, &index, NULL))
		return FALSE;
	*phy = (guint)index;
	return TRUE;
}

static void
adapter_free(gpointer data)
{
	IwdAdapter *adapter = data;

	g_object_unref(adapter->object);
	g_object_unref(adapter->iface);
	g_ptr_array_unref(adapter->devices);
	g_free(adapter);
}

/* Powered while any interface of the radio is; the modes its
 * interfaces can run, in iwd's names. */
static void
adapter_sync(IwdAdapter *adapter)
{
	gboolean powered = FALSE;
	guint modes = 1u << JOIND_DEVICE_MODE_STATION;
	g_auto(GStrv) names = NULL;

	for (guint i = 0; i < adapter->devices->len; i++) {
		powered |= joind_device_get_powered(g_ptr_array_index(adapter->devices, i));
		modes |= joind_device_get_supported_modes(g_ptr_array_index(adapter->devices, i));
	}
	names = joind_device_modes_to_strv(modes);
	iwd_iface_set(adapter->iface, "Powered", g_variant_new_boolean(powered));
	iwd_iface_set(adapter->iface, "SupportedModes",
	              g_variant_new_strv((const gchar *const *)names, -1));
}

/* Adapter.Powered and the like act on the radio's station interface. */
static void
adapter_set_property(JoindCall *call, gpointer target, gpointer data)
{
	IwdAdapter *adapter = iwd_iface_get_context(target);

	iwd_power_set_property(call, target,
	                       adapter->devices->len > 0 ? g_ptr_array_index(adapter->devices, 0)
	                                                 : NULL);
}

static IwdAdapter *
adapter_get(IwdServer *self, guint phy)
{
	IwdAdapter *adapter = g_hash_table_lookup(self->adapters, GUINT_TO_POINTER(phy));
	g_autofree gchar *path = NULL;
	g_autofree gchar *name = NULL;

	if (adapter != NULL)
		return adapter;
	adapter = g_new0(IwdAdapter, 1);
	adapter->devices = g_ptr_array_new_with_free_func(g_object_unref);
	path = iwd_adapter_path(phy);
	name = g_strdup_printf("phy%u", phy);
	adapter->iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_ADAPTER), NULL,
	                               adapter_set_property, NULL);
	iwd_iface_set_context(adapter->iface, adapter);
	iwd_iface_set(adapter->iface, "Name", g_variant_new_string(name));
	adapter_sync(adapter);
	adapter->object = g_dbus_object_skeleton_new(path);
	g_dbus_object_skeleton_add_interface(adapter->object,
	                                     G_DBUS_INTERFACE_SKELETON(adapter->iface));
	g_hash_table_insert(self->adapters, GUINT_TO_POINTER(phy), adapter);
	g_dbus_object_manager_server_export(self->manager, adapter->object);
	return adapter;
}

static void
adapter_drop_device(IwdServer *self, guint phy, JoindDevice *device)
{
	IwdAdapter *adapter = g_hash_table_lookup(self->adapters, GUINT_TO_POINTER(phy));

	if (adapter == NULL)
		return;
	g_ptr_array_remove(adapter->devices, device);
	if (adapter->devices->len > 0) {
		adapter_sync(adapter);
		return;
	}
	g_dbus_object_manager_server_unexport(
	        self->manager, g_dbus_object_get_object_path(G_DBUS_OBJECT(adapter->object)));
	g_hash_table_remove(self->adapters, GUINT_TO_POINTER(phy));
}

/* ---- devices ------------------------------------------------------------------- */

static void
server_device_powered(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	IwdServer *self = user_data;
	gpointer phy;

	if (g_hash_table_lookup_extended(self->phys, device, NULL, &phy))
		adapter_sync(g_hash_table_lookup(self->adapters, phy));
}

static void
server_device_added(JoindCore *core, JoindDevice *device, gpointer user_data)
{
	IwdServer *self = user_data;
	IwdAdapter *adapter;
	guint phy = 0;

	if (joind_device_get_kind(device) != JOIND_DEVICE_KIND_WIFI ||
	    g_hash_table_contains(self->devices, device))
		return;
	if (!server_phy_of(device, &phy)) {
		g_info("%s: no radio in sysfs; not shown over iwd's API",
		       joind_device_get_name(device));
		return;
	}
	adapter = adapter_get(self, phy);
	g_ptr_array_add(adapter->devices, g_object_ref(device));
	adapter_sync(adapter);
	g_hash_table_insert(self->phys, device, GUINT_TO_POINTER(phy));
	g_signal_connect(device, "notify::powered", G_CALLBACK(server_device_powered), self);
	g_hash_table_insert(self->devices, g_object_ref(device),
	                    iwd_device_new(self->manager, device, phy, self->known));
}

static void
server_device_removed(JoindCore *core, JoindDevice *device, gpointer user_data)
{
	IwdServer *self = user_data;
	gpointer phy;

	if (!g_hash_table_lookup_extended(self->phys, device, NULL, &phy))
		return;
	g_signal_handlers_disconnect_by_data(device, self);
	g_hash_table_remove(self->devices, device);
	g_hash_table_remove(self->phys, device);
	adapter_drop_device(self, GPOINTER_TO_UINT(phy), device);
}

/* ---- life cycle ---------------------------------------------------------------- */

static GError *
server_map_error(GDBusMethodInvocation *invocation, const GError *error)
{
	return iwd_error_from_joind(g_dbus_method_invocation_get_method_name(invocation), error);
}

static void
server_export(IwdServer *self)
{
	g_autoptr(GPtrArray) devices = joind_core_list_devices(self->core);

	server_export_root(self);
	self->known = iwd_known_new(self->core, self->manager);
	for (guint i = 0; i < devices->len; i++)
		server_device_added(self->core, g_ptr_array_index(devices, i), self);
	self->device_ids[0] =
	        g_signal_connect(self->core, "device-added", G_CALLBACK(server_device_added), self);
	self->device_ids[1] = g_signal_connect(self->core, "device-removed",
	                                       G_CALLBACK(server_device_removed), self);
}

IwdServer *
iwd_server_new(JoindCore *core, GError **error)
{
	g_autoptr(IwdServer) self = g_new0(IwdServer, 1);
	GDBusConnection *core_bus = joind_core_get_bus(core);

	self->core = core;
	self->adapters = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, adapter_free);
	self->devices = g_hash_table_new_full(g_direct_hash, g_direct_equal, g_object_unref,
	                                      (GDestroyNotify)iwd_device_free);
	self->phys = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (core_bus == NULL) {
		joind_set_error(error, JOIND_ERROR_FAILED, "The daemon has no bus yet.");
		return NULL;
	}
	if (!joind_core_declare_auth_rules(core, iwd_auth_rules, error))
		return NULL;
	self->bus = iwd_bus_connect(core_bus, error);
	if (self->bus == NULL)
		return NULL;
	joind_core_set_error_map(core, self->bus, server_map_error);
	self->manager = g_dbus_object_manager_server_new("/");
	g_dbus_object_manager_server_set_connection(self->manager, self->bus);
	server_export(self);
	if (!iwd_bus_own_name(self->bus, IWD_SERVICE, error))
		return NULL;
	g_info("answering as %s (iwd %s's API) for %u devices", IWD_SERVICE, IWD_API_VERSION,
	       g_hash_table_size(self->devices));
	return g_steal_pointer(&self);
}

void
iwd_server_free(IwdServer *self)
{
	GHashTableIter iter;
	gpointer device;

	if (self == NULL)
		return;
	for (guint i = 0; i < G_N_ELEMENTS(self->device_ids); i++)
		g_clear_signal_handler(&self->device_ids[i], self->core);
	g_hash_table_iter_init(&iter, self->phys);
	while (g_hash_table_iter_next(&iter, &device, NULL))
		g_signal_handlers_disconnect_by_data(device, self);
	g_hash_table_remove_all(self->devices);
	g_hash_table_remove_all(self->adapters);
	g_clear_pointer(&self->known, iwd_known_free);
	if (self->manager != NULL)
		g_dbus_object_manager_server_set_connection(self->manager, NULL);
	g_clear_object(&self->manager);
	g_clear_object(&self->root);
	if (self->bus != NULL) {
		joind_core_set_error_map(self->core, self->bus, NULL);
		g_dbus_connection_close_sync(self->bus, NULL, NULL);
	}
	g_clear_object(&self->bus);
	g_hash_table_unref(self->devices);
	g_hash_table_unref(self->adapters);
	g_hash_table_unref(self->phys);
	g_free(self);
}
