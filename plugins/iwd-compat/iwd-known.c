/* iwd-known.c - KnownNetwork objects (see iwd-known.h).
 *
 * Forget() and AutoConnect writes take the core's call path and change the
 * profile file; the object follows the store's "profile-changed" like it
 * does for an administrator's or NetworkManager's edits.
 */
#include "iwd-known.h"

#include "iwd-iface.h"
#include "iwd-introspection.h"
#include "iwd-names.h"

#define SETTINGS_GROUP  "Settings"
#define AUTOCONNECT_KEY "AutoConnect"
#define HIDDEN_KEY      "Hidden"

struct _IwdKnown {
	JoindCore *core;
	GDBusObjectManagerServer *manager;
	GHashTable *objects; /* path -> IwdIface (its object is the manager's) */
	gulong changed_id;
};

/* The profile behind an object, looked up again at every call: the file
 * may have changed since the object was made. */
static JoindProfile *
known_find_profile(JoindCore *core, IwdIface *iface)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	const gchar *path =
	        g_dbus_interface_skeleton_get_object_path(G_DBUS_INTERFACE_SKELETON(iface));

	for (guint t = 0; path != NULL && t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(core, types[t]);

		for (guint i = 0; i < profiles->len; i++) {
			JoindProfile *profile = g_ptr_array_index(profiles, i);
			g_autofree gchar *known =
			        iwd_known_path(joind_profile_get_ssid(profile), types[t]);

			if (g_strcmp0(known, path) == 0)
				return g_object_ref(profile);
		}
	}
	return NULL;
}

static JoindProfile *
known_call_profile(JoindCall *call, IwdIface *iface)
{
	JoindProfile *profile = known_find_profile(iwd_iface_get_context(iface), iface);
	g_autoptr(GError) error = NULL;

	if (profile == NULL) {
		error = g_error_new_literal(IWD_ERROR, IWD_ERROR_NOT_FOUND,
		                            "This network is not known any more.");
		joind_call_return_error(call, error);
	}
	return profile;
}

static void
known_forget(JoindCall *call, gpointer target, gpointer data)
{
	g_autoptr(JoindProfile) profile = known_call_profile(call, target);
	g_autoptr(GError) error = NULL;
	gboolean ok;

	if (profile == NULL)
		return;
	g_info("forgetting %s (asked over iwd's API)", joind_profile_get_path(profile));
	ok = joind_core_remove_profile(iwd_iface_get_context(target), profile, &error);
	joind_call_return_result(call, ok, error);
}

/* AutoConnect is the one writable property (GDBus checked the type). */
static void
known_set_property(JoindCall *call, gpointer target, gpointer data)
{
	GVariant *params = g_dbus_method_invocation_get_parameters(joind_call_get_invocation(call));
	g_autoptr(GVariant) value = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	const gchar *const keys[] = {AUTOCONNECT_KEY, NULL};
	const gchar *values[] = {NULL, NULL};
	gboolean ok;

	g_variant_get(params, "(&s&sv)", NULL, NULL, &value);
	profile = known_call_profile(call, target);
	if (profile == NULL)
		return;
	values[0] = g_variant_get_boolean(value) ? "true" : "false";
	ok = joind_core_update_profile_keys(iwd_iface_get_context(target), profile, SETTINGS_GROUP,
	                                    keys, values, &error);
	joind_call_return_result(call, ok, error);
}

static const IwdMethod known_methods[] = {
        {"Forget", known_forget},
        {NULL, NULL},
};

static void
known_sync(IwdKnown *self, IwdIface *iface, JoindProfile *profile)
{
	JoindProfileType type = joind_profile_get_profile_type(profile);
	GBytes *ssid = joind_profile_get_ssid(profile);
	gsize len = 0;
	const guint8 *bytes = g_bytes_get_data(ssid, &len);
	g_autofree gchar *when =
	        iwd_time_string(joind_core_get_last_connected(self->core, bytes, len, type));

	iwd_iface_set_source(iface,
	                     joind_core_profile_is_admin(self->core, profile) ? "admin" : "user");
	iwd_iface_set(iface, "Name", g_variant_new_string(joind_profile_get_name(profile)));
	iwd_iface_set(iface, "Type", g_variant_new_string(joind_profile_type_to_extension(type)));
	iwd_iface_set(iface, "Hidden",
	              g_variant_new_boolean(joind_profile_get_boolean(profile, SETTINGS_GROUP,
	                                                              HIDDEN_KEY, FALSE)));
	iwd_iface_set(iface, "LastConnectedTime", when != NULL ? g_variant_new_string(when) : NULL);
	iwd_iface_set(iface, "AutoConnect",
	              g_variant_new_boolean(joind_profile_get_boolean(profile, SETTINGS_GROUP,
	                                                              AUTOCONNECT_KEY, TRUE)));
}

static void
known_add_or_update(IwdKnown *self, JoindProfile *profile)
{
	g_autofree gchar *path = iwd_known_path(joind_profile_get_ssid(profile),
	                                        joind_profile_get_profile_type(profile));
	g_autoptr(GDBusObjectSkeleton) object = NULL;
	IwdIface *iface;

	if (path == NULL)
		return;
	iface = g_hash_table_lookup(self->objects, path);
	if (iface != NULL) {
		known_sync(self, iface, profile);
		return;
	}
	iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_KNOWN), known_methods,
	                      known_set_property, NULL);
	iwd_iface_set_context(iface, self->core);
	known_sync(self, iface, profile);
	object = g_dbus_object_skeleton_new(path);
	g_dbus_object_skeleton_add_interface(object, G_DBUS_INTERFACE_SKELETON(iface));
	g_hash_table_insert(self->objects, g_strdup(path), iface);
	g_dbus_object_manager_server_export(self->manager, object);
}

static void
known_profile_changed(JoindCore *core, JoindProfile *profile, JoindProfileChange change,
                      gpointer user_data)
{
	IwdKnown *self = user_data;
	g_autofree gchar *path = NULL;

	if (change != JOIND_PROFILE_CHANGE_REMOVED) {
		known_add_or_update(self, profile);
		return;
	}
	path = iwd_known_path(joind_profile_get_ssid(profile),
	                      joind_profile_get_profile_type(profile));
	if (path != NULL && g_hash_table_remove(self->objects, path))
		g_dbus_object_manager_server_unexport(self->manager, path);
}

void
iwd_known_refresh(IwdKnown *self)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};

	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(self->core, types[t]);

		for (guint i = 0; i < profiles->len; i++)
			known_add_or_update(self, g_ptr_array_index(profiles, i));
	}
}

IwdKnown *
iwd_known_new(JoindCore *core, GDBusObjectManagerServer *manager)
{
	IwdKnown *self = g_new0(IwdKnown, 1);

	self->core = core;
	self->manager = g_object_ref(manager);
	self->objects = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
	iwd_known_refresh(self);
	self->changed_id =
	        g_signal_connect(core, "profile-changed", G_CALLBACK(known_profile_changed), self);
	return self;
}

void
iwd_known_free(IwdKnown *self)
{
	GHashTableIter iter;
	gpointer path;

	if (self == NULL)
		return;
	g_signal_handler_disconnect(self->core, self->changed_id);
	g_hash_table_iter_init(&iter, self->objects);
	while (g_hash_table_iter_next(&iter, &path, NULL))
		g_dbus_object_manager_server_unexport(self->manager, path);
	g_hash_table_unref(self->objects);
	g_object_unref(self->manager);
	g_free(self);
}
