/* test-joinctl-agent.c - joinctl's built-in agent (net.joind.Agent1)
 * against a stand-in for joind played by this test: it owns net.joind on a
 * private bus, publishes a network object and AgentManager1, and asks
 * `joinctl agent` for secrets as joind would. Checks the answers from the
 * command line, the refusals, that nobody but joind is answered, the
 * terminal prompt without echo (on a pseudo-terminal), Cancel and Release.
 * The stand-in (joinctl-standin.c) has a station wlt0 with a network Home.
 */
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "joinctl-standin.h"
#include "test-bus.h"
#include "test-daemon.h"

#define NETWORK_PATH "/net/joind/device/7/network/486f6d65_psk"

typedef struct {
	Standin *standin;
	GDBusConnection *owner; /* the stand-in's connection, which owns net.joind */
	GSubprocess *proc;
	gboolean exited;
	GString *output; /* joinctl's stdout (and stderr on a pty) */
	gint pty_master;
	gint pty_slave;
	guint output_watch;
} Fake;

static gboolean
flag_set(gpointer data)
{
	return *(gboolean *)data;
}

static void
fake_setup(Fake *f, gconstpointer data)
{
	g_autoptr(JoindDBusObjectSkeleton) station = NULL;
	g_autoptr(JoindDBusObjectSkeleton) net = NULL;

	f->pty_master = f->pty_slave = -1;
	f->output = g_string_new(NULL);
	f->standin = standin_new();
	f->owner = f->standin->owner;
	station = standin_add_station(f->standin, 7, "wlt0");
	net = standin_add_network(f->standin, station, "Home", "psk", -5000);
	g_assert_cmpstr(g_dbus_object_get_object_path(G_DBUS_OBJECT(net)), ==, NETWORK_PATH);
}

static void
fake_teardown(Fake *f, gconstpointer data)
{
	if (f->proc != NULL) {
		g_subprocess_force_exit(f->proc);
		g_subprocess_wait(f->proc, NULL, NULL);
		g_clear_object(&f->proc);
	}
	if (f->output_watch != 0)
		g_source_remove(f->output_watch);
	if (f->pty_master >= 0)
		close(f->pty_master);
	if (f->pty_slave >= 0)
		close(f->pty_slave);
	standin_free(f->standin);
	g_string_free(f->output, TRUE);
}

static gboolean
on_output(gint fd, GIOCondition condition, gpointer data)
{
	Fake *f = data;
	gchar buf[512];
	gssize n = read(fd, buf, sizeof(buf));

	if (n <= 0) {
		f->output_watch = 0;
		return G_SOURCE_REMOVE;
	}
	g_string_append_len(f->output, buf, n);
	return G_SOURCE_CONTINUE;
}

static void
on_exited(GObject *source, GAsyncResult *result, gpointer data)
{
	((Fake *)data)->exited = TRUE;
}

static gboolean
agent_registered(gpointer data)
{
	return ((Fake *)data)->standin->agent_sender != NULL;
}

/* Opens a pseudo-terminal: joinctl's stdin, stdout and stderr. */
static void
open_pty(Fake *f)
{
	f->pty_master = posix_openpt(O_RDWR | O_NOCTTY);
	g_assert_cmpint(f->pty_master, >=, 0);
	g_assert_cmpint(grantpt(f->pty_master), ==, 0);
	g_assert_cmpint(unlockpt(f->pty_master), ==, 0);
	f->pty_slave = open(ptsname(f->pty_master), O_RDWR | O_NOCTTY);
	g_assert_cmpint(f->pty_slave, >=, 0);
	g_unix_set_fd_nonblocking(f->pty_master, TRUE, NULL);
}

/* `joinctl --session --json agent ARGS...`, on a pty when use_pty, else with
 * pipes (not a terminal); waits until it registered with the stand-in. */
static void
start_agent(Fake *f, gboolean use_pty, const gchar *const *args)
{
	g_autoptr(GSubprocessLauncher) launcher = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	gint out_fd;

	g_ptr_array_add(argv,
	                g_build_filename(g_getenv("JOIND_BUILD_ROOT"), "client", "joinctl", NULL));
	g_ptr_array_add(argv, g_strdup("--session"));
	g_ptr_array_add(argv, g_strdup("--json"));
	g_ptr_array_add(argv, g_strdup("agent"));
	for (guint i = 0; args != NULL && args[i] != NULL; i++)
		g_ptr_array_add(argv, g_strdup(args[i]));
	g_ptr_array_add(argv, NULL);
	if (use_pty) {
		open_pty(f);
		launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_NONE);
		g_subprocess_launcher_take_stdin_fd(launcher, dup(f->pty_slave));
		g_subprocess_launcher_take_stdout_fd(launcher, dup(f->pty_slave));
		g_subprocess_launcher_take_stderr_fd(launcher, dup(f->pty_slave));
		out_fd = f->pty_master;
	} else {
		launcher = g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDIN_PIPE |
		                                     G_SUBPROCESS_FLAGS_STDOUT_PIPE);
	}
	f->proc = g_subprocess_launcher_spawnv(launcher, (const gchar *const *)argv->pdata, &error);
	g_assert_no_error(error);
	if (!use_pty)
		out_fd = g_unix_input_stream_get_fd(
		        G_UNIX_INPUT_STREAM(g_subprocess_get_stdout_pipe(f->proc)));
	f->output_watch = g_unix_fd_add(out_fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_output, f);
	g_subprocess_wait_async(f->proc, NULL, on_exited, f);
	g_assert_true(test_wait_until(agent_registered, f, 5000));
	g_assert_cmpstr(f->standin->agent_path, ==, "/net/joind/joinctl/agent");
}

typedef struct {
	gboolean done;
	GVariant *reply;
	GError *error;
} Call;

static void
call_done(GObject *source, GAsyncResult *result, gpointer data)
{
	Call *c = data;

	c->reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &c->error);
	c->done = TRUE;
}

/* Starts method on the agent from conn; finish with call_wait(). */
static void
call_start(Fake *f, Call *c, GDBusConnection *conn, const gchar *method, GVariant *params)
{
	memset(c, 0, sizeof(*c));
	g_dbus_connection_call(conn, f->standin->agent_sender, f->standin->agent_path,
	                       "net.joind.Agent1", method, params, NULL, G_DBUS_CALL_FLAGS_NONE,
	                       10000, NULL, call_done, c);
}

/* The string at index of a successful call's reply (the reply is freed). */
static gchar *
reply_string(Call *c, guint index)
{
	g_autoptr(GVariant) child = NULL;

	g_assert_no_error(c->error);
	child = g_variant_get_child_value(c->reply, index);
	g_clear_pointer(&c->reply, g_variant_unref);
	return g_variant_dup_string(child, NULL);
}

static void
call_wait(Call *c)
{
	g_assert_true(test_wait_until(flag_set, &c->done, 10000));
}

/* One call, waited for; the reply's string at index, or NULL and *name set
 * to the D-Bus error name. */
static gchar *
ask(Fake *f, GDBusConnection *conn, const gchar *method, GVariant *params, guint index,
    gchar **name)
{
	Call c;

	call_start(f, &c, conn, method, params);
	call_wait(&c);
	if (c.error != NULL) {
		*name = g_dbus_error_get_remote_error(c.error);
		g_test_message("%s: %s", method, c.error->message);
		g_error_free(c.error);
		return NULL;
	}
	{
		g_autoptr(GVariant) reply = c.reply;
		g_autoptr(GVariant) child = g_variant_get_child_value(reply, index);
		return g_variant_dup_string(child, NULL);
	}
}

static gboolean
exited(gpointer data)
{
	return ((Fake *)data)->exited;
}

static gint
wait_exit(Fake *f)
{
	gint status;

	g_assert_true(test_wait_until(exited, f, 5000));
	status = g_subprocess_get_if_exited(f->proc) ? g_subprocess_get_exit_status(f->proc) : -1;
	g_clear_object(&f->proc);
	return status;
}

static void
release(Fake *f)
{
	Call c;

	call_start(f, &c, f->owner, "Release", NULL);
	call_wait(&c);
	g_assert_no_error(c.error);
	g_variant_unref(c.reply);
	g_assert_cmpint(wait_exit(f), ==, 0);
}

/* Secrets given as arguments no longer show in /proc/<pid>/cmdline. */
static void
assert_cmdline_clean(Fake *f)
{
	g_autofree gchar *path =
	        g_strdup_printf("/proc/%s/cmdline", g_subprocess_get_identifier(f->proc));
	g_autofree gchar *cmdline = NULL;
	gsize len = 0;

	g_assert_true(g_file_get_contents(path, &cmdline, &len, NULL));
	for (gsize i = 0; i < len; i++)
		if (cmdline[i] == '\0')
			cmdline[i] = ' ';
	g_test_message("cmdline: %s", cmdline);
	g_assert_nonnull(strstr(cmdline, "--passphrase"));
	g_assert_nonnull(strstr(cmdline, "alice")); /* a user name is no secret */
	g_assert_null(strstr(cmdline, "pass-AAA"));
	g_assert_null(strstr(cmdline, "key-BBB"));
	g_assert_null(strstr(cmdline, "pw-CCC"));
}

#define NET_ARG g_variant_new("(o)", NETWORK_PATH)
#define DEV_ARG g_variant_new("(o)", "/net/joind/device/7")

static void
test_given_secrets(Fake *f, gconstpointer data)
{
	const gchar *const args[] = {"--passphrase", "pass-AAA",   "--key-passphrase",
	                             "key-BBB",      "--username", "alice",
	                             "--password",   "pw-CCC",     NULL};
	g_autoptr(GDBusConnection) stranger = NULL;
	g_autofree gchar *name = NULL;
	g_autofree gchar *pass = NULL, *key = NULL, *user = NULL, *pw = NULL, *pw2 = NULL;
	g_autofree gchar *stolen = NULL;

	start_agent(f, FALSE, args);
	assert_cmdline_clean(f);
	pass = ask(f, f->owner, "RequestPassphrase", NET_ARG, 0, &name);
	g_assert_cmpstr(pass, ==, "pass-AAA");
	key = ask(f, f->owner, "RequestPrivateKeyPassphrase", DEV_ARG, 0, &name);
	g_assert_cmpstr(key, ==, "key-BBB");
	user = ask(f, f->owner, "RequestUserNameAndPassword", DEV_ARG, 0, &name);
	g_assert_cmpstr(user, ==, "alice");
	pw = ask(f, f->owner, "RequestUserNameAndPassword", DEV_ARG, 1, &name);
	g_assert_cmpstr(pw, ==, "pw-CCC");
	pw2 = ask(f, f->owner, "RequestUserPassword",
	          g_variant_new("(os)", "/net/joind/device/7", "bob"), 0, &name);
	g_assert_cmpstr(pw2, ==, "pw-CCC");
	/* Only the owner of net.joind may ask. */
	stranger = test_bus_new_client(f->standin->bus);
	stolen = ask(f, stranger, "RequestPassphrase", NET_ARG, 0, &name);
	g_assert_null(stolen);
	g_assert_cmpstr(name, ==, "net.joind.Error.PermissionDenied");
	release(f);
	g_assert_nonnull(strstr(f->output->str, "\"event\":\"released\""));
	g_assert_nonnull(strstr(f->output->str, "network 'Home' (psk)"));
	g_assert_nonnull(strstr(f->output->str, "device wlt0"));
	g_assert_null(strstr(f->output->str, "pass-AAA"));
	g_assert_null(strstr(f->output->str, "key-BBB"));
	g_assert_null(strstr(f->output->str, "pw-CCC"));
}

/* Without a terminal and without the secret: refused with Aborted, which
 * joind reports as a cancelled request. Ctrl-C unregisters the agent. */
static void
test_refuses(Fake *f, gconstpointer data)
{
	const gchar *const args[] = {"--passphrase", "pass-AAA", NULL};
	g_autofree gchar *name = NULL;
	g_autofree gchar *user = NULL;
	g_autofree gchar *pass = NULL;

	start_agent(f, FALSE, args);
	user = ask(f, f->owner, "RequestUserNameAndPassword", DEV_ARG, 0, &name);
	g_assert_null(user);
	g_assert_cmpstr(name, ==, "net.joind.Error.Aborted");
	pass = ask(f, f->owner, "RequestPassphrase", NET_ARG, 0, &name);
	g_assert_cmpstr(pass, ==, "pass-AAA");
	g_assert_nonnull(strstr(f->output->str, "\"event\":\"refused\""));
	g_subprocess_send_signal(f->proc, SIGINT);
	g_assert_cmpint(wait_exit(f), ==, 0);
	g_assert_true(f->standin->unregistered);
}

typedef struct {
	Fake *f;
	const gchar *needle;
	guint count;
} OutputWait;

static gboolean
output_has(gpointer data)
{
	OutputWait *w = data;
	guint n = 0;

	for (const gchar *p = strstr(w->f->output->str, w->needle); p != NULL;
	     p = strstr(p + 1, w->needle))
		n++;
	return n >= w->count;
}

static void
wait_output(Fake *f, const gchar *needle, guint count)
{
	OutputWait w = {f, needle, count};

	if (!test_wait_until(output_has, &w, 5000))
		g_error("no '%s' (x%u) in joinctl's output:\n%s", needle, count, f->output->str);
}

static gboolean
echo_on(Fake *f)
{
	struct termios t;

	g_assert_cmpint(tcgetattr(f->pty_slave, &t), ==, 0);
	return (t.c_lflag & ECHO) != 0;
}

static void
type_line(Fake *f, const gchar *line)
{
	g_assert_cmpint(write(f->pty_master, line, strlen(line)), ==, (gssize)strlen(line));
}

/* On a terminal: the prompt names what the secret is for, echo is off while
 * the secret is typed (on for a user name) and back on afterwards; the typed
 * secret is never shown; Cancel from joind abandons the prompt. */
static void
test_prompt(Fake *f, gconstpointer data)
{
	Call c;
	g_autofree gchar *user = NULL;
	g_autofree gchar *typed = NULL;
	g_autofree gchar *password = NULL;

	start_agent(f, TRUE, NULL);
	g_assert_true(echo_on(f));
	call_start(f, &c, f->owner, "RequestPassphrase", NET_ARG);
	wait_output(f, "Passphrase for network 'Home' (psk): ", 1);
	g_assert_false(echo_on(f));
	type_line(f, "typed-secret\n");
	call_wait(&c);
	typed = reply_string(&c, 0);
	g_assert_cmpstr(typed, ==, "typed-secret");
	g_assert_true(echo_on(f));

	/* joind gives up while the user is being asked. */
	call_start(f, &c, f->owner, "RequestPassphrase", NET_ARG);
	wait_output(f, "Passphrase for network 'Home' (psk): ", 2);
	{
		Call cancel;
		call_start(f, &cancel, f->owner, "Cancel", g_variant_new("(s)", "timed out"));
		call_wait(&cancel);
		g_assert_no_error(cancel.error);
		g_variant_unref(cancel.reply);
	}
	call_wait(&c);
	g_assert_nonnull(c.error);
	user = g_dbus_error_get_remote_error(c.error);
	g_assert_cmpstr(user, ==, "net.joind.Error.Aborted");
	g_clear_error(&c.error);
	g_assert_true(echo_on(f));

	/* User name (echoed), then password (not). */
	call_start(f, &c, f->owner, "RequestUserNameAndPassword", DEV_ARG);
	wait_output(f, "User name for device wlt0: ", 1);
	g_assert_true(echo_on(f));
	type_line(f, "carol\n");
	wait_output(f, "Password of carol for device wlt0: ", 1);
	g_assert_false(echo_on(f));
	type_line(f, "pw-typed\n");
	call_wait(&c);
	password = reply_string(&c, 1);
	g_assert_cmpstr(password, ==, "pw-typed");
	release(f);
	g_test_message("joinctl's terminal:\n%s", f->output->str);
	g_assert_null(strstr(f->output->str, "typed-secret"));
	g_assert_null(strstr(f->output->str, "pw-typed"));
	g_assert_nonnull(strstr(f->output->str, "carol")); /* echoed: not a secret */
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/joinctl-agent/given-secrets", Fake, NULL, fake_setup, test_given_secrets,
	           fake_teardown);
	g_test_add("/joinctl-agent/refuses", Fake, NULL, fake_setup, test_refuses, fake_teardown);
	g_test_add("/joinctl-agent/prompt", Fake, NULL, fake_setup, test_prompt, fake_teardown);
	return g_test_run();
}
