/* main.c - the joind executable: options, logging, bus, main loop, signals.
 *
 * Everything else lives in libjoind; this file only wires the process up.
 */
#include <glib-unix.h>
#include <gio/gio.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "joind-core-private.h"
#include "joind-log-writer.h"

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

static const gchar *const config_type_names[] = {
        [JOIND_CONFIG_BOOL] = "bool",
        [JOIND_CONFIG_INT] = "int",
        [JOIND_CONFIG_STRING] = "string",
        [JOIND_CONFIG_STRV] = "list",
};
G_STATIC_ASSERT(G_N_ELEMENTS(config_type_names) == JOIND_CONFIG_LAST + 1);

/* As the log writer does: UTF-8 as it is. g_printerr() would convert it
 * to the C locale's ASCII, turning GLib's quotes around a path into "?". */
static void
print_error(const gchar *message)
{
	fprintf(stderr, "joind: %s\n", message);
}

/* Nothing but criticals while listing: every device plugin "fails". */
static GLogWriterOutput
quiet_writer(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer user_data)
{
	if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) == 0)
		return G_LOG_WRITER_HANDLED;
	return g_log_writer_standard_streams(level, fields, n_fields, user_data);
}

/* --dump-config-reference: one line per main.conf key the plugins declare,
 * tab-separated: plugin, group, key, type, default, min, max, choices
 * (comma-separated). data/man/joind-conf.py turns them into joind.conf(5). */
static int
dump_config_reference(JoindCoreOptions *options)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindCore) core = NULL;
	g_autoptr(GPtrArray) list = NULL;

	g_log_set_writer_func(quiet_writer, NULL, NULL);
	core = joind_core_new(options, &error);
	if (core == NULL) {
		print_error(error->message);
		return EXIT_FAILURE;
	}
	list = joind_core_list_config(core);
	for (guint i = 0; i < list->len; i++) {
		const JoindConfigDeclaration *d = g_ptr_array_index(list, i);

		for (const JoindConfigKey *k = d->keys; k->group != NULL; k++) {
			g_autofree gchar *choices =
			        k->choices != NULL ? g_strjoinv(",", (gchar **)k->choices) : NULL;

			g_print("%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", d->plugin, k->group, k->key,
			        config_type_names[k->type], k->default_value, k->min, k->max,
			        choices != NULL ? choices : "");
		}
	}
	return EXIT_SUCCESS;
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
	Daemon *d = user_data;

	g_info("ready: %s on the bus", name);
	joind_core_start_devices(d->core);
	/* Start-up's transient memory (directory buffers, every profile's
	 * text while it was parsed) is free but still resident: give those
	 * pages back once, now that the daemon settles into waiting. */
	malloc_trim(0);
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

	/* Under systemd stderr is the journal's stream: lines keep their fields. */
	g_log_set_writer_func(
	        joind_log_writer_write,
	        joind_log_writer_new((const gchar *const *)opt_debug, fileno(stderr), stderr),
	        (GDestroyNotify)joind_log_writer_free);
	d.core = joind_core_new(options, &error);
	if (d.core == NULL) {
		print_error(error->message);
		return EXIT_FAILURE;
	}
	bus = g_bus_get_sync(session ? G_BUS_TYPE_SESSION : G_BUS_TYPE_SYSTEM, NULL, &error);
	if (bus == NULL) {
		g_autofree gchar *msg =
		        g_strdup_printf("cannot connect to the %s bus: %s",
		                        session ? "session" : "system", error->message);

		print_error(msg);
		g_object_unref(d.core);
		return EXIT_FAILURE;
	}
	g_dbus_connection_set_exit_on_close(bus, FALSE);
	d.loop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGTERM, on_quit_signal, &d);
	g_unix_signal_add(SIGINT, on_quit_signal, &d);
	g_unix_signal_add(SIGHUP, on_reload_signal, &d);
	/* The profiles are on the bus before the name appears; the devices
	 * come once it is ours (on_name_acquired). */
	if (!joind_core_start(d.core, bus, &error)) {
		print_error(error->message);
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

/* No setlocale(): the daemon has no translated text (po/ is joinctl's), its
 * log and errors are written as UTF-8 whatever the locale, and in the C
 * locale numbers in the log read the same on every machine. Loading the
 * environment's locale would map its LC_CTYPE tables (128 KiB resident) for
 * nothing. For the same reason every option value is taken as given
 * (FILENAME, or FLAG_FILENAME): GLib converts a STRING one from the
 * locale's charset, the C locale's ASCII, through iconv, whose tables would
 * then stay mapped. Log domains and plugin names are ASCII. */
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
	gboolean dump_config = FALSE;
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) ctx =
	        g_option_context_new("- keeps this machine on its networks");
	JoindCoreOptions options = {0};
	const GOptionEntry entries[] = {
	        {"debug", 'd', G_OPTION_FLAG_OPTIONAL_ARG | G_OPTION_FLAG_FILENAME,
	         G_OPTION_ARG_CALLBACK, parse_debug,
	         "Log debug messages (of the given comma-separated log domain globs)", "DOMAINS"},
	        {"plugin-dir", 0, 0, G_OPTION_ARG_FILENAME, &plugin_dir,
	         "Load plugins from DIR (also $JOIND_PLUGIN_DIR)", "DIR"},
	        {"plugins", 'p', 0, G_OPTION_ARG_FILENAME, &enable,
	         "Load only these plugins (comma-separated globs)", "NAMES"},
	        {"noplugin", 'P', 0, G_OPTION_ARG_FILENAME, &disable,
	         "Do not load these plugins (comma-separated globs)", "NAMES"},
	        {"state-dir", 0, 0, G_OPTION_ARG_FILENAME, &state_dir,
	         "Profiles and learned state (default " JOIND_DEFAULT_STATE_DIR ")", "DIR"},
	        {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path,
	         "Settings file (default " JOIND_DEFAULT_CONFIG ")", "FILE"},
	        {"session", 0, 0, G_OPTION_ARG_NONE, &session, "Use the session bus (for tests)",
	         NULL},
	        {"version", 'v', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit",
	         NULL},
	        {"dump-config-reference", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &dump_config,
	         "List the main.conf keys the plugins declare (for joind.conf(5)) and exit", NULL},
	        {NULL}};

	/* One malloc arena: GLib's threads (the D-Bus worker, the GLib worker)
	 * would each get an arena of their own whose pages stay resident. */
	mallopt(M_ARENA_MAX, 1);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "joind: %s (see --help)\n", error->message);
		return 2;
	}
	if (version) {
		g_print("joind %s\n", PACKAGE_VERSION);
		return EXIT_SUCCESS;
	}
	if (plugin_dir == NULL)
		plugin_dir = g_strdup(g_getenv("JOIND_PLUGIN_DIR"));
	options.plugin_dir = plugin_dir != NULL ? plugin_dir : JOIND_DEFAULT_PLUGIN_DIR;
	options.state_dir = state_dir != NULL ? state_dir : JOIND_DEFAULT_STATE_DIR;
	options.config_path = config_path != NULL ? config_path : JOIND_DEFAULT_CONFIG;
	options.enable_plugins = enable;
	options.disable_plugins = disable;
	if (dump_config)
		return dump_config_reference(&options);
	return run(&options, session);
}
