/* joinctl-known.c - `joinctl known-networks list|show NAME|forget NAME|
 * set-autoconnect NAME yes|no|trust NAME` (net.joind.KnownNetwork1
 * objects; trust: joinctl-trust.c).
 */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

static const JoinctlField known_fields[] = {
        {"path", N_("Path")},
        {"type", N_("Security")},
        {"hidden", N_("Hidden")},
        {"autoconnect", N_("Autoconnect")},
        {"last_connected_time", N_("Last connected")},
        {"source", N_("Source")},
        {"profile_error", N_("Profile error")},
        {"client_key", N_("Client key")},
        {NULL, NULL},
};

static int
known_list(JoinctlContext *ctx)
{
	g_autolist(GObject) objects = joinctl_objects_sorted(ctx);
	g_autoptr(JsonArray) array = json_array_new();
	g_autoptr(JoinctlTable) table =
	        joinctl_table_new(6, _("NAME"), _("SECURITY"), _("HIDDEN"), _("AUTOCONNECT"),
	                          _("LAST CONNECTED"), _("SOURCE"));

	for (GList *l = objects; l != NULL; l = l->next) {
		JsonNode *node;
		JsonObject *k;
		g_autofree gchar *hidden = NULL;
		g_autofree gchar *autoconnect = NULL;
		g_autofree gchar *last = NULL;

		if (joind_dbus_object_peek_known_network1(l->data) == NULL)
			continue;
		node = joinctl_describe_known(ctx, l->data);
		k = json_node_get_object(node);
		hidden = joinctl_json_member_text(k, "hidden");
		autoconnect = joinctl_json_member_text(k, "autoconnect");
		last = joinctl_json_member_text(k, "last_connected_time");
		joinctl_table_add(table, json_object_get_string_member(k, "name"),
		                  json_object_get_string_member(k, "type"), hidden, autoconnect,
		                  last, json_object_get_string_member(k, "source"));
		json_array_add_element(array, node);
	}
	if (ctx->json) {
		g_autoptr(JsonNode) root = json_node_init_array(json_node_alloc(), array);
		joinctl_print_json(root, TRUE);
	} else if (json_array_get_length(array) == 0) {
		printf(_("No known networks.\n"));
	} else {
		joinctl_table_print(table);
	}
	return JOINCTL_EXIT_OK;
}

static gboolean
known_matches(JoinctlContext *ctx, JoindDBusObject *object, const gchar *name)
{
	JoindDBusKnownNetwork1 *k = joind_dbus_object_peek_known_network1(object);

	if (k == NULL)
		return FALSE;
	if (g_str_equal(g_dbus_object_get_object_path(G_DBUS_OBJECT(object)), name))
		return TRUE;
	if (g_strcmp0(joind_dbus_known_network1_get_name(k), name) != 0)
		return FALSE;
	return ctx->type_filter == NULL ||
	       g_strcmp0(joind_dbus_known_network1_get_type_(k), ctx->type_filter) == 0;
}

/* name: an SSID (with --type when several networks share it) or a path. */
static JoindDBusObject *
find_known(JoinctlContext *ctx, const gchar *name, GError **error)
{
	g_autolist(GObject) objects = joinctl_objects_sorted(ctx);
	g_autoptr(GString) types = g_string_new(NULL);
	JoindDBusObject *found = NULL;
	guint count = 0;

	for (GList *l = objects; l != NULL; l = l->next) {
		if (!known_matches(ctx, l->data, name))
			continue;
		found = l->data;
		count++;
		g_string_append_printf(types, "%s%s", types->len ? ", " : "",
		                       joind_dbus_known_network1_get_type_(
		                               joind_dbus_object_peek_known_network1(found)));
	}
	if (count == 1)
		return g_object_ref(found);
	if (count == 0)
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_FOUND,
		            _("no such known network: %s"), name);
	else
		g_set_error(
		        error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		        _("several known networks are called '%s' (%s): choose one with --type"),
		        name, types->str);
	return NULL;
}

static void
print_known(JoinctlContext *ctx, JsonNode *node)
{
	JsonObject *k = json_node_get_object(node);
	g_autofree gchar *key =
	        joinctl_client_key_text(ctx, json_object_get_string_member(k, "path"), NULL, NULL);

	if (key != NULL)
		json_object_set_string_member(k, "client_key", key);

	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return;
	}
	printf(_("Known network '%s'\n"), json_object_get_string_member(k, "name"));
	joinctl_print_fields(k, known_fields);
}

static int
known_forget(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = joinctl_describe_known(ctx, object);
	g_autoptr(GVariant) reply = NULL;

	reply = joinctl_call(ctx, joind_dbus_object_peek_known_network1(object), "Forget", NULL, -1,
	                     &error);
	if (reply == NULL) {
		g_prefix_error(&error, "known-networks forget '%s': ", name);
		return joinctl_report(error);
	}
	if (ctx->json)
		joinctl_print_json(node, TRUE);
	else
		printf(_("Forgot '%s'.\n"), name);
	return JOINCTL_EXIT_OK;
}

static int
known_set_autoconnect(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object,
                      gboolean value)
{
	g_autoptr(GError) error = NULL;
	GDBusProxy *proxy = G_DBUS_PROXY(joind_dbus_object_peek_known_network1(object));
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(JsonNode) node = NULL;

	reply = joinctl_set_property(ctx, proxy, "AutoConnect", g_variant_new_boolean(value),
	                             &error);
	if (reply == NULL) {
		g_prefix_error(&error, "known-networks set-autoconnect '%s': ", name);
		return joinctl_report(error);
	}
	/* The cache follows when PropertiesChanged arrives; report what was set. */
	node = joinctl_describe_known(ctx, object);
	json_object_set_boolean_member(json_node_get_object(node), "autoconnect", value);
	print_known(ctx, node);
	return JOINCTL_EXIT_OK;
}

/* The server certificate joind last saw for this network: its entry of
 * the diagnostics' known_networks (by object path). */
static int
known_trust(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) diag = joinctl_diagnostics(ctx, &error);
	const gchar *path = g_dbus_object_get_object_path(G_DBUS_OBJECT(object));
	g_autofree gchar *what = g_strdup_printf(_("known network '%s'"), name);
	JsonArray *known;

	if (diag == NULL)
		return joinctl_report(error);
	known = joinctl_json_array_member(json_node_get_object(diag), "known_networks");
	for (guint i = 0; known != NULL && i < json_array_get_length(known); i++) {
		JsonObject *k = json_array_get_object_element(known, i);
		if (g_strcmp0(json_object_get_string_member_with_default(k, "path", NULL), path) ==
		    0)
			return joinctl_trust(ctx, what,
			                     joinctl_json_object_member(k, "server_certificate"));
	}
	return joinctl_trust(ctx, what, NULL);
}

static gboolean
parse_yes_no(const gchar *text, gboolean *value)
{
	static const gchar *const yes[] = {"yes", "on", "true", "1", NULL};
	static const gchar *const no[] = {"no", "off", "false", "0", NULL};

	*value = g_strv_contains(yes, text);
	return *value || g_strv_contains(no, text);
}

int
joinctl_cmd_known(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = NULL;
	g_autoptr(JsonNode) node = NULL;
	guint n = g_strv_length(args);
	gboolean list = n == 1 && g_str_equal(args[0], "list");
	gboolean one = n == 2 && (g_str_equal(args[0], "show") || g_str_equal(args[0], "forget") ||
	                          g_str_equal(args[0], "trust"));
	gboolean set = n == 3 && g_str_equal(args[0], "set-autoconnect");
	gboolean value = FALSE;

	if ((!list && !one && !set) || (set && !parse_yes_no(args[2], &value)))
		return joinctl_usage_error(_("usage: joinctl known-networks list | known-networks "
		                             "show|forget|trust NAME | known-networks "
		                             "set-autoconnect NAME yes|no"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	if (list)
		return known_list(ctx);
	object = find_known(ctx, args[1], &error);
	if (object == NULL)
		return joinctl_report(error);
	if (set)
		return known_set_autoconnect(ctx, args[1], object, value);
	if (g_str_equal(args[0], "forget"))
		return known_forget(ctx, args[1], object);
	if (g_str_equal(args[0], "trust"))
		return known_trust(ctx, args[1], object);
	node = joinctl_describe_known(ctx, object);
	print_known(ctx, node);
	return JOINCTL_EXIT_OK;
}
