/* ap-cmds.h - the nl80211 commands of an interface in access point mode:
 * START_AP and STOP_AP, the stations
 * the access point admits (NEW_STATION, SET_STATION, DEL_STATION), the
 * management frames it answers itself (REGISTER_FRAME, FRAME) and its
 * group key as the default transmit key (SET_KEY). Each builds one message
 * for wifi_nl_send(); what the kernel answers is the caller's.
 */
#pragma once

#include <glib.h>

#include "nl80211.h"

G_BEGIN_DECLS

/* What START_AP is given. The beacon's head and tail are ap-ies.h's;
 * ciphers are suite selectors (wifi_cipher_suite_selector()). */
typedef struct {
	GBytes *beacon_head, *beacon_tail;
	const guint8 *ssid;
	gsize ssid_len;
	gboolean hidden;
	guint32 freq;          /* MHz, 20 MHz without HT */
	guint beacon_interval; /* TUs */
	guint dtim_period;
	gboolean privacy;        /* RSN */
	guint32 pairwise_cipher; /* 0: open */
	guint32 group_cipher;
	guint32 akms[2]; /* suite selectors: PSK, SAE or both */
	guint n_akms;
	guint inactivity_timeout;      /* seconds, 0: the driver's */
	gboolean control_port_nl80211; /* EAPOL over this socket (owner) */
} WifiApStart;

struct nl_msg *wifi_ap_msg_start(WifiNl *nl, guint32 ifindex, const WifiApStart *start);
struct nl_msg *wifi_ap_msg_stop(WifiNl *nl, guint32 ifindex);
/* A station that associated: authenticated and associated, its port
 * closed until wifi_ap_msg_authorize(); mfp when it negotiated it. */
struct nl_msg *wifi_ap_msg_new_station(WifiNl *nl, guint32 ifindex, const guint8 mac[6],
                                       guint16 aid, guint16 listen_interval, guint16 capabilities,
                                       const guint8 *rates, gsize n_rates, gboolean mfp);
/* Ends a station's association: the kernel sends a deauthentication with
 * this reason (0: none is sent, the station left by itself). */
struct nl_msg *wifi_ap_msg_del_station(WifiNl *nl, guint32 ifindex, const guint8 mac[6],
                                       guint16 reason);
/* Transmits a whole management frame; with want_status the reply names a
 * cookie (NL80211_ATTR_COOKIE) and a FRAME_TX_STATUS event with it says
 * whether the peer acknowledged the frame. */
struct nl_msg *wifi_ap_msg_frame(WifiNl *nl, guint32 ifindex, GBytes *frame, gboolean want_status);
/* The group key with this ID becomes the default multicast transmit key. */
struct nl_msg *wifi_ap_msg_default_group_key(WifiNl *nl, guint32 ifindex, guint key_id);

/* Client isolation: the kernel does not forward frames between the
 * access point's stations (SET_BSS with AP_ISOLATE). */
struct nl_msg *wifi_ap_msg_isolate(WifiNl *nl, guint32 ifindex);

G_END_DECLS
