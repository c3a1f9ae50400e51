/* joind-profile-store.h - the state directory's profiles, kept live.
 *
 * Private to the core: plugins reach the store through the joind_core_*
 * profile functions of core/api/joind-core.h.
 */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

#define JOIND_TYPE_PROFILE_STORE (joind_profile_store_get_type())
G_DECLARE_FINAL_TYPE(JoindProfileStore, joind_profile_store, JOIND, PROFILE_STORE, GObject)

/* Signal "profile-changed" (JoindProfile *profile, JoindProfileChange change):
 * emitted after the store changed, for every file added, edited or removed. */

JoindProfileStore *joind_profile_store_new(const gchar *state_dir);
/* Reads every profile (bad files are reported with g_warning naming the
 * path, line and reason, and skipped) and starts watching the directories.
 * Fails only when the state directory cannot be created or read. */
gboolean joind_profile_store_load(JoindProfileStore *self, GError **error);
/* Re-reads everything (SIGHUP), emitting signals for what changed. */
void joind_profile_store_reload(JoindProfileStore *self);
JoindProfile *joind_profile_store_find_wired(JoindProfileStore *self, const gchar *ifname,
                                             const gchar *address);
JoindProfile *joind_profile_store_find_network(JoindProfileStore *self, const guint8 *ssid,
                                               gsize ssid_len, JoindProfileType type);
GPtrArray *joind_profile_store_list(JoindProfileStore *self, JoindProfileType type);
gboolean joind_profile_store_save_network(JoindProfileStore *self, const guint8 *ssid,
                                          gsize ssid_len, JoindProfileType type, GKeyFile *contents,
                                          GError **error);
gboolean joind_profile_store_remove(JoindProfileStore *self, JoindProfile *profile, GError **error);

/* File name <-> SSID, iwd's rules: printable names as they are, everything
 * else as "=" followed by lower-case hex. Exposed for unit tests. */
gchar *joind_profile_ssid_to_filename(const guint8 *ssid, gsize ssid_len, JoindProfileType type);
/* Parses a basename (e.g. "=6869.psk", "home.open"); FALSE for names that
 * are not profile files. */
gboolean joind_profile_filename_to_ssid(const gchar *basename, GBytes **ssid,
                                        JoindProfileType *type);
/* Loads one file; a GError names the path, the line and what is wrong. */
JoindProfile *joind_profile_load(const gchar *path, JoindProfileType type, GBytes *ssid,
                                 GError **error);

G_END_DECLS
