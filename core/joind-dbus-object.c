/* joind-dbus-object.c - an object of skeletons on the connection, announced
 * through the core's object manager (see joind-dbus-object.h).
 */
#include "joind-dbus-object.h"

struct _JoindDBusObject {
	JoindDBusManaged *managed;
	gchar *path;
	GPtrArray *skeletons; /* GDBusInterfaceSkeleton, owned */
	gboolean announced;
};

static const gchar *
skeleton_name(GDBusInterfaceSkeleton *skeleton)
{
	return g_dbus_interface_skeleton_get_info(skeleton)->name;
}

JoindDBusObject *
joind_dbus_object_new(JoindDBusManaged *managed, const gchar *path)
{
	JoindDBusObject *self = g_new0(JoindDBusObject, 1);

	self->managed = managed;
	self->path = g_strdup(path);
	self->skeletons = g_ptr_array_new_full(2, g_object_unref);
	return self;
}

void
joind_dbus_object_withdraw(JoindDBusObject *self)
{
	g_autofree const gchar **names = g_new0(const gchar *, self->skeletons->len + 1);

	for (guint i = 0; i < self->skeletons->len; i++)
		names[i] = skeleton_name(g_ptr_array_index(self->skeletons, i));
	if (self->announced && self->skeletons->len > 0)
		joind_dbus_managed_emit_removed(self->managed, self->path, names, -1);
	self->announced = FALSE;
	for (guint i = 0; i < self->skeletons->len; i++)
		g_dbus_interface_skeleton_unexport(g_ptr_array_index(self->skeletons, i));
	g_ptr_array_set_size(self->skeletons, 0);
}

void
joind_dbus_object_free(JoindDBusObject *self)
{
	if (self == NULL)
		return;
	joind_dbus_object_withdraw(self);
	g_ptr_array_unref(self->skeletons);
	g_free(self->path);
	g_free(self);
}

const gchar *
joind_dbus_object_get_path(JoindDBusObject *self)
{
	return self->path;
}

static gint
object_find(JoindDBusObject *self, const gchar *name)
{
	for (guint i = 0; i < self->skeletons->len; i++)
		if (g_str_equal(skeleton_name(g_ptr_array_index(self->skeletons, i)), name))
			return (gint)i;
	return -1;
}

void
joind_dbus_object_add(JoindDBusObject *self, GDBusInterfaceSkeleton *skeleton)
{
	GDBusConnection *bus = joind_dbus_managed_get_connection(self->managed);
	g_autoptr(GError) error = NULL;
	gint old = object_find(self, skeleton_name(skeleton));

	if (old >= 0)
		joind_dbus_object_remove(self, g_ptr_array_index(self->skeletons, old));
	g_ptr_array_add(self->skeletons, g_object_ref(skeleton));
	if (bus != NULL && !g_dbus_interface_skeleton_export(skeleton, bus, self->path, &error))
		g_warning("%s on %s not exported: %s", skeleton_name(skeleton), self->path,
		          error->message);
	if (self->announced)
		joind_dbus_managed_emit_added(self->managed, self->path,
		                              joind_dbus_managed_interfaces(&skeleton, 1));
}

void
joind_dbus_object_remove(JoindDBusObject *self, GDBusInterfaceSkeleton *skeleton)
{
	const gchar *name = skeleton_name(skeleton);

	if (!g_ptr_array_find(self->skeletons, skeleton, NULL))
		return;
	if (self->announced)
		joind_dbus_managed_emit_removed(self->managed, self->path, &name, 1);
	g_dbus_interface_skeleton_unexport(skeleton);
	g_ptr_array_remove(self->skeletons, skeleton);
}

void
joind_dbus_object_announce(JoindDBusObject *self)
{
	self->announced = TRUE;
	joind_dbus_managed_emit_added(
	        self->managed, self->path,
	        joind_dbus_managed_interfaces(
	                (GDBusInterfaceSkeleton *const *)self->skeletons->pdata,
	                self->skeletons->len));
}

void
joind_dbus_object_write(JoindDBusObject *self, JoindVariantWriter *w, JoindVariantFrame *objects)
{
	joind_dbus_managed_write(w, objects, self->path,
	                         (GDBusInterfaceSkeleton *const *)self->skeletons->pdata,
	                         self->skeletons->len);
}
