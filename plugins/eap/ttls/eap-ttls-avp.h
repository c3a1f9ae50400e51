/* eap-ttls-avp.h - EAP-TTLS AVPs (RFC 5281 section 10): Diameter-style
 * attributes carried in the tunnel, padded to 4 octets. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define EAP_TTLS_AVP_FLAG_V 0x80 /* Vendor-ID present */
#define EAP_TTLS_AVP_FLAG_M 0x40 /* mandatory */

#define EAP_TTLS_AVP_USER_NAME      1
#define EAP_TTLS_AVP_USER_PASSWORD  2
#define EAP_TTLS_AVP_CHAP_PASSWORD  3
#define EAP_TTLS_AVP_REPLY_MESSAGE  18
#define EAP_TTLS_AVP_CHAP_CHALLENGE 60
#define EAP_TTLS_AVP_EAP_MESSAGE    79

/* Microsoft vendor AVPs (RFC 2548) */
#define EAP_TTLS_VENDOR_MICROSOFT  311
#define EAP_TTLS_MS_CHAP_RESPONSE  1
#define EAP_TTLS_MS_CHAP_ERROR     2
#define EAP_TTLS_MS_CHAP_CHALLENGE 11
#define EAP_TTLS_MS_CHAP2_RESPONSE 25
#define EAP_TTLS_MS_CHAP2_SUCCESS  26

/* Appends one AVP (vendor 0: none) with the M bit, padded with zeros. */
void eap_ttls_avp_append(GByteArray *out, guint32 code, guint32 vendor, const guint8 *data,
                         gsize len);

typedef struct {
	guint32 code;
	guint8 flags;
	guint32 vendor; /* 0 without the V bit */
	const guint8 *data;
	gsize len;
} EapTtlsAvp;

/* The AVPs the server sends in phase 2, gathered. */
typedef struct {
	GByteArray *eap_message; /* EAP-Message AVPs concatenated, or NULL */
	gchar *reply_message;    /* sanitised Reply-Message, or NULL */
	GBytes *ms_chap2_success;
	GBytes *ms_chap_error;
} EapTtlsAvps;

/* Reads the AVP at *pos and advances past its padding (which the last AVP
 * may leave out). Fails (G_IO_ERROR_INVALID_DATA) on a truncated header, a
 * length below the header or beyond the data, Vendor-ID 0 with V set. */
gboolean eap_ttls_avp_next(const guint8 *data, gsize len, gsize *pos, EapTtlsAvp *avp,
                           GError **error);
/* All AVPs of a message. Fails on malformed AVPs and on a mandatory AVP
 * this peer does not know (RFC 5281 10.1: such a message must fail). */
gboolean eap_ttls_avps_parse(const guint8 *data, gsize len, EapTtlsAvps *avps, GError **error);
void eap_ttls_avps_clear(EapTtlsAvps *avps);

G_END_DECLS
