/* mode-link.c - the link of an interface in access point or ad-hoc mode
 * (see mode-link.h). */
#include "mode-link.h"

#include <net/if.h>

#include "link.h"

void
wifi_mode_set_powered(JoindDevice *device, gboolean up)
{
	joind_device_set_powered(device, up);
	joind_device_set_state(device,
	                       up ? JOIND_DEVICE_STATE_NO_CARRIER : JOIND_DEVICE_STATE_DOWN);
}

void
wifi_mode_link_up(WifiIface *iface, JoindDevice *device, const gchar *blocked, const gchar *owner)
{
	g_autoptr(GError) error = NULL;

	if (blocked != NULL) {
		wifi_iface_info(iface, "the radio is blocked (%s): %s waits", blocked, owner);
		return;
	}
	if (iface->link != NULL && !wifi_link_set_up(iface->link, iface->name, &error)) {
		g_warning("%s", error->message);
		return;
	}
	wifi_mode_set_powered(device, TRUE);
}

/* The link as it is now. A "down" event may be the echo of the mode
 * switch's own link down, read after the link came up again: believed, it
 * would flap Powered (false, then true with the "up" echo). */
static gboolean
link_is_up(WifiIface *iface)
{
	guint flags = 0;

	return iface->link != NULL && wifi_link_get_flags(iface->link, iface->name, &flags, NULL) &&
	       (flags & IFF_UP) != 0;
}

gboolean
wifi_mode_link_changed(WifiIface *iface, JoindDevice *device, const gchar *name,
                       const gchar *address, guint flags)
{
	if (name != NULL) {
		wifi_iface_set_name(iface, name);
		joind_device_set_name(device, name);
	}
	if (address != NULL)
		joind_device_set_address(device, address);
	if ((flags & IFF_UP) == 0 && joind_device_get_powered(device) && !link_is_up(iface)) {
		wifi_mode_set_powered(device, FALSE);
		return TRUE;
	}
	if ((flags & IFF_UP) != 0)
		wifi_mode_set_powered(device, TRUE);
	return FALSE;
}
