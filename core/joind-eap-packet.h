/* joind-eap-packet.h - EAP packet framing (RFC 3748 section 4). Private to
 * the core; methods only see Type-Data. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define JOIND_EAP_HEADER_LEN 4

typedef struct {
	const guint8 *raw; /* the packet's first octet; length octets */
	guint8 code;
	guint8 id;
	guint16 length;          /* the header's Length: octets beyond it were padding */
	guint8 type;             /* Request/Response only, else 0 */
	const guint8 *type_data; /* after the Type octet; points into the input */
	gsize type_data_len;
} JoindEapPacket;

/* Parses one packet; fails (G_IO_ERROR_INVALID_DATA) on a truncated or
 * inconsistent header, Request/Response without Type, Success/Failure with
 * data, an Expanded Type without its vendor fields, and codes other than
 * Request, Response, Success, Failure. */
gboolean joind_eap_packet_parse(const guint8 *data, gsize len, JoindEapPacket *packet,
                                GError **error);

/* Builds a Response (type != 0) or, with code Success/Failure, a bare header.
 * Fails when the packet would not fit the 16-bit Length. */
GByteArray *joind_eap_packet_build(guint8 code, guint8 id, guint8 type, const guint8 *type_data,
                                   gsize type_data_len, GError **error);

const gchar *joind_eap_code_to_string(guint8 code);
/* "Identity", "MD5", "TLS", ... or "type 99" (static or in buf). */
const gchar *joind_eap_type_to_string(guint8 type, gchar *buf, gsize buf_len);

G_END_DECLS
