/* test-joinctl.c - joinctl against the built daemon on a private bus, in a
 * network namespace of the test's own: its --json output parses and matches
 * the veth links the test makes, monitor follows them, and the exit codes
 * and messages a script relies on hold (usage 2, not running 3, not found 4,
 * not supported 5).
 */
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>

#include "joinctl-run.h"
#include "test-daemon.h"

static gint
link_ifindex(const gchar *name)
{
	g_autofree gchar *path = g_strdup_printf("/sys/class/net/%s/ifindex", name);
	g_autofree gchar *text = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return (gint)g_ascii_strtoll(text, NULL, 10);
}

typedef struct {
	const gchar *name;
	gboolean present;
} ShowWait;

static gboolean
device_shown(gpointer data)
{
	ShowWait *w = data;
	g_auto(Run) r = {0};

	JOINCTL(&r, "--session", "device", "show", w->name);
	return w->present ? r.status == 0 : r.status == 4;
}

/* Waits until `joinctl device show name` finds (or no longer finds) it. */
static void
wait_shown(TestDaemon *d, const gchar *name, gboolean present)
{
	ShowWait w = {name, present};

	if (!test_wait_until(device_shown, &w, 5000)) {
		g_autofree gchar *log = test_daemon_get_log(d);
		g_error("joinctl never %s %s; daemon log:\n%s", present ? "showed" : "lost", name,
		        log);
	}
}

/* No daemon: exit 3 with a sentence that says so; on a bus that does not
 * exist too. Usage errors are found before the bus is touched: exit 2. */
static void
test_not_running(void)
{
	g_autoptr(GTestDBus) bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	const gchar *no_bus[] = {"DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus", NULL};
	const gchar *env_bus[] = {"JOINCTL_BUS", "session", NULL};
	g_auto(Run) a = {0};
	g_auto(Run) b = {0};
	g_auto(Run) c = {0};
	g_auto(Run) d = {0};
	g_auto(Run) e = {0};

	g_test_dbus_up(bus);
	JOINCTL(&a, "--session", "device", "list");
	g_assert_cmpint(a.status, ==, 3);
	g_assert_nonnull(strstr(a.err, "joind is not running"));
	g_assert_cmpstr(a.out, ==, "");
	run_joinctl(&b, env_bus, "--json", "daemon", "info", NULL);
	g_assert_cmpint(b.status, ==, 3);
	run_joinctl(&c, no_bus, "--session", "station", "list", NULL);
	g_assert_cmpint(c.status, ==, 3);
	g_assert_nonnull(strstr(c.err, "session bus"));
	JOINCTL(&d, "--session", "device", "show");
	g_assert_cmpint(d.status, ==, 2);
	JOINCTL(&e, "--session", "known-networks", "set-autoconnect", "x", "maybe");
	g_assert_cmpint(e.status, ==, 2);
	g_test_dbus_down(bus);
}

static void
test_usage(void)
{
	const gchar *bad_env[] = {"JOINCTL_BUS", "carrier-pigeon", NULL};
	g_auto(Run) a = {0};
	g_auto(Run) b = {0};
	g_auto(Run) c = {0};
	g_auto(Run) d = {0};
	g_auto(Run) e = {0};

	JOINCTL(&a, "--session");
	g_assert_cmpint(a.status, ==, 2);
	JOINCTL(&b, "--session", "frobnicate");
	g_assert_cmpint(b.status, ==, 2);
	g_assert_nonnull(strstr(b.err, "frobnicate"));
	JOINCTL(&c, "--no-such-option", "device", "list");
	g_assert_cmpint(c.status, ==, 2);
	run_joinctl(&d, bad_env, "device", "list", NULL);
	g_assert_cmpint(d.status, ==, 2);
	g_assert_nonnull(strstr(d.err, "JOINCTL_BUS"));
	JOINCTL(&e, "--help");
	g_assert_cmpint(e.status, ==, 0);
	/* The help documents the exit codes and the JSON keys. */
	g_assert_nonnull(strstr(e.out, "3 joind is not running"));
	g_assert_nonnull(strstr(e.out, "signal_dbm"));
}

typedef struct {
	TestDaemon *daemon;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->daemon = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"), NULL);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_spawn_command_line_sync("ip link del jct0", NULL, NULL, NULL, NULL);
	g_spawn_command_line_sync("ip link del jcm0", NULL, NULL, NULL, NULL);
	g_assert_cmpint(test_daemon_stop(f->daemon), ==, 0);
}

static JsonObject *
find_by_name(JsonArray *array, const gchar *name)
{
	for (guint i = 0; i < json_array_get_length(array); i++) {
		JsonObject *o = json_array_get_object_element(array, i);
		if (g_strcmp0(json_object_get_string_member(o, "name"), name) == 0)
			return o;
	}
	return NULL;
}

static gboolean
array_has_string(JsonArray *array, const gchar *value)
{
	for (guint i = 0; i < json_array_get_length(array); i++) {
		if (g_strcmp0(json_array_get_string_element(array, i), value) == 0)
			return TRUE;
	}
	return FALSE;
}

static void
test_device_list(Fixture *f, gconstpointer data)
{
	g_auto(Run) list = {0};
	g_auto(Run) text = {0};
	g_autoptr(JsonNode) root = NULL;
	g_autofree gchar *path = NULL;
	JsonObject *dev;
	gint ifindex;

	test_run("ip link add jct0 address 02:00:00:00:20:01 type veth peer name jct1 "
	         "address 02:00:00:00:20:02");
	wait_shown(f->daemon, "jct0", TRUE);
	wait_shown(f->daemon, "jct1", TRUE);
	JOINCTL(&list, "--session", "--json", "device", "list");
	g_assert_cmpint(list.status, ==, 0);
	root = parse_json(list.out);
	g_assert_true(JSON_NODE_HOLDS_ARRAY(root));
	dev = find_by_name(json_node_get_array(root), "jct0");
	g_assert_nonnull(dev);
	ifindex = link_ifindex("jct0");
	path = g_strdup_printf("/net/joind/device/%d", ifindex);
	g_assert_cmpstr(json_object_get_string_member(dev, "address"), ==, "02:00:00:00:20:01");
	g_assert_cmpstr(json_object_get_string_member(dev, "kind"), ==, "ethernet");
	g_assert_cmpstr(json_object_get_string_member(dev, "path"), ==, path);
	g_assert_cmpint(json_object_get_int_member(dev, "ifindex"), ==, ifindex);
	g_assert_cmpstr(json_object_get_string_member(dev, "state"), ==, "down");
	g_assert_false(json_object_get_boolean_member(dev, "powered"));
	g_assert_cmpstr(json_object_get_string_member(dev, "plugin"), ==, "ethernet-8021x");
	g_assert_true(array_has_string(json_object_get_array_member(dev, "interfaces"),
	                               "net.joind.Device1"));
	dev = find_by_name(json_node_get_array(root), "jct1");
	g_assert_nonnull(dev);
	g_assert_cmpstr(json_object_get_string_member(dev, "address"), ==, "02:00:00:00:20:02");
	g_assert_null(find_by_name(json_node_get_array(root), "lo"));
	/* The table for people names the same device and address. */
	JOINCTL(&text, "--session", "device", "list");
	g_assert_cmpint(text.status, ==, 0);
	g_assert_nonnull(strstr(text.out, "jct0"));
	g_assert_nonnull(strstr(text.out, "02:00:00:00:20:01"));
}

static void
test_device_show(Fixture *f, gconstpointer data)
{
	g_auto(Run) show = {0};
	g_auto(Run) text = {0};
	g_autoptr(JsonNode) root = NULL;
	JsonObject *dev;

	test_run("ip link add jct0 address 02:00:00:00:20:01 type veth peer name jct1");
	wait_shown(f->daemon, "jct0", TRUE);
	JOINCTL(&show, "--session", "--json", "device", "show", "jct0");
	g_assert_cmpint(show.status, ==, 0);
	root = parse_json(show.out);
	dev = json_node_get_object(root);
	g_assert_cmpstr(json_object_get_string_member(dev, "name"), ==, "jct0");
	g_assert_cmpstr(json_object_get_string_member(dev, "address"), ==, "02:00:00:00:20:01");
	/* An Ethernet device is no station; wired is its 802.1X port or null. */
	g_assert_true(json_object_has_member(dev, "station"));
	g_assert_true(json_object_get_null_member(dev, "station"));
	g_assert_true(json_object_has_member(dev, "wired"));
	JOINCTL(&text, "--session", "device", "show", json_object_get_string_member(dev, "path"));
	g_assert_cmpint(text.status, ==, 0);
	g_assert_nonnull(strstr(text.out, "Device jct0"));
}

/* Exit 4 naming what was not found; exit 5 when the device lacks the
 * interface a command needs. */
static void
test_not_found(Fixture *f, gconstpointer data)
{
	const gchar *const *cmds[] = {
	        (const gchar *const[]){"device", "show", "nosuchdev", NULL},
	        (const gchar *const[]){"wired", "show", "nosuchdev", NULL},
	        (const gchar *const[]){"wired", "reauth", "nosuchdev", NULL},
	        (const gchar *const[]){"station", "nosuchdev", "get-networks", NULL},
	        (const gchar *const[]){"known-networks", "forget", "nosuchdev", NULL},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cmds); i++) {
		g_auto(Run) r = {0};
		run_joinctl(&r, NULL, "--session", cmds[i][0], cmds[i][1], cmds[i][2], NULL);
		g_assert_cmpint(r.status, ==, 4);
		g_assert_nonnull(strstr(r.err, "nosuchdev"));
		g_assert_cmpstr(r.out, ==, "");
	}
}

static void
test_not_supported(Fixture *f, gconstpointer data)
{
	g_auto(Run) station = {0};
	g_auto(Run) connect = {0};
	g_auto(Run) show = {0};
	g_auto(Run) wired = {0};
	g_autoptr(JsonNode) root = NULL;
	gboolean has_port;

	test_run("ip link add jct0 type veth peer name jct1");
	wait_shown(f->daemon, "jct0", TRUE);
	JOINCTL(&station, "--session", "station", "jct0", "scan");
	g_assert_cmpint(station.status, ==, 5);
	g_assert_nonnull(strstr(station.err, "jct0"));
	g_assert_nonnull(strstr(station.err, "net.joind.Station1"));
	JOINCTL(&connect, "--session", "station", "jct0", "connect", "Home", "--passphrase",
	        "secret-1");
	g_assert_cmpint(connect.status, ==, 5);
	/* wired show: the port when the daemon has 802.1X on it, else 5. */
	JOINCTL(&show, "--session", "--json", "device", "show", "jct0");
	root = parse_json(show.out);
	has_port = !json_object_get_null_member(json_node_get_object(root), "wired");
	JOINCTL(&wired, "--session", "--json", "wired", "show", "jct0");
	if (has_port) {
		g_autoptr(JsonNode) port = parse_json(wired.out);
		g_assert_cmpint(wired.status, ==, 0);
		g_assert_cmpstr(json_object_get_string_member(json_node_get_object(port), "device"),
		                ==, "jct0");
	} else {
		g_assert_cmpint(wired.status, ==, 5);
		g_assert_nonnull(strstr(wired.err, "net.joind.Port8021x1"));
	}
}

static void
test_daemon_info(Fixture *f, gconstpointer data)
{
	g_auto(Run) info = {0};
	g_auto(Run) diag = {0};
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(JsonNode) diag_root = NULL;
	JsonObject *o;
	JsonObject *eth = NULL;

	JOINCTL(&info, "--session", "--json", "daemon", "info");
	g_assert_cmpint(info.status, ==, 0);
	root = parse_json(info.out);
	o = json_node_get_object(root);
	g_assert_cmpstr(json_object_get_string_member(o, "version"), !=, "");
	g_assert_cmpstr(json_object_get_string_member(o, "bus"), ==, "session");
	g_assert_true(g_str_has_prefix(json_object_get_string_member(o, "unique_name"), ":"));
	eth = find_by_name(json_object_get_array_member(o, "plugins"), "ethernet-8021x");
	g_assert_nonnull(eth);
	g_assert_cmpstr(json_object_get_string_member(eth, "state"), ==, "loaded");
	JOINCTL(&diag, "--session", "daemon", "diagnostics");
	g_assert_cmpint(diag.status, ==, 0);
	diag_root = parse_json(diag.out);
	g_assert_true(JSON_NODE_HOLDS_OBJECT(diag_root));
}

typedef struct {
	GSubprocess *proc;
	GDataInputStream *out;
	GPtrArray *events; /* JsonNode * */
	gboolean eof;
} Stream;

static void
on_line(GObject *source, GAsyncResult *result, gpointer data)
{
	Stream *s = data;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *line =
	        g_data_input_stream_read_line_finish_utf8(s->out, result, NULL, &error);

	if (line == NULL) {
		s->eof = TRUE;
		return;
	}
	g_test_message("joinctl: %s", line);
	g_ptr_array_add(s->events, parse_json(line));
	g_data_input_stream_read_line_async(s->out, G_PRIORITY_DEFAULT, NULL, on_line, s);
}

/* joinctl --json with args, its stdout read line by line, each a JSON object. */
static void
stream_start(Stream *s, const gchar *const *args)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;

	g_ptr_array_add(argv, joinctl_path());
	g_ptr_array_add(argv, g_strdup("--session"));
	g_ptr_array_add(argv, g_strdup("--json"));
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, g_strdup(args[i]));
	g_ptr_array_add(argv, NULL);
	s->proc = g_subprocess_newv((const gchar *const *)argv->pdata,
	                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE,
	                            &error);
	g_assert_no_error(error);
	s->out = g_data_input_stream_new(g_subprocess_get_stdout_pipe(s->proc));
	s->events = g_ptr_array_new_with_free_func((GDestroyNotify)json_node_unref);
	g_data_input_stream_read_line_async(s->out, G_PRIORITY_DEFAULT, NULL, on_line, s);
}

/* Sends signum, waits for the end of output and the exit; the status. */
static gint
stream_stop(Stream *s, gint signum)
{
	g_autoptr(GError) error = NULL;
	gint status;

	if (signum != 0)
		g_subprocess_send_signal(s->proc, signum);
	while (!s->eof)
		g_main_context_iteration(NULL, TRUE);
	g_subprocess_wait(s->proc, NULL, &error);
	g_assert_no_error(error);
	status = g_subprocess_get_if_exited(s->proc) ? g_subprocess_get_exit_status(s->proc) : -1;
	g_clear_object(&s->out);
	g_clear_object(&s->proc);
	g_clear_pointer(&s->events, g_ptr_array_unref);
	return status;
}

typedef struct {
	Stream *s;
	const gchar *event;
	const gchar *path;   /* NULL: any */
	const gchar *member; /* of "properties"; NULL: none needed */
	const gchar *value;  /* its value as text ("true" for booleans) */
} EventWait;

static gboolean
event_matches(JsonObject *e, EventWait *w)
{
	JsonObject *props;
	JsonNode *v;

	if (g_strcmp0(json_object_get_string_member(e, "event"), w->event) != 0)
		return FALSE;
	if (w->path != NULL &&
	    g_strcmp0(json_object_get_string_member_with_default(e, "path", NULL), w->path) != 0)
		return FALSE;
	if (w->member == NULL)
		return TRUE;
	props = json_object_get_object_member(e, "properties");
	v = props ? json_object_get_member(props, w->member) : NULL;
	if (v == NULL || !JSON_NODE_HOLDS_VALUE(v))
		return FALSE;
	if (json_node_get_value_type(v) == G_TYPE_BOOLEAN)
		return g_str_equal(w->value, json_node_get_boolean(v) ? "true" : "false");
	return g_strcmp0(json_node_get_string(v), w->value) == 0;
}

static gboolean
event_seen(gpointer data)
{
	EventWait *w = data;

	for (guint i = 0; i < w->s->events->len; i++) {
		if (event_matches(json_node_get_object(g_ptr_array_index(w->s->events, i)), w))
			return TRUE;
	}
	return FALSE;
}

static void
wait_event(Stream *s, const gchar *event, const gchar *path, const gchar *member,
           const gchar *value)
{
	EventWait w = {s, event, path, member, value};

	if (!test_wait_until(event_seen, &w, 5000))
		g_error("no '%s' event on %s with %s=%s", event, path ? path : "any path",
		        member ? member : "-", value ? value : "-");
}

/* monitor: the link appears (added, with its properties), comes up and goes
 * down (changed), and vanishes (removed); SIGTERM ends it with status 0. */
static void
test_monitor(Fixture *f, gconstpointer data)
{
	Stream s = {0};
	g_autofree gchar *path = NULL;

	stream_start(&s, (const gchar *const[]){"monitor", NULL});
	wait_event(&s, "daemon-started", NULL, NULL, NULL);
	test_run("ip link add jcm0 address 02:00:00:00:30:01 type veth peer name jcm1");
	wait_event(&s, "added", NULL, "Name", "jcm0");
	path = g_strdup_printf("/net/joind/device/%d", link_ifindex("jcm0"));
	wait_event(&s, "added", path, "Address", "02:00:00:00:30:01");
	wait_event(&s, "added", path, "Kind", "ethernet");
	test_run("ip link set jcm1 up");
	test_run("ip link set jcm0 up");
	wait_event(&s, "changed", path, "Powered", "true");
	wait_event(&s, "changed", path, "State", "up");
	test_run("ip link set jcm0 down");
	wait_event(&s, "changed", path, "State", "down");
	test_run("ip link del jcm0");
	wait_event(&s, "removed", path, NULL, NULL);
	g_assert_cmpint(stream_stop(&s, SIGTERM), ==, 0);
}

typedef struct {
	const gchar *want;
} AgentsWait;

static gboolean
agents_count_is(gpointer data)
{
	AgentsWait *w = data;
	g_auto(Run) r = {0};
	g_autoptr(JsonNode) root = NULL;
	JsonNode *agents;

	JOINCTL(&r, "--session", "daemon", "diagnostics");
	if (r.status != 0)
		return FALSE;
	root = parse_json(r.out);
	agents = json_object_get_member(json_node_get_object(root), "agents");
	return agents != NULL && json_node_get_int(agents) == g_ascii_strtoll(w->want, NULL, 10);
}

/* joinctl agent registers with joind and unregisters on Ctrl-C (SIGINT);
 * the secret it was given appears in none of its output. */
static void
test_agent_registers(Fixture *f, gconstpointer data)
{
	Stream s = {0};
	AgentsWait none = {"0"};
	AgentsWait one = {"1"};

	g_assert_true(test_wait_until(agents_count_is, &none, 5000));
	stream_start(&s, (const gchar *const[]){"agent", "--passphrase", "never-printed", NULL});
	wait_event(&s, "registered", NULL, NULL, NULL);
	g_assert_true(test_wait_until(agents_count_is, &one, 5000));
	g_assert_cmpint(stream_stop(&s, SIGINT), ==, 0);
	g_assert_true(test_wait_until(agents_count_is, &none, 5000));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (!test_enter_private_netns()) {
		g_test_skip("needs root for a private network namespace");
		return g_test_run();
	}
	g_test_add_func("/joinctl/usage", test_usage);
	g_test_add_func("/joinctl/not-running", test_not_running);
	g_test_add("/joinctl/device-list", Fixture, NULL, fixture_setup, test_device_list,
	           fixture_teardown);
	g_test_add("/joinctl/device-show", Fixture, NULL, fixture_setup, test_device_show,
	           fixture_teardown);
	g_test_add("/joinctl/not-found", Fixture, NULL, fixture_setup, test_not_found,
	           fixture_teardown);
	g_test_add("/joinctl/not-supported", Fixture, NULL, fixture_setup, test_not_supported,
	           fixture_teardown);
	g_test_add("/joinctl/daemon-info", Fixture, NULL, fixture_setup, test_daemon_info,
	           fixture_teardown);
	g_test_add("/joinctl/monitor", Fixture, NULL, fixture_setup, test_monitor,
	           fixture_teardown);
	g_test_add("/joinctl/agent-registers", Fixture, NULL, fixture_setup, test_agent_registers,
	           fixture_teardown);
	return g_test_run();
}
