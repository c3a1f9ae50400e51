/* device.h - the JoindDevice of a station interface, with diagnostics. */
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
/* No more diagnostics calls after this (the station is going away);
 * later calls complete at once with none. */
void wifi_device_clear_diagnostics(WifiDevice *self);

G_END_DECLS
