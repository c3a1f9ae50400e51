/* plugin.c - the wifi plugin's descriptor: station interfaces over nl80211. */
#include "joind.h"
#include "manager.h"
#include "profile-keys.h"
#include "settings.h"

static WifiManager *manager;

static gboolean
wifi_plugin_init(JoindCore *core, GError **error)
{
	manager = wifi_manager_new(core, error);
	return manager != NULL;
}

static void
wifi_plugin_shutdown(JoindCore *core)
{
	g_clear_pointer(&manager, wifi_manager_free);
}

/* Opened once the machine has a radio: on one without, neither this module
 * nor libnl is mapped (plugins/README.md). */
JOIND_PLUGIN_DEFINE_KEYS("wifi", "WiFi stations over nl80211: radios, scanning, networks",
                         JOIND_PLUGIN_PRIORITY_DEVICE, wifi_plugin_init, wifi_plugin_shutdown, NULL,
                         wifi_settings, wifi_profile_keys, JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO);
