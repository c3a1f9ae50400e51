/* sae-pt.h - hash-to-element's password tokens (PT, IEEE 802.11-2020
 * 12.4.4.2.3) of one network, one per group, kept in its profile under
 * iwd's keys: [Security] SAE-PT-Group19=, -Group20=, -Group21=, each the
 * point's x then y in hexadecimal (2 * prime length octets).
 *
 * A PT depends on the SSID and the passphrase only, so a connection reuses
 * the profile's instead of deriving it again; one derived anew (none in
 * the profile, or the passphrase came from the agent) is written back once
 * the link is up. A cached PT that no longer fits the passphrase (the
 * profile was edited) is noticed by the SAE exchange, which then derives
 * it afresh once (sae-auth.c). */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct _WifiSaePtCache WifiSaePtCache;

/* profile: read its SAE-PT-Group* keys (malformed ones are skipped);
 * NULL: start empty. */
WifiSaePtCache *wifi_sae_pt_cache_new(JoindProfile *profile);
void wifi_sae_pt_cache_free(WifiSaePtCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiSaePtCache, wifi_sae_pt_cache_free)

/* The group's PT as octets (x then y), or NULL; *len set. Borrowed. */
const guint8 *wifi_sae_pt_cache_lookup(WifiSaePtCache *cache, guint group, gsize *len);
/* A PT derived now: replaces the group's, to be saved. */
void wifi_sae_pt_cache_store(WifiSaePtCache *cache, guint group, const guint8 *pt, gsize len);
/* Drops the PTs read from the profile (they did not fit the passphrase);
 * TRUE when there were some. */
gboolean wifi_sae_pt_cache_forget_loaded(WifiSaePtCache *cache);

/* Writes the PTs derived since the cache was made into profile (0600,
 * atomically, other lines kept); nothing when there are none. */
gboolean wifi_sae_pt_cache_save(WifiSaePtCache *cache, JoindCore *core, JoindProfile *profile,
                                GError **error);

G_END_DECLS
