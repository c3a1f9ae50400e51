/* eap-tls.h - EAP-TLS (RFC 5216, RFC 9190 for TLS 1.3). */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

extern const JoindEapMethodOps eap_tls_ops;

G_END_DECLS
