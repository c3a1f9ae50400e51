/* joind-keyfile.h - GKeyFile with the line numbers people need.
 *
 * GKeyFile's own errors say neither the file nor the line. These helpers
 * check the syntax line by line first, so that config and profile errors
 * read "path:line: what is wrong".
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Loads path; a syntax error becomes "path:line: reason" (G_KEY_FILE_ERROR).
 * On success *contents (if not NULL) receives the raw text for
 * joind_keyfile_find_line(). */
GKeyFile *joind_keyfile_load(const gchar *path, gchar **contents, GError **error);
/* Same for text that did not come from a file; path is used in messages. */
GKeyFile *joind_keyfile_load_data(const gchar *path, const gchar *data, GError **error);
/* 1-based line of key in group, 0 if not found. */
guint joind_keyfile_find_line(const gchar *contents, const gchar *group, const gchar *key);

G_END_DECLS
