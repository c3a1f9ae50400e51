/* joind-profile-manager-room.c - the profile manager's limits (see
 * joind-profile-manager-room.h). They are checked before anything is
 * written: a profile the store would refuse to read, written first, would
 * have replaced the good one.
 */
#include "joind-profile-manager-room.h"

#include <sys/stat.h>

#include <glib/gstdio.h>

#include "joind-error.h"
#include "joind-profile-store-private.h"

/* The bytes of the regular files directly in dir. */
static guint64
dir_bytes(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint64 total = 0;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = g_build_filename(dir, name, NULL);
		GStatBuf st;

		if (g_lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			total += (guint64)st.st_size;
	}
	return total;
}

static guint64
file_bytes(const gchar *path)
{
	GStatBuf st;

	return g_lstat(path, &st) == 0 && S_ISREG(st.st_mode) ? (guint64)st.st_size : 0;
}

/* The profile directories' bytes once the write is done. */
static guint64
bytes_after(const JoindProfileRoomWrite *w)
{
	guint64 total = 0;
	GHashTableIter iter;
	gpointer bytes;

	for (guint i = 0; w->dirs[i] != NULL; i++)
		total += dir_bytes(w->dirs[i]);
	total -= MIN(total, file_bytes(w->path));
	for (guint i = 0; w->old_bundles != NULL && w->old_bundles[i] != NULL; i++)
		total -= MIN(total, file_bytes(w->old_bundles[i]));
	total += w->len;
	g_hash_table_iter_init(&iter, joind_profile_draft_get_bundles(w->draft));
	while (g_hash_table_iter_next(&iter, NULL, &bytes))
		total += g_bytes_get_size(bytes);
	return total;
}

gboolean
joind_profile_room_check(const JoindProfileRoomWrite *w, GError **error)
{
	guint64 total;

	if (w->len > JOIND_PROFILE_MAX_SIZE)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "The profile would be %" G_GSIZE_FORMAT
		                       " bytes, more than a profile may have (1 MiB); nothing "
		                       "was written.",
		                       w->len);
	if (w->creating && w->n_profiles >= JOIND_PROFILE_ROOM_MAX_PROFILES)
		return joind_set_error(error, JOIND_ERROR_BUSY,
		                       "%u profiles are stored, the most joind manages; delete one "
		                       "first. Nothing was written.",
		                       w->n_profiles);
	total = bytes_after(w);
	if (total > JOIND_PROFILE_ROOM_MAX_BYTES)
		return joind_set_error(
		        error, JOIND_ERROR_BUSY,
		        "The profiles and their key bundles would take %" G_GUINT64_FORMAT
		        " bytes, more than joind keeps (%d MiB); delete some first. "
		        "Nothing was written.",
		        total, JOIND_PROFILE_ROOM_MAX_BYTES / (1024 * 1024));
	return TRUE;
}
