/* sta-info.h - the link facts nl80211 reports for a peer station
 * (NL80211_ATTR_STA_INFO of a GET_STATION reply): signal, connected time,
 * byte counters, transmit rate.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_STA_INFO_ERROR (wifi_sta_info_error_quark())
GQuark wifi_sta_info_error_quark(void);

typedef enum {
	WIFI_STA_INFO_ERROR_MALFORMED,
} WifiStaInfoErrorCode;

typedef struct {
	gboolean has_signal;
	gint signal_dbm; /* the last frame's */
	gboolean has_signal_avg;
	gint signal_avg_dbm;
	gboolean has_connected_time;
	guint32 connected_time_s; /* the kernel's count since association */
	gboolean has_inactive_time;
	guint32 inactive_time_ms; /* since the peer's last frame (an AP's stations) */
	gboolean has_bytes;
	guint64 rx_bytes;
	guint64 tx_bytes;
	gboolean has_tx_bitrate;
	guint32 tx_bitrate_100kbps;
} WifiStaInfo;

/* Parses the payload of NL80211_ATTR_STA_INFO (a sequence of netlink
 * attributes, NL80211_STA_INFO_*). Fails on an attribute joind reads that
 * has the wrong size, or on a truncated attribute; absent facts stay
 * has_* = FALSE. */
gboolean wifi_sta_info_parse(const guint8 *data, gsize len, WifiStaInfo *info, GError **error);

G_END_DECLS
