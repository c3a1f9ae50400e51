/* plugin.c - the EAP-pwd plugin module: registers the method. */
#include "eap-pwd.h"
#include "joind-plugin.h"

static gboolean
eap_pwd_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(&eap_pwd_ops, error);
}

static void
eap_pwd_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(&eap_pwd_ops);
}

JOIND_PLUGIN_DEFINE("eap-pwd", "EAP-pwd (RFC 5931), group 19", JOIND_PLUGIN_PRIORITY_EAP_METHOD,
                    eap_pwd_plugin_init, eap_pwd_plugin_shutdown);
