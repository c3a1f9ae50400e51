/* joind-dbus-hosted.h - a device's hosted network on D-Bus: AccessPoint1
 * while an access point is attached to it, AdHoc1 while an ad-hoc network
 * is. */
#pragma once

#include <gio/gio.h>

#include "joind-dbus-object.h"
#include "joind-device.h"

G_BEGIN_DECLS

/* Which model, interface, properties, methods and signals. */
typedef struct _JoindDBusHostedKind JoindDBusHostedKind;
extern const JoindDBusHostedKind joind_dbus_hosted_access_point;
extern const JoindDBusHostedKind joind_dbus_hosted_adhoc;

typedef struct _JoindDBusHostedExport JoindDBusHostedExport;

/* Follows the model of kind attached to device
 * (joind_device_attach_access_point(), joind_device_attach_adhoc()): its
 * interface on device_object (which must outlive the result) while one is
 * attached. */
JoindDBusHostedExport *joind_dbus_hosted_export_new(const JoindDBusHostedKind *kind,
                                                    JoindDBusObject *device_object,
                                                    JoindDevice *device);
/* Drops the interface. */
void joind_dbus_hosted_export_free(JoindDBusHostedExport *exp);

G_END_DECLS
