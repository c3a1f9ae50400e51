/* joinctl-profile.c - `joinctl profile list|show|create|set|unset|delete|
 * validate` (net.joind.ProfileManager1 at /net/joind). A profile is named
 * by its object path, or by its name (an SSID or a wired profile's file
 * name) with --type KIND when several kinds share it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "joinctl.h"

#define PM_IFACE "net.joind.ProfileManager1"

static const gchar *const usage_text =
        N_("usage: joinctl profile list | show PROFILE | delete PROFILE |\n"
           "       create KIND NAME [Group.Key=VALUE | Group.Key]... |\n"
           "       set PROFILE [Group.Key=VALUE | Group.Key]... | unset PROFILE Group.Key... |\n"
           "       validate KIND [Group.Key=VALUE | Group.Key]...\n"
           "KIND is open, psk, 8021x, wired or ap");

static GVariant *
pm_call(JoinctlContext *ctx, const gchar *method, GVariant *params, GError **error)
{
	return joinctl_call_path(ctx, JOINCTL_ROOT_PATH, PM_IFACE, method, params, -1, error);
}

/* A setting for JSON: strings and booleans as they are, bytes (the
 * SSID) in hexadecimal. */
static JsonNode *
setting_json(GVariant *value)
{
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_BYTESTRING)) {
		gsize len = 0;
		const guint8 *data = g_variant_get_fixed_array(value, &len, 1);
		g_autoptr(GString) hex = g_string_new(NULL);

		for (gsize i = 0; i < len; i++)
			g_string_append_printf(hex, "%02x", data[i]);
		return json_node_init_string(json_node_alloc(), hex->str);
	}
	return joinctl_json_from_variant(value);
}

static JsonNode *
describe_profile(const gchar *path, const gchar *kind, const gchar *name, GVariant *settings)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	GVariantIter iter;
	const gchar *key;
	GVariant *value;

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "path", path);
	joinctl_json_add_string(b, "kind", kind);
	joinctl_json_add_string(b, "name", name);
	json_builder_set_member_name(b, "settings");
	json_builder_begin_object(b);
	g_variant_iter_init(&iter, settings);
	while (g_variant_iter_next(&iter, "{&sv}", &key, &value)) {
		json_builder_set_member_name(b, key);
		json_builder_add_value(b, setting_json(value));
		g_variant_unref(value);
	}
	json_builder_end_object(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* Every profile as described, from ListProfiles. */
static JsonArray *
profile_list_all(JoinctlContext *ctx, GError **error)
{
	g_autoptr(GVariant) reply = pm_call(ctx, "ListProfiles", NULL, error);
	g_autoptr(GVariant) list = NULL;
	JsonArray *array;
	GVariantIter iter;
	const gchar *path, *kind, *name;
	GVariant *settings;

	if (reply == NULL)
		return NULL;
	array = json_array_new();
	list = g_variant_get_child_value(reply, 0);
	g_variant_iter_init(&iter, list);
	while (g_variant_iter_next(&iter, "(&o&s&s@a{sv})", &path, &kind, &name, &settings)) {
		json_array_add_element(array, describe_profile(path, kind, name, settings));
		g_variant_unref(settings);
	}
	return array;
}

static gboolean
profile_matches(JoinctlContext *ctx, JsonObject *p, const gchar *wanted)
{
	if (g_str_equal(json_object_get_string_member(p, "path"), wanted))
		return TRUE;
	if (!g_str_equal(json_object_get_string_member(p, "name"), wanted))
		return FALSE;
	return ctx->type_filter == NULL ||
	       g_str_equal(json_object_get_string_member(p, "kind"), ctx->type_filter);
}

/* The description of the one profile wanted names. */
static JsonNode *
profile_find(JoinctlContext *ctx, const gchar *wanted, GError **error)
{
	g_autoptr(JsonArray) all = profile_list_all(ctx, error);
	g_autoptr(GString) kinds = g_string_new(NULL);
	JsonNode *found = NULL;
	guint count = 0;

	for (guint i = 0; all != NULL && i < json_array_get_length(all); i++) {
		JsonObject *p = json_array_get_object_element(all, i);

		if (!profile_matches(ctx, p, wanted))
			continue;
		found = json_array_get_element(all, i);
		count++;
		g_string_append_printf(kinds, "%s%s", kinds->len ? ", " : "",
		                       json_object_get_string_member(p, "kind"));
	}
	if (count == 1)
		return json_node_copy(found);
	if (all == NULL)
		return NULL;
	if (count == 0)
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_FOUND, _("no such profile: %s"),
		            wanted);
	else
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_USAGE,
		            _("several profiles are called '%s' (%s): choose one with --type"),
		            wanted, kinds->str);
	return NULL;
}

static int
profile_list(JoinctlContext *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) all = profile_list_all(ctx, &error);
	g_autoptr(JoinctlTable) table = joinctl_table_new(3, _("NAME"), _("KIND"), _("PATH"));

	if (all == NULL)
		return joinctl_report(error);
	if (ctx->json) {
		g_autoptr(JsonNode) root = json_node_init_array(json_node_alloc(), all);
		joinctl_print_json(root, TRUE);
		return JOINCTL_EXIT_OK;
	}
	for (guint i = 0; i < json_array_get_length(all); i++) {
		JsonObject *p = json_array_get_object_element(all, i);

		joinctl_table_add(table, json_object_get_string_member(p, "name"),
		                  json_object_get_string_member(p, "kind"),
		                  json_object_get_string_member(p, "path"));
	}
	if (json_array_get_length(all) == 0)
		printf(_("No profiles.\n"));
	else
		joinctl_table_print(table);
	return JOINCTL_EXIT_OK;
}

static int
profile_show(JoinctlContext *ctx, JsonNode *node)
{
	static const JoinctlField fields[] = {
	        {"path", N_("Path")},
	        {"kind", N_("Kind")},
	        {NULL, NULL},
	};
	JsonObject *p = json_node_get_object(node);
	JsonObject *settings = json_object_get_object_member(p, "settings");
	g_autoptr(GList) names = json_object_get_members(settings);

	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return JOINCTL_EXIT_OK;
	}
	printf(_("Profile '%s'\n"), json_object_get_string_member(p, "name"));
	joinctl_print_fields(p, fields);
	printf(_("  Settings (secrets are never shown: Has<Key> says one is set)\n"));
	names = g_list_sort(names, (GCompareFunc)g_strcmp0);
	for (GList *l = names; l != NULL; l = l->next) {
		g_autofree gchar *value = joinctl_json_member_text(settings, l->data);

		printf("    %s=%s\n", (const gchar *)l->data, value != NULL ? value : "");
	}
	return JOINCTL_EXIT_OK;
}

static int
profile_create(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) settings = joinctl_profile_settings(ctx, args[0], args + 2, &error);
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariant) none = g_variant_ref_sink(g_variant_new("a{sv}", NULL));
	g_autoptr(JsonNode) node = NULL;
	const gchar *path = NULL;

	if (settings == NULL)
		return joinctl_report(error);
	reply = pm_call(ctx, "CreateProfile",
	                g_variant_new("(ss@a{sv})", args[0], args[1], settings), &error);
	if (reply == NULL) {
		g_prefix_error(&error, "profile create %s '%s': ", args[0], args[1]);
		return joinctl_report(error);
	}
	g_variant_get(reply, "(&o)", &path);
	node = describe_profile(path, args[0], args[1], none);
	if (ctx->json)
		joinctl_print_json(node, TRUE);
	else
		printf(_("Created %s profile '%s' (%s).\n"), args[0], args[1], path);
	return JOINCTL_EXIT_OK;
}

/* set and unset: UpdateProfile with what the arguments say. */
static int
profile_update(JoinctlContext *ctx, JsonNode *node, gboolean unset, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) settings = NULL;
	g_autoptr(GVariant) reply = NULL;
	const gchar *path = json_object_get_string_member(json_node_get_object(node), "path");
	const gchar *const none[] = {NULL};

	settings = unset ? g_variant_ref_sink(g_variant_new("a{sv}", NULL))
	                 : joinctl_profile_settings(ctx, NULL, args, &error);
	if (settings == NULL)
		return joinctl_report(error);
	reply = pm_call(ctx, "UpdateProfile",
	                g_variant_new("(o@a{sv}^as)", path, settings,
	                              unset ? (const gchar *const *)args : none),
	                &error);
	if (reply == NULL) {
		g_prefix_error(&error, "profile %s '%s': ", unset ? "unset" : "set", path);
		return joinctl_report(error);
	}
	if (!ctx->json)
		printf(_("Updated %s.\n"), path);
	else
		joinctl_print_json(node, TRUE);
	return JOINCTL_EXIT_OK;
}

static int
profile_delete(JoinctlContext *ctx, JsonNode *node)
{
	g_autoptr(GError) error = NULL;
	const gchar *path = json_object_get_string_member(json_node_get_object(node), "path");
	g_autoptr(GVariant) reply =
	        pm_call(ctx, "DeleteProfile", g_variant_new("(o)", path), &error);

	if (reply == NULL) {
		g_prefix_error(&error, "profile delete '%s': ", path);
		return joinctl_report(error);
	}
	if (ctx->json)
		joinctl_print_json(node, TRUE);
	else
		printf(_("Deleted %s.\n"), path);
	return JOINCTL_EXIT_OK;
}

/* Exit 0 when the settings would be taken, 2 (invalid) when not. */
static int
profile_validate(JoinctlContext *ctx, const gchar *kind, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) settings = joinctl_profile_settings(ctx, NULL, args, &error);
	g_autoptr(GVariant) reply = NULL;
	g_autofree const gchar **problems = NULL;
	guint n;

	if (settings == NULL)
		return joinctl_report(error);
	reply = pm_call(ctx, "ValidateProfile", g_variant_new("(s@a{sv})", kind, settings), &error);
	if (reply == NULL)
		return joinctl_report(error);
	g_variant_get(reply, "(^a&s)", &problems);
	n = g_strv_length((gchar **)problems);
	if (ctx->json) {
		g_autoptr(JsonNode) node = json_node_alloc();
		g_autoptr(JsonArray) array = json_array_new();

		for (guint i = 0; i < n; i++)
			json_array_add_string_element(array, problems[i]);
		joinctl_print_json(json_node_init_array(node, array), TRUE);
	} else if (n == 0) {
		printf(_("The settings make a valid %s profile.\n"), kind);
	}
	for (guint i = 0; !ctx->json && i < n; i++)
		printf("%s\n", problems[i]);
	return n == 0 ? JOINCTL_EXIT_OK : JOINCTL_EXIT_USAGE;
}

/* Commands that act on one existing profile, named by args[1]. */
static int
profile_on_one(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = profile_find(ctx, args[1], &error);

	if (node == NULL)
		return joinctl_report(error);
	if (g_str_equal(args[0], "show"))
		return profile_show(ctx, node);
	if (g_str_equal(args[0], "delete"))
		return profile_delete(ctx, node);
	return profile_update(ctx, node, g_str_equal(args[0], "unset"), args + 2);
}

int
joinctl_cmd_profile(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	guint n = g_strv_length(args);
	const gchar *cmd = n > 0 ? args[0] : "";
	gboolean one = (n == 2 && (g_str_equal(cmd, "show") || g_str_equal(cmd, "delete"))) ||
	               (n >= 3 && (g_str_equal(cmd, "set") || g_str_equal(cmd, "unset")));

	if (!(n == 1 && g_str_equal(cmd, "list")) && !one &&
	    !(n >= 3 && g_str_equal(cmd, "create")) && !(n >= 2 && g_str_equal(cmd, "validate")))
		return joinctl_usage_error("%s", _(usage_text));
	if (ctx->secrets.passphrase != NULL || ctx->secrets.password != NULL ||
	    ctx->secrets.key_passphrase != NULL)
		return joinctl_usage_error(
		        _("profile commands take no secret from the command line: "
		          "name the key (Security.Passphrase) and joinctl asks, or "
		          "use --passphrase-file or --passphrase-from-env"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	if (g_str_equal(cmd, "list"))
		return profile_list(ctx);
	if (g_str_equal(cmd, "create"))
		return profile_create(ctx, args + 1);
	if (g_str_equal(cmd, "validate"))
		return profile_validate(ctx, args[1], args + 2);
	return profile_on_one(ctx, args);
}
