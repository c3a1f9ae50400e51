/* roam-history.h - what the roamer has done, for diagnostics: its last
 * moves (trigger, method, the BSS left and the target, duration, result)
 * and counters since the interface appeared. Pure bookkeeping, no I/O:
 * unit-tested (tests/unit/wifi/test-roam.c).
 */
#pragma once

#include <glib.h>

#include "roam-choice.h"

G_BEGIN_DECLS

/* The moves kept, newest first. */
#define WIFI_ROAM_HISTORY_LEN 8

typedef struct {
	gint64 started_real; /* wall clock (µs) when the move began */
	WifiRoamTrigger trigger;
	const gchar *method; /* static: "reassociation" */
	guint8 from[6];
	guint8 to[6];
	guint duration_ms;
	gboolean ok;
	guint16 status; /* a failure's IEEE 802.11 status, 0 when none came */
} WifiRoamRecord;

typedef struct {
	WifiRoamRecord records[WIFI_ROAM_HISTORY_LEN]; /* a ring */
	guint n_records;
	guint next;     /* where the next record goes */
	guint searches; /* candidate searches begun (scans, neighbour reports) */
	guint roams;    /* moves that ended on the target */
	guint failures; /* moves that did not */
	guint btm_requests;
} WifiRoamHistory;

void wifi_roam_history_add(WifiRoamHistory *self, const WifiRoamRecord *record);
/* The diagnostics' "roams": the counters and "last", the records newest
 * first (a{sv}; "last" is aa{sv} with time, trigger, method, from, to,
 * duration_ms, result and, for a failure, status). */
GVariant *wifi_roam_history_to_variant(const WifiRoamHistory *self);

G_END_DECLS
