/* joind-dbus-known.c - KnownNetwork1 objects that follow the profile store.
 *
 * An object shows what its profile file says (Hidden, AutoConnect) and what
 * state.json remembers (LastConnectedTime, Source). Writing AutoConnect and
 * calling Forget() take the core's one call path (joind-dbus-call.h),
 * then change the file; the object follows through the store's
 * profile-changed signal like it does for an administrator's edits, so
 * there is one way in for every change.
 *
 * There may be thousands of known networks, so they are no skeletons: one
 * subtree registration at /net/joind/known answers for all of them from a
 * small record per network (the profile snapshot shown and the state
 * last signalled), with the generated interface description, and
 * GetManagedObjects lists them from the same records
 * (joind-dbus-managed.h). InterfacesAdded, InterfacesRemoved and
 * PropertiesChanged are emitted here as the manager would.
 */
#include "joind-dbus-known.h"

#include <stdlib.h>
#include <string.h>

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-dbus-managed.h"
#include "joind-eap-seen.h"
#include "joind-error.h"
#include "joind-json.h"
#include "joind-profile-private.h"
#include "joind-station.h"

#define KNOWN_PATH_PREFIX "/net/joind/known/"
#define KNOWN_SUBTREE     "/net/joind/known"
#define KNOWN_IFACE       "net.joind.KnownNetwork1"
#define PROPERTIES_IFACE  "org.freedesktop.DBus.Properties"
#define SETTINGS_GROUP    "Settings"
#define AUTOCONNECT_KEY   "AutoConnect"
#define HIDDEN_KEY        "Hidden"
#define AUTOCONNECT_DBUS  "AutoConnect"

/* One known network: what its object shows. */
typedef struct {
	JoindProfile *profile; /* the snapshot shown; its path is the record's key */
	gint64 last_connected;
	gboolean user_saved;
} KnownRecord;

struct _JoindDBusKnown {
	JoindDBusManaged *managed; /* the core's */
	GDBusConnection *bus;
	JoindCore *core;
	JoindKnownState *state;
	JoindProfileStore *store;
	gulong error_id;
	guint subtree_id;
	GHashTable *records; /* profile file path -> KnownRecord */
};

static void
known_record_free(gpointer data)
{
	KnownRecord *rec = data;

	g_object_unref(rec->profile);
	g_free(rec);
}

gchar *
joind_dbus_known_path(JoindProfile *profile)
{
	g_autofree gchar *id = profile != NULL ? joind_known_network_id_for_profile(profile) : NULL;

	return id != NULL ? g_strconcat(KNOWN_PATH_PREFIX, id, NULL) : g_strdup("/");
}

/* ---- what an object shows ------------------------------------------------ */

static const guint8 *
known_ssid(KnownRecord *rec, gsize *len)
{
	return g_bytes_get_data(joind_profile_get_ssid(rec->profile), len);
}

/* The remembered state of rec's network, as it is now. */
static void
known_read_state(JoindDBusKnown *self, KnownRecord *rec, gint64 *last, gboolean *user_saved)
{
	gsize len = 0;
	const guint8 *ssid = known_ssid(rec, &len);
	JoindProfileType type = joind_profile_get_profile_type(rec->profile);

	*last = joind_known_state_get_last_connected(self->state, ssid, len, type);
	*user_saved = joind_known_state_get_user_saved(self->state, ssid, len, type);
}

/* A property's value: a string or a boolean. */
typedef struct {
	gboolean is_boolean;
	gboolean boolean;
	const gchar *string;
	gchar *owned; /* string, when made for this value */
} KnownValue;

/* A property's value, from the record; FALSE for no such property. */
static gboolean
known_value(JoindDBusKnown *self, KnownRecord *rec, const gchar *name, KnownValue *v)
{
	JoindProfile *p = rec->profile;
	const gchar *error;

	*v = (KnownValue){0};
	if (strcmp(name, "Name") == 0)
		v->string = joind_profile_get_name(p);
	else if (strcmp(name, "Type") == 0)
		v->string = joind_profile_type_to_extension(joind_profile_get_profile_type(p));
	else if (strcmp(name, "Hidden") == 0)
		v->boolean = joind_profile_get_boolean(p, SETTINGS_GROUP, HIDDEN_KEY, FALSE);
	else if (strcmp(name, "AutoConnect") == 0)
		v->boolean = joind_profile_get_boolean(p, SETTINGS_GROUP, AUTOCONNECT_KEY, TRUE);
	else if (strcmp(name, "LastConnectedTime") == 0)
		v->string = v->owned = joind_known_time_to_string(rec->last_connected);
	else if (strcmp(name, "Source") == 0)
		v->string = rec->user_saved ? "user" : "admin";
	else if (strcmp(name, "ProfileError") == 0) {
		error = joind_profile_store_get_error(self->store, joind_profile_get_path(p));
		v->string = error != NULL ? error : "";
	} else
		return FALSE;
	v->is_boolean = v->string == NULL;
	return TRUE;
}

/* A property's value (floating), from the record; NULL for no such
 * property. */
static GVariant *
known_property(JoindDBusKnown *self, KnownRecord *rec, const gchar *name)
{
	KnownValue v;
	GVariant *value;

	if (!known_value(self, rec, name, &v))
		return NULL;
	value = v.is_boolean ? g_variant_new_boolean(v.boolean) : g_variant_new_string(v.string);
	g_free(v.owned);
	return value;
}

/* Every property of rec, added to b (an a{sv} being built). */
static void
known_add_properties(JoindDBusKnown *self, KnownRecord *rec, GVariantBuilder *b)
{
	GDBusInterfaceInfo *info = joind_dbus_known_network1_interface_info();

	for (guint i = 0; info->properties[i] != NULL; i++) {
		const gchar *name = info->properties[i]->name;

		g_variant_builder_add(b, "{sv}", name, known_property(self, rec, name));
	}
}

/* ---- signals ---------------------------------------------------------- */

static void
known_emit(JoindDBusKnown *self, const gchar *path, const gchar *iface, const gchar *member,
           GVariant *params)
{
	g_autoptr(GError) error = NULL;

	if (!g_dbus_connection_emit_signal(self->bus, NULL, path, iface, member, params, &error))
		g_debug("%s.%s on %s not sent: %s", iface, member, path, error->message);
}

static void
known_emit_added(JoindDBusKnown *self, KnownRecord *rec)
{
	g_autofree gchar *path = joind_dbus_known_path(rec->profile);
	GVariantBuilder ifaces;

	g_variant_builder_init(&ifaces, G_VARIANT_TYPE("a{sa{sv}}"));
	g_variant_builder_open(&ifaces, G_VARIANT_TYPE("{sa{sv}}"));
	g_variant_builder_add(&ifaces, "s", KNOWN_IFACE);
	g_variant_builder_open(&ifaces, G_VARIANT_TYPE_VARDICT);
	known_add_properties(self, rec, &ifaces);
	g_variant_builder_close(&ifaces);
	g_variant_builder_close(&ifaces);
	joind_dbus_managed_emit_added(self->managed, path, g_variant_builder_end(&ifaces));
}

static void
known_emit_removed(JoindDBusKnown *self, JoindProfile *profile)
{
	g_autofree gchar *path = joind_dbus_known_path(profile);
	const gchar *ifaces[] = {KNOWN_IFACE};

	joind_dbus_managed_emit_removed(self->managed, path, ifaces, 1);
}

/* PropertiesChanged for the properties named (NULL-terminated), with
 * their values now. */
static void
known_emit_changed(JoindDBusKnown *self, KnownRecord *rec, const gchar *const *names)
{
	g_autofree gchar *path = NULL;
	GVariantBuilder changed;

	if (names[0] == NULL)
		return;
	path = joind_dbus_known_path(rec->profile);
	g_variant_builder_init(&changed, G_VARIANT_TYPE_VARDICT);
	for (guint i = 0; names[i] != NULL; i++)
		g_variant_builder_add(&changed, "{sv}", names[i],
		                      known_property(self, rec, names[i]));
	known_emit(
	        self, path, PROPERTIES_IFACE, "PropertiesChanged",
	        g_variant_new("(sa{sv}@as)", KNOWN_IFACE, &changed, g_variant_new_strv(NULL, 0)));
}

/* ---- following the store ---------------------------------------------- */

static KnownRecord *
known_lookup(JoindDBusKnown *self, JoindProfile *profile)
{
	return g_hash_table_lookup(self->records, joind_profile_get_path(profile));
}

static KnownRecord *
known_insert(JoindDBusKnown *self, JoindProfile *profile)
{
	KnownRecord *rec = g_new0(KnownRecord, 1);

	rec->profile = g_object_ref(profile);
	known_read_state(self, rec, &rec->last_connected, &rec->user_saved);
	g_hash_table_insert(self->records, (gpointer)joind_profile_get_path(profile), rec);
	return rec;
}

/* Shows profile (a new snapshot of rec's file) and the state now,
 * signalling what differs. */
static void
known_update(JoindDBusKnown *self, KnownRecord *rec, JoindProfile *profile)
{
	const gchar *changed[5] = {NULL};
	guint n = 0;
	gint64 last;
	gboolean user_saved;

	if (profile != rec->profile) {
		if (joind_profile_get_boolean(profile, SETTINGS_GROUP, HIDDEN_KEY, FALSE) !=
		    joind_profile_get_boolean(rec->profile, SETTINGS_GROUP, HIDDEN_KEY, FALSE))
			changed[n++] = "Hidden";
		if (joind_profile_get_boolean(profile, SETTINGS_GROUP, AUTOCONNECT_KEY, TRUE) !=
		    joind_profile_get_boolean(rec->profile, SETTINGS_GROUP, AUTOCONNECT_KEY, TRUE))
			changed[n++] = "AutoConnect";
		/* The key is the old snapshot's string: re-key with the new one. */
		g_hash_table_steal(self->records, joind_profile_get_path(rec->profile));
		g_set_object(&rec->profile, profile);
		g_hash_table_insert(self->records, (gpointer)joind_profile_get_path(profile), rec);
	}
	known_read_state(self, rec, &last, &user_saved);
	if (last != rec->last_connected)
		changed[n++] = "LastConnectedTime";
	if (user_saved != rec->user_saved)
		changed[n++] = "Source";
	rec->last_connected = last;
	rec->user_saved = user_saved;
	known_emit_changed(self, rec, changed);
}

void
joind_dbus_known_profile_changed(JoindDBusKnown *self, JoindProfile *profile,
                                 JoindProfileChange change)
{
	KnownRecord *rec;

	if (joind_profile_get_profile_type(profile) == JOIND_PROFILE_TYPE_WIRED ||
	    joind_profile_get_ssid(profile) == NULL)
		return;
	rec = known_lookup(self, profile);
	if (change == JOIND_PROFILE_CHANGE_REMOVED) {
		if (rec == NULL)
			return;
		known_emit_removed(self, rec->profile);
		g_hash_table_remove(self->records, joind_profile_get_path(profile));
		return;
	}
	if (rec == NULL) {
		known_emit_added(self, known_insert(self, profile));
		g_debug("known network %s exported", joind_profile_get_path(profile));
		return;
	}
	known_update(self, rec, profile);
}

void
joind_dbus_known_refresh(JoindDBusKnown *self, const guint8 *ssid, gsize ssid_len,
                         JoindProfileType type)
{
	g_autoptr(JoindProfile) profile =
	        joind_profile_store_find_network(self->store, ssid, ssid_len, type);
	KnownRecord *rec = profile != NULL ? known_lookup(self, profile) : NULL;

	if (rec != NULL)
		known_update(self, rec, rec->profile);
}

/* The file of a known network became unreadable or readable again: its
 * object (if the network was known before) says so. */
static void
known_profile_error_changed(JoindProfileStore *store, const gchar *file, gpointer user_data)
{
	JoindDBusKnown *self = user_data;
	KnownRecord *rec = g_hash_table_lookup(self->records, file);
	const gchar *changed[] = {"ProfileError", NULL};

	if (rec != NULL)
		known_emit_changed(self, rec, changed);
}

/* ---- calls ------------------------------------------------------------- */

/* What a call acts on: the network, looked up again once the gate has
 * answered (the file may have changed meanwhile). The skeleton is the
 * call's interface and target for the gate (which reads its Source); it
 * is never exported. */
typedef struct {
	JoindDBusKnownNetwork1 *iface;
	JoindCore *core;
	GBytes *ssid;
	JoindProfileType type;
} KnownCall;

static void
known_call_free(gpointer data)
{
	KnownCall *kc = data;

	g_object_unref(kc->iface);
	g_bytes_unref(kc->ssid);
	g_free(kc);
}

static JoindProfile *
known_find_profile(JoindDBusCall *call, KnownCall *kc)
{
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(kc->ssid, &len);
	JoindProfile *profile = joind_core_find_network_profile(kc->core, ssid, len, kc->type);

	if (profile == NULL)
		joind_dbus_call_return_new_error(call, JOIND_ERROR_NOT_FOUND,
		                                 "This network is not known any more.");
	return profile;
}

static void
known_forget(JoindDBusCall *call, gpointer target, gpointer data)
{
	KnownCall *kc = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile = known_find_profile(call, kc);
	gboolean ok;

	if (profile == NULL)
		return;
	g_info("forgetting %s", joind_profile_get_path(profile));
	ok = joind_core_remove_profile(kc->core, profile, &error);
	joind_dbus_call_return_result(call, ok, error);
}

static void
known_set_property(JoindDBusCall *call, gpointer target, gpointer data)
{
	KnownCall *kc = data;
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
	profile = known_find_profile(call, kc);
	if (profile == NULL)
		return;
	values[0] = g_variant_get_boolean(value) ? "true" : "false";
	ok = joind_core_update_profile_keys(kc->core, profile, SETTINGS_GROUP, keys, values,
	                                    &error);
	joind_dbus_call_return_result(call, ok, error);
}

/* The record an object path's last part names, NULL when none. */
static KnownRecord *
known_record_for_node(JoindDBusKnown *self, const gchar *node)
{
	guint8 ssid[JOIND_KNOWN_SSID_MAX_LEN];
	gsize len = 0;
	JoindProfileType type;
	g_autoptr(JoindProfile) profile = NULL;

	if (!joind_known_network_id_parse(node, ssid, &len, &type))
		return NULL;
	profile = joind_profile_store_find_network(self->store, ssid, len, type);
	return profile != NULL ? known_lookup(self, profile) : NULL;
}

static void
known_method_call(GDBusConnection *bus, const gchar *sender, const gchar *path,
                  const gchar *interface, const gchar *method, GVariant *params,
                  GDBusMethodInvocation *invocation, gpointer user_data)
{
	JoindDBusKnown *self = user_data;
	KnownRecord *rec = known_record_for_node(self, strrchr(path, '/') + 1);
	gboolean set = g_strcmp0(interface, PROPERTIES_IFACE) == 0;
	KnownCall *kc;

	if (rec == NULL || (!set && g_strcmp0(method, "Forget") != 0)) {
		g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR,
		                                      G_DBUS_ERROR_UNKNOWN_OBJECT,
		                                      "No such object %s", path);
		return;
	}
	kc = g_new0(KnownCall, 1);
	kc->iface = joind_dbus_known_network1_skeleton_new();
	joind_dbus_known_network1_set_source(kc->iface, rec->user_saved ? "user" : "admin");
	kc->core = self->core;
	kc->ssid = g_bytes_ref(joind_profile_get_ssid(rec->profile));
	kc->type = joind_profile_get_profile_type(rec->profile);
	joind_dbus_call_start(G_DBUS_INTERFACE_SKELETON(kc->iface), invocation, kc->iface,
	                      set ? known_set_property : known_forget, kc, known_call_free);
}

static GVariant *
known_get_property(GDBusConnection *bus, const gchar *sender, const gchar *path,
                   const gchar *interface, const gchar *property, GError **error,
                   gpointer user_data)
{
	JoindDBusKnown *self = user_data;
	KnownRecord *rec = known_record_for_node(self, strrchr(path, '/') + 1);
	GVariant *value = rec != NULL ? known_property(self, rec, property) : NULL;

	if (value == NULL)
		g_set_error(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY,
		            "No property %s on %s", property, path);
	return value;
}

/* set_property NULL: GDBus checks a write (writable, type) and hands it
 * to method_call, which takes it through the call path. */
static const GDBusInterfaceVTable known_vtable = {
        .method_call = known_method_call,
        .get_property = known_get_property,
};

/* ---- the subtree ----------------------------------------------------- */

static gchar **
known_enumerate(GDBusConnection *bus, const gchar *sender, const gchar *path, gpointer user_data)
{
	JoindDBusKnown *self = user_data;
	GPtrArray *nodes = g_ptr_array_new();
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, self->records);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		g_ptr_array_add(
		        nodes, joind_known_network_id_for_profile(((KnownRecord *)value)->profile));
	g_ptr_array_add(nodes, NULL);
	return (gchar **)g_ptr_array_free(nodes, FALSE);
}

static GDBusInterfaceInfo **
known_introspect(GDBusConnection *bus, const gchar *sender, const gchar *path, const gchar *node,
                 gpointer user_data)
{
	GDBusInterfaceInfo **infos;

	if (node == NULL || known_record_for_node(user_data, node) == NULL)
		return NULL;
	infos = g_new0(GDBusInterfaceInfo *, 2);
	infos[0] = g_dbus_interface_info_ref(joind_dbus_known_network1_interface_info());
	return infos;
}

static const GDBusInterfaceVTable *
known_dispatch(GDBusConnection *bus, const gchar *sender, const gchar *path, const gchar *interface,
               const gchar *node, gpointer *out_user_data, gpointer user_data)
{
	if (g_strcmp0(interface, KNOWN_IFACE) != 0 || node == NULL ||
	    known_record_for_node(user_data, node) == NULL)
		return NULL;
	*out_user_data = user_data;
	return &known_vtable;
}

static const GDBusSubtreeVTable known_subtree_vtable = {
        .enumerate = known_enumerate,
        .introspect = known_introspect,
        .dispatch = known_dispatch,
};

/* One known network's entry of GetManagedObjects, "{oa{sa{sv}}}". */
static void
known_write_managed(JoindDBusKnown *self, KnownRecord *rec, JoindVariantWriter *w)
{
	GDBusInterfaceInfo *info = joind_dbus_known_network1_interface_info();
	g_autofree gchar *path = joind_dbus_known_path(rec->profile);
	JoindVariantFrame entry, ifaces, iface, props, prop;

	joind_variant_writer_open(w, &entry, 8);
	joind_variant_writer_string(w, path);
	joind_variant_writer_mark(w, &entry);
	joind_variant_writer_open(w, &ifaces, 8);
	joind_variant_writer_open(w, &iface, 8);
	joind_variant_writer_string(w, KNOWN_IFACE);
	joind_variant_writer_mark(w, &iface);
	joind_variant_writer_open(w, &props, 8);
	for (guint i = 0; info->properties[i] != NULL; i++) {
		const gchar *name = info->properties[i]->name;
		KnownValue v;

		joind_variant_writer_open(w, &prop, 8);
		joind_variant_writer_string(w, name);
		joind_variant_writer_mark(w, &prop);
		known_value(self, rec, name, &v);
		joind_variant_writer_align(w, 8);
		if (v.is_boolean)
			joind_variant_writer_variant_boolean(w, v.boolean);
		else
			joind_variant_writer_variant_string(w, v.string);
		g_free(v.owned);
		joind_variant_writer_close(w, &prop, FALSE);
		joind_variant_writer_mark(w, &props);
	}
	joind_variant_writer_close(w, &props, TRUE);
	joind_variant_writer_close(w, &iface, FALSE);
	joind_variant_writer_mark(w, &ifaces);
	joind_variant_writer_close(w, &ifaces, TRUE);
	joind_variant_writer_close(w, &entry, FALSE);
}

/* Every known network's entry of GetManagedObjects. */
static void
known_add_managed(JoindVariantWriter *w, JoindVariantFrame *objects, gpointer user_data)
{
	JoindDBusKnown *self = user_data;
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, self->records);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		known_write_managed(self, value, w);
		joind_variant_writer_mark(w, objects);
	}
}

/* The objects are there before the name is on the bus: nobody can be
 * listening for their InterfacesAdded yet, so none is sent for them. */
JoindDBusKnown *
joind_dbus_known_new(JoindDBusManaged *managed, JoindCore *core, JoindKnownState *state,
                     JoindProfileStore *store)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	JoindDBusKnown *self = g_new0(JoindDBusKnown, 1);
	g_autoptr(GError) error = NULL;

	self->managed = managed;
	self->bus = g_object_ref(joind_dbus_managed_get_connection(managed));
	self->core = core;
	self->state = state;
	self->store = g_object_ref(store);
	self->records = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, known_record_free);
	self->error_id = g_signal_connect(store, "profile-error",
	                                  G_CALLBACK(known_profile_error_changed), self);
	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(core, types[t]);

		for (guint i = 0; i < profiles->len; i++) {
			JoindProfile *profile = g_ptr_array_index(profiles, i);

			if (joind_profile_get_ssid(profile) != NULL)
				known_insert(self, profile);
		}
	}
	self->subtree_id = g_dbus_connection_register_subtree(
	        self->bus, KNOWN_SUBTREE, &known_subtree_vtable,
	        G_DBUS_SUBTREE_FLAGS_DISPATCH_TO_UNENUMERATED_NODES, self, NULL, &error);
	if (self->subtree_id == 0)
		g_warning("known networks not on the bus: %s", error->message);
	joind_dbus_managed_add_source(managed, known_add_managed, self);
	return self;
}

/* The objects go with the name (the daemon is stopping): no
 * InterfacesRemoved for each. */
void
joind_dbus_known_free(JoindDBusKnown *self)
{
	if (self == NULL)
		return;
	joind_dbus_managed_remove_source(self->managed, self);
	if (self->subtree_id != 0)
		g_dbus_connection_unregister_subtree(self->bus, self->subtree_id);
	g_clear_signal_handler(&self->error_id, self->store);
	g_object_unref(self->store);
	g_hash_table_unref(self->records);
	g_object_unref(self->bus);
	g_free(self);
}

/* ---- diagnostics -------------------------------------------------------- */

static void
diagnostics_add_known(JoindDBusKnown *self, JsonBuilder *b, KnownRecord *rec)
{
	JoindProfile *p = rec->profile;
	JoindProfileType type = joind_profile_get_profile_type(p);
	gsize len = 0;
	const guint8 *ssid = known_ssid(rec, &len);
	g_autoptr(GArray) freqs = joind_known_state_get_frequencies(self->state, ssid, len, type);
	g_autofree gchar *path = joind_dbus_known_path(p);
	g_autofree gchar *when = joind_known_time_to_string(rec->last_connected);
	const gchar *error = joind_profile_store_get_error(self->store, joind_profile_get_path(p));

	json_builder_begin_object(b);
	joind_json_add_string(b, "path", path);
	joind_json_add_string(b, "name", joind_profile_get_name(p));
	joind_json_add_string(b, "type", joind_profile_type_to_extension(type));
	joind_json_add_bool(b, "hidden",
	                    joind_profile_get_boolean(p, SETTINGS_GROUP, HIDDEN_KEY, FALSE));
	joind_json_add_bool(b, "autoconnect",
	                    joind_profile_get_boolean(p, SETTINGS_GROUP, AUTOCONNECT_KEY, TRUE));
	joind_json_add_string(b, "last_connected", when);
	joind_json_add_string(b, "source", rec->user_saved ? "user" : "admin");
	joind_json_add_string(b, "profile_error", error != NULL ? error : "");
	joind_json_begin_array(b, "frequencies");
	for (guint i = 0; i < freqs->len; i++)
		json_builder_add_int_value(b, g_array_index(freqs, guint32, i));
	json_builder_end_array(b);
	/* What `joinctl known-networks trust` shows before pinning. */
	joind_eap_seen_add_json(b, "server_certificate", joind_profile_get_path(p));
	json_builder_end_object(b);
}

static gint
compare_records(gconstpointer a, gconstpointer b)
{
	g_autofree gchar *pa = joind_dbus_known_path((*(KnownRecord *const *)a)->profile);
	g_autofree gchar *pb = joind_dbus_known_path((*(KnownRecord *const *)b)->profile);

	return strcmp(pa, pb);
}

void
joind_dbus_known_add_diagnostics(JoindDBusKnown *self, JsonBuilder *b)
{
	g_autofree gpointer *records = NULL;
	guint n = 0;

	joind_json_begin_array(b, "known_networks");
	if (self != NULL) {
		records = g_hash_table_get_keys_as_array(self->records, &n);
		for (guint i = 0; i < n; i++)
			records[i] = g_hash_table_lookup(self->records, records[i]);
		qsort(records, n, sizeof(gpointer), compare_records);
	}
	for (guint i = 0; i < n; i++)
		diagnostics_add_known(self, b, records[i]);
	json_builder_end_array(b);
}
