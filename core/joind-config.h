/* joind-config.h - main.conf, validated against the table of known keys. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _JoindConfig JoindConfig;

/* An empty configuration: every key has its default. */
JoindConfig *joind_config_new(void);
void joind_config_free(JoindConfig *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindConfig, joind_config_free)

/* Reads path. A missing file is fine (defaults); a file that cannot be parsed
 * fails with "path:line: reason". Unknown keys and bad values are reported
 * with g_warning naming the file and line, and the default is kept. */
gboolean joind_config_load(JoindConfig *self, const gchar *path, GError **error);
/* Same from text (tests); path is only used in messages. */
gboolean joind_config_load_data(JoindConfig *self, const gchar *path, const gchar *data,
                                GError **error);

/* Number of problems (unknown keys, bad values) found by the last load. */
guint joind_config_get_n_warnings(JoindConfig *self);

gint joind_config_get_int(JoindConfig *self, const gchar *group, const gchar *key);
gboolean joind_config_get_bool(JoindConfig *self, const gchar *group, const gchar *key);
gchar *joind_config_get_string(JoindConfig *self, const gchar *group, const gchar *key);
gchar **joind_config_get_strv(JoindConfig *self, const gchar *group, const gchar *key);

G_END_DECLS
