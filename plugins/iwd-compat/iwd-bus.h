/* iwd-bus.h - the front end's own connection to the core's bus and its
 * claim on net.connman.iwd.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A new connection to the bus core_bus is on (the same socket address). */
GDBusConnection *iwd_bus_connect(GDBusConnection *core_bus, GError **error);
/* Takes name on bus, never queueing behind another owner: fails with a
 * sentence naming the process that has it, or the policy that refused. */
gboolean iwd_bus_own_name(GDBusConnection *bus, const gchar *name, GError **error);

G_END_DECLS
