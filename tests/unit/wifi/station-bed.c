/* station-bed.c - the autoconnect tests' common ground (see station-bed.h). */
#include "station-bed.h"

#include "profile-keys.h"
#include "settings.h"

void
station_bed_init(StationBed *bed, WifiWiphy *wiphy, WifiNlEventFunc events, gpointer user_data)
{
	g_autoptr(GError) error = NULL;

	bed->tc = test_core_new(NULL, wifi_settings);
	joind_core_declare_profile_keys(bed->tc->core, wifi_profile_keys);
	bed->nl = fake_nl_new(&bed->fake);
	wifi_nl_add_listener(bed->nl, events, user_data);
	bed->iface = wifi_iface_new(bed->nl, NULL, wiphy, STATION_BED_IFINDEX, "wlan0");
	bed->device = JOIND_DEVICE(wifi_device_new(STATION_BED_IFINDEX, "wlan0", NULL, NULL));
	bed->station = g_object_new(JOIND_TYPE_STATION, NULL);
	joind_device_attach_station(bed->device, bed->station);
	g_assert_true(joind_core_add_device(bed->tc->core, bed->device, &error));
}

void
station_bed_clear(StationBed *bed)
{
	joind_core_remove_device(bed->tc->core, bed->device);
	joind_device_attach_station(bed->device, NULL);
	g_object_unref(bed->station);
	g_object_unref(bed->device);
	wifi_iface_unref(bed->iface);
	wifi_nl_free(bed->nl);
	test_core_free(bed->tc);
}
