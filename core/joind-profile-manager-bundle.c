/* joind-profile-manager-bundle.c - PKCS#12 key bundles given as bytes.
 *
 * iwd's ClientKeyBundle is a path, so bytes become a file beside the
 * profile, "<profile file>.<Key>.<8 hex digits>.p12", mode 0600. The
 * random part makes a replaced bundle a new path: the profile's text
 * changes with it, so the store reports the change and a connected port
 * authenticates again with the new key, and a profile never points at a
 * half-replaced bundle. Only files named this way are ever deleted; a path
 * an administrator wrote into the profile is left alone.
 */
#include "joind-profile-manager-bundle.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "joind-file.h"

#define BUNDLE_EXT      ".p12"
#define BUNDLE_RAND_HEX 8

GHashTable *
joind_profile_bundles_place(JoindProfileDraft *draft, const gchar *profile_path)
{
	GHashTable *placed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	GHashTableIter iter;
	gpointer name;

	g_hash_table_iter_init(&iter, joind_profile_draft_get_bundles(draft));
	while (g_hash_table_iter_next(&iter, &name, NULL)) {
		const gchar *key = strchr(name, '.') + 1;
		gchar *path =
		        g_strdup_printf("%s.%s.%08x" BUNDLE_EXT, profile_path, key, g_random_int());

		joind_profile_draft_place_bundle(draft, name, path);
		g_hash_table_insert(placed, g_strdup(name), path);
	}
	return placed;
}

gboolean
joind_profile_bundles_write(JoindProfileDraft *draft, GHashTable *placed, GError **error)
{
	g_autoptr(GPtrArray) written = g_ptr_array_new();
	GHashTableIter iter;
	gpointer name, bytes;

	g_hash_table_iter_init(&iter, joind_profile_draft_get_bundles(draft));
	while (g_hash_table_iter_next(&iter, &name, &bytes)) {
		const gchar *path = g_hash_table_lookup(placed, name);
		gsize len = 0;
		const gchar *data = g_bytes_get_data(bytes, &len);

		g_return_val_if_fail(path != NULL, FALSE);
		if (!joind_file_write_atomically(path, data, len, error)) {
			g_ptr_array_add(written, NULL);
			joind_profile_bundles_remove((const gchar *const *)written->pdata, NULL);
			return FALSE;
		}
		g_ptr_array_add(written, (gpointer)path);
	}
	return TRUE;
}

/* "<profile_path>.<Key>.<8 hex>.p12"? */
static gboolean
is_owned(const gchar *path, const gchar *profile_path)
{
	gsize len = strlen(profile_path);
	const gchar *rest, *dot;

	if (strncmp(path, profile_path, len) != 0 || path[len] != '.' ||
	    !g_str_has_suffix(path, BUNDLE_EXT))
		return FALSE;
	rest = path + len + 1;
	dot = strrchr(rest, '.');
	if (dot - rest < BUNDLE_RAND_HEX + 2 || dot[-BUNDLE_RAND_HEX - 1] != '.' ||
	    strchr(rest, '/') != NULL)
		return FALSE;
	for (const gchar *p = dot - BUNDLE_RAND_HEX; p < dot; p++) {
		if (!g_ascii_isxdigit(*p))
			return FALSE;
	}
	return TRUE;
}

gchar **
joind_profile_bundles_owned(JoindProfileDraft *draft, const gchar *profile_path)
{
	g_auto(GStrv) paths = joind_profile_draft_bundle_paths(draft);
	GPtrArray *owned = g_ptr_array_new();

	for (guint i = 0; paths[i] != NULL; i++) {
		if (is_owned(paths[i], profile_path))
			g_ptr_array_add(owned, g_strdup(paths[i]));
	}
	g_ptr_array_add(owned, NULL);
	return (gchar **)g_ptr_array_free(owned, FALSE);
}

void
joind_profile_bundles_remove(const gchar *const *paths, const gchar *const *keep)
{
	for (guint i = 0; paths != NULL && paths[i] != NULL; i++) {
		if (keep != NULL && g_strv_contains(keep, paths[i]))
			continue;
		if (g_unlink(paths[i]) != 0)
			g_debug("removing the key bundle %s: %s", paths[i], g_strerror(errno));
	}
}
