/* iface.c - the shared context of one station interface (see iface.h). */
#include "iface.h"

#include "address.h"

#include <netlink/attr.h>

WifiIface *
wifi_iface_new(WifiNl *nl, WifiLink *link, WifiWiphy *wiphy, guint32 ifindex, const gchar *name)
{
	WifiIface *self = g_new0(WifiIface, 1);

	self->refcount = 1;
	self->nl = nl;
	self->link = link;
	self->wiphy = wifi_wiphy_ref(wiphy);
	self->ifindex = ifindex;
	self->name = g_strdup(name);
	return self;
}

WifiIface *
wifi_iface_ref(WifiIface *self)
{
	g_atomic_int_inc(&self->refcount);
	return self;
}

void
wifi_iface_unref(WifiIface *self)
{
	if (self == NULL || !g_atomic_int_dec_and_test(&self->refcount))
		return;
	wifi_wiphy_unref(self->wiphy);
	wifi_address_free(self->address);
	g_free(self->name);
	g_free(self);
}

void
wifi_iface_set_name(WifiIface *self, const gchar *name)
{
	g_free(self->name);
	self->name = g_strdup(name);
}

typedef struct {
	WifiIfaceLinkFunc func;
	gpointer user_data;
	gboolean associated;
} LinkQuery;

static void
link_query_reply(struct nlattr **attrs, gpointer user_data)
{
	LinkQuery *query = user_data;

	/* cfg80211 lists a station's SSID while it is associated. */
	query->associated = attrs[NL80211_ATTR_SSID] != NULL;
}

static void
link_query_done(int error, gpointer user_data)
{
	LinkQuery *query = user_data;

	query->func(error, query->associated, query->user_data);
}

guint
wifi_iface_query_associated(WifiIface *self, WifiIfaceLinkFunc func, gpointer user_data)
{
	struct nl_msg *msg = wifi_nl_msg_new(self->nl, NL80211_CMD_GET_INTERFACE, 0);
	LinkQuery *query = g_new0(LinkQuery, 1);

	query->func = func;
	query->user_data = user_data;
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->ifindex);
	return wifi_nl_send(self->nl, msg, link_query_reply, link_query_done, query, g_free);
}
