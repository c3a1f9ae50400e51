/* ap-mode.c - the access point as the owner of an interface in AP mode
 * (see ap-mode.h). */
#include "ap-mode.h"

#include <linux/nl80211.h>
#include <net/if.h>

#include "ap-object.h"
#include "joind-mac.h"
#include "link.h"

typedef struct {
	WifiIface *iface;
	JoindDevice *device;
	WifiAccessPoint *access_point;
	WifiAp *ap; /* the access point's */
} ApOwner;

/* The device is powered while its link is up: an access point must be up
 * to beacon, and its clients' traffic flows only then. */
static void
ap_set_powered(ApOwner *o, gboolean up)
{
	joind_device_set_powered(o->device, up);
	joind_device_set_state(o->device,
	                       up ? JOIND_DEVICE_STATE_NO_CARRIER : JOIND_DEVICE_STATE_DOWN);
}

/* Up, as the station would be: joind never deletes or recreates the
 * interface, it only sets it up. */
static void
ap_link_up(ApOwner *o, const gchar *blocked)
{
	g_autoptr(GError) error = NULL;

	if (blocked != NULL) {
		wifi_iface_info(o->iface, "the radio is blocked (%s): the access point waits",
		                blocked);
		return;
	}
	if (o->iface->link != NULL && !wifi_link_set_up(o->iface->link, o->iface->name, &error)) {
		g_warning("%s", error->message);
		return;
	}
	ap_set_powered(o, TRUE);
}

static gpointer
ap_take(const WifiModeSetup *setup, GError **error)
{
	guint8 address[JOIND_MAC_LEN];
	ApOwner *o;

	if (setup->address == NULL || !joind_mac_parse(setup->address, address)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		            "an access point needs the interface's address");
		return NULL;
	}
	o = g_new0(ApOwner, 1);
	o->iface = wifi_iface_ref(setup->iface);
	o->device = g_object_ref(setup->device);
	o->access_point = wifi_access_point_new(setup->core, setup->iface, address);
	o->ap = wifi_access_point_get_ap(o->access_point);
	wifi_iface_info(setup->iface, "in access point mode");
	/* AccessPoint1 is there before the device says it is powered: a
	 * client that waits for Powered (NetworkManager) finds it. */
	joind_device_attach_access_point(o->device, JOIND_ACCESS_POINT(o->access_point));
	ap_link_up(o, setup->blocked);
	return o;
}

static void
ap_release(gpointer owner)
{
	ApOwner *o = owner;

	wifi_access_point_shutdown(o->access_point, "the interface left access point mode");
	joind_device_attach_access_point(o->device, NULL);
	g_object_unref(o->access_point);
	g_object_unref(o->device);
	wifi_iface_unref(o->iface);
	g_free(o);
}

static void
ap_handle_event(gpointer owner, guint8 cmd, struct nlattr **attrs)
{
	wifi_ap_handle_event(((ApOwner *)owner)->ap, cmd, attrs);
}

/* The link as it is now. A "down" event may be the echo of the mode
 * switch's own link down, read after the link came up again: believing it
 * would flap Powered (false, then true with the "up" echo), and
 * NetworkManager, seeing AccessPoint come back outside its own mode
 * switch, would set the device back to station mode. */
static gboolean
ap_link_is_up(ApOwner *o)
{
	guint flags = 0;

	return o->iface->link != NULL &&
	       wifi_link_get_flags(o->iface->link, o->iface->name, &flags, NULL) &&
	       (flags & IFF_UP) != 0;
}

static void
ap_link_changed(gpointer owner, const gchar *name, const gchar *address, guint flags)
{
	ApOwner *o = owner;

	if (name != NULL) {
		wifi_iface_set_name(o->iface, name);
		joind_device_set_name(o->device, name);
	}
	if (address != NULL)
		joind_device_set_address(o->device, address);
	if ((flags & IFF_UP) == 0 && joind_device_get_powered(o->device) && !ap_link_is_up(o)) {
		ap_set_powered(o, FALSE);
		wifi_ap_stop(o->ap, "the link went down");
	} else if ((flags & IFF_UP) != 0) {
		ap_set_powered(o, TRUE);
	}
}

static void
ap_resync(gpointer owner)
{
	ApOwner *o = owner;

	/* Frames and EAPOL were lost with the events: the stations' handshakes
	 * retransmit, and a station whose association was lost asks again. */
	wifi_iface_info(o->iface, "access point: nl80211 events were lost");
}

static void
ap_set_blocked(gpointer owner, gboolean blocked, const gchar *reason)
{
	ApOwner *o = owner;
	g_autofree gchar *why = NULL;

	if (!blocked) {
		ap_link_up(o, NULL);
		return;
	}
	why = g_strdup_printf("the radio is blocked: %s", reason);
	ap_set_powered(o, FALSE);
	wifi_ap_stop(o->ap, why);
}

static void
ap_resumed(gpointer owner)
{
	(void)owner;
}

const WifiModeOps wifi_ap_mode_ops = {
        .name = "access point",
        .iftype = NL80211_IFTYPE_AP,
        .take = ap_take,
        .release = ap_release,
        .handle_event = ap_handle_event,
        .link_changed = ap_link_changed,
        .resync = ap_resync,
        .set_blocked = ap_set_blocked,
        .resumed = ap_resumed,
};
