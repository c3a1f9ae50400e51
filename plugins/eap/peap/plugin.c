/* plugin.c - the PEAP plugin module: registers the method. */
#include "eap-peap.h"
#include "joind-plugin.h"

static gboolean
eap_peap_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(&eap_peap_ops, error);
}

static void
eap_peap_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(&eap_peap_ops);
}

JOIND_PLUGIN_DEFINE("eap-peap", "PEAPv0 with an inner EAP method", JOIND_PLUGIN_PRIORITY_EAP_METHOD,
                    eap_peap_plugin_init, eap_peap_plugin_shutdown);
