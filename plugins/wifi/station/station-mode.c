/* station-mode.c - the station as the owner of an interface in station
 * mode (kernel/mode.h): what the manager may ask of it. */
#include "station.h"

#include <linux/nl80211.h>

static gpointer
station_take(const WifiModeSetup *setup, GError **error)
{
	WifiStationSetup station_setup = {
	        .core = setup->core,
	        .iface = setup->iface,
	        .device = setup->device,
	};
	WifiStation *station = wifi_station_new(&station_setup);

	if (setup->blocked != NULL)
		wifi_station_set_blocked(station, TRUE, setup->blocked);
	wifi_station_start(station);
	return station;
}

static void
station_release(gpointer owner)
{
	wifi_station_stop(owner);
	g_object_unref(owner);
}

static void
station_handle_event(gpointer owner, guint8 cmd, struct nlattr **attrs)
{
	wifi_station_handle_event(owner, cmd, attrs);
}

static void
station_link_changed(gpointer owner, const gchar *name, const gchar *address, guint flags)
{
	wifi_station_link_changed(owner, name, address, flags);
}

static void
station_resync(gpointer owner)
{
	wifi_station_resync(owner);
}

static void
station_set_blocked(gpointer owner, gboolean blocked, const gchar *reason)
{
	wifi_station_set_blocked(owner, blocked, reason);
}

static void
station_resumed(gpointer owner)
{
	wifi_station_resumed(owner);
}

static const WifiModeCalls station_calls = {
        .take = station_take,
        .release = station_release,
        .handle_event = station_handle_event,
        .link_changed = station_link_changed,
        .resync = station_resync,
        .set_blocked = station_set_blocked,
        .resumed = station_resumed,
};

const WifiModeOps wifi_station_mode_ops = {
        .name = "station",
        .iftype = NL80211_IFTYPE_STATION,
        .calls = &station_calls,
};
