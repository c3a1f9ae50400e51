/* test-iwd-server.c - the front end on a private bus with a real core: the
 * daemon's objects, a KnownNetwork per profile (optional properties left
 * out), AutoConnect and Forget through the call path into the profile
 * file, iwd's error names, and the refusal to start when the name is
 * owned already. */
#include "iwd-names.h"
#include "iwd-server.h"
#include "test-core.h"
#include "profile-keys.h"

#define KNOWN_PATH IWD_ROOT_PATH "/742d77706132_psk"

typedef struct {
	TestCore *tc;
	gchar *profile;
	IwdServer *server;
	GDBusConnection *client;
} Fixture;

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	f->tc = test_core_new(NULL, NULL);
	joind_core_declare_profile_keys(f->tc->core, wifi_profile_keys);
	test_core_add_profile(f->tc, "t-wpa2.psk", "[Security]\nPassphrase=12345678\n");
	f->profile = g_build_filename(f->tc->dir, "t-wpa2.psk", NULL);
	f->server = iwd_server_new(f->tc->core, &error);
	g_assert_no_error(error);
	f->client = test_core_client(f->tc);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	g_object_unref(f->client);
	iwd_server_free(f->server);
	test_core_free(f->tc);
	g_free(f->profile);
}

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GAsyncResult **out = user_data;

	*out = g_object_ref(result);
}

/* A call from the client, answered while the daemon's side runs in this
 * same main context. */
static GVariant *
call(Fixture *f, const gchar *path, const gchar *iface, const gchar *method, GVariant *params,
     GError **error)
{
	g_autoptr(GAsyncResult) result = NULL;

	g_dbus_connection_call(f->client, IWD_SERVICE, path, iface, method, params, NULL,
	                       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, call_done, &result);
	while (result == NULL)
		g_main_context_iteration(NULL, TRUE);
	return g_dbus_connection_call_finish(f->client, result, error);
}

static GVariant *
known_props(Fixture *f)
{
	g_autoptr(GError) error = NULL;
	GVariant *reply = call(f, KNOWN_PATH, "org.freedesktop.DBus.Properties", "GetAll",
	                       g_variant_new("(s)", IWD_IFACE_KNOWN), &error);
	GVariant *props;

	if (reply == NULL)
		return NULL;
	props = g_variant_get_child_value(reply, 0);
	g_variant_unref(reply);
	return props;
}

static void
test_daemon(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        call(f, IWD_ROOT_PATH, IWD_IFACE_DAEMON, "GetInfo", NULL, &error);
	g_autoptr(GVariant) info = NULL;
	const gchar *text = NULL;
	gboolean enabled = TRUE;

	g_assert_no_error(error);
	info = g_variant_get_child_value(reply, 0);
	g_assert_true(g_variant_lookup(info, "StateDirectory", "&s", &text));
	g_assert_cmpstr(text, ==, f->tc->dir);
	g_assert_true(g_variant_lookup(info, "Version", "&s", &text));
	g_assert_cmpstr(text, ==, "2.3");
	g_assert_true(g_variant_lookup(info, "NetworkConfigurationEnabled", "b", &enabled));
	g_assert_false(enabled);
}

static void
test_known(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) props = known_props(f);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autofree gchar *contents = NULL;
	const gchar *text = NULL;
	gboolean flag = TRUE;

	g_assert_nonnull(props);
	g_assert_true(g_variant_lookup(props, "Name", "&s", &text));
	g_assert_cmpstr(text, ==, "t-wpa2");
	g_assert_true(g_variant_lookup(props, "Type", "&s", &text));
	g_assert_cmpstr(text, ==, "psk");
	g_assert_true(g_variant_lookup(props, "Hidden", "b", &flag));
	g_assert_false(flag);
	g_assert_false(g_variant_lookup(props, "LastConnectedTime", "&s", &text));

	reply = call(f, KNOWN_PATH, "org.freedesktop.DBus.Properties", "Set",
	             g_variant_new("(ssv)", IWD_IFACE_KNOWN, "AutoConnect",
	                           g_variant_new_boolean(FALSE)),
	             &error);
	g_assert_no_error(error);
	g_assert_true(g_file_get_contents(f->profile, &contents, NULL, NULL));
	g_assert_nonnull(strstr(contents, "AutoConnect=false"));
	g_clear_pointer(&props, g_variant_unref);
	props = known_props(f);
	g_assert_true(g_variant_lookup(props, "AutoConnect", "b", &flag));
	g_assert_false(flag);

	g_clear_pointer(&reply, g_variant_unref);
	reply = call(f, KNOWN_PATH, IWD_IFACE_KNOWN, "Forget", NULL, &error);
	g_assert_no_error(error);
	g_assert_false(g_file_test(f->profile, G_FILE_TEST_EXISTS));
	g_assert_null(known_props(f));
}

static void
test_agents(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) first = call(f, IWD_ROOT_PATH, IWD_IFACE_AGENTS, "RegisterAgent",
	                                 g_variant_new("(o)", "/agent"), &error);
	g_autoptr(GVariant) second = NULL;
	g_autoptr(GVariant) gone = NULL;
	g_autofree gchar *name = NULL;

	g_assert_no_error(error);
	g_assert_true(joind_core_has_agent(f->tc->core));
	second = call(f, IWD_ROOT_PATH, IWD_IFACE_AGENTS, "RegisterAgent",
	              g_variant_new("(o)", "/agent2"), &error);
	g_assert_null(second);
	name = g_dbus_error_get_remote_error(error);
	g_assert_cmpstr(name, ==, "net.connman.iwd.AlreadyExists");
	g_clear_error(&error);
	gone = call(f, IWD_ROOT_PATH, IWD_IFACE_AGENTS, "UnregisterAgent",
	            g_variant_new("(o)", "/agent"), &error);
	g_assert_no_error(error);
	g_assert_false(joind_core_has_agent(f->tc->core));
}

static void
test_name_taken(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IwdServer) second = iwd_server_new(f->tc->core, &error);

	g_assert_null(second);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_assert_nonnull(strstr(error->message, "owned by another process"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/iwd-compat/server/daemon", Fixture, NULL, fixture_set_up, test_daemon,
	           fixture_tear_down);
	g_test_add("/iwd-compat/server/known", Fixture, NULL, fixture_set_up, test_known,
	           fixture_tear_down);
	g_test_add("/iwd-compat/server/agents", Fixture, NULL, fixture_set_up, test_agents,
	           fixture_tear_down);
	g_test_add("/iwd-compat/server/name-taken", Fixture, NULL, fixture_set_up, test_name_taken,
	           fixture_tear_down);
	return g_test_run();
}
