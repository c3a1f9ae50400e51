/* iface.h - what every room of one station interface shares: its index,
 * its name (which follows renames), its radio, and the nl80211 and
 * rtnetlink handles to reach them.
 *
 * One WifiIface per station interface, made by the manager; the station,
 * scanner, connector, SME and autoconnect hold a reference each and read
 * the name from it, so a rename reaches every log line at once.
 */
#pragma once

#include "joind-log.h"
#include "link.h"
#include "nl80211.h"
#include "wiphy.h"

G_BEGIN_DECLS

typedef struct _WifiAddress WifiAddress; /* address.h */

typedef struct {
	gint refcount;
	guint32 ifindex;
	gchar *name;
	WifiWiphy *wiphy;
	WifiNl *nl; /* borrowed: the manager's, outlives every interface */
	/* Borrowed likewise. The station needs it (tests give a fake-link);
	 * the scanner does not use it, the connector does without (NULL). */
	WifiLink *link;
	/* Which MAC address the interface shows (address.h); NULL: the
	 * kernel's, untouched (tests). */
	WifiAddress *address;
	/* The connector's: cfg80211 holds an association (scans then keep
	 * the interface's address). */
	gboolean associated;
} WifiIface;

WifiIface *wifi_iface_new(WifiNl *nl, WifiLink *link, WifiWiphy *wiphy, guint32 ifindex,
                          const gchar *name);
WifiIface *wifi_iface_ref(WifiIface *self);
void wifi_iface_unref(WifiIface *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiIface, wifi_iface_unref)

void wifi_iface_set_name(WifiIface *self, const gchar *name);

/* The name a log line gives; a function, so that the macros below take
 * only a WifiIface (a link's or a radio's name goes to joind_dev_*()). */
static inline const gchar *
wifi_iface_log_name(const WifiIface *iface)
{
	return iface->name;
}

/* Log lines about the interface: "wlan0: ..." with JOIND_DEVICE=wlan0, the
 * name read at the moment of logging so that a rename is followed. */
#define wifi_iface_debug(iface, ...)   joind_dev_debug(wifi_iface_log_name(iface), __VA_ARGS__)
#define wifi_iface_info(iface, ...)    joind_dev_info(wifi_iface_log_name(iface), __VA_ARGS__)
#define wifi_iface_message(iface, ...) joind_dev_message(wifi_iface_log_name(iface), __VA_ARGS__)
#define wifi_iface_warning(iface, ...) joind_dev_warning(wifi_iface_log_name(iface), __VA_ARGS__)

/* error: 0 or the kernel's -errno; associated: cfg80211 lists an SSID. */
typedef void (*WifiIfaceLinkFunc)(int error, gboolean associated, gpointer user_data);
/* Asks the kernel (GET_INTERFACE) whether the interface is associated,
 * after events may have been lost; the request, for wifi_nl_cancel(). */
guint wifi_iface_query_associated(WifiIface *self, WifiIfaceLinkFunc func, gpointer user_data);

G_END_DECLS
