/* adhoc-mode.c - the ad-hoc network as the owner of an interface in IBSS
 * mode (see adhoc-mode.h). */
#include "adhoc-mode.h"

#include <linux/nl80211.h>

#include "adhoc-object.h"
#include "joind-mac.h"
#include "mode-link.h"

typedef struct {
	WifiIface *iface;
	JoindDevice *device;
	WifiAdhocObject *object;
	WifiAdhoc *adhoc; /* the object's */
} AdhocOwner;

static gpointer
adhoc_take(const WifiModeSetup *setup, GError **error)
{
	guint8 address[JOIND_MAC_LEN];
	AdhocOwner *o;

	if (setup->address == NULL || !joind_mac_parse(setup->address, address)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		            "an ad-hoc network needs the interface's address");
		return NULL;
	}
	o = g_new0(AdhocOwner, 1);
	o->iface = wifi_iface_ref(setup->iface);
	o->device = g_object_ref(setup->device);
	o->object = wifi_adhoc_object_new(setup->iface, address);
	o->adhoc = wifi_adhoc_object_get_adhoc(o->object);
	wifi_iface_info(setup->iface, "in ad-hoc mode");
	/* AdHoc1 is there before the device says it is powered, as
	 * AccessPoint1 is. */
	joind_device_attach_adhoc(o->device, JOIND_ADHOC(o->object));
	wifi_mode_link_up(o->iface, o->device, setup->blocked, "the ad-hoc network");
	return o;
}

static void
adhoc_release(gpointer owner)
{
	AdhocOwner *o = owner;

	wifi_adhoc_object_shutdown(o->object, "the interface left ad-hoc mode");
	joind_device_attach_adhoc(o->device, NULL);
	g_object_unref(o->object);
	g_object_unref(o->device);
	wifi_iface_unref(o->iface);
	g_free(o);
}

static void
adhoc_handle_event(gpointer owner, guint8 cmd, struct nlattr **attrs)
{
	wifi_adhoc_handle_event(((AdhocOwner *)owner)->adhoc, cmd, attrs);
}

static void
adhoc_link_changed(gpointer owner, const gchar *name, const gchar *address, guint flags)
{
	AdhocOwner *o = owner;

	if (wifi_mode_link_changed(o->iface, o->device, name, address, flags))
		wifi_adhoc_stop(o->adhoc, "the link went down");
}

static void
adhoc_resync(gpointer owner)
{
	AdhocOwner *o = owner;

	/* A peer the kernel added meanwhile starts its handshakes with its
	 * first EAPOL frame; our authenticators retransmit. */
	wifi_iface_info(o->iface, "ad-hoc: nl80211 events were lost");
}

static void
adhoc_set_blocked(gpointer owner, gboolean blocked, const gchar *reason)
{
	AdhocOwner *o = owner;
	g_autofree gchar *why = NULL;

	if (!blocked) {
		wifi_mode_link_up(o->iface, o->device, NULL, "the ad-hoc network");
		return;
	}
	why = g_strdup_printf("the radio is blocked: %s", reason);
	wifi_mode_set_powered(o->device, FALSE);
	wifi_adhoc_stop(o->adhoc, why);
}

static void
adhoc_resumed(gpointer owner)
{
	(void)owner;
}

const WifiModeOps wifi_adhoc_mode_ops = {
        .name = "ad-hoc",
        .iftype = NL80211_IFTYPE_ADHOC,
        .take = adhoc_take,
        .release = adhoc_release,
        .handle_event = adhoc_handle_event,
        .link_changed = adhoc_link_changed,
        .resync = adhoc_resync,
        .set_blocked = adhoc_set_blocked,
        .resumed = adhoc_resumed,
};
