/* ibss-cmds.c - nl80211 messages of ad-hoc mode (see ibss-cmds.h). */
#include "ibss-cmds.h"

#define ETH_P_PAE          0x888e
#define IBSS_BEACON_INT_TU 100

struct nl_msg *
wifi_ibss_msg_join(WifiNl *nl, guint32 ifindex, const WifiIbssJoin *j)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_JOIN_IBSS, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_SSID, (int)j->ssid_len, j->ssid);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, j->freq);
	nla_put_u32(msg, NL80211_ATTR_CHANNEL_WIDTH, NL80211_CHAN_WIDTH_20_NOHT);
	nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ1, j->freq);
	nla_put_u32(msg, NL80211_ATTR_BEACON_INTERVAL, IBSS_BEACON_INT_TU);
	/* The kernel leaves the IBSS if joind goes away. */
	nla_put_flag(msg, NL80211_ATTR_SOCKET_OWNER);
	if (j->rsne == NULL)
		return msg;
	nla_put_flag(msg, NL80211_ATTR_PRIVACY);
	nla_put(msg, NL80211_ATTR_IE, (int)j->rsne_len, j->rsne);
	nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, ETH_P_PAE);
	nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_OVER_NL80211);
	return msg;
}

struct nl_msg *
wifi_ibss_msg_leave(WifiNl *nl, guint32 ifindex)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_LEAVE_IBSS, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	return msg;
}
