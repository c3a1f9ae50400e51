/* iface.c - the shared context of one station interface (see iface.h). */
#include "iface.h"

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
	self->pmksa = wifi_pmksa_cache_new();
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
	wifi_pmksa_cache_free(self->pmksa);
	g_free(self->name);
	g_free(self);
}

void
wifi_iface_set_name(WifiIface *self, const gchar *name)
{
	g_free(self->name);
	self->name = g_strdup(name);
}
