/* joind-device-private.h - what only the core does to a device. */
#pragma once

#include "joind-device.h"

void joind_device_set_object_path(JoindDevice *self, const gchar *path);

/* What the D-Bus export of the device runs after each property change
 * (NULL: nothing). A hook rather than a "notify" handler: a handler cost
 * about 250 bytes of heap per device. */
typedef void (*JoindDeviceChangedFunc)(JoindDevice *device, GParamSpec *pspec, gpointer data);
void joind_device_set_changed_func(JoindDevice *self, JoindDeviceChangedFunc func, gpointer data);
