/* iwd-calls.h - the methods and property writes of iwd's Device, Station
 * and Network interfaces: each turns into a call of the model through the
 * core's call path (the interface is the call's target, its model the
 * station, network or device, its context the IwdDevice).
 */
#pragma once

#include "iwd-iface.h"

G_BEGIN_DECLS

extern const IwdMethod iwd_station_methods[];
extern const IwdMethod iwd_network_methods[];
/* Device.Powered and Device.Mode writes. */
void iwd_device_set_property(JoindCall *call, gpointer target, gpointer data);
/* A Powered or Mode write on target (a Device or an Adapter) for device,
 * the interface it powers (NULL: none, the write is NotSupported). */
void iwd_power_set_property(JoindCall *call, IwdIface *target, JoindDevice *device);

G_END_DECLS
