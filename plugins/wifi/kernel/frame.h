/* frame.h - management frames a station sends and receives itself over
 * nl80211: REGISTER_FRAME asks the kernel to pass up the frames that
 * start with a pattern (they come to the registering socket as FRAME
 * events, for the interface's life), FRAME sends one (an Action frame to
 * the access point, built in ieee80211/). */
#pragma once

#include <errno.h>

#include "nl80211.h"

G_BEGIN_DECLS

/* IEEE 802.11 frame control of an Action frame (type 0, subtype 13), as
 * NL80211_ATTR_FRAME_TYPE takes it. */
#define WIFI_FRAME_TYPE_ACTION 0x00d0

/* The REGISTER_FRAME request for the frames of type on interface ifindex
 * whose body starts with match (match_len 0: every frame of the type). */
struct nl_msg *wifi_frame_msg_register(WifiNl *nl, guint32 ifindex, guint16 type,
                                       const guint8 *match, gsize match_len);
/* Sends wifi_frame_msg_register()'s request; done hears the answer, to be
 * read through wifi_frame_register_status(). Returns the request
 * (wifi_nl_cancel()). */
guint wifi_frame_register(WifiNl *nl, guint32 ifindex, guint16 type, const guint8 *match,
                          gsize match_len, WifiNlDoneFunc done, gpointer user_data);
/* The outcome of a registration's answer: the kernel keeps a socket's
 * registrations until the interface changes type and answers a second
 * one -EALREADY, which is success (a later link, roam or BSS). */
static inline int
wifi_frame_register_status(int error)
{
	return error == -EALREADY ? 0 : error;
}
/* Sends frame (whole, MAC header first) on interface ifindex's channel. */
guint wifi_frame_send(WifiNl *nl, guint32 ifindex, GBytes *frame, WifiNlDoneFunc done,
                      gpointer user_data);
/* The frame of a FRAME event (borrowed from attrs), or NULL. */
const guint8 *wifi_frame_from_event(struct nlattr **attrs, gsize *len);

G_END_DECLS
