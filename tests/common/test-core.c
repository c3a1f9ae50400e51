/* test-core.c - a real JoindCore for unit tests (see test-core.h). */
#include "test-core.h"

#include <glib/gstdio.h>

#include "joind-core-private.h"
#include "test-bus.h"
#include "test-dir.h"

TestCore *
test_core_new(const gchar *main_conf, const JoindConfigKey *settings)
{
	TestCore *tc = g_new0(TestCore, 1);
	g_autofree gchar *conf = NULL;
	g_autofree gchar *plugins = NULL;
	g_autoptr(GError) error = NULL;
	JoindCoreOptions options = {0};

	tc->dir = g_dir_make_tmp("joind-test-XXXXXX", &error);
	g_assert_no_error(error);
	conf = g_build_filename(tc->dir, "main.conf", NULL);
	plugins = g_build_filename(tc->dir, "plugins", NULL);
	g_assert_cmpint(g_mkdir(plugins, 0700), ==, 0);
	g_file_set_contents(conf, main_conf != NULL ? main_conf : "", -1, &error);
	g_assert_no_error(error);
	tc->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(tc->bus);
	tc->conn = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	g_assert_no_error(error);
	options.config_path = conf;
	options.state_dir = tc->dir;
	options.plugin_dir = plugins;
	tc->core = joind_core_new(&options, &error);
	g_assert_no_error(error);
	if (settings != NULL)
		g_assert_true(joind_core_declare_config(tc->core, settings, &error));
	g_assert_no_error(error);
	g_assert_true(joind_core_start(tc->core, tc->conn, &error));
	g_assert_no_error(error);
	joind_core_start_devices(tc->core);
	return tc;
}

void
test_core_free(TestCore *tc)
{
	joind_core_shutdown(tc->core);
	g_object_unref(tc->core);
	g_object_unref(tc->conn);
	g_test_dbus_down(tc->bus);
	g_object_unref(tc->bus);
	test_dir_remove_tree(tc->dir);
	g_free(tc->dir);
	g_free(tc);
}

void
test_core_add_profile(TestCore *tc, const gchar *filename, const gchar *contents)
{
	g_autofree gchar *path = g_build_filename(tc->dir, filename, NULL);
	g_autoptr(GError) error = NULL;

	g_file_set_contents(path, contents, -1, &error);
	g_assert_no_error(error);
	g_chmod(path, 0600);
	joind_core_reload(tc->core);
}

GDBusConnection *
test_core_client(TestCore *tc)
{
	return test_bus_new_client(tc->bus);
}
