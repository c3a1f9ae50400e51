/* plugin.c - the EAP-MSCHAPv2 plugin module: registers the method. */
#include "eap-mschapv2.h"
#include "joind-plugin.h"

static gboolean
eap_mschapv2_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(&eap_mschapv2_ops, error);
}

static void
eap_mschapv2_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(&eap_mschapv2_ops);
}

JOIND_PLUGIN_DEFINE("eap-mschapv2", "EAP-MSCHAPv2 (RFC 2759) as outer and inner method",
                    JOIND_PLUGIN_PRIORITY_EAP_METHOD, eap_mschapv2_plugin_init,
                    eap_mschapv2_plugin_shutdown);
