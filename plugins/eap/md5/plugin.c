/* plugin.c - the EAP-MD5 plugin module: registers the method. */
#include "eap-md5.h"

JOIND_EAP_METHOD_PLUGIN_DEFINE("eap-md5", "EAP-MD5 (RFC 3748)", eap_md5_ops);
