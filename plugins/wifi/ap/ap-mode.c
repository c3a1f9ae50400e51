/* ap-mode.c - the access point as the owner of an interface in AP mode
 * (see ap-mode.h): hosted-mode.c's owner, holding a WifiAccessPoint. */
#include "ap-mode.h"

#include <linux/nl80211.h>

#include "ap-object.h"
#include "hosted-mode.h"

static gpointer
ap_model_new(const WifiModeSetup *setup, const guint8 address[6])
{
	return wifi_access_point_new(setup->core, setup->iface, address);
}

static void
ap_attach(JoindDevice *device, gpointer model)
{
	joind_device_attach_access_point(device, model);
}

static void
ap_shutdown(gpointer model, const gchar *reason)
{
	wifi_access_point_shutdown(model, reason);
}

static void
ap_stop(gpointer model, const gchar *reason)
{
	wifi_ap_stop(wifi_access_point_get_ap(model), reason);
}

static void
ap_handle_event(gpointer model, guint8 cmd, struct nlattr **attrs)
{
	wifi_ap_handle_event(wifi_access_point_get_ap(model), cmd, attrs);
}

static const WifiHostedModeKind ap_kind = {
        .mode = "access point",
        .a_network = "an access point",
        .the_network = "the access point",
        .model_new = ap_model_new,
        .attach = ap_attach,
        .shutdown = ap_shutdown,
        .stop = ap_stop,
        .handle_event = ap_handle_event,
};

const WifiModeOps wifi_ap_mode_ops = {
        .name = "access point",
        .iftype = NL80211_IFTYPE_AP,
        .calls = &wifi_hosted_mode_calls,
        .data = &ap_kind,
};
