/* joind-config.h - main.conf, validated against the keys plugins declare. */
#pragma once

#include <glib.h>

#include "joind-plugin.h"

G_BEGIN_DECLS

typedef struct _JoindConfig JoindConfig;

/* An empty configuration that knows no key yet. */
JoindConfig *joind_config_new(void);
void joind_config_free(JoindConfig *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindConfig, joind_config_free)

/* Adds keys (a table ended by an entry whose group is NULL; it must outlive
 * self) to the known keys and checks main.conf's values for them now: a bad
 * value is reported with g_warning naming the file and line, and the default
 * is kept. Fails with JOIND_ERROR_BUSY when a key is known already. */
gboolean joind_config_declare(JoindConfig *self, const JoindConfigKey *keys, GError **error);

/* Reads path. A missing file is fine (defaults); a file that cannot be parsed
 * fails with "path:line: reason" and keeps the previous settings. Values of
 * known keys are checked as joind_config_declare() does. */
gboolean joind_config_load(JoindConfig *self, const gchar *path, GError **error);
/* Same from text (tests); path is only used in messages. */
gboolean joind_config_load_data(JoindConfig *self, const gchar *path, const gchar *data,
                                GError **error);
/* Reports (g_warning, file and line) every group and key of the last file
 * loaded that nothing declared: call once all declarations are in. */
void joind_config_report_unknown(JoindConfig *self);

/* Number of problems (bad values, unknown keys and groups) found since the
 * last load. */
guint joind_config_get_n_warnings(JoindConfig *self);

/* The value of a declared key: main.conf's if valid, else its default. */
gint joind_config_get_int(JoindConfig *self, const gchar *group, const gchar *key);
gboolean joind_config_get_bool(JoindConfig *self, const gchar *group, const gchar *key);
gchar *joind_config_get_string(JoindConfig *self, const gchar *group, const gchar *key);
/* Has a plugin (or the core) declared [group] key with that type? */
gboolean joind_config_is_declared(JoindConfig *self, const gchar *group, const gchar *key,
                                  JoindConfigType type);
gchar **joind_config_get_strv(JoindConfig *self, const gchar *group, const gchar *key);

G_END_DECLS
