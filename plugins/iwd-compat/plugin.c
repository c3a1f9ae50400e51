/* plugin.c - the iwd-compat front end's descriptor: iwd's D-Bus API
 * (net.connman.iwd) over the core's model, for NetworkManager, ConnMan and
 * iwctl. Off unless main.conf says [General] IwdCompatibility=true: the
 * name belongs to iwd wherever iwd is installed and running.
 */
#include "iwd-server.h"
#include "joind.h"

static const JoindConfigKey iwd_compat_settings[] = {
        {"General", "IwdCompatibility", JOIND_CONFIG_BOOL, "false", 0, 0, NULL},
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};

static IwdServer *server;

static gboolean
iwd_compat_init(JoindCore *core, GError **error)
{
	if (!joind_core_get_config_bool(core, "General", "IwdCompatibility")) {
		g_debug("[General] IwdCompatibility is false: net.connman.iwd not exported");
		return TRUE;
	}
	server = iwd_server_new(core, error);
	return server != NULL;
}

static void
iwd_compat_shutdown(JoindCore *core)
{
	g_clear_pointer(&server, iwd_server_free);
}

/* After the device plugins, so the devices they found at start are there.
 * Opened only when IwdCompatibility (its first key) is true: the loader
 * declares the key from the manifest and reads it without opening the
 * module. */
JOIND_PLUGIN_DEFINE_FLAGS("iwd-compat",
                          "iwd's D-Bus API (net.connman.iwd) for NetworkManager and iwctl",
                          JOIND_PLUGIN_PRIORITY_DEVICE + 10, iwd_compat_init, iwd_compat_shutdown,
                          NULL, iwd_compat_settings, JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED);
