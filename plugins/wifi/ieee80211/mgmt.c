/* mgmt.c - deauthentication / disassociation frames (see mgmt.h). */
#include "mgmt.h"

#include <string.h>

G_DEFINE_QUARK(wifi - mgmt - error - quark, wifi_mgmt_error)

gboolean
wifi_mgmt_parse_leave(const guint8 *data, gsize len, WifiMgmtLeave *out, GError **error)
{
	guint8 subtype;

	if (data == NULL || len < WIFI_MGMT_HEADER_LEN + 2) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "A deauthentication frame of %zu octets is too short.", len);
		return FALSE;
	}
	subtype = data[0] & WIFI_MGMT_FC_SUBTYPE_MASK;
	if ((data[0] & WIFI_MGMT_FC_TYPE_MASK) != 0 ||
	    (subtype != WIFI_MGMT_FC_SUBTYPE_DEAUTH && subtype != WIFI_MGMT_FC_SUBTYPE_DISASSOC)) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "Frame control 0x%02x is neither a deauthentication nor a "
		            "disassociation.",
		            data[0]);
		return FALSE;
	}
	memset(out, 0, sizeof(*out));
	out->disassoc = subtype == WIFI_MGMT_FC_SUBTYPE_DISASSOC;
	memcpy(out->da, data + 4, 6);
	memcpy(out->sa, data + 10, 6);
	memcpy(out->bssid, data + 16, 6);
	out->reason = (guint16)(data[WIFI_MGMT_HEADER_LEN] | (data[WIFI_MGMT_HEADER_LEN + 1] << 8));
	return TRUE;
}

gboolean
wifi_mgmt_parse_answer(const guint8 *data, gsize len, WifiMgmtAnswer *out, GError **error)
{
	guint8 subtype;
	gboolean assoc;

	if (data == NULL || len < WIFI_MGMT_HEADER_LEN) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "A management frame of %zu octets is too short.", len);
		return FALSE;
	}
	subtype = data[0] & WIFI_MGMT_FC_SUBTYPE_MASK;
	assoc = subtype == WIFI_MGMT_FC_SUBTYPE_ASSOC_RESP ||
	        subtype == WIFI_MGMT_FC_SUBTYPE_REASSOC_RESP;
	if ((data[0] & WIFI_MGMT_FC_TYPE_MASK) != 0 ||
	    (!assoc && subtype != WIFI_MGMT_FC_SUBTYPE_AUTH)) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "Frame control 0x%02x is neither an authentication nor an "
		            "association response.",
		            data[0]);
		return FALSE;
	}
	/* IEEE 802.11-2020 9.3.3.12: algorithm, sequence, status (6 octets);
	 * 9.3.3.7: capabilities, status, AID (6 octets). */
	if (len < WIFI_MGMT_HEADER_LEN + 6) {
		g_set_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
		            "An %s frame of %zu octets has no status code.",
		            assoc ? "association response" : "authentication", len);
		return FALSE;
	}
	memset(out, 0, sizeof(*out));
	out->assoc = assoc;
	memcpy(out->bssid, data + 16, 6);
	data += WIFI_MGMT_HEADER_LEN;
	if (assoc) {
		out->status = wifi_mgmt_le16(data + 2);
		out->aid = wifi_mgmt_le16(data + 4) & 0x3fff;
		out->ies = data + 6;
		out->ies_len = len - WIFI_MGMT_HEADER_LEN - 6;
	} else {
		out->auth_algorithm = wifi_mgmt_le16(data);
		out->auth_seq = wifi_mgmt_le16(data + 2);
		out->status = wifi_mgmt_le16(data + 4);
		/* What follows the status: FT's elements (SAE's own fields). */
		out->ies = data + 6;
		out->ies_len = len - WIFI_MGMT_HEADER_LEN - 6;
	}
	return TRUE;
}
