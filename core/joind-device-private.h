/* joind-device-private.h - what only the core does to a device. */
#pragma once

#include "joind-device.h"

void joind_device_set_object_path(JoindDevice *self, const gchar *path);
