/* sta-caps.h - what every (re)association request of the station says
 * it can do beside its security: Extended Capabilities with BSS
 * Transition (joind answers 802.11v BSS transition requests), and, where
 * the radio takes part in radio measurement (NL80211_ATTR_USE_RRM) and
 * the access point offers it, the RM Enabled Capabilities element with
 * neighbour reports (802.11k). Access points send BSS transition
 * requests, and answer neighbour report requests, only to stations that
 * advertise them.
 */
#pragma once

#include "bss.h"
#include "wiphy.h"

G_BEGIN_DECLS

typedef struct {
	/* Whole elements (ID, length, body), each 0 long when not sent. They
	 * go in this order, RM before Extended Capabilities, as IEEE 802.11
	 * orders an association request's elements. */
	guint8 rm[2 + 5];
	gsize rm_len;
	guint8 ext[2 + 16];
	gsize ext_len;
	gboolean use_rrm; /* NL80211_ATTR_USE_RRM */
} WifiStaCaps;

/* The elements for an association to bss on this radio (wiphy may be
 * NULL: only BSS Transition then). Extended Capabilities are the radio's
 * own (NL80211_ATTR_EXT_CAPA) with BSS Transition added. */
void wifi_sta_caps_plan(const WifiWiphy *wiphy, const WifiBss *bss, WifiStaCaps *caps);

G_END_DECLS
