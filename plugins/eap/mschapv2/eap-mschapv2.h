/* eap-mschapv2.h - the EAP-MSCHAPv2 method (type 26) for the EAP engine. */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

/* Registered as "MSCHAPV2", outer and inner. Settings: <P>Identity, and
 * <P>Password or <P>Password-Hash (the NT hash as 32 hex digits, so a
 * profile need not hold the clear password). */
extern const JoindEapMethodOps eap_mschapv2_ops;

G_END_DECLS
