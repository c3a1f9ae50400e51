/* joind-profile-manager-ap.h - ProfileManager1's kind "ap": iwd's access
 * point profiles, <state dir>/ap/<ssid>.ap, which AccessPoint1.StartProfile
 * (and iwd's AccessPoint.StartProfile) reads. The store holds none (an
 * access point is no network to join): each call reads or writes that
 * directory, the text checked by the profile loader as the file it will be
 * (joind_profile_check_ap: only the keys plugins declared for access
 * points, each other key refused by name). A profile is named
 * /net/joind/profile/ap/<ssid-hex>. Private to the core.
 */
#pragma once

#include "joind-profile-manager-draft.h"

G_BEGIN_DECLS

/* Does object_path name an access point profile (one that may not exist)? */
gboolean joind_profile_ap_owns(const gchar *object_path);
/* The profile name (the SSID) made of draft; its object path. */
gchar *joind_profile_ap_create(const gchar *state_dir, const gchar *name, JoindProfileDraft *draft,
                               GError **error);
gboolean joind_profile_ap_update(const gchar *state_dir, const gchar *object_path, GVariant *set,
                                 const gchar *const *unset, GError **error);
gboolean joind_profile_ap_delete(const gchar *state_dir, const gchar *object_path, GError **error);
/* Adds (ossa{sv}) per profile to list, secrets as "Security.Has<Key>". */
void joind_profile_ap_list(const gchar *state_dir, GVariantBuilder *list);

G_END_DECLS
