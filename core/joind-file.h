/* joind-file.h - writing the state directory's files so a crash never
 * leaves half of one (profiles, state.json). Private to the core. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes len bytes of data to path through a hidden temporary file in the
 * same directory (".<name>.joind-tmp-XXXXXX", which the profile store ignores): mode
 * 0600 whatever the umask, fsync, rename over path, fsync the directory.
 * On failure (JOIND_ERROR_FAILED naming path and why) path is untouched
 * and the temporary file is gone. */
gboolean joind_file_write_atomically(const gchar *path, const gchar *data, gsize len,
                                     GError **error);
/* Makes a rename or unlink in dir_path durable; failures are only logged
 * at debug level (there is nothing a caller could do about them). */
void joind_file_sync_dir(const gchar *dir_path);
/* Removes the temporaries of joind_file_write_atomically() that a process
 * killed mid-write left in dir_path (call before anyone writes there);
 * returns how many. */
guint joind_file_remove_stale(const gchar *dir_path);

G_END_DECLS
