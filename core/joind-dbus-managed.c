/* joind-dbus-managed.c - GetManagedObjects with subtree objects (see
 * joind-dbus-managed.h).
 *
 * A connection filter sees the call first, in GDBus's worker thread; it
 * takes it out of GDBus's hands and answers it in the main context, in
 * the order the calls came: GDBus dispatches the other calls there the
 * same way, as default-priority idle sources. The filter may still run
 * after it is removed, so what it reads is a separate reference-counted
 * block, and a call taken over after the owner went is answered from the
 * manager alone.
 */
#include "joind-dbus-managed.h"

#define OBJECT_MANAGER_IFACE "org.freedesktop.DBus.ObjectManager"

typedef struct {
	GMainContext *context;
	GDBusObjectManagerServer *manager;
	gchar *path;             /* the manager's */
	JoindDBusManaged *owner; /* main context only; NULL once freed */
} ManagedShared;

typedef struct {
	JoindDBusManagedAddFunc add;
	gpointer user_data;
} ManagedSource;

struct _JoindDBusManaged {
	ManagedShared *shared;
	GDBusConnection *bus;
	guint filter_id;
	GArray *sources; /* ManagedSource, in the order added */
};

typedef struct {
	ManagedShared *shared;
	GDBusMessage *message;
} ManagedCall;

static void
shared_clear(gpointer data)
{
	ManagedShared *shared = data;

	g_main_context_unref(shared->context);
	g_object_unref(shared->manager);
	g_free(shared->path);
}

static void
shared_unref(gpointer data)
{
	g_atomic_rc_box_release_full(data, shared_clear);
}

static void
managed_call_free(gpointer data)
{
	ManagedCall *call = data;

	shared_unref(call->shared);
	g_object_unref(call->message);
	g_free(call);
}

GVariant *
joind_dbus_managed_interfaces(GDBusInterfaceSkeleton *const *skeletons, guint n)
{
	GVariantBuilder b;

	g_variant_builder_init(&b, G_VARIANT_TYPE("a{sa{sv}}"));
	for (guint i = 0; i < n; i++) {
		/* A reference of ours (not floating): dropped once added. */
		g_autoptr(GVariant) props = g_dbus_interface_skeleton_get_properties(skeletons[i]);

		g_variant_builder_add(&b, "{s@a{sv}}",
		                      g_dbus_interface_skeleton_get_info(skeletons[i])->name,
		                      props);
	}
	return g_variant_builder_end(&b);
}

void
joind_dbus_managed_write(JoindVariantWriter *w, JoindVariantFrame *objects, const gchar *path,
                         GDBusInterfaceSkeleton *const *skeletons, guint n)
{
	joind_variant_writer_value(
	        w,
	        g_variant_new("{o@a{sa{sv}}}", path, joind_dbus_managed_interfaces(skeletons, n)),
	        8);
	joind_variant_writer_mark(w, objects);
}

/* What GDBusObjectManagerServer itself would answer: every interface of
 * every object it holds. */
static void
managed_add_skeletons(GDBusObjectManagerServer *manager, JoindVariantWriter *w,
                      JoindVariantFrame *objects)
{
	GList *list = g_dbus_object_manager_get_objects(G_DBUS_OBJECT_MANAGER(manager));

	for (GList *o = list; o != NULL; o = o->next) {
		GList *ifaces = g_dbus_object_get_interfaces(o->data);
		g_autoptr(GPtrArray) skeletons = g_ptr_array_new();

		for (GList *i = ifaces; i != NULL; i = i->next)
			g_ptr_array_add(skeletons, i->data);
		joind_dbus_managed_write(w, objects, g_dbus_object_get_object_path(o->data),
		                         (GDBusInterfaceSkeleton *const *)skeletons->pdata,
		                         skeletons->len);
		g_list_free_full(ifaces, g_object_unref);
	}
	g_list_free_full(list, g_object_unref);
}

static gboolean
managed_answer(gpointer data)
{
	ManagedCall *call = data;
	ManagedShared *shared = call->shared;
	g_autoptr(GDBusMessage) reply = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	JoindVariantWriter w;
	JoindVariantFrame objects;
	GVariant *body;

	if (g_dbus_message_get_flags(call->message) & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED)
		return G_SOURCE_REMOVE;
	bus = g_dbus_object_manager_server_get_connection(shared->manager);
	if (bus == NULL)
		return G_SOURCE_REMOVE;
	joind_variant_writer_init(&w);
	joind_variant_writer_open(&w, &objects, 8);
	managed_add_skeletons(shared->manager, &w, &objects);
	for (guint i = 0; shared->owner != NULL && i < shared->owner->sources->len; i++) {
		ManagedSource *source = &g_array_index(shared->owner->sources, ManagedSource, i);

		source->add(&w, &objects, source->user_data);
	}
	joind_variant_writer_close(&w, &objects, TRUE);
	body = joind_variant_writer_finish(&w, G_VARIANT_TYPE("a{oa{sa{sv}}}"));
	reply = g_dbus_message_new_method_reply(call->message);
	g_dbus_message_set_body(reply, g_variant_new_tuple(&body, 1));
	g_dbus_connection_send_message(bus, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
	return G_SOURCE_REMOVE;
}

static gboolean
managed_is_get(ManagedShared *shared, GDBusMessage *message)
{
	const gchar *iface = g_dbus_message_get_interface(message);

	return g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL &&
	       g_strcmp0(g_dbus_message_get_member(message), "GetManagedObjects") == 0 &&
	       (iface == NULL || g_str_equal(iface, OBJECT_MANAGER_IFACE)) &&
	       g_strcmp0(g_dbus_message_get_path(message), shared->path) == 0 &&
	       g_dbus_message_get_body(message) == NULL;
}

/* GDBus's worker thread: reads only the immutable part of shared. */
static GDBusMessage *
managed_filter(GDBusConnection *bus, GDBusMessage *message, gboolean incoming, gpointer data)
{
	ManagedShared *shared = data;
	ManagedCall *call;

	if (!incoming || !managed_is_get(shared, message))
		return message;
	call = g_new0(ManagedCall, 1);
	call->shared = g_atomic_rc_box_acquire(shared);
	call->message = message;
	/* Not this thread's context: an idle source at that priority. */
	g_main_context_invoke_full(shared->context, G_PRIORITY_DEFAULT, managed_answer, call,
	                           managed_call_free);
	/* The idle source owns call now (cppcheck does not know
	 * g_main_context_invoke_full() takes it). */
	// cppcheck-suppress memleak
	return NULL;
}

JoindDBusManaged *
joind_dbus_managed_new(GDBusObjectManagerServer *manager)
{
	JoindDBusManaged *self = g_new0(JoindDBusManaged, 1);
	ManagedShared *shared = g_atomic_rc_box_new0(ManagedShared);

	shared->context = g_main_context_ref_thread_default();
	shared->manager = g_object_ref(manager);
	shared->path =
	        g_strdup(g_dbus_object_manager_get_object_path(G_DBUS_OBJECT_MANAGER(manager)));
	shared->owner = self;
	self->shared = shared;
	self->sources = g_array_new(FALSE, FALSE, sizeof(ManagedSource));
	self->bus = g_dbus_object_manager_server_get_connection(manager);
	if (self->bus != NULL)
		self->filter_id = g_dbus_connection_add_filter(
		        self->bus, managed_filter, g_atomic_rc_box_acquire(shared), shared_unref);
	return self;
}

void
joind_dbus_managed_free(JoindDBusManaged *self)
{
	if (self == NULL)
		return;
	if (self->bus != NULL) {
		g_dbus_connection_remove_filter(self->bus, self->filter_id);
		g_object_unref(self->bus);
	}
	self->shared->owner = NULL;
	shared_unref(self->shared);
	g_array_unref(self->sources);
	g_free(self);
}

void
joind_dbus_managed_add_source(JoindDBusManaged *self, JoindDBusManagedAddFunc add,
                              gpointer user_data)
{
	ManagedSource source = {add, user_data};

	g_array_append_val(self->sources, source);
}

void
joind_dbus_managed_remove_source(JoindDBusManaged *self, gconstpointer user_data)
{
	for (guint i = 0; i < self->sources->len; i++) {
		if (g_array_index(self->sources, ManagedSource, i).user_data == user_data) {
			g_array_remove_index(self->sources, i);
			return;
		}
	}
}

GDBusConnection *
joind_dbus_managed_get_connection(JoindDBusManaged *self)
{
	return self->bus;
}

static void
managed_emit(JoindDBusManaged *self, const gchar *member, GVariant *params)
{
	g_autoptr(GError) error = NULL;

	if (self->bus != NULL &&
	    !g_dbus_connection_emit_signal(self->bus, NULL, self->shared->path,
	                                   OBJECT_MANAGER_IFACE, member, params, &error))
		g_debug("%s on %s not sent: %s", member, self->shared->path, error->message);
}

void
joind_dbus_managed_emit_added(JoindDBusManaged *self, const gchar *path, GVariant *interfaces)
{
	managed_emit(self, "InterfacesAdded", g_variant_new("(o@a{sa{sv}})", path, interfaces));
}

void
joind_dbus_managed_emit_removed(JoindDBusManaged *self, const gchar *path,
                                const gchar *const *names, gssize n)
{
	managed_emit(self, "InterfacesRemoved",
	             g_variant_new("(o@as)", path, g_variant_new_strv(names, n)));
}
