/* joind-core.h - what a plugin may ask of the core.
 *
 * A JoindCore is handed to every plugin's init(). Through it a plugin
 * publishes devices, reads settings from main.conf and profiles from the
 * state directory, and asks agents for secrets (joind-agent.h).
 */
#pragma once

#include <gio/gio.h>

#include "joind-device.h"
#include "joind-export.h"
#include "joind-plugin.h"
#include "joind-profile.h"

G_BEGIN_DECLS

#define JOIND_TYPE_CORE (joind_core_get_type())
JOIND_EXPORT
G_DECLARE_FINAL_TYPE(JoindCore, joind_core, JOIND, CORE, GObject)

/* Devices: published at /net/joind/device/<ifindex>. Adding a second device
 * with the same ifindex fails with JOIND_ERROR_BUSY. */
JOIND_EXPORT gboolean joind_core_add_device(JoindCore *self, JoindDevice *device, GError **error);
JOIND_EXPORT void joind_core_remove_device(JoindCore *self, JoindDevice *device);
JOIND_EXPORT JoindDevice *joind_core_lookup_device(JoindCore *self, gint ifindex);

/* Settings from main.conf, validated against the core's table of known
 * keys (core/joind-config.c); a missing or bad value yields the default. */
JOIND_EXPORT gint joind_core_get_config_int(JoindCore *self, const gchar *group, const gchar *key);
JOIND_EXPORT gboolean joind_core_get_config_bool(JoindCore *self, const gchar *group,
                                                 const gchar *key);
JOIND_EXPORT gchar *joind_core_get_config_string(JoindCore *self, const gchar *group,
                                                 const gchar *key);
JOIND_EXPORT gchar **joind_core_get_config_strv(JoindCore *self, const gchar *group,
                                                const gchar *key);

/* Profiles. The lookups return a new reference or NULL. */
JOIND_EXPORT JoindProfile *joind_core_find_wired_profile(JoindCore *self, const gchar *ifname,
                                                         const gchar *address);
JOIND_EXPORT JoindProfile *joind_core_find_network_profile(JoindCore *self, const guint8 *ssid,
                                                           gsize ssid_len, JoindProfileType type);
/* Element type JoindProfile; every profile of the type. */
JOIND_EXPORT GPtrArray *joind_core_list_profiles(JoindCore *self, JoindProfileType type);
/* Writes <ssid>.<type> atomically with mode 0600 (secrets live there). */
JOIND_EXPORT gboolean joind_core_save_network_profile(JoindCore *self, const guint8 *ssid,
                                                      gsize ssid_len, JoindProfileType type,
                                                      GKeyFile *contents, GError **error);
/* Sets keys (NULL-terminated) of group to the values of the same index in
 * the file profile was read from (any type, wired included), keeping every
 * other line of the file, and writes it atomically with mode 0600 (ABI
 * 1.2). Fails with JOIND_ERROR_BUSY when the file changed since profile
 * was read, JOIND_ERROR_NOT_FOUND when it is no longer a profile,
 * JOIND_ERROR_INVALID_ARGS when the result would not load. On success
 * "profile-changed" (CHANGED, the new snapshot) was emitted before it
 * returns, unless the file held these values already. */
JOIND_EXPORT gboolean joind_core_update_profile_keys(JoindCore *self, JoindProfile *profile,
                                                     const gchar *group, const gchar *const *keys,
                                                     const gchar *const *values, GError **error);
JOIND_EXPORT gboolean joind_core_remove_profile(JoindCore *self, JoindProfile *profile,
                                                GError **error);

/* Signals:
 *   "profile-changed" (JoindProfile *profile, JoindProfileChange change):
 *       a profile file appeared, changed or went away.
 *   "agent-registered" (): an agent registered (ABI 1.1); work that failed
 *       with JOIND_ERROR_NO_AGENT may try again.
 *   "shutting-down" (): the daemon is stopping; plugins send what they must
 *       (EAPOL-Logoff, deauthentication) before their shutdown() runs. */

G_END_DECLS
