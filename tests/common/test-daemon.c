/* test-daemon.c - the daemon under test, on its own bus. */
#include "test-daemon.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

static gboolean
timeout_cb(gpointer data)
{
	*(gboolean *)data = TRUE;
	return G_SOURCE_REMOVE;
}

static gboolean
tick_cb(gpointer data)
{
	return G_SOURCE_CONTINUE;
}

gboolean
test_wait_until(gboolean (*cond)(gpointer data), gpointer data, guint timeout_ms)
{
	gboolean timed_out = FALSE;
	guint id = g_timeout_add(timeout_ms, timeout_cb, &timed_out);
	/* Conditions about another process (a link, a file) have no event in
	 * this main context: wake up now and then to look again. */
	guint tick = g_timeout_add(20, tick_cb, NULL);

	while (!cond(data) && !timed_out)
		g_main_context_iteration(NULL, TRUE);
	if (!timed_out)
		g_source_remove(id);
	g_source_remove(tick);
	return !timed_out;
}

gboolean
test_enter_private_netns(void)
{
	if (geteuid() != 0)
		return FALSE;
	/* Like `ip netns exec`: a network namespace of our own, and a mount
	 * namespace in which /sys shows that network namespace's links. */
	if (unshare(CLONE_NEWNET | CLONE_NEWNS) < 0)
		g_error("unshare: %s", g_strerror(errno));
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		g_error("mount --make-rprivate /: %s", g_strerror(errno));
	umount2("/sys", MNT_DETACH);
	if (mount("sysfs", "/sys", "sysfs", 0, NULL) < 0)
		g_error("mount sysfs: %s", g_strerror(errno));
	test_run("ip link set lo up");
	return TRUE;
}

static void
on_name_appeared(GDBusConnection *conn, const gchar *name, const gchar *owner, gpointer data)
{
	((TestDaemon *)data)->ready = TRUE;
}

static void
on_exited(GObject *source, GAsyncResult *result, gpointer data)
{
	((TestDaemon *)data)->exited = TRUE;
}

static gboolean
daemon_ready_or_dead(gpointer data)
{
	TestDaemon *d = data;

	return d->ready || d->exited;
}

static gboolean
daemon_ready_or_dead_exited(gpointer data)
{
	return ((TestDaemon *)data)->exited;
}

/* The daemon starts its device plugins when it learns that the name is
 * its own, before it handles any call sent to that name: a call answered
 * means the plugins have started (and any that failed has said why). */
static gboolean
daemon_answers(TestDaemon *d)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        d->conn, "net.joind", "/net/joind", "org.freedesktop.DBus.Properties", "Get",
	        g_variant_new("(ss)", "net.joind.Daemon1", "Version"), NULL, G_DBUS_CALL_FLAGS_NONE,
	        10000, NULL, &error);

	if (reply == NULL)
		g_printerr("joind does not answer: %s\n", error->message);
	return reply != NULL;
}

TestDaemon *
test_daemon_start(const gchar *plugin_dir, const gchar *const *extra_args)
{
	TestDaemon *d = g_new0(TestDaemon, 1);
	g_autoptr(GSubprocessLauncher) launcher =
	        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_NONE);
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	const gchar *build = g_getenv("JOIND_BUILD_ROOT");
	guint watch;

	g_assert_nonnull(build);
	d->state_dir = g_dir_make_tmp("joind-test-XXXXXX", &error);
	g_assert_no_error(error);
	d->log_path = g_build_filename(d->state_dir, "joind.log", NULL);
	d->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(d->bus);
	d->conn = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	g_assert_no_error(error);

	g_ptr_array_add(argv, g_build_filename(build, "core", "joind", NULL));
	g_ptr_array_add(argv, g_strdup("--session"));
	g_ptr_array_add(argv, g_strdup("--debug"));
	g_ptr_array_add(argv, g_strdup_printf("--state-dir=%s", d->state_dir));
	g_ptr_array_add(argv, g_strdup("--config=/dev/null"));
	g_ptr_array_add(argv, g_strdup_printf("--plugin-dir=%s", plugin_dir));
	for (guint i = 0; extra_args != NULL && extra_args[i] != NULL; i++)
		g_ptr_array_add(argv, g_strdup(extra_args[i]));
	g_ptr_array_add(argv, NULL);
	g_subprocess_launcher_set_stderr_file_path(launcher, d->log_path);
	g_subprocess_launcher_setenv(launcher, "DBUS_SESSION_BUS_ADDRESS",
	                             g_test_dbus_get_bus_address(d->bus), TRUE);
	d->proc = g_subprocess_launcher_spawnv(launcher, (const gchar *const *)argv->pdata, &error);
	g_assert_no_error(error);
	g_subprocess_wait_async(d->proc, NULL, on_exited, d);
	watch = g_bus_watch_name_on_connection(d->conn, "net.joind", G_BUS_NAME_WATCHER_FLAGS_NONE,
	                                       on_name_appeared, NULL, d, NULL);
	test_wait_until(daemon_ready_or_dead, d, 10000);
	g_bus_unwatch_name(watch);
	if (!d->ready || d->exited || !daemon_answers(d)) {
		g_autofree gchar *log = test_daemon_get_log(d);
		g_error("joind did not come up; its log:\n%s", log);
	}
	return d;
}

gchar *
test_daemon_get_log(TestDaemon *d)
{
	gchar *log = NULL;

	if (!g_file_get_contents(d->log_path, &log, NULL, NULL))
		return g_strdup("");
	return log;
}

gint
test_daemon_stop(TestDaemon *d)
{
	g_autofree gchar *rm = NULL;
	gint status;

	g_subprocess_send_signal(d->proc, SIGTERM);
	test_wait_until(daemon_ready_or_dead_exited, d, 10000);
	g_assert_true(d->exited);
	status = g_subprocess_get_if_exited(d->proc) ? g_subprocess_get_exit_status(d->proc) : -1;
	if (status != 0) {
		g_autofree gchar *log = test_daemon_get_log(d);
		g_printerr("joind exited with status %d; its log:\n%s\n", status, log);
	}
	g_object_unref(d->proc);
	g_dbus_connection_close_sync(d->conn, NULL, NULL);
	g_object_unref(d->conn);
	g_test_dbus_down(d->bus);
	g_object_unref(d->bus);
	rm = g_strdup_printf("rm -rf '%s'", d->state_dir);
	test_run(rm);
	g_free(d->state_dir);
	g_free(d->log_path);
	g_free(d);
	return status;
}

void
test_run(const gchar *command_line)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *err = NULL;
	gint status = 0;

	if (!g_spawn_command_line_sync(command_line, NULL, &err, &status, &error))
		g_error("%s: %s", command_line, error->message);
	if (!g_spawn_check_wait_status(status, NULL))
		g_error("%s failed: %s", command_line, err);
}
