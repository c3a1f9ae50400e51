/* sae-pt.c - the PTs of a network's profile (see sae-pt.h). */
#include "sae-pt.h"

#include <string.h>

/* The groups SAE offers (sae-auth.c), one slot each. */
static const guint pt_groups[] = {19, 20, 21};

typedef struct {
	guint8 *pt; /* x then y; NULL when unknown */
	gsize len;
	gboolean loaded; /* read from the profile */
	gboolean fresh;  /* derived since: to be saved */
} PtSlot;

struct _WifiSaePtCache {
	PtSlot slots[G_N_ELEMENTS(pt_groups)];
};

static PtSlot *
pt_slot(WifiSaePtCache *cache, guint group)
{
	for (guint i = 0; i < G_N_ELEMENTS(pt_groups); i++) {
		if (pt_groups[i] == group)
			return &cache->slots[i];
	}
	return NULL;
}

static void
pt_slot_clear(PtSlot *slot)
{
	if (slot->pt != NULL)
		joind_secret_clear(slot->pt, slot->len);
	g_clear_pointer(&slot->pt, g_free);
	slot->len = 0;
	slot->loaded = FALSE;
	slot->fresh = FALSE;
}

/* The group's point is 2 * prime length octets: 64, 96, 132. */
static gsize
pt_len(guint group)
{
	return group == 19 ? 64 : group == 20 ? 96 : 132;
}

static guint8 *
pt_from_hex(const gchar *hex, gsize want)
{
	guint8 *out;

	if (hex == NULL || strlen(hex) != 2 * want)
		return NULL;
	out = g_malloc(want);
	for (gsize i = 0; i < want; i++) {
		gint hi = g_ascii_xdigit_value(hex[2 * i]);
		gint lo = g_ascii_xdigit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			joind_secret_clear(out, want);
			g_free(out);
			return NULL;
		}
		out[i] = (guint8)(hi << 4 | lo);
	}
	return out;
}

static void
pt_load(WifiSaePtCache *cache, JoindProfile *profile, guint index)
{
	gchar key[32];
	gchar *hex;
	PtSlot *slot = &cache->slots[index];

	g_snprintf(key, sizeof(key), "SAE-PT-Group%u", pt_groups[index]);
	hex = joind_profile_get_string(profile, "Security", key);
	if (hex == NULL)
		return;
	slot->pt = pt_from_hex(g_strstrip(hex), pt_len(pt_groups[index]));
	joind_secret_wipe(hex);
	if (slot->pt == NULL) {
		g_info("%s: %s is not a point of group %u in hexadecimal: derived anew",
		       joind_profile_get_path(profile), key, pt_groups[index]);
		return;
	}
	slot->len = pt_len(pt_groups[index]);
	slot->loaded = TRUE;
}

WifiSaePtCache *
wifi_sae_pt_cache_new(JoindProfile *profile)
{
	WifiSaePtCache *cache = g_new0(WifiSaePtCache, 1);

	for (guint i = 0; profile != NULL && i < G_N_ELEMENTS(pt_groups); i++)
		pt_load(cache, profile, i);
	return cache;
}

void
wifi_sae_pt_cache_free(WifiSaePtCache *cache)
{
	if (cache == NULL)
		return;
	for (guint i = 0; i < G_N_ELEMENTS(pt_groups); i++)
		pt_slot_clear(&cache->slots[i]);
	g_free(cache);
}

const guint8 *
wifi_sae_pt_cache_lookup(WifiSaePtCache *cache, guint group, gsize *len)
{
	PtSlot *slot = pt_slot(cache, group);

	*len = slot != NULL ? slot->len : 0;
	return slot != NULL ? slot->pt : NULL;
}

void
wifi_sae_pt_cache_store(WifiSaePtCache *cache, guint group, const guint8 *pt, gsize len)
{
	PtSlot *slot = pt_slot(cache, group);

	if (slot == NULL || len != pt_len(group))
		return;
	pt_slot_clear(slot);
	slot->pt = g_memdup2(pt, len);
	slot->len = len;
	slot->fresh = TRUE;
}

gboolean
wifi_sae_pt_cache_forget_loaded(WifiSaePtCache *cache)
{
	gboolean any = FALSE;

	for (guint i = 0; i < G_N_ELEMENTS(pt_groups); i++) {
		if (cache->slots[i].loaded) {
			pt_slot_clear(&cache->slots[i]);
			any = TRUE;
		}
	}
	return any;
}

static gchar *
pt_to_hex(const PtSlot *slot)
{
	gchar *hex = g_malloc(2 * slot->len + 1);

	for (gsize i = 0; i < slot->len; i++)
		g_snprintf(hex + 2 * i, 3, "%02x", slot->pt[i]);
	return hex;
}

gboolean
wifi_sae_pt_cache_save(WifiSaePtCache *cache, JoindCore *core, JoindProfile *profile,
                       GError **error)
{
	gchar *keys[G_N_ELEMENTS(pt_groups) + 1] = {NULL};
	gchar *values[G_N_ELEMENTS(pt_groups) + 1] = {NULL};
	guint n = 0;
	gboolean ok = TRUE;

	for (guint i = 0; i < G_N_ELEMENTS(pt_groups); i++) {
		if (!cache->slots[i].fresh)
			continue;
		keys[n] = g_strdup_printf("SAE-PT-Group%u", pt_groups[i]);
		values[n++] = pt_to_hex(&cache->slots[i]);
	}
	if (n > 0)
		ok = joind_core_update_profile_keys(core, profile, "Security",
		                                    (const gchar *const *)keys,
		                                    (const gchar *const *)values, error);
	for (guint i = 0; i < n; i++) {
		g_free(keys[i]);
		joind_secret_wipe(values[i]);
	}
	for (guint i = 0; ok && i < G_N_ELEMENTS(pt_groups); i++) {
		cache->slots[i].loaded |= cache->slots[i].fresh;
		cache->slots[i].fresh = FALSE;
	}
	return ok;
}
