/* joind-profile-manager-bundle.h - PKCS#12 key bundles given to the profile
 * manager as bytes, kept as files beside their profile. Private to the
 * core.
 */
#pragma once

#include "joind-profile-manager-draft.h"

G_BEGIN_DECLS

/* Names a file beside profile_path for every bundle the draft holds as
 * bytes and points its key there; nothing is written yet. Returns
 * "Group.Key" -> path. */
GHashTable *joind_profile_bundles_place(JoindProfileDraft *draft, const gchar *profile_path);
/* Writes the placed bundles (0600, atomically). On failure none is left. */
gboolean joind_profile_bundles_write(JoindProfileDraft *draft, GHashTable *placed, GError **error);
/* The bundle files of profile_path that the draft refers to and that the
 * manager wrote (a path an administrator gave is never among them). */
gchar **joind_profile_bundles_owned(JoindProfileDraft *draft, const gchar *profile_path);
/* Deletes every file of paths that keep does not hold. */
void joind_profile_bundles_remove(const gchar *const *paths, const gchar *const *keep);

G_END_DECLS
