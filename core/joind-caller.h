/* joind-caller.h - the uid behind a D-Bus client, asked of the bus once.
 *
 * A bus never hands out a unique name twice, so the uid behind one holds
 * for as long as the connection to that bus: a client that calls again (a
 * desktop's network panel, NetworkManager) or registers an agent after
 * its first call is not looked up again. Private to the core: the gate
 * (joind-auth.h) and the agent manager ask here.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The uid of sender, a unique name on bus, to joind_caller_uid_finish(). */
void joind_caller_uid(GDBusConnection *bus, const gchar *sender, GAsyncReadyCallback callback,
                      gpointer user_data);
gboolean joind_caller_uid_finish(GDBusConnection *bus, GAsyncResult *result, guint32 *uid,
                                 GError **error);

G_END_DECLS
