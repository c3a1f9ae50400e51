/* joind-device-power.h - powering a device on or off for a front end's
 * Powered write (joind-observer.h's JOIND_CALL_OP_POWER_*). Private to the
 * core.
 */
#pragma once

#include <gio/gio.h>

#include "joind-device.h"

G_BEGIN_DECLS

/* Sets the interface administratively up (on) or down and completes once
 * the device's "powered" property says so: the plugin that manages the
 * device follows the link as it does for `ip link set`, so a device
 * powered off is disconnected and stops scanning, and one powered on
 * scans and autoconnects again. Fails when the kernel refuses (a radio
 * blocked by rfkill cannot come up) or the device does not follow within
 * a few seconds. */
void joind_device_power(JoindDevice *device, gboolean on, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data);
gboolean joind_device_power_finish(JoindDevice *device, GAsyncResult *result, GError **error);

G_END_DECLS
