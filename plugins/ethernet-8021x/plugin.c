/* plugin.c - the ethernet-8021x plugin's descriptor: wired ports. */
#include "joind.h"
#include "wired-manager.h"
#include "wired-settings.h"

static WiredManager *manager;

static gboolean
ethernet_plugin_init(JoindCore *core, GError **error)
{
	manager = wired_manager_new(core, error);
	return manager != NULL;
}

static void
ethernet_plugin_shutdown(JoindCore *core)
{
	g_clear_pointer(&manager, wired_manager_free);
}

JOIND_PLUGIN_DEFINE_FULL("ethernet-8021x", "Wired Ethernet ports and their IEEE 802.1X supplicant",
                         JOIND_PLUGIN_PRIORITY_DEVICE, ethernet_plugin_init,
                         ethernet_plugin_shutdown, NULL, wired_settings);
