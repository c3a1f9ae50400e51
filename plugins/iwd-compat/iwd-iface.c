/* iwd-iface.c - an interface of the iwd API (see iwd-iface.h). */
#include "iwd-iface.h"

#include "iwd-names.h"

#define PROPERTIES_IFACE "org.freedesktop.DBus.Properties"

struct _IwdIface {
	GDBusInterfaceSkeleton parent_instance;
	GDBusInterfaceInfo *info;
	const IwdMethod *methods;
	JoindCallFunc setter;
	GObject *model;
	gpointer context;
	GHashTable *props;   /* name -> GVariant */
	GHashTable *changed; /* names changed since the last flush */
	guint idle_id;
	gchar *source;
};

enum { PROP_0, PROP_SOURCE };

G_DEFINE_FINAL_TYPE(IwdIface, iwd_iface, G_TYPE_DBUS_INTERFACE_SKELETON)

/* ---- properties ------------------------------------------------------------ */

/* In the order the introspection lists them, as iwd sends them. */
static GVariant *
iface_build_properties(IwdIface *self, GHashTable *only)
{
	GVariantBuilder builder;

	g_variant_builder_init(&builder, G_VARIANT_TYPE_VARDICT);
	for (guint i = 0; self->info->properties != NULL && self->info->properties[i] != NULL;
	     i++) {
		const gchar *name = self->info->properties[i]->name;
		GVariant *value = g_hash_table_lookup(self->props, name);

		if (value != NULL && (only == NULL || g_hash_table_contains(only, name)))
			g_variant_builder_add(&builder, "{sv}", name, value);
	}
	return g_variant_builder_end(&builder);
}

static GVariant *
iface_build_invalidated(IwdIface *self)
{
	GVariantBuilder builder;
	GHashTableIter iter;
	gpointer name;

	g_variant_builder_init(&builder, G_VARIANT_TYPE_STRING_ARRAY);
	g_hash_table_iter_init(&iter, self->changed);
	while (g_hash_table_iter_next(&iter, &name, NULL))
		if (!g_hash_table_contains(self->props, name))
			g_variant_builder_add(&builder, "s", name);
	return g_variant_builder_end(&builder);
}

static void
iface_emit_changed(IwdIface *self)
{
	g_autolist(GDBusConnection) connections = NULL;
	GDBusInterfaceSkeleton *skeleton = G_DBUS_INTERFACE_SKELETON(self);
	g_autoptr(GVariant) args = NULL;

	g_clear_handle_id(&self->idle_id, g_source_remove);
	if (g_hash_table_size(self->changed) == 0)
		return;
	connections = g_dbus_interface_skeleton_get_connections(skeleton);
	args = g_variant_ref_sink(g_variant_new("(s@a{sv}@as)", self->info->name,
	                                        iface_build_properties(self, self->changed),
	                                        iface_build_invalidated(self)));
	for (GList *l = connections; l != NULL; l = l->next)
		g_dbus_connection_emit_signal(l->data, NULL,
		                              g_dbus_interface_skeleton_get_object_path(skeleton),
		                              PROPERTIES_IFACE, "PropertiesChanged", args, NULL);
	g_hash_table_remove_all(self->changed);
}

static gboolean
iface_idle_flush(gpointer user_data)
{
	IwdIface *self = user_data;

	self->idle_id = 0;
	iface_emit_changed(self);
	return G_SOURCE_REMOVE;
}

void
iwd_iface_set(IwdIface *self, const gchar *name, GVariant *value)
{
	GVariant *old = g_hash_table_lookup(self->props, name);

	if (value != NULL)
		g_variant_ref_sink(value);
	if ((old == NULL && value == NULL) ||
	    (old != NULL && value != NULL && g_variant_equal(old, value))) {
		g_clear_pointer(&value, g_variant_unref);
		return;
	}
	if (value != NULL)
		g_hash_table_insert(self->props, g_strdup(name), value);
	else
		g_hash_table_remove(self->props, name);
	g_hash_table_add(self->changed, g_strdup(name));
	if (self->idle_id == 0)
		self->idle_id = g_idle_add(iface_idle_flush, self);
}

GVariant *
iwd_iface_get(IwdIface *self, const gchar *name)
{
	return g_hash_table_lookup(self->props, name);
}

/* ---- calls ----------------------------------------------------------------- */

static void
iface_properties_call(IwdIface *self, const gchar *method, GVariant *parameters,
                      GDBusMethodInvocation *invocation)
{
	const gchar *name = NULL;
	GVariant *value;

	if (g_str_equal(method, "GetAll")) {
		g_dbus_method_invocation_return_value(
		        invocation, g_variant_new("(@a{sv})", iface_build_properties(self, NULL)));
	} else if (g_str_equal(method, "Get")) {
		g_variant_get(parameters, "(&s&s)", NULL, &name);
		value = g_hash_table_lookup(self->props, name);
		if (value != NULL)
			g_dbus_method_invocation_return_value(invocation,
			                                      g_variant_new("(v)", value));
		else
			g_dbus_method_invocation_return_error(
			        invocation, IWD_ERROR, IWD_ERROR_NOT_FOUND, "%s is not set.", name);
	} else if (self->setter != NULL) {
		joind_call_start(G_DBUS_INTERFACE_SKELETON(self), invocation, self, self->setter,
		                 NULL, NULL);
	} else {
		g_dbus_method_invocation_return_error(
		        invocation, IWD_ERROR, IWD_ERROR_NOT_SUPPORTED,
		        "No property of %s can be set.", self->info->name);
	}
}

static void
iface_method_call(GDBusConnection *connection, const gchar *sender, const gchar *object_path,
                  const gchar *interface_name, const gchar *method_name, GVariant *parameters,
                  GDBusMethodInvocation *invocation, gpointer user_data)
{
	IwdIface *self = user_data;

	if (g_str_equal(interface_name, PROPERTIES_IFACE)) {
		iface_properties_call(self, method_name, parameters, invocation);
		return;
	}
	for (const IwdMethod *m = self->methods; m != NULL && m->name != NULL; m++) {
		if (g_str_equal(m->name, method_name)) {
			joind_call_start(G_DBUS_INTERFACE_SKELETON(self), invocation, self, m->func,
			                 NULL, NULL);
			return;
		}
	}
	/* A member of iwd's introspection that this front end leaves out
	 * (README, "What differs from iwd") answers as iwd does for a
	 * feature it was built without. */
	g_dbus_method_invocation_return_error(invocation, IWD_ERROR, IWD_ERROR_NOT_SUPPORTED,
	                                      "joind's iwd-compatible API leaves out %s.%s.",
	                                      interface_name, method_name);
}

/* No get_property and set_property: GDBus then hands Properties.Get,
 * GetAll and Set to method_call, after checking that the property exists
 * and (Set) is writable with a value of its type. */
static GDBusInterfaceVTable iface_vtable = {.method_call = iface_method_call};

static GDBusInterfaceInfo *
iface_get_info(GDBusInterfaceSkeleton *skeleton)
{
	return IWD_IFACE(skeleton)->info;
}

static GDBusInterfaceVTable *
iface_get_vtable(GDBusInterfaceSkeleton *skeleton)
{
	return &iface_vtable;
}

static GVariant *
iface_get_properties(GDBusInterfaceSkeleton *skeleton)
{
	return iface_build_properties(IWD_IFACE(skeleton), NULL);
}

static void
iface_flush(GDBusInterfaceSkeleton *skeleton)
{
	iface_emit_changed(IWD_IFACE(skeleton));
}

/* ---- life cycle ------------------------------------------------------------ */

static void
iwd_iface_finalize(GObject *object)
{
	IwdIface *self = IWD_IFACE(object);

	g_clear_handle_id(&self->idle_id, g_source_remove);
	g_hash_table_unref(self->props);
	g_hash_table_unref(self->changed);
	g_clear_object(&self->model);
	g_free(self->source);
	g_dbus_interface_info_unref(self->info);
	G_OBJECT_CLASS(iwd_iface_parent_class)->finalize(object);
}

static void
iwd_iface_get_property(GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
	IwdIface *self = IWD_IFACE(object);

	if (prop_id == PROP_SOURCE)
		g_value_set_string(value, self->source != NULL ? self->source : "user");
	else
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
}

static void
iwd_iface_class_init(IwdIfaceClass *klass)
{
	GDBusInterfaceSkeletonClass *skeleton_class = G_DBUS_INTERFACE_SKELETON_CLASS(klass);
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->finalize = iwd_iface_finalize;
	object_class->get_property = iwd_iface_get_property;
	g_object_class_install_property(
	        object_class, PROP_SOURCE,
	        g_param_spec_string("source", NULL, NULL, "user",
	                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
	skeleton_class->get_info = iface_get_info;
	skeleton_class->get_vtable = iface_get_vtable;
	skeleton_class->get_properties = iface_get_properties;
	skeleton_class->flush = iface_flush;
}

static void
iwd_iface_init(IwdIface *self)
{
	self->props = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                    (GDestroyNotify)g_variant_unref);
	self->changed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

IwdIface *
iwd_iface_new(GDBusInterfaceInfo *info, const IwdMethod *methods, JoindCallFunc setter,
              gpointer model)
{
	IwdIface *self = g_object_new(IWD_TYPE_IFACE, NULL);

	self->info = g_dbus_interface_info_ref(info);
	self->methods = methods;
	self->setter = setter;
	self->model = model != NULL ? g_object_ref(model) : NULL;
	return self;
}

gpointer
iwd_iface_get_model(IwdIface *self)
{
	return self->model;
}

void
iwd_iface_set_context(IwdIface *self, gpointer context)
{
	self->context = context;
}

gpointer
iwd_iface_get_context(IwdIface *self)
{
	return self->context;
}

void
iwd_iface_set_source(IwdIface *self, const gchar *source)
{
	g_free(self->source);
	self->source = g_strdup(source);
}
