/* test-iwd-scan.c - Station.Scan() under iwd's API, through the core's call
 * path on a private bus: answered once the scan has begun while the
 * model's scan still runs, net.connman.iwd.Busy for a second Scan() before
 * the first ends and while connecting, a scan already running joined, and
 * a scan that fails before it begins answered with its cause. */
#include "iwd-auth.h"
#include "iwd-bus.h"
#include "iwd-calls.h"
#include "iwd-introspection.h"
#include "iwd-names.h"
#include "test-core.h"

#define STATION_PATH IWD_ROOT_PATH "/1/3"

/* ---- a station whose scans end when the test says ---------------------- */

#define TEST_TYPE_STATION (test_station_get_type())
G_DECLARE_FINAL_TYPE(TestStation, test_station, TEST, STATION, JoindStation)

struct _TestStation {
	JoindStation parent_instance;
	guint n_scans;
	gboolean refuse; /* fail before the scan begins */
	GTask *running;
};

G_DEFINE_TYPE(TestStation, test_station, JOIND_TYPE_STATION)

static void
test_station_scan(JoindStation *station, GCancellable *cancellable, GAsyncReadyCallback callback,
                  gpointer user_data)
{
	TestStation *self = TEST_STATION(station);
	GTask *task = g_task_new(station, cancellable, callback, user_data);

	self->n_scans++;
	if (self->refuse) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_FAILED,
		                        "The radio is switched off.");
		g_object_unref(task);
		return;
	}
	/* A second request while one runs joins it (the model's contract). */
	if (self->running != NULL) {
		g_object_unref(task);
		return;
	}
	self->running = task;
	joind_station_set_scanning(station, TRUE);
}

static void
test_station_end_scan(TestStation *self)
{
	g_autoptr(GTask) task = g_steal_pointer(&self->running);

	joind_station_set_scanning(JOIND_STATION(self), FALSE);
	g_task_return_boolean(task, TRUE);
}

static void
test_station_class_init(TestStationClass *klass)
{
	JOIND_STATION_CLASS(klass)->scan = test_station_scan;
}

static void
test_station_init(TestStation *self)
{
}

/* ---- fixture: the core on a private bus and, as the front end sets itself
 * up, a connection of its own owning iwd's name with iwd's error names,
 * where one Station interface is exported over a test station ------------- */

typedef struct {
	TestCore *tc;
	GDBusConnection *front;
	TestStation *station;
	IwdIface *iface;
	GDBusConnection *client;
} Fixture;

static GError *
map_error(GDBusMethodInvocation *invocation, const GError *error)
{
	return iwd_error_from_joind(g_dbus_method_invocation_get_method_name(invocation), error);
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	f->tc = test_core_new(NULL, NULL);
	/* As the server does before it exports anything. */
	g_assert_true(joind_core_declare_auth_rules(f->tc->core, iwd_auth_rules, &error));
	f->front = iwd_bus_connect(f->tc->conn, &error);
	g_assert_no_error(error);
	joind_core_set_error_map(f->tc->core, f->front, map_error);
	g_assert_true(iwd_bus_own_name(f->front, IWD_SERVICE, &error));
	f->station = g_object_new(TEST_TYPE_STATION, NULL);
	f->iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_STATION), iwd_station_methods,
	                         NULL, f->station);
	g_assert_true(g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(f->iface),
	                                               f->front, STATION_PATH, &error));
	f->client = test_core_client(f->tc);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	g_object_unref(f->client);
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(f->iface));
	g_object_unref(f->iface);
	if (f->station->running != NULL)
		test_station_end_scan(f->station);
	while (g_main_context_iteration(NULL, FALSE))
		;
	g_object_unref(f->station);
	joind_core_set_error_map(f->tc->core, f->front, NULL);
	g_object_unref(f->front);
	test_core_free(f->tc);
}

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GAsyncResult **out = user_data;

	*out = g_object_ref(result);
}

/* Station.Scan() from the client, run until answered. The bound is the
 * call's own timeout: a Scan() answered only when the scan ends (the test
 * ends it only afterwards) comes back as a timeout. */
static gboolean
scan(Fixture *f, GError **error)
{
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GVariant) reply = NULL;

	g_dbus_connection_call(f->client, IWD_SERVICE, STATION_PATH, IWD_IFACE_STATION, "Scan",
	                       NULL, NULL, G_DBUS_CALL_FLAGS_NONE, 2000, NULL, call_done, &result);
	while (result == NULL)
		g_main_context_iteration(NULL, TRUE);
	reply = g_dbus_connection_call_finish(f->client, result, error);
	return reply != NULL;
}

static void
assert_iwd_error(GError *error, const gchar *name)
{
	g_autofree gchar *remote = NULL;

	g_assert_nonnull(error);
	remote = g_dbus_error_get_remote_error(error);
	g_assert_cmpstr(remote, ==, name);
}

/* ---- cases ---------------------------------------------------------------- */

static void
test_answered_once_begun(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(scan(f, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->station->n_scans, ==, 1);
	g_assert_nonnull(f->station->running);
	g_assert_true(joind_station_get_scanning(JOIND_STATION(f->station)));

	/* iwd's Busy while the first still runs; the model is not asked. */
	g_assert_false(scan(f, &error));
	assert_iwd_error(error, "net.connman.iwd.Busy");
	g_assert_nonnull(strstr(error->message, "still running"));
	g_assert_cmpuint(f->station->n_scans, ==, 1);
	g_clear_error(&error);

	test_station_end_scan(f->station);
	while (g_main_context_iteration(NULL, FALSE))
		;
	g_assert_true(scan(f, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->station->n_scans, ==, 2);
}

static void
test_busy_connecting(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	joind_station_set_state(JOIND_STATION(f->station), JOIND_STATION_STATE_CONNECTING, "test");
	g_assert_false(scan(f, &error));
	assert_iwd_error(error, "net.connman.iwd.Busy");
	g_assert_nonnull(strstr(error->message, "connection is being set up"));
	g_assert_cmpuint(f->station->n_scans, ==, 0);
}

/* A scan the daemon runs on its own is joined and has begun. */
static void
test_joins_running(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	joind_station_set_scanning(JOIND_STATION(f->station), TRUE);
	g_assert_true(scan(f, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->station->n_scans, ==, 1);
}

static void
test_fails_before_begin(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	f->station->refuse = TRUE;
	g_assert_false(scan(f, &error));
	assert_iwd_error(error, "net.connman.iwd.Failed");
	g_assert_nonnull(strstr(error->message, "switched off"));
	g_clear_error(&error);
	/* The failed run is over: the next Scan() reaches the model again. */
	g_assert_false(scan(f, &error));
	assert_iwd_error(error, "net.connman.iwd.Failed");
	g_assert_cmpuint(f->station->n_scans, ==, 2);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/iwd-compat/scan/answered-once-begun", Fixture, NULL, fixture_set_up,
	           test_answered_once_begun, fixture_tear_down);
	g_test_add("/iwd-compat/scan/busy-connecting", Fixture, NULL, fixture_set_up,
	           test_busy_connecting, fixture_tear_down);
	g_test_add("/iwd-compat/scan/joins-running", Fixture, NULL, fixture_set_up,
	           test_joins_running, fixture_tear_down);
	g_test_add("/iwd-compat/scan/fails-before-begin", Fixture, NULL, fixture_set_up,
	           test_fails_before_begin, fixture_tear_down);
	return g_test_run();
}
