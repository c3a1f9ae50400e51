/* test-bus.h - D-Bus calls from a test to objects it exports itself, new
 * clients on a private bus, and counting what a connection sends. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Calls method on the connection's own objects and waits for the reply
 * while iterating the default main context, where those objects answer (a
 * blocking call would leave them no chance to). 5 s timeout. */
GVariant *test_bus_call_self(GDBusConnection *conn, const gchar *path, const gchar *iface,
                             const gchar *method, GVariant *args, GError **error);

/* A client connection of its own to the private bus (a new unique name). */
GDBusConnection *test_bus_new_client(GTestDBus *bus);

/* Counts into *count (atomically) the messages conn sends whose member is
 * member, until g_dbus_connection_remove_filter() of the id returned. */
guint test_bus_count_sent(GDBusConnection *conn, const gchar *member, gint *count);

G_END_DECLS
