/* mgmt.h - the few IEEE 802.11 management frames joind reads whole:
 * deauthentication and disassociation (nl80211 hands them over in
 * DEAUTHENTICATE / DISASSOCIATE events). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* IEEE 802.11-2020 9.2.4.1: the management MAC header; in the first octet
 * of frame control, the type in bits 2-3 (0: management) and the subtype
 * in bits 4-7. */
#define WIFI_MGMT_HEADER_LEN              24
#define WIFI_MGMT_FC_TYPE_MASK            0x0c
#define WIFI_MGMT_FC_SUBTYPE_MASK         0xf0
#define WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ    0x00
#define WIFI_MGMT_FC_SUBTYPE_ASSOC_RESP   0x10
#define WIFI_MGMT_FC_SUBTYPE_REASSOC_REQ  0x20
#define WIFI_MGMT_FC_SUBTYPE_REASSOC_RESP 0x30
#define WIFI_MGMT_FC_SUBTYPE_PROBE_REQ    0x40
#define WIFI_MGMT_FC_SUBTYPE_PROBE_RESP   0x50
#define WIFI_MGMT_FC_SUBTYPE_BEACON       0x80
#define WIFI_MGMT_FC_SUBTYPE_DISASSOC     0xa0
#define WIFI_MGMT_FC_SUBTYPE_AUTH         0xb0
#define WIFI_MGMT_FC_SUBTYPE_DEAUTH       0xc0

/* A little-endian 16-bit field of a frame. */
static inline guint16
wifi_mgmt_le16(const guint8 *p)
{
	return (guint16)(p[0] | (p[1] << 8));
}

#define WIFI_MGMT_ERROR (wifi_mgmt_error_quark())
GQuark wifi_mgmt_error_quark(void);
typedef enum {
	WIFI_MGMT_ERROR_MALFORMED,
} WifiMgmtError;

typedef struct {
	gboolean disassoc; /* disassociation, else deauthentication */
	guint8 da[6];
	guint8 sa[6];
	guint8 bssid[6];
	guint16 reason; /* IEEE 802.11 reason code */
} WifiMgmtLeave;

/* Parses a deauthentication or disassociation frame (the MAC header,
 * then the reason code; anything after it, e.g. vendor elements or a
 * MIC, is ignored). Fails with WIFI_MGMT_ERROR_MALFORMED on a short frame
 * or another frame type. */
gboolean wifi_mgmt_parse_leave(const guint8 *data, gsize len, WifiMgmtLeave *out, GError **error);

/* What answered our authentication or association request (nl80211 hands
 * the frame over in the AUTHENTICATE / ASSOCIATE event of a userspace
 * SME). */
typedef struct {
	gboolean assoc; /* an (re)association response, else an authentication */
	guint8 bssid[6];
	guint16 auth_algorithm; /* authentication only */
	guint16 auth_seq;       /* authentication only */
	guint16 status;         /* IEEE 802.11 status code, 0: success */
	guint16 aid;            /* association only, without the two top bits */
	const guint8 *ies;      /* the elements after the fixed fields (into the frame) */
	gsize ies_len;
} WifiMgmtAnswer;

/* Parses an authentication frame or a (re)association response: the MAC
 * header, then the fixed fields up to the status code; a response's
 * elements are pointed at, not parsed. Fails with WIFI_MGMT_ERROR_MALFORMED on a short frame or
 * another frame type. */
gboolean wifi_mgmt_parse_answer(const guint8 *data, gsize len, WifiMgmtAnswer *out, GError **error);

G_END_DECLS
