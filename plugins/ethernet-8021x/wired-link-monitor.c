/* wired-link-monitor.c - rtnetlink link events through libnl-route. */
#include "wired-link-monitor.h"

#include <glib-unix.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <netlink/cache.h>
#include <netlink/route/link.h>

#include "joind-error.h"

struct _WiredLinkMonitor {
	struct nl_cache_mngr *mngr;
	struct nl_cache *links;
	guint watch_id;
	WiredLinkFunc func;
	gpointer user_data;
	GHashTable *known; /* ifindex set: links we reported as Ethernet ports */
};

/* Link kinds that are Ethernet ports an authenticator can sit behind. A
 * physical NIC has no kind; veth is what the tests use. */
static gboolean
link_kind_is_port(const gchar *kind)
{
	return kind == NULL || g_str_equal(kind, "veth");
}

/* Wireless interfaces are ARPHRD_ETHER too; sysfs tells them apart. The
 * wifi plugin owns them. */
static gboolean
link_is_wireless(const gchar *name)
{
	g_autofree gchar *phy = g_build_filename("/sys/class/net", name, "phy80211", NULL);
	g_autofree gchar *wext = g_build_filename("/sys/class/net", name, "wireless", NULL);

	return g_file_test(phy, G_FILE_TEST_EXISTS) || g_file_test(wext, G_FILE_TEST_EXISTS);
}

static gboolean
link_is_ethernet_port(struct rtnl_link *link)
{
	const gchar *name = rtnl_link_get_name(link);

	if (rtnl_link_get_arptype(link) != ARPHRD_ETHER || name == NULL)
		return FALSE;
	if ((rtnl_link_get_flags(link) & IFF_LOOPBACK) != 0)
		return FALSE;
	return link_kind_is_port(rtnl_link_get_type(link)) && !link_is_wireless(name);
}

static void
monitor_report(WiredLinkMonitor *self, WiredLinkEvent event, struct rtnl_link *link)
{
	struct nl_addr *lladdr = rtnl_link_get_addr(link);
	gchar addr[64] = "";
	guint flags = rtnl_link_get_flags(link);
	WiredLink info = {
	        .ifindex = rtnl_link_get_ifindex(link),
	        .name = rtnl_link_get_name(link),
	        .address = addr,
	        .admin_up = (flags & IFF_UP) != 0,
	        .carrier = (flags & IFF_LOWER_UP) != 0,
	};

	if (lladdr != NULL)
		nl_addr2str(lladdr, addr, sizeof(addr));
	self->func(event, &info, self->user_data);
}

static void
monitor_link_event(WiredLinkMonitor *self, struct rtnl_link *link, int action)
{
	gint ifindex = rtnl_link_get_ifindex(link);
	gboolean known = g_hash_table_contains(self->known, GINT_TO_POINTER(ifindex));

	if (action == NL_ACT_DEL) {
		if (known) {
			monitor_report(self, WIRED_LINK_REMOVED, link);
			g_hash_table_remove(self->known, GINT_TO_POINTER(ifindex));
		}
		return;
	}
	if (!link_is_ethernet_port(link))
		return;
	if (!known) {
		g_hash_table_add(self->known, GINT_TO_POINTER(ifindex));
		monitor_report(self, WIRED_LINK_ADDED, link);
		return;
	}
	monitor_report(self, WIRED_LINK_CHANGED, link);
}

static void
monitor_cache_change(struct nl_cache *cache, struct nl_object *obj, int action, void *data)
{
	monitor_link_event(data, (struct rtnl_link *)obj, action);
}

static void
monitor_cold_plug(struct nl_object *obj, void *data)
{
	monitor_link_event(data, (struct rtnl_link *)obj, NL_ACT_NEW);
}

static gboolean
monitor_readable(gint fd, GIOCondition cond, gpointer user_data)
{
	WiredLinkMonitor *self = user_data;
	int err = nl_cache_mngr_data_ready(self->mngr);

	if (err < 0)
		g_warning("reading link events failed: %s", nl_geterror(err));
	return G_SOURCE_CONTINUE;
}

WiredLinkMonitor *
wired_link_monitor_new(WiredLinkFunc func, gpointer user_data, GError **error)
{
	g_autoptr(WiredLinkMonitor) self = g_new0(WiredLinkMonitor, 1);
	int err;

	self->func = func;
	self->user_data = user_data;
	self->known = g_hash_table_new(g_direct_hash, g_direct_equal);
	err = nl_cache_mngr_alloc(NULL, NETLINK_ROUTE, NL_AUTO_PROVIDE, &self->mngr);
	if (err < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot open an rtnetlink socket: %s", nl_geterror(err));
		return NULL;
	}
	err = nl_cache_mngr_add(self->mngr, "route/link", monitor_cache_change, self, &self->links);
	if (err < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot watch network links: %s", nl_geterror(err));
		return NULL;
	}
	nl_cache_foreach(self->links, monitor_cold_plug, self);
	self->watch_id =
	        g_unix_fd_add(nl_cache_mngr_get_fd(self->mngr), G_IO_IN, monitor_readable, self);
	return g_steal_pointer(&self);
}

void
wired_link_monitor_free(WiredLinkMonitor *self)
{
	if (self == NULL)
		return;
	if (self->watch_id != 0)
		g_source_remove(self->watch_id);
	/* The manager frees the caches it provided. */
	if (self->mngr != NULL)
		nl_cache_mngr_free(self->mngr);
	g_clear_pointer(&self->known, g_hash_table_unref);
	g_free(self);
}
