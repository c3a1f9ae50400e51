/* joinctl-monitor.c - `joinctl monitor`: joind's objects and properties as
 * they appear, change and vanish, from the object manager's signals (never
 * polled), and one line per roam, until SIGINT/SIGTERM. Waits for joind when it is not running and
 * follows it across restarts.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "joinctl.h"

typedef struct {
	JoinctlContext *ctx;
	GDBusProxy *daemon;  /* net.joind.Daemon1, beside the object manager */
	GHashTable *roaming; /* paths of the stations whose State is roaming */
} Monitor;

static gchar *
now_text(gboolean json)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_local();
	g_autofree gchar *clock = NULL;

	if (json)
		return g_date_time_format_iso8601(now);
	clock = g_date_time_format(now, "%H:%M:%S");
	return g_strdup_printf("%s.%03d", clock, g_date_time_get_microsecond(now) / 1000);
}

/* "[eth0]" for a device and the objects below it, "" otherwise. */
static gchar *
label_for(Monitor *m, GDBusObject *object)
{
	const gchar *path = g_dbus_object_get_object_path(object);
	JoindDBusDevice1 *dev = joind_dbus_object_peek_device1(JOIND_DBUS_OBJECT(object));
	g_auto(GStrv) parts = NULL;
	g_autofree gchar *device_path = NULL;
	g_autofree gchar *name = NULL;

	if (dev != NULL)
		return g_strdup_printf(" [%s]", joind_dbus_device1_get_name(dev));
	parts = g_strsplit(path, "/", 6);
	if (g_strv_length(parts) < 5 || !g_str_equal(parts[3], "device"))
		return g_strdup("");
	device_path = g_strdup_printf("/net/joind/device/%s", parts[4]);
	name = joinctl_device_name_for_path(m->ctx, device_path);
	return name ? g_strdup_printf(" [%s]", name) : g_strdup("");
}

static void
emit_json(Monitor *m, JsonBuilder *b)
{
	g_autoptr(JsonNode) root = NULL;

	json_builder_end_object(b);
	root = json_builder_get_root(b);
	joinctl_print_json(root, FALSE);
}

static JsonBuilder *
begin_json(const gchar *event, const gchar *path)
{
	JsonBuilder *b = json_builder_new();
	g_autofree gchar *time = now_text(TRUE);

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "time", time);
	joinctl_json_add_string(b, "event", event);
	if (path != NULL) {
		joinctl_json_add_string(b, "path", path);
	}
	return b;
}

static void
print_line(const gchar *event, const gchar *path, const gchar *label, const gchar *iface,
           const gchar *rest)
{
	g_autofree gchar *time = now_text(FALSE);

	if (path == NULL) {
		printf("%s %-8s %s\n", time, event, rest);
	} else {
		printf("%s %-8s %s%s%s%s%s%s\n", time, event, path, label ? label : "",
		       iface ? " " : "", iface ? iface : "", rest && *rest ? ": " : "",
		       rest ? rest : "");
	}
	fflush(stdout);
}

static gchar *
format_properties(GVariant *changed, const gchar *const *invalidated)
{
	g_autoptr(GString) text = g_string_new(NULL);
	GVariantIter iter;
	const gchar *key;
	GVariant *value;

	g_variant_iter_init(&iter, changed);
	while (g_variant_iter_next(&iter, "{&sv}", &key, &value)) {
		g_autofree gchar *v = joinctl_format_value(value);
		g_string_append_printf(text, "%s%s=%s", text->len ? " " : "", key, v);
		g_variant_unref(value);
	}
	for (guint i = 0; invalidated != NULL && invalidated[i] != NULL; i++)
		g_string_append_printf(text, "%s%s=?", text->len ? " " : "", invalidated[i]);
	return g_string_free(g_steal_pointer(&text), FALSE);
}

static gint
compare_names(gconstpointer a, gconstpointer b, gpointer user_data)
{
	return g_strcmp0(*(const gchar *const *)a, *(const gchar *const *)b);
}

/* The cached properties of an interface proxy as an a{sv}, sorted by name. */
static GVariant *
cached_properties(GDBusProxy *proxy)
{
	g_auto(GStrv) names = g_dbus_proxy_get_cached_property_names(proxy);
	GVariantBuilder builder;

	g_variant_builder_init(&builder, G_VARIANT_TYPE_VARDICT);
	if (names != NULL)
		g_qsort_with_data(names, g_strv_length(names), sizeof(gchar *), compare_names,
		                  NULL);
	for (guint i = 0; names != NULL && names[i] != NULL; i++) {
		g_autoptr(GVariant) value = g_dbus_proxy_get_cached_property(proxy, names[i]);
		if (value != NULL)
			g_variant_builder_add(&builder, "{sv}", names[i], value);
	}
	return g_variant_ref_sink(g_variant_builder_end(&builder));
}

static void
show_proxy(Monitor *m, const gchar *event, const gchar *path, const gchar *label, GDBusProxy *iface)
{
	const gchar *name = g_dbus_proxy_get_interface_name(iface);
	g_autoptr(GVariant) props = cached_properties(iface);
	g_autofree gchar *text = NULL;

	if (m->ctx->json) {
		g_autoptr(JsonBuilder) b = begin_json(event, path);
		joinctl_json_add_string(b, "interface", name);
		json_builder_set_member_name(b, "properties");
		json_builder_add_value(b, joinctl_json_properties(iface));
		emit_json(m, b);
		return;
	}
	text = format_properties(props, NULL);
	print_line(event, path, label, name, text);
}

static void
show_interface(Monitor *m, const gchar *event, GDBusObject *object, GDBusInterface *iface)
{
	g_autofree gchar *label = label_for(m, object);

	show_proxy(m, event, g_dbus_object_get_object_path(object), label, G_DBUS_PROXY(iface));
}

static void
on_object_added(GDBusObjectManager *manager, GDBusObject *object, Monitor *m)
{
	g_autolist(GDBusInterface) ifaces = g_dbus_object_get_interfaces(object);

	for (GList *l = ifaces; l != NULL; l = l->next)
		show_interface(m, "added", object, l->data);
}

static void
on_interface_added(GDBusObjectManager *manager, GDBusObject *object, GDBusInterface *iface,
                   Monitor *m)
{
	show_interface(m, "added", object, iface);
}

static void
show_removed(Monitor *m, GDBusObject *object, const gchar *iface)
{
	const gchar *path = g_dbus_object_get_object_path(object);
	g_autofree gchar *label = NULL;

	if (m->ctx->json) {
		g_autoptr(JsonBuilder) b = begin_json("removed", path);
		if (iface != NULL) {
			joinctl_json_add_string(b, "interface", iface);
		}
		emit_json(m, b);
		return;
	}
	label = label_for(m, object);
	print_line("removed", path, label, iface, NULL);
}

static void
on_object_removed(GDBusObjectManager *manager, GDBusObject *object, Monitor *m)
{
	show_removed(m, object, NULL);
}

static void
on_interface_removed(GDBusObjectManager *manager, GDBusObject *object, GDBusInterface *iface,
                     Monitor *m)
{
	show_removed(m, object, g_dbus_proxy_get_interface_name(G_DBUS_PROXY(iface)));
}

static void
show_changed(Monitor *m, const gchar *path, const gchar *label, GDBusProxy *iface,
             GVariant *changed, const gchar *const *invalidated)
{
	g_autofree gchar *text = NULL;

	if (m->ctx->json) {
		g_autoptr(JsonBuilder) b = begin_json("changed", path);
		joinctl_json_add_string(b, "interface", g_dbus_proxy_get_interface_name(iface));
		json_builder_set_member_name(b, "properties");
		json_builder_add_value(b, joinctl_json_from_variant(changed));
		json_builder_set_member_name(b, "invalidated");
		json_builder_begin_array(b);
		for (guint i = 0; invalidated != NULL && invalidated[i] != NULL; i++)
			json_builder_add_string_value(b, invalidated[i]);
		json_builder_end_array(b);
		emit_json(m, b);
		return;
	}
	text = format_properties(changed, invalidated);
	print_line("changed", path, label, g_dbus_proxy_get_interface_name(iface), text);
}

/* The newest of the roams the device's diagnostics recorded
 * ("details": {"roams": {"last": [...]}}), borrowed from diag. */
static JsonObject *
last_roam(JsonNode *diag)
{
	JsonObject *o =
	        diag != NULL && JSON_NODE_HOLDS_OBJECT(diag) ? json_node_get_object(diag) : NULL;
	JsonObject *details = joinctl_json_object_member(o, "details");
	JsonObject *roams = joinctl_json_object_member(details, "roams");
	JsonArray *last = joinctl_json_array_member(roams, "last");

	if (last == NULL || json_array_get_length(last) == 0)
		return NULL;
	return json_array_get_object_element(last, 0);
}

/* One line per roam, once Station1.State leaves roaming: the move the
 * device recorded last (its ends, trigger, method, duration, result). */
static void
show_roam(Monitor *m, const gchar *path, const gchar *label)
{
	g_autofree gchar *name = joinctl_device_name_for_path(m->ctx, path);
	g_autoptr(JsonNode) diag = joinctl_device_diagnostics(m->ctx, path, name);
	JsonObject *r = last_roam(diag);
	g_autofree gchar *text = NULL;

	if (r == NULL)
		return;
	if (m->ctx->json) {
		g_autoptr(JsonBuilder) b = begin_json("roamed", path);
		json_builder_set_member_name(b, "roam");
		json_builder_add_value(b, json_node_init_object(json_node_alloc(), r));
		emit_json(m, b);
		return;
	}
	text = g_strdup_printf("%s -> %s (%s; %s; %" G_GINT64_FORMAT " ms; %s)",
	                       json_object_get_string_member_with_default(r, "from", "?"),
	                       json_object_get_string_member_with_default(r, "to", "?"),
	                       json_object_get_string_member_with_default(r, "trigger", "?"),
	                       json_object_get_string_member_with_default(r, "method", "?"),
	                       json_object_get_int_member_with_default(r, "duration_ms", 0),
	                       json_object_get_string_member_with_default(r, "result", "?"));
	print_line("roamed", path, label, NULL, text);
}

/* Station1.State in changed: roaming noted; leaving it, the roam shown. */
static void
follow_roams(Monitor *m, const gchar *path, const gchar *label, GDBusProxy *iface,
             GVariant *changed)
{
	const gchar *state = NULL;

	if (!g_str_equal(g_dbus_proxy_get_interface_name(iface), "net.joind.Station1") ||
	    !g_variant_lookup(changed, "State", "&s", &state))
		return;
	if (g_str_equal(state, "roaming"))
		g_hash_table_add(m->roaming, g_strdup(path));
	else if (g_hash_table_remove(m->roaming, path))
		show_roam(m, path, label);
}

static void
on_properties_changed(GDBusObjectManagerClient *manager, GDBusObjectProxy *object,
                      GDBusProxy *iface, GVariant *changed, const gchar *const *invalidated,
                      Monitor *m)
{
	g_autofree gchar *label = label_for(m, G_DBUS_OBJECT(object));
	const gchar *path = g_dbus_object_get_object_path(G_DBUS_OBJECT(object));

	show_changed(m, path, label, iface, changed, invalidated);
	follow_roams(m, path, label, iface, changed);
}

/* Daemon1's proxy follows the name: a (re)started joind reloads all its
 * properties, a stopped one invalidates them (daemon-stopped says that). */
static void
on_daemon_properties(GDBusProxy *proxy, GVariant *changed, const gchar *const *invalidated,
                     Monitor *m)
{
	if (g_variant_n_children(changed) == 0 && !joinctl_daemon_running(m->ctx))
		return;
	show_changed(m, JOINCTL_ROOT_PATH, "", proxy, changed, invalidated);
}

static void
watch_daemon(Monitor *m)
{
	g_autoptr(GVariant) version = NULL;

	m->daemon = G_DBUS_PROXY(
	        joind_dbus_daemon1_proxy_new_sync(m->ctx->bus, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
	                                          JOINCTL_BUS_NAME, JOINCTL_ROOT_PATH, NULL, NULL));
	if (m->daemon == NULL)
		return;
	version = g_dbus_proxy_get_cached_property(m->daemon, "Version");
	if (version != NULL)
		show_proxy(m, "added", JOINCTL_ROOT_PATH, "", m->daemon);
	g_signal_connect(m->daemon, "g-properties-changed", G_CALLBACK(on_daemon_properties), m);
}

static void
show_daemon(Monitor *m, gboolean running)
{
	g_autofree gchar *owner = g_dbus_object_manager_client_get_name_owner(
	        G_DBUS_OBJECT_MANAGER_CLIENT(m->ctx->manager));

	if (m->ctx->json) {
		g_autoptr(JsonBuilder) b =
		        begin_json(running ? "daemon-started" : "daemon-stopped", NULL);
		json_builder_set_member_name(b, "unique_name");
		if (owner != NULL)
			json_builder_add_string_value(b, owner);
		else
			json_builder_add_null_value(b);
		emit_json(m, b);
		return;
	}
	if (running) {
		g_autofree gchar *text = g_strdup_printf(_("joind is running as %s"), owner);
		print_line("daemon", NULL, NULL, NULL, text);
	} else {
		print_line("daemon", NULL, NULL, NULL, _("joind is not running"));
	}
}

static void
on_name_owner(GObject *manager, GParamSpec *pspec, Monitor *m)
{
	show_daemon(m, joinctl_daemon_running(m->ctx));
}

static void
connect_signals(Monitor *m)
{
	GDBusObjectManager *manager = m->ctx->manager;

	g_signal_connect(manager, "object-added", G_CALLBACK(on_object_added), m);
	g_signal_connect(manager, "object-removed", G_CALLBACK(on_object_removed), m);
	g_signal_connect(manager, "interface-added", G_CALLBACK(on_interface_added), m);
	g_signal_connect(manager, "interface-removed", G_CALLBACK(on_interface_removed), m);
	g_signal_connect(manager, "interface-proxy-properties-changed",
	                 G_CALLBACK(on_properties_changed), m);
	g_signal_connect(manager, "notify::name-owner", G_CALLBACK(on_name_owner), m);
}

int
joinctl_cmd_monitor(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	Monitor m = {.ctx = ctx};
	g_autoptr(GHashTable) roaming =
	        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autolist(GObject) objects = NULL;

	if (g_strv_length(args) != 0)
		return joinctl_usage_error(_("usage: joinctl monitor"));
	if (!joinctl_context_connect(ctx, FALSE, &error))
		return joinctl_report(error);
	if (!ctx->json)
		g_printerr(_("Monitoring joind on the %s bus; Ctrl-C to stop.\n"),
		           joinctl_bus_label(ctx));
	m.roaming = roaming;
	show_daemon(&m, joinctl_daemon_running(ctx));
	watch_daemon(&m);
	objects = joinctl_objects_sorted(ctx);
	for (GList *l = objects; l != NULL; l = l->next)
		on_object_added(ctx->manager, l->data, &m);
	connect_signals(&m);
	joinctl_wait_until(ctx, NULL);
	g_signal_handlers_disconnect_by_data(ctx->manager, &m);
	if (m.daemon != NULL)
		g_signal_handlers_disconnect_by_data(m.daemon, &m);
	g_clear_object(&m.daemon);
	return JOINCTL_EXIT_OK;
}
