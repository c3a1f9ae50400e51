/* joind-eap-seen.h - the last server certificate each profile's EAP
 * sessions were shown (joind-eap.h's report), kept in memory for the
 * diagnostics: a person deciding whether to pin a refused server, with
 * `joinctl known-networks trust` or `joinctl wired trust`, reads it there.
 * Nothing here trusts anything: the pin goes into a profile only through
 * ProfileManager1.UpdateProfile, which the trust commands call once a
 * person has confirmed. Private to the core.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "joind-profile.h"

G_BEGIN_DECLS

/* The report a session of profile made (a{sv}, kept by reference), under
 * the profile's file path, replacing the one before. */
void joind_eap_seen_record(JoindProfile *profile, GVariant *details);
/* A member named member whose value is the last report of the profile at
 * profile_path (its keys with '_' for '-', plus "profile": the object path
 * ProfileManager1 names the profile by, and "seen": when, ISO 8601);
 * nothing when there is none. */
void joind_eap_seen_add_json(JsonBuilder *b, const gchar *member, const gchar *profile_path);
/* Forgets every report (tests). */
void joind_eap_seen_clear(void);

G_END_DECLS
