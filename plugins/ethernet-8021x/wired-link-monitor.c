/* wired-link-monitor.c - Ethernet links from rtnetlink's link messages. */
#include "wired-link-monitor.h"

#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>

#include "wired-rtnl.h"

struct _WiredLinkMonitor {
	WiredRtnl *rtnl;
	WiredLinkFunc func;
	gpointer user_data;
	GHashTable *known;  /* ifindex set: links we reported as Ethernet ports */
	GHashTable *listed; /* ifindex set of the links a resync dump listed, or NULL */
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

/* A NUL-terminated string attribute, or NULL. */
static const gchar *
attr_string(const struct rtattr *rta)
{
	const gchar *s = RTA_DATA(rta);
	gsize len = RTA_PAYLOAD(rta);

	return len > 0 && s[len - 1] == '\0' ? s : NULL;
}

/* IFLA_LINKINFO's IFLA_INFO_KIND, or NULL. */
static const gchar *
linkinfo_kind(const struct rtattr *info)
{
	gint len = RTA_PAYLOAD(info);

	for (const struct rtattr *rta = RTA_DATA(info); RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if (rta->rta_type == IFLA_INFO_KIND)
			return attr_string(rta);
	return NULL;
}

static void
format_address(const struct rtattr *rta, gchar *out, gsize size)
{
	const guint8 *a = RTA_DATA(rta);
	gsize len = RTA_PAYLOAD(rta);

	gchar *at = out;

	out[0] = '\0';
	/* "aa:bb:...": three characters a byte, and the NUL. */
	for (gsize i = 0; i < len && at + 4 <= out + size; i++)
		at += g_snprintf(at, 4, i == 0 ? "%02x" : ":%02x", a[i]);
}

gboolean
wired_link_parse(const struct nlmsghdr *msg, WiredLinkMessage *out)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(msg);
	gint len = (gint)msg->nlmsg_len - (gint)NLMSG_LENGTH(sizeof(*ifi));

	if ((msg->nlmsg_type != RTM_NEWLINK && msg->nlmsg_type != RTM_DELLINK) || len < 0)
		return FALSE;
	*out = (WiredLinkMessage){
	        .removed = msg->nlmsg_type == RTM_DELLINK,
	        .arptype = ifi->ifi_type,
	        .flags = ifi->ifi_flags,
	};
	out->link.ifindex = ifi->ifi_index;
	out->link.address = out->address;
	out->link.admin_up = (ifi->ifi_flags & IFF_UP) != 0;
	out->link.carrier = (ifi->ifi_flags & IFF_LOWER_UP) != 0;
	for (const struct rtattr *rta = IFLA_RTA(ifi); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == IFLA_IFNAME)
			out->link.name = attr_string(rta);
		else if (rta->rta_type == IFLA_ADDRESS)
			format_address(rta, out->address, sizeof(out->address));
		else if (rta->rta_type == IFLA_LINKINFO)
			out->kind = linkinfo_kind(rta);
	}
	return TRUE;
}

static gboolean
link_is_ethernet_port(const WiredLinkMessage *m)
{
	if (m->arptype != ARPHRD_ETHER || m->link.name == NULL)
		return FALSE;
	if ((m->flags & IFF_LOOPBACK) != 0)
		return FALSE;
	return link_kind_is_port(m->kind) && !link_is_wireless(m->link.name);
}

static void
monitor_link_gone(WiredLinkMonitor *self, const WiredLink *link)
{
	if (!g_hash_table_remove(self->known, GINT_TO_POINTER(link->ifindex)))
		return;
	self->func(WIRED_LINK_REMOVED, link, self->user_data);
}

static void
monitor_message(const struct nlmsghdr *msg, gpointer user_data)
{
	WiredLinkMonitor *self = user_data;
	WiredLinkMessage m;
	gboolean known;

	if (!wired_link_parse(msg, &m))
		return;
	if (m.removed) {
		monitor_link_gone(self, &m.link);
		return;
	}
	if (self->listed != NULL)
		g_hash_table_add(self->listed, GINT_TO_POINTER(m.link.ifindex));
	if (!link_is_ethernet_port(&m))
		return;
	known = g_hash_table_contains(self->known, GINT_TO_POINTER(m.link.ifindex));
	if (!known)
		g_hash_table_add(self->known, GINT_TO_POINTER(m.link.ifindex));
	self->func(known ? WIRED_LINK_CHANGED : WIRED_LINK_ADDED, &m.link, self->user_data);
}

/* Events were dropped: list the links again; a known one not listed went
 * away meanwhile. */
static void
monitor_resync(gpointer user_data)
{
	WiredLinkMonitor *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GList) known = NULL;

	g_info("link events were lost; listing the links again");
	self->listed = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (!wired_rtnl_dump_links(self->rtnl, &error)) {
		g_warning("%s", error->message);
		g_clear_pointer(&self->listed, g_hash_table_unref);
		return;
	}
	known = g_hash_table_get_keys(self->known);
	for (GList *l = known; l != NULL; l = l->next) {
		WiredLink gone = {.ifindex = GPOINTER_TO_INT(l->data), .address = ""};

		if (!g_hash_table_contains(self->listed, l->data))
			monitor_link_gone(self, &gone);
	}
	g_clear_pointer(&self->listed, g_hash_table_unref);
}

WiredLinkMonitor *
wired_link_monitor_new(WiredLinkFunc func, gpointer user_data, GError **error)
{
	g_autoptr(WiredLinkMonitor) self = g_new0(WiredLinkMonitor, 1);

	self->func = func;
	self->user_data = user_data;
	self->known = g_hash_table_new(g_direct_hash, g_direct_equal);
	self->rtnl = wired_rtnl_new(RTMGRP_LINK, monitor_message, monitor_resync, self, error);
	if (self->rtnl == NULL)
		return NULL;
	if (!wired_rtnl_dump_links(self->rtnl, error))
		return NULL;
	return g_steal_pointer(&self);
}

void
wired_link_monitor_free(WiredLinkMonitor *self)
{
	if (self == NULL)
		return;
	g_clear_pointer(&self->rtnl, wired_rtnl_free);
	g_clear_pointer(&self->known, g_hash_table_unref);
	g_free(self);
}
