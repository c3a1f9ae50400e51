/* plugin.c - the EAP-GTC plugin module: registers the method. */
#include "eap-gtc.h"
#include "joind-plugin.h"

static gboolean
eap_gtc_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(&eap_gtc_ops, error);
}

static void
eap_gtc_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(&eap_gtc_ops);
}

JOIND_PLUGIN_DEFINE("eap-gtc", "EAP-GTC (RFC 3748) as outer and inner method",
                    JOIND_PLUGIN_PRIORITY_EAP_METHOD, eap_gtc_plugin_init, eap_gtc_plugin_shutdown);
