/* plugin.c - the EAP-TLS plugin module: registers the method, and
 * declares the main.conf key every method with client keys reads (the TPM's
 * TCTI), once for all of them. */
#include "eap-tls-tpm.h"
#include "eap-tls.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE_CONFIG("eap-tls", "EAP-TLS (RFC 5216, RFC 9190)", eap_tls_ops,
                                      eap_tls_tpm_config_keys);
