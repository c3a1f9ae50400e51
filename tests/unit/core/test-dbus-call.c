/* test-dbus-call.c - the core's one D-Bus call path (joind-dbus-call.h) on
 * a private session bus: an allowed call is answered (after the property
 * changes it made), a refused caller gets PermissionDenied and nothing
 * runs, every JOIND_ERROR code reaches the client under its own name, a
 * target that goes away before or during the operation gets a "gone"
 * answer and no use after free, a caller's uid is asked of the bus once
 * per client while the rule is applied to every call; a uid of 2^31 and
 * above reaches the rule whole, and a lookup that fails is a refusal that
 * says why.
 */
#include <gio/gio.h>

#include "joind-auth.h"
#include "joind-caller.h"
#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "test-bus.h"
#include "test-uid.h"

#define PATH         "/test"
#define PORT_IFACE   "net.joind.Port8021x1"
#define KNOWN_IFACE  "net.joind.KnownNetwork1"
#define PROPS_IFACE  "org.freedesktop.DBus.Properties"
#define DAEMON_IFACE "net.joind.Daemon1"

/* ---- a KnownNetwork1 skeleton ----------------------------------------------- */

#define TEST_TYPE_KNOWN (test_known_get_type())
G_DECLARE_FINAL_TYPE(TestKnown, test_known, TEST, KNOWN, JoindDBusKnownNetwork1Skeleton)

struct _TestKnown {
	JoindDBusKnownNetwork1Skeleton parent_instance;
};

G_DEFINE_FINAL_TYPE(TestKnown, test_known, JOIND_DBUS_TYPE_KNOWN_NETWORK1_SKELETON)

static void
test_known_class_init(TestKnownClass *klass)
{
}

static void
test_known_init(TestKnown *self)
{
}

/* ---- fixture ------------------------------------------------------------- */

typedef enum {
	RUN_REPLY,        /* answers at once, after changing a property */
	RUN_ERROR,        /* answers with f->error */
	RUN_KEEP,         /* keeps the call in f->pending, answers later */
	DROP_BEFORE_GATE, /* drops the target while the gate asks */
} Mode;

typedef struct {
	GTestDBus *bus;
	GDBusConnection *conn;
	JoindDBusPort8021x1 *port;
	JoindDBusDaemon1 *daemon;
	TestKnown *known;
	GObject *target; /* what the calls act on; the test holds the only reference */
	Mode mode;
	GError *error;
	guint n_runs;
	JoindDBusCall *pending;
	gboolean changed_seen; /* PropertiesChanged arrived */
	gboolean changed_before_reply;
} Fixture;

static void
port_run(JoindDBusCall *call, gpointer target, gpointer data)
{
	Fixture *f = data;

	/* The call acts on the target it was started for. */
	g_object_set_data(target, "ran", GINT_TO_POINTER(TRUE));
	f->n_runs++;
	switch (f->mode) {
	case RUN_REPLY:
		joind_dbus_port8021x1_set_state(f->port, "authenticated");
		joind_dbus_call_return(call, NULL);
		break;
	case RUN_ERROR:
		joind_dbus_call_return_error(call, f->error);
		break;
	case RUN_KEEP:
		f->pending = call;
		break;
	case DROP_BEFORE_GATE:
		g_assert_not_reached();
	}
}

static gboolean
handle_reauthenticate(JoindDBusPort8021x1 *iface, GDBusMethodInvocation *invocation, Fixture *f)
{
	joind_dbus_call_start(G_DBUS_INTERFACE_SKELETON(iface), invocation, f->target, port_run, f,
	                      NULL);
	/* The gate has only sent its question to the bus. */
	if (f->mode == DROP_BEFORE_GATE)
		g_clear_object(&f->target);
	return TRUE;
}

static void
daemon_run(JoindDBusCall *call, gpointer target, gpointer data)
{
	Fixture *f = data;

	f->n_runs++;
	joind_dbus_call_return(call, g_variant_new("(s)", "{}"));
}

static gboolean
handle_forget(JoindDBusKnownNetwork1 *iface, GDBusMethodInvocation *invocation, Fixture *f)
{
	f->n_runs++;
	joind_dbus_known_network1_complete_forget(iface, invocation);
	return TRUE;
}

static void export(Fixture *f, gpointer iface)
{
	g_autoptr(GError) error = NULL;

	g_dbus_interface_skeleton_export(iface, f->conn, PATH, &error);
	g_assert_no_error(error);
}

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->bus);
	f->conn = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
	g_assert_nonnull(f->conn);
	f->target = g_object_new(G_TYPE_OBJECT, NULL);
	f->port = joind_dbus_port8021x1_skeleton_new();
	g_signal_connect(f->port, "handle-reauthenticate", G_CALLBACK(handle_reauthenticate), f);
	export(f, f->port);
	f->daemon = joind_dbus_daemon1_skeleton_new();
	joind_dbus_call_connect(f->daemon, "handle-get-diagnostics", f->target, daemon_run, f);
	export(f, f->daemon);
	f->known = g_object_new(TEST_TYPE_KNOWN, NULL);
	g_signal_connect(f->known, "handle-forget", G_CALLBACK(handle_forget), f);
	export(f, f->known);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	joind_auth_set_policy(NULL);
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(f->known));
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(f->daemon));
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(f->port));
	g_clear_object(&f->known);
	g_clear_object(&f->daemon);
	g_clear_object(&f->port);
	g_clear_object(&f->target);
	g_clear_error(&f->error);
	g_clear_object(&f->conn);
	g_test_dbus_down(f->bus);
	g_clear_object(&f->bus);
}

/* ---- the client side ----------------------------------------------------- */

typedef struct {
	Fixture *f;
	GVariant *reply;
	GError *error;
	gboolean done;
} CallResult;

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	CallResult *r = user_data;

	r->reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &r->error);
	r->f->changed_before_reply = r->f->changed_seen;
	r->done = TRUE;
}

/* A call from the client on conn to the service on f->conn. */
static void
call_send(Fixture *f, GDBusConnection *conn, CallResult *r, const gchar *iface, const gchar *method,
          GVariant *args)
{
	r->f = f;
	g_dbus_connection_call(conn, g_dbus_connection_get_unique_name(f->conn), PATH, iface,
	                       method, args, NULL, G_DBUS_CALL_FLAGS_NONE, 5000, NULL, call_done,
	                       r);
}

static void
call_wait(CallResult *r)
{
	while (!r->done)
		g_main_context_iteration(NULL, TRUE);
}

/* A blocking call would block the main loop the answering side needs. */
static GVariant *
call(Fixture *f, const gchar *iface, const gchar *method, GVariant *args, GError **error)
{
	CallResult r = {0};

	call_send(f, f->conn, &r, iface, method, args);
	call_wait(&r);
	if (r.error != NULL)
		g_propagate_error(error, r.error);
	return r.reply;
}

static void
assert_remote_error(GError *error, const gchar *name, const gchar *message)
{
	g_autofree gchar *remote = NULL;

	g_assert_nonnull(error);
	g_assert_true(g_dbus_error_is_remote_error(error));
	remote = g_dbus_error_get_remote_error(error);
	g_assert_cmpstr(remote, ==, name);
	g_dbus_error_strip_remote_error(error);
	g_assert_cmpstr(error->message, ==, message);
}

static gboolean
refuse_everyone(guint32 uid, const gchar *action)
{
	return FALSE;
}

static void
on_properties_changed(GDBusConnection *conn, const gchar *sender, const gchar *path,
                      const gchar *iface, const gchar *signal, GVariant *params, gpointer user_data)
{
	((Fixture *)user_data)->changed_seen = TRUE;
}

/* ---- tests --------------------------------------------------------------- */

static void
test_allowed(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	guint sub = g_dbus_connection_signal_subscribe(
	        f->conn, NULL, PROPS_IFACE, "PropertiesChanged", PATH, PORT_IFACE,
	        G_DBUS_SIGNAL_FLAGS_NONE, on_properties_changed, f, NULL);

	f->mode = RUN_REPLY;
	reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
	g_assert_no_error(error);
	g_assert_true(g_variant_is_of_type(reply, G_VARIANT_TYPE_UNIT));
	g_assert_cmpuint(f->n_runs, ==, 1);
	g_assert_true(g_object_get_data(f->target, "ran") != NULL);
	/* The state the call entered was signalled before the answer. */
	g_assert_true(f->changed_before_reply);
	g_dbus_connection_signal_unsubscribe(f->conn, sub);

	g_clear_pointer(&reply, g_variant_unref);
	reply = call(f, DAEMON_IFACE, "GetDiagnostics", NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(g_variant_get_type_string(reply), ==, "(s)");
	g_assert_cmpuint(f->n_runs, ==, 2);
}

static void
test_connect_ends_with_target(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;

	g_clear_object(&f->target);
	/* Nobody handles the method any more; the skeleton says so. */
	reply = call(f, DAEMON_IFACE, "GetDiagnostics", NULL, &error);
	g_assert_null(reply);
	g_assert_error(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD);
	g_assert_cmpuint(f->n_runs, ==, 0);
}

static void
test_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;

	joind_auth_set_policy(refuse_everyone);
	f->mode = RUN_REPLY;
	reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.PermissionDenied",
	                    "Only root and members of group “netdev” may do this.");
	g_clear_error(&error);
	reply = call(f, DAEMON_IFACE, "GetDiagnostics", NULL, &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.PermissionDenied",
	                    "Only root and members of group “netdev” may do this.");
	g_assert_cmpuint(f->n_runs, ==, 0);

	/* Back to the default policy, the same caller is let in. */
	joind_auth_set_policy(NULL);
	g_clear_error(&error);
	reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(f->n_runs, ==, 1);
}

static guint policy_calls;

static gboolean
allow_counting(guint32 uid, const gchar *action)
{
	policy_calls++;
	return TRUE;
}

/* Reauthenticate from conn, answered. */
static void
call_from(Fixture *f, GDBusConnection *conn)
{
	CallResult r = {0};

	call_send(f, conn, &r, PORT_IFACE, "Reauthenticate", NULL);
	call_wait(&r);
	g_assert_no_error(r.error);
	g_variant_unref(r.reply);
}

static void
read_version_from(Fixture *f, GDBusConnection *conn)
{
	CallResult r = {0};

	call_send(f, conn, &r, PROPS_IFACE, "Get", g_variant_new("(ss)", DAEMON_IFACE, "Version"));
	call_wait(&r);
	g_assert_no_error(r.error);
	g_variant_unref(r.reply);
}

/* Until the lookups counted reach n (5 s at most). */
static void
wait_lookups(gint *lookups, gint n)
{
	gint64 end = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;

	while (g_atomic_int_get(lookups) < n && g_get_monotonic_time() < end)
		g_main_context_iteration(NULL, FALSE);
	g_assert_cmpint(g_atomic_int_get(lookups), ==, n);
}

/* With the watch, a client's first call (a property read, which the gate
 * never sees) starts its lookup; its first gated call finds the uid known.
 * A gated first call joins the lookup its own arrival started. */
static void
test_uid_asked_early(Fixture *f, gconstpointer data)
{
	g_autoptr(GDBusConnection) reader = test_bus_new_client(f->bus);
	g_autoptr(GDBusConnection) hasty = test_bus_new_client(f->bus);
	gint lookups = 0;
	guint filter = test_bus_count_sent(f->conn, "GetConnectionUnixUser", &lookups);
	guint watch = joind_caller_watch(f->conn);

	policy_calls = 0;
	joind_auth_set_policy(allow_counting);
	f->mode = RUN_REPLY;
	read_version_from(f, reader);
	wait_lookups(&lookups, 1);
	call_from(f, reader);
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 1);
	g_assert_cmpuint(policy_calls, ==, 1);

	/* A gated first call: the watch's lookup is sent before the gate asks,
	 * and the gate waits for that one. */
	call_from(f, hasty);
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 2);
	g_assert_cmpuint(f->n_runs, ==, 2);
	g_dbus_connection_remove_filter(f->conn, watch);
	g_dbus_connection_remove_filter(f->conn, filter);
}

static void
test_uid_once_per_caller(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) other = NULL;
	g_autoptr(GVariant) reply = NULL;
	gint lookups = 0;
	guint filter = test_bus_count_sent(f->conn, "GetConnectionUnixUser", &lookups);

	policy_calls = 0;
	joind_auth_set_policy(allow_counting);
	f->mode = RUN_REPLY;
	call_from(f, f->conn);
	call_from(f, f->conn);
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 1);
	/* The rule itself is applied to every call. */
	g_assert_cmpuint(policy_calls, ==, 2);

	/* Another client is another name: looked up in its turn. */
	other = test_bus_new_client(f->bus);
	call_from(f, other);
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 2);

	/* A uid known from before is still judged by the rule of now. */
	joind_auth_set_policy(refuse_everyone);
	reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.PermissionDenied",
	                    "Only root and members of group “netdev” may do this.");
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 2);
	g_assert_cmpuint(f->n_runs, ==, 3);
	g_dbus_connection_remove_filter(f->conn, filter);
}

static guint32 policy_uid;

static gboolean
allow_recording(guint32 uid, const gchar *action)
{
	policy_uid = uid;
	return TRUE;
}

static void
test_uid_large_or_failed(Fixture *f, gconstpointer data)
{
	g_autoptr(GDBusConnection) large = test_bus_new_client(f->bus);
	g_autoptr(GDBusConnection) unknown = test_bus_new_client(f->bus);
	CallResult r = {0};

	/* The bus's answer replaced: a user above 2^31, then none at all. */
	joind_caller_set_uid_filter(test_uid_filter);
	test_uid_played = 3000000000u;
	joind_auth_set_policy(allow_recording);
	f->mode = RUN_REPLY;
	test_uid_fails = FALSE;
	call_from(f, large);
	g_assert_cmpuint(policy_uid, ==, 3000000000u);
	g_assert_cmpuint(f->n_runs, ==, 1);

	test_uid_fails = TRUE;
	call_send(f, unknown, &r, PORT_IFACE, "Reauthenticate", NULL);
	call_wait(&r);
	assert_remote_error(r.error, "net.joind.Error.PermissionDenied",
	                    "Could not identify the caller: no such user (test)");
	g_clear_error(&r.error);
	g_assert_cmpuint(f->n_runs, ==, 1);
	joind_caller_set_uid_filter(NULL);
}

static void
test_error_names(Fixture *f, gconstpointer data)
{
	/* The names clients match on (data/net.joind.xml, DESIGN.md). */
	static const struct {
		gint code;
		const gchar *name;
	} cases[] = {
	        {JOIND_ERROR_FAILED, "net.joind.Error.Failed"},
	        {JOIND_ERROR_INVALID_ARGS, "net.joind.Error.InvalidArgs"},
	        {JOIND_ERROR_NOT_FOUND, "net.joind.Error.NotFound"},
	        {JOIND_ERROR_BUSY, "net.joind.Error.Busy"},
	        {JOIND_ERROR_ABORTED, "net.joind.Error.Aborted"},
	        {JOIND_ERROR_NOT_SUPPORTED, "net.joind.Error.NotSupported"},
	        {JOIND_ERROR_NO_AGENT, "net.joind.Error.NoAgent"},
	        {JOIND_ERROR_PERMISSION_DENIED, "net.joind.Error.PermissionDenied"},
	        {JOIND_ERROR_AUTHENTICATION_FAILED, "net.joind.Error.AuthenticationFailed"},
	};

	f->mode = RUN_ERROR;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GVariant) reply = NULL;
		g_autofree gchar *message = g_strdup_printf("Case %u went wrong.", i);

		g_clear_error(&f->error);
		f->error = g_error_new_literal(JOIND_ERROR, cases[i].code, message);
		reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
		g_assert_null(reply);
		assert_remote_error(error, cases[i].name, message);
	}
	g_assert_cmpuint(f->n_runs, ==, G_N_ELEMENTS(cases));
}

static void
test_foreign_error(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;

	/* A plugin's own domain never leaks a GLib-made name to clients. */
	f->mode = RUN_ERROR;
	f->error = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE, "No route.");
	reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.Failed", "No route.");
}

static void
test_gone_before_gate(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;

	f->mode = DROP_BEFORE_GATE;
	reply = call(f, PORT_IFACE, "Reauthenticate", NULL, &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.NotFound", "The object /test is gone.");
	g_assert_null(f->target);
	g_assert_cmpuint(f->n_runs, ==, 0);
}

static void
test_gone_while_running(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) cancelled = NULL;
	CallResult r = {0};
	GCancellable *cancellable;

	f->mode = RUN_KEEP;
	call_send(f, f->conn, &r, PORT_IFACE, "Reauthenticate", NULL);
	while (f->pending == NULL)
		g_main_context_iteration(NULL, TRUE);
	cancellable = joind_dbus_call_get_cancellable(f->pending);
	g_assert_false(g_cancellable_is_cancelled(cancellable));

	g_clear_object(&f->target);
	/* The operation is told, and ends as a cancelled one would. */
	g_assert_true(g_cancellable_set_error_if_cancelled(cancellable, &cancelled));
	joind_dbus_call_return_error(g_steal_pointer(&f->pending), cancelled);
	call_wait(&r);
	g_assert_null(r.reply);
	assert_remote_error(r.error, "net.joind.Error.NotFound", "The object /test is gone.");
	g_clear_error(&r.error);
	g_assert_cmpuint(f->n_runs, ==, 1);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/dbus-call/allowed", test_allowed);
	ADD("/dbus-call/connect-ends-with-target", test_connect_ends_with_target);
	ADD("/dbus-call/refused", test_refused);
	ADD("/dbus-call/uid-once-per-caller", test_uid_once_per_caller);
	ADD("/dbus-call/uid-asked-early", test_uid_asked_early);
	ADD("/dbus-call/uid-large-or-failed", test_uid_large_or_failed);
	ADD("/dbus-call/error-names", test_error_names);
	ADD("/dbus-call/foreign-error", test_foreign_error);
	ADD("/dbus-call/gone-before-gate", test_gone_before_gate);
	ADD("/dbus-call/gone-while-running", test_gone_while_running);
#undef ADD
	return g_test_run();
}
