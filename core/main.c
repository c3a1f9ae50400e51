/* main.c - the joind executable: options, logging, bus, main loop, signals.
 *
 * Everything else lives in libjoind; this file only wires the process up.
 */
#include <glib-unix.h>
#include <gio/gio.h>
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "joind-core-private.h"

#define JOIND_BUS_NAME "net.joind"

typedef struct {
	GMainLoop *loop;
	JoindCore *core;
	int exit_code;
} Daemon;

static gchar **opt_debug = NULL; /* log domain globs, NULL: no debug */

static gboolean
parse_debug(const gchar *name, const gchar *value, gpointer data, GError **error)
{
	g_strfreev(opt_debug);
	opt_debug = g_strsplit(value != NULL ? value : "*", ",", -1);
	return TRUE;
}

static gboolean
debug_enabled(const gchar *domain)
{
	if (opt_debug == NULL)
		return FALSE;
	for (guint i = 0; opt_debug[i] != NULL; i++) {
		if (g_str_equal(opt_debug[i], "all") ||
		    g_pattern_match_simple(opt_debug[i], domain != NULL ? domain : "joind"))
			return TRUE;
	}
	return FALSE;
}

/* Debug lines only for the domains asked for with --debug[=a,b]; everything
 * from info up always. Lines carry a timestamp so a log reads as a story. */
static GLogWriterOutput
log_writer(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
	const gchar *domain = NULL;
	const gchar *message = NULL;
	const gchar *tag = "";
	g_autoptr(GDateTime) now = NULL;

	for (gsize i = 0; i < n_fields; i++) {
		if (g_str_equal(fields[i].key, "GLIB_DOMAIN"))
			domain = fields[i].value;
		else if (g_str_equal(fields[i].key, "MESSAGE"))
			message = fields[i].value;
	}
	if ((level & G_LOG_LEVEL_DEBUG) != 0 && !debug_enabled(domain))
		return G_LOG_WRITER_HANDLED;
	if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) != 0)
		tag = "CRITICAL: ";
	else if ((level & G_LOG_LEVEL_WARNING) != 0)
		tag = "WARNING: ";
	now = g_date_time_new_now_local();
	fprintf(stderr, "%02d:%02d:%06.3f %s: %s%s\n", g_date_time_get_hour(now),
	        g_date_time_get_minute(now), g_date_time_get_seconds(now),
	        domain != NULL ? domain : "joind", tag, message != NULL ? message : "");
	fflush(stderr);
	return G_LOG_WRITER_HANDLED;
}

static gboolean
on_quit_signal(gpointer user_data)
{
	Daemon *d = user_data;

	g_info("terminating");
	g_main_loop_quit(d->loop);
	return G_SOURCE_CONTINUE;
}

static gboolean
on_reload_signal(gpointer user_data)
{
	Daemon *d = user_data;

	joind_core_reload(d->core);
	return G_SOURCE_CONTINUE;
}

static void
on_name_acquired(GDBusConnection *bus, const gchar *name, gpointer user_data)
{
	g_info("ready: %s on the bus", name);
}

static void
on_name_lost(GDBusConnection *bus, const gchar *name, gpointer user_data)
{
	Daemon *d = user_data;

	g_warning("could not own %s on the bus (is another joind running, or does the D-Bus "
	          "policy not allow it?)",
	          name);
	d->exit_code = EXIT_FAILURE;
	g_main_loop_quit(d->loop);
}

static int
run(JoindCoreOptions *options, gboolean session)
{
	Daemon d = {0};
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	guint name_id;

	d.core = joind_core_new(options, &error);
	if (d.core == NULL) {
		g_printerr("joind: %s\n", error->message);
		return EXIT_FAILURE;
	}
	bus = g_bus_get_sync(session ? G_BUS_TYPE_SESSION : G_BUS_TYPE_SYSTEM, NULL, &error);
	if (bus == NULL) {
		g_printerr("joind: cannot connect to the %s bus: %s\n",
		           session ? "session" : "system", error->message);
		g_object_unref(d.core);
		return EXIT_FAILURE;
	}
	g_dbus_connection_set_exit_on_close(bus, FALSE);
	d.loop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGTERM, on_quit_signal, &d);
	g_unix_signal_add(SIGINT, on_quit_signal, &d);
	g_unix_signal_add(SIGHUP, on_reload_signal, &d);
	/* The tree is complete before the name appears, so a client that waits
	 * for the name never sees a half-built daemon. */
	if (!joind_core_start(d.core, bus, &error)) {
		g_printerr("joind: %s\n", error->message);
		d.exit_code = EXIT_FAILURE;
	} else {
		name_id = g_bus_own_name_on_connection(bus, JOIND_BUS_NAME,
		                                       G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
		                                       on_name_acquired, on_name_lost, &d, NULL);
		g_main_loop_run(d.loop);
		g_bus_unown_name(name_id);
	}
	joind_core_shutdown(d.core);
	g_dbus_connection_flush_sync(bus, NULL, NULL);
	g_object_unref(d.core);
	g_main_loop_unref(d.loop);
	return d.exit_code;
}

int
main(int argc, char **argv)
{
	g_autofree gchar *plugin_dir = NULL;
	g_autofree gchar *state_dir = NULL;
	g_autofree gchar *config_path = NULL;
	g_autofree gchar *enable = NULL;
	g_autofree gchar *disable = NULL;
	gboolean session = FALSE;
	gboolean version = FALSE;
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) ctx =
	        g_option_context_new("- keeps this machine on its networks");
	JoindCoreOptions options = {0};
	const GOptionEntry entries[] = {
	        {"debug", 'd', G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_debug,
	         "Log debug messages (of the given comma-separated log domain globs)", "DOMAINS"},
	        {"plugin-dir", 0, 0, G_OPTION_ARG_FILENAME, &plugin_dir,
	         "Load plugins from DIR (also $JOIND_PLUGIN_DIR)", "DIR"},
	        {"plugins", 'p', 0, G_OPTION_ARG_STRING, &enable,
	         "Load only these plugins (comma-separated globs)", "NAMES"},
	        {"noplugin", 'P', 0, G_OPTION_ARG_STRING, &disable,
	         "Do not load these plugins (comma-separated globs)", "NAMES"},
	        {"state-dir", 0, 0, G_OPTION_ARG_FILENAME, &state_dir,
	         "Profiles and learned state (default " JOIND_DEFAULT_STATE_DIR ")", "DIR"},
	        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path,
	         "Settings file (default " JOIND_DEFAULT_CONFIG ")", "FILE"},
	        {"session", 0, 0, G_OPTION_ARG_NONE, &session, "Use the session bus (for tests)",
	         NULL},
	        {"version", 'v', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit",
	         NULL},
	        {NULL}};

	/* One malloc arena: GLib's threads (the D-Bus worker, the GLib worker)
	 * would each get an arena of their own whose pages stay resident. */
	mallopt(M_ARENA_MAX, 1);
	setlocale(LC_ALL, "");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		g_printerr("joind: %s (see --help)\n", error->message);
		return 2;
	}
	if (version) {
		g_print("joind %s\n", PACKAGE_VERSION);
		return EXIT_SUCCESS;
	}
	g_log_set_writer_func(log_writer, NULL, NULL);
	if (plugin_dir == NULL)
		plugin_dir = g_strdup(g_getenv("JOIND_PLUGIN_DIR"));
	options.plugin_dir = plugin_dir != NULL ? plugin_dir : JOIND_DEFAULT_PLUGIN_DIR;
	options.state_dir = state_dir != NULL ? state_dir : JOIND_DEFAULT_STATE_DIR;
	options.config_path = config_path != NULL ? config_path : JOIND_DEFAULT_CONFIG;
	options.enable_plugins = enable;
	options.disable_plugins = disable;
	return run(&options, session);
}
