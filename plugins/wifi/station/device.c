/* device.c - WiFi devices: a JoindDevice whose diagnostics come from its
 * station (BSSes, networks, scanning). */
#include "device.h"

struct _WifiDevice {
	JoindDevice parent_instance;
	WifiDeviceDiagnosticsFunc diagnostics;
	gpointer user_data;
};

G_DEFINE_TYPE(WifiDevice, wifi_device, JOIND_TYPE_DEVICE)

static void
wifi_device_get_diagnostics_async(JoindDevice *device, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data)
{
	WifiDevice *self = WIFI_DEVICE(device);
	GTask *task = g_task_new(self, cancellable, callback, user_data);

	g_task_set_source_tag(task, wifi_device_get_diagnostics_async);
	if (self->diagnostics == NULL) {
		g_task_return_pointer(task, NULL, NULL);
		g_object_unref(task);
		return;
	}
	self->diagnostics(self->user_data, task);
}

static GVariant *
wifi_device_get_diagnostics_finish(JoindDevice *device, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, device), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}

static void
wifi_device_class_init(WifiDeviceClass *klass)
{
	JoindDeviceClass *device_class = JOIND_DEVICE_CLASS(klass);

	device_class->get_diagnostics_async = wifi_device_get_diagnostics_async;
	device_class->get_diagnostics_finish = wifi_device_get_diagnostics_finish;
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
