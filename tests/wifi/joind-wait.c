/* joind-wait.c - wait for a condition on joind's D-Bus objects.
 *
 * Event-driven: follows net.joind's ObjectManager (InterfacesAdded/Removed,
 * PropertiesChanged) and checks the condition after each event; no polling.
 *
 *   joind-wait [-t SECONDS] name
 *       net.joind has an owner
 *   joind-wait [-t SECONDS] object IFACE [PROP=VALUE|PROP!=VALUE]...
 *       some object has IFACE with those properties; prints its path(s)
 *   joind-wait [-t SECONDS] no-object IFACE [PROP=VALUE|PROP!=VALUE]...
 *       no object matches
 *   joind-wait [-t SECONDS] count N IFACE [PROP=VALUE|PROP!=VALUE]...
 *       exactly N objects match; prints their paths
 *   joind-wait dump
 *       prints every object, interface and property, then exits
 *   joind-wait [-t SECONDS] scan-join DEVICE-PATH
 *       calls Station1.Scan(), and as soon as Scanning is true calls it a
 *       second time (from this one process, so no start-up delay sits
 *       between the two); exits 0 when both succeeded
 *   joind-wait [-t SECONDS] connect-twice NETWORK-PATH
 *       calls Network1.Connect() twice back to back (the second is sent
 *       before the first is answered); prints each outcome, exits 0 when
 *       the first failed with net.joind.Error.Aborted and the second
 *       succeeded
 *
 * Values compare as text: strings and object paths as they are, anything
 * else as g_variant_print() shows it (true, -3000, ...). Exit status 0 when
 * the condition holds, 1 on timeout (after printing what there is), 2 on
 * usage errors. The bus is the system bus unless DBUS_SYSTEM_BUS_ADDRESS
 * says otherwise; --session uses the session bus.
 */
#include <gio/gio.h>
#include <string.h>

typedef struct {
	gchar *name;
	gchar *value;
	gboolean negate;
} Match;

typedef struct {
	GMainLoop *loop;
	GDBusProxy *station;
	gint pending;
	gboolean second_sent;
	gboolean failed;
	GDBusObjectManager *manager;
	const gchar *mode;
	const gchar *iface;
	gint want_count;
	GPtrArray *matches; /* Match */
	gboolean done;
} Waiter;

static gchar *
variant_text(GVariant *v)
{
	if (g_variant_is_of_type(v, G_VARIANT_TYPE_STRING) ||
	    g_variant_is_of_type(v, G_VARIANT_TYPE_OBJECT_PATH))
		return g_variant_dup_string(v, NULL);
	return g_variant_print(v, FALSE);
}

static gboolean
object_matches(Waiter *w, GDBusObject *object)
{
	g_autoptr(GDBusInterface) iface = g_dbus_object_get_interface(object, w->iface);

	if (iface == NULL)
		return FALSE;
	for (guint i = 0; i < w->matches->len; i++) {
		Match *m = g_ptr_array_index(w->matches, i);
		g_autoptr(GVariant) v =
		        g_dbus_proxy_get_cached_property(G_DBUS_PROXY(iface), m->name);
		g_autofree gchar *text = v != NULL ? variant_text(v) : NULL;
		gboolean equal = text != NULL && g_str_equal(text, m->value);

		if (equal == m->negate)
			return FALSE;
	}
	return TRUE;
}

static GPtrArray *
matching_paths(Waiter *w)
{
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	GList *objects = g_dbus_object_manager_get_objects(w->manager);

	for (GList *l = objects; l != NULL; l = l->next) {
		if (object_matches(w, l->data))
			g_ptr_array_add(paths, g_strdup(g_dbus_object_get_object_path(l->data)));
	}
	g_list_free_full(objects, g_object_unref);
	g_ptr_array_sort(paths, (GCompareFunc)g_strcmp0);
	return paths;
}

static void
check(Waiter *w)
{
	g_autoptr(GPtrArray) paths = matching_paths(w);
	gboolean ok;

	if (w->done)
		return;
	if (g_str_equal(w->mode, "object"))
		ok = paths->len > 0;
	else if (g_str_equal(w->mode, "no-object"))
		ok = paths->len == 0;
	else
		ok = (gint)paths->len == w->want_count;
	if (!ok)
		return;
	for (guint i = 0; i < paths->len; i++)
		g_print("%s\n", (gchar *)g_ptr_array_index(paths, i));
	w->done = TRUE;
	g_main_loop_quit(w->loop);
}

static void
on_changed(gpointer user_data)
{
	check(user_data);
}

static void
dump(GDBusObjectManager *manager)
{
	GList *objects = g_dbus_object_manager_get_objects(manager);

	for (GList *l = objects; l != NULL; l = l->next) {
		GList *ifaces = g_dbus_object_get_interfaces(l->data);

		g_print("%s\n", g_dbus_object_get_object_path(l->data));
		for (GList *i = ifaces; i != NULL; i = i->next) {
			GDBusProxy *proxy = i->data;
			g_auto(GStrv) names = g_dbus_proxy_get_cached_property_names(proxy);

			g_print("  %s\n", g_dbus_proxy_get_interface_name(proxy));
			for (guint n = 0; names != NULL && names[n] != NULL; n++) {
				g_autoptr(GVariant) v =
				        g_dbus_proxy_get_cached_property(proxy, names[n]);
				g_autofree gchar *text = variant_text(v);

				g_print("    %s = %s\n", names[n], text);
			}
		}
		g_list_free_full(ifaces, g_object_unref);
	}
	g_list_free_full(objects, g_object_unref);
}

static gboolean
on_timeout(gpointer user_data)
{
	Waiter *w = user_data;

	g_printerr("joind-wait: timed out; objects now:\n");
	if (w->manager != NULL)
		dump(w->manager);
	g_main_loop_quit(w->loop);
	return G_SOURCE_REMOVE;
}

static void
on_name_appeared(GDBusConnection *bus, const gchar *name, const gchar *owner, gpointer user_data)
{
	Waiter *w = user_data;

	w->done = TRUE;
	g_main_loop_quit(w->loop);
}

/* ---- scan-join ------------------------------------------------------------ */

static void
scan_returned(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Waiter *w = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_proxy_call_finish(G_DBUS_PROXY(source), result, &error);

	if (reply == NULL) {
		g_printerr("joind-wait: Scan() failed: %s\n", error->message);
		w->failed = TRUE;
	}
	if (--w->pending == 0) {
		w->done = !w->failed;
		g_main_loop_quit(w->loop);
	}
}

static void
scan_call(Waiter *w)
{
	w->pending++;
	g_dbus_proxy_call(w->station, "Scan", NULL, G_DBUS_CALL_FLAGS_NONE, 60000, NULL,
	                  scan_returned, w);
}

static void
scan_maybe_second(Waiter *w)
{
	g_autoptr(GVariant) scanning = g_dbus_proxy_get_cached_property(w->station, "Scanning");

	if (w->second_sent || scanning == NULL || !g_variant_get_boolean(scanning))
		return;
	w->second_sent = TRUE;
	scan_call(w);
}

static void
on_station_props(GDBusProxy *proxy, GVariant *changed, GStrv invalidated, gpointer user_data)
{
	scan_maybe_second(user_data);
}

static int
scan_join(Waiter *w, GBusType bus_type, const gchar *path)
{
	g_autoptr(GError) error = NULL;

	w->station = g_dbus_proxy_new_for_bus_sync(bus_type, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
	                                           NULL, "net.joind", path, "net.joind.Station1",
	                                           NULL, &error);
	if (w->station == NULL) {
		g_printerr("joind-wait: %s\n", error->message);
		return 1;
	}
	g_signal_connect(w->station, "g-properties-changed", G_CALLBACK(on_station_props), w);
	scan_call(w);
	scan_maybe_second(w);
	g_main_loop_run(w->loop);
	return w->done && w->second_sent ? 0 : 1;
}

/* ---- connect-twice -------------------------------------------------------- */

typedef struct {
	Waiter *w;
	gint index;
} ConnectCall;

static void
connect_returned(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree ConnectCall *call = user_data;
	Waiter *w = call->w;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	g_autofree gchar *remote = error != NULL ? g_dbus_error_get_remote_error(error) : NULL;

	g_print("Connect() %d: %s\n", call->index, error != NULL ? error->message : "ok");
	if (call->index == 1 && g_strcmp0(remote, "net.joind.Error.Aborted") != 0)
		w->failed = TRUE;
	if (call->index == 2 && reply == NULL)
		w->failed = TRUE;
	if (--w->pending == 0) {
		w->done = !w->failed;
		g_main_loop_quit(w->loop);
	}
}

static int
connect_twice(Waiter *w, GBusType bus_type, const gchar *path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_sync(bus_type, NULL, &error);

	if (bus == NULL) {
		g_printerr("joind-wait: %s\n", error->message);
		return 1;
	}
	for (gint i = 1; i <= 2; i++) {
		ConnectCall *call = g_new0(ConnectCall, 1);

		call->w = w;
		call->index = i;
		w->pending++;
		g_dbus_connection_call(bus, "net.joind", path, "net.joind.Network1", "Connect",
		                       NULL, NULL, G_DBUS_CALL_FLAGS_NONE, 60000, NULL,
		                       connect_returned, call);
	}
	g_main_loop_run(w->loop);
	return w->done ? 0 : 1;
}

static gboolean
parse_matches(Waiter *w, gchar **args)
{
	w->matches = g_ptr_array_new();
	for (guint i = 0; args[i] != NULL; i++) {
		Match *m = g_new0(Match, 1);
		gchar *eq = strchr(args[i], '=');

		if (eq == NULL || eq == args[i])
			return FALSE;
		m->negate = eq[-1] == '!';
		m->name = g_strndup(args[i], eq - args[i] - (m->negate ? 1 : 0));
		m->value = g_strdup(eq + 1);
		g_ptr_array_add(w->matches, m);
	}
	return TRUE;
}

/* A whole, non-negative number, or -1. */
static gint
parse_count(const gchar *text)
{
	guint64 n = 0;

	if (!g_ascii_string_to_unsigned(text, 10, 0, G_MAXINT, &n, NULL))
		return -1;
	return (gint)n;
}

static int
usage(void)
{
	g_printerr("usage: joind-wait [-t SECONDS] [--session] "
	           "name | dump | object IFACE [P=V].. | no-object IFACE [P=V].. | "
	           "count N IFACE [P=V].. | scan-join DEVICE-PATH | connect-twice NETWORK-PATH\n");
	return 2;
}

/* The object modes (object, no-object, count, dump): args[0] is the
 * interface, args[1..] the property matches (dump takes none). */
static int
watch_objects(Waiter *w, GBusType bus_type, char **args, int n_args)
{
	g_autoptr(GError) error = NULL;

	w->manager = g_dbus_object_manager_client_new_for_bus_sync(
	        bus_type, G_DBUS_OBJECT_MANAGER_CLIENT_FLAGS_DO_NOT_AUTO_START, "net.joind",
	        "/net/joind", NULL, NULL, NULL, NULL, &error);
	if (w->manager == NULL) {
		g_printerr("joind-wait: %s\n", error->message);
		return 1;
	}
	if (g_str_equal(w->mode, "dump")) {
		dump(w->manager);
		return 0;
	}
	if (n_args < 1 || !parse_matches(w, args + 1))
		return usage();
	w->iface = args[0];
	g_signal_connect_swapped(w->manager, "object-added", G_CALLBACK(on_changed), w);
	g_signal_connect_swapped(w->manager, "object-removed", G_CALLBACK(on_changed), w);
	g_signal_connect_swapped(w->manager, "interface-added", G_CALLBACK(on_changed), w);
	g_signal_connect_swapped(w->manager, "interface-removed", G_CALLBACK(on_changed), w);
	g_signal_connect_swapped(w->manager, "interface-proxy-properties-changed",
	                         G_CALLBACK(on_changed), w);
	check(w);
	if (!w->done)
		g_main_loop_run(w->loop);
	return w->done ? 0 : 1;
}

int
main(int argc, char **argv)
{
	Waiter w = {0};
	gint timeout = 30;
	gboolean session = FALSE;
	GBusType bus_type;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (g_str_equal(argv[i], "-t") && i + 1 < argc)
			timeout = parse_count(argv[++i]);
		else if (g_str_equal(argv[i], "--session"))
			session = TRUE;
		else
			return usage();
	}
	if (i >= argc || timeout < 0)
		return usage();
	bus_type = session ? G_BUS_TYPE_SESSION : G_BUS_TYPE_SYSTEM;
	w.mode = argv[i++];
	w.loop = g_main_loop_new(NULL, FALSE);
	g_timeout_add_seconds(timeout, on_timeout, &w);
	if (g_str_equal(w.mode, "name")) {
		g_bus_watch_name(bus_type, "net.joind", 0, on_name_appeared, NULL, &w, NULL);
		g_main_loop_run(w.loop);
		return w.done ? 0 : 1;
	}
	if (g_str_equal(w.mode, "scan-join"))
		return i < argc ? scan_join(&w, bus_type, argv[i]) : usage();
	if (g_str_equal(w.mode, "connect-twice"))
		return i < argc ? connect_twice(&w, bus_type, argv[i]) : usage();
	if (g_str_equal(w.mode, "count")) {
		if (i >= argc)
			return usage();
		w.want_count = parse_count(argv[i++]);
		if (w.want_count < 0)
			return usage();
	} else if (!g_str_equal(w.mode, "object") && !g_str_equal(w.mode, "no-object") &&
	           !g_str_equal(w.mode, "dump")) {
		return usage();
	}
	return watch_objects(&w, bus_type, argv + i, argc - i);
}
