/* test-known-networks.c - net.joind.KnownNetwork1 on the real daemon: one
 * object per network profile in the state directory, following the files
 * live (an administrator's drop, edit and delete), AutoConnect written into
 * the file through D-Bus (only that key changes), Forget() deleting file,
 * object and remembered state, state.json read at start, the diagnostics,
 * and `joinctl known-networks` against it all.
 */
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "joinctl-run.h"
#include "test-daemon.h"

#define KNOWN_IFACE "net.joind.KnownNetwork1"
#define HOME_PATH   "/net/joind/known/486f6d65_psk"
#define CAFE_PATH   "/net/joind/known/43616665_open"
#define WAIT_MS     5000

#define HOME_TEXT                                                                                  \
	"# provisioned by hand\n[Security]\nPassphrase=correct horse\n\n[Settings]\nHidden=true\n" \
	"# keep this comment\n"
#define STATE_TEXT                                                             \
	"{\"version\": 1, \"networks\": {"                                     \
	"\"486f6d65_psk\": {\"frequencies\": [2437, 5180], "                   \
	"\"last_connected\": \"2026-12-03T11:00:00Z\", \"source\": \"user\"}," \
	"\"476f6e65_psk\": {\"frequencies\": [2412]}}}"

/* Home, and Lost whose file is broken when joind starts. */
#define BROKEN_STATE_TEXT                               \
	"{\"version\": 1, \"networks\": {"              \
	"\"486f6d65_psk\": {\"frequencies\": [2437]}, " \
	"\"4c6f7374_psk\": {\"frequencies\": [2412]}}}"

typedef struct {
	gchar *dir; /* the daemon's state directory */
	TestDaemon *daemon;
} Fixture;

static void
write_file(const gchar *dir, const gchar *name, const gchar *text)
{
	g_autofree gchar *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) error = NULL;

	g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error);
	g_assert_no_error(error);
}

static gchar *
read_file(const gchar *dir, const gchar *name)
{
	g_autofree gchar *path = g_build_filename(dir, name, NULL);
	gchar *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

/* The daemon runs on a state directory the test filled beforehand (the
 * later --state-dir wins over the helper's own). */
static void
fixture_setup(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *arg = NULL;

	f->dir = g_dir_make_tmp("joind-known-XXXXXX", &error);
	g_assert_no_error(error);
	if (g_strcmp0(data, "corrupt") == 0)
		write_file(f->dir, "state.json", "{\"version\": 1, \"networks\": [}");
	if (g_strcmp0(data, "broken") == 0) {
		write_file(f->dir, "Home.psk", HOME_TEXT);
		write_file(f->dir, "Lost.psk", "[Security\n");
		write_file(f->dir, "state.json", BROKEN_STATE_TEXT);
	}
	if (g_strcmp0(data, "full") == 0) {
		write_file(f->dir, "Home.psk", HOME_TEXT);
		write_file(f->dir, "Cafe.open", "[Settings]\nAutoConnect=false\n");
		write_file(f->dir, "state.json", STATE_TEXT);
	}
	arg = g_strdup_printf("--state-dir=%s", f->dir);
	f->daemon = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"),
	                              (const gchar *const[]){arg, "--plugins=none", NULL});
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_autofree gchar *rm = g_strdup_printf("rm -rf '%s'", f->dir);
	g_autofree gchar *log = test_daemon_get_log(f->daemon);

	/* No secret reached the log. */
	g_assert_null(strstr(log, "correct horse"));
	g_assert_cmpint(test_daemon_stop(f->daemon), ==, 0);
	test_run(rm);
	g_free(f->dir);
}

/* The KnownNetwork1 properties of the object at path, or NULL when the
 * daemon exports no such object. */
static GVariant *
known_props(Fixture *f, const gchar *path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        f->daemon->conn, "net.joind", "/net/joind", "org.freedesktop.DBus.ObjectManager",
	        "GetManagedObjects", NULL, G_VARIANT_TYPE("(a{oa{sa{sv}}})"),
	        G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	g_autoptr(GVariant) objects = NULL;
	g_autoptr(GVariant) ifaces = NULL;

	g_assert_no_error(error);
	objects = g_variant_get_child_value(reply, 0);
	ifaces = g_variant_lookup_value(objects, path, G_VARIANT_TYPE("a{sa{sv}}"));
	return ifaces != NULL ? g_variant_lookup_value(ifaces, KNOWN_IFACE, NULL) : NULL;
}

static gchar *
prop_string(GVariant *props, const gchar *name)
{
	g_autoptr(GVariant) v = g_variant_lookup_value(props, name, G_VARIANT_TYPE_STRING);

	g_assert_nonnull(v);
	return g_variant_dup_string(v, NULL);
}

static gboolean
prop_bool(GVariant *props, const gchar *name)
{
	g_autoptr(GVariant) v = g_variant_lookup_value(props, name, G_VARIANT_TYPE_BOOLEAN);

	g_assert_nonnull(v);
	return g_variant_get_boolean(v);
}

typedef struct {
	Fixture *f;
	const gchar *path;
	gint hidden;      /* -1: any */
	gint autoconnect; /* -1: any */
	gboolean present;
} Want;

static gboolean
props_are(gpointer data)
{
	Want *w = data;
	g_autoptr(GVariant) props = known_props(w->f, w->path);

	if (props == NULL || !w->present)
		return (props == NULL) == !w->present;
	return (w->hidden < 0 || prop_bool(props, "Hidden") == w->hidden) &&
	       (w->autoconnect < 0 || prop_bool(props, "AutoConnect") == w->autoconnect);
}

static void
wait_props(Fixture *f, const gchar *path, gboolean present, gint hidden, gint autoconnect)
{
	Want w = {f, path, hidden, autoconnect, present};

	if (!test_wait_until(props_are, &w, WAIT_MS)) {
		g_autofree gchar *log = test_daemon_get_log(f->daemon);
		g_error("%s never became present=%d hidden=%d autoconnect=%d; daemon log:\n%s",
		        path, present, hidden, autoconnect, log);
	}
}

static GVariant *
call(Fixture *f, const gchar *path, const gchar *iface, const gchar *method, GVariant *args,
     GError **error)
{
	return g_dbus_connection_call_sync(f->daemon->conn, "net.joind", path, iface, method, args,
	                                   NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);
}

static GVariant *
set_prop(Fixture *f, const gchar *path, const gchar *name, GVariant *value, GError **error)
{
	return call(f, path, "org.freedesktop.DBus.Properties", "Set",
	            g_variant_new("(ssv)", KNOWN_IFACE, name, value), error);
}

/* An administrator drops a profile in: its object appears with what the
 * file says; edits show live; deleting the file removes the object. */
static void
test_dropped_file(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) props = NULL;
	g_autofree gchar *name = NULL, *type = NULL, *last = NULL, *source = NULL;
	g_autofree gchar *path = g_build_filename(f->dir, "Home.psk", NULL);

	g_assert_null(known_props(f, HOME_PATH));
	write_file(f->dir, "Home.psk", HOME_TEXT);
	wait_props(f, HOME_PATH, TRUE, -1, -1);
	props = known_props(f, HOME_PATH);
	name = prop_string(props, "Name");
	type = prop_string(props, "Type");
	last = prop_string(props, "LastConnectedTime");
	source = prop_string(props, "Source");
	g_assert_cmpstr(name, ==, "Home");
	g_assert_cmpstr(type, ==, "psk");
	g_assert_true(prop_bool(props, "Hidden"));
	g_assert_true(prop_bool(props, "AutoConnect")); /* the default */
	g_assert_cmpstr(last, ==, "");
	g_assert_cmpstr(source, ==, "admin");

	write_file(f->dir, "Home.psk",
	           "[Security]\nPassphrase=correct horse\n[Settings]\nAutoConnect=false\n");
	wait_props(f, HOME_PATH, TRUE, FALSE, FALSE);
	write_file(f->dir, "Home.psk",
	           "[Security]\nPassphrase=correct horse\n[Settings]\nHidden=true\n"
	           "AutoConnect=true\n");
	wait_props(f, HOME_PATH, TRUE, TRUE, TRUE);
	g_assert_cmpint(g_unlink(path), ==, 0);
	wait_props(f, HOME_PATH, FALSE, -1, -1);
}

/* Setting AutoConnect rewrites that key alone: comments, other lines and
 * the file's mode stay. A value of the wrong type, a read-only property and
 * a value the file holds already change nothing. */
static void
test_set_autoconnect(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "Home.psk", NULL);
	g_autofree gchar *text = NULL, *after_bad = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariant) bad = NULL;
	g_autoptr(GVariant) ro = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) ro_error = NULL;
	GStatBuf st;

	write_file(f->dir, "Home.psk", HOME_TEXT);
	wait_props(f, HOME_PATH, TRUE, TRUE, TRUE);
	reply = set_prop(f, HOME_PATH, "AutoConnect", g_variant_new_boolean(FALSE), &error);
	g_assert_no_error(error);
	text = read_file(f->dir, "Home.psk");
	g_assert_cmpstr(text, ==,
	                "# provisioned by hand\n[Security]\nPassphrase=correct horse\n\n"
	                "[Settings]\nHidden=true\nAutoConnect=false\n# keep this comment\n");
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 07777, ==, 0600);
	wait_props(f, HOME_PATH, TRUE, TRUE, FALSE);

	bad = set_prop(f, HOME_PATH, "AutoConnect", g_variant_new_string("no"), &error);
	g_assert_null(bad);
	g_assert_error(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
	ro = set_prop(f, HOME_PATH, "Hidden", g_variant_new_boolean(FALSE), &ro_error);
	g_assert_null(ro);
	g_assert_nonnull(ro_error);
	after_bad = read_file(f->dir, "Home.psk");
	g_assert_cmpstr(after_bad, ==, text);
	wait_props(f, HOME_PATH, TRUE, TRUE, FALSE);
}

/* state.json from an earlier run: LastConnectedTime and Source come from
 * it, a network whose profile went meanwhile is dropped from it, and the
 * diagnostics list the known networks. Forget() removes file, object and
 * remembered state. */
static void
test_state_and_forget(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) home = known_props(f, HOME_PATH);
	g_autoptr(GVariant) cafe = known_props(f, CAFE_PATH);
	g_autofree gchar *last = NULL, *source = NULL, *cafe_source = NULL;
	g_autofree gchar *state = read_file(f->dir, "state.json");
	g_autofree gchar *after = NULL, *diag = NULL;
	g_autoptr(GVariant) diag_reply = NULL;
	g_autoptr(GVariant) forget = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonArray *known;

	g_assert_nonnull(home);
	g_assert_nonnull(cafe);
	last = prop_string(home, "LastConnectedTime");
	source = prop_string(home, "Source");
	cafe_source = prop_string(cafe, "Source");
	g_assert_cmpstr(last, ==, "2026-12-03T11:00:00Z");
	g_assert_cmpstr(source, ==, "user");
	g_assert_cmpstr(cafe_source, ==, "admin");
	g_assert_false(prop_bool(cafe, "AutoConnect"));
	g_assert_nonnull(strstr(state, "486f6d65_psk"));
	g_assert_null(strstr(state, "476f6e65_psk")); /* "Gone" has no profile */

	diag_reply = call(f, "/net/joind", "net.joind.Daemon1", "GetDiagnostics", NULL, &error);
	g_assert_no_error(error);
	g_variant_get(diag_reply, "(s)", &diag);
	g_assert_null(strstr(diag, "correct horse"));
	root = parse_json(diag);
	known = json_object_get_array_member(json_node_get_object(root), "known_networks");
	g_assert_cmpuint(json_array_get_length(known), ==, 2);
	for (guint i = 0; i < 2; i++) {
		JsonObject *k = json_array_get_object_element(known, i);
		gboolean is_home = g_str_equal(json_object_get_string_member(k, "name"), "Home");
		JsonArray *freqs = json_object_get_array_member(k, "frequencies");

		g_assert_cmpstr(json_object_get_string_member(k, "type"), ==,
		                is_home ? "psk" : "open");
		g_assert_true(json_object_get_boolean_member(k, "hidden") == is_home);
		g_assert_true(json_object_get_boolean_member(k, "autoconnect") == is_home);
		g_assert_cmpstr(json_object_get_string_member(k, "source"), ==,
		                is_home ? "user" : "admin");
		g_assert_cmpuint(json_array_get_length(freqs), ==, is_home ? 2 : 0);
		if (is_home)
			g_assert_cmpint(json_array_get_int_element(freqs, 0), ==, 2437);
	}

	forget = call(f, HOME_PATH, KNOWN_IFACE, "Forget", NULL, &error);
	g_assert_no_error(error);
	g_assert_null(read_file(f->dir, "Home.psk"));
	wait_props(f, HOME_PATH, FALSE, -1, -1);
	after = read_file(f->dir, "state.json");
	g_assert_null(strstr(after, "486f6d65_psk"));
	g_clear_pointer(&cafe, g_variant_unref);
	cafe = known_props(f, CAFE_PATH);
	g_assert_nonnull(cafe);
}

typedef struct {
	Fixture *f;
	const gchar *path;
	const gchar *fragment; /* "" for no error */
} WantError;

static gboolean
error_is(gpointer data)
{
	WantError *w = data;
	g_autoptr(GVariant) props = known_props(w->f, w->path);
	g_autofree gchar *error = props != NULL ? prop_string(props, "ProfileError") : NULL;

	if (error == NULL)
		return FALSE;
	return *w->fragment == '\0' ? *error == '\0' : strstr(error, w->fragment) != NULL;
}

static void
wait_error(Fixture *f, const gchar *path, const gchar *fragment)
{
	WantError w = {f, path, fragment};

	if (!test_wait_until(error_is, &w, WAIT_MS)) {
		g_autofree gchar *log = test_daemon_get_log(f->daemon);
		g_error("%s never showed ProfileError \"%s\"; daemon log:\n%s", path, fragment,
		        log);
	}
}

static JsonNode *
diagnostics(Fixture *f)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        call(f, "/net/joind", "net.joind.Daemon1", "GetDiagnostics", NULL, &error);
	g_autofree gchar *json = NULL;

	g_assert_no_error(error);
	g_variant_get(reply, "(s)", &json);
	return parse_json(json);
}

/* The "profile_errors" entry of the diagnostics whose path ends in name,
 * NULL when none; *n counts the entries. */
static JsonObject *
diagnostics_error(JsonNode *root, const gchar *name, guint *n)
{
	JsonArray *errors =
	        json_object_get_array_member(json_node_get_object(root), "profile_errors");

	*n = json_array_get_length(errors);
	for (guint i = 0; i < *n; i++) {
		JsonObject *e = json_array_get_object_element(errors, i);

		if (g_str_has_suffix(json_object_get_string_member(e, "path"), name))
			return e;
	}
	return NULL;
}

/* A profile that is there but does not parse is not a removal: broken at
 * start, its remembered state stays; broken while known, its object and
 * state stay with the old values and ProfileError says what is wrong
 * (file:line) until it is fixed; deleting it forgets it. */
static void
test_broken_profile(Fixture *f, gconstpointer data)
{
	g_autofree gchar *home = g_build_filename(f->dir, "Home.psk", NULL);
	g_autofree gchar *state = read_file(f->dir, "state.json");
	g_autoptr(JsonNode) diag = diagnostics(f);
	g_autoptr(JsonNode) diag_broken = NULL;
	g_autoptr(JsonNode) diag_fixed = NULL;
	g_autoptr(GVariant) props = NULL;
	g_autofree gchar *after = NULL, *message = NULL;
	JsonObject *e;
	guint n = 0;

	g_assert_nonnull(strstr(state, "4c6f7374_psk"));
	e = diagnostics_error(diag, "/Lost.psk", &n);
	g_assert_cmpuint(n, ==, 1);
	g_assert_nonnull(e);
	g_assert_nonnull(strstr(json_object_get_string_member(e, "error"), "Lost.psk:1:"));
	g_assert_false(json_object_get_boolean_member(e, "in_use"));
	wait_error(f, HOME_PATH, "");

	write_file(f->dir, "Home.psk",
	           "[Security]\nPassphrase=correct horse\n[Settings\nAutoConnect=false\n");
	wait_error(f, HOME_PATH, "Home.psk:3:");
	props = known_props(f, HOME_PATH);
	g_assert_true(prop_bool(props, "Hidden")); /* the values read before */
	g_assert_true(prop_bool(props, "AutoConnect"));
	message = prop_string(props, "ProfileError");
	g_assert_null(strstr(message, "correct horse"));
	diag_broken = diagnostics(f);
	e = diagnostics_error(diag_broken, "/Home.psk", &n);
	g_assert_cmpuint(n, ==, 2);
	g_assert_nonnull(e);
	g_assert_true(json_object_get_boolean_member(e, "in_use"));
	after = read_file(f->dir, "state.json");
	g_assert_nonnull(strstr(after, "486f6d65_psk"));

	write_file(f->dir, "Home.psk",
	           "[Security]\nPassphrase=correct horse\n[Settings]\nAutoConnect=false\n");
	wait_props(f, HOME_PATH, TRUE, FALSE, FALSE);
	wait_error(f, HOME_PATH, "");
	diag_fixed = diagnostics(f);
	g_assert_null(diagnostics_error(diag_fixed, "/Home.psk", &n));
	g_assert_cmpuint(n, ==, 1);

	write_file(f->dir, "Home.psk", "[Security\n");
	wait_error(f, HOME_PATH, "Home.psk:1:");
	g_assert_cmpint(g_unlink(home), ==, 0);
	wait_props(f, HOME_PATH, FALSE, -1, -1);
	g_clear_pointer(&after, g_free);
	after = read_file(f->dir, "state.json");
	g_assert_null(strstr(after, "486f6d65_psk"));
	g_assert_nonnull(strstr(after, "4c6f7374_psk"));
}

/* A corrupt state.json: reported with its path, set aside, joind runs. */
static void
test_corrupt_state(Fixture *f, gconstpointer data)
{
	g_autofree gchar *log = test_daemon_get_log(f->daemon);
	g_autofree gchar *bad = read_file(f->dir, "state.json.bad");

	g_assert_nonnull(bad);
	g_assert_cmpstr(bad, ==, "{\"version\": 1, \"networks\": [}");
	g_assert_nonnull(strstr(log, "state.json"));
	g_assert_nonnull(strstr(log, "set aside"));
	g_assert_null(read_file(f->dir, "state.json"));
}

static void
joinctl_list(void)
{
	g_auto(Run) list = {0};
	g_auto(Run) table = {0};
	g_autoptr(JsonNode) root = NULL;
	JsonArray *array;
	JsonObject *home = NULL;

	JOINCTL(&list, "--session", "--json", "known-networks", "list");
	g_assert_cmpint(list.status, ==, 0);
	root = parse_json(list.out);
	array = json_node_get_array(root);
	g_assert_cmpuint(json_array_get_length(array), ==, 2);
	for (guint i = 0; i < 2; i++) {
		JsonObject *k = json_array_get_object_element(array, i);
		if (g_str_equal(json_object_get_string_member(k, "name"), "Home"))
			home = k;
	}
	g_assert_nonnull(home);
	g_assert_cmpstr(json_object_get_string_member(home, "path"), ==, HOME_PATH);
	g_assert_cmpstr(json_object_get_string_member(home, "type"), ==, "psk");
	g_assert_true(json_object_get_boolean_member(home, "hidden"));
	g_assert_true(json_object_get_boolean_member(home, "autoconnect"));
	g_assert_cmpstr(json_object_get_string_member(home, "last_connected_time"), ==,
	                "2026-12-03T11:00:00Z");
	g_assert_cmpstr(json_object_get_string_member(home, "source"), ==, "user");

	JOINCTL(&table, "--session", "known-networks", "list");
	g_assert_cmpint(table.status, ==, 0);
	g_assert_nonnull(strstr(table.out, "Home"));
	g_assert_nonnull(strstr(table.out, "Cafe"));
}

static void
joinctl_show(void)
{
	g_auto(Run) show = {0};
	g_auto(Run) missing = {0};
	g_auto(Run) usage = {0};
	g_autoptr(JsonNode) shown = NULL;

	JOINCTL(&show, "--session", "--json", "known-networks", "show", "Cafe");
	g_assert_cmpint(show.status, ==, 0);
	shown = parse_json(show.out);
	g_assert_cmpstr(json_object_get_string_member(json_node_get_object(shown), "type"), ==,
	                "open");
	g_assert_false(json_object_get_boolean_member(json_node_get_object(shown), "autoconnect"));
	JOINCTL(&missing, "--session", "known-networks", "show", "Nowhere");
	g_assert_cmpint(missing.status, ==, 4);
	g_assert_nonnull(strstr(missing.err, "Nowhere"));
	JOINCTL(&usage, "--session", "known-networks", "set-autoconnect", "Cafe");
	g_assert_cmpint(usage.status, ==, 2);
}

static void
joinctl_change(Fixture *f)
{
	g_auto(Run) set = {0};
	g_auto(Run) forget = {0};
	g_auto(Run) again = {0};
	g_auto(Run) empty = {0};
	g_autofree gchar *cafe = NULL;

	JOINCTL(&set, "--session", "known-networks", "set-autoconnect", "Cafe", "yes");
	g_assert_cmpint(set.status, ==, 0);
	cafe = read_file(f->dir, "Cafe.open");
	g_assert_cmpstr(cafe, ==, "[Settings]\nAutoConnect=true\n");
	wait_props(f, CAFE_PATH, TRUE, FALSE, TRUE);

	JOINCTL(&forget, "--session", "known-networks", "forget", "Cafe");
	g_assert_cmpint(forget.status, ==, 0);
	g_assert_nonnull(strstr(forget.out, "Cafe"));
	g_assert_null(read_file(f->dir, "Cafe.open"));
	JOINCTL(&again, "--session", "known-networks", "forget", "Cafe");
	g_assert_cmpint(again.status, ==, 4);
	JOINCTL(&empty, "--session", "known-networks", "forget", "Home");
	g_assert_cmpint(empty.status, ==, 0);
	run_clear(&empty);
	JOINCTL(&empty, "--session", "known-networks", "list");
	g_assert_cmpint(empty.status, ==, 0);
	g_assert_nonnull(strstr(empty.out, "No known networks"));
}

/* `joinctl known-networks` on the real daemon: list, show, set-autoconnect
 * and forget, with their output and exit codes (not found 4, usage 2). */
static void
test_joinctl(Fixture *f, gconstpointer data)
{
	joinctl_list();
	joinctl_show();
	joinctl_change(f);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(name, state, fn) \
	g_test_add("/known-networks/" name, Fixture, state, fixture_setup, fn, fixture_teardown)
	ADD("dropped-file", NULL, test_dropped_file);
	ADD("set-autoconnect", NULL, test_set_autoconnect);
	ADD("state-and-forget", "full", test_state_and_forget);
	ADD("corrupt-state", "corrupt", test_corrupt_state);
	ADD("broken-profile", "broken", test_broken_profile);
	ADD("joinctl", "full", test_joinctl);
#undef ADD
	return g_test_run();
}
