/* frame.h - management frames a station sends and receives itself over
 * nl80211: REGISTER_FRAME asks the kernel to pass up the frames that
 * start with a pattern (they come to the registering socket as FRAME
 * events, for the interface's life), FRAME sends one (an Action frame to
 * the access point, built in ieee80211/). */
#pragma once

#include "nl80211.h"

G_BEGIN_DECLS

/* IEEE 802.11 frame control of an Action frame (type 0, subtype 13), as
 * NL80211_ATTR_FRAME_TYPE takes it. */
#define WIFI_FRAME_TYPE_ACTION 0x00d0

/* Registers for the frames of type on interface ifindex whose body starts
 * with match (for an Action frame: its category and action). done hears
 * the answer; -EALREADY means an earlier registration on this socket
 * stands. Returns the request (wifi_nl_cancel()). */
guint wifi_frame_register(WifiNl *nl, guint32 ifindex, guint16 type, const guint8 *match,
                          gsize match_len, WifiNlDoneFunc done, gpointer user_data);
/* Sends frame (whole, MAC header first) on interface ifindex's channel. */
guint wifi_frame_send(WifiNl *nl, guint32 ifindex, GBytes *frame, WifiNlDoneFunc done,
                      gpointer user_data);
/* The frame of a FRAME event (borrowed from attrs), or NULL. */
const guint8 *wifi_frame_from_event(struct nlattr **attrs, gsize *len);

G_END_DECLS
