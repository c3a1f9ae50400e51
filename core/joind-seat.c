/* joind-seat.c - the user on the active seat (see joind-seat.h). Asked at
 * each prompt no client asked for, not followed: such prompts are rare,
 * and the answer is never stale. */
#include "joind-seat.h"

#include "joind-error.h"

#define LOGIND_NAME     "org.freedesktop.login1"
#define SEAT_PATH       "/org/freedesktop/login1/seat/seat0"
#define SEAT_IFACE      "org.freedesktop.login1.Seat"
#define SESSION_IFACE   "org.freedesktop.login1.Session"
#define PROPERTIES      "org.freedesktop.DBus.Properties"
#define SEAT_TIMEOUT_MS 5000

static void
seat_get(GDBusConnection *bus, const gchar *path, const gchar *iface, const gchar *property,
         GTask *task, GAsyncReadyCallback callback)
{
	g_dbus_connection_call(bus, LOGIND_NAME, path, PROPERTIES, "Get",
	                       g_variant_new("(ss)", iface, property), G_VARIANT_TYPE("(v)"),
	                       G_DBUS_CALL_FLAGS_NO_AUTO_START, SEAT_TIMEOUT_MS,
	                       g_task_get_cancellable(task), callback, task);
}

/* The property's value of a Get reply, or NULL with the task answered. */
static GVariant *
seat_value(GObject *source, GAsyncResult *result, GTask *task, const gchar *type, const gchar *what)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	g_autoptr(GVariant) value = NULL;

	if (reply != NULL) {
		g_variant_get(reply, "(v)", &value);
		if (g_variant_is_of_type(value, G_VARIANT_TYPE(type)))
			return g_steal_pointer(&value);
		g_set_error(&error, JOIND_ERROR, JOIND_ERROR_FAILED, "logind's %s is not %s", what,
		            type);
	}
	g_dbus_error_strip_remote_error(error);
	g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
	                        "Could not ask logind for %s: %s", what, error->message);
	g_object_unref(task);
	return NULL;
}

static void
seat_got_user(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GTask *task = user_data;
	g_autoptr(GVariant) user = seat_value(source, result, task, "(uo)", "the session's user");
	guint32 uid = 0;

	if (user == NULL)
		return;
	g_variant_get(user, "(uo)", &uid, NULL);
	g_task_return_pointer(task, g_memdup2(&uid, sizeof(uid)), g_free);
	g_object_unref(task);
}

static void
seat_got_session(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GTask *task = user_data;
	g_autoptr(GVariant) session =
	        seat_value(source, result, task, "(so)", "seat0's active session");
	const gchar *id = NULL, *path = NULL;

	if (session == NULL)
		return;
	g_variant_get(session, "(&s&o)", &id, &path);
	if (id[0] == '\0' || g_str_equal(path, "/")) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "No session is active on seat0.");
		g_object_unref(task);
		return;
	}
	seat_get(G_DBUS_CONNECTION(source), path, SESSION_IFACE, "User", task, seat_got_user);
}

void
joind_seat_active_uid(GDBusConnection *bus, GCancellable *cancellable, GAsyncReadyCallback callback,
                      gpointer user_data)
{
	GTask *task = g_task_new(NULL, cancellable, callback, user_data);

	g_task_set_source_tag(task, joind_seat_active_uid);
	seat_get(bus, SEAT_PATH, SEAT_IFACE, "ActiveSession", task, seat_got_session);
}

gboolean
joind_seat_active_uid_finish(GAsyncResult *result, guint32 *uid, GError **error)
{
	g_autofree guint32 *value = g_task_propagate_pointer(G_TASK(result), error);

	if (value == NULL)
		return FALSE;
	*uid = *value;
	return TRUE;
}
