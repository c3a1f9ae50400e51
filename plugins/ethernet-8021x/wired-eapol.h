/* wired-eapol.h - EAPOL frames (IEEE 802.1X-2010 clause 11) on Ethernet.
 *
 * Only the framing: the Ethernet header (destination, source, EtherType
 * 0x888E), the EAPOL header (protocol version, packet type, body length)
 * and the body. What the body means is the PAE's business (wired-pae.c).
 * Frames over veth are not padded to 60 octets while frames on real
 * Ethernet are, so parsing goes by the EAPOL body length, never by the
 * frame length.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIRED_ETH_ALEN   6
#define WIRED_ETH_HLEN   14
#define WIRED_ETH_P_PAE  0x888E
#define WIRED_EAPOL_HLEN 4
/* The version we send: 802.1X-2004. Version 3 (2010) only adds MKA and
 * announcements, which this supplicant does not speak. */
#define WIRED_EAPOL_VERSION 2

/* Packet types (802.1X-2010 Table 11-3). */
typedef enum {
	WIRED_EAPOL_EAP = 0,
	WIRED_EAPOL_START = 1,
	WIRED_EAPOL_LOGOFF = 2,
	WIRED_EAPOL_KEY = 3,
	WIRED_EAPOL_ASF_ALERT = 4,
	WIRED_EAPOL_MKA = 5,
	WIRED_EAPOL_ANNOUNCEMENT_GENERIC = 6,
	WIRED_EAPOL_ANNOUNCEMENT_SPECIFIC = 7,
	WIRED_EAPOL_ANNOUNCEMENT_REQ = 8,
} WiredEapolType;

/* The PAE group address 01:80:c2:00:00:03 (Table 11-1). */
extern const guint8 wired_eapol_pae_group[WIRED_ETH_ALEN];

#define WIRED_EAPOL_ERROR (wired_eapol_error_quark())
GQuark wired_eapol_error_quark(void);

typedef enum {
	WIRED_EAPOL_ERROR_TRUNCATED,  /* shorter than its headers or its length field */
	WIRED_EAPOL_ERROR_ETHERTYPE,  /* not 0x888E */
	WIRED_EAPOL_ERROR_VERSION,    /* protocol version 0 */
	WIRED_EAPOL_ERROR_EAP_LENGTH, /* EAP packet body shorter than its own length */
} WiredEapolError;

/* A parsed EAPOL PDU; body points into the parsed buffer. */
typedef struct {
	guint8 version;
	guint8 type; /* WiredEapolType, or an unknown value the PAE ignores */
	const guint8 *body;
	gsize body_len; /* from the length field; padding after it is dropped */
} WiredEapolPdu;

typedef struct {
	guint8 dst[WIRED_ETH_ALEN];
	guint8 src[WIRED_ETH_ALEN];
	WiredEapolPdu pdu;
} WiredEapolFrame;

/* The EAPOL PDU alone (what follows the Ethernet header). For type EAP the
 * body must also hold the EAP header and the whole EAP packet its Length
 * field announces. */
gboolean wired_eapol_parse(const guint8 *data, gsize len, WiredEapolPdu *pdu, GError **error);
/* A whole Ethernet frame carrying EAPOL. An 802.1Q tag is not expected here:
 * the kernel strips it before a packet socket bound to ETH_P_PAE sees it. */
gboolean wired_eapol_parse_frame(const guint8 *data, gsize len, WiredEapolFrame *frame,
                                 GError **error);
/* Builds an Ethernet frame: dst, src, 0x888E, version WIRED_EAPOL_VERSION,
 * type, body. body_len must fit the 16-bit length field. */
GByteArray *wired_eapol_build_frame(const guint8 *dst, const guint8 *src, guint8 type,
                                    const guint8 *body, gsize body_len);

const gchar *wired_eapol_type_to_string(guint8 type);
/* "aa:bb:cc:dd:ee:ff" -> 6 octets; FALSE for anything else. */
gboolean wired_eapol_parse_address(const gchar *text, guint8 *address);

G_END_DECLS
