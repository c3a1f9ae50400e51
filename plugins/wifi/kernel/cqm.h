/* cqm.h - connection quality monitoring over nl80211: SET_CQM asks for
 * signal events; NOTIFY_CQM carries beacon loss (mac80211 reports it
 * whether or not SET_CQM asked for signal thresholds) and the signal
 * crossing a threshold set. Events only: nothing polls the signal. */
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

/* Asks for signal events of interface ifindex around thresholds (dBm,
 * ascending, n >= 1) with hysteresis_db: the whole list where the radio
 * offers NL80211_EXT_FEATURE_CQM_RSSI_LIST (with_list), else the highest
 * one alone. Returns the request (wifi_nl_cancel()); done hears the
 * kernel's answer. */
guint wifi_cqm_set_thresholds(WifiNl *nl, guint32 ifindex, const gint *thresholds, guint n,
                              guint hysteresis_db, gboolean with_list, WifiNlDoneFunc done,
                              gpointer user_data);

G_END_DECLS
