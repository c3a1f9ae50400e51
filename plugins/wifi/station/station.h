/* station.h - one station interface: its device, scans, BSSes, networks.
 *
 * The station owns the BSS table a connect picks from and the scanner
 * every room shares; it makes the connector (JoindStation's State and
 * ConnectedNetwork) and the autoconnect, and routes the interface's
 * nl80211 events and link changes to them.
 */
#pragma once

#include "iface.h"
#include "joind.h"
#include "mode.h"
#include "network.h"
#include "pmksa.h"
#include "scan.h"

G_BEGIN_DECLS

#define WIFI_TYPE_STATION (wifi_station_get_type())
G_DECLARE_FINAL_TYPE(WifiStation, wifi_station, WIFI, STATION, JoindStation)

typedef struct {
	JoindCore *core;
	WifiIface *iface;
	/* The interface's device (a WifiDevice; the station attaches itself
	 * and supplies its diagnostics until it stops). */
	JoindDevice *device;
} WifiStationSetup;

WifiStation *wifi_station_new(const WifiStationSetup *setup);
/* Brings the link up and starts scanning. */
void wifi_station_start(WifiStation *self);
/* Stops scanning, removes the networks and leaves the device. */
void wifi_station_stop(WifiStation *self);

/* The station's PMKSA cache (for tests). */
WifiPmksaCache *wifi_station_get_pmksa_cache(WifiStation *self);
JoindDevice *wifi_station_get_joind_device(WifiStation *self);

/* Network1.Connect() of one of this station's networks (see connect.h);
 * the GTask's source object is network. */
void wifi_station_connect(WifiStation *self, WifiNetwork *network, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data);

/* Events may have been lost: the scanner and the link read the state
 * again. */
void wifi_station_resync(WifiStation *self);

/* nl80211 events for this interface. */
void wifi_station_handle_event(WifiStation *self, guint8 cmd, struct nlattr **attrs);
/* rtnetlink facts for this interface (name/address may be NULL). */
void wifi_station_link_changed(WifiStation *self, const gchar *name, const gchar *address,
                               guint flags);
/* The radio's rfkill switch: a blocked radio is powered off (scans and
 * autoconnect stop) whatever its link says; unblocked, the link is set up
 * again and autoconnect's quick scan follows. reason is for the log. */
void wifi_station_set_blocked(WifiStation *self, gboolean blocked, const gchar *reason);
/* The system resumed from sleep: rescan (the remembered frequencies first)
 * and reconnect without waiting for the periodic scan. */
void wifi_station_resumed(WifiStation *self);

/* The station as the owner of station-mode interfaces (station-mode.c). */
extern const WifiModeOps wifi_station_mode_ops;

G_END_DECLS
