/* joind-caller.c - the uid behind a D-Bus client (see joind-caller.h).
 *
 * The table is kept on the connection, so that each bus has its own;
 * bounded, it starts anew once CALLER_UIDS_MAX clients are in it.
 */
#include "joind-caller.h"

#include "joind-error.h"

#define CALLER_UIDS_KEY "joind-caller-uids"
#define CALLER_UIDS_MAX 64

static GHashTable *
caller_uids(GDBusConnection *bus)
{
	GHashTable *uids = g_object_get_data(G_OBJECT(bus), CALLER_UIDS_KEY);

	if (uids == NULL) {
		uids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		g_object_set_data_full(G_OBJECT(bus), CALLER_UIDS_KEY, uids,
		                       (GDestroyNotify)g_hash_table_unref);
	}
	return uids;
}

static void
caller_got_uid(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	GDBusConnection *bus = G_DBUS_CONNECTION(source);
	GHashTable *uids = caller_uids(bus);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_finish(bus, result, &error);
	guint32 uid;

	if (reply == NULL) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_variant_get(reply, "(u)", &uid);
	if (g_hash_table_size(uids) >= CALLER_UIDS_MAX)
		g_hash_table_remove_all(uids);
	g_hash_table_insert(uids, g_strdup(g_task_get_task_data(task)), GUINT_TO_POINTER(uid));
	g_task_return_int(task, uid);
}

void
joind_caller_uid(GDBusConnection *bus, const gchar *sender, GAsyncReadyCallback callback,
                 gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(bus, NULL, callback, user_data);
	gpointer uid;

	g_task_set_source_tag(task, joind_caller_uid);
	if (sender == NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_FAILED,
		                        "The caller has no name on a bus.");
		return;
	}
	if (g_hash_table_lookup_extended(caller_uids(bus), sender, NULL, &uid)) {
		g_task_return_int(task, GPOINTER_TO_UINT(uid));
		return;
	}
	g_task_set_task_data(task, g_strdup(sender), g_free);
	g_dbus_connection_call(
	        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "GetConnectionUnixUser", g_variant_new("(s)", sender), G_VARIANT_TYPE("(u)"),
	        G_DBUS_CALL_FLAGS_NONE, -1, NULL, caller_got_uid, g_steal_pointer(&task));
}

gboolean
joind_caller_uid_finish(GDBusConnection *bus, GAsyncResult *result, guint32 *uid, GError **error)
{
	gssize value;

	g_return_val_if_fail(g_task_is_valid(result, bus), FALSE);
	value = g_task_propagate_int(G_TASK(result), error);
	if (value < 0)
		return FALSE;
	*uid = (guint32)value;
	return TRUE;
}
