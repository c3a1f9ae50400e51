/* test-agent-routing.c - whose agent a secret request reaches, on a
 * private bus: the requester's own agent and no other, NoAgent when the
 * requester has none, the first registered (root's first) when no client
 * asked; one agent per connection; the bus asked for a client's uid once. */
#include <gio/gio.h>

#include "joind-agent-manager.h"
#include "joind-auth.h"
#include "joind-error.h"
#include "test-bus.h"

typedef struct {
	GDBusConnection *conn;
	JoindDBusAgent1 *agent;
	const gchar *answer;
	guint n_asked;
} Client;

typedef struct {
	GTestDBus *bus;
	GDBusConnection *daemon;
	JoindDBusAgentManager1 *iface;
	JoindAgentManager *manager;
	Client a, b, c;
} Fixture;

static gboolean
agent_passphrase(JoindDBusAgent1 *agent, GDBusMethodInvocation *invocation, const gchar *object,
                 gpointer user_data)
{
	Client *client = user_data;

	client->n_asked++;
	joind_dbus_agent1_complete_request_passphrase(agent, invocation, client->answer);
	return TRUE;
}

static void
client_up(Fixture *f, Client *client, const gchar *answer)
{
	g_autoptr(GError) error = NULL;

	client->conn = g_dbus_connection_new_for_address_sync(
	        g_test_dbus_get_bus_address(f->bus),
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, NULL, &error);
	g_assert_no_error(error);
	client->answer = answer;
	client->agent = joind_dbus_agent1_skeleton_new();
	g_signal_connect(client->agent, "handle-request-passphrase", G_CALLBACK(agent_passphrase),
	                 client);
	g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(client->agent), client->conn,
	                                 "/agent", &error);
	g_assert_no_error(error);
}

static void
client_down(Client *client)
{
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(client->agent));
	g_clear_object(&client->agent);
	g_dbus_connection_close_sync(client->conn, NULL, NULL);
	g_clear_object(&client->conn);
}

static void
got_result(GObject *source, GAsyncResult *result, gpointer user_data)
{
	*(GAsyncResult **)user_data = g_object_ref(result);
}

static GAsyncResult *
wait_result(GAsyncResult **slot)
{
	while (*slot == NULL)
		g_main_context_iteration(NULL, TRUE);
	return *slot;
}

/* RegisterAgent from client to the manager on daemon; the reply's error. */
static GError *
client_register(Fixture *f, Client *client)
{
	GAsyncResult *result = NULL;
	GError *error = NULL;
	g_autoptr(GVariant) reply = NULL;

	g_dbus_connection_call(client->conn, g_dbus_connection_get_unique_name(f->daemon),
	                       "/net/joind", "net.joind.AgentManager1", "RegisterAgent",
	                       g_variant_new("(o)", "/agent"), NULL, G_DBUS_CALL_FLAGS_NONE, -1,
	                       NULL, got_result, &result);
	reply = g_dbus_connection_call_finish(client->conn, wait_result(&result), &error);
	g_object_unref(result);
	return error;
}

/* A passphrase request for requester; the answer, or NULL and error. */
static gchar *
request(Fixture *f, const gchar *requester, GError **error)
{
	GAsyncResult *result = NULL;
	g_autoptr(JoindSecret) secret = NULL;

	joind_agent_manager_request(f->manager, requester, JOIND_SECRET_PASSPHRASE, "/net/x", NULL,
	                            NULL, got_result, &result);
	secret = joind_agent_manager_request_finish(f->manager, wait_result(&result), error);
	g_object_unref(result);
	return secret != NULL ? g_strdup(secret->secret) : NULL;
}

static void
fixture_up(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->bus);
	f->daemon = g_dbus_connection_new_for_address_sync(
	        g_test_dbus_get_bus_address(f->bus),
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, NULL, &error);
	g_assert_no_error(error);
	f->iface = joind_dbus_agent_manager1_skeleton_new();
	f->manager = joind_agent_manager_new(f->daemon, f->iface);
	g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(f->iface), f->daemon,
	                                 "/net/joind", &error);
	g_assert_no_error(error);
	client_up(f, &f->a, "secret-of-a");
	client_up(f, &f->b, "secret-of-b");
	client_up(f, &f->c, "secret-of-c");
}

static void
fixture_down(Fixture *f, gconstpointer data)
{
	client_down(&f->a);
	client_down(&f->b);
	client_down(&f->c);
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(f->iface));
	g_clear_object(&f->manager);
	g_clear_object(&f->iface);
	g_dbus_connection_close_sync(f->daemon, NULL, NULL);
	g_clear_object(&f->daemon);
	g_test_dbus_down(f->bus);
	g_clear_object(&f->bus);
}

static void
test_requester_gets_own_agent(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *for_a = NULL;
	g_autofree gchar *for_b = NULL;
	g_autofree gchar *for_c = NULL;

	g_assert_no_error(client_register(f, &f->a));
	g_assert_no_error(client_register(f, &f->b));
	for_b = request(f, g_dbus_connection_get_unique_name(f->b.conn), &error);
	g_assert_no_error(error);
	g_assert_cmpstr(for_b, ==, "secret-of-b");
	g_assert_cmpuint(f->a.n_asked, ==, 0);
	for_a = request(f, g_dbus_connection_get_unique_name(f->a.conn), &error);
	g_assert_no_error(error);
	g_assert_cmpstr(for_a, ==, "secret-of-a");
	g_assert_cmpuint(f->b.n_asked, ==, 1);
	/* c has no agent: nobody else's is asked in its place. */
	for_c = request(f, g_dbus_connection_get_unique_name(f->c.conn), &error);
	g_assert_null(for_c);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	g_assert_cmpuint(f->a.n_asked + f->b.n_asked + f->c.n_asked, ==, 2);
}

static void
test_no_requester_gets_first(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *none = NULL;
	g_autofree gchar *answer = NULL;

	none = request(f, NULL, &error);
	g_assert_null(none);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	g_clear_error(&error);
	g_assert_no_error(client_register(f, &f->b));
	g_assert_no_error(client_register(f, &f->a));
	/* Both are this process's uid: the first registered answers. */
	answer = request(f, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(answer, ==, "secret-of-b");
	g_assert_cmpuint(f->a.n_asked, ==, 0);
}

static void
test_one_agent_per_connection(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) again = NULL;
	g_autofree gchar *name = NULL;

	g_assert_no_error(client_register(f, &f->a));
	again = client_register(f, &f->a);
	g_assert_nonnull(again);
	g_assert_cmpuint(joind_agent_manager_get_n_agents(f->manager), ==, 1);
	name = g_dbus_error_get_remote_error(again);
	g_assert_cmpstr(name, ==, "net.joind.Error.Busy");
}

static void
test_uid_asked_once(Fixture *f, gconstpointer data)
{
	gint lookups = 0;
	guint filter = test_bus_count_sent(f->daemon, "GetConnectionUnixUser", &lookups);

	/* The gate and the registration both need the client's uid: the bus
	 * is asked once. */
	g_assert_no_error(client_register(f, &f->a));
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 1);
	g_assert_no_error(client_register(f, &f->b));
	g_assert_cmpint(g_atomic_int_get(&lookups), ==, 2);
	g_assert_cmpuint(joind_agent_manager_get_n_agents(f->manager), ==, 2);
	g_dbus_connection_remove_filter(f->daemon, filter);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* The private bus runs as this user; whose agent is asked is the point. */
	joind_auth_set_policy(NULL);
	g_test_add("/agent/requester-gets-own-agent", Fixture, NULL, fixture_up,
	           test_requester_gets_own_agent, fixture_down);
	g_test_add("/agent/no-requester-gets-first", Fixture, NULL, fixture_up,
	           test_no_requester_gets_first, fixture_down);
	g_test_add("/agent/one-agent-per-connection", Fixture, NULL, fixture_up,
	           test_one_agent_per_connection, fixture_down);
	g_test_add("/agent/uid-asked-once", Fixture, NULL, fixture_up, test_uid_asked_once,
	           fixture_down);
	return g_test_run();
}
