/* test-bus.c - D-Bus calls from a test to objects it exports itself, new
 * clients on a private bus, and counting what a connection sends. */
#include "test-bus.h"

typedef struct {
	GVariant *reply;
	GError *error;
	gboolean done;
} CallResult;

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	CallResult *r = user_data;

	r->reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &r->error);
	r->done = TRUE;
}

GVariant *
test_bus_call_self(GDBusConnection *conn, const gchar *path, const gchar *iface,
                   const gchar *method, GVariant *args, GError **error)
{
	CallResult r = {0};

	g_dbus_connection_call(conn, g_dbus_connection_get_unique_name(conn), path, iface, method,
	                       args, NULL, G_DBUS_CALL_FLAGS_NONE, 5000, NULL, call_done, &r);
	while (!r.done)
		g_main_context_iteration(NULL, TRUE);
	if (r.error != NULL)
		g_propagate_error(error, r.error);
	return r.reply;
}

typedef struct {
	gchar *member;
	gint *count;
} SentCounter;

static void
sent_counter_free(gpointer data)
{
	SentCounter *c = data;

	g_free(c->member);
	g_free(c);
}

/* GDBus's worker thread runs filters: the count is atomic. */
static GDBusMessage *
count_sent(GDBusConnection *conn, GDBusMessage *message, gboolean incoming, gpointer user_data)
{
	SentCounter *c = user_data;

	if (!incoming && g_strcmp0(g_dbus_message_get_member(message), c->member) == 0)
		g_atomic_int_inc(c->count);
	return message;
}

guint
test_bus_count_sent(GDBusConnection *conn, const gchar *member, gint *count)
{
	SentCounter *c = g_new0(SentCounter, 1);

	c->member = g_strdup(member);
	c->count = count;
	return g_dbus_connection_add_filter(conn, count_sent, c, sent_counter_free);
}

GDBusConnection *
test_bus_new_client(GTestDBus *bus)
{
	g_autoptr(GError) error = NULL;
	GDBusConnection *conn = g_dbus_connection_new_for_address_sync(
	        g_test_dbus_get_bus_address(bus),
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, NULL, &error);

	g_assert_no_error(error);
	return conn;
}
