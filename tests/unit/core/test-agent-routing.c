/* test-agent-routing.c - whose agent a secret request reaches, on a
 * private bus: the requester's own agent and no other, NoAgent when the
 * requester has none; when no client asked, root's agent, else the agent
 * of the user on the active seat (a logind stand-in plays seat0), never
 * just the first registered; one agent per connection, at most 16 per
 * user; the bus asked for a client's uid once. The clients' uids are
 * played at the caller's seam. */
#include <gio/gio.h>
#include <string.h>

#include "joind-agent-manager.h"
#include "joind-auth.h"
#include "joind-caller.h"
#include "joind-error.h"
#include "test-bus.h"

#define LOGIND_XML                                                               \
	"<node><interface name='org.freedesktop.login1.Seat'>"                   \
	"<property name='ActiveSession' type='(so)' access='read'/></interface>" \
	"<interface name='org.freedesktop.login1.Session'>"                      \
	"<property name='User' type='(uo)' access='read'/></interface></node>"

/* unique name -> uid (GUINT_TO_POINTER), for the uids the test plays */
static GHashTable *played_uids;
/* The uid logind says is on seat0. */
static guint32 seat_uid;

static gboolean
play_uid(const gchar *sender, guint32 *uid, GError **error)
{
	gpointer value;

	if (g_hash_table_lookup_extended(played_uids, sender, NULL, &value))
		*uid = GPOINTER_TO_UINT(value);
	return TRUE;
}

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
	GDBusConnection *logind; /* the stand-in's, once started */
} Fixture;

static GVariant *
logind_property(GDBusConnection *conn, const gchar *sender, const gchar *path, const gchar *iface,
                const gchar *name, GError **error, gpointer data)
{
	if (g_str_equal(name, "ActiveSession"))
		return g_variant_new("(so)", "c1", "/org/freedesktop/login1/session/c1");
	return g_variant_new("(uo)", seat_uid, "/org/freedesktop/login1/user/_1");
}

/* logind's part: seat0's active session c1 is seat_uid's. */
static void
logind_up(Fixture *f)
{
	static const GDBusInterfaceVTable vtable = {NULL, logind_property, NULL, {0}};
	g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml(LOGIND_XML, NULL);
	g_autoptr(GVariant) owned = NULL;
	g_autoptr(GError) error = NULL;

	f->logind = test_bus_new_client(f->bus);
	g_dbus_connection_register_object(f->logind, "/org/freedesktop/login1/seat/seat0",
	                                  info->interfaces[0], &vtable, NULL, NULL, &error);
	g_assert_no_error(error);
	g_dbus_connection_register_object(f->logind, "/org/freedesktop/login1/session/c1",
	                                  info->interfaces[1], &vtable, NULL, NULL, &error);
	g_assert_no_error(error);
	owned = g_dbus_connection_call_sync(
	        f->logind, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "RequestName", g_variant_new("(su)", "org.freedesktop.login1", 4),
	        G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	g_assert_no_error(error);
}

static gboolean
allow_all(guint32 uid, const gchar *action)
{
	return TRUE;
}

static void
play(Client *client, guint32 uid)
{
	g_hash_table_insert(played_uids, g_strdup(g_dbus_connection_get_unique_name(client->conn)),
	                    GUINT_TO_POINTER(uid));
}

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
	if (f->logind != NULL) {
		g_dbus_connection_close_sync(f->logind, NULL, NULL);
		g_clear_object(&f->logind);
	}
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

/* No client asked: not the first registered (a user's), but the user's on
 * the active seat; once root has one, root's. */
static void
test_no_requester(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *none = NULL, *seat = NULL, *root = NULL, *nobody = NULL;

	play(&f->a, 1000);
	play(&f->b, 1001);
	play(&f->c, 0);
	g_assert_no_error(client_register(f, &f->a));
	g_assert_no_error(client_register(f, &f->b));
	/* No logind: nobody's agent is asked. */
	none = request(f, NULL, &error);
	g_assert_null(none);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	g_clear_error(&error);
	logind_up(f);
	seat_uid = 1001;
	seat = request(f, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(seat, ==, "secret-of-b");
	g_assert_cmpuint(f->a.n_asked, ==, 0);
	/* A user on the seat without an agent: nobody else's. */
	seat_uid = 1002;
	nobody = request(f, NULL, &error);
	g_assert_null(nobody);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	g_clear_error(&error);
	g_assert_no_error(client_register(f, &f->c));
	root = request(f, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(root, ==, "secret-of-c");
	g_assert_cmpuint(f->a.n_asked, ==, 0);
	g_assert_cmpuint(f->b.n_asked, ==, 1);
}

/* One user fills at most 16 places; root still registers. */
static void
test_per_uid_cap(Fixture *f, gconstpointer data)
{
	Client many[17] = {0};
	g_autoptr(GError) refused = NULL;
	g_autofree gchar *name = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(many); i++) {
		client_up(f, &many[i], "many");
		play(&many[i], 1000);
		if (i < 16)
			g_assert_no_error(client_register(f, &many[i]));
	}
	refused = client_register(f, &many[16]);
	g_assert_nonnull(refused);
	name = g_dbus_error_get_remote_error(refused);
	g_assert_cmpstr(name, ==, "net.joind.Error.Busy");
	g_assert_nonnull(strstr(refused->message, "uid 1000 has 16 agents registered"));
	play(&f->c, 0);
	g_assert_no_error(client_register(f, &f->c));
	g_assert_cmpuint(joind_agent_manager_get_n_agents(f->manager), ==, 17);
	for (guint i = 0; i < G_N_ELEMENTS(many); i++)
		client_down(&many[i]);
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
	/* The uids are played; whose agent is asked is the point, not who may
	 * register. */
	joind_auth_set_policy(allow_all);
	played_uids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	joind_caller_set_uid_filter(play_uid);
	g_test_add("/agent/requester-gets-own-agent", Fixture, NULL, fixture_up,
	           test_requester_gets_own_agent, fixture_down);
	g_test_add("/agent/no-requester", Fixture, NULL, fixture_up, test_no_requester,
	           fixture_down);
	g_test_add("/agent/per-uid-cap", Fixture, NULL, fixture_up, test_per_uid_cap, fixture_down);
	g_test_add("/agent/one-agent-per-connection", Fixture, NULL, fixture_up,
	           test_one_agent_per_connection, fixture_down);
	g_test_add("/agent/uid-asked-once", Fixture, NULL, fixture_up, test_uid_asked_once,
	           fixture_down);
	return g_test_run();
}
