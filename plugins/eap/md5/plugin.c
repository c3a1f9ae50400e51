/* plugin.c - the eap-md5 plugin: registers EAP-MD5 with the core. */
#include "joind.h"

#include "eap-md5.h"

static gboolean
eap_md5_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(eap_md5_get_ops(), error);
}

static void
eap_md5_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(eap_md5_get_ops());
}

JOIND_PLUGIN_DEFINE("eap-md5", "EAP-MD5 (RFC 3748)", JOIND_PLUGIN_PRIORITY_EAP_METHOD,
                    eap_md5_plugin_init, eap_md5_plugin_shutdown);
