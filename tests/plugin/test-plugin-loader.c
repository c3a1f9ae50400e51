/* test-plugin-loader.c - the daemon with good, refused and failing plugins. */
#include <string.h>

#include "test-daemon.h"

static GVariant *
get_plugins(TestDaemon *d)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        d->conn, "net.joind", "/net/joind", "org.freedesktop.DBus.Properties", "Get",
	        g_variant_new("(ss)", "net.joind.Daemon1", "Plugins"), G_VARIANT_TYPE("(v)"),
	        G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	GVariant *value = NULL;

	g_assert_no_error(error);
	g_variant_get(reply, "(v)", &value);
	return value;
}

/* State and detail of the named plugin in Daemon1.Plugins. */
static gboolean
find_plugin(GVariant *plugins, const gchar *name, gchar **state, gchar **detail)
{
	GVariantIter iter;
	const gchar *n, *desc, *s, *det;

	g_variant_iter_init(&iter, plugins);
	while (g_variant_iter_next(&iter, "(&s&s&s&s)", &n, &desc, &s, &det)) {
		if (g_str_equal(n, name)) {
			*state = g_strdup(s);
			*detail = g_strdup(det);
			return TRUE;
		}
	}
	return FALSE;
}

static void
assert_plugin(GVariant *plugins, const gchar *name, const gchar *state, const gchar *detail)
{
	g_autofree gchar *s = NULL;
	g_autofree gchar *det = NULL;

	if (!find_plugin(plugins, name, &s, &det))
		g_error("plugin %s not listed in Daemon1.Plugins", name);
	g_assert_cmpstr(s, ==, state);
	if (detail != NULL && strstr(det, detail) == NULL)
		g_error("plugin %s: detail “%s” lacks “%s”", name, det, detail);
}

static void
test_loader_mixed(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), NULL);
	g_autoptr(GVariant) plugins = get_plugins(d);
	g_autofree gchar *log = test_daemon_get_log(d);

	assert_plugin(plugins, "test-good", "loaded", NULL);
	assert_plugin(plugins, "test-good-early", "loaded", NULL);
	assert_plugin(plugins, "test-init-fails", "failed", "the test plugin refuses to start");
	assert_plugin(plugins, "joind-test-bad-abi.so", "refused", "built for plugin ABI 99");
	/* The refusal is in the log with the module's path. */
	g_assert_nonnull(strstr(log, "joind-test-bad-abi.so refused: it was built for plugin ABI"));
	g_assert_nonnull(strstr(log, "plugin test-init-fails failed to start"));
	/* Priority order: the early plugin starts before the other one. */
	g_assert_true(strstr(log, "test plugin test-good-early started") <
	              strstr(log, "test plugin test-good started"));
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

static void
test_loader_selection(void)
{
	const gchar *const args[] = {"--plugins=test-*", "--noplugin=test-good-early", NULL};
	TestDaemon *d = test_daemon_start(g_getenv("TEST_PLUGIN_DIR"), args);
	g_autoptr(GVariant) plugins = get_plugins(d);

	assert_plugin(plugins, "test-good", "loaded", NULL);
	assert_plugin(plugins, "test-good-early", "disabled", NULL);
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

static void
test_loader_shipped_plugins(void)
{
	TestDaemon *d = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"), NULL);
	g_autoptr(GVariant) plugins = get_plugins(d);
	GVariantIter iter;
	const gchar *n, *desc, *s, *det;

	/* Every module we ship loads (or fails for a reason of the machine,
	 * never because the module itself is refused). */
	g_assert_cmpuint(g_variant_n_children(plugins), >, 0);
	g_variant_iter_init(&iter, plugins);
	while (g_variant_iter_next(&iter, "(&s&s&s&s)", &n, &desc, &s, &det)) {
		if (g_str_equal(s, "refused"))
			g_error("shipped plugin %s refused: %s", n, det);
	}
	assert_plugin(plugins, "ethernet-8021x", "loaded", NULL);
	g_assert_cmpint(test_daemon_stop(d), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/plugin-loader/mixed", test_loader_mixed);
	g_test_add_func("/plugin-loader/selection", test_loader_selection);
	g_test_add_func("/plugin-loader/shipped", test_loader_shipped_plugins);
	return g_test_run();
}
