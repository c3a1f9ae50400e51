/* eap-pwd.h - the EAP-pwd method (type 52, RFC 5931) for the EAP engine. */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

/* Registered as "PWD", outer and inner; group 19 (NIST P-256) with no
 * password preparation. Settings: <P>Identity, <P>Password. */
extern const JoindEapMethodOps eap_pwd_ops;

G_END_DECLS
