/* joind-dbus-station.h - a device's station and networks on D-Bus. */
#pragma once

#include <gio/gio.h>

#include "joind-dbus-generated.h"
#include "joind-dbus-object.h"
#include "joind-station.h"

G_BEGIN_DECLS

typedef struct _JoindDBusStationExport JoindDBusStationExport;

/* Follows the station attached to device (joind_device_attach_station()):
 * net.joind.Station1 on device_object (which must outlive the result)
 * while one is attached, and one object with net.joind.Network1 per
 * network at <device path>/network/<ssid-hex>_<type>, exported through
 * manager. */
JoindDBusStationExport *joind_dbus_station_export_new(GDBusObjectManagerServer *manager,
                                                      JoindDBusObject *device_object,
                                                      JoindDevice *device);
/* Unexports the networks and drops Station1. */
void joind_dbus_station_export_free(JoindDBusStationExport *exp);

G_END_DECLS
