/* iwd-ap.h - iwd's AccessPoint on a device's object, over the device's
 * JoindAccessPoint: Start(ssid, psk) starts what iwd 2.3's does
 * (WPA2-Personal, CCMP, management frame protection optional),
 * StartProfile(ssid) reads iwd's ap/<ssid>.ap, Stop; Started, and while
 * started Name, Frequency, PairwiseCiphers and GroupCipher. Scan and
 * GetOrderedNetworks are left out (NotSupported): Scanning stays false. */
#pragma once

#include "iwd-iface.h"

G_BEGIN_DECLS

typedef struct _IwdAp IwdAp;

/* Adds AccessPoint to object. */
IwdAp *iwd_ap_new(GDBusObjectSkeleton *object, JoindAccessPoint *access_point);
JoindAccessPoint *iwd_ap_get_model(IwdAp *self);
/* Removes AccessPoint from its object. */
void iwd_ap_free(IwdAp *self);

G_END_DECLS
