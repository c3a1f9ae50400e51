/* device.h - the JoindDevice of a station interface, with diagnostics. */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

#define WIFI_TYPE_DEVICE (wifi_device_get_type())
G_DECLARE_FINAL_TYPE(WifiDevice, wifi_device, WIFI, DEVICE, JoindDevice)

typedef GVariant *(*WifiDeviceDiagnosticsFunc)(gpointer user_data);

/* diagnostics (may be NULL) supplies the a{sv} for GetDiagnostics(). */
WifiDevice *wifi_device_new(gint ifindex, const gchar *name, WifiDeviceDiagnosticsFunc diagnostics,
                            gpointer user_data);
/* No more diagnostics calls after this (the station is going away). */
void wifi_device_clear_diagnostics(WifiDevice *self);

G_END_DECLS
