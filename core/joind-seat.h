/* joind-seat.h - the user on the active seat, asked of logind
 * (org.freedesktop.login1 on the system bus): seat0's ActiveSession, then
 * that session's User. The agent manager sends a prompt no client asked
 * for to that user's agent when root has none. Private to the core.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The uid of the user whose session is active on seat0, to
 * joind_seat_active_uid_finish(). */
void joind_seat_active_uid(GDBusConnection *bus, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data);
/* FALSE, error set, when logind is not there or no session is active. */
gboolean joind_seat_active_uid_finish(GAsyncResult *result, guint32 *uid, GError **error);

G_END_DECLS
