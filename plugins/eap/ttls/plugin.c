/* plugin.c - the EAP-TTLS plugin module: registers the method. */
#include "eap-ttls.h"
#include "joind-plugin.h"

static gboolean
eap_ttls_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(&eap_ttls_ops, error);
}

static void
eap_ttls_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(&eap_ttls_ops);
}

JOIND_PLUGIN_DEFINE("eap-ttls", "EAP-TTLSv0 with PAP, CHAP, MS-CHAP, MS-CHAPv2 or inner EAP",
                    JOIND_PLUGIN_PRIORITY_EAP_METHOD, eap_ttls_plugin_init,
                    eap_ttls_plugin_shutdown);
