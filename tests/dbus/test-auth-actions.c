/* test-auth-actions.c - the gate's tables against the APIs and the polkit
 * actions: every method and writable property of data/net.joind.xml
 * (Agent1 aside, which clients implement) needs an action that
 * data/net.joind.policy defines, every action defined is needed by
 * something, and what an administrator provisioned needs profile.manage
 * where the user's own needs known.modify. The iwd front end's table
 * (plugins/iwd-compat/iwd-auth.c), declared as the plugin declares it,
 * covers every member of the iwd interfaces it names.
 */
#include <gio/gio.h>

#include "iwd-auth.h"
#include "iwd-introspection.h"
#include "joind-auth.h"
#include "joind-error.h"

#define AGENT_IFACE "net.joind.Agent1"

static gchar *
source_path(const gchar *name)
{
	const gchar *root = g_getenv("JOIND_SOURCE_ROOT");

	g_assert_nonnull(root);
	return g_build_filename(root, "data", name, NULL);
}

static void
policy_start_element(GMarkupParseContext *context, const gchar *element,
                     const gchar **attribute_names, const gchar **attribute_values,
                     gpointer user_data, GError **error)
{
	GHashTable *actions = user_data;
	const gchar *id = NULL;

	if (g_strcmp0(element, "action") != 0)
		return;
	g_assert_true(g_markup_collect_attributes(element, attribute_names, attribute_values, error,
	                                          G_MARKUP_COLLECT_STRING, "id", &id,
	                                          G_MARKUP_COLLECT_INVALID));
	g_hash_table_add(actions, g_strdup(id));
}

/* The action ids of data/net.joind.policy. */
static GHashTable *
policy_actions(void)
{
	static const GMarkupParser parser = {.start_element = policy_start_element};
	g_autofree gchar *path = source_path("net.joind.policy");
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	GHashTable *actions = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GMarkupParseContext) context =
	        g_markup_parse_context_new(&parser, G_MARKUP_IGNORE_QUALIFIED, actions, NULL);

	g_assert_true(g_file_get_contents(path, &text, NULL, &error));
	g_assert_no_error(error);
	g_assert_true(g_markup_parse_context_parse(context, text, -1, &error));
	g_assert_true(g_markup_parse_context_end_parse(context, &error));
	g_assert_no_error(error);
	return actions;
}

/* Checks the action member of iface needs, plain and provisioned. */
static void
check_member(GHashTable *defined, GHashTable *used, const gchar *iface, const gchar *member)
{
	for (int admin = 0; admin <= 1; admin++) {
		const gchar *action = joind_auth_action_lookup(iface, member, admin);

		if (action == NULL)
			g_error("%s.%s needs no polkit action", iface, member);
		if (!g_hash_table_contains(defined, action))
			g_error("%s.%s needs %s, which the policy does not define", iface, member,
			        action);
		g_hash_table_add(used, (gpointer)action);
	}
}

static void
test_every_member_has_an_action(void)
{
	g_autofree gchar *path = source_path("net.joind.xml");
	g_autofree gchar *xml = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusNodeInfo) node = NULL;
	g_autoptr(GHashTable) defined = policy_actions();
	g_autoptr(GHashTable) used = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTableIter iter;
	gpointer action;

	g_assert_true(g_file_get_contents(path, &xml, NULL, &error));
	node = g_dbus_node_info_new_for_xml(xml, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(g_hash_table_size(defined), ==, 6);
	for (GDBusInterfaceInfo **i = node->interfaces; *i != NULL; i++) {
		if (g_str_equal((*i)->name, AGENT_IFACE))
			continue;
		for (GDBusMethodInfo **m = (*i)->methods; m != NULL && *m != NULL; m++)
			check_member(defined, used, (*i)->name, (*m)->name);
		for (GDBusPropertyInfo **p = (*i)->properties; p != NULL && *p != NULL; p++) {
			if ((*p)->flags & G_DBUS_PROPERTY_INFO_FLAGS_WRITABLE)
				check_member(defined, used, (*i)->name, (*p)->name);
		}
	}
	g_hash_table_iter_init(&iter, defined);
	while (g_hash_table_iter_next(&iter, &action, NULL)) {
		if (!g_hash_table_contains(used, action))
			g_error("the policy defines %s, which nothing needs",
			        (const gchar *)action);
	}
}

static void
test_actions(void)
{
	static const struct {
		const gchar *iface, *member;
		gboolean admin;
		const gchar *action;
	} cases[] = {
	        {"net.joind.Network1", "Connect", FALSE, JOIND_AUTH_ACTION_CONNECT},
	        {"net.joind.Station1", "Scan", TRUE, JOIND_AUTH_ACTION_CONNECT},
	        {"net.joind.Port8021x1", "Logoff", FALSE, JOIND_AUTH_ACTION_WIRED},
	        {"net.joind.AgentManager1", "RegisterAgent", FALSE, JOIND_AUTH_ACTION_AGENT},
	        {"net.joind.KnownNetwork1", "Forget", FALSE, JOIND_AUTH_ACTION_KNOWN},
	        {"net.joind.KnownNetwork1", "Forget", TRUE, JOIND_AUTH_ACTION_PROFILE},
	        {"net.joind.KnownNetwork1", "AutoConnect", FALSE, JOIND_AUTH_ACTION_KNOWN},
	        {"net.joind.KnownNetwork1", "AutoConnect", TRUE, JOIND_AUTH_ACTION_PROFILE},
	        /* Every member of an interface one rule covers. */
	        {"net.joind.ProfileManager1", "CreateProfile", FALSE, JOIND_AUTH_ACTION_PROFILE},
	        /* Running an access point, as NetworkManager's wifi.share. */
	        {"net.joind.Device1", "Mode", FALSE, JOIND_AUTH_ACTION_HOTSPOT},
	        {"net.joind.AccessPoint1", "Start", FALSE, JOIND_AUTH_ACTION_HOTSPOT},
	        {"net.joind.AccessPoint1", "Stop", TRUE, JOIND_AUTH_ACTION_HOTSPOT},
	        /* And an ad-hoc network. */
	        {"net.joind.AdHoc1", "StartOpen", FALSE, JOIND_AUTH_ACTION_HOTSPOT},
	        {"net.joind.AdHoc1", "Stop", TRUE, JOIND_AUTH_ACTION_HOTSPOT},
	        {"net.joind.Device1", "Powered", FALSE, NULL},
	        /* Not on the API: refused. */
	        {"net.joind.KnownNetwork1", "Name", FALSE, NULL},
	        {"net.joind.Station1", "Frobnicate", FALSE, NULL},
	        {"org.example.Other1", "Connect", FALSE, NULL},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++)
		g_assert_cmpstr(
		        joind_auth_action_lookup(cases[i].iface, cases[i].member, cases[i].admin),
		        ==, cases[i].action);
}

/* Every method and writable property of each iwd interface the table
 * names needs an action the policy defines. */
static void
test_iwd_rules(void)
{
	g_autoptr(GHashTable) defined = policy_actions();
	g_autoptr(GHashTable) used = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GError) error = NULL;

	g_assert_null(joind_auth_action_lookup("net.connman.iwd.Station", "Scan", FALSE));
	g_assert_true(joind_auth_declare_rules(iwd_auth_rules, &error));
	g_assert_no_error(error);
	for (const JoindAuthRule *rule = iwd_auth_rules; rule->interface != NULL; rule++) {
		GDBusInterfaceInfo *info = iwd_introspection_lookup(rule->interface);

		g_assert_nonnull(info);
		for (GDBusMethodInfo **m = info->methods; m != NULL && *m != NULL; m++)
			check_member(defined, used, info->name, (*m)->name);
		for (GDBusPropertyInfo **p = info->properties; p != NULL && *p != NULL; p++) {
			if ((*p)->flags & G_DBUS_PROPERTY_INFO_FLAGS_WRITABLE)
				check_member(defined, used, info->name, (*p)->name);
		}
	}
	g_assert_cmpstr(joind_auth_action_lookup("net.connman.iwd.KnownNetwork", "Forget", TRUE),
	                ==, JOIND_AUTH_ACTION_PROFILE);
	g_assert_null(joind_auth_action_lookup("net.connman.iwd.Network", "Frobnicate", FALSE));
	/* Mode needs more than Powered, the rest of Device. */
	g_assert_cmpstr(joind_auth_action_lookup("net.connman.iwd.Device", "Mode", FALSE), ==,
	                JOIND_AUTH_ACTION_HOTSPOT);
	g_assert_cmpstr(joind_auth_action_lookup("net.connman.iwd.Device", "Powered", FALSE), ==,
	                JOIND_AUTH_ACTION_CONNECT);
	g_assert_cmpstr(joind_auth_action_lookup("net.connman.iwd.AccessPoint", "Start", FALSE), ==,
	                JOIND_AUTH_ACTION_HOTSPOT);
	g_assert_cmpstr(joind_auth_action_lookup("net.connman.iwd.AdHoc", "StartOpen", FALSE), ==,
	                JOIND_AUTH_ACTION_HOTSPOT);
}

/* A table declared again is taken; another table for an interface some
 * table covers, or for the core's, is refused. */
static void
test_declare_rules(void)
{
	static const JoindAuthRule again[] = {
	        {"net.connman.iwd.Station", "Scan", JOIND_AUTH_ACTION_CONNECT, NULL},
	        {NULL, NULL, NULL, NULL},
	};
	static const JoindAuthRule core[] = {
	        {"net.joind.Station1", "Scan", JOIND_AUTH_ACTION_AGENT, NULL},
	        {NULL, NULL, NULL, NULL},
	};
	g_autoptr(GError) error = NULL;

	g_assert_true(joind_auth_declare_rules(iwd_auth_rules, &error));
	g_assert_true(joind_auth_declare_rules(iwd_auth_rules, &error));
	g_assert_no_error(error);
	g_assert_false(joind_auth_declare_rules(again, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_clear_error(&error);
	g_assert_false(joind_auth_declare_rules(core, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_cmpstr(joind_auth_action_lookup("net.joind.Station1", "Scan", FALSE), ==,
	                JOIND_AUTH_ACTION_CONNECT);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/auth/every-member-has-an-action", test_every_member_has_an_action);
	g_test_add_func("/auth/actions", test_actions);
	g_test_add_func("/auth/iwd-rules", test_iwd_rules);
	g_test_add_func("/auth/declare-rules", test_declare_rules);
	return g_test_run();
}
