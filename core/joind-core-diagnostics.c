/* joind-core-diagnostics.c - Daemon1.GetDiagnostics(): the daemon, its
 * plugins, every device's state and details, the known networks and the
 * profiles that do not read, as one JSON document.
 */
#include "joind-core-internal.h"

#include "config.h"
#include "joind-eap-seen.h"
#include "joind-error.h"
#include "joind-json.h"
#include "joind-port.h"

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

void
joind_core_get_diagnostics(JoindDBusCall *call, gpointer self, gpointer data)
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
