/* plugin.c - the EAP-TTLS plugin module: registers the method. */
#include "eap-ttls.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-ttls",
                               "EAP-TTLSv0 with PAP, CHAP, MS-CHAP, MS-CHAPv2 or inner EAP",
                               eap_ttls_ops);
