/* device.c - WiFi devices: a JoindDevice whose diagnostics come from its
 * station (BSSes, networks, scanning). */
#include "device.h"

struct _WifiDevice {
	JoindDevice parent_instance;
	WifiDeviceDiagnosticsFunc diagnostics;
	gpointer user_data;
	WifiDeviceModeFunc mode_func;
	gpointer mode_data;
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
wifi_device_set_mode(JoindDevice *device, JoindDeviceMode mode, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
	WifiDevice *self = WIFI_DEVICE(device);
	GTask *task = g_task_new(self, cancellable, callback, user_data);

	g_task_set_source_tag(task, wifi_device_set_mode);
	if (self->mode_func == NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                        "%s cannot change modes here.",
		                        joind_device_get_name(device));
		g_object_unref(task);
		return;
	}
	self->mode_func(self->mode_data, device, mode, task);
}

static void
wifi_device_class_init(WifiDeviceClass *klass)
{
	JoindDeviceClass *device_class = JOIND_DEVICE_CLASS(klass);

	device_class->set_mode = wifi_device_set_mode;
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

	wifi_device_set_diagnostics(self, diagnostics, user_data);
	return self;
}

void
wifi_device_set_diagnostics(WifiDevice *self, WifiDeviceDiagnosticsFunc diagnostics,
                            gpointer user_data)
{
	self->diagnostics = diagnostics;
	self->user_data = user_data;
}

void
wifi_device_set_mode_func(WifiDevice *self, WifiDeviceModeFunc func, gpointer user_data)
{
	self->mode_func = func;
	self->mode_data = user_data;
}

void
wifi_device_clear_diagnostics(WifiDevice *self)
{
	wifi_device_set_diagnostics(self, NULL, NULL);
}
