/* plugin.c - the EAP-pwd plugin module: registers the method. */
#include "eap-pwd.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-pwd", "EAP-pwd (RFC 5931), group 19", eap_pwd_ops);
