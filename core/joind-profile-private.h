/* joind-profile-private.h - what the store needs from JoindProfile. */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

/* Parses a profile from len bytes of text that came from path. ssid is NULL
 * for wired profiles. Every problem is reported in one GError, one
 * "path:line: reason" per line; values of secret keys are never quoted. */
JoindProfile *joind_profile_parse(const gchar *path, JoindProfileType type, GBytes *ssid,
                                  const guint8 *data, gsize len, GError **error);
/* Reads and parses one file; a GError names the path, the line and what
 * is wrong. */
JoindProfile *joind_profile_load(const gchar *path, JoindProfileType type, GBytes *ssid,
                                 GError **error);
/* Was the profile made from exactly these bytes? */
gboolean joind_profile_has_contents(JoindProfile *self, const guint8 *data, gsize len);
/* Problems that do not stop the profile from loading (a wired profile that
 * matches nothing, an unknown [Match] key), one per line; NULL when none. */
const gchar *joind_profile_get_warnings(JoindProfile *self);
/* Does the file hold a secret (a passphrase, a PSK, an EAP password)? */
gboolean joind_profile_holds_secrets(JoindProfile *self);
/* Passphrase, PreSharedKey, EAP-Password, EAP-TLS-ClientKeyPassphrase, ... */
gboolean joind_profile_key_is_secret(const gchar *key);
/* Two snapshots of one file: the [Security] keys whose values differ
 * (added, removed or changed; an empty list when none), or NULL when
 * anything else differs (another group, an embedded PEM, the path). */
gchar **joind_profile_security_changes(JoindProfile *a, JoindProfile *b);
/* Lower-case hex of an SSID (or any octets): the "=<hex>" file names, the
 * D-Bus object paths and the state.json ids all spell SSIDs this way. */
gchar *joind_ssid_hex(const guint8 *data, gsize len);

G_END_DECLS
