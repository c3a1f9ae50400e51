/* joind-dbus-access-point.h - a device's access point on D-Bus. */
#pragma once

#include <gio/gio.h>

#include "joind-access-point.h"
#include "joind-dbus-object.h"

G_BEGIN_DECLS

typedef struct _JoindDBusAccessPointExport JoindDBusAccessPointExport;

/* Follows the access point attached to device
 * (joind_device_attach_access_point()): net.joind.AccessPoint1 on
 * device_object (which must outlive the result) while one is attached. */
JoindDBusAccessPointExport *joind_dbus_access_point_export_new(JoindDBusObject *device_object,
                                                               JoindDevice *device);
/* Drops AccessPoint1. */
void joind_dbus_access_point_export_free(JoindDBusAccessPointExport *exp);

G_END_DECLS
