/* joinctl-daemon.c - `joinctl daemon info|diagnostics`. */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

static JsonNode *
describe_daemon(JoinctlContext *ctx, JoindDBusDaemon1 *daemon)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree gchar *owner = g_dbus_object_manager_client_get_name_owner(
	        G_DBUS_OBJECT_MANAGER_CLIENT(ctx->manager));
	GVariant *plugins = joind_dbus_daemon1_get_plugins(daemon);
	GVariantIter iter;
	const gchar *name, *description, *state, *detail;

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "version", joind_dbus_daemon1_get_version(daemon));
	joinctl_json_add_string(b, "bus",
	                        ctx->bus_type == G_BUS_TYPE_SESSION ? "session" : "system");
	joinctl_json_add_string(b, "unique_name", owner);
	json_builder_set_member_name(b, "plugins");
	json_builder_begin_array(b);
	if (plugins != NULL) {
		g_variant_iter_init(&iter, plugins);
		while (g_variant_iter_next(&iter, "(&s&s&s&s)", &name, &description, &state,
		                           &detail)) {
			json_builder_begin_object(b);
			joinctl_json_add_string(b, "name", name);
			joinctl_json_add_string(b, "description", description);
			joinctl_json_add_string(b, "state", state);
			joinctl_json_add_string(b, "detail", detail);
			json_builder_end_object(b);
		}
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static void
print_daemon(JsonObject *info)
{
	JsonArray *plugins = json_object_get_array_member(info, "plugins");
	g_autoptr(JoinctlTable) table =
	        joinctl_table_new(4, _("PLUGIN"), _("STATE"), _("DESCRIPTION"), _("DETAIL"));

	printf(_("joind %s (%s on the %s bus)\n"), json_object_get_string_member(info, "version"),
	       json_object_get_string_member(info, "unique_name"),
	       json_object_get_string_member(info, "bus"));
	for (guint i = 0; i < json_array_get_length(plugins); i++) {
		JsonObject *p = json_array_get_object_element(plugins, i);
		joinctl_table_add(table, json_object_get_string_member(p, "name"),
		                  json_object_get_string_member(p, "state"),
		                  json_object_get_string_member(p, "description"),
		                  json_object_get_string_member(p, "detail"));
	}
	if (json_array_get_length(plugins) == 0)
		printf(_("No plugins.\n"));
	else
		joinctl_table_print(table);
}

static int
daemon_info(JoinctlContext *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusDaemon1) daemon = NULL;
	g_autoptr(JsonNode) info = NULL;

	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	daemon = joinctl_daemon_proxy(ctx, &error);
	if (daemon == NULL) {
		g_prefix_error(&error, "daemon: ");
		return joinctl_report(error);
	}
	info = describe_daemon(ctx, daemon);
	if (ctx->json)
		joinctl_print_json(info, TRUE);
	else
		print_daemon(json_node_get_object(info));
	return JOINCTL_EXIT_OK;
}

/* The daemon's own JSON document, re-indented; checked to be JSON. */
static int
daemon_diagnostics(JoinctlContext *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) document = NULL;

	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	document = joinctl_diagnostics(ctx, &error);
	if (document == NULL) {
		g_prefix_error(&error, _("daemon diagnostics: "));
		return joinctl_report(error);
	}
	joinctl_print_json(document, TRUE);
	return JOINCTL_EXIT_OK;
}

int
joinctl_cmd_daemon(JoinctlContext *ctx, gchar **args)
{
	guint n = g_strv_length(args);

	if (n == 1 && g_str_equal(args[0], "info"))
		return daemon_info(ctx);
	if (n == 1 && g_str_equal(args[0], "diagnostics"))
		return daemon_diagnostics(ctx);
	return joinctl_usage_error(_("usage: joinctl daemon info|diagnostics"));
}
