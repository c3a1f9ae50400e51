/* joind-profile.c - one provisioning file (interim: the profile room
 * replaces this with the full parser and validation). */
#include "joind-profile.h"

#include "joind-keyfile.h"
#include "joind-profile-store.h"

struct _JoindProfile {
	GObject parent_instance;
	JoindProfileType type;
	GBytes *ssid;
	gchar *name;
	gchar *path;
	gchar *contents;
	GKeyFile *kf;
};

G_DEFINE_TYPE(JoindProfile, joind_profile, G_TYPE_OBJECT)

static void
joind_profile_finalize(GObject *object)
{
	JoindProfile *self = JOIND_PROFILE(object);

	g_clear_pointer(&self->ssid, g_bytes_unref);
	g_clear_pointer(&self->kf, g_key_file_unref);
	g_free(self->name);
	g_free(self->path);
	g_free(self->contents);
	G_OBJECT_CLASS(joind_profile_parent_class)->finalize(object);
}

static void
joind_profile_class_init(JoindProfileClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_profile_finalize;
}

static void
joind_profile_init(JoindProfile *self)
{
}

JoindProfile *
joind_profile_load(const gchar *path, JoindProfileType type, GBytes *ssid, GError **error)
{
	g_autoptr(JoindProfile) self = g_object_new(JOIND_TYPE_PROFILE, NULL);
	g_autofree gchar *base = g_path_get_basename(path);

	self->kf = joind_keyfile_load(path, &self->contents, error);
	if (self->kf == NULL)
		return NULL;
	self->type = type;
	self->path = g_strdup(path);
	self->ssid = ssid != NULL ? g_bytes_ref(ssid) : NULL;
	self->name = g_strndup(base, strrchr(base, '.') - base);
	return g_steal_pointer(&self);
}

JoindProfileType
joind_profile_get_profile_type(JoindProfile *self)
{
	return self->type;
}

GBytes *
joind_profile_get_ssid(JoindProfile *self)
{
	return self->ssid;
}

const gchar *
joind_profile_get_name(JoindProfile *self)
{
	return self->name;
}

const gchar *
joind_profile_get_path(JoindProfile *self)
{
	return self->path;
}

gchar *
joind_profile_get_string(JoindProfile *self, const gchar *group, const gchar *key)
{
	return g_key_file_get_string(self->kf, group, key, NULL);
}

gboolean
joind_profile_get_boolean(JoindProfile *self, const gchar *group, const gchar *key,
                          gboolean default_value)
{
	g_autoptr(GError) error = NULL;
	gboolean v = g_key_file_get_boolean(self->kf, group, key, &error);

	return error != NULL ? default_value : v;
}

gboolean
joind_profile_has_key(JoindProfile *self, const gchar *group, const gchar *key)
{
	return g_key_file_has_key(self->kf, group, key, NULL);
}

guint
joind_profile_get_line(JoindProfile *self, const gchar *group, const gchar *key)
{
	return joind_keyfile_find_line(self->contents, group, key);
}

gboolean
joind_profile_matches_link(JoindProfile *self, const gchar *ifname, const gchar *address)
{
	g_autofree gchar *glob = g_key_file_get_string(self->kf, "Match", "Interface", NULL);
	g_autofree gchar *mac = g_key_file_get_string(self->kf, "Match", "MACAddress", NULL);

	if (glob == NULL && mac == NULL)
		return FALSE;
	if (glob != NULL && !g_pattern_match_simple(glob, ifname))
		return FALSE;
	if (mac != NULL && g_ascii_strcasecmp(mac, address) != 0)
		return FALSE;
	return TRUE;
}
