/* joind-keyfile.h - GKeyFile with the line numbers people need.
 *
 * GKeyFile's own errors say neither the file nor the line, and some quote the
 * whole offending line (which may hold a passphrase). These helpers check the
 * syntax line by line first, so that config and profile errors read
 * "path:line: what is wrong" and never repeat a line's text.
 *
 * The syntax accepted is the common ground of GKeyFile and iwd's settings
 * files: "[Group]" headers, "Key=Value" lines with keys made of letters,
 * digits, '-', '_' and '.', "#" comments, and iwd's embedded PEM groups
 * ("[@pem@name]" followed by the PEM text).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Parses len bytes (not necessarily NUL-terminated; a NUL byte is an error).
 * Syntax errors become "path:line: reason" (G_KEY_FILE_ERROR). The lines of
 * [@pem@name] groups are kept out of the GKeyFile (the group itself exists,
 * empty); when pems is not NULL it receives a table name -> PEM text, or
 * NULL when the file embeds none. */
GKeyFile *joind_keyfile_parse(const gchar *path, const guint8 *data, gsize len, GHashTable **pems,
                              GError **error);
/* Same for text that did not come from a file; path is used in messages. */
GKeyFile *joind_keyfile_load_data(const gchar *path, const gchar *data, GError **error);
/* Whether group holds key: g_key_file_has_key() without the GError it
 * formats for a missing group even when the caller passes none (a profile
 * without [Settings] or [Security] would pay one per question at start). */
gboolean joind_keyfile_has_key(GKeyFile *kf, const gchar *group, const gchar *key);
/* 1-based line of key in group (the last one, which is the one GKeyFile
 * uses), or of the group header when key is NULL; 0 if not found. */
guint joind_keyfile_find_line(const gchar *contents, const gchar *group, const gchar *key);
/* A copy of the len bytes of text in which each of keys (NULL-terminated)
 * in group is set to the string of the same index in values, escaped as
 * GKeyFile would: a line setting the key is rewritten in place; a key the
 * group lacks is added after the group's last setting; a group the text
 * lacks is appended. Every other line (comments, order, embedded PEMs) is
 * kept as it is; the result ends with a newline. It holds secrets: the
 * caller wipes it (joind_secret_wipe). */
gchar *joind_keyfile_set_strings(const gchar *data, gsize len, const gchar *group,
                                 const gchar *const *keys, const gchar *const *values,
                                 gsize *out_len);

G_END_DECLS
