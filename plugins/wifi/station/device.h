/* device.h - the JoindDevice of a WiFi interface: made by the manager,
 * it stays while the interface changes modes; diagnostics come from the
 * station while there is one, mode changes go to the manager. */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

#define WIFI_TYPE_DEVICE (wifi_device_get_type())
G_DECLARE_FINAL_TYPE(WifiDevice, wifi_device, WIFI, DEVICE, JoindDevice)

/* Owns task and answers it (now or later, never blocking) with the a{sv} for
 * GetDiagnostics(): g_task_return_pointer() of a full reference, freed
 * with g_variant_unref(). The task's source object is the device. */
typedef void (*WifiDeviceDiagnosticsFunc)(gpointer user_data, GTask *task);

/* diagnostics (may be NULL) supplies the a{sv} for GetDiagnostics(). */
WifiDevice *wifi_device_new(gint ifindex, const gchar *name, WifiDeviceDiagnosticsFunc diagnostics,
                            gpointer user_data);
/* Who supplies the diagnostics from now on (the station taking the
 * interface). */
void wifi_device_set_diagnostics(WifiDevice *self, WifiDeviceDiagnosticsFunc diagnostics,
                                 gpointer user_data);
/* No more diagnostics calls after this (the station is going away);
 * later calls complete at once with none. */
void wifi_device_clear_diagnostics(WifiDevice *self);

/* Owns task and completes it (a boolean) once the interface runs in mode
 * or could not be switched. The task's source object is the device. */
typedef void (*WifiDeviceModeFunc)(gpointer user_data, JoindDevice *device, JoindDeviceMode mode,
                                   GTask *task);
/* Who switches the device's mode (Device1.Mode writes); without one they
 * are refused. */
void wifi_device_set_mode_func(WifiDevice *self, WifiDeviceModeFunc func, gpointer user_data);

G_END_DECLS
