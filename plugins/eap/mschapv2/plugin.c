/* plugin.c - the EAP-MSCHAPv2 plugin module: registers the method. */
#include "eap-mschapv2.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-mschapv2", "EAP-MSCHAPv2 (RFC 2759) as outer and inner method",
                               eap_mschapv2_ops);
