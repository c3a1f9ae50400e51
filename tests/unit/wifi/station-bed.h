/* station-bed.h - what the autoconnect tests build under autoconnect: a
 * real core with the WiFi plugin's settings and profile keys, a fake
 * nl80211, interface "wlan0" (ifindex 7) on a wiphy, its device and a
 * plain JoindStation added to the core. */
#pragma once

#include "device.h"
#include "fake-nl.h"
#include "iface.h"
#include "test-core.h"

#define STATION_BED_IFINDEX 7

typedef struct {
	TestCore *tc;
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	JoindDevice *device;
	JoindStation *station;
} StationBed;

/* events: the fake nl80211's listener (the test's glue). */
void station_bed_init(StationBed *bed, WifiWiphy *wiphy, WifiNlEventFunc events,
                      gpointer user_data);
void station_bed_clear(StationBed *bed);
