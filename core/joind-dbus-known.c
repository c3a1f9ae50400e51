/* joind-dbus-known.c - KnownNetwork1 objects that follow the profile store.
 *
 * An object shows what its profile file says (Hidden, AutoConnect) and what
 * state.json remembers (LastConnectedTime, Source). Writing AutoConnect and
 * calling Forget() take the core's one call path (joind-dbus-call.h),
 * then change the file; the object follows through the store's
 * profile-changed signal like it does for an administrator's edits, so
 * there is one way in for every change.
 */
#include "joind-dbus-known.h"

#include <stdlib.h>
#include <string.h>

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-eap-seen.h"
#include "joind-error.h"
#include "joind-json.h"
#include "joind-profile-private.h"
#include "joind-station.h"

#define KNOWN_PATH_PREFIX "/net/joind/known/"
#define SETTINGS_GROUP    "Settings"
#define AUTOCONNECT_KEY   "AutoConnect"
#define HIDDEN_KEY        "Hidden"
#define AUTOCONNECT_DBUS  "AutoConnect"

/* ---- the skeleton ------------------------------------------------------- */

#define JOIND_TYPE_KNOWN_SKELETON (joind_known_skeleton_get_type())
G_DECLARE_FINAL_TYPE(JoindKnownSkeleton, joind_known_skeleton, JOIND, KNOWN_SKELETON,
                     JoindDBusKnownNetwork1Skeleton)

struct _JoindKnownSkeleton {
	JoindDBusKnownNetwork1Skeleton parent_instance;
	JoindCore *core; /* outlives the object (the exporter is the core's) */
	GBytes *ssid;
	JoindProfileType type;
};

G_DEFINE_FINAL_TYPE(JoindKnownSkeleton, joind_known_skeleton,
                    JOIND_DBUS_TYPE_KNOWN_NETWORK1_SKELETON)

/* The profile is looked up again once the gate has answered: the file
 * may have changed meanwhile. */
static JoindProfile *
known_find_profile(JoindDBusCall *call, JoindKnownSkeleton *self)
{
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(self->ssid, &len);
	JoindProfile *profile = joind_core_find_network_profile(self->core, ssid, len, self->type);

	if (profile == NULL)
		joind_dbus_call_return_new_error(call, JOIND_ERROR_NOT_FOUND,
		                                 "This network is not known any more.");
	return profile;
}

static void
known_forget(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindKnownSkeleton *self = target;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = known_find_profile(call, self);
	gboolean ok;

	if (profile == NULL)
		return;
	g_info("forgetting %s", joind_profile_get_path(profile));
	ok = joind_core_remove_profile(self->core, profile, &error);
	joind_dbus_call_return_result(call, ok, error);
}

static void
known_set_property(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindKnownSkeleton *self = target;
	const gchar *property = NULL;
	g_autoptr(GVariant) value = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	const gchar *const keys[] = {AUTOCONNECT_KEY, NULL};
	const gchar *values[] = {NULL, NULL};
	gboolean ok;

	g_variant_get(g_dbus_method_invocation_get_parameters(joind_dbus_call_get_invocation(call)),
	              "(&s&sv)", NULL, &property, &value);
	/* GDBus checked writability and type already; AutoConnect is the only
	 * writable property, and this keeps it so should another be added. */
	if (g_strcmp0(property, AUTOCONNECT_DBUS) != 0 ||
	    !g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN)) {
		joind_dbus_call_return_new_error(call, JOIND_ERROR_INVALID_ARGS,
		                                 "%s cannot be set to this value.", property);
		return;
	}
	profile = known_find_profile(call, self);
	if (profile == NULL)
		return;
	values[0] = g_variant_get_boolean(value) ? "true" : "false";
	ok = joind_core_update_profile_keys(self->core, profile, SETTINGS_GROUP, keys, values,
	                                    &error);
	joind_dbus_call_return_result(call, ok, error);
}

static void
joind_known_skeleton_finalize(GObject *object)
{
	JoindKnownSkeleton *self = JOIND_KNOWN_SKELETON(object);

	g_clear_pointer(&self->ssid, g_bytes_unref);
	G_OBJECT_CLASS(joind_known_skeleton_parent_class)->finalize(object);
}

static void
joind_known_skeleton_class_init(JoindKnownSkeletonClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_known_skeleton_finalize;
	joind_dbus_call_class_route_setters(G_DBUS_INTERFACE_SKELETON_CLASS(klass),
	                                    known_set_property);
}

static void
joind_known_skeleton_init(JoindKnownSkeleton *self)
{
	joind_dbus_call_connect(self, "handle-forget", self, known_forget, NULL);
}

/* ---- the objects -------------------------------------------------------- */

typedef struct {
	JoindDBusObjectSkeleton *object;
	JoindKnownSkeleton *iface;
	JoindProfile *profile; /* the snapshot shown */
} KnownObject;

struct _JoindDBusKnown {
	GDBusObjectManagerServer *manager;
	JoindCore *core;
	JoindKnownState *state;
	JoindProfileStore *store;
	gulong error_id;
	GHashTable *objects; /* path -> KnownObject */
};

static void
known_object_free(gpointer data)
{
	KnownObject *ko = data;

	g_object_unref(ko->object);
	g_object_unref(ko->iface);
	g_object_unref(ko->profile);
	g_free(ko);
}

gchar *
joind_dbus_known_path(JoindProfile *profile)
{
	g_autofree gchar *id = profile != NULL ? joind_known_network_id_for_profile(profile) : NULL;

	return id != NULL ? g_strconcat(KNOWN_PATH_PREFIX, id, NULL) : g_strdup("/");
}

static const gchar *
known_source(JoindDBusKnown *self, const guint8 *ssid, gsize len, JoindProfileType type)
{
	return joind_known_state_get_user_saved(self->state, ssid, len, type) ? "user" : "admin";
}

static const gchar *
known_profile_error(JoindDBusKnown *self, JoindProfile *profile)
{
	const gchar *error =
	        joind_profile_store_get_error(self->store, joind_profile_get_path(profile));

	return error != NULL ? error : "";
}

/* Copies the profile's settings and the remembered state onto the
 * interface; the skeleton signals only what differs. */
static void
known_object_sync(JoindDBusKnown *self, KnownObject *ko)
{
	JoindDBusKnownNetwork1 *iface = JOIND_DBUS_KNOWN_NETWORK1(ko->iface);
	JoindProfileType type = joind_profile_get_profile_type(ko->profile);
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_profile_get_ssid(ko->profile), &len);
	g_autofree gchar *name = joind_ssid_to_display(ssid, len);
	g_autofree gchar *when = joind_known_time_to_string(
	        joind_known_state_get_last_connected(self->state, ssid, len, type));

	joind_dbus_known_network1_set_name(iface, name);
	joind_dbus_known_network1_set_type_(iface, joind_profile_type_to_extension(type));
	joind_dbus_known_network1_set_hidden(
	        iface, joind_profile_get_boolean(ko->profile, SETTINGS_GROUP, HIDDEN_KEY, FALSE));
	joind_dbus_known_network1_set_auto_connect(
	        iface,
	        joind_profile_get_boolean(ko->profile, SETTINGS_GROUP, AUTOCONNECT_KEY, TRUE));
	joind_dbus_known_network1_set_last_connected_time(iface, when);
	joind_dbus_known_network1_set_source(iface, known_source(self, ssid, len, type));
	joind_dbus_known_network1_set_profile_error(iface, known_profile_error(self, ko->profile));
}

static void
known_export(JoindDBusKnown *self, const gchar *path, JoindProfile *profile)
{
	KnownObject *ko = g_new0(KnownObject, 1);

	ko->object = joind_dbus_object_skeleton_new(path);
	ko->iface = g_object_new(JOIND_TYPE_KNOWN_SKELETON, NULL);
	ko->iface->core = self->core;
	ko->iface->ssid = g_bytes_ref(joind_profile_get_ssid(profile));
	ko->iface->type = joind_profile_get_profile_type(profile);
	ko->profile = g_object_ref(profile);
	known_object_sync(self, ko);
	joind_dbus_object_skeleton_set_known_network1(ko->object,
	                                              JOIND_DBUS_KNOWN_NETWORK1(ko->iface));
	g_hash_table_insert(self->objects, g_strdup(path), ko);
	g_dbus_object_manager_server_export(self->manager, G_DBUS_OBJECT_SKELETON(ko->object));
	g_debug("known network %s exported at %s", joind_profile_get_path(profile), path);
}

void
joind_dbus_known_profile_changed(JoindDBusKnown *self, JoindProfile *profile,
                                 JoindProfileChange change)
{
	g_autofree gchar *path = NULL;
	KnownObject *ko;

	if (joind_profile_get_profile_type(profile) == JOIND_PROFILE_TYPE_WIRED)
		return;
	path = joind_dbus_known_path(profile);
	ko = g_hash_table_lookup(self->objects, path);
	if (change == JOIND_PROFILE_CHANGE_REMOVED) {
		if (ko == NULL)
			return;
		g_dbus_object_manager_server_unexport(self->manager, path);
		g_hash_table_remove(self->objects, path);
		return;
	}
	if (ko == NULL) {
		known_export(self, path, profile);
		return;
	}
	g_set_object(&ko->profile, profile);
	known_object_sync(self, ko);
}

void
joind_dbus_known_refresh(JoindDBusKnown *self, const guint8 *ssid, gsize ssid_len,
                         JoindProfileType type)
{
	g_autofree gchar *id = joind_known_network_id(ssid, ssid_len, type);
	g_autofree gchar *path = id != NULL ? g_strconcat(KNOWN_PATH_PREFIX, id, NULL) : NULL;
	KnownObject *ko = path != NULL ? g_hash_table_lookup(self->objects, path) : NULL;

	if (ko != NULL)
		known_object_sync(self, ko);
}

/* The file of a known network became unreadable or readable again: its
 * object (if the network was known before) says so. */
static void
known_profile_error_changed(JoindProfileStore *store, const gchar *file, gpointer user_data)
{
	JoindDBusKnown *self = user_data;
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, self->objects);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		KnownObject *ko = value;

		if (g_strcmp0(joind_profile_get_path(ko->profile), file) == 0)
			known_object_sync(self, ko);
	}
}

JoindDBusKnown *
joind_dbus_known_new(GDBusObjectManagerServer *manager, JoindCore *core, JoindKnownState *state,
                     JoindProfileStore *store)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	JoindDBusKnown *self = g_new0(JoindDBusKnown, 1);

	self->manager = g_object_ref(manager);
	self->core = core;
	self->state = state;
	self->store = g_object_ref(store);
	self->objects = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, known_object_free);
	self->error_id = g_signal_connect(store, "profile-error",
	                                  G_CALLBACK(known_profile_error_changed), self);
	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(core, types[t]);

		for (guint i = 0; i < profiles->len; i++)
			joind_dbus_known_profile_changed(self, g_ptr_array_index(profiles, i),
			                                 JOIND_PROFILE_CHANGE_ADDED);
	}
	return self;
}

void
joind_dbus_known_free(JoindDBusKnown *self)
{
	GHashTableIter iter;
	gpointer path;

	if (self == NULL)
		return;
	g_hash_table_iter_init(&iter, self->objects);
	while (g_hash_table_iter_next(&iter, &path, NULL))
		g_dbus_object_manager_server_unexport(self->manager, path);
	g_clear_signal_handler(&self->error_id, self->store);
	g_object_unref(self->store);
	g_hash_table_unref(self->objects);
	g_object_unref(self->manager);
	g_free(self);
}

/* ---- diagnostics -------------------------------------------------------- */

static void
diagnostics_add_known(JoindDBusKnown *self, JsonBuilder *b, KnownObject *ko)
{
	JoindDBusKnownNetwork1 *iface = JOIND_DBUS_KNOWN_NETWORK1(ko->iface);
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_profile_get_ssid(ko->profile), &len);
	g_autoptr(GArray) freqs = joind_known_state_get_frequencies(
	        self->state, ssid, len, joind_profile_get_profile_type(ko->profile));

	json_builder_begin_object(b);
	joind_json_add_string(
	        b, "path",
	        g_dbus_interface_skeleton_get_object_path(G_DBUS_INTERFACE_SKELETON(ko->iface)));
	joind_json_add_string(b, "name", joind_dbus_known_network1_get_name(iface));
	joind_json_add_string(b, "type", joind_dbus_known_network1_get_type_(iface));
	joind_json_add_bool(b, "hidden", joind_dbus_known_network1_get_hidden(iface));
	joind_json_add_bool(b, "autoconnect", joind_dbus_known_network1_get_auto_connect(iface));
	joind_json_add_string(b, "last_connected",
	                      joind_dbus_known_network1_get_last_connected_time(iface));
	joind_json_add_string(b, "source", joind_dbus_known_network1_get_source(iface));
	joind_json_add_string(b, "profile_error",
	                      joind_dbus_known_network1_get_profile_error(iface));
	joind_json_begin_array(b, "frequencies");
	for (guint i = 0; i < freqs->len; i++)
		json_builder_add_int_value(b, g_array_index(freqs, guint32, i));
	json_builder_end_array(b);
	/* What `joinctl known-networks trust` shows before pinning. */
	joind_eap_seen_add_json(b, "server_certificate", joind_profile_get_path(ko->profile));
	json_builder_end_object(b);
}

static gint
compare_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const gchar *const *)a, *(const gchar *const *)b);
}

void
joind_dbus_known_add_diagnostics(JoindDBusKnown *self, JsonBuilder *b)
{
	g_autofree gpointer *paths = NULL;
	guint n = 0;

	joind_json_begin_array(b, "known_networks");
	if (self != NULL) {
		paths = g_hash_table_get_keys_as_array(self->objects, &n);
		qsort(paths, n, sizeof(gpointer), compare_paths);
	}
	for (guint i = 0; i < n; i++)
		diagnostics_add_known(self, b, g_hash_table_lookup(self->objects, paths[i]));
	json_builder_end_array(b);
}
