/* joind-profile-name.h - profile file names. */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

/* File name <-> SSID, iwd's rule: an SSID made only of ASCII letters,
 * digits, spaces, '-' and '_' is written as it is; any other SSID (and any
 * SSID that is not UTF-8) as "=" followed by the lower-case hex of its bytes.
 * NULL for an SSID that is empty or longer than 32 bytes, or a wired type.
 * Exposed for unit tests. */
gchar *joind_profile_ssid_to_filename(const guint8 *ssid, gsize ssid_len, JoindProfileType type);
/* Parses a basename (e.g. "=6869.psk", "home.open"); FALSE for names that
 * are not profile files, and for names that are not the one
 * joind_profile_ssid_to_filename() gives (so that a network has one file).
 * ssid and type may be NULL. */
gboolean joind_profile_filename_to_ssid(const gchar *basename, GBytes **ssid,
                                        JoindProfileType *type);
/* The same, and when FALSE: *problem NULL for a name not meant as a
 * profile (other files, temporary files, editor backups), else a sentence
 * saying why a name meant as one cannot be used. */
gboolean joind_profile_network_basename_parse(const gchar *basename, GBytes **ssid,
                                              JoindProfileType *type, gchar **problem);
/* A wired profile's name in wired/: <name>.8021x, not hidden. */
gboolean joind_profile_wired_basename_is_profile(const gchar *basename);

G_END_DECLS
