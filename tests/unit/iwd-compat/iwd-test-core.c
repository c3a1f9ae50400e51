/* iwd-test-core.c - the daemon side of the iwd-compat tests (see
 * iwd-test-core.h). */
#include "iwd-test-core.h"

#include <glib/gstdio.h>

void
iwd_test_core_init(IwdTestCore *t)
{
	g_autofree gchar *conf = NULL;
	g_autoptr(GError) error = NULL;

	t->dir = g_dir_make_tmp("joind-iwd-test-XXXXXX", &error);
	g_assert_no_error(error);
	conf = g_build_filename(t->dir, "main.conf", NULL);
	g_assert_true(g_file_set_contents(conf, "", -1, NULL));
}

void
iwd_test_core_start(IwdTestCore *t)
{
	g_autofree gchar *conf = g_build_filename(t->dir, "main.conf", NULL);
	g_autoptr(GError) error = NULL;
	JoindCoreOptions options = {0};

	t->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(t->bus);
	t->conn = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	g_assert_no_error(error);
	options.config_path = conf;
	options.state_dir = t->dir;
	options.plugin_dir = t->dir;
	t->core = joind_core_new(&options, &error);
	g_assert_no_error(error);
	g_assert_true(joind_core_start(t->core, t->conn, &error));
}

GDBusConnection *
iwd_test_core_client(IwdTestCore *t)
{
	g_autoptr(GError) error = NULL;
	GDBusConnection *client = g_dbus_connection_new_for_address_sync(
	        g_test_dbus_get_bus_address(t->bus),
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, NULL, &error);

	g_assert_no_error(error);
	return client;
}

void
iwd_test_core_clear(IwdTestCore *t)
{
	g_autoptr(GDir) dir = g_dir_open(t->dir, 0, NULL);
	const gchar *name;

	joind_core_shutdown(t->core);
	g_clear_object(&t->core);
	g_clear_object(&t->conn);
	g_test_dbus_down(t->bus);
	g_clear_object(&t->bus);
	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *path = g_build_filename(t->dir, name, NULL);

		g_unlink(path);
	}
	g_rmdir(t->dir);
	g_clear_pointer(&t->dir, g_free);
}
