/* iface.h - what every room of one station interface shares: its index,
 * its name (which follows renames), its radio, and the nl80211 and
 * rtnetlink handles to reach them.
 *
 * One WifiIface per station interface, made by the manager; the station,
 * scanner, connector, SME and autoconnect hold a reference each and read
 * the name from it, so a rename reaches every log line at once.
 */
#pragma once

#include "link.h"
#include "nl80211.h"
#include "pmksa.h"
#include "wiphy.h"

G_BEGIN_DECLS

typedef struct {
	gint refcount;
	guint32 ifindex;
	gchar *name;
	WifiWiphy *wiphy;
	WifiNl *nl; /* borrowed: the manager's, outlives every interface */
	/* Borrowed likewise. The station needs it (tests give a fake-link);
	 * the scanner does not use it, the connector does without (NULL). */
	WifiLink *link;
	/* What full 802.1X authentications on this interface left, for the
	 * reconnections that skip EAP (in memory only). */
	WifiPmksaCache *pmksa;
} WifiIface;

WifiIface *wifi_iface_new(WifiNl *nl, WifiLink *link, WifiWiphy *wiphy, guint32 ifindex,
                          const gchar *name);
WifiIface *wifi_iface_ref(WifiIface *self);
void wifi_iface_unref(WifiIface *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiIface, wifi_iface_unref)

void wifi_iface_set_name(WifiIface *self, const gchar *name);

G_END_DECLS
