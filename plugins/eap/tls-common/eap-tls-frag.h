/* eap-tls-frag.h - EAP-TLS framing (RFC 5216 section 3.1), shared by TLS,
 * PEAP and TTLS: the Flags octet, the optional TLS Message Length, and the
 * reassembly and fragmentation of TLS data across EAP packets. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define EAP_TLS_FLAG_LENGTH  0x80 /* L: a 4-octet TLS Message Length follows */
#define EAP_TLS_FLAG_MORE    0x40 /* M: more fragments follow */
#define EAP_TLS_FLAG_START   0x20 /* S: EAP-TLS Start */
#define EAP_TLS_VERSION_MASK 0x07 /* PEAP/TTLS version bits; 0 for EAP-TLS */

/* Default upper bound on a reassembled message: certificate chains are the
 * largest thing a server sends. */
#define EAP_TLS_MAX_MESSAGE (64 * 1024)

typedef struct {
	guint8 flags;
	gboolean has_length;
	guint32 tls_length; /* when has_length */
	const guint8 *data; /* the TLS data in this packet */
	gsize data_len;
} EapTlsHeader;

/* Type-Data of an EAP-TLS style packet. Fails on a missing Flags octet and
 * on L without its 4 octets. */
gboolean eap_tls_header_parse(const guint8 *data, gsize len, EapTlsHeader *header, GError **error);

typedef struct _EapTlsReassembler EapTlsReassembler;

EapTlsReassembler *eap_tls_reassembler_new(gsize max_len);
void eap_tls_reassembler_free(EapTlsReassembler *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsReassembler, eap_tls_reassembler_free)
void eap_tls_reassembler_reset(EapTlsReassembler *r);
gboolean eap_tls_reassembler_in_progress(EapTlsReassembler *r);
/* Adds one packet's data. *complete says whether a whole message is now
 * available from eap_tls_reassembler_take(); otherwise the peer expects an
 * ACK. Fails (and resets) on L/M combinations RFC 5216 forbids, lengths
 * that disagree, empty middle fragments and messages above max_len. */
gboolean eap_tls_reassembler_push(EapTlsReassembler *r, const EapTlsHeader *header,
                                  gboolean *complete, GError **error);
GBytes *eap_tls_reassembler_take(EapTlsReassembler *r);

typedef struct _EapTlsFragmenter EapTlsFragmenter;

EapTlsFragmenter *eap_tls_fragmenter_new(void);
void eap_tls_fragmenter_free(EapTlsFragmenter *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsFragmenter, eap_tls_fragmenter_free)
/* Queue a message to send (replacing anything unsent). */
void eap_tls_fragmenter_set(EapTlsFragmenter *f, GBytes *message);
gboolean eap_tls_fragmenter_pending(EapTlsFragmenter *f);
/* Appends the next packet's Type-Data (Flags with version_bits, Length on a
 * first fragment, data) to out, at most max_type_data octets (>= 16). */
void eap_tls_fragmenter_next(EapTlsFragmenter *f, gsize max_type_data, guint8 version_bits,
                             GByteArray *out);

G_END_DECLS
