/* joind-dbus-profile.c - net.joind.ProfileManager1 on the bus.
 *
 * Every method takes the core's one call path (joind-dbus-call.h), which
 * decides who may call it; managing profiles is polkit's action
 * net.joind.profile.manage. Logs say what was done to which profile and
 * for whom, never a value (settings carry secrets).
 */
#include "joind-dbus-profile.h"

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-profile-manager.h"

struct _JoindDBusProfile {
	JoindDBusProfileManager1 *skeleton;
	JoindProfileManager *manager;
};

static const gchar *
call_sender(JoindDBusCall *call)
{
	return g_dbus_method_invocation_get_sender(joind_dbus_call_get_invocation(call));
}

static GVariant *
call_params(JoindDBusCall *call)
{
	return g_dbus_method_invocation_get_parameters(joind_dbus_call_get_invocation(call));
}

static void
profile_create(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindDBusProfile *self = data;
	const gchar *kind = NULL, *name = NULL;
	g_autoptr(GVariant) settings = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *path = NULL;

	g_variant_get(call_params(call), "(&s&s@a{sv})", &kind, &name, &settings);
	path = joind_profile_manager_create(self->manager, kind, name, settings, &error);
	if (path == NULL) {
		joind_dbus_call_return_error(call, error);
		return;
	}
	g_info("%s profile %s created for %s", kind, path, call_sender(call));
	joind_dbus_call_return(call, g_variant_new("(o)", path));
}

static void
profile_update(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindDBusProfile *self = data;
	const gchar *path = NULL;
	g_autoptr(GVariant) set = NULL;
	g_autofree const gchar **unset = NULL;
	g_autoptr(GError) error = NULL;
	gboolean ok;

	g_variant_get(call_params(call), "(&o@a{sv}^a&s)", &path, &set, &unset);
	ok = joind_profile_manager_update(self->manager, path, set, unset, &error);
	if (ok)
		g_info("profile %s updated for %s", path, call_sender(call));
	joind_dbus_call_return_result(call, ok, error);
}

static void
profile_delete(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindDBusProfile *self = data;
	const gchar *path = NULL;
	g_autoptr(GError) error = NULL;
	gboolean ok;

	g_variant_get(call_params(call), "(&o)", &path);
	ok = joind_profile_manager_delete(self->manager, path, &error);
	if (ok)
		g_info("profile %s deleted for %s", path, call_sender(call));
	joind_dbus_call_return_result(call, ok, error);
}

static void
profile_validate(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindDBusProfile *self = data;
	const gchar *kind = NULL;
	g_autoptr(GVariant) settings = NULL;
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) problems = NULL;

	g_variant_get(call_params(call), "(&s@a{sv})", &kind, &settings);
	problems = joind_profile_manager_validate(self->manager, kind, settings, &error);
	if (problems == NULL) {
		joind_dbus_call_return_error(call, error);
		return;
	}
	joind_dbus_call_return(call, g_variant_new("(^as)", problems));
}

static void
profile_list(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindDBusProfile *self = data;
	GVariant *list = joind_profile_manager_list(self->manager);

	joind_dbus_call_return(call, g_variant_new_tuple(&list, 1));
}

/* Who may call what is the call path's to decide; with polkit every one
 * of these is the action net.joind.profile.manage. */
static const struct {
	const gchar *signal;
	JoindDBusCallFunc func;
} profile_methods[] = {
        {"handle-create-profile", profile_create}, {"handle-update-profile", profile_update},
        {"handle-delete-profile", profile_delete}, {"handle-validate-profile", profile_validate},
        {"handle-list-profiles", profile_list},
};

JoindDBusProfile *
joind_dbus_profile_new(GDBusConnection *bus, const gchar *path, JoindProfileStore *store,
                       JoindKnownState *known, GError **error)
{
	JoindDBusProfile *self = g_new0(JoindDBusProfile, 1);

	self->skeleton = joind_dbus_profile_manager1_skeleton_new();
	self->manager = joind_profile_manager_new(store, known);
	for (guint i = 0; i < G_N_ELEMENTS(profile_methods); i++)
		joind_dbus_call_connect(self->skeleton, profile_methods[i].signal, self->skeleton,
		                        profile_methods[i].func, self);
	if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(self->skeleton), bus, path,
	                                      error)) {
		joind_dbus_profile_free(self);
		return NULL;
	}
	return self;
}

void
joind_dbus_profile_free(JoindDBusProfile *self)
{
	if (self == NULL)
		return;
	if (g_dbus_interface_skeleton_get_connection(G_DBUS_INTERFACE_SKELETON(self->skeleton)))
		g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(self->skeleton));
	g_object_unref(self->skeleton);
	joind_profile_manager_free(self->manager);
	g_free(self);
}
