/* joind-core.c - the daemon's centre: the core object, its devices and
 * its life cycle (start, reload, shutdown).
 *
 * The core owns D-Bus (one GDBusObjectManagerServer at /net/joind), the
 * configuration, the profile store and the agents; plugins own their kernel
 * I/O and reach the core only through core/api/. GetDiagnostics() is in
 * joind-core-diagnostics.c, what plugins ask of the core in
 * joind-core-services.c.
 */
#include "joind-core-internal.h"

#include "config.h"
#include "joind-caller.h"
#include "joind-dbus-device.h"
#include "joind-error.h"
#include "joind-known.h"

#define JOIND_DBUS_ROOT "/net/joind"

G_DEFINE_TYPE(JoindCore, joind_core, G_TYPE_OBJECT)

enum {
	SIGNAL_PROFILE_CHANGED,
	SIGNAL_AGENT_REGISTERED,
	SIGNAL_SHUTTING_DOWN,
	SIGNAL_DEVICE_ADDED,
	SIGNAL_DEVICE_REMOVED,
	N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
joind_core_finalize(GObject *object)
{
	JoindCore *self = JOIND_CORE(object);
	GHashTableIter iter;
	gpointer device;

	/* A device's object speaks through managed, which goes below (a
	 * plugin may still hold the device). */
	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		joind_dbus_device_unexport(device);
	g_hash_table_unref(self->devices);
	g_clear_object(&self->agents);
	g_clear_object(&self->agent_iface);
	g_clear_object(&self->daemon_iface);
	g_clear_object(&self->manager);
	g_clear_object(&self->bus);
	g_clear_object(&self->profiles);
	g_clear_pointer(&self->profile_export, joind_dbus_profile_free);
	g_clear_pointer(&self->known_export, joind_dbus_known_free);
	g_clear_pointer(&self->managed, joind_dbus_managed_free);
	g_clear_pointer(&self->known, joind_known_state_free);
	g_clear_pointer(&self->plugins, joind_plugin_loader_free);
	g_clear_pointer(&self->config, joind_config_free);
	g_free(self->config_path);
	g_free(self->state_dir);
	g_free(self->plugin_dir);
	g_free(self->enable_plugins);
	g_free(self->disable_plugins);
	G_OBJECT_CLASS(joind_core_parent_class)->finalize(object);
}

static void
joind_core_class_init(JoindCoreClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_core_finalize;
	signals[SIGNAL_PROFILE_CHANGED] =
	        g_signal_new("profile-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
	                     NULL, NULL, NULL, G_TYPE_NONE, 2, JOIND_TYPE_PROFILE, G_TYPE_INT);
	signals[SIGNAL_AGENT_REGISTERED] =
	        g_signal_new("agent-registered", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
	                     NULL, NULL, NULL, G_TYPE_NONE, 0);
	signals[SIGNAL_SHUTTING_DOWN] =
	        g_signal_new("shutting-down", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 0);
	signals[SIGNAL_DEVICE_ADDED] =
	        g_signal_new("device-added", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, JOIND_TYPE_DEVICE);
	signals[SIGNAL_DEVICE_REMOVED] =
	        g_signal_new("device-removed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, JOIND_TYPE_DEVICE);
}

static void
joind_core_init(JoindCore *self)
{
	self->devices = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_object_unref);
	self->plugins = joind_plugin_loader_new();
	self->config = joind_config_new();
}

JoindCore *
joind_core_new(const JoindCoreOptions *options, GError **error)
{
	g_autoptr(JoindCore) self = g_object_new(JOIND_TYPE_CORE, NULL);

	self->config_path = g_strdup(options->config_path);
	self->state_dir = g_strdup(options->state_dir);
	self->plugin_dir = g_strdup(options->plugin_dir);
	self->enable_plugins = g_strdup(options->enable_plugins);
	self->disable_plugins = g_strdup(options->disable_plugins);
	if (!joind_config_load(self->config, self->config_path, error))
		return NULL;
	self->profiles = joind_profile_store_new(self->state_dir);
	self->known = joind_known_state_new(self->state_dir);
	return g_steal_pointer(&self);
}

/* ---- Daemon1 -------------------------------------------------------------- */

static void
core_publish_plugins(JoindCore *self)
{
	GPtrArray *plugins = joind_plugin_loader_get_plugins(self->plugins);
	GVariantBuilder builder;

	g_variant_builder_init(&builder, G_VARIANT_TYPE("a(ssss)"));
	for (guint i = 0; i < plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(plugins, i);

		g_variant_builder_add(&builder, "(ssss)", info->name, info->description,
		                      joind_plugin_state_to_string(info->state),
		                      info->detail != NULL ? info->detail : "");
	}
	joind_dbus_daemon1_set_plugins(self->daemon_iface, g_variant_builder_end(&builder));
}

/* A plugin was opened on demand: Daemon1.Plugins follows. */
static void
core_plugin_changed(gpointer info, gpointer user_data)
{
	core_publish_plugins(user_data);
}

/* ---- devices -------------------------------------------------------------- */

gboolean
joind_core_add_device(JoindCore *self, JoindDevice *device, GError **error)
{
	gint ifindex;

	g_return_val_if_fail(JOIND_IS_CORE(self), FALSE);
	g_return_val_if_fail(JOIND_IS_DEVICE(device), FALSE);
	ifindex = joind_device_get_ifindex(device);
	if (g_hash_table_contains(self->devices, GINT_TO_POINTER(ifindex))) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY,
		            "Interface %d (%s) is already managed by another plugin.", ifindex,
		            joind_device_get_name(device));
		return FALSE;
	}
	g_hash_table_insert(self->devices, GINT_TO_POINTER(ifindex), g_object_ref(device));
	if (self->managed != NULL)
		joind_dbus_device_export(self->managed, self->manager, device, self->profiles);
	g_info("device %s (ifindex %d, %s) added by %s", joind_device_get_name(device), ifindex,
	       joind_device_kind_to_string(joind_device_get_kind(device)),
	       joind_device_get_plugin(device));
	g_signal_emit(self, signals[SIGNAL_DEVICE_ADDED], 0, device);
	return TRUE;
}

void
joind_core_remove_device(JoindCore *self, JoindDevice *device)
{
	gint ifindex;

	g_return_if_fail(JOIND_IS_CORE(self));
	g_return_if_fail(JOIND_IS_DEVICE(device));
	ifindex = joind_device_get_ifindex(device);
	if (g_hash_table_lookup(self->devices, GINT_TO_POINTER(ifindex)) != device)
		return;
	g_signal_emit(self, signals[SIGNAL_DEVICE_REMOVED], 0, device);
	joind_dbus_device_unexport(device);
	g_info("device %s (ifindex %d) removed", joind_device_get_name(device), ifindex);
	g_hash_table_remove(self->devices, GINT_TO_POINTER(ifindex));
}

JoindDevice *
joind_core_lookup_device(JoindCore *self, gint ifindex)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), NULL);
	return g_hash_table_lookup(self->devices, GINT_TO_POINTER(ifindex));
}

GPtrArray *
joind_core_list_devices(JoindCore *self)
{
	GPtrArray *devices = g_ptr_array_new();
	GHashTableIter iter;
	gpointer device;

	g_return_val_if_fail(JOIND_IS_CORE(self), devices);
	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		g_ptr_array_add(devices, device);
	return devices;
}

const gchar *
joind_core_get_state_dir(JoindCore *self)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), NULL);
	return self->state_dir;
}

gboolean
joind_core_profile_is_admin(JoindCore *self, JoindProfile *profile)
{
	GBytes *ssid = joind_profile_get_ssid(profile);

	g_return_val_if_fail(JOIND_IS_CORE(self), TRUE);
	if (ssid == NULL)
		return TRUE;
	return !joind_known_state_get_user_saved(self->known, g_bytes_get_data(ssid, NULL),
	                                         g_bytes_get_size(ssid),
	                                         joind_profile_get_profile_type(profile));
}

GDBusConnection *
joind_core_get_bus(JoindCore *self)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), NULL);
	return self->bus;
}

/* ---- life cycle ----------------------------------------------------------- */

static void
core_profile_changed(JoindProfileStore *store, JoindProfile *profile, gint change,
                     gpointer user_data)
{
	JoindCore *self = user_data;
	GBytes *ssid = joind_profile_get_ssid(profile);

	/* A network whose profile is gone (Forget, or the file deleted) is
	 * forgotten entirely. The store reports nothing else as removed: a
	 * file that is there but broken keeps its profile. */
	if (change == JOIND_PROFILE_CHANGE_REMOVED && ssid != NULL)
		joind_known_state_remove(self->known, g_bytes_get_data(ssid, NULL),
		                         g_bytes_get_size(ssid),
		                         joind_profile_get_profile_type(profile));
	if (self->known_export != NULL)
		joind_dbus_known_profile_changed(self->known_export, profile, change);
	g_signal_emit(self, signals[SIGNAL_PROFILE_CHANGED], 0, profile, change);
}

/* A network whose file is there but does not read is still known. */
static void
core_keep_broken(const gchar *path, JoindProfileType type, GBytes *ssid, const gchar *message,
                 gboolean held, gpointer user_data)
{
	GHashTable *ids = user_data;
	gchar *id = ssid != NULL ? joind_known_network_id(g_bytes_get_data(ssid, NULL),
	                                                  g_bytes_get_size(ssid), type)
	                         : NULL;

	if (id != NULL)
		g_hash_table_add(ids, id);
}

/* state.json, without the networks whose profiles went while joind was
 * not running (a file that is there but broken did not go); then a
 * KnownNetwork1 object per network profile. */
static void
core_start_known(JoindCore *self)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	g_autoptr(GHashTable) ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	joind_known_state_load(self->known);
	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_profile_store_list(self->profiles, types[t]);

		for (guint i = 0; i < profiles->len; i++)
			g_hash_table_add(ids, joind_known_network_id_for_profile(
			                              g_ptr_array_index(profiles, i)));
	}
	joind_profile_store_foreach_error(self->profiles, core_keep_broken, ids);
	joind_known_state_retain(self->known, ids);
	self->known_export = joind_dbus_known_new(self->managed, self, self->known, self->profiles);
}

static void
core_agent_added(JoindCore *self)
{
	g_signal_emit(self, signals[SIGNAL_AGENT_REGISTERED], 0);
}

/* Device objects are not the manager's (joind-dbus-object.h). */
static void
core_add_managed_devices(JoindVariantWriter *w, JoindVariantFrame *objects, gpointer user_data)
{
	JoindCore *self = user_data;
	GHashTableIter iter;
	gpointer device;

	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		joind_dbus_device_write_managed(device, w, objects);
}

static gboolean
core_export_root(JoindCore *self, GError **error)
{
	self->manager = g_dbus_object_manager_server_new(JOIND_DBUS_ROOT);
	self->daemon_iface = joind_dbus_daemon1_skeleton_new();
	joind_dbus_daemon1_set_version(self->daemon_iface, PACKAGE_VERSION);
	joind_dbus_call_connect(self->daemon_iface, "handle-get-diagnostics", self,
	                        joind_core_get_diagnostics, NULL);
	self->agent_iface = joind_dbus_agent_manager1_skeleton_new();
	self->agents = joind_agent_manager_new(self->bus, self->agent_iface);
	g_signal_connect_object(self->agents, "agent-added", G_CALLBACK(core_agent_added), self,
	                        G_CONNECT_SWAPPED);

	/* The manager may not export its own path, so the root interfaces sit
	 * beside its ObjectManager at /net/joind. */
	if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(self->daemon_iface),
	                                      self->bus, JOIND_DBUS_ROOT, error))
		return FALSE;
	if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(self->agent_iface),
	                                      self->bus, JOIND_DBUS_ROOT, error))
		return FALSE;
	g_dbus_object_manager_server_set_connection(self->manager, self->bus);
	self->managed = joind_dbus_managed_new(self->manager);
	joind_dbus_managed_add_source(self->managed, core_add_managed_devices, self);
	return TRUE;
}

gboolean
joind_core_start(JoindCore *self, GDBusConnection *bus, GError **error)
{
	GHashTableIter iter;
	gpointer device;

	self->bus = g_object_ref(bus);
	self->caller_watch = joind_caller_watch(bus);
	if (!core_export_root(self, error))
		return FALSE;
	joind_plugin_loader_set_changed_func(self->plugins, core_plugin_changed, self);
	/* EAP methods first: reading a profile asks them about its EAP keys. */
	joind_plugin_loader_scan(self->plugins, self->plugin_dir, self->enable_plugins,
	                         self->disable_plugins);
	joind_plugin_loader_init_upto(self->plugins, self, JOIND_PLUGIN_PRIORITY_EAP_METHOD);
	if (!joind_profile_store_load(self->profiles, error))
		return FALSE;
	core_start_known(self);
	self->profile_export = joind_dbus_profile_new(self->bus, JOIND_DBUS_ROOT, self->profiles,
	                                              self->known, error);
	if (self->profile_export == NULL)
		return FALSE;
	g_signal_connect_object(self->profiles, "profile-changed", G_CALLBACK(core_profile_changed),
	                        self, 0);
	/* Devices added before the bus was there get their objects now. */
	g_hash_table_iter_init(&iter, self->devices);
	while (g_hash_table_iter_next(&iter, NULL, &device))
		joind_dbus_device_export(self->managed, self->manager, device, self->profiles);
	core_publish_plugins(self);
	self->started = TRUE;
	return TRUE;
}

void
joind_core_start_devices(JoindCore *self)
{
	g_return_if_fail(JOIND_IS_CORE(self) && self->started);
	if (self->devices_started)
		return;
	self->devices_started = TRUE;
	joind_plugin_loader_init_upto(self->plugins, self, G_MAXINT);
	/* Every plugin has declared its main.conf keys by now. */
	joind_config_report_unknown(self->config);
	core_publish_plugins(self);
}

void
joind_core_reload(JoindCore *self)
{
	g_autoptr(GError) error = NULL;

	g_info("reloading %s and the profiles", self->config_path);
	if (!joind_config_load(self->config, self->config_path, &error))
		g_warning("%s; keeping the previous settings", error->message);
	else
		joind_config_report_unknown(self->config);
	joind_plugin_loader_config_changed(self->plugins);
	joind_profile_store_reload(self->profiles);
}

void
joind_core_shutdown(JoindCore *self)
{
	g_autoptr(GList) devices = NULL;

	if (!self->started)
		return;
	self->started = FALSE;
	self->devices_started = FALSE;
	g_signal_emit(self, signals[SIGNAL_SHUTTING_DOWN], 0);
	joind_plugin_loader_shutdown_all(self->plugins, self);
	/* Plugins should have removed their devices; drop what remains. */
	devices = g_hash_table_get_values(self->devices);
	for (GList *l = devices; l != NULL; l = l->next)
		joind_core_remove_device(self, l->data);
	joind_agent_manager_release_all(self->agents);
	g_clear_pointer(&self->profile_export, joind_dbus_profile_free);
	g_clear_pointer(&self->known_export, joind_dbus_known_free);
	g_clear_pointer(&self->managed, joind_dbus_managed_free);
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(self->agent_iface));
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(self->daemon_iface));
	g_dbus_object_manager_server_set_connection(self->manager, NULL);
	g_dbus_connection_remove_filter(self->bus, self->caller_watch);
}

/* The loader declares a plugin's keys (its descriptor's config_keys)
 * before its init(), and declaring fails while listing: each plugin that
 * has keys failed with this sentence, without running init(), in the order
 * of the tables. */
GPtrArray *
joind_core_list_config(JoindCore *self)
{
	GPtrArray *list = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *plugins;
	guint next = 0;

	g_return_val_if_fail(JOIND_IS_CORE(self) && !self->started, list);
	self->declared = g_ptr_array_new();
	joind_plugin_loader_scan(self->plugins, self->plugin_dir, self->enable_plugins,
	                         self->disable_plugins);
	joind_plugin_loader_init_upto(self->plugins, self, G_MAXINT);
	plugins = joind_plugin_loader_get_plugins(self->plugins);
	for (guint i = 0; i < plugins->len && next < self->declared->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(plugins, i);
		JoindConfigDeclaration *d;

		if (info->state != JOIND_PLUGIN_STATE_FAILED ||
		    g_strcmp0(info->detail, JOIND_CORE_LISTING_CONFIG) != 0)
			continue;
		d = g_new0(JoindConfigDeclaration, 1);
		d->plugin = info->name;
		d->keys = g_ptr_array_index(self->declared, next++);
		g_ptr_array_add(list, d);
	}
	g_clear_pointer(&self->declared, g_ptr_array_unref);
	return list;
}
