/* mgmt.c - deauthentication / disassociation frames (see mgmt.h). */
#include "mgmt.h"

#include <string.h>

/* IEEE 802.11-2020 9.2.4.1: frame control, type in bits 2-3 (0:
 * management), subtype in bits 4-7. */
#define MGMT_HEADER_LEN         24
#define FC_TYPE_MASK            0x0c
#define FC_SUBTYPE_MASK         0xf0
#define FC_SUBTYPE_DISASSOC     0xa0
#define FC_SUBTYPE_DEAUTH       0xc0
#define FC_SUBTYPE_ASSOC_RESP   0x10
#define FC_SUBTYPE_REASSOC_RESP 0x30
#define FC_SUBTYPE_AUTH         0xb0

G_DEFINE_QUARK(wifi - mgmt - error - quark, wifi_mgmt_error)

gboolean
wifi_mgmt_parse_leave(const guint8 *data, gsize len, WifiMgmtLeave *out, GError **error)
{
	guint8 subtype;

	if (data == NULL || len < MGMT_HEADER_LEN + 2) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "A deauthentication frame of %zu octets is too short.", len);
		return FALSE;
	}
	subtype = data[0] & FC_SUBTYPE_MASK;
	if ((data[0] & FC_TYPE_MASK) != 0 ||
	    (subtype != FC_SUBTYPE_DEAUTH && subtype != FC_SUBTYPE_DISASSOC)) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "Frame control 0x%02x is neither a deauthentication nor a "
		            "disassociation.",
		            data[0]);
		return FALSE;
	}
	memset(out, 0, sizeof(*out));
	out->disassoc = subtype == FC_SUBTYPE_DISASSOC;
	memcpy(out->da, data + 4, 6);
	memcpy(out->sa, data + 10, 6);
	memcpy(out->bssid, data + 16, 6);
	out->reason = (guint16)(data[MGMT_HEADER_LEN] | (data[MGMT_HEADER_LEN + 1] << 8));
	return TRUE;
}

static guint16
le16(const guint8 *p)
{
	return (guint16)(p[0] | (p[1] << 8));
}

gboolean
wifi_mgmt_parse_answer(const guint8 *data, gsize len, WifiMgmtAnswer *out, GError **error)
{
	guint8 subtype;
	gboolean assoc;

	if (data == NULL || len < MGMT_HEADER_LEN) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "A management frame of %zu octets is too short.", len);
		return FALSE;
	}
	subtype = data[0] & FC_SUBTYPE_MASK;
	assoc = subtype == FC_SUBTYPE_ASSOC_RESP || subtype == FC_SUBTYPE_REASSOC_RESP;
	if ((data[0] & FC_TYPE_MASK) != 0 || (!assoc && subtype != FC_SUBTYPE_AUTH)) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "Frame control 0x%02x is neither an authentication nor an "
		            "association response.",
		            data[0]);
		return FALSE;
	}
	/* IEEE 802.11-2020 9.3.3.12: algorithm, sequence, status (6 octets);
	 * 9.3.3.7: capabilities, status, AID (6 octets). */
	if (len < MGMT_HEADER_LEN + 6) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "An %s frame of %zu octets has no status code.",
		            assoc ? "association response" : "authentication", len);
		return FALSE;
	}
	memset(out, 0, sizeof(*out));
	out->assoc = assoc;
	memcpy(out->bssid, data + 16, 6);
	data += MGMT_HEADER_LEN;
	if (assoc) {
		out->status = le16(data + 2);
		out->aid = le16(data + 4) & 0x3fff;
		out->ies = data + 6;
		out->ies_len = len - MGMT_HEADER_LEN - 6;
	} else {
		out->auth_algorithm = le16(data);
		out->auth_seq = le16(data + 2);
		out->status = le16(data + 4);
	}
	return TRUE;
}
