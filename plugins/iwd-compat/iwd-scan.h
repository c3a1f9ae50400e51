/* iwd-scan.h - Station.Scan() as iwd answers it: once the scan has begun,
 * not when its results are in (a client follows Station.Scanning to the
 * end); net.connman.iwd.Busy while a connection is being set up or while
 * an earlier Scan() of this API still runs on the station.
 */
#pragma once

#include "iwd-iface.h"

G_BEGIN_DECLS

/* The handler of Station.Scan (target: the Station interface, whose model
 * is the JoindStation). */
void iwd_station_scan(JoindCall *call, gpointer target, gpointer data);

G_END_DECLS
