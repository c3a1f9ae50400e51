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

/* The uid of sender, a unique name on bus, to joind_caller_uid_finish().
 * Every uid a guint32 holds comes back whole (2^31 and above too, on
 * 32-bit builds as well); a lookup that fails returns FALSE with error
 * set, always, so that a caller fails closed with a sentence. */
void joind_caller_uid(GDBusConnection *bus, const gchar *sender, GAsyncReadyCallback callback,
                      gpointer user_data);
gboolean joind_caller_uid_finish(GDBusConnection *bus, GAsyncResult *result, guint32 *uid,
                                 GError **error);

/* Tests only: the bus's answer for sender passes through filter, which
 * may give another uid or fail the lookup (FALSE, error set). It plays
 * users the test process cannot be. NULL restores the bus's answer. */
typedef gboolean (*JoindCallerUidFilter)(const gchar *sender, guint32 *uid, GError **error);
void joind_caller_set_uid_filter(JoindCallerUidFilter filter);

/* Asks early: a client's first method call to joind, whatever it is,
 * starts the lookup of its uid, so that the bus has answered by the time
 * the client asks for something the gate weighs. Clients read before they
 * act (NetworkManager's GetManagedObjects, joinctl's look-up of a name, a
 * panel's properties), so their first action no longer waits for a round
 * trip to the bus. Call from the thread whose main context owns the
 * tables (the daemon's); the id is g_dbus_connection_remove_filter()'s. */
guint joind_caller_watch(GDBusConnection *bus);

G_END_DECLS
