/* plugin.c - the eap-tls plugin: registers EAP-TLS with the core. */
#include "joind.h"

#include "eap-tls.h"

static gboolean
eap_tls_plugin_init(JoindCore *core, GError **error)
{
	return joind_eap_register_method(eap_tls_get_ops(), error);
}

static void
eap_tls_plugin_shutdown(JoindCore *core)
{
	joind_eap_unregister_method(eap_tls_get_ops());
}

JOIND_PLUGIN_DEFINE("eap-tls", "EAP-TLS (RFC 5216, RFC 9190)", JOIND_PLUGIN_PRIORITY_EAP_METHOD,
                    eap_tls_plugin_init, eap_tls_plugin_shutdown);
