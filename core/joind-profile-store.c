/* joind-profile-store.c - interim store: wired profiles only, loaded once.
 * The profile room replaces this with the full store (all types, live
 * reload, atomic saves). */
#include "joind-profile-store.h"

#include <glib/gstdio.h>

#include "joind-error.h"

struct _JoindProfileStore {
	GObject parent_instance;
	gchar *state_dir;
	GPtrArray *profiles;
};

G_DEFINE_TYPE(JoindProfileStore, joind_profile_store, G_TYPE_OBJECT)

static void
joind_profile_store_finalize(GObject *object)
{
	JoindProfileStore *self = JOIND_PROFILE_STORE(object);

	g_ptr_array_unref(self->profiles);
	g_free(self->state_dir);
	G_OBJECT_CLASS(joind_profile_store_parent_class)->finalize(object);
}

static void
joind_profile_store_class_init(JoindProfileStoreClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_profile_store_finalize;
	g_signal_new("profile-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
	             NULL, G_TYPE_NONE, 2, JOIND_TYPE_PROFILE, G_TYPE_INT);
}

static void
joind_profile_store_init(JoindProfileStore *self)
{
	self->profiles = g_ptr_array_new_with_free_func(g_object_unref);
}

JoindProfileStore *
joind_profile_store_new(const gchar *state_dir)
{
	JoindProfileStore *self = g_object_new(JOIND_TYPE_PROFILE_STORE, NULL);

	self->state_dir = g_strdup(state_dir);
	return self;
}

gboolean
joind_profile_store_load(JoindProfileStore *self, GError **error)
{
	g_autofree gchar *wired = g_build_filename(self->state_dir, "wired", NULL);
	g_autoptr(GDir) dir = NULL;
	const gchar *name;

	if (g_mkdir_with_parents(wired, 0700) < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot create %s: %s", wired,
		            g_strerror(errno));
		return FALSE;
	}
	dir = g_dir_open(wired, 0, error);
	if (dir == NULL)
		return FALSE;
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *path = g_build_filename(wired, name, NULL);
		g_autoptr(GError) local = NULL;
		JoindProfile *p;

		if (!g_str_has_suffix(name, ".8021x"))
			continue;
		p = joind_profile_load(path, JOIND_PROFILE_TYPE_WIRED, NULL, &local);
		if (p == NULL) {
			g_warning("%s", local->message);
			continue;
		}
		g_ptr_array_add(self->profiles, p);
	}
	return TRUE;
}

void
joind_profile_store_reload(JoindProfileStore *self)
{
}

JoindProfile *
joind_profile_store_find_wired(JoindProfileStore *self, const gchar *ifname, const gchar *address)
{
	for (guint i = 0; i < self->profiles->len; i++) {
		JoindProfile *p = g_ptr_array_index(self->profiles, i);

		if (joind_profile_matches_link(p, ifname, address))
			return g_object_ref(p);
	}
	return NULL;
}

JoindProfile *
joind_profile_store_find_network(JoindProfileStore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type)
{
	return NULL;
}

GPtrArray *
joind_profile_store_list(JoindProfileStore *self, JoindProfileType type)
{
	return g_ptr_array_new_with_free_func(g_object_unref);
}

gboolean
joind_profile_store_save_network(JoindProfileStore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, GKeyFile *contents, GError **error)
{
	g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	                    "Saving network profiles is not available yet.");
	return FALSE;
}

gboolean
joind_profile_store_remove(JoindProfileStore *self, JoindProfile *profile, GError **error)
{
	g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	                    "Removing profiles is not available yet.");
	return FALSE;
}
