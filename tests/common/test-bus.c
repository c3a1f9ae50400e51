/* test-bus.c - D-Bus calls from a test to objects it exports itself. */
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
