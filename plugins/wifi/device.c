/* device.c - WiFi devices: a JoindDevice whose diagnostics come from its
 * station (BSSes, networks, scanning). */
#include "device.h"

struct _WifiDevice {
	JoindDevice parent_instance;
	WifiDeviceDiagnosticsFunc diagnostics;
	gpointer user_data;
};

G_DEFINE_TYPE(WifiDevice, wifi_device, JOIND_TYPE_DEVICE)

static GVariant *
wifi_device_get_diagnostics(JoindDevice *device)
{
	WifiDevice *self = WIFI_DEVICE(device);

	return self->diagnostics != NULL ? self->diagnostics(self->user_data) : NULL;
}

static void
wifi_device_class_init(WifiDeviceClass *klass)
{
	JOIND_DEVICE_CLASS(klass)->get_diagnostics = wifi_device_get_diagnostics;
}

static void
wifi_device_init(WifiDevice *self)
{
}

WifiDevice *
wifi_device_new(gint ifindex, const gchar *name, WifiDeviceDiagnosticsFunc diagnostics,
                gpointer user_data)
{
	WifiDevice *self = g_object_new(WIFI_TYPE_DEVICE, "ifindex", ifindex, "name", name, "kind",
	                                JOIND_DEVICE_KIND_WIFI, "plugin", "wifi", NULL);

	self->diagnostics = diagnostics;
	self->user_data = user_data;
	return self;
}

void
wifi_device_clear_diagnostics(WifiDevice *self)
{
	self->diagnostics = NULL;
	self->user_data = NULL;
}
