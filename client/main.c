/* main.c - joinctl: the command-line client of joind. Options, the command
 * table, signals, and the help text that documents commands, JSON keys and
 * exit codes (also in joinctl(1)).
 */
#include "config.h"

#include <glib-unix.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "joinctl.h"

static const struct {
	const gchar *name;
	int (*run)(JoinctlContext *ctx, gchar **args);
	gboolean runs_until_signal; /* SIGINT/SIGTERM is how it normally ends */
} commands[] = {
        {"daemon", joinctl_cmd_daemon, FALSE},   {"device", joinctl_cmd_device, FALSE},
        {"monitor", joinctl_cmd_monitor, TRUE},  {"wired", joinctl_cmd_wired, FALSE},
        {"station", joinctl_cmd_station, FALSE}, {"known-networks", joinctl_cmd_known, FALSE},
        {"agent", joinctl_cmd_agent, TRUE},      {"profile", joinctl_cmd_profile, FALSE},
        {"import", joinctl_cmd_import, FALSE},   {"ap", joinctl_cmd_ap, FALSE},
        {"adhoc", joinctl_cmd_adhoc, FALSE},
};

static const gchar *help_commands =
        N_("Commands:\n"
           "  daemon info                      joind's version and plugins\n"
           "  daemon diagnostics               joind's diagnostics document (JSON)\n"
           "  device list                      devices joind manages\n"
           "  device show DEVICE               one device, with its 802.1X port or station\n"
           "  device mode DEVICE station|ap|ad-hoc\n"
           "                                   switch a WiFi interface (ap: an access point,\n"
           "                                   ad-hoc: an IBSS)\n"
           "  ap DEVICE show|stop              the access point of a device in ap mode\n"
           "  ap DEVICE start SSID             start it (WPA2/WPA3; the passphrase is asked)\n"
           "  ap DEVICE start-profile NAME     start what <state dir>/ap/NAME.ap says\n"
           "  adhoc DEVICE show|stop           the ad-hoc network of a device in ad-hoc mode\n"
           "  adhoc DEVICE start SSID          join or start an RSN IBSS (WPA2-PSK; the\n"
           "                                   passphrase is asked)\n"
           "  adhoc DEVICE start-open SSID     join or start an open IBSS\n"
           "  monitor                          objects and properties as they appear, change and\n"
           "                                   vanish, until Ctrl-C (waits for joind)\n"
           "  wired list                       802.1X ports\n"
           "  wired show|reauth|logoff DEVICE  one port; authenticate again; send EAPOL-Logoff\n"
           "  wired trust DEVICE [--yes]       pin the server certificate the port was shown\n"
           "  station list                     WiFi stations\n"
           "  station DEVICE scan|get-networks|show|disconnect\n"
           "  station DEVICE connect SSID [--passphrase P] [--type T]\n"
           "  station DEVICE connect-hidden SSID [--passphrase P]\n"
           "  station DEVICE roam BSSID        move to another access point of the network\n"
           "  known-networks list|show NAME|forget NAME|set-autoconnect NAME yes|no\n"
           "  known-networks trust NAME [--yes]  pin the server certificate NAME was shown\n"
           "  agent                            answer joind's secret requests until Ctrl-C\n"
           "  profile list|show PROFILE|delete PROFILE\n"
           "  profile create KIND NAME [SETTING...]   KIND: open, psk, 8021x, wired, ap\n"
           "  profile set PROFILE SETTING...|unset PROFILE Group.Key...\n"
           "  profile validate KIND [SETTING...]\n"
           "  import FILE.eap-config [Match.Interface=GLOB...] [--username U] [--replace]\n"
           "                                   an eduroam CAT / geteduroam profile: one 8021x\n"
           "                                   profile per SSID, a wired one for IEEE 802.3\n"
           "\n"
           "DEVICE is an interface name or a device object path. connect and wired reauth\n"
           "answer joind's secret requests themselves: from --passphrase, --key-passphrase,\n"
           "--username and --password, or by asking on the terminal without echo.\n"
           "\n"
           "PROFILE is a profile's object path or name (--type KIND picks one of several).\n"
           "SETTING is Group.Key=VALUE (Security.EAP-Method=TLS), or for a secret\n"
           "(Security.Passphrase, EAP-*-Password, ...) Group.Key alone: joinctl asks\n"
           "without echo, or reads --passphrase-file FILE or --passphrase-from-env VAR;\n"
           "secrets are never taken from the command line. --embed Group.Key=FILE\n"
           "embeds a PEM file; --ssid-hex HEX gives an SSID that is not UTF-8.\n"
           "import asks for the user name (or takes --username) and the password\n"
           "without echo (or --passphrase-file, --passphrase-from-env); --replace\n"
           "rewrites profiles of the same names.\n"
           "\n"
           "JSON (--json; keys are stable, see joinctl(1)):\n"
           "  device:  path ifindex name address kind powered state plugin mode interfaces\n"
           "  ap:      device started name frequency security stations\n"
           "  adhoc:   device started name security peers\n"
           "           (device show adds wired and station, null when absent)\n"
           "  wired:   device path state profile eap_method identity last_error\n"
           "  station: device path state scanning connected_network connected_network_path\n"
           "           (station show adds connection and diagnostics)\n"
           "  trust:   certificate{subject issuer not_before not_after pin pin_setting ...}\n"
           "           profile setting pinned\n"
           "  network: path name type signal_dbm strength connected known known_network device\n"
           "  known:   path name type hidden autoconnect last_connected_time source\n"
           "  profile: path kind name settings{Group.Key: value, Group.HasKey: true}\n"
           "           (validate: an array of problems; exit 2 when there are any)\n"
           "  import:  provider display_name method profiles[path kind name replaced]\n"
           "  daemon:  version bus unique_name plugins[name description state detail]\n"
           "  monitor: one object per line: time event path interface properties invalidated\n"
           "           unique_name; event is added, changed, removed, daemon-started or\n"
           "           daemon-stopped\n"
           "  agent:   one object per line: event target detail\n"
           "Lists are arrays; unset values are null. Errors go to stderr as text.\n"
           "\n"
           "Exit status:\n"
           "  0 success                      6 permission denied\n"
           "  1 failure reported by joind    7 authentication failed\n"
           "  2 usage error, invalid args    8 no agent to ask for a secret\n"
           "  3 joind is not running         9 aborted by joind or the agent\n"
           "  4 no such object              10 busy\n"
           "  5 not supported by joind or the device\n"
           "\n"
           "Environment: JOINCTL_BUS=session|system chooses the bus (as --session does).\n");

static JoinctlContext *signal_ctx;

static void
interrupt(gint signum)
{
	if (signal_ctx->interrupted_by == 0)
		signal_ctx->interrupted_by = signum;
	g_cancellable_cancel(signal_ctx->cancellable);
}

static gboolean
on_sigint(gpointer user_data)
{
	interrupt(SIGINT);
	return G_SOURCE_CONTINUE;
}

static gboolean
on_sigterm(gpointer user_data)
{
	interrupt(SIGTERM);
	return G_SOURCE_CONTINUE;
}

/* A command cut short by SIGINT/SIGTERM has cleaned up (agent unregistered,
 * terminal restored); now it dies of that signal, so that a calling shell
 * knows it was interrupted and stops too. monitor and agent end normally. */
static int
finish(JoinctlContext *ctx, int code, gboolean runs_until_signal)
{
	gint signum = ctx->interrupted_by;

	joinctl_context_clear(ctx);
	if (signum != 0 && !runs_until_signal) {
		fflush(stdout);
		signal(signum, SIG_DFL);
		raise(signum);
	}
	return code;
}

/* Secrets given as arguments are wiped from argv so that they do not stay
 * readable in /proc/<pid>/cmdline any longer than needed. */
static void
wipe_secret_args(gchar **argv_copy, gint argc)
{
	static const gchar *const opts[] = {"--passphrase", "--key-passphrase", "--password", NULL};

	for (gint i = 1; i < argc; i++) {
		for (guint o = 0; opts[o] != NULL; o++) {
			gsize len = strlen(opts[o]);
			if (g_str_equal(argv_copy[i], opts[o]) && i + 1 < argc)
				explicit_bzero(argv_copy[i + 1], strlen(argv_copy[i + 1]));
			else if (strncmp(argv_copy[i], opts[o], len) == 0 &&
			         argv_copy[i][len] == '=')
				explicit_bzero(argv_copy[i] + len + 1,
				               strlen(argv_copy[i] + len + 1));
		}
	}
}

static gboolean
choose_bus(JoinctlContext *ctx, gboolean session, GError **error)
{
	const gchar *env = g_getenv("JOINCTL_BUS");

	ctx->bus_type = G_BUS_TYPE_SYSTEM;
	if (session || g_strcmp0(env, "session") == 0)
		ctx->bus_type = G_BUS_TYPE_SESSION;
	else if (env != NULL && *env != '\0' && g_strcmp0(env, "system") != 0) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("JOINCTL_BUS must be 'session' or 'system', not '%s'"), env);
		return FALSE;
	}
	return TRUE;
}

typedef struct {
	gboolean json;
	gboolean session;
	gboolean version;
	gboolean yes;
	gchar *type;
	gchar *passphrase;
	gchar *key_passphrase;
	gchar *username;
	gchar *password;
	JoinctlProfileOptions profile;
} Options;

static GOptionContext *
make_option_context(Options *o)
{
	const GOptionEntry entries[] = {
	        {"json", 'j', 0, G_OPTION_ARG_NONE, &o->json, N_("Print JSON"), NULL},
	        {"session", 0, 0, G_OPTION_ARG_NONE, &o->session,
	         N_("Talk to joind on the session bus (tests)"), NULL},
	        {"type", 't', 0, G_OPTION_ARG_STRING, &o->type,
	         N_("Network security type: open, psk, sae, 8021x, owe, wep"), N_("TYPE")},
	        {"passphrase", 0, 0, G_OPTION_ARG_STRING, &o->passphrase,
	         N_("Network passphrase for joind's request"), N_("P")},
	        {"key-passphrase", 0, 0, G_OPTION_ARG_STRING, &o->key_passphrase,
	         N_("Private key passphrase for joind's request"), N_("P")},
	        {"username", 0, 0, G_OPTION_ARG_STRING, &o->username,
	         N_("User name for joind's request"), N_("USER")},
	        {"password", 0, 0, G_OPTION_ARG_STRING, &o->password,
	         N_("Password for joind's request"), N_("P")},
	        {"passphrase-file", 0, 0, G_OPTION_ARG_FILENAME, &o->profile.passphrase_file,
	         N_("profile: read secrets from the first line of FILE"), N_("FILE")},
	        {"passphrase-from-env", 0, 0, G_OPTION_ARG_STRING, &o->profile.passphrase_env,
	         N_("profile: read secrets from the environment variable VAR"), N_("VAR")},
	        {"embed", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->profile.embed,
	         N_("profile: embed FILE (PEM) as the value of Group.Key"), N_("Group.Key=FILE")},
	        {"ssid-hex", 0, 0, G_OPTION_ARG_STRING, &o->profile.ssid_hex,
	         N_("profile: the SSID's bytes in hexadecimal"), N_("HEX")},
	        {"replace", 0, 0, G_OPTION_ARG_NONE, &o->profile.replace,
	         N_("import: rewrite profiles that exist"), NULL},
	        {"yes", 'y', 0, G_OPTION_ARG_NONE, &o->yes,
	         N_("trust: pin the server without asking for confirmation"), NULL},
	        {"version", 0, 0, G_OPTION_ARG_NONE, &o->version, N_("Print the version"), NULL},
	        {NULL},
	};
	GOptionContext *context = g_option_context_new(_("COMMAND [ARGUMENTS...]"));

	g_option_context_set_summary(context, _("Ask joind about its devices and networks, and "
	                                        "tell it what to join."));
	g_option_context_set_description(context, _(help_commands));
	g_option_context_add_main_entries(context, entries, GETTEXT_PACKAGE);
	g_option_context_set_translation_domain(context, GETTEXT_PACKAGE);
	return context;
}

/* The command is looked up before anything else starts: a usage error then
 * exits before GLib's signal worker thread exists. */
static gint
find_command(gint argc, gchar **argv)
{
	for (gsize i = 0; argc >= 2 && i < G_N_ELEMENTS(commands); i++) {
		if (g_str_equal(argv[1], commands[i].name))
			return (gint)i;
	}
	return -1;
}

static int
run_command(JoinctlContext *ctx, gint argc, gchar **argv)
{
	gint i = find_command(argc, argv);

	if (argc < 2)
		return finish(ctx, joinctl_usage_error(_("no command given")), FALSE);
	if (i < 0)
		return finish(ctx, joinctl_usage_error(_("unknown command '%s'"), argv[1]), FALSE);
	ctx->cancellable = g_cancellable_new();
	signal_ctx = ctx;
	g_unix_signal_add(SIGINT, on_sigint, NULL);
	g_unix_signal_add(SIGTERM, on_sigterm, NULL);
	return finish(ctx, commands[i].run(ctx, argv + 2), commands[i].runs_until_signal);
}

static void
take_options(JoinctlContext *ctx, Options *o)
{
	ctx->json = o->json;
	ctx->assume_yes = o->yes;
	ctx->type_filter = g_steal_pointer(&o->type);
	ctx->secrets.passphrase = g_steal_pointer(&o->passphrase);
	ctx->secrets.key_passphrase = g_steal_pointer(&o->key_passphrase);
	ctx->secrets.username = g_steal_pointer(&o->username);
	ctx->secrets.password = g_steal_pointer(&o->password);
	ctx->profile = o->profile;
	memset(&o->profile, 0, sizeof(o->profile));
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) options = NULL;
	g_autofree gchar **argv_copy = g_memdup2(argv, sizeof(gchar *) * (argc + 1));
	JoinctlContext ctx = {0};
	Options o = {0};

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	options = make_option_context(&o);
	if (!g_option_context_parse(options, &argc, &argv, &error))
		return joinctl_usage_error("%s", error->message);
	wipe_secret_args(argv_copy, g_strv_length(argv_copy));
	if (o.version) {
		printf("joinctl %s\n", PACKAGE_VERSION);
		return JOINCTL_EXIT_OK;
	}
	take_options(&ctx, &o);
	if (!choose_bus(&ctx, o.session, &error))
		return joinctl_usage_error("%s", error->message);
	return run_command(&ctx, argc, argv);
}
