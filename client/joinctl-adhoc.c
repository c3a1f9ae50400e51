/* joinctl-adhoc.c - `joinctl adhoc DEVICE show|start SSID|start-open
 * SSID|stop`: a device's ad-hoc network (AdHoc1; the device in ad-hoc mode,
 * `joinctl device mode DEVICE ad-hoc`). The passphrase is read as every
 * secret is (--passphrase-file, --passphrase-from-env, or asked without
 * echo), never from the command line. */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

#define ADHOC_USAGE N_("usage: joinctl adhoc DEVICE show|stop|start SSID|start-open SSID")

static const JoinctlField adhoc_fields[] = {
        {"started", N_("Started")}, {"name", N_("Name")}, {"security", N_("Security")},
        {"peers", N_("Peers")},     {NULL, NULL},
};

static JsonNode *
describe_adhoc(JoindDBusAdHoc1 *adhoc, const gchar *device)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	const gchar *const *peers = joind_dbus_ad_hoc1_get_peers(adhoc);

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "device", device);
	json_builder_set_member_name(b, "started");
	json_builder_add_boolean_value(b, joind_dbus_ad_hoc1_get_started(adhoc));
	joinctl_json_add_string(b, "name", joind_dbus_ad_hoc1_get_name(adhoc));
	joinctl_json_add_string(b, "security", joind_dbus_ad_hoc1_get_security(adhoc));
	json_builder_set_member_name(b, "peers");
	json_builder_begin_array(b);
	for (guint i = 0; peers != NULL && peers[i] != NULL; i++)
		json_builder_add_string_value(b, peers[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static int
adhoc_show(JoinctlContext *ctx, JoindDBusAdHoc1 *adhoc, const gchar *device)
{
	g_autoptr(JsonNode) node = describe_adhoc(adhoc, device);

	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return JOINCTL_EXIT_OK;
	}
	printf(_("Ad-hoc network on %s\n"), device);
	joinctl_print_fields(json_node_get_object(node), adhoc_fields);
	return JOINCTL_EXIT_OK;
}

/* The call for args (after DEVICE), NULL with error for a usage error. */
static GVariant *
adhoc_params(JoinctlContext *ctx, gchar **args, const gchar **method, GError **error)
{
	g_autofree gchar *secret = NULL;
	guint n = g_strv_length(args);

	if (n == 1 && g_str_equal(args[0], "stop")) {
		*method = "Stop";
		return g_variant_new("()");
	}
	if (n == 2 && g_str_equal(args[0], "start-open")) {
		*method = "StartOpen";
		return g_variant_new("(s)", args[1]);
	}
	if (n != 2 || !g_str_equal(args[0], "start")) {
		g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		                    _(ADHOC_USAGE));
		return NULL;
	}
	secret = joinctl_profile_secret(ctx, "Passphrase", error);
	if (secret == NULL)
		return NULL;
	*method = "Start";
	return g_variant_new("(ss)", args[1], secret);
}

int
joinctl_cmd_adhoc(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = NULL;
	g_autoptr(GVariant) reply = NULL;
	JoindDBusAdHoc1 *adhoc;
	const gchar *method = NULL;
	GVariant *params;

	if (g_strv_length(args) < 2)
		return joinctl_usage_error("%s", _(ADHOC_USAGE));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	object = joinctl_find_device(ctx, args[0], &error);
	if (object == NULL)
		return joinctl_report(error);
	adhoc = joind_dbus_object_peek_ad_hoc1(object);
	if (adhoc == NULL)
		return joinctl_usage_error(
		        _("%s is not in ad-hoc mode (joinctl device mode %s ad-hoc)"), args[0],
		        args[0]);
	if (g_str_equal(args[1], "show") && args[2] == NULL)
		return adhoc_show(ctx, adhoc, args[0]);
	params = adhoc_params(ctx, args + 1, &method, &error);
	if (params == NULL)
		return error->domain == G_OPTION_ERROR ? joinctl_usage_error("%s", error->message)
		                                       : joinctl_report(error);
	reply = joinctl_call(ctx, adhoc, method, params, G_MAXINT, &error);
	if (reply == NULL) {
		g_prefix_error(&error, "adhoc %s %s: ", args[0], args[1]);
		return joinctl_report(error);
	}
	return adhoc_show(ctx, adhoc, args[0]);
}
