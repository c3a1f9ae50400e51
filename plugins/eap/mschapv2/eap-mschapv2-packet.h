/* eap-mschapv2-packet.h - EAP-MSCHAPv2 Type-Data
 * (draft-kamath-pppext-eap-mschapv2-02): the server's Challenge, Success and
 * Failure Requests, and the peer's Responses. */
#pragma once

#include <glib.h>

#include "eap-mschap-crypto.h"
#include "eap-mschap-message.h"

G_BEGIN_DECLS

#define EAP_MSCHAPV2_OP_CHALLENGE       1
#define EAP_MSCHAPV2_OP_RESPONSE        2
#define EAP_MSCHAPV2_OP_SUCCESS         3
#define EAP_MSCHAPV2_OP_FAILURE         4
#define EAP_MSCHAPV2_OP_CHANGE_PASSWORD 7

/* OpCode, MS-CHAPv2-ID, MS-Length */
#define EAP_MSCHAPV2_HEADER_LEN 4
/* Peer-Challenge, 8 reserved octets, NT-Response, Flags (RFC 2759 4) */
#define EAP_MSCHAPV2_RESPONSE_VALUE_LEN 49

/* A parsed Request; pointers point into the parsed data. */
typedef struct {
	guint8 op_code;
	guint8 ms_id;
	guint16 ms_length;
	/* Challenge */
	const guint8 *challenge; /* EAP_MSCHAP_CHALLENGE_LEN octets */
	const guint8 *name;      /* the server's name, not NUL-terminated */
	gsize name_len;
	/* Success, Failure: the text after the header */
	const guint8 *message;
	gsize message_len;
} EapMschapv2Request;

/* Fails (G_IO_ERROR_INVALID_DATA) on truncation, a Challenge whose
 * Value-Size is not 16, and OpCodes a server does not send. A MS-Length
 * that disagrees with the EAP length is tolerated (some servers get it
 * wrong); the EAP length is what counts. */
gboolean eap_mschapv2_request_parse(const guint8 *data, gsize len, EapMschapv2Request *request,
                                    GError **error);

/* Appends the Response to a Challenge (name: the full user name). */
void eap_mschapv2_response_build(GByteArray *out, guint8 ms_id,
                                 const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                 const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                                 const gchar *name);

G_END_DECLS
