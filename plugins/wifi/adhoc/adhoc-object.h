/* adhoc-object.h - the ad-hoc network as joind's API sees it
 * (JoindAdHoc: net.joind.AdHoc1 and the iwd front end's AdHoc): Start,
 * StartOpen, Stop, Started, Name, Security, Peers and the peer signals,
 * over a WifiAdhoc. */
#pragma once

#include "adhoc.h"
#include "joind.h"

G_BEGIN_DECLS

#define WIFI_TYPE_ADHOC_OBJECT (wifi_adhoc_object_get_type())
G_DECLARE_FINAL_TYPE(WifiAdhocObject, wifi_adhoc_object, WIFI, ADHOC_OBJECT, JoindAdHoc)

/* address: the interface's. */
WifiAdhocObject *wifi_adhoc_object_new(WifiIface *iface, const guint8 address[6]);
/* Leaves the IBSS and fails what waits for it; the object stays usable as
 * a closed one until its last reference goes. */
void wifi_adhoc_object_shutdown(WifiAdhocObject *self, const gchar *reason);
WifiAdhoc *wifi_adhoc_object_get_adhoc(WifiAdhocObject *self);

G_END_DECLS
