/* ap-cmds.c - nl80211 messages of access point mode (see ap-cmds.h). */
#include "ap-cmds.h"

#define ETH_P_PAE 0x888e

static void
put_security(struct nl_msg *msg, const WifiApStart *s)
{
	if (!s->privacy) {
		nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM);
		return;
	}
	nla_put_flag(msg, NL80211_ATTR_PRIVACY);
	nla_put_u32(msg, NL80211_ATTR_AUTH_TYPE, NL80211_AUTHTYPE_OPEN_SYSTEM);
	nla_put_u32(msg, NL80211_ATTR_WPA_VERSIONS, NL80211_WPA_VERSION_2);
	nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITES_PAIRWISE, s->pairwise_cipher);
	nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITE_GROUP, s->group_cipher);
	nla_put(msg, NL80211_ATTR_AKM_SUITES, (int)(s->n_akms * sizeof(guint32)), s->akms);
	/* Each station's port stays closed until its 4-way handshake ends. */
	nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, ETH_P_PAE);
	if (s->control_port_nl80211)
		nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_OVER_NL80211);
}

struct nl_msg *
wifi_ap_msg_start(WifiNl *nl, guint32 ifindex, const WifiApStart *s)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_START_AP, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_BEACON_HEAD, (int)g_bytes_get_size(s->beacon_head),
	        g_bytes_get_data(s->beacon_head, NULL));
	nla_put(msg, NL80211_ATTR_BEACON_TAIL, (int)g_bytes_get_size(s->beacon_tail),
	        g_bytes_get_data(s->beacon_tail, NULL));
	nla_put_u32(msg, NL80211_ATTR_BEACON_INTERVAL, s->beacon_interval);
	nla_put_u32(msg, NL80211_ATTR_DTIM_PERIOD, s->dtim_period);
	nla_put(msg, NL80211_ATTR_SSID, (int)s->ssid_len, s->ssid);
	nla_put_u32(msg, NL80211_ATTR_HIDDEN_SSID,
	            s->hidden ? NL80211_HIDDEN_SSID_ZERO_LEN : NL80211_HIDDEN_SSID_NOT_IN_USE);
	nla_put_u32(msg, NL80211_ATTR_WIPHY_FREQ, s->freq);
	nla_put_u32(msg, NL80211_ATTR_CHANNEL_WIDTH, NL80211_CHAN_WIDTH_20_NOHT);
	nla_put_u32(msg, NL80211_ATTR_CENTER_FREQ1, s->freq);
	if (s->inactivity_timeout > 0)
		nla_put_u16(msg, NL80211_ATTR_INACTIVITY_TIMEOUT, (guint16)s->inactivity_timeout);
	/* The kernel stops the AP if joind goes away. */
	nla_put_flag(msg, NL80211_ATTR_SOCKET_OWNER);
	put_security(msg, s);
	return msg;
}

struct nl_msg *
wifi_ap_msg_stop(WifiNl *nl, guint32 ifindex)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_STOP_AP, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	return msg;
}

struct nl_msg *
wifi_ap_msg_new_station(WifiNl *nl, guint32 ifindex, const guint8 mac[6], guint16 aid,
                        guint16 listen_interval, guint16 capabilities, const guint8 *rates,
                        gsize n_rates, gboolean mfp)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_NEW_STATION, 0);
	struct nl80211_sta_flag_update flags = {
	        .mask = (1u << NL80211_STA_FLAG_AUTHORIZED) |
	                (1u << NL80211_STA_FLAG_AUTHENTICATED) |
	                (1u << NL80211_STA_FLAG_ASSOCIATED) | (1u << NL80211_STA_FLAG_MFP) |
	                (1u << NL80211_STA_FLAG_SHORT_PREAMBLE),
	        .set = (1u << NL80211_STA_FLAG_AUTHENTICATED) |
	               (1u << NL80211_STA_FLAG_ASSOCIATED) |
	               (mfp ? 1u << NL80211_STA_FLAG_MFP : 0) |
	               ((capabilities & 0x0020) ? 1u << NL80211_STA_FLAG_SHORT_PREAMBLE : 0),
	};

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, mac);
	nla_put_u16(msg, NL80211_ATTR_STA_AID, aid);
	nla_put_u16(msg, NL80211_ATTR_STA_LISTEN_INTERVAL, listen_interval);
	nla_put_u16(msg, NL80211_ATTR_STA_CAPABILITY, capabilities);
	nla_put(msg, NL80211_ATTR_STA_SUPPORTED_RATES, (int)n_rates, rates);
	nla_put(msg, NL80211_ATTR_STA_FLAGS2, sizeof(flags), &flags);
	return msg;
}

struct nl_msg *
wifi_ap_msg_del_station(WifiNl *nl, guint32 ifindex, const guint8 mac[6], guint16 reason)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_DEL_STATION, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, mac);
	/* 12: deauthentication (IEEE 802.11 management subtype); cfg80211
	 * refuses reason 0, which here means the station left by itself and
	 * is told nothing. */
	if (reason != 0) {
		nla_put_u8(msg, NL80211_ATTR_MGMT_SUBTYPE, 12);
		nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
	}
	return msg;
}

struct nl_msg *
wifi_ap_msg_frame(WifiNl *nl, guint32 ifindex, GBytes *frame, gboolean want_status)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_FRAME, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame),
	        g_bytes_get_data(frame, NULL));
	if (!want_status)
		nla_put_flag(msg, NL80211_ATTR_DONT_WAIT_FOR_ACK);
	return msg;
}

struct nl_msg *
wifi_ap_msg_default_group_key(WifiNl *nl, guint32 ifindex, guint key_id)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_SET_KEY, 0);
	struct nlattr *types;

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put_u8(msg, NL80211_ATTR_KEY_IDX, (guint8)key_id);
	nla_put_flag(msg, NL80211_ATTR_KEY_DEFAULT);
	types = nla_nest_start(msg, NL80211_ATTR_KEY_DEFAULT_TYPES);
	nla_put_flag(msg, NL80211_KEY_DEFAULT_TYPE_MULTICAST);
	nla_nest_end(msg, types);
	return msg;
}

struct nl_msg *
wifi_ap_msg_isolate(WifiNl *nl, guint32 ifindex)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_SET_BSS, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put_u8(msg, NL80211_ATTR_AP_ISOLATE, 1);
	return msg;
}
