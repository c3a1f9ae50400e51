/* roam-avoid.h - the BSSes a roam leaves out, each with its reason and
 * expiry: one a roam to failed, one a BSS transition request told us to
 * leave, one that refused association as busy. Leaving a BSS for a weak
 * signal does not put it here (the margin keeps us from coming back).
 * Times are monotonic microseconds. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	WIFI_ROAM_AVOID_NONE,
	WIFI_ROAM_AVOID_FAILED,   /* a roam to it failed */
	WIFI_ROAM_AVOID_BTM_LEFT, /* a BSS transition request had us leave it */
	WIFI_ROAM_AVOID_BUSY,     /* it refused us: too many stations */
	WIFI_ROAM_AVOID_LAST = WIFI_ROAM_AVOID_BUSY,
} WifiRoamAvoidReason;

typedef struct _WifiRoamAvoid WifiRoamAvoid;

WifiRoamAvoid *wifi_roam_avoid_new(void);
void wifi_roam_avoid_free(WifiRoamAvoid *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiRoamAvoid, wifi_roam_avoid_free)

/* Adds bssid, or renews it: the later expiry and the newer reason win. */
void wifi_roam_avoid_add(WifiRoamAvoid *self, const guint8 *bssid, WifiRoamAvoidReason reason,
                         gint64 now_us, gint64 duration_us);
/* Why bssid is avoided at now_us, or WIFI_ROAM_AVOID_NONE. */
WifiRoamAvoidReason wifi_roam_avoid_lookup(WifiRoamAvoid *self, const guint8 *bssid, gint64 now_us);
const gchar *wifi_roam_avoid_reason_to_string(WifiRoamAvoidReason reason);

G_END_DECLS
