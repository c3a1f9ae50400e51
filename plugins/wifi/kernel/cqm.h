/* cqm.h - connection quality monitoring over nl80211: NOTIFY_CQM carries
 * beacon loss (mac80211 reports it whether or not SET_CQM asked for signal
 * thresholds) and the signal crossing a threshold someone set. */
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

/* The event of a NOTIFY_CQM; *rssi_dbm is the signal when the kernel said
 * (else left alone). WIFI_CQM_NONE when there is nothing joind knows. */
WifiCqmEvent wifi_cqm_parse(struct nlattr **attrs, gint *rssi_dbm);
const gchar *wifi_cqm_event_to_string(WifiCqmEvent event);

G_END_DECLS
