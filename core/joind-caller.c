/* joind-caller.c - the uid behind a D-Bus client (see joind-caller.h).
 *
 * The tables are kept on the connection, so that each bus has its own:
 * the uids known, bounded (it starts anew once CALLER_UIDS_MAX clients are
 * in it), and the lookups under way with what waits for each, so that a
 * client is never asked about twice at once.
 */
#include "joind-caller.h"

#include "joind-error.h"

#define CALLER_UIDS_KEY    "joind-caller-uids"
#define CALLER_PENDING_KEY "joind-caller-pending"
#define CALLER_UIDS_MAX    64

static GHashTable *
caller_table(GDBusConnection *bus, const gchar *key, GDestroyNotify value_free)
{
	GHashTable *table = g_object_get_data(G_OBJECT(bus), key);

	if (table == NULL) {
		table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, value_free);
		g_object_set_data_full(G_OBJECT(bus), key, table,
		                       (GDestroyNotify)g_hash_table_unref);
	}
	return table;
}

static GHashTable *
caller_uids(GDBusConnection *bus)
{
	return caller_table(bus, CALLER_UIDS_KEY, NULL);
}

/* unique name -> GPtrArray of the GTasks waiting for its uid */
static GHashTable *
caller_pending(GDBusConnection *bus)
{
	return caller_table(bus, CALLER_PENDING_KEY, (GDestroyNotify)g_ptr_array_unref);
}

static JoindCallerUidFilter caller_uid_filter;

void
joind_caller_set_uid_filter(JoindCallerUidFilter filter)
{
	caller_uid_filter = filter;
}

/* The uid goes back as a pointer to it: g_task_return_int() holds a
 * gssize, 32 bits on 32-bit builds, where a uid of 2^31 and above would
 * come back negative, that is as a failure without an error. */
static void
caller_return_uid(GTask *task, guint32 uid)
{
	g_task_return_pointer(task, g_memdup2(&uid, sizeof(uid)), g_free);
}

/* The uid in the bus's reply, or FALSE with error set. */
static gboolean
caller_reply_uid(GDBusConnection *bus, GAsyncResult *result, const gchar *sender, guint32 *uid,
                 GError **error)
{
	g_autoptr(GVariant) reply = g_dbus_connection_call_finish(bus, result, error);

	if (reply == NULL)
		return FALSE;
	g_variant_get(reply, "(u)", uid);
	return caller_uid_filter == NULL || caller_uid_filter(sender, uid, error);
}

static void
caller_got_uid(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree gchar *sender = user_data;
	GDBusConnection *bus = G_DBUS_CONNECTION(source);
	GHashTable *uids = caller_uids(bus);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *key = NULL;
	g_autoptr(GPtrArray) waiting = NULL;
	guint32 uid = 0;
	gboolean known = caller_reply_uid(bus, result, sender, &uid, &error);

	g_hash_table_steal_extended(caller_pending(bus), sender, (gpointer *)&key,
	                            (gpointer *)&waiting);
	if (known) {
		if (g_hash_table_size(uids) >= CALLER_UIDS_MAX)
			g_hash_table_remove_all(uids);
		g_hash_table_insert(uids, g_strdup(sender), GUINT_TO_POINTER(uid));
	} else if (error == NULL) {
		g_set_error(&error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "The bus did not say which user %s is.", sender);
	}
	for (guint i = 0; waiting != NULL && i < waiting->len; i++) {
		GTask *task = g_ptr_array_index(waiting, i);

		if (known)
			caller_return_uid(task, uid);
		else
			g_task_return_error(task, g_error_copy(error));
	}
}

void
joind_caller_uid(GDBusConnection *bus, const gchar *sender, GAsyncReadyCallback callback,
                 gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(bus, NULL, callback, user_data);
	GHashTable *pending = caller_pending(bus);
	GPtrArray *waiting;
	gpointer uid;

	g_task_set_source_tag(task, joind_caller_uid);
	if (sender == NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_FAILED,
		                        "The caller has no name on a bus.");
		return;
	}
	if (g_hash_table_lookup_extended(caller_uids(bus), sender, NULL, &uid)) {
		caller_return_uid(task, GPOINTER_TO_UINT(uid));
		return;
	}
	waiting = g_hash_table_lookup(pending, sender);
	if (waiting != NULL) {
		g_ptr_array_add(waiting, g_steal_pointer(&task));
		return;
	}
	waiting = g_ptr_array_new_with_free_func(g_object_unref);
	g_ptr_array_add(waiting, g_steal_pointer(&task));
	g_hash_table_insert(pending, g_strdup(sender), waiting);
	g_dbus_connection_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
	                       "org.freedesktop.DBus", "GetConnectionUnixUser",
	                       g_variant_new("(s)", sender), G_VARIANT_TYPE("(u)"),
	                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, caller_got_uid, g_strdup(sender));
}

gboolean
joind_caller_uid_finish(GDBusConnection *bus, GAsyncResult *result, guint32 *uid, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree guint32 *value = NULL;

	g_return_val_if_fail(g_task_is_valid(result, bus), FALSE);
	value = g_task_propagate_pointer(G_TASK(result), &local);
	if (value == NULL) {
		/* Fail closed, and always with a sentence to give. */
		if (local == NULL)
			g_set_error_literal(&local, JOIND_ERROR, JOIND_ERROR_FAILED,
			                    "The bus did not say which user the caller is.");
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	*uid = *value;
	return TRUE;
}

/* ---- asking early ------------------------------------------------------------ */

typedef struct {
	GMutex lock;
	GHashTable *seen;      /* unique names whose lookup was started; under lock */
	GMainContext *context; /* where the tables live */
} CallerWatch;

typedef struct {
	GDBusConnection *bus;
	gchar *sender;
} CallerEarly;

static void
caller_watch_free(gpointer data)
{
	CallerWatch *watch = data;

	g_mutex_clear(&watch->lock);
	g_hash_table_unref(watch->seen);
	g_main_context_unref(watch->context);
	g_free(watch);
}

static void
caller_early_free(gpointer data)
{
	CallerEarly *early = data;

	g_object_unref(early->bus);
	g_free(early->sender);
	g_free(early);
}

static gboolean
caller_ask_early(gpointer data)
{
	CallerEarly *early = data;

	joind_caller_uid(early->bus, early->sender, NULL, NULL);
	return G_SOURCE_REMOVE;
}

/* GDBus's worker thread, for every message: a method call from a client
 * not seen before has its lookup started in the tables' context. */
static GDBusMessage *
caller_filter(GDBusConnection *bus, GDBusMessage *message, gboolean incoming, gpointer data)
{
	CallerWatch *watch = data;
	const gchar *sender = g_dbus_message_get_sender(message);
	CallerEarly *early;

	if (!incoming ||
	    g_dbus_message_get_message_type(message) != G_DBUS_MESSAGE_TYPE_METHOD_CALL ||
	    sender == NULL || sender[0] != ':')
		return message;
	g_mutex_lock(&watch->lock);
	if (g_hash_table_contains(watch->seen, sender)) {
		g_mutex_unlock(&watch->lock);
		return message;
	}
	if (g_hash_table_size(watch->seen) >= CALLER_UIDS_MAX)
		g_hash_table_remove_all(watch->seen);
	g_hash_table_add(watch->seen, g_strdup(sender));
	g_mutex_unlock(&watch->lock);
	early = g_new0(CallerEarly, 1);
	early->bus = g_object_ref(bus);
	early->sender = g_strdup(sender);
	g_main_context_invoke_full(watch->context, G_PRIORITY_DEFAULT, caller_ask_early, early,
	                           caller_early_free);
	/* The idle source owns early now (cppcheck does not know
	 * g_main_context_invoke_full() takes it). */
	// cppcheck-suppress memleak
	return message;
}

guint
joind_caller_watch(GDBusConnection *bus)
{
	CallerWatch *watch = g_new0(CallerWatch, 1);

	g_mutex_init(&watch->lock);
	watch->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	watch->context = g_main_context_ref_thread_default();
	return g_dbus_connection_add_filter(bus, caller_filter, watch, caller_watch_free);
}
