/* probe.c - starts one D-Bus service and measures it, for bench/footprint.
 *
 *   probe [OPTIONS] -- COMMAND [ARGS...]
 *
 * On the session bus of the environment (run.sh starts a private one), it
 * runs COMMAND and times exec -> NAME owned on the bus (the CPU the process
 * spent until then too), lets it settle, then reads /proc/PID/status and
 * smaps_rollup (VmRSS, RssAnon, Pss) and, with --libs, the resident size of
 * every mapped file from smaps. --managed-objects times a GetManagedObjects
 * call on /net/joind; --touch FILE rewrites FILE (appending an empty line)
 * and --hup sends SIGHUP, each reporting the CPU the process spent in the
 * following second, and the memory figures again after those (after_*).
 * Figures are "key value" lines on stdout, in KiB, ms.
 * Then the process is stopped with SIGTERM.
 */
#include <gio/gio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc-cpu.h"

typedef struct {
	const gchar *name;
	gint64 owned_at; /* monotonic us; 0 until the name appears */
	gboolean exited;
} Wait;

static gchar *opt_name = NULL;
static gint opt_settle_ms = 500;
static gboolean opt_libs = FALSE;
static gboolean opt_managed = FALSE;
static gchar *opt_touch = NULL;
static gboolean opt_hup = FALSE;
static gchar *opt_log = NULL;

static const GOptionEntry probe_entries[] = {
        {"name", 0, 0, G_OPTION_ARG_STRING, &opt_name, "Bus name the service owns", "NAME"},
        {"settle", 0, 0, G_OPTION_ARG_INT, &opt_settle_ms, "Wait before sampling (500)", "MS"},
        {"libs", 0, 0, G_OPTION_ARG_NONE, &opt_libs, "Resident size per mapped file", NULL},
        {"managed-objects", 0, 0, G_OPTION_ARG_NONE, &opt_managed, "Time GetManagedObjects", NULL},
        {"touch", 0, 0, G_OPTION_ARG_FILENAME, &opt_touch, "Rewrite FILE, CPU of the reload",
         "FILE"},
        {"hup", 0, 0, G_OPTION_ARG_NONE, &opt_hup, "SIGHUP, CPU of the reload", NULL},
        {"log", 0, 0, G_OPTION_ARG_FILENAME, &opt_log, "The service's stderr", "FILE"},
        {NULL}};

static void
on_owner_changed(GDBusConnection *conn, const gchar *sender, const gchar *path, const gchar *iface,
                 const gchar *signal, GVariant *params, gpointer user_data)
{
	Wait *w = user_data;
	const gchar *name, *old_owner, *new_owner;

	g_variant_get(params, "(&s&s&s)", &name, &old_owner, &new_owner);
	if (g_str_equal(name, w->name) && new_owner[0] != '\0' && w->owned_at == 0)
		w->owned_at = g_get_monotonic_time();
}

/* CPU time of every thread of pid, in ns. */
static guint64
cpu_ns(GPid pid)
{
	g_autofree gchar *text = g_strdup_printf("%d", pid);

	return bench_proc_cpu_ns(text);
}

static void
iterate_for(gint ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)ms * 1000;

	while (g_get_monotonic_time() < end) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(2000);
	}
}

/* Prints "<prefix>key value" for each wanted "Key:   value kB" line of a
 * file. */
static void
print_fields(const gchar *path, const gchar *prefix, const gchar *const *keys,
             const gchar *const *out)
{
	g_autofree gchar *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		for (guint k = 0; keys[k] != NULL; k++) {
			gsize n = strlen(keys[k]);

			if (strncmp(lines[i], keys[k], n) == 0 && lines[i][n] == ':')
				printf("%s%s %" G_GUINT64_FORMAT "\n", prefix, out[k],
				       g_ascii_strtoull(lines[i] + n + 1, NULL, 10));
		}
	}
}

static void
print_memory(GPid pid, const gchar *prefix)
{
	g_autofree gchar *status = g_strdup_printf("/proc/%d/status", pid);
	g_autofree gchar *rollup = g_strdup_printf("/proc/%d/smaps_rollup", pid);
	/* VmRSS and RssAnon are smaps_rollup's Rss and Anonymous, counted
	 * from the page tables: exact. The status lines (status_*) are
	 * counters that kernels before 6.2 keep per thread and add up only
	 * every 64 page faults (a fault maps up to 16 file pages), so they
	 * may lag by megabytes. */
	const gchar *const status_keys[] = {"VmRSS", "RssAnon", "RssFile", "Threads", NULL};
	const gchar *const status_out[] = {"status_vmrss_kib", "status_rssanon_kib",
	                                   "status_rssfile_kib", "threads", NULL};
	const gchar *const rollup_keys[] = {"Rss", "Anonymous", "Pss", "Private_Dirty", NULL};
	const gchar *const rollup_out[] = {"vmrss_kib", "rssanon_kib", "pss_kib",
	                                   "private_dirty_kib", NULL};

	print_fields(status, prefix, status_keys, status_out);
	print_fields(rollup, prefix, rollup_keys, rollup_out);
}

/* The mapping's name for the per-library table: a file's base name, or
 * [heap], [stack], [anon] for the anonymous ones. */
static gchar *
mapping_name(const gchar *header)
{
	g_auto(GStrv) fields = g_strsplit_set(header, " ", -1);
	const gchar *last = NULL;
	guint n = 0;

	for (guint i = 0; fields[i] != NULL; i++) {
		if (fields[i][0] != '\0') {
			last = fields[i];
			n++;
		}
	}
	if (n < 6 || last == NULL)
		return g_strdup("[anon]");
	return last[0] == '/' ? g_path_get_basename(last) : g_strdup(last);
}

static void
print_libs(GPid pid)
{
	g_autofree gchar *path = g_strdup_printf("/proc/%d/smaps", pid);
	g_autofree gchar *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GHashTable) rss = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree gchar *current = NULL;
	GHashTableIter iter;
	gpointer key, value;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		const gchar *l = lines[i];

		if (g_ascii_isxdigit(l[0]) && strchr(l, '-') != NULL && strchr(l, ':') != NULL &&
		    !g_str_has_suffix(l, " kB")) {
			g_free(current);
			current = mapping_name(l);
		} else if (current != NULL && g_str_has_prefix(l, "Rss:")) {
			guint64 kib = g_ascii_strtoull(l + 4, NULL, 10) +
			              GPOINTER_TO_SIZE(g_hash_table_lookup(rss, current));

			g_hash_table_replace(rss, g_strdup(current), GSIZE_TO_POINTER(kib));
		}
	}
	g_hash_table_iter_init(&iter, rss);
	while (g_hash_table_iter_next(&iter, &key, &value))
		printf("lib %s %zu\n", (const gchar *)key, GPOINTER_TO_SIZE(value));
}

static void
print_managed_objects(GDBusConnection *bus, GPid pid)
{
	g_autoptr(GError) error = NULL;
	guint64 cpu0 = cpu_ns(pid);
	gint64 t0 = g_get_monotonic_time();
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        bus, opt_name, "/net/joind", "org.freedesktop.DBus.ObjectManager",
	        "GetManagedObjects", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, 60000, NULL, &error);
	gint64 t1 = g_get_monotonic_time();
	guint64 cpu1 = cpu_ns(pid);
	g_autoptr(GVariant) objects = NULL;

	if (reply == NULL) {
		g_printerr("probe: GetManagedObjects: %s\n", error->message);
		return;
	}
	objects = g_variant_get_child_value(reply, 0);
	printf("managed_objects %zu\n", g_variant_n_children(objects));
	printf("managed_objects_ms %.1f\n", (t1 - t0) / 1000.0);
	/* The service's own share: the call's wall time includes this
	 * process reading a reply of a few MB into values. */
	printf("managed_objects_cpu_ms %.1f\n", (cpu1 - cpu0) / 1e6);
	printf("managed_objects_bytes %zu\n", g_variant_get_size(reply));
}

/* CPU of pid over the second after what() ran, in ms. */
static void
print_reaction(GPid pid, const gchar *key, void (*what)(GPid pid))
{
	guint64 before = cpu_ns(pid);

	what(pid);
	iterate_for(1000);
	printf("%s %.2f\n", key, (cpu_ns(pid) - before) / 1e6);
}

static void
touch_file(GPid pid)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *changed = NULL;

	if (!g_file_get_contents(opt_touch, &text, NULL, &error)) {
		g_printerr("probe: %s\n", error->message);
		return;
	}
	changed = g_strconcat(text, "\n", NULL);
	if (!g_file_set_contents_full(opt_touch, changed, -1, G_FILE_SET_CONTENTS_NONE, 0600,
	                              &error))
		g_printerr("probe: %s\n", error->message);
}

static void
send_hup(GPid pid)
{
	kill(pid, SIGHUP);
}

static GSubprocess *
spawn(gchar **argv, GError **error)
{
	g_autoptr(GSubprocessLauncher) launcher =
	        g_subprocess_launcher_new(G_SUBPROCESS_FLAGS_STDOUT_SILENCE);

	if (opt_log != NULL)
		g_subprocess_launcher_set_stderr_file_path(launcher, opt_log);
	return g_subprocess_launcher_spawnv(launcher, (const gchar *const *)argv, error);
}

/* Starts the service and waits for its name; the exec -> name figures. */
static void
on_exited(GObject *source, GAsyncResult *result, gpointer user_data)
{
	gboolean *exited = user_data;

	g_subprocess_wait_finish(G_SUBPROCESS(source), result, NULL);
	*exited = TRUE;
}

static GSubprocess *
start(GDBusConnection *bus, gchar **argv, GPid *pid)
{
	static Wait w; /* the exit callback may outlive this call */
	g_autoptr(GError) error = NULL;
	guint sub = g_dbus_connection_signal_subscribe(
	        bus, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged",
	        "/org/freedesktop/DBus", opt_name, G_DBUS_SIGNAL_FLAGS_NONE, on_owner_changed, &w,
	        NULL);
	gint64 t0;
	GSubprocess *proc;

	w.name = opt_name;
	t0 = g_get_monotonic_time();
	proc = spawn(argv, &error);
	if (proc == NULL) {
		g_printerr("probe: %s\n", error->message);
		exit(EXIT_FAILURE);
	}
	*pid = (GPid)g_ascii_strtoll(g_subprocess_get_identifier(proc), NULL, 10);
	g_subprocess_wait_async(proc, NULL, on_exited, &w.exited);
	while (w.owned_at == 0 && !w.exited)
		g_main_context_iteration(NULL, TRUE);
	g_dbus_connection_signal_unsubscribe(bus, sub);
	if (w.owned_at == 0) {
		g_printerr("probe: %s never appeared on the bus\n", opt_name);
		exit(EXIT_FAILURE);
	}
	printf("start_cpu_ms %.2f\n", cpu_ns(*pid) / 1e6);
	printf("start_ms %.2f\n", (w.owned_at - t0) / 1000.0);
	return proc;
}

int
main(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new("-- COMMAND [ARGS...]");
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	g_autoptr(GSubprocess) proc = NULL;
	GPid pid = 0;

	g_option_context_add_main_entries(ctx, probe_entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error) || opt_name == NULL || argc < 2 ||
	    (g_str_equal(argv[1], "--") && argc < 3)) {
		g_printerr("probe: %s\n", error != NULL ? error->message : "--name and COMMAND");
		return 2;
	}
	bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	if (bus == NULL) {
		g_printerr("probe: %s\n", error->message);
		return EXIT_FAILURE;
	}
	/* GOption leaves the "--" that ends the options in some cases. */
	proc = start(bus, g_str_equal(argv[1], "--") ? argv + 2 : argv + 1, &pid);
	iterate_for(opt_settle_ms);
	print_memory(pid, "");
	if (opt_libs)
		print_libs(pid);
	if (opt_managed)
		print_managed_objects(bus, pid);
	if (opt_touch != NULL)
		print_reaction(pid, "reload_one_cpu_ms", touch_file);
	if (opt_hup)
		print_reaction(pid, "reload_all_cpu_ms", send_hup);
	if (opt_managed || opt_touch != NULL || opt_hup)
		print_memory(pid, "after_");
	g_subprocess_send_signal(proc, SIGTERM);
	g_subprocess_wait(proc, NULL, NULL);
	return EXIT_SUCCESS;
}
