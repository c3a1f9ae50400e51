/* joind-profile-manager-draft.h - the text of a profile file being made
 * from D-Bus settings ("Group.Key" -> value): its keys, its embedded PEMs
 * and, for WiFi, the SSID given as bytes. Private to the core.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _JoindProfileDraft JoindProfileDraft;

JoindProfileDraft *joind_profile_draft_new(void);
/* A draft holding what the profile file's text says (len bytes from path),
 * every key, comment and group of it, embedded PEMs too. */
JoindProfileDraft *joind_profile_draft_new_from_text(const gchar *path, const guint8 *data,
                                                     gsize len, GError **error);
void joind_profile_draft_free(JoindProfileDraft *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindProfileDraft, joind_profile_draft_free)

/* Sets every entry of settings (a{sv}); JOIND_ERROR_INVALID_ARGS naming the
 * entry when a name or a value cannot go into a profile. Settings.SSID (bytes)
 * is taken only when allow_ssid. On failure the draft is half done:
 * callers drop it. */
gboolean joind_profile_draft_set(JoindProfileDraft *self, GVariant *settings, gboolean allow_ssid,
                                 GError **error);
/* Removes the keys ("Group.Key"); one that is not there is no error. */
gboolean joind_profile_draft_unset(JoindProfileDraft *self, const gchar *const *names,
                                   GError **error);
/* Are the len bytes of name (not empty) ASCII letters, digits and bytes of
 * extra? */
gboolean joind_profile_draft_name_is_valid(const gchar *name, gsize len, const gchar *extra);
/* Settings.SSID as given, or NULL. */
GBytes *joind_profile_draft_get_ssid(JoindProfileDraft *self);
/* The key bundles given as bytes ("Group.Key" -> GBytes, owned by the
 * draft): their keys are left out of the text until each is placed. */
GHashTable *joind_profile_draft_get_bundles(JoindProfileDraft *self);
/* Sets the bundle name's key to path, where its bytes are written. */
void joind_profile_draft_place_bundle(JoindProfileDraft *self, const gchar *name,
                                      const gchar *path);
/* Every path a ClientKeyBundle key of the draft holds (not embedded ones). */
gchar **joind_profile_draft_bundle_paths(JoindProfileDraft *self);
/* The file's text (it holds secrets: wipe it with joind_secret_wipe). */
gchar *joind_profile_draft_to_text(JoindProfileDraft *self, gsize *len);
/* Every key as "Group.Key" -> <'value'> for a listing: secrets as
 * "Group.Has<Key>" -> <true>, embedded PEMs as their "embed:" reference
 * only. Adds to builder (a{sv}). */
void joind_profile_draft_describe(JoindProfileDraft *self, GVariantBuilder *builder);

G_END_DECLS
