/* joind-profile-store.h - the state directory's profiles, kept live.
 *
 * Private to the core: plugins reach the store through the joind_core_*
 * profile functions of core/api/joind-core.h.
 */
#pragma once

#include "joind-profile-name.h"
#include "joind-profile.h"

G_BEGIN_DECLS

#define JOIND_TYPE_PROFILE_STORE (joind_profile_store_get_type())
G_DECLARE_FINAL_TYPE(JoindProfileStore, joind_profile_store, JOIND, PROFILE_STORE, GObject)

/* Signal "profile-changed" (JoindProfile *profile, JoindProfileChange change):
 * emitted after the store changed, for every file added, edited or removed.
 * The change is passed as a G_TYPE_INT. ADDED and CHANGED carry the new
 * snapshot, REMOVED the last one. Emitted once per real change: rewrites
 * with the same bytes and the watch's echo of the store's own writes emit
 * nothing; files being written are read once they are complete. */

JoindProfileStore *joind_profile_store_new(const gchar *state_dir);
/* Reads every profile (bad files are reported with g_warning naming the
 * path, line and reason, recorded, and skipped) and starts watching the directories.
 * Fails only when the state directory cannot be created or read. */
gboolean joind_profile_store_load(JoindProfileStore *self, GError **error);
/* Re-reads everything (SIGHUP), emitting signals for what changed. */
void joind_profile_store_reload(JoindProfileStore *self);
/* The lookups return a new reference or NULL. A link matched by several
 * wired profiles gets the first by file name. */
JoindProfile *joind_profile_store_find_wired(JoindProfileStore *self, const gchar *ifname,
                                             const gchar *address);
JoindProfile *joind_profile_store_find_network(JoindProfileStore *self, const guint8 *ssid,
                                               gsize ssid_len, JoindProfileType type);
/* What keeps the file at path from being read ("path:line: reason", one
 * problem per line), NULL when it reads fine or is not there. */
const gchar *joind_profile_store_get_error(JoindProfileStore *self, const gchar *path);
/* Called for each file with a recorded problem, by path; ssid is NULL for
 * wired profiles. held tells whether a profile read before stays in
 * effect. */
typedef void (*JoindProfileStoreErrorFunc)(const gchar *path, JoindProfileType type, GBytes *ssid,
                                           const gchar *message, gboolean held, gpointer user_data);
void joind_profile_store_foreach_error(JoindProfileStore *self, JoindProfileStoreErrorFunc func,
                                       gpointer user_data);
/* A new array holding a reference to each profile (freeing it drops them),
 * sorted by file name. */
GPtrArray *joind_profile_store_list(JoindProfileStore *self, JoindProfileType type);
/* Checks contents like a file read from disk (JOIND_ERROR_INVALID_ARGS
 * naming what is wrong), then writes <state-dir>/<ssid>.<type> through a
 * temporary file (mode 0600, fsync, rename). The store is updated and the
 * signal emitted before it returns. */
gboolean joind_profile_store_save_network(JoindProfileStore *self, const guint8 *ssid,
                                          gsize ssid_len, JoindProfileType type, GKeyFile *contents,
                                          GError **error);
/* Sets keys (NULL-terminated) of group to values (same index) in the file
 * profile was read from, keeping every other line of it as it is, and
 * writes it back through a temporary file (mode 0600, fsync, rename).
 * JOIND_ERROR_BUSY when the file changed since profile was read (a newer
 * snapshot is held, or the file on disk differs), JOIND_ERROR_NOT_FOUND
 * when the store holds no profile at its path, JOIND_ERROR_INVALID_ARGS
 * when the result would not load. The store is updated and the signal
 * emitted (CHANGED, with the new snapshot) before it returns; nothing is
 * written when the file holds these values already. */
gboolean joind_profile_store_update_keys(JoindProfileStore *self, JoindProfile *profile,
                                         const gchar *group, const gchar *const *keys,
                                         const gchar *const *values, GError **error);
/* The directory profiles of type live in (wired/ for wired ones). */
const gchar *joind_profile_store_get_dir(JoindProfileStore *self, JoindProfileType type);
/* The profile read from path (a new reference), NULL when none. */
JoindProfile *joind_profile_store_lookup(JoindProfileStore *self, const gchar *path);
/* The bytes of profile's file, which must still be what profile was made
 * from: JOIND_ERROR_BUSY when the file changed since (a newer snapshot is
 * held, or the file on disk differs), JOIND_ERROR_NOT_FOUND when the
 * store holds no profile at its path. Wipe them after use
 * (joind_profile_bytes_wipe). */
GBytes *joind_profile_store_read_current(JoindProfileStore *self, JoindProfile *profile,
                                         GError **error);
/* Writes len bytes of a profile file to path (in the store's directory or
 * its wired/) through a temporary file (mode 0600, fsync, rename), then
 * reads it the way the directory watch does, so that the store takes it
 * like a file an administrator dropped in. JOIND_ERROR_INVALID_ARGS (the
 * loader's sentences) when the store could not take it; the file is then
 * left as written, like a broken file of an administrator's. */
gboolean joind_profile_store_write_file(JoindProfileStore *self, const gchar *path,
                                        const gchar *data, gsize len, GError **error);
/* Deletes the profile's file (JOIND_ERROR_NOT_FOUND when the store does not
 * hold it) and emits REMOVED. */
gboolean joind_profile_store_remove(JoindProfileStore *self, JoindProfile *profile, GError **error);

G_END_DECLS
