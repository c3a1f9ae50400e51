/* eap-md5.h - EAP-MD5 (RFC 3748 section 5.4). */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

extern const JoindEapMethodOps eap_md5_ops;

/* MD5(id || password || challenge), RFC 1994 section 4.1. */
gboolean eap_md5_compute(guint8 id, const gchar *password, const guint8 *challenge,
                         gsize challenge_len, guint8 out[16], GError **error);

G_END_DECLS
