/* joind-dbus-adhoc.h - a device's ad-hoc network on D-Bus. */
#pragma once

#include <gio/gio.h>

#include "joind-adhoc.h"
#include "joind-dbus-object.h"

G_BEGIN_DECLS

typedef struct _JoindDBusAdHocExport JoindDBusAdHocExport;

/* Follows the ad-hoc object attached to device (joind_device_attach_adhoc()):
 * net.joind.AdHoc1 on device_object (which must outlive the result) while
 * one is attached. */
JoindDBusAdHocExport *joind_dbus_adhoc_export_new(JoindDBusObject *device_object,
                                                  JoindDevice *device);
/* Drops AdHoc1. */
void joind_dbus_adhoc_export_free(JoindDBusAdHocExport *exp);

G_END_DECLS
