/* joinctl-hosted.c - a network the device hosts:
 *   `joinctl ap DEVICE show|start SSID|start-profile NAME|stop`, its access
 *   point (AccessPoint1; the device in ap mode, `joinctl device mode DEVICE
 *   ap`);
 *   `joinctl adhoc DEVICE show|start SSID|start-open SSID|stop`, its ad-hoc
 *   network (AdHoc1; `joinctl device mode DEVICE ad-hoc`).
 * The passphrase is read as every secret is (--passphrase-file,
 * --passphrase-from-env, or asked without echo), never from the command
 * line. */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

typedef struct {
	const gchar *command;   /* "ap": in the error of a call */
	const gchar *interface; /* on the device's object */
	const gchar *usage;
	const gchar *mode;  /* the device's Mode for it */
	const gchar *title; /* "Access point": "... on DEVICE" */
	/* The other way to start, with one argument: word and method. */
	const gchar *start_word, *start_method;
	/* The properties shown, in order: each also a property of the proxy. */
	const JoinctlField *fields;
} HostedKind;

static const JoinctlField ap_fields[] = {
        {"started", N_("Started")},   {"name", N_("Name")},         {"frequency", N_("Frequency")},
        {"security", N_("Security")}, {"stations", N_("Stations")}, {NULL, NULL},
};

static const HostedKind ap_kind = {
        .command = "ap",
        .interface = "net.joind.AccessPoint1",
        .usage = N_("usage: joinctl ap DEVICE show|stop|start SSID|start-profile NAME"),
        .mode = "ap",
        .title = N_("Access point"),
        .start_word = "start-profile",
        .start_method = "StartProfile",
        .fields = ap_fields,
};

static const JoinctlField adhoc_fields[] = {
        {"started", N_("Started")}, {"name", N_("Name")}, {"security", N_("Security")},
        {"peers", N_("Peers")},     {NULL, NULL},
};

static const HostedKind adhoc_kind = {
        .command = "adhoc",
        .interface = "net.joind.AdHoc1",
        .usage = N_("usage: joinctl adhoc DEVICE show|stop|start SSID|start-open SSID"),
        .mode = "ad-hoc",
        .title = N_("Ad-hoc network"),
        .start_word = "start-open",
        .start_method = "StartOpen",
        .fields = adhoc_fields,
};

/* One property of the proxy as a JSON member of the same name. */
static void
describe_property(JsonBuilder *b, GObject *proxy, const gchar *name)
{
	g_auto(GValue) value = G_VALUE_INIT;
	const gchar *const *list;

	g_object_get_property(proxy, name, &value);
	json_builder_set_member_name(b, name);
	if (G_VALUE_HOLDS_BOOLEAN(&value)) {
		json_builder_add_boolean_value(b, g_value_get_boolean(&value));
	} else if (G_VALUE_HOLDS_UINT(&value)) {
		json_builder_add_int_value(b, g_value_get_uint(&value));
	} else if (G_VALUE_HOLDS_STRING(&value)) {
		const gchar *s = g_value_get_string(&value);

		json_builder_add_string_value(b, s != NULL ? s : "");
	} else { /* the members: a GStrv of addresses */
		list = g_value_get_boxed(&value);
		json_builder_begin_array(b);
		for (guint i = 0; list != NULL && list[i] != NULL; i++)
			json_builder_add_string_value(b, list[i]);
		json_builder_end_array(b);
	}
}

static JsonNode *
describe_hosted(const HostedKind *kind, GDBusInterface *proxy, const gchar *device)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "device", device);
	for (const JoinctlField *f = kind->fields; f->key != NULL; f++)
		describe_property(b, G_OBJECT(proxy), f->key);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static int
hosted_show(JoinctlContext *ctx, const HostedKind *kind, GDBusInterface *proxy, const gchar *device)
{
	g_autoptr(JsonNode) node = describe_hosted(kind, proxy, device);

	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return JOINCTL_EXIT_OK;
	}
	printf(_("%s on %s\n"), _(kind->title), device);
	joinctl_print_fields(json_node_get_object(node), kind->fields);
	return JOINCTL_EXIT_OK;
}

/* The call for args (after DEVICE), NULL with error for a usage error. */
static GVariant *
hosted_params(JoinctlContext *ctx, const HostedKind *kind, gchar **args, const gchar **method,
              GError **error)
{
	g_autofree gchar *secret = NULL;
	guint n = g_strv_length(args);

	if (n == 1 && g_str_equal(args[0], "stop")) {
		*method = "Stop";
		return g_variant_new("()");
	}
	if (n == 2 && g_str_equal(args[0], kind->start_word)) {
		*method = kind->start_method;
		return g_variant_new("(s)", args[1]);
	}
	if (n != 2 || !g_str_equal(args[0], "start")) {
		g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		                    _(kind->usage));
		return NULL;
	}
	secret = joinctl_profile_secret(ctx, "Passphrase", error);
	if (secret == NULL)
		return NULL;
	*method = "Start";
	return g_variant_new("(ss)", args[1], secret);
}

static int
hosted_command(JoinctlContext *ctx, const HostedKind *kind, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = NULL;
	g_autoptr(GDBusInterface) proxy = NULL;
	g_autoptr(GVariant) reply = NULL;
	const gchar *method = NULL;
	GVariant *params;

	if (g_strv_length(args) < 2)
		return joinctl_usage_error("%s", _(kind->usage));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	object = joinctl_find_device(ctx, args[0], &error);
	if (object == NULL)
		return joinctl_report(error);
	proxy = g_dbus_object_get_interface(G_DBUS_OBJECT(object), kind->interface);
	if (proxy == NULL)
		return joinctl_usage_error(_("%s is not in %s mode (joinctl device mode %s %s)"),
		                           args[0], kind->mode, args[0], kind->mode);
	if (g_str_equal(args[1], "show") && args[2] == NULL)
		return hosted_show(ctx, kind, proxy, args[0]);
	params = hosted_params(ctx, kind, args + 1, &method, &error);
	if (params == NULL)
		return error->domain == G_OPTION_ERROR ? joinctl_usage_error("%s", error->message)
		                                       : joinctl_report(error);
	reply = joinctl_call(ctx, proxy, method, params, G_MAXINT, &error);
	if (reply == NULL) {
		g_prefix_error(&error, "%s %s %s: ", kind->command, args[0], args[1]);
		return joinctl_report(error);
	}
	return hosted_show(ctx, kind, proxy, args[0]);
}

int
joinctl_cmd_ap(JoinctlContext *ctx, gchar **args)
{
	return hosted_command(ctx, &ap_kind, args);
}

int
joinctl_cmd_adhoc(JoinctlContext *ctx, gchar **args)
{
	return hosted_command(ctx, &adhoc_kind, args);
}
