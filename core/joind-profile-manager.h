/* joind-profile-manager.h - profiles made, changed and removed for a
 * client (net.joind.ProfileManager1, data/net.joind.xml): settings turned
 * into a profile file, checked by the file loader, written and read back
 * through the profile store like any file an administrator drops in.
 * Private to the core.
 */
#pragma once

#include "joind-known-state.h"
#include "joind-profile-store.h"

G_BEGIN_DECLS

typedef struct _JoindProfileManager JoindProfileManager;

/* store and known must outlive the manager. */
JoindProfileManager *joind_profile_manager_new(JoindProfileStore *store, JoindKnownState *known);
void joind_profile_manager_free(JoindProfileManager *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindProfileManager, joind_profile_manager_free)

/* The object path naming profile: its KnownNetwork1 object for WiFi,
 * /net/joind/profile/wired/<name-hex> for wired profiles. */
gchar *joind_profile_manager_path(JoindProfile *profile);

/* kind is open, psk, 8021x, wired or ap; settings is a{sv}. Returns the new
 * profile's object path. Errors are JOIND_ERROR: INVALID_ARGS (naming the
 * setting, or the loader's sentences), BUSY (the profile exists), FAILED. */
gchar *joind_profile_manager_create(JoindProfileManager *self, const gchar *kind, const gchar *name,
                                    GVariant *settings, GError **error);
/* set is a{sv}, unset "Group.Key" names. NOT_FOUND when object_path names
 * no profile. */
gboolean joind_profile_manager_update(JoindProfileManager *self, const gchar *object_path,
                                      GVariant *set, const gchar *const *unset, GError **error);
gboolean joind_profile_manager_delete(JoindProfileManager *self, const gchar *object_path,
                                      GError **error);
/* What create would refuse these settings for, one sentence each (empty
 * when none); INVALID_ARGS only for an unknown kind. */
gchar **joind_profile_manager_validate(JoindProfileManager *self, const gchar *kind,
                                       GVariant *settings, GError **error);
/* Would the store take text as the file at path? The loader's sentences
 * without their "file:line:" when not (an empty vector when it would). */
gchar **joind_profile_manager_check_text(const gchar *path, JoindProfileType type, GBytes *ssid,
                                         const gchar *text, gsize len);
/* a(ossa{sv}): every profile held, without secrets. */
GVariant *joind_profile_manager_list(JoindProfileManager *self);

G_END_DECLS
