/* eap-pwd-packet.h - EAP-pwd Type-Data (RFC 5931 section 3): the header
 * with its L and M bits and PWD-Exch, the EAP-pwd-ID payload, and the
 * reassembly of fragmented messages. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define EAP_PWD_EXCH_ID      1
#define EAP_PWD_EXCH_COMMIT  2
#define EAP_PWD_EXCH_CONFIRM 3

#define EAP_PWD_FLAG_L    0x80 /* Total-Length follows */
#define EAP_PWD_FLAG_M    0x40 /* more fragments follow */
#define EAP_PWD_EXCH_MASK 0x3f

/* Prep values of EAP-pwd-ID (RFC 5931 3.2.1) */
#define EAP_PWD_PREP_NONE 0

typedef struct {
	gboolean l, m;
	guint8 exch;
	guint16 total_len; /* when l */
	const guint8 *payload;
	gsize payload_len;
} EapPwdHeader;

/* Fails (G_IO_ERROR_INVALID_DATA) on an empty packet, an unknown PWD-Exch
 * and an L bit without room for Total-Length. */
gboolean eap_pwd_header_parse(const guint8 *data, gsize len, EapPwdHeader *header, GError **error);
const gchar *eap_pwd_exch_to_string(guint8 exch);

/* EAP-pwd-ID: Group Description, Random Function, PRF, Token, Prep, Identity. */
typedef struct {
	guint16 group;
	guint8 random_function;
	guint8 prf;
	guint8 token[4];
	guint8 prep;
	const guint8 *identity;
	gsize identity_len;
} EapPwdId;

#define EAP_PWD_ID_FIXED_LEN 9

gboolean eap_pwd_id_parse(const guint8 *data, gsize len, EapPwdId *id, GError **error);
void eap_pwd_id_build(GByteArray *out, const EapPwdId *id);

/* Reassembly of one message from fragments (RFC 5931 3.3). */
typedef struct {
	GByteArray *buffer; /* NULL when no fragmented message is in progress */
	guint8 exch;
	guint16 total_len;
} EapPwdReassembly;

typedef enum {
	EAP_PWD_REASSEMBLY_ERROR,
	EAP_PWD_REASSEMBLY_MORE,     /* acknowledge and wait for the next fragment */
	EAP_PWD_REASSEMBLY_COMPLETE, /* *message (owned by the caller) is whole */
} EapPwdReassemblyResult;

/* Adds a received packet. A fragmented message starts with L and M set;
 * fails on a fragment of another exchange, L in a later fragment, a
 * message longer than its Total-Length, M without L first. Total-Length is
 * an upper bound (hostapd includes the header octets in it), so a message
 * may end short of it. */
EapPwdReassemblyResult eap_pwd_reassembly_add(EapPwdReassembly *r, const EapPwdHeader *header,
                                              GBytes **message, GError **error);
void eap_pwd_reassembly_clear(EapPwdReassembly *r);

/* Appends the next fragment of message (offset *pos, advanced) that fits an
 * EAP packet of mtu octets: L and Total-Length on the first of several, M
 * on all but the last. */
void eap_pwd_fragment_next(GByteArray *out, guint8 exch, const guint8 *message, gsize len,
                           gsize *pos, gsize mtu);

G_END_DECLS
