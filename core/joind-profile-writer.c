/* joind-profile-writer.c - the profile store's writes: saving a network's
 * profile, setting keys in a file in place, removing a file. Every write
 * is atomic (temporary file, fsync, rename, mode 0600) and updates the
 * store at once, so the watch's echo of it finds the same bytes.
 */
#include "joind-profile-store-private.h"

#include <errno.h>

#include <glib/gstdio.h>

#include "joind-error.h"
#include "joind-file.h"
#include "joind-keyfile.h"
#include "joind-profile-private.h"
#include "joind-secret.h"

gboolean
joind_profile_store_save_network(JoindProfileStore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, GKeyFile *contents, GError **error)
{
	g_autofree gchar *name = NULL;
	g_autofree gchar *path = NULL;
	g_autoptr(GBytes) ssid_bytes = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(GError) local = NULL;
	JoindProfile *held;
	gchar *data;
	gsize len = 0;
	gboolean ok, changed;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	g_return_val_if_fail(contents != NULL, FALSE);

	if (type == JOIND_PROFILE_TYPE_WIRED) {
		g_set_error_literal(
		        error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		        "Wired profiles are provisioned by an administrator, not saved");
		return FALSE;
	}
	name = joind_profile_ssid_to_filename(ssid, ssid_len, type);
	if (name == NULL) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "An SSID has 1 to 32 bytes");
		return FALSE;
	}
	if (!joind_profile_store_ensure_dir(self->state_dir, error))
		return FALSE;
	path = g_build_filename(self->state_dir, name, NULL);
	ssid_bytes = g_bytes_new(ssid, ssid_len);
	data = g_key_file_to_data(contents, &len, NULL);
	profile = joind_profile_parse(path, type, ssid_bytes, (const guint8 *)data, len, &local);
	if (profile == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "Not saved: %s",
		            local->message);
		joind_secret_wipe(data);
		return FALSE;
	}
	ok = joind_file_write_atomically(path, data, len, error);
	held = g_hash_table_lookup(self->profiles, path);
	changed = held == NULL || !joind_profile_has_contents(held, (const guint8 *)data, len);
	joind_secret_wipe(data);
	if (!ok)
		return FALSE;
	/* Update now: the watch's echo of this write will find the same bytes. */
	if (changed)
		joind_profile_store_put(self, profile, 0600);
	return TRUE;
}

/* The file must still be what profile was made from: neither a newer
 * snapshot in the store nor an edit on disk that the watch has not
 * brought in yet may be overwritten. */
GBytes *
joind_profile_store_read_current(JoindProfileStore *self, JoindProfile *profile, GError **error)
{
	const gchar *path = joind_profile_get_path(profile);
	JoindProfile *held = g_hash_table_lookup(self->profiles, path);
	g_autoptr(GError) local = NULL;
	GBytes *contents = NULL;
	mode_t mode = 0;
	gsize len = 0;
	const guint8 *data;

	if (held == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "No profile is stored in %s",
		            path);
		return NULL;
	}
	if (!joind_profile_file_read(path, &contents, &mode, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "%s", local->message);
		return NULL;
	}
	data = g_bytes_get_data(contents, &len);
	if (held != profile || !joind_profile_has_contents(profile, data, len)) {
		joind_profile_bytes_wipe(contents);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY,
		            "%s changed since it was read; not updated", path);
		return NULL;
	}
	return contents;
}

gboolean
joind_profile_store_update_keys(JoindProfileStore *self, JoindProfile *profile, const gchar *group,
                                const gchar *const *keys, const gchar *const *values,
                                GError **error)
{
	const gchar *path;
	g_autoptr(GBytesWiped) contents = NULL;
	g_autoptr(JoindProfile) updated = NULL;
	g_autoptr(GError) local = NULL;
	const guint8 *data;
	gchar *text;
	gsize len = 0, text_len = 0;
	gboolean ok;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	g_return_val_if_fail(JOIND_IS_PROFILE(profile), FALSE);
	g_return_val_if_fail(group != NULL && keys != NULL && values != NULL, FALSE);

	path = joind_profile_get_path(profile);
	contents = joind_profile_store_read_current(self, profile, error);
	if (contents == NULL)
		return FALSE;
	data = g_bytes_get_data(contents, &len);
	text = joind_keyfile_set_strings(data != NULL ? (const gchar *)data : "", len, group, keys,
	                                 values, &text_len);
	updated = joind_profile_parse(path, joind_profile_get_profile_type(profile),
	                              joind_profile_get_ssid(profile), (const guint8 *)text,
	                              text_len, &local);
	if (updated == NULL) {
		joind_secret_wipe(text);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "Not updated: %s",
		            local->message);
		return FALSE;
	}
	if (joind_profile_has_contents(profile, (const guint8 *)text, text_len)) {
		joind_secret_wipe(text);
		return TRUE; /* the file says so already */
	}
	ok = joind_file_write_atomically(path, text, text_len, error);
	joind_secret_wipe(text);
	if (!ok)
		return FALSE;
	/* Update now: the watch's echo of this write will find the same bytes. */
	joind_profile_store_put(self, updated, 0600);
	return TRUE;
}

gboolean
joind_profile_store_remove(JoindProfileStore *self, JoindProfile *profile, GError **error)
{
	const gchar *path;
	g_autofree gchar *dir = NULL;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	g_return_val_if_fail(JOIND_IS_PROFILE(profile), FALSE);

	path = joind_profile_get_path(profile);
	if (!g_hash_table_contains(self->profiles, path)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "No profile is stored in %s",
		            path);
		return FALSE;
	}
	if (g_unlink(path) < 0 && errno != ENOENT) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Could not remove %s: %s", path,
		            g_strerror(errno));
		return FALSE;
	}
	dir = g_path_get_dirname(path);
	joind_file_sync_dir(dir);
	joind_profile_store_drop(self, path);
	return TRUE;
}

const gchar *
joind_profile_store_get_dir(JoindProfileStore *self, JoindProfileType type)
{
	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), NULL);
	return type == JOIND_PROFILE_TYPE_WIRED ? self->wired_dir : self->state_dir;
}

JoindProfile *
joind_profile_store_lookup(JoindProfileStore *self, const gchar *path)
{
	JoindProfile *profile;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), NULL);
	profile = g_hash_table_lookup(self->profiles, path);
	return profile != NULL ? g_object_ref(profile) : NULL;
}

/* Puts back what path held before a write the store did not take: old
 * (NULL: there was no file). */
static void
store_put_back(JoindProfileStore *self, const gchar *path, GBytes *old)
{
	g_autoptr(GError) error = NULL;
	gsize len = 0;
	const gchar *data = old != NULL ? g_bytes_get_data(old, &len) : NULL;

	if (old != NULL ? !joind_file_write_atomically(path, data != NULL ? data : "", len, &error)
	                : g_unlink(path) != 0 && errno != ENOENT)
		g_warning("Could not put %s back as it was: %s", path,
		          error != NULL ? error->message : g_strerror(errno));
	joind_profile_store_refresh_path(self, path);
}

gboolean
joind_profile_store_write_file(JoindProfileStore *self, const gchar *path, const gchar *data,
                               gsize len, GError **error)
{
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_autoptr(GBytesWiped) old = NULL;
	JoindProfile *held;
	const gchar *problem;
	mode_t mode = 0;

	g_return_val_if_fail(JOIND_IS_PROFILE_STORE(self), FALSE);
	/* A file that does not read (gone, or never one the store took) has
	 * nothing to put back. */
	if (!joind_profile_file_read(path, &old, &mode, NULL))
		old = NULL;
	if (!joind_profile_store_ensure_dir(dir, error) ||
	    !joind_file_write_atomically(path, data, len, error))
		return FALSE;
	/* What the watch does once the rename has settled; its own echo of
	 * this write then finds the same bytes and changes nothing. */
	joind_profile_store_refresh_path(self, path);
	held = g_hash_table_lookup(self->profiles, path);
	if (held != NULL && joind_profile_has_contents(held, (const guint8 *)data, len))
		return TRUE;
	problem = joind_profile_store_get_error(self, path);
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s; the file is as it was",
	            problem != NULL ? problem : "the profile store did not take the file");
	store_put_back(self, path, old);
	return FALSE;
}
