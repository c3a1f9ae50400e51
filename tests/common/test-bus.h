/* test-bus.h - D-Bus calls from a test to objects it exports itself. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Calls method on the connection's own objects and waits for the reply
 * while iterating the default main context, where those objects answer (a
 * blocking call would leave them no chance to). 5 s timeout. */
GVariant *test_bus_call_self(GDBusConnection *conn, const gchar *path, const gchar *iface,
                             const gchar *method, GVariant *args, GError **error);

G_END_DECLS
