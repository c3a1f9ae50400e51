/* joind-profile-keys.h - the profile keys plugins own (JoindProfileKey,
 * joind-profile.h): declared by the plugin loader from each plugin's
 * manifest or descriptor when it finds the plugin, looked up by the
 * profile check (joind-profile-check.c). One registry per process, as the
 * EAP method registry is: profiles are read without a core at hand. */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

/* keys: a table ended by an entry whose group is NULL, valid until it is
 * withdrawn. Declaring a table again does nothing. */
void joind_profile_keys_declare(const JoindProfileKey *keys);
void joind_profile_keys_withdraw(const JoindProfileKey *keys);
/* The declared key of group in a profile of type (a name, or a prefix
 * entry that matches it), or NULL. */
const JoindProfileKey *joind_profile_keys_lookup(JoindProfileType type, const gchar *group,
                                                 const gchar *key);
/* "open", "psk", "8021x" or "wired": the types' names in manifests. */
const gchar *joind_profile_keys_type_name(JoindProfileType type);

G_END_DECLS
