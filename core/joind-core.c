/* joind-core.c - the daemon's centre: devices, the object tree, plugins.
 *
 * The core owns D-Bus (one GDBusObjectManagerServer at /net/joind), the
 * configuration, the profile store and the agents; plugins own their kernel
 * I/O and reach the core only through core/api/.
 */
#include "joind-core-private.h"

#include "config.h"
#include "joind-agent-manager.h"
#include "joind-caller.h"
#include "joind-config.h"
#include "joind-dbus-call.h"
#include "joind-dbus-device.h"
#include "joind-dbus-known.h"
#include "joind-dbus-profile.h"
#include "joind-dbus-generated.h"
#include "joind-eap-seen.h"
#include "joind-error.h"
#include "joind-json.h"
#include "joind-known-state.h"
#include "joind-known.h"
#include "joind-observer.h"
#include "joind-plugin-loader.h"
#include "joind-port.h"
#include "joind-profile-store.h"

#define JOIND_DBUS_ROOT "/net/joind"

struct _JoindCore {
	GObject parent_instance;
	JoindCoreOptions options; /* strings owned below */
	gchar *config_path;
	gchar *state_dir;
	gchar *plugin_dir;
	gchar *enable_plugins;
	gchar *disable_plugins;
	JoindConfig *config;
	JoindProfileStore *profiles;
	JoindKnownState *known;
	JoindDBusKnown *known_export;     /* KnownNetwork1 objects */
	JoindDBusProfile *profile_export; /* ProfileManager1 */
	JoindPluginLoader *plugins;
	GDBusConnection *bus;
	guint caller_watch; /* its filter asking for each new client's uid */
	GDBusObjectManagerServer *manager;
	JoindDBusManaged *managed; /* its GetManagedObjects, and device objects */
	JoindDBusDaemon1 *daemon_iface;
	JoindDBusAgentManager1 *agent_iface;
	JoindAgentManager *agents;
	GHashTable *devices; /* ifindex -> JoindDevice */
	gboolean started;
	gboolean devices_started; /* the device plugins, once the name is owned */
	GPtrArray *declared;      /* joind_core_list_config(): the tables declared, in order */
};

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

/* One GetDiagnostics() call: every device's part is asked for at once and
 * the reply goes out when the last is in, so a device that has to ask the
 * kernel (or anyone) never holds up the main loop. */
typedef struct {
	JoindCore *core; /* alive while call's cancellable is not cancelled */
	JoindDBusCall *call;
	GPtrArray *devices; /* JoindDevice, as managed when the call came */
	GPtrArray *details; /* GVariant a{sv} or NULL, by the index of devices */
	guint pending;
} DiagnosticsGather;

static void
diagnostics_add_device(JsonBuilder *b, JoindDevice *device, GVariant *details)
{
	JoindPort8021x *port = joind_device_get_port(device);

	json_builder_begin_object(b);
	joind_json_add_string(b, "name", joind_device_get_name(device));
	joind_json_add_int(b, "ifindex", joind_device_get_ifindex(device));
	joind_json_add_string(b, "address", joind_device_get_address(device));
	joind_json_add_string(b, "kind",
	                      joind_device_kind_to_string(joind_device_get_kind(device)));
	joind_json_add_bool(b, "powered", joind_device_get_powered(device));
	joind_json_add_string(b, "state",
	                      joind_device_state_to_string(joind_device_get_state(device)));
	joind_json_add_string(b, "plugin", joind_device_get_plugin(device));
	if (port != NULL) {
		joind_json_begin_object(b, "port8021x");
		joind_json_add_string(b, "state",
		                      joind_port_state_to_string(joind_port_8021x_get_state(port)));
		joind_json_add_string(b, "profile", joind_port_8021x_get_profile(port));
		joind_json_add_string(b, "eap_method", joind_port_8021x_get_eap_method(port));
		joind_json_add_string(b, "last_error", joind_port_8021x_get_last_error(port));
		/* The server's certificate and TLS parameters, for `joinctl wired
		 * trust` and people reading why a port failed. */
		joind_eap_seen_add_json(b, "server_certificate",
		                        joind_port_8021x_get_profile(port));
		json_builder_end_object(b);
	}
	if (details != NULL) {
		json_builder_set_member_name(b, "details");
		json_builder_add_value(b, json_gvariant_serialize(details));
	}
	json_builder_end_object(b);
}

/* A device removed while its part was asked for is left out: what it
 * said is stale. */
static void
diagnostics_add_devices(JsonBuilder *b, DiagnosticsGather *g)
{
	joind_json_begin_array(b, "devices");
	for (guint i = 0; i < g->devices->len; i++) {
		JoindDevice *device = g_ptr_array_index(g->devices, i);
		gint ifindex = joind_device_get_ifindex(device);

		if (g_hash_table_lookup(g->core->devices, GINT_TO_POINTER(ifindex)) == device)
			diagnostics_add_device(b, device, g_ptr_array_index(g->details, i));
	}
	json_builder_end_array(b);
}

static void
diagnostics_add_profile_error(const gchar *path, JoindProfileType type, GBytes *ssid,
                              const gchar *message, gboolean held, gpointer user_data)
{
	JsonBuilder *b = user_data;

	json_builder_begin_object(b);
	joind_json_add_string(b, "path", path);
	joind_json_add_string(b, "error", message);
	joind_json_add_bool(b, "in_use", held);
	json_builder_end_object(b);
}

static gchar *
core_build_diagnostics(JoindCore *self, DiagnosticsGather *g)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	GPtrArray *plugins = joind_plugin_loader_get_plugins(self->plugins);

	json_builder_begin_object(b);
	joind_json_add_string(b, "version", PACKAGE_VERSION);
	joind_json_add_string(b, "state_dir", self->state_dir);
	joind_json_add_int(b, "agents", joind_agent_manager_get_n_agents(self->agents));
	joind_json_begin_array(b, "plugins");
	for (guint i = 0; i < plugins->len; i++) {
		JoindPluginInfo *info = g_ptr_array_index(plugins, i);

		json_builder_begin_object(b);
		joind_json_add_string(b, "name", info->name);
		joind_json_add_string(b, "state", joind_plugin_state_to_string(info->state));
		joind_json_add_string(b, "path", info->path);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	diagnostics_add_devices(b, g);
	joind_dbus_known_add_diagnostics(self->known_export, b);
	joind_json_begin_array(b, "profile_errors");
	joind_profile_store_foreach_error(self->profiles, diagnostics_add_profile_error, b);
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	return json_generator_to_data(gen, NULL);
}

static void
diagnostics_gather_answer(DiagnosticsGather *g)
{
	GCancellable *cancellable = joind_dbus_call_get_cancellable(g->call);

	if (g_cancellable_is_cancelled(cancellable)) {
		/* The core went away meanwhile; the call path says so. */
		joind_dbus_call_return_new_error(g->call, JOIND_ERROR_ABORTED,
		                                 "The daemon is shutting down.");
	} else {
		g_autofree gchar *json = core_build_diagnostics(g->core, g);

		joind_dbus_call_return(g->call, g_variant_new("(s)", json));
	}
	g_ptr_array_unref(g->devices);
	g_ptr_array_unref(g->details);
	g_free(g);
}

static void
diagnostics_device_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	DiagnosticsGather *g = user_data;
	JoindDevice *device = JOIND_DEVICE(source);
	g_autoptr(GError) error = NULL;
	GVariant *details = joind_device_get_diagnostics_finish(device, result, &error);
	guint index = 0;

	if (error != NULL)
		g_debug("diagnostics of %s: %s", joind_device_get_name(device), error->message);
	if (g_ptr_array_find(g->devices, device, &index))
		g_ptr_array_index(g->details, index) = details;
	else
		g_clear_pointer(&details, g_variant_unref);
	if (--g->pending == 0)
		diagnostics_gather_answer(g);
}

static void
details_free(gpointer details)
{
	if (details != NULL)
		g_variant_unref(details);
}

static void
core_get_diagnostics(JoindDBusCall *call, gpointer self, gpointer data)
{
	JoindCore *core = self;
	DiagnosticsGather *g = g_new0(DiagnosticsGather, 1);
	g_autoptr(GList) devices = g_hash_table_get_values(core->devices);

	g->core = core;
	g->call = call;
	g->devices = g_ptr_array_new_with_free_func(g_object_unref);
	g->details = g_ptr_array_new_with_free_func(details_free);
	for (GList *l = devices; l != NULL; l = l->next) {
		g_ptr_array_add(g->devices, g_object_ref(l->data));
		g_ptr_array_add(g->details, NULL);
	}
	/* One for this loop, so no early part answers before all are asked. */
	g->pending = g->devices->len + 1;
	for (guint i = 0; i < g->devices->len; i++)
		joind_device_get_diagnostics(g_ptr_array_index(g->devices, i),
		                             joind_dbus_call_get_cancellable(call),
		                             diagnostics_device_done, g);
	if (--g->pending == 0)
		diagnostics_gather_answer(g);
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

/* ---- settings, profiles, agents ------------------------------------------ */

gboolean
joind_core_declare_config(JoindCore *self, const JoindConfigKey *keys, GError **error)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), FALSE);
	/* Listing only: the plugin's init() stops here, before any I/O. */
	if (self->declared != NULL) {
		g_ptr_array_add(self->declared, (gpointer)keys);
		return joind_set_error(error, JOIND_ERROR_ABORTED, JOIND_CORE_LISTING_CONFIG);
	}
	return joind_config_declare(self->config, keys, error);
}

gint
joind_core_get_config_int(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_int(self->config, group, key);
}

gboolean
joind_core_get_config_bool(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_bool(self->config, group, key);
}

gchar *
joind_core_get_config_string(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_string(self->config, group, key);
}

gchar **
joind_core_get_config_strv(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_strv(self->config, group, key);
}

JoindProfile *
joind_core_find_wired_profile(JoindCore *self, const gchar *ifname, const gchar *address)
{
	return joind_profile_store_find_wired(self->profiles, ifname, address);
}

JoindProfile *
joind_core_find_network_profile(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                JoindProfileType type)
{
	return joind_profile_store_find_network(self->profiles, ssid, ssid_len, type);
}

GPtrArray *
joind_core_list_profiles(JoindCore *self, JoindProfileType type)
{
	return joind_profile_store_list(self->profiles, type);
}

gboolean
joind_core_save_network_profile(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                JoindProfileType type, GKeyFile *contents, GError **error)
{
	g_autoptr(JoindProfile) existing =
	        joind_profile_store_find_network(self->profiles, ssid, ssid_len, type);

	/* A profile joind creates is the user's (Source "user"); marked first so
	 * that its KnownNetwork1 object appears with it. */
	if (existing == NULL)
		joind_known_state_set_user_saved(self->known, ssid, ssid_len, type, TRUE);
	if (joind_profile_store_save_network(self->profiles, ssid, ssid_len, type, contents, error))
		return TRUE;
	if (existing == NULL)
		joind_known_state_set_user_saved(self->known, ssid, ssid_len, type, FALSE);
	return FALSE;
}

gboolean
joind_core_update_profile_keys(JoindCore *self, JoindProfile *profile, const gchar *group,
                               const gchar *const *keys, const gchar *const *values, GError **error)
{
	return joind_profile_store_update_keys(self->profiles, profile, group, keys, values, error);
}

gboolean
joind_core_remove_profile(JoindCore *self, JoindProfile *profile, GError **error)
{
	return joind_profile_store_remove(self->profiles, profile, error);
}

void
joind_core_request_secret(JoindCore *core, JoindSecretKind kind, const gchar *object_path,
                          const gchar *user, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
	joind_agent_manager_request(core->agents, NULL, kind, object_path, user, cancellable,
	                            callback, user_data);
}

void
joind_core_request_secret_for(JoindCore *core, const gchar *requester, JoindSecretKind kind,
                              const gchar *object_path, const gchar *user,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
	joind_agent_manager_request(core->agents, requester, kind, object_path, user, cancellable,
	                            callback, user_data);
}

const gchar *
joind_requester_from_cancellable(GCancellable *cancellable)
{
	return joind_dbus_call_get_requester(cancellable);
}

JoindSecret *
joind_core_request_secret_finish(JoindCore *core, GAsyncResult *result, GError **error)
{
	return joind_agent_manager_request_finish(core->agents, result, error);
}

void
joind_core_register_agent(JoindCore *self, JoindCall *call, const gchar *interface,
                          JoindPathMapFunc map, gpointer map_data)
{
	joind_agent_manager_register(self->agents, call, interface, map, map_data);
}

void
joind_core_unregister_agent(JoindCore *self, JoindCall *call)
{
	joind_agent_manager_unregister(self->agents, call);
}

gboolean
joind_core_has_agent(JoindCore *core)
{
	return core->agents != NULL && joind_agent_manager_get_n_agents(core->agents) > 0;
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
	                        core_get_diagnostics, NULL);
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

/* ---- what joind learned about known networks (joind-known.h) ------------- */

void
joind_core_note_connected(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                          JoindProfileType type, guint32 freq)
{
	g_return_if_fail(JOIND_IS_CORE(self));
	joind_known_state_note_connected(self->known, ssid, ssid_len, type, freq,
	                                 g_get_real_time() / G_USEC_PER_SEC);
	if (self->known_export != NULL)
		joind_dbus_known_refresh(self->known_export, ssid, ssid_len, type);
}

void
joind_core_note_seen(JoindCore *self, const guint8 *ssid, gsize ssid_len, JoindProfileType type,
                     guint32 freq)
{
	g_return_if_fail(JOIND_IS_CORE(self));
	joind_known_state_note_seen(self->known, ssid, ssid_len, type, freq);
}

GArray *
joind_core_get_known_frequencies(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), NULL);
	return joind_known_state_get_frequencies(self->known, ssid, ssid_len, type);
}

gint64
joind_core_get_last_connected(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                              JoindProfileType type)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), 0);
	return joind_known_state_get_last_connected(self->known, ssid, ssid_len, type);
}
