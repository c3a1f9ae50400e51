/* frame.c - registering, sending and receiving management frames (see
 * frame.h). */
#include "frame.h"

#include <netlink/attr.h>

struct nl_msg *
wifi_frame_msg_register(WifiNl *nl, guint32 ifindex, guint16 type, const guint8 *match,
                        gsize match_len)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_REGISTER_FRAME, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put_u16(msg, NL80211_ATTR_FRAME_TYPE, type);
	nla_put(msg, NL80211_ATTR_FRAME_MATCH, (int)match_len, match);
	return msg;
}

guint
wifi_frame_register(WifiNl *nl, guint32 ifindex, guint16 type, const guint8 *match, gsize match_len,
                    WifiNlDoneFunc done, gpointer user_data)
{
	return wifi_nl_send(nl, wifi_frame_msg_register(nl, ifindex, type, match, match_len), NULL,
	                    done, user_data, NULL);
}

guint
wifi_frame_send(WifiNl *nl, guint32 ifindex, GBytes *frame, WifiNlDoneFunc done, gpointer user_data)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_FRAME, 0);
	gsize len;
	const guint8 *data = g_bytes_get_data(frame, &len);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_FRAME, (int)len, data);
	/* The kernel's cookie and TX status are of no use here: the answer
	 * (or its absence) is what the sender waits for. */
	nla_put_flag(msg, NL80211_ATTR_DONT_WAIT_FOR_ACK);
	return wifi_nl_send(nl, msg, NULL, done, user_data, NULL);
}

const guint8 *
wifi_frame_from_event(struct nlattr **attrs, gsize *len)
{
	if (attrs[NL80211_ATTR_FRAME] == NULL)
		return NULL;
	*len = (gsize)nla_len(attrs[NL80211_ATTR_FRAME]);
	return nla_data(attrs[NL80211_ATTR_FRAME]);
}
