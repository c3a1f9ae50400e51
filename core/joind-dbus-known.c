/* joind-dbus-known.c - KnownNetwork1 objects that follow the profile store.
 *
 * An object shows what its profile file says (Hidden, AutoConnect) and what
 * state.json remembers (LastConnectedTime, Source). Writing AutoConnect and
 * calling Forget() pass the authorisation gate, then change the file; the
 * object follows through the store's profile-changed signal like it does
 * for an administrator's edits, so there is one way in for every change.
 *
 * The gate is asynchronous, so the property is not set through the
 * generated skeleton's synchronous set_property: a subclass hands
 * Properties.Set calls to the method-call path instead (GDBus does that
 * when the vtable's set_property is NULL), after GDBus has checked that
 * the property is writable and the value has its type.
 */
#include "joind-dbus-known.h"

#include <stdlib.h>
#include <string.h>

#include "joind-auth.h"
#include "joind-dbus-generated.h"
#include "joind-error.h"
#include "joind-profile-private.h"
#include "joind-station.h"

#define KNOWN_PATH_PREFIX "/net/joind/known/"
#define PROPERTIES_IFACE  "org.freedesktop.DBus.Properties"
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

static GDBusInterfaceVTable known_vtable;
static GDBusInterfaceMethodCallFunc parent_method_call;

/* One authorised change of a network's profile. The profile is looked up
 * again once the gate has answered: the file may have changed meanwhile. */
typedef struct {
	JoindCore *core; /* strong: the call may outlive the object */
	GBytes *ssid;
	JoindProfileType type;
	gboolean autoconnect;
	gboolean (*run)(JoindCore *core, JoindProfile *profile, gboolean autoconnect,
	                GError **error);
} KnownCall;

static void
known_call_free(gpointer data)
{
	KnownCall *call = data;

	g_object_unref(call->core);
	g_bytes_unref(call->ssid);
	g_free(call);
}

static void
known_call_authorized(GDBusMethodInvocation *invocation, gpointer user_data)
{
	KnownCall *call = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(call->ssid, &len);

	profile = joind_core_find_network_profile(call->core, ssid, len, call->type);
	if (profile == NULL) {
		g_dbus_method_invocation_return_error_literal(
		        invocation, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		        "This network is not known any more.");
		return;
	}
	if (!call->run(call->core, profile, call->autoconnect, &error)) {
		g_dbus_method_invocation_return_gerror(invocation, error);
		return;
	}
	g_dbus_method_invocation_return_value(invocation, NULL);
}

static void
known_call_start(JoindKnownSkeleton *self, GDBusMethodInvocation *invocation, gboolean autoconnect,
                 gboolean (*run)(JoindCore *, JoindProfile *, gboolean, GError **))
{
	KnownCall *call = g_new0(KnownCall, 1);

	call->core = g_object_ref(self->core);
	call->ssid = g_bytes_ref(self->ssid);
	call->type = self->type;
	call->autoconnect = autoconnect;
	call->run = run;
	joind_auth_check(invocation, known_call_authorized, call, known_call_free);
}

static gboolean
run_forget(JoindCore *core, JoindProfile *profile, gboolean unused, GError **error)
{
	g_info("forgetting %s", joind_profile_get_path(profile));
	return joind_core_remove_profile(core, profile, error);
}

static gboolean
run_set_autoconnect(JoindCore *core, JoindProfile *profile, gboolean autoconnect, GError **error)
{
	const gchar *const keys[] = {AUTOCONNECT_KEY, NULL};
	const gchar *const values[] = {autoconnect ? "true" : "false", NULL};

	return joind_core_update_profile_keys(core, profile, SETTINGS_GROUP, keys, values, error);
}

static gboolean
known_handle_forget(JoindDBusKnownNetwork1 *iface, GDBusMethodInvocation *invocation,
                    gpointer user_data)
{
	known_call_start(JOIND_KNOWN_SKELETON(iface), invocation, FALSE, run_forget);
	return TRUE;
}

static void
known_method_call(GDBusConnection *connection, const gchar *sender, const gchar *object_path,
                  const gchar *interface_name, const gchar *method_name, GVariant *parameters,
                  GDBusMethodInvocation *invocation, gpointer user_data)
{
	const gchar *property = NULL;
	g_autoptr(GVariant) value = NULL;

	if (g_strcmp0(interface_name, PROPERTIES_IFACE) != 0 ||
	    g_strcmp0(method_name, "Set") != 0) {
		parent_method_call(connection, sender, object_path, interface_name, method_name,
		                   parameters, invocation, user_data);
		return;
	}
	g_variant_get(parameters, "(&s&sv)", NULL, &property, &value);
	/* GDBus checked writability and type already; AutoConnect is the only
	 * writable property, and this keeps it so should another be added. */
	if (g_strcmp0(property, AUTOCONNECT_DBUS) != 0 ||
	    !g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN)) {
		g_dbus_method_invocation_return_error(invocation, JOIND_ERROR,
		                                      JOIND_ERROR_INVALID_ARGS,
		                                      "%s cannot be set to this value.", property);
		return;
	}
	known_call_start(JOIND_KNOWN_SKELETON(user_data), invocation, g_variant_get_boolean(value),
	                 run_set_autoconnect);
}

static GDBusInterfaceVTable *
known_get_vtable(GDBusInterfaceSkeleton *skeleton)
{
	return &known_vtable;
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
	GDBusInterfaceSkeletonClass *skeleton_class = G_DBUS_INTERFACE_SKELETON_CLASS(klass);
	GDBusInterfaceSkeletonClass *parent_class =
	        G_DBUS_INTERFACE_SKELETON_CLASS(joind_known_skeleton_parent_class);

	G_OBJECT_CLASS(klass)->finalize = joind_known_skeleton_finalize;
	known_vtable = *parent_class->get_vtable(NULL);
	parent_method_call = known_vtable.method_call;
	known_vtable.method_call = known_method_call;
	known_vtable.set_property = NULL; /* Set arrives at known_method_call */
	skeleton_class->get_vtable = known_get_vtable;
}

static void
joind_known_skeleton_init(JoindKnownSkeleton *self)
{
	g_signal_connect(self, "handle-forget", G_CALLBACK(known_handle_forget), NULL);
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

JoindDBusKnown *
joind_dbus_known_new(GDBusObjectManagerServer *manager, JoindCore *core, JoindKnownState *state)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	JoindDBusKnown *self = g_new0(JoindDBusKnown, 1);

	self->manager = g_object_ref(manager);
	self->core = core;
	self->state = state;
	self->objects = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, known_object_free);
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
	json_builder_set_member_name(b, "name");
	json_builder_add_string_value(b, joind_dbus_known_network1_get_name(iface));
	json_builder_set_member_name(b, "type");
	json_builder_add_string_value(b, joind_dbus_known_network1_get_type_(iface));
	json_builder_set_member_name(b, "hidden");
	json_builder_add_boolean_value(b, joind_dbus_known_network1_get_hidden(iface));
	json_builder_set_member_name(b, "autoconnect");
	json_builder_add_boolean_value(b, joind_dbus_known_network1_get_auto_connect(iface));
	json_builder_set_member_name(b, "last_connected");
	json_builder_add_string_value(b, joind_dbus_known_network1_get_last_connected_time(iface));
	json_builder_set_member_name(b, "source");
	json_builder_add_string_value(b, joind_dbus_known_network1_get_source(iface));
	json_builder_set_member_name(b, "frequencies");
	json_builder_begin_array(b);
	for (guint i = 0; i < freqs->len; i++)
		json_builder_add_int_value(b, g_array_index(freqs, guint32, i));
	json_builder_end_array(b);
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

	json_builder_set_member_name(b, "known_networks");
	json_builder_begin_array(b);
	if (self != NULL) {
		paths = g_hash_table_get_keys_as_array(self->objects, &n);
		qsort(paths, n, sizeof(gpointer), compare_paths);
	}
	for (guint i = 0; i < n; i++)
		diagnostics_add_known(self, b, g_hash_table_lookup(self->objects, paths[i]));
	json_builder_end_array(b);
}
