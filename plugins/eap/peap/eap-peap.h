/* eap-peap.h - the PEAP method (type 25), version 0, for the EAP engine. */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

/* Registered as "PEAP", outer only. Settings: the TLS keys with "PEAP-"
 * (EAP-PEAP-CACert, -ServerDomainMask, ...) and the inner conversation
 * under "<P>PEAP-Phase2-" (EAP-PEAP-Phase2-Method, -Identity, -Password). */
extern const JoindEapMethodOps eap_peap_ops;

G_END_DECLS
