/* test-daemon.h - running the built joind on a private bus in tests. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
	GTestDBus *bus;
	GDBusConnection *conn; /* the test's own connection */
	GSubprocess *proc;
	gchar *state_dir;
	gchar *log_path;
	gboolean ready;  /* owns net.joind */
	gboolean exited; /* the process has ended */
} TestDaemon;

/* Starts build/core/joind --session --debug on a fresh private bus with a
 * temporary state dir and waits until it owns net.joind (fails the test
 * after 10 s). extra_args may be NULL. */
TestDaemon *test_daemon_start(const gchar *plugin_dir, const gchar *const *extra_args);
/* SIGTERM, wait, return the exit status; frees everything. */
gint test_daemon_stop(TestDaemon *daemon);
/* The daemon's log so far. */
gchar *test_daemon_get_log(TestDaemon *daemon);

/* Iterates the default main context until cond(data) is TRUE; FALSE on
 * timeout. Tests wait for events this way instead of sleeping. */
gboolean test_wait_until(gboolean (*cond)(gpointer data), gpointer data, guint timeout_ms);

/* Moves this test process into a fresh network namespace (with its own
 * /sys), so links it creates touch nothing else. FALSE when not root. */
gboolean test_enter_private_netns(void);

/* Runs a shell command line, failing the test if it does not exit 0. */
void test_run(const gchar *command_line);

G_END_DECLS
