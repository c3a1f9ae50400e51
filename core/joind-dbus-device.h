/* joind-dbus-device.h - a JoindDevice mirrored onto its D-Bus object. */
#pragma once

#include <gio/gio.h>

#include "joind-dbus-managed.h"
#include "joind-device.h"
#include "joind-profile-store.h"

G_BEGIN_DECLS

/* Publishes device at /net/joind/device/<ifindex> with net.joind.Device1,
 * plus net.joind.Port8021x1 while a port is attached, announced through
 * managed (joind-dbus-object.h); a WiFi device's networks go through
 * manager. Properties follow the device (and port) from then on,
 * Port8021x1.ProfileError the problem store records for the port's
 * profile file; method calls pass joind-auth first. */
void joind_dbus_device_export(JoindDBusManaged *managed, GDBusObjectManagerServer *manager,
                              JoindDevice *device, JoindProfileStore *store);
void joind_dbus_device_unexport(JoindDevice *device);
/* The device's GetManagedObjects entry, if it is exported. */
void joind_dbus_device_write_managed(JoindDevice *device, JoindVariantWriter *w,
                                     JoindVariantFrame *objects);

G_END_DECLS
