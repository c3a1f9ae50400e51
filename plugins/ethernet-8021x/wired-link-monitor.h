/* wired-link-monitor.h - Ethernet links as rtnetlink reports them.
 *
 * One rtnetlink socket in the link group on the main loop: a dump of the
 * existing links at start, then an event per link that appears, changes or
 * goes (and a new dump when the kernel dropped events). Only Ethernet ports
 * are reported (physical NICs and veth); loopback, wireless, bridges,
 * bonds, VLANs, tunnels and the like are not 802.1X ports and are left out.
 */
#pragma once

#include <glib.h>
#include <linux/netlink.h>

G_BEGIN_DECLS

typedef struct {
	gint ifindex;
	const gchar *name;
	const gchar *address; /* "aa:bb:cc:dd:ee:ff" */
	gboolean admin_up;    /* IFF_UP */
	gboolean carrier;     /* IFF_LOWER_UP */
} WiredLink;

/* One RTM_NEWLINK or RTM_DELLINK, parsed; strings point into the message
 * (the address into this struct). */
typedef struct {
	WiredLink link;
	gboolean removed;  /* RTM_DELLINK */
	guint16 arptype;   /* ARPHRD_* */
	guint flags;       /* IFF_* */
	const gchar *kind; /* IFLA_INFO_KIND ("veth"), NULL for a physical NIC */
	gchar address[64];
} WiredLinkMessage;

/* FALSE when msg is not a link message or is cut short. */
gboolean wired_link_parse(const struct nlmsghdr *msg, WiredLinkMessage *out);

typedef enum {
	WIRED_LINK_ADDED,
	WIRED_LINK_CHANGED,
	WIRED_LINK_REMOVED, /* link's name and address may be NULL */
} WiredLinkEvent;

typedef void (*WiredLinkFunc)(WiredLinkEvent event, const WiredLink *link, gpointer user_data);

typedef struct _WiredLinkMonitor WiredLinkMonitor;

/* Reports every existing Ethernet link as WIRED_LINK_ADDED before it
 * returns, then events as they come. */
WiredLinkMonitor *wired_link_monitor_new(WiredLinkFunc func, gpointer user_data, GError **error);
void wired_link_monitor_free(WiredLinkMonitor *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WiredLinkMonitor, wired_link_monitor_free)

G_END_DECLS
