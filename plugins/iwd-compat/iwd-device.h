/* iwd-device.h - one WiFi device of the model under iwd's API: its
 * net.connman.iwd.Device object (with Station while the device is powered
 * and has a station) and a Network object per network the station sees.
 */
#pragma once

#include "iwd-known.h"
#include "joind.h"

G_BEGIN_DECLS

typedef struct _IwdDevice IwdDevice;

/* Exports the device at /net/connman/iwd/<phy>/<ifindex> on manager and
 * follows it until freed (which unexports everything); known is told when
 * the station connects (LastConnectedTime), unless NULL. */
IwdDevice *iwd_device_new(GDBusObjectManagerServer *manager, JoindDevice *device, guint phy,
                          IwdKnown *known);
void iwd_device_free(IwdDevice *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IwdDevice, iwd_device_free)

/* iwd's path for a path of the core's API (the device's object or one of
 * its networks'), or NULL. */
gchar *iwd_device_map_path(IwdDevice *self, const gchar *joind_path);

/* For the method handlers (iwd-calls.h): the iwd path of a network the
 * device's station shows, or NULL. */
const gchar *iwd_device_network_path(IwdDevice *self, JoindNetwork *network);

G_END_DECLS
