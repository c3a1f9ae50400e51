/* ibss-cmds.h - the nl80211 commands of an interface in ad-hoc (IBSS)
 * mode: JOIN_IBSS and LEAVE_IBSS. */
#pragma once

#include <glib.h>

#include "nl80211.h"

G_BEGIN_DECLS

typedef struct {
	const guint8 *ssid;
	gsize ssid_len;
	guint32 freq; /* MHz, 20 MHz without HT */
	/* RSN IBSS: our RSNE in the beacons and the peers' ports closed until
	 * their handshakes are done (EAPOL over this socket, which owns the
	 * IBSS); NULL: open. */
	const guint8 *rsne;
	gsize rsne_len;
} WifiIbssJoin;

struct nl_msg *wifi_ibss_msg_join(WifiNl *nl, guint32 ifindex, const WifiIbssJoin *join);
struct nl_msg *wifi_ibss_msg_leave(WifiNl *nl, guint32 ifindex);

G_END_DECLS
