/* pmksa.h - the PMKSA cache of one station interface (IEEE 802.11-2020
 * 12.6.10.2): what a full 802.1X authentication left (PMKID, PMK, AKM),
 * per access point (BSSID), our address and network, so that the next
 * association to that access point names the PMKID in its RSNE and skips
 * EAP when the access point still has it.
 *
 * In memory only, never written anywhere. Entries expire (the lifetime the
 * access point gave, else dot11RSNAConfigPMKLifetime's 12 h), go with the
 * network's profile (changed or forgotten) and make room for newer ones
 * beyond WIFI_PMKSA_MAX.
 */
#pragma once

#include <glib.h>

#include "rsn-keys.h"
#include "rsn-suites.h"

G_BEGIN_DECLS

/* dot11RSNAConfigPMKLifetime's default. */
#define WIFI_PMKSA_DEFAULT_LIFETIME_S (12u * 3600u)
#define WIFI_PMKSA_MAX                32u

typedef struct {
	guint8 spa[WIFI_ADDR_LEN];   /* our address */
	guint8 bssid[WIFI_ADDR_LEN]; /* the access point's (AA) */
	gchar *network;              /* the network's key (wifi_known_network_key()) */
	guint akm;
	guint8 pmkid[WIFI_PMKID_LEN];
	guint8 pmk[WIFI_PMK_MAX_LEN];
	gsize pmk_len;
	gint64 expires; /* monotonic µs */
	/* SAE: the group and hash-to-element of the exchange that made it. */
	guint sae_group;
	gboolean sae_h2e;
} WifiPmksa;

/* A PMKSA for pmk (PMKID computed per akm), expiring lifetime_s after now
 * (monotonic µs). Free with wifi_pmksa_free(). */
WifiPmksa *wifi_pmksa_new(guint akm, const guint8 *pmk, gsize pmk_len,
                          const guint8 bssid[WIFI_ADDR_LEN], const guint8 spa[WIFI_ADDR_LEN],
                          const gchar *network, guint lifetime_s, gint64 now, GError **error);
/* The same with the PMKID given: SAE's comes from its exchange (IEEE
 * 802.11-2020 12.4.5.4), not from the PMK. */
WifiPmksa *wifi_pmksa_new_with_pmkid(guint akm, const guint8 *pmk, gsize pmk_len,
                                     const guint8 pmkid[WIFI_PMKID_LEN],
                                     const guint8 bssid[WIFI_ADDR_LEN],
                                     const guint8 spa[WIFI_ADDR_LEN], const gchar *network,
                                     guint lifetime_s, gint64 now, GError **error);
WifiPmksa *wifi_pmksa_copy(const WifiPmksa *pmksa);
/* Wipes the PMK. */
void wifi_pmksa_free(WifiPmksa *pmksa);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiPmksa, wifi_pmksa_free)

typedef struct _WifiPmksaCache WifiPmksaCache;

WifiPmksaCache *wifi_pmksa_cache_new(void);
void wifi_pmksa_cache_free(WifiPmksaCache *cache);

/* Takes pmksa, replacing the entry of the same BSSID, address and
 * network. */
void wifi_pmksa_cache_add(WifiPmksaCache *cache, WifiPmksa *pmksa);
/* The live entry for that access point, address, network and AKM (expired
 * ones are dropped on the way), or NULL. Borrowed until the cache changes. */
const WifiPmksa *wifi_pmksa_cache_lookup(WifiPmksaCache *cache, const guint8 bssid[WIFI_ADDR_LEN],
                                         const guint8 spa[WIFI_ADDR_LEN], const gchar *network,
                                         guint akm, gint64 now);
/* Opportunistic key caching: the newest live entry of network for our
 * address and akm, whichever access point it came from, or NULL. Borrowed
 * until the cache changes. */
const WifiPmksa *wifi_pmksa_cache_lookup_network(WifiPmksaCache *cache,
                                                 const guint8 spa[WIFI_ADDR_LEN],
                                                 const gchar *network, guint akm, gint64 now);
/* The PMKSA another access point of the same network holds when it shares
 * pmksa's PMK (as access points with opportunistic key caching do): the
 * PMKID computed for bssid, the same PMK and expiry. NULL with error when
 * the AKM derives no PMKID from the PMK. */
WifiPmksa *wifi_pmksa_derive(const WifiPmksa *pmksa, const guint8 bssid[WIFI_ADDR_LEN],
                             GError **error);
/* Drops the entry for that access point, address and network: the access
 * point no longer has it. TRUE when there was one. */
gboolean wifi_pmksa_cache_remove(WifiPmksaCache *cache, const guint8 bssid[WIFI_ADDR_LEN],
                                 const guint8 spa[WIFI_ADDR_LEN], const gchar *network);
/* Drops every entry of network (its profile changed or went); how many. */
guint wifi_pmksa_cache_flush_network(WifiPmksaCache *cache, const gchar *network);
guint wifi_pmksa_cache_size(WifiPmksaCache *cache);

G_END_DECLS
