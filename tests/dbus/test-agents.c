/* test-agents.c - AgentManager1: register, errors, and dropping agents
 * whose client left the bus. */
#include <string.h>

#include "test-bus.h"
#include "test-daemon.h"

static GVariant *
agent_call(GDBusConnection *c, const gchar *method, const gchar *path, GError **error)
{
	return g_dbus_connection_call_sync(c, "net.joind", "/net/joind", "net.joind.AgentManager1",
	                                   method, g_variant_new("(o)", path), NULL,
	                                   G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);
}

static gint64
diag_agents(TestDaemon *d)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        d->conn, "net.joind", "/net/joind", "net.joind.Daemon1", "GetDiagnostics", NULL,
	        G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	const gchar *json;
	const gchar *p;

	g_assert_no_error(error);
	g_variant_get(reply, "(&s)", &json);
	p = strstr(json, "\"agents\" : ");
	g_assert_nonnull(p);
	return g_ascii_strtoll(p + strlen("\"agents\" : "), NULL, 10);
}

static gboolean
no_agents(gpointer data)
{
	return diag_agents(data) == 0;
}

static void
assert_dbus_error(GError *error, const gchar *name)
{
	g_autofree gchar *remote = NULL;

	g_assert_nonnull(error);
	remote = g_dbus_error_get_remote_error(error);
	g_assert_cmpstr(remote, ==, name);
}

static void
test_agent_register_and_errors(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"), NULL);
	g_autoptr(GDBusConnection) c = test_bus_new_client(d->bus);
	g_autoptr(GVariant) r1 = NULL;
	g_autoptr(GVariant) r2 = NULL;
	g_autoptr(GVariant) r3 = NULL;
	g_autoptr(GError) dup = NULL;
	g_autoptr(GError) missing = NULL;
	g_autoptr(GError) error = NULL;

	r1 = agent_call(c, "RegisterAgent", "/test/agent", &error);
	g_assert_no_error(error);
	g_assert_cmpint(diag_agents(d), ==, 1);
	r2 = agent_call(c, "RegisterAgent", "/test/agent", &dup);
	assert_dbus_error(dup, "net.joind.Error.Busy");
	r3 = agent_call(c, "UnregisterAgent", "/test/other", &missing);
	assert_dbus_error(missing, "net.joind.Error.NotFound");
	g_clear_pointer(&r3, g_variant_unref);
	r3 = agent_call(c, "UnregisterAgent", "/test/agent", &error);
	g_assert_no_error(error);
	g_assert_cmpint(diag_agents(d), ==, 0);
	g_dbus_connection_close_sync(c, NULL, NULL);
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

static void
test_agent_dropped_when_client_leaves(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"), NULL);
	g_autoptr(GDBusConnection) c = test_bus_new_client(d->bus);
	g_autoptr(GVariant) r = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *log = NULL;

	r = agent_call(c, "RegisterAgent", "/test/agent", &error);
	g_assert_no_error(error);
	g_assert_cmpint(diag_agents(d), ==, 1);
	/* The client goes away without unregistering. */
	g_dbus_connection_close_sync(c, NULL, NULL);
	g_assert_true(test_wait_until(no_agents, d, 5000));
	log = test_daemon_get_log(d);
	g_assert_nonnull(strstr(log, "left the bus; dropped"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/dbus/agents/register-and-errors", test_agent_register_and_errors);
	g_test_add_func("/dbus/agents/dropped-when-client-leaves",
	                test_agent_dropped_when_client_leaves);
	return g_test_run();
}
