/* eap-ttls.h - the EAP-TTLS method (type 21, RFC 5281), version 0. */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

/* Registered as "TTLS", outer only. Settings: the TLS keys with "TTLS-"
 * (EAP-TTLS-CACert, ...), <P>TTLS-Phase2-Method: Tunneled-PAP,
 * Tunneled-CHAP, Tunneled-MSCHAP, Tunneled-MSCHAPv2 or an inner EAP method
 * (MD5, MSCHAPV2, GTC, ...), <P>TTLS-Phase2-Identity (default: the outer
 * identity), <P>TTLS-Phase2-Password (or -Password-Hash for the MS-CHAPs). */
extern const JoindEapMethodOps eap_ttls_ops;

G_END_DECLS
