/* joinctl.h - what the parts of joinctl share: the context every command
 * runs in, the exit codes scripts rely on, and the command entry points.
 */
#pragma once

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "joinctl-dbus-generated.h"

G_BEGIN_DECLS

#define JOINCTL_BUS_NAME     "net.joind"
#define JOINCTL_ROOT_PATH    "/net/joind"
#define JOINCTL_AGENT_PATH   "/net/joind/joinctl/agent"
#define JOINCTL_KNOWN_PREFIX "/net/joind/known/"

/* Exit codes: documented in joinctl --help and joinctl(1); never renumber. */
typedef enum {
	JOINCTL_EXIT_OK = 0,
	JOINCTL_EXIT_FAILED = 1,        /* net.joind.Error.Failed and anything unexpected */
	JOINCTL_EXIT_USAGE = 2,         /* bad command line, net.joind.Error.InvalidArgs */
	JOINCTL_EXIT_NOT_RUNNING = 3,   /* no bus, or nobody owns net.joind */
	JOINCTL_EXIT_NOT_FOUND = 4,     /* no such device/network, net.joind.Error.NotFound */
	JOINCTL_EXIT_NOT_SUPPORTED = 5, /* interface missing, net.joind.Error.NotSupported */
	JOINCTL_EXIT_PERMISSION = 6,    /* net.joind.Error.PermissionDenied, bus policy */
	JOINCTL_EXIT_AUTH_FAILED = 7,   /* net.joind.Error.AuthenticationFailed */
	JOINCTL_EXIT_NO_AGENT = 8,      /* net.joind.Error.NoAgent */
	JOINCTL_EXIT_ABORTED = 9,       /* net.joind.Error.Aborted */
	JOINCTL_EXIT_BUSY = 10,         /* net.joind.Error.Busy */
} JoinctlExit;

/* Local errors carry the exit code they map to as their code. */
#define JOINCTL_ERROR (joinctl_error_quark())
GQuark joinctl_error_quark(void);

/* Secrets given on the command line, handed to the built-in agent. */
typedef struct {
	gchar *passphrase;
	gchar *key_passphrase;
	gchar *username;
	gchar *password;
} JoinctlSecrets;

/* What `joinctl profile` takes besides its arguments. */
typedef struct {
	gchar *passphrase_file; /* secrets from this file's first line */
	gchar *passphrase_env;  /* ... or from this environment variable */
	gchar **embed;          /* Group.Key=FILE: FILE's bytes as the value */
	gchar *ssid_hex;        /* Settings.SSID */
	gboolean replace;       /* import: rewrite profiles that exist */
} JoinctlProfileOptions;

typedef struct {
	gboolean json;
	gboolean assume_yes; /* --yes: trust without asking */
	GBusType bus_type;
	gchar *type_filter; /* --type: network security type */
	JoinctlSecrets secrets;
	JoinctlProfileOptions profile;
	GDBusConnection *bus;
	GDBusObjectManager *manager;
	GCancellable *cancellable; /* cancelled by SIGINT/SIGTERM */
	gint interrupted_by;       /* SIGINT or SIGTERM once received, else 0 */
} JoinctlContext;

/* joinctl-context.c: connecting, looking objects up, calling methods. */
gboolean joinctl_context_connect(JoinctlContext *ctx, gboolean need_daemon, GError **error);
void joinctl_context_clear(JoinctlContext *ctx);
const gchar *joinctl_bus_label(JoinctlContext *ctx);
gboolean joinctl_daemon_running(JoinctlContext *ctx);
GList *joinctl_objects_sorted(JoinctlContext *ctx);
JoindDBusObject *joinctl_find_device(JoinctlContext *ctx, const gchar *name, GError **error);
JoindDBusObject *joinctl_object(JoinctlContext *ctx, const gchar *path);
JoindDBusDaemon1 *joinctl_daemon_proxy(JoinctlContext *ctx, GError **error);
JoindDBusAgentManager1 *joinctl_agent_manager_proxy(JoinctlContext *ctx, GError **error);
gchar *joinctl_device_name_for_path(JoinctlContext *ctx, const gchar *path);
GVariant *joinctl_call_path(JoinctlContext *ctx, const gchar *path, const gchar *iface,
                            const gchar *method, GVariant *params, gint timeout_msec,
                            GError **error);
GVariant *joinctl_call(JoinctlContext *ctx, gpointer proxy, const gchar *method, GVariant *params,
                       gint timeout_msec, GError **error);
GVariant *joinctl_set_property(JoinctlContext *ctx, gpointer proxy, const gchar *property,
                               GVariant *value, GError **error);
void joinctl_wait_until(JoinctlContext *ctx, const gboolean *done);
int joinctl_exit_code(const GError *error);
void joinctl_secret_free(gchar *secret);

/* joinctl-client-key.c: "key on token 'LABEL' (PKCS#11)", "key in the
 * TPM", or NULL (a key file, no key, no such profile), for the profile at
 * profile_path or of that kind and name. */
gchar *joinctl_client_key_text(JoinctlContext *ctx, const gchar *profile_path, const gchar *kind,
                               const gchar *name);

/* joinctl-output.c: tables, fields, JSON. */
typedef struct _JoinctlTable JoinctlTable;
JoinctlTable *joinctl_table_new(guint n_columns, ...);
void joinctl_table_add(JoinctlTable *table, ...);
void joinctl_table_print(JoinctlTable *table);
void joinctl_table_free(JoinctlTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoinctlTable, joinctl_table_free)
void joinctl_print_field(const gchar *label, const gchar *value);
void joinctl_print_json(JsonNode *node, gboolean pretty);
/* One member of the object builder is building; NULL is written "". */
void joinctl_json_add_string(JsonBuilder *builder, const gchar *key, const gchar *value);
void joinctl_json_add_bool(JsonBuilder *builder, const gchar *key, gboolean value);
JsonNode *joinctl_json_from_variant(GVariant *value);
JsonNode *joinctl_json_properties(GDBusProxy *proxy);
const gchar *joinctl_yes_no(gboolean value);
typedef struct {
	const gchar *key;   /* member of a description */
	const gchar *label; /* N_("Label") */
} JoinctlField;
gchar *joinctl_json_member_text(JsonObject *object, const gchar *key);
/* A member that is an object (an array), or NULL when object is NULL or the
 * member is absent or something else (borrowed). */
JsonObject *joinctl_json_object_member(JsonObject *object, const gchar *key);
JsonArray *joinctl_json_array_member(JsonObject *object, const gchar *key);
void joinctl_print_fields(JsonObject *object, const JoinctlField *fields);
gchar *joinctl_format_value(GVariant *value);

/* Object descriptions shared by several commands (joinctl-describe.c). */
JsonNode *joinctl_describe_device(JoinctlContext *ctx, JoindDBusObject *object);
JsonNode *joinctl_describe_port(JoinctlContext *ctx, JoindDBusObject *object);
JsonNode *joinctl_describe_station(JoinctlContext *ctx, JoindDBusObject *object);
JsonNode *joinctl_describe_network(JoinctlContext *ctx, JoindDBusObject *object, gint16 strength);
JsonNode *joinctl_describe_known(JoinctlContext *ctx, JoindDBusObject *object);

/* joinctl-agent.c: the built-in agent. */
typedef struct _JoinctlAgent JoinctlAgent;
JoinctlAgent *joinctl_agent_new(JoinctlContext *ctx, gboolean interactive);
gboolean joinctl_agent_register(JoinctlAgent *agent, GError **error);
void joinctl_agent_unregister(JoinctlAgent *agent);
void joinctl_agent_free(JoinctlAgent *agent);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoinctlAgent, joinctl_agent_free)
JoinctlAgent *joinctl_agent_start_for_call(JoinctlContext *ctx);

/* joinctl-prompt.c: reading a line from the terminal, optionally without echo. */
typedef void (*JoinctlPromptFunc)(gchar *line, gpointer user_data);
gboolean joinctl_prompt_available(void);
gboolean joinctl_prompt_start(const gchar *question, gboolean echo, JoinctlPromptFunc func,
                              gpointer user_data);
void joinctl_prompt_cancel(void);
/* Asks question and runs the main loop until the line comes: NULL with
 * error when there is no terminal (saying no_terminal), at the end of input
 * (no value for what) or when interrupted. */
gchar *joinctl_prompt_line(JoinctlContext *ctx, const gchar *question, gboolean echo,
                           const gchar *what, const gchar *no_terminal, GError **error);
gboolean joinctl_prompt_busy(void);

/* joinctl-trust.c: GetDiagnostics' document (a new node, NULL with error),
 * and pinning a server certificate seen (a "server_certificate" object of
 * it, NULL when none was seen) after showing it and asking; what names
 * whose certificate it is ("known network 'eduroam'"). */
JsonNode *joinctl_diagnostics(JoinctlContext *ctx, GError **error);
/* The entry of the device at path (or named name) in
 * Daemon1.GetDiagnostics() ("devices": [...]), which carries its details
 * (the link, the roams); NULL when the daemon has none. */
JsonNode *joinctl_device_diagnostics(JoinctlContext *ctx, const gchar *path, const gchar *name);
int joinctl_trust(JoinctlContext *ctx, const gchar *what, JsonObject *certificate);

/* Commands: each returns an exit code and has printed what went wrong. */
int joinctl_cmd_daemon(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_device(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_monitor(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_wired(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_station(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_known(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_agent(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_profile(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_import(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_ap(JoinctlContext *ctx, gchar **args);
int joinctl_cmd_adhoc(JoinctlContext *ctx, gchar **args);

/* joinctl-profile-settings.c: the a{sv} of ProfileManager1 from args
 * ("Group.Key=VALUE", or "Group.Key" for a secret read without echo) and
 * the profile options; kind "psk" (create) asks for a passphrase when
 * none is named. */
GVariant *joinctl_profile_settings(JoinctlContext *ctx, const gchar *kind, gchar **args,
                                   GError **error);
/* A secret named name: from --passphrase-file, --passphrase-from-env or
 * asked for on the terminal without echo. */
gchar *joinctl_profile_secret(JoinctlContext *ctx, const gchar *name, GError **error);

/* Print "joinctl: <message>" on stderr and return the exit code for error. */
int joinctl_report(const GError *error);
int joinctl_usage_error(const gchar *format, ...) G_GNUC_PRINTF(1, 2);

G_END_DECLS
