/* cqm.c - NL80211_CMD_NOTIFY_CQM (see cqm.h). */
#include "cqm.h"

#include <netlink/attr.h>

WifiCqmEvent
wifi_cqm_parse(struct nlattr **attrs, gint *rssi_dbm)
{
	struct nlattr *cqm[NL80211_ATTR_CQM_MAX + 1];

	if (attrs[NL80211_ATTR_CQM] == NULL ||
	    nla_parse_nested(cqm, NL80211_ATTR_CQM_MAX, attrs[NL80211_ATTR_CQM], NULL) < 0)
		return WIFI_CQM_NONE;
	if (cqm[NL80211_ATTR_CQM_RSSI_LEVEL] != NULL)
		*rssi_dbm = (gint)nla_get_s32(cqm[NL80211_ATTR_CQM_RSSI_LEVEL]);
	if (cqm[NL80211_ATTR_CQM_BEACON_LOSS_EVENT] != NULL)
		return WIFI_CQM_BEACON_LOSS;
	if (cqm[NL80211_ATTR_CQM_PKT_LOSS_EVENT] != NULL)
		return WIFI_CQM_PACKET_LOSS;
	if (cqm[NL80211_ATTR_CQM_RSSI_THRESHOLD_EVENT] == NULL)
		return WIFI_CQM_NONE;
	switch (nla_get_u32(cqm[NL80211_ATTR_CQM_RSSI_THRESHOLD_EVENT])) {
	case NL80211_CQM_RSSI_THRESHOLD_EVENT_LOW:
		return WIFI_CQM_RSSI_LOW;
	case NL80211_CQM_RSSI_THRESHOLD_EVENT_HIGH:
		return WIFI_CQM_RSSI_HIGH;
	case NL80211_CQM_RSSI_BEACON_LOSS_EVENT:
		return WIFI_CQM_BEACON_LOSS;
	default:
		return WIFI_CQM_NONE;
	}
}

const gchar *
wifi_cqm_event_to_string(WifiCqmEvent event)
{
	switch (event) {
	case WIFI_CQM_RSSI_LOW:
		return "signal low";
	case WIFI_CQM_RSSI_HIGH:
		return "signal good again";
	case WIFI_CQM_BEACON_LOSS:
		return "beacon loss";
	case WIFI_CQM_PACKET_LOSS:
		return "packet loss";
	case WIFI_CQM_NONE:
	default:
		return "none";
	}
}
