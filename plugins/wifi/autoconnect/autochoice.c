/* autochoice.c - autoconnect's decisions, kept free of I/O (see autochoice.h). */
#include "autochoice.h"

#include <string.h>

struct _WifiAvoidList {
	GHashTable *until; /* 6-octet BSSID (GBytes) -> gint64 expiry (boxed) */
};

WifiAvoidList *
wifi_avoid_list_new(void)
{
	WifiAvoidList *self = g_new0(WifiAvoidList, 1);

	self->until = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
	                                    (GDestroyNotify)g_bytes_unref, g_free);
	return self;
}

void
wifi_avoid_list_free(WifiAvoidList *self)
{
	if (self == NULL)
		return;
	g_hash_table_unref(self->until);
	g_free(self);
}

void
wifi_avoid_list_add(WifiAvoidList *self, const guint8 *bssid, gint64 now_us, gint64 duration_us)
{
	gint64 *until = g_new(gint64, 1);

	*until = now_us + duration_us;
	g_hash_table_replace(self->until, g_bytes_new(bssid, 6), until);
}

static void
avoid_list_expire(WifiAvoidList *self, gint64 now_us)
{
	GHashTableIter iter;
	gint64 *until;

	g_hash_table_iter_init(&iter, self->until);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&until)) {
		if (*until <= now_us)
			g_hash_table_iter_remove(&iter);
	}
}

gboolean
wifi_avoid_list_contains(WifiAvoidList *self, const guint8 *bssid, gint64 now_us)
{
	g_autoptr(GBytes) key = g_bytes_new(bssid, 6);
	const gint64 *until = g_hash_table_lookup(self->until, key);

	return until != NULL && *until > now_us;
}

guint
wifi_avoid_list_size(WifiAvoidList *self, gint64 now_us)
{
	avoid_list_expire(self, now_us);
	return g_hash_table_size(self->until);
}

gboolean
wifi_autoconnect_bss_usable(const WifiBss *bss, WifiAvoidList *avoid, gint64 now_us, guint64 now_ns)
{
	/* A BSS the last scan of its channel missed may be gone: connecting to
	 * it would only time out. */
	if (bss->misses > 0)
		return FALSE;
	if (bss->last_seen_ns != 0 && now_ns > bss->last_seen_ns &&
	    now_ns - bss->last_seen_ns > (guint64)WIFI_AUTOCONNECT_MAX_BSS_AGE_NS)
		return FALSE;
	return avoid == NULL || !wifi_avoid_list_contains(avoid, bss->bssid, now_us);
}

gint
wifi_autoconnect_choose(const WifiAutoCandidate *candidates, guint n, WifiAvoidList *avoid,
                        gint64 now_us, guint64 now_ns, WifiBss **bss)
{
	gint best = -1;
	WifiBss *best_bss = NULL;

	for (guint i = 0; i < n; i++) {
		const WifiAutoCandidate *c = &candidates[i];
		WifiBss *usable = NULL;

		if (!c->known || !c->autoconnect || c->blocked || c->bsses == NULL)
			continue;
		if (best >= 0 && c->rank <= candidates[best].rank)
			continue;
		for (guint j = 0; j < c->bsses->len && usable == NULL; j++) {
			WifiBss *b = g_ptr_array_index(c->bsses, j);

			if (wifi_autoconnect_bss_usable(b, avoid, now_us, now_ns))
				usable = b;
		}
		if (usable == NULL)
			continue;
		best = (gint)i;
		best_bss = usable;
	}
	if (bss != NULL)
		*bss = best_bss;
	return best;
}

guint
wifi_autoconnect_backoff_ms(guint attempt, guint initial_ms, guint max_ms)
{
	guint64 ms = initial_ms;

	for (guint i = 0; i < attempt && ms < max_ms; i++)
		ms *= 2;
	return (guint)MIN(ms, (guint64)max_ms);
}

static gboolean
array_has(const GArray *a, guint32 v)
{
	for (guint i = 0; i < a->len; i++) {
		if (g_array_index(a, guint32, i) == v)
			return TRUE;
	}
	return FALSE;
}

GArray *
wifi_autoconnect_quick_freqs(GPtrArray *freq_lists, guint max)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(guint32));
	gboolean more = TRUE;

	/* Round by round: every network's most recent frequency before any
	 * network's second one, so a cap cuts the least likely. */
	for (guint pos = 0; more && out->len < max; pos++) {
		more = FALSE;
		for (guint i = 0; freq_lists != NULL && i < freq_lists->len && out->len < max;
		     i++) {
			const GArray *list = g_ptr_array_index(freq_lists, i);
			guint32 f;

			if (list == NULL || pos >= list->len)
				continue;
			more = TRUE;
			f = g_array_index(list, guint32, pos);
			if (f != 0 && !array_has(out, f))
				g_array_append_val(out, f);
		}
	}
	if (out->len == 0) {
		g_array_unref(out);
		return NULL;
	}
	return out;
}
