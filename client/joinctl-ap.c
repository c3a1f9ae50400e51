/* joinctl-ap.c - `joinctl ap DEVICE show|start SSID|start-profile NAME|stop`:
 * a device's access point (AccessPoint1; the device in ap mode, `joinctl
 * device mode DEVICE ap`). The passphrase is read as every secret is
 * (--passphrase-file, --passphrase-from-env, or asked without echo). */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

static const JoinctlField ap_fields[] = {
        {"started", N_("Started")},   {"name", N_("Name")},         {"frequency", N_("Frequency")},
        {"security", N_("Security")}, {"stations", N_("Stations")}, {NULL, NULL},
};

static JsonNode *
describe_ap(JoindDBusAccessPoint1 *ap, const gchar *device)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	const gchar *const *stations = joind_dbus_access_point1_get_stations(ap);

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "device", device);
	json_builder_set_member_name(b, "started");
	json_builder_add_boolean_value(b, joind_dbus_access_point1_get_started(ap));
	joinctl_json_add_string(b, "name", joind_dbus_access_point1_get_name(ap));
	json_builder_set_member_name(b, "frequency");
	json_builder_add_int_value(b, joind_dbus_access_point1_get_frequency(ap));
	joinctl_json_add_string(b, "security", joind_dbus_access_point1_get_security(ap));
	json_builder_set_member_name(b, "stations");
	json_builder_begin_array(b);
	for (guint i = 0; stations != NULL && stations[i] != NULL; i++)
		json_builder_add_string_value(b, stations[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static int
ap_show(JoinctlContext *ctx, JoindDBusAccessPoint1 *ap, const gchar *device)
{
	g_autoptr(JsonNode) node = describe_ap(ap, device);

	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return JOINCTL_EXIT_OK;
	}
	printf(_("Access point on %s\n"), device);
	joinctl_print_fields(json_node_get_object(node), ap_fields);
	return JOINCTL_EXIT_OK;
}

/* The call for args (after DEVICE), NULL with error for a usage error. */
static GVariant *
ap_params(JoinctlContext *ctx, gchar **args, const gchar **method, GError **error)
{
	g_autofree gchar *secret = NULL;
	guint n = g_strv_length(args);

	if (n == 1 && g_str_equal(args[0], "stop")) {
		*method = "Stop";
		return g_variant_new("()");
	}
	if (n == 2 && g_str_equal(args[0], "start-profile")) {
		*method = "StartProfile";
		return g_variant_new("(s)", args[1]);
	}
	if (n != 2 || !g_str_equal(args[0], "start")) {
		g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		                    _("usage: joinctl ap DEVICE show|stop|start SSID|start-profile "
		                      "NAME"));
		return NULL;
	}
	secret = joinctl_profile_secret(ctx, "Passphrase", error);
	if (secret == NULL)
		return NULL;
	*method = "Start";
	return g_variant_new("(ss)", args[1], secret);
}

int
joinctl_cmd_ap(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = NULL;
	g_autoptr(GVariant) reply = NULL;
	JoindDBusAccessPoint1 *ap;
	const gchar *method = NULL;
	GVariant *params;

	if (g_strv_length(args) < 2)
		return joinctl_usage_error(
		        _("usage: joinctl ap DEVICE show|stop|start SSID|start-profile NAME"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	object = joinctl_find_device(ctx, args[0], &error);
	if (object == NULL)
		return joinctl_report(error);
	ap = joind_dbus_object_peek_access_point1(object);
	if (ap == NULL)
		return joinctl_usage_error(_("%s is not in ap mode (joinctl device mode %s ap)"),
		                           args[0], args[0]);
	if (g_str_equal(args[1], "show") && args[2] == NULL)
		return ap_show(ctx, ap, args[0]);
	params = ap_params(ctx, args + 1, &method, &error);
	if (params == NULL)
		return error->domain == G_OPTION_ERROR ? joinctl_usage_error("%s", error->message)
		                                       : joinctl_report(error);
	reply = joinctl_call(ctx, ap, method, params, G_MAXINT, &error);
	if (reply == NULL) {
		g_prefix_error(&error, "ap %s %s: ", args[0], args[1]);
		return joinctl_report(error);
	}
	return ap_show(ctx, ap, args[0]);
}
