/* mgmt.c - deauthentication / disassociation frames (see mgmt.h). */
#include "mgmt.h"

#include <string.h>

/* IEEE 802.11-2020 9.2.4.1: frame control, type in bits 2-3 (0:
 * management), subtype in bits 4-7. */
#define MGMT_HEADER_LEN     24
#define FC_TYPE_MASK        0x0c
#define FC_SUBTYPE_MASK     0xf0
#define FC_SUBTYPE_DISASSOC 0xa0
#define FC_SUBTYPE_DEAUTH   0xc0

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
