/* plugin.c - the PEAP plugin module: registers the method. */
#include "eap-peap.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-peap", "PEAPv0 with an inner EAP method", eap_peap_ops);
