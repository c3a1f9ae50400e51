/* cqm.h - connection quality monitoring over nl80211: SET_CQM asks the
 * kernel for an event when the signal crosses a threshold; NOTIFY_CQM
 * carries it (and beacon loss, on drivers that watch beacons). */
#pragma once

#include "nl80211.h"

G_BEGIN_DECLS

typedef enum {
	WIFI_CQM_NONE,
	WIFI_CQM_RSSI_LOW,
	WIFI_CQM_RSSI_HIGH,
	WIFI_CQM_BEACON_LOSS,
	WIFI_CQM_PACKET_LOSS,
} WifiCqmEvent;

/* SET_CQM for ifindex: events when the signal falls below threshold_dbm
 * or rises above it again, with hysteresis_db to keep them from chattering. */
struct nl_msg *wifi_cqm_msg_new(WifiNl *nl, guint32 ifindex, gint threshold_dbm,
                                guint hysteresis_db);
/* The event of a NOTIFY_CQM; *rssi_dbm is the signal when the kernel said
 * (else left alone). WIFI_CQM_NONE when there is nothing joind knows. */
WifiCqmEvent wifi_cqm_parse(struct nlattr **attrs, gint *rssi_dbm);
const gchar *wifi_cqm_event_to_string(WifiCqmEvent event);

G_END_DECLS
