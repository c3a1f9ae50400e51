/* roam-avoid.c - the roam's avoid list (see roam-avoid.h). */
#include "roam-avoid.h"

#include <string.h>

typedef struct {
	guint8 bssid[6];
	WifiRoamAvoidReason reason;
	gint64 until_us;
} AvoidEntry;

struct _WifiRoamAvoid {
	GArray *entries; /* AvoidEntry; a handful at most */
};

static const gchar *const avoid_reason_names[] = {
        [WIFI_ROAM_AVOID_NONE] = "none",
        [WIFI_ROAM_AVOID_FAILED] = "roam failed",
        [WIFI_ROAM_AVOID_BTM_LEFT] = "told to leave",
        [WIFI_ROAM_AVOID_BUSY] = "busy",
};
G_STATIC_ASSERT(G_N_ELEMENTS(avoid_reason_names) == WIFI_ROAM_AVOID_LAST + 1);

WifiRoamAvoid *
wifi_roam_avoid_new(void)
{
	WifiRoamAvoid *self = g_new0(WifiRoamAvoid, 1);

	self->entries = g_array_new(FALSE, TRUE, sizeof(AvoidEntry));
	return self;
}

void
wifi_roam_avoid_free(WifiRoamAvoid *self)
{
	if (self == NULL)
		return;
	g_array_unref(self->entries);
	g_free(self);
}

static void
avoid_expire(WifiRoamAvoid *self, gint64 now_us)
{
	for (guint i = self->entries->len; i-- > 0;) {
		if (g_array_index(self->entries, AvoidEntry, i).until_us <= now_us)
			g_array_remove_index_fast(self->entries, i);
	}
}

static AvoidEntry *
avoid_find(WifiRoamAvoid *self, const guint8 *bssid)
{
	for (guint i = 0; i < self->entries->len; i++) {
		AvoidEntry *e = &g_array_index(self->entries, AvoidEntry, i);

		if (memcmp(e->bssid, bssid, 6) == 0)
			return e;
	}
	return NULL;
}

void
wifi_roam_avoid_add(WifiRoamAvoid *self, const guint8 *bssid, WifiRoamAvoidReason reason,
                    gint64 now_us, gint64 duration_us)
{
	AvoidEntry *e;

	avoid_expire(self, now_us);
	e = avoid_find(self, bssid);
	if (e == NULL) {
		AvoidEntry fresh = {.reason = reason, .until_us = now_us + duration_us};

		memcpy(fresh.bssid, bssid, 6);
		g_array_append_val(self->entries, fresh);
		return;
	}
	e->reason = reason;
	e->until_us = MAX(e->until_us, now_us + duration_us);
}

WifiRoamAvoidReason
wifi_roam_avoid_lookup(WifiRoamAvoid *self, const guint8 *bssid, gint64 now_us)
{
	AvoidEntry *e;

	avoid_expire(self, now_us);
	e = avoid_find(self, bssid);
	return e != NULL ? e->reason : WIFI_ROAM_AVOID_NONE;
}

const gchar *
wifi_roam_avoid_reason_to_string(WifiRoamAvoidReason reason)
{
	if ((guint)reason > WIFI_ROAM_AVOID_LAST)
		return "unknown";
	return avoid_reason_names[reason];
}
