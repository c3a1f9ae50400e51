/* plugin.c - the EAP-GTC plugin module: registers the method. */
#include "eap-gtc.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-gtc", "EAP-GTC (RFC 3748) as outer and inner method",
                               eap_gtc_ops);
