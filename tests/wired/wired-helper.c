/* wired-helper.c - D-Bus helpers for the wired tests (gdbus cannot serve
 * objects or wait for a signal with a deadline).
 *
 *   wired-helper agent [--passphrase P] [--user U] [--password W] [--cancel]
 *       Registers a net.joind.Agent1 with joind once it is on the bus and
 *       answers its requests with these values (a request without a value
 *       is refused with net.joind.Agent.Error.Canceled; with --cancel every
 *       request is refused with net.joind.Error.Aborted, as an agent whose
 *       user pressed Cancel). Prints "registered" and one line per request
 *       ("RequestPrivateKeyPassphrase <object>"), then runs until
 *       SIGTERM/SIGINT. With --call PATH METHOD [ARG] it then calls
 *       net.joind.METHOD (e.g. Network1.Connect) on PATH from its own
 *       connection, with ARG as a string argument when given (joind asks the
 *       agent of the client that made the call), prints "call ok" or
 *       "call failed: <error>" and exits with 0 or 1.
 *
 *   wired-helper wait [--timeout S] [--run CMD ...  --] PATH PROPERTY V1[,V2...]
 *       Watches net.joind.Port8021x1.PROPERTY of PATH (PropertiesChanged),
 *       runs CMD if given, and returns 0 once the property took the values
 *       V1, V2, ... in this order (the current value counts for V1 when no
 *       CMD is given). Prints the milliseconds from just before CMD (or
 *       from the start) to the last value. On timeout prints what it saw
 *       and LastError, and returns 1.
 */
#include <gio/gio.h>
#include <glib-unix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOIND_NAME  "net.joind"
#define PORT_IFACE  "net.joind.Port8021x1"
#define AGENT_PATH  "/net/joind/test/agent"
#define AGENT_ERROR "net.joind.Agent.Error.Canceled"
#define ABORT_ERROR "net.joind.Error.Aborted"

static const gchar agent_xml[] =
        "<node><interface name='net.joind.Agent1'>"
        "<method name='RequestPassphrase'><arg name='o' type='o' direction='in'/>"
        "<arg name='p' type='s' direction='out'/></method>"
        "<method name='RequestPrivateKeyPassphrase'><arg name='o' type='o' direction='in'/>"
        "<arg name='p' type='s' direction='out'/></method>"
        "<method name='RequestUserNameAndPassword'><arg name='o' type='o' direction='in'/>"
        "<arg name='u' type='s' direction='out'/><arg name='p' type='s' direction='out'/>"
        "</method>"
        "<method name='RequestUserPassword'><arg name='o' type='o' direction='in'/>"
        "<arg name='u' type='s' direction='in'/><arg name='p' type='s' direction='out'/>"
        "</method>"
        "<method name='Cancel'><arg name='r' type='s' direction='in'/></method>"
        "<method name='Release'/>"
        "</interface></node>";

static gchar *opt_passphrase;
static gchar *opt_user;
static gchar *opt_password;
static gboolean opt_cancel;
static gint opt_timeout = 10;
static gchar *opt_call_path;
static gchar *opt_call_method;
static gchar *opt_call_arg;

/* ---- agent ---------------------------------------------------------------- */

static void
agent_reply(GDBusMethodInvocation *invocation, const gchar *first, const gchar *second)
{
	if (opt_cancel) {
		g_dbus_method_invocation_return_dbus_error(invocation, ABORT_ERROR,
		                                           "The user cancelled the request");
		return;
	}
	if (first == NULL ||
	    (second == NULL && g_str_equal(g_dbus_method_invocation_get_method_name(invocation),
	                                   "RequestUserNameAndPassword"))) {
		g_dbus_method_invocation_return_dbus_error(invocation, AGENT_ERROR,
		                                           "The test agent has no such secret");
		return;
	}
	if (second != NULL)
		g_dbus_method_invocation_return_value(invocation,
		                                      g_variant_new("(ss)", first, second));
	else
		g_dbus_method_invocation_return_value(invocation, g_variant_new("(s)", first));
}

static void
agent_method_call(GDBusConnection *bus, const gchar *sender, const gchar *path, const gchar *iface,
                  const gchar *method, GVariant *params, GDBusMethodInvocation *invocation,
                  gpointer user_data)
{
	const gchar *object = "";

	if (g_variant_n_children(params) > 0) {
		g_autoptr(GVariant) first = g_variant_get_child_value(params, 0);

		if (g_variant_is_of_type(first, G_VARIANT_TYPE_OBJECT_PATH))
			object = g_variant_get_string(first, NULL);
		g_print("%s %s\n", method, object);
	} else {
		g_print("%s\n", method);
	}
	if (g_str_equal(method, "RequestPassphrase") ||
	    g_str_equal(method, "RequestPrivateKeyPassphrase"))
		agent_reply(invocation, opt_passphrase, NULL);
	else if (g_str_equal(method, "RequestUserNameAndPassword"))
		agent_reply(invocation, opt_user, opt_password);
	else if (g_str_equal(method, "RequestUserPassword"))
		agent_reply(invocation, opt_password, NULL);
	else
		g_dbus_method_invocation_return_value(invocation, NULL);
}

static void
agent_call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);

	if (ret == NULL)
		g_print("call failed: %s\n", error->message);
	else
		g_print("call ok\n");
	exit(ret == NULL ? 1 : 0);
}

/* --call: the method on the agent's own connection. */
static void
agent_call(GDBusConnection *bus)
{
	g_autofree gchar *iface = g_strconcat("net.joind.", opt_call_method, NULL);
	gchar *dot = strrchr(iface, '.');

	if (dot == iface + strlen("net.joind")) {
		g_printerr("--call: METHOD is Interface.Method\n");
		exit(2);
	}
	*dot = '\0';
	g_dbus_connection_call(bus, JOIND_NAME, opt_call_path, iface, dot + 1,
	                       opt_call_arg != NULL ? g_variant_new("(s)", opt_call_arg) : NULL,
	                       NULL, G_DBUS_CALL_FLAGS_NONE, 120000, NULL, agent_call_done, NULL);
}

static void
agent_name_appeared(GDBusConnection *bus, const gchar *name, const gchar *owner, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret = g_dbus_connection_call_sync(
	        bus, JOIND_NAME, "/net/joind", "net.joind.AgentManager1", "RegisterAgent",
	        g_variant_new("(o)", AGENT_PATH), NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);

	if (ret == NULL) {
		g_printerr("RegisterAgent: %s\n", error->message);
		exit(1);
	}
	g_print("registered\n");
	if (opt_call_path != NULL)
		agent_call(bus);
}

static gboolean
quit_loop(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_REMOVE;
}

static int
run_agent(GDBusConnection *bus)
{
	static const GDBusInterfaceVTable vtable = {.method_call = agent_method_call};
	g_autoptr(GDBusNodeInfo) node = g_dbus_node_info_new_for_xml(agent_xml, NULL);
	g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);
	g_autoptr(GError) error = NULL;

	if (g_dbus_connection_register_object(bus, AGENT_PATH, node->interfaces[0], &vtable, NULL,
	                                      NULL, &error) == 0) {
		g_printerr("%s\n", error->message);
		return 1;
	}
	g_bus_watch_name_on_connection(bus, JOIND_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
	                               agent_name_appeared, NULL, NULL, NULL);
	g_unix_signal_add(SIGTERM, quit_loop, loop);
	g_unix_signal_add(SIGINT, quit_loop, loop);
	g_main_loop_run(loop);
	return 0;
}

/* ---- wait ----------------------------------------------------------------- */

typedef struct {
	GMainLoop *loop;
	gchar **want;
	guint next;
	GString *seen;
	gint64 t0;
	gint64 t_done;
} Wait;

static void
wait_value(Wait *w, const gchar *value)
{
	g_string_append_printf(w->seen, "%s%s", w->seen->len > 0 ? " " : "", value);
	if (w->want[w->next] != NULL && g_str_equal(w->want[w->next], value))
		w->next++;
	if (w->want[w->next] == NULL && w->t_done == 0) {
		w->t_done = g_get_monotonic_time();
		g_main_loop_quit(w->loop);
	}
}

static void
wait_properties_changed(GDBusConnection *bus, const gchar *sender, const gchar *path,
                        const gchar *iface, const gchar *signal, GVariant *params,
                        gpointer user_data)
{
	Wait *w = user_data;
	const gchar *prop = g_object_get_data(G_OBJECT(bus), "wait-property");
	g_autoptr(GVariant) changed = NULL;
	const gchar *value;

	g_variant_get(params, "(&s@a{sv}@as)", NULL, &changed, NULL);
	if (g_variant_lookup(changed, prop, "&s", &value))
		wait_value(w, value);
}

static gchar *
get_property(GDBusConnection *bus, const gchar *path, const gchar *prop)
{
	g_autoptr(GVariant) ret = g_dbus_connection_call_sync(
	        bus, JOIND_NAME, path, "org.freedesktop.DBus.Properties", "Get",
	        g_variant_new("(ss)", PORT_IFACE, prop), G_VARIANT_TYPE("(v)"),
	        G_DBUS_CALL_FLAGS_NONE, 2000, NULL, NULL);
	g_autoptr(GVariant) v = NULL;

	if (ret == NULL)
		return NULL;
	g_variant_get(ret, "(v)", &v);
	return g_variant_dup_string(v, NULL);
}

static gboolean
run_command(gchar **argv)
{
	g_autoptr(GError) error = NULL;
	gint status = 0;

	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status,
	                  &error) ||
	    !g_spawn_check_wait_status(status, &error)) {
		g_printerr("%s: %s\n", argv[0], error->message);
		return FALSE;
	}
	return TRUE;
}

static int
wait_finish(Wait *w, GDBusConnection *bus, const gchar *path, const gchar *prop,
            const gchar *values)
{
	g_autofree gchar *last_error = NULL;

	if (w->t_done == 0) {
		last_error = get_property(bus, path, "LastError");
		g_print("timeout after %d s waiting for %s=%s; seen: %s; LastError: %s\n",
		        opt_timeout, prop, values, w->seen->str,
		        last_error != NULL ? last_error : "(none)");
		return 1;
	}
	g_print("%.1f\n", (w->t_done - w->t0) / 1000.0);
	return 0;
}

/* Runs the loop until the wanted value shows up (the signal handler stops
 * it) or the time is up. */
static void
wait_run_loop(Wait *w)
{
	guint timer = g_timeout_add_seconds(opt_timeout, quit_loop, w->loop);

	g_main_loop_run(w->loop);
	if (w->t_done != 0)
		g_source_remove(timer);
}

static int
run_wait(GDBusConnection *bus, gchar **cmd, const gchar *path, const gchar *prop,
         const gchar *values)
{
	g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);
	g_auto(GStrv) want = g_strsplit(values, ",", -1);
	g_autoptr(GString) seen = g_string_new(NULL);
	Wait w = {.loop = loop, .want = want, .seen = seen};
	g_autofree gchar *current = NULL;
	guint sub;
	int rc = 2;

	g_object_set_data_full(G_OBJECT(bus), "wait-property", g_strdup(prop), g_free);
	sub = g_dbus_connection_signal_subscribe(
	        bus, JOIND_NAME, "org.freedesktop.DBus.Properties", "PropertiesChanged", path,
	        PORT_IFACE, G_DBUS_SIGNAL_FLAGS_NONE, wait_properties_changed, &w, NULL);
	/* The match rule is in place once a round trip completed. */
	current = get_property(bus, path, prop);
	w.t0 = g_get_monotonic_time();
	if (cmd == NULL || run_command(cmd)) {
		if (cmd == NULL && current != NULL)
			wait_value(&w, current);
		if (w.t_done == 0)
			wait_run_loop(&w);
		rc = wait_finish(&w, bus, path, prop, values);
	}
	g_dbus_connection_signal_unsubscribe(bus, sub);
	return rc;
}

/* ---- main ----------------------------------------------------------------- */

/* Consumes the option at argv[*i] (and its values).  Returns FALSE when
 * argv[*i] is not an option; sets *rc on a bad value. */
static gboolean
parse_option(gint argc, gchar **argv, gint *i, gchar ***cmd, int *rc)
{
	g_autoptr(GError) error = NULL;
	gchar **opt = NULL;

	if (g_str_equal(argv[*i], "--passphrase"))
		opt = &opt_passphrase;
	else if (g_str_equal(argv[*i], "--user"))
		opt = &opt_user;
	else if (g_str_equal(argv[*i], "--password"))
		opt = &opt_password;
	if (opt != NULL && *i + 1 < argc) {
		*opt = argv[++*i];
		return TRUE;
	}
	if (g_str_equal(argv[*i], "--call") && *i + 2 < argc) {
		opt_call_path = argv[++*i];
		opt_call_method = argv[++*i];
		if (*i + 1 < argc && argv[*i + 1][0] != '-')
			opt_call_arg = argv[++*i];
		return TRUE;
	}
	if (g_str_equal(argv[*i], "--cancel")) {
		opt_cancel = TRUE;
		return TRUE;
	}
	if (g_str_equal(argv[*i], "--timeout") && *i + 1 < argc) {
		guint64 t = 0;

		if (!g_ascii_string_to_unsigned(argv[++*i], 10, 1, 3600, &t, &error)) {
			g_printerr("--timeout: %s\n", error->message);
			*rc = 2;
		}
		opt_timeout = (gint)t;
		return TRUE;
	}
	if (g_str_equal(argv[*i], "--run")) {
		*cmd = &argv[*i + 1];
		while (*i < argc && !g_str_equal(argv[*i], "--"))
			++*i;
		argv[*i] = NULL;
		return TRUE;
	}
	return FALSE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	gchar **cmd = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		g_printerr("usage: %s agent|wait ...\n", argv[0]);
		return 2;
	}
	bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	if (bus == NULL) {
		g_printerr("%s\n", error->message);
		return 2;
	}
	for (gint i = 2; i < argc; i++) {
		int rc = 0;

		if (parse_option(argc, argv, &i, &cmd, &rc)) {
			if (rc != 0)
				return rc;
			continue;
		}
		if (g_str_equal(argv[1], "wait") && argc - i == 3)
			return run_wait(bus, cmd, argv[i], argv[i + 1], argv[i + 2]);
		g_printerr("unexpected argument %s\n", argv[i]);
		return 2;
	}
	if (g_str_equal(argv[1], "agent"))
		return run_agent(bus);
	g_printerr("usage: %s agent|wait ...\n", argv[0]);
	return 2;
}
