/* iwd-adhoc.h - iwd's AdHoc on a device's object, over the device's
 * JoindAdHoc, as iwd's doc/ad-hoc-api.txt has it: Start(ssid, psk) joins
 * or starts an RSN IBSS (WPA2-PSK), StartOpen(ssid) an open one, Stop;
 * Started (b) and ConnectedPeers (as). */
#pragma once

#include "iwd-iface.h"

G_BEGIN_DECLS

typedef struct _IwdAdHoc IwdAdHoc;

/* Adds AdHoc to object. */
IwdAdHoc *iwd_adhoc_new(GDBusObjectSkeleton *object, JoindAdHoc *adhoc);
JoindAdHoc *iwd_adhoc_get_model(IwdAdHoc *self);
/* Removes AdHoc from its object. */
void iwd_adhoc_free(IwdAdHoc *self);

G_END_DECLS
