/* adhoc-mode.c - the ad-hoc network as the owner of an interface in IBSS
 * mode (see adhoc-mode.h): hosted-mode.c's owner, holding a
 * WifiAdhocObject. */
#include "adhoc-mode.h"

#include <linux/nl80211.h>

#include "adhoc-object.h"
#include "hosted-mode.h"

static gpointer
adhoc_model_new(const WifiModeSetup *setup, const guint8 address[6])
{
	return wifi_adhoc_object_new(setup->iface, address);
}

static void
adhoc_attach(JoindDevice *device, gpointer model)
{
	joind_device_attach_adhoc(device, model);
}

static void
adhoc_shutdown(gpointer model, const gchar *reason)
{
	wifi_adhoc_object_shutdown(model, reason);
}

static void
adhoc_stop(gpointer model, const gchar *reason)
{
	wifi_adhoc_stop(wifi_adhoc_object_get_adhoc(model), reason);
}

static void
adhoc_handle_event(gpointer model, guint8 cmd, struct nlattr **attrs)
{
	wifi_adhoc_handle_event(wifi_adhoc_object_get_adhoc(model), cmd, attrs);
}

static const WifiHostedModeKind adhoc_kind = {
        .mode = "ad-hoc",
        .a_network = "an ad-hoc network",
        .the_network = "the ad-hoc network",
        .model_new = adhoc_model_new,
        .attach = adhoc_attach,
        .shutdown = adhoc_shutdown,
        .stop = adhoc_stop,
        .handle_event = adhoc_handle_event,
};

const WifiModeOps wifi_adhoc_mode_ops = {
        .name = "ad-hoc",
        .iftype = NL80211_IFTYPE_ADHOC,
        .calls = &wifi_hosted_mode_calls,
        .data = &adhoc_kind,
};
