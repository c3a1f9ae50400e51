/* ap-profile.c - iwd's access point profiles (see ap-profile.h). */
#include "ap-profile.h"

#include <string.h>

#include "joind.h"
#include "profile-keys.h"

/* A key the plugin declares for access point profiles (profile-keys.c):
 * the core checks its value as it reads the file. */
static gboolean
key_is_known(const gchar *group, const gchar *key)
{
	for (const JoindProfileKey *k = wifi_profile_keys; k->group != NULL; k++) {
		if ((k->profiles & JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_AP)) != 0 &&
		    g_str_equal(k->group, group) && g_str_equal(k->key, key))
			return TRUE;
	}
	return FALSE;
}

/* Every key the profile has that joind does not implement, "[G] K, ...";
 * NULL when there is none. */
static gchar *
unknown_keys(GKeyFile *file)
{
	g_auto(GStrv) groups = g_key_file_get_groups(file, NULL);
	g_autoptr(GString) found = g_string_new(NULL);

	for (guint g = 0; groups[g] != NULL; g++) {
		g_auto(GStrv) keys = g_key_file_get_keys(file, groups[g], NULL, NULL);

		for (guint k = 0; keys != NULL && keys[k] != NULL; k++) {
			if (!key_is_known(groups[g], keys[k]))
				g_string_append_printf(found, "%s[%s] %s",
				                       found->len > 0 ? ", " : "", groups[g],
				                       keys[k]);
		}
	}
	return found->len > 0 ? g_string_free(g_steal_pointer(&found), FALSE) : NULL;
}

/* joind's own key (iwd's access point has no hidden SSID): beacons
 * without the SSID, probe requests answered only when they name it. */
static gboolean
read_hidden(GKeyFile *file, const gchar *path, gboolean *hidden, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (!g_key_file_has_key(file, "General", "Hidden", NULL))
		return TRUE;
	*hidden = g_key_file_get_boolean(file, "General", "Hidden", &local);
	if (local != NULL)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s: [General] Hidden= is neither true nor false", path);
	return TRUE;
}

static gboolean
profile_read(WifiApProfile *self, GKeyFile *file, const gchar *path, GError **error)
{
	g_autofree gchar *unknown = unknown_keys(file);
	g_autofree gchar *channel = g_key_file_get_value(file, "General", "Channel", NULL);
	guint64 number = 0;

	if (unknown != NULL)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s: joind's access point does not implement %s", path,
		                       unknown);
	self->secret = g_key_file_get_string(file, "Security", "Passphrase", NULL);
	if (self->secret == NULL)
		self->secret = g_key_file_get_string(file, "Security", "PreSharedKey", NULL);
	if (self->secret == NULL)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s has neither [Security] Passphrase nor PreSharedKey",
		                       path);
	if (channel != NULL && (!g_ascii_string_to_unsigned(channel, 10, 1, 14, &number, NULL)))
		return joind_set_error(
		        error, JOIND_ERROR_INVALID_ARGS,
		        "%s: [General] Channel=%s is not a 2.4 GHz channel (1 to 14)", path,
		        channel);
	self->config.channel = (guint)number;
	if (!read_hidden(file, path, &self->config.hidden, error))
		return FALSE;
	self->config.secret = self->secret;
	self->config.security = WIFI_AP_SECURITY_WPA2;
	return TRUE;
}

WifiApProfile *
wifi_ap_profile_load(const gchar *state_dir, const gchar *ssid, GError **error)
{
	g_autoptr(WifiApProfile) self = g_new0(WifiApProfile, 1);
	g_autofree gchar *file_name = g_strconcat(ssid, ".ap", NULL);
	g_autofree gchar *path = g_build_filename(state_dir, "ap", file_name, NULL);
	g_autoptr(GKeyFile) file = g_key_file_new();
	g_autoptr(GError) local = NULL;

	if (strlen(ssid) < 1 || strlen(ssid) > sizeof(self->config.ssid) || strchr(ssid, '/') ||
	    ssid[0] == '.') {
		joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                "“%s” cannot name an access point profile (an SSID of 1 to 32 "
		                "octets, without “/”, not starting with “.”)",
		                ssid);
		return NULL;
	}
	if (!g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, &local)) {
		joind_set_error(error,
		                g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT)
		                        ? JOIND_ERROR_NOT_FOUND
		                        : JOIND_ERROR_INVALID_ARGS,
		                "%s: %s", path, local->message);
		return NULL;
	}
	self->config.ssid_len = strlen(ssid);
	memcpy(self->config.ssid, ssid, self->config.ssid_len);
	if (!profile_read(self, file, path, error))
		return NULL;
	return g_steal_pointer(&self);
}

void
wifi_ap_profile_free(WifiApProfile *self)
{
	if (self == NULL)
		return;
	g_clear_pointer(&self->secret, joind_secret_wipe);
	g_free(self);
}
