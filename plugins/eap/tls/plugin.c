/* plugin.c - the EAP-TLS plugin module: registers the method. */
#include "eap-tls.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-tls", "EAP-TLS (RFC 5216, RFC 9190)", eap_tls_ops);
