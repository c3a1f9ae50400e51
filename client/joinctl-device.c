/* joinctl-device.c - `joinctl device list|show NAME|mode NAME MODE`. */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

static const JoinctlField device_fields[] = {
        {"path", N_("Path")},
        {"ifindex", N_("Interface index")},
        {"address", N_("Address")},
        {"kind", N_("Kind")},
        {"state", N_("State")},
        {"powered", N_("Powered")},
        {"plugin", N_("Plugin")},
        {"mode", N_("Mode")},
        {"interfaces", N_("Interfaces")},
        {NULL, NULL},
};

static const JoinctlField port_fields[] = {
        {"state", N_("State")},
        {"profile", N_("Profile")},
        {"eap_method", N_("EAP method")},
        {"identity", N_("Identity")},
        {"last_error", N_("Last error")},
        {"profile_error", N_("Profile error")},
        {NULL, NULL},
};

static const JoinctlField station_fields[] = {
        {"state", N_("State")},
        {"scanning", N_("Scanning")},
        {"connected_network", N_("Connected network")},
        {NULL, NULL},
};

static int
device_list(JoinctlContext *ctx)
{
	g_autolist(GObject) objects = joinctl_objects_sorted(ctx);
	g_autoptr(JsonArray) array = json_array_new();
	g_autoptr(JoinctlTable) table = joinctl_table_new(6, _("NAME"), _("KIND"), _("STATE"),
	                                                  _("POWERED"), _("ADDRESS"), _("PLUGIN"));

	for (GList *l = objects; l != NULL; l = l->next) {
		JsonNode *node;
		JsonObject *d;
		g_autofree gchar *powered = NULL;

		if (joind_dbus_object_peek_device1(l->data) == NULL)
			continue;
		node = joinctl_describe_device(ctx, l->data);
		d = json_node_get_object(node);
		powered = joinctl_json_member_text(d, "powered");
		joinctl_table_add(table, json_object_get_string_member(d, "name"),
		                  json_object_get_string_member(d, "kind"),
		                  json_object_get_string_member(d, "state"), powered,
		                  json_object_get_string_member(d, "address"),
		                  json_object_get_string_member(d, "plugin"));
		json_array_add_element(array, node);
	}
	if (ctx->json) {
		g_autoptr(JsonNode) root = json_node_init_array(json_node_alloc(), array);
		joinctl_print_json(root, TRUE);
	} else if (json_array_get_length(array) == 0) {
		printf(_("No devices.\n"));
	} else {
		joinctl_table_print(table);
	}
	return JOINCTL_EXIT_OK;
}

/* The device, plus "wired" and "station" objects (null when the device has
 * no such interface). */
static JsonNode *
describe_device_full(JoinctlContext *ctx, JoindDBusObject *object)
{
	JsonNode *node = joinctl_describe_device(ctx, object);
	JsonObject *d = json_node_get_object(node);

	if (joind_dbus_object_peek_port8021x1(object) != NULL)
		json_object_set_member(d, "wired", joinctl_describe_port(ctx, object));
	else
		json_object_set_null_member(d, "wired");
	if (joind_dbus_object_peek_station1(object) != NULL)
		json_object_set_member(d, "station", joinctl_describe_station(ctx, object));
	else
		json_object_set_null_member(d, "station");
	return node;
}

static int
device_show(JoinctlContext *ctx, const gchar *name)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = joinctl_find_device(ctx, name, &error);
	g_autoptr(JsonNode) node = NULL;
	JsonObject *d;

	if (object == NULL)
		return joinctl_report(error);
	node = describe_device_full(ctx, object);
	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return JOINCTL_EXIT_OK;
	}
	d = json_node_get_object(node);
	printf(_("Device %s\n"), json_object_get_string_member(d, "name"));
	joinctl_print_fields(d, device_fields);
	if (!json_object_get_null_member(d, "wired")) {
		printf(_("802.1X port\n"));
		joinctl_print_fields(json_object_get_object_member(d, "wired"), port_fields);
	}
	if (!json_object_get_null_member(d, "station")) {
		printf(_("WiFi station\n"));
		joinctl_print_fields(json_object_get_object_member(d, "station"), station_fields);
	}
	return JOINCTL_EXIT_OK;
}

/* Device1.Mode: answered once the interface runs in mode. */
static int
device_mode(JoinctlContext *ctx, const gchar *name, const gchar *mode)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = joinctl_find_device(ctx, name, &error);
	g_autoptr(GVariant) reply = NULL;

	if (object == NULL)
		return joinctl_report(error);
	reply = joinctl_set_property(ctx, joind_dbus_object_peek_device1(object), "Mode",
	                             g_variant_new_string(mode), &error);
	if (reply == NULL) {
		g_prefix_error(&error, "device mode %s %s: ", name, mode);
		return joinctl_report(error);
	}
	return device_show(ctx, name);
}

int
joinctl_cmd_device(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	guint n = g_strv_length(args);
	gboolean list = n == 1 && g_str_equal(args[0], "list");
	gboolean show = n == 2 && g_str_equal(args[0], "show");
	gboolean mode = n == 3 && g_str_equal(args[0], "mode");

	if (!list && !show && !mode)
		return joinctl_usage_error(_("usage: joinctl device list | device show NAME | "
		                             "device mode NAME station|ap|ad-hoc"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	if (mode)
		return device_mode(ctx, args[1], args[2]);
	return list ? device_list(ctx) : device_show(ctx, args[1]);
}
