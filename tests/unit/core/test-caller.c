/* test-caller.c - the uid behind a client (joind-caller.c) on a private
 * bus, with the bus's answer replaced at the seam by uids the test process
 * cannot be: every guint32 comes back whole (2^31 and above were a failure
 * without an error where a gssize has 32 bits), and a lookup that fails
 * returns FALSE with an error set, to the gate and the agent manager
 * alike, which then refuse with a sentence. */
#include <gio/gio.h>

#include "joind-caller.h"
#include "joind-error.h"
#include "test-bus.h"
#include "test-uid.h"

typedef struct {
	GTestDBus *bus;
	GDBusConnection *daemon;
	GDBusConnection *client;
} Fixture;

static void
fixture_up(Fixture *f, gconstpointer data)
{
	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->bus);
	f->daemon = test_bus_new_client(f->bus);
	f->client = test_bus_new_client(f->bus);
	joind_caller_set_uid_filter(test_uid_filter);
	test_uid_fails = FALSE;
}

static void
fixture_down(Fixture *f, gconstpointer data)
{
	joind_caller_set_uid_filter(NULL);
	g_dbus_connection_close_sync(f->client, NULL, NULL);
	g_clear_object(&f->client);
	g_dbus_connection_close_sync(f->daemon, NULL, NULL);
	g_clear_object(&f->daemon);
	g_test_dbus_down(f->bus);
	g_clear_object(&f->bus);
}

static void
got_result(GObject *source, GAsyncResult *result, gpointer user_data)
{
	*(GAsyncResult **)user_data = g_object_ref(result);
}

/* The lookup of the client's uid, asked twice: from the bus, then from
 * what joind keeps. */
static gboolean
lookup(Fixture *f, guint32 *uid, GError **error)
{
	GAsyncResult *result = NULL;
	gboolean ok;

	joind_caller_uid(f->daemon, g_dbus_connection_get_unique_name(f->client), got_result,
	                 &result);
	while (result == NULL)
		g_main_context_iteration(NULL, TRUE);
	ok = joind_caller_uid_finish(f->daemon, result, uid, error);
	g_object_unref(result);
	return ok;
}

static void
test_large_uids(Fixture *f, gconstpointer data)
{
	static const guint32 uids[] = {0x7fffffffu, 0x80000000u, 3000000000u, 0xfffffffeu};

	for (guint i = 0; i < G_N_ELEMENTS(uids); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GDBusConnection) client = test_bus_new_client(f->bus);
		guint32 uid = 0;

		test_uid_played = uids[i];
		g_clear_object(&f->client);
		f->client = g_object_ref(client);
		g_assert_true(lookup(f, &uid, &error));
		g_assert_no_error(error);
		g_assert_cmpuint(uid, ==, uids[i]);
		/* Kept: the second answer is the same. */
		uid = 0;
		g_assert_true(lookup(f, &uid, &error));
		g_assert_cmpuint(uid, ==, uids[i]);
	}
}

static void
test_failure_has_error(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	guint32 uid = 7;

	test_uid_fails = TRUE;
	g_assert_false(lookup(f, &uid, &error));
	g_assert_nonnull(error);
	g_assert_cmpstr(error->message, ==, "no such user (test)");
	g_assert_cmpuint(uid, ==, 7);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/caller/large-uids", Fixture, NULL, fixture_up, test_large_uids, fixture_down);
	g_test_add("/caller/failure-has-error", Fixture, NULL, fixture_up, test_failure_has_error,
	           fixture_down);
	return g_test_run();
}
