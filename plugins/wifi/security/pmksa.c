/* pmksa.c - the PMKSA cache (see pmksa.h). */
#include "pmksa.h"

#include <string.h>

#include "joind-secret.h"

struct _WifiPmksaCache {
	GPtrArray *entries; /* WifiPmksa, oldest first */
};

WifiPmksa *
wifi_pmksa_new_with_pmkid(guint akm, const guint8 *pmk, gsize pmk_len,
                          const guint8 pmkid[WIFI_PMKID_LEN], const guint8 bssid[WIFI_ADDR_LEN],
                          const guint8 spa[WIFI_ADDR_LEN], const gchar *network, guint lifetime_s,
                          gint64 now, GError **error)
{
	g_autoptr(WifiPmksa) pmksa = g_new0(WifiPmksa, 1);

	if (pmk_len == 0 || pmk_len > sizeof(pmksa->pmk)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "A PMK of %" G_GSIZE_FORMAT " octets", pmk_len);
		return NULL;
	}
	memcpy(pmksa->pmkid, pmkid, WIFI_PMKID_LEN);
	memcpy(pmksa->spa, spa, WIFI_ADDR_LEN);
	memcpy(pmksa->bssid, bssid, WIFI_ADDR_LEN);
	pmksa->network = g_strdup(network);
	pmksa->akm = akm;
	memcpy(pmksa->pmk, pmk, pmk_len);
	pmksa->pmk_len = pmk_len;
	pmksa->expires = now + (gint64)lifetime_s * G_USEC_PER_SEC;
	return g_steal_pointer(&pmksa);
}

WifiPmksa *
wifi_pmksa_new(guint akm, const guint8 *pmk, gsize pmk_len, const guint8 bssid[WIFI_ADDR_LEN],
               const guint8 spa[WIFI_ADDR_LEN], const gchar *network, guint lifetime_s, gint64 now,
               GError **error)
{
	guint8 pmkid[WIFI_PMKID_LEN] = {0};

	/* A PMK of a wrong length is refused below. */
	if (pmk_len > 0 && pmk_len <= WIFI_PMK_MAX_LEN &&
	    !wifi_pmkid(akm, pmk, pmk_len, bssid, spa, pmkid, error))
		return NULL;
	return wifi_pmksa_new_with_pmkid(akm, pmk, pmk_len, pmkid, bssid, spa, network, lifetime_s,
	                                 now, error);
}

WifiPmksa *
wifi_pmksa_copy(const WifiPmksa *pmksa)
{
	WifiPmksa *copy = g_memdup2(pmksa, sizeof(*pmksa));

	copy->network = g_strdup(pmksa->network);
	return copy;
}

void
wifi_pmksa_free(WifiPmksa *pmksa)
{
	if (pmksa == NULL)
		return;
	g_free(pmksa->network);
	joind_secret_clear(pmksa, sizeof(*pmksa));
	g_free(pmksa);
}

WifiPmksaCache *
wifi_pmksa_cache_new(void)
{
	WifiPmksaCache *cache = g_new0(WifiPmksaCache, 1);

	cache->entries = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_pmksa_free);
	return cache;
}

void
wifi_pmksa_cache_free(WifiPmksaCache *cache)
{
	if (cache == NULL)
		return;
	g_ptr_array_unref(cache->entries);
	g_free(cache);
}

static gboolean
same_key(const WifiPmksa *e, const guint8 *bssid, const guint8 *spa, const gchar *network)
{
	return memcmp(e->bssid, bssid, WIFI_ADDR_LEN) == 0 &&
	       memcmp(e->spa, spa, WIFI_ADDR_LEN) == 0 && g_strcmp0(e->network, network) == 0;
}

gboolean
wifi_pmksa_cache_remove(WifiPmksaCache *cache, const guint8 bssid[WIFI_ADDR_LEN],
                        const guint8 spa[WIFI_ADDR_LEN], const gchar *network)
{
	for (guint i = 0; i < cache->entries->len; i++) {
		if (same_key(g_ptr_array_index(cache->entries, i), bssid, spa, network)) {
			g_ptr_array_remove_index(cache->entries, i);
			return TRUE;
		}
	}
	return FALSE;
}

void
wifi_pmksa_cache_add(WifiPmksaCache *cache, WifiPmksa *pmksa)
{
	wifi_pmksa_cache_remove(cache, pmksa->bssid, pmksa->spa, pmksa->network);
	if (cache->entries->len >= WIFI_PMKSA_MAX)
		g_ptr_array_remove_index(cache->entries, 0);
	g_ptr_array_add(cache->entries, pmksa);
}

static void
drop_expired(WifiPmksaCache *cache, gint64 now)
{
	for (guint i = cache->entries->len; i > 0; i--) {
		const WifiPmksa *e = g_ptr_array_index(cache->entries, i - 1);

		if (e->expires <= now)
			g_ptr_array_remove_index(cache->entries, i - 1);
	}
}

const WifiPmksa *
wifi_pmksa_cache_lookup(WifiPmksaCache *cache, const guint8 bssid[WIFI_ADDR_LEN],
                        const guint8 spa[WIFI_ADDR_LEN], const gchar *network, guint akm,
                        gint64 now)
{
	drop_expired(cache, now);
	for (guint i = 0; i < cache->entries->len; i++) {
		const WifiPmksa *e = g_ptr_array_index(cache->entries, i);

		if (same_key(e, bssid, spa, network) && e->akm == akm)
			return e;
	}
	return NULL;
}

const WifiPmksa *
wifi_pmksa_cache_lookup_network(WifiPmksaCache *cache, const guint8 spa[WIFI_ADDR_LEN],
                                const gchar *network, guint akm, gint64 now)
{
	drop_expired(cache, now);
	/* Oldest first: the newest match is the last. */
	for (guint i = cache->entries->len; i > 0; i--) {
		const WifiPmksa *e = g_ptr_array_index(cache->entries, i - 1);

		if (memcmp(e->spa, spa, WIFI_ADDR_LEN) == 0 &&
		    g_strcmp0(e->network, network) == 0 && e->akm == akm)
			return e;
	}
	return NULL;
}

WifiPmksa *
wifi_pmksa_derive(const WifiPmksa *pmksa, const guint8 bssid[WIFI_ADDR_LEN], GError **error)
{
	g_autoptr(WifiPmksa) derived = wifi_pmksa_copy(pmksa);

	memcpy(derived->bssid, bssid, WIFI_ADDR_LEN);
	if (!wifi_pmkid(derived->akm, derived->pmk, derived->pmk_len, bssid, derived->spa,
	                derived->pmkid, error))
		return NULL;
	return g_steal_pointer(&derived);
}

guint
wifi_pmksa_cache_flush_network(WifiPmksaCache *cache, const gchar *network)
{
	guint n = 0;

	for (guint i = cache->entries->len; i > 0; i--) {
		WifiPmksa *e = g_ptr_array_index(cache->entries, i - 1);

		if (g_strcmp0(e->network, network) == 0) {
			g_ptr_array_remove_index(cache->entries, i - 1);
			n++;
		}
	}
	return n;
}

guint
wifi_pmksa_cache_size(WifiPmksaCache *cache)
{
	return cache->entries->len;
}
