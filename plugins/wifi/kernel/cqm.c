/* cqm.c - NL80211_CMD_NOTIFY_CQM (see cqm.h). */
#include "cqm.h"

#include <netlink/attr.h>
#include <netlink/msg.h>

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

guint
wifi_cqm_set_thresholds(WifiNl *nl, guint32 ifindex, const gint *thresholds, guint n,
                        guint hysteresis_db, gboolean with_list, WifiNlDoneFunc done,
                        gpointer user_data)
{
	struct nl_msg *msg;
	struct nlattr *cqm;
	gint32 list[8];
	guint count = with_list ? MIN(n, G_N_ELEMENTS(list)) : 1;

	g_return_val_if_fail(n > 0, 0);
	/* Without the list the kernel takes one threshold: the highest, the
	 * one a roam starts at. */
	for (guint i = 0; i < count; i++)
		list[i] = with_list ? thresholds[i] : thresholds[n - 1];
	msg = wifi_nl_msg_new(nl, NL80211_CMD_SET_CQM, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	cqm = nla_nest_start(msg, NL80211_ATTR_CQM);
	nla_put(msg, NL80211_ATTR_CQM_RSSI_THOLD, (int)(count * sizeof(gint32)), list);
	nla_put_u32(msg, NL80211_ATTR_CQM_RSSI_HYST, hysteresis_db);
	nla_nest_end(msg, cqm);
	return wifi_nl_send(nl, msg, NULL, done, user_data, NULL);
}
