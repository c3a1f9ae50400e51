/* ap-object.h - the access point as joind's API sees it: a
 * JoindAccessPoint (AccessPoint1, and the iwd front end's AccessPoint)
 * over the interface's WifiAp. Start and StartProfile complete once the
 * BSS beacons or could not start, Stop once it is down; Started, Name,
 * Frequency and Security follow the BSS and Stations its authorised
 * clients. */
#pragma once

#include "ap.h"
#include "joind.h"

G_BEGIN_DECLS

#define WIFI_TYPE_ACCESS_POINT (wifi_access_point_get_type())
G_DECLARE_FINAL_TYPE(WifiAccessPoint, wifi_access_point, WIFI, ACCESS_POINT, JoindAccessPoint)

/* address: the interface's, which becomes the BSSID. */
WifiAccessPoint *wifi_access_point_new(JoindCore *core, WifiIface *iface, const guint8 address[6]);
/* Stops the BSS and fails what waits for it; the object stays usable
 * as a closed one until its last reference goes. */
void wifi_access_point_shutdown(WifiAccessPoint *self, const gchar *reason);
WifiAp *wifi_access_point_get_ap(WifiAccessPoint *self);

G_END_DECLS
