/* action.c - Action frames' MAC header (see action.h). */
#include "action.h"

#include <string.h>

/* 9.2.4.1: type 0 (management) in bits 2-3, subtype in bits 4-7: 13 is
 * Action, 14 Action No Ack. */
#define ACTION_HEADER_LEN 24
#define FC_TYPE_MASK      0x0c
#define FC_SUBTYPE_MASK   0xf0
#define FC_ACTION         0xd0
#define FC_ACTION_NO_ACK  0xe0

G_DEFINE_QUARK(wifi - action - error - quark, wifi_action_error)

gboolean
wifi_action_parse(const guint8 *data, gsize len, WifiActionFrame *out, GError **error)
{
	guint8 subtype;

	if (data == NULL || len < ACTION_HEADER_LEN + 1) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED,
		            "An action frame of %zu octets is too short.", len);
		return FALSE;
	}
	subtype = data[0] & FC_SUBTYPE_MASK;
	if ((data[0] & FC_TYPE_MASK) != 0 ||
	    (subtype != FC_ACTION && subtype != FC_ACTION_NO_ACK)) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_OTHER,
		            "Frame control 0x%02x is not an action frame.", data[0]);
		return FALSE;
	}
	memset(out, 0, sizeof(*out));
	memcpy(out->da, data + 4, 6);
	memcpy(out->sa, data + 10, 6);
	memcpy(out->bssid, data + 16, 6);
	out->category = data[ACTION_HEADER_LEN];
	out->body = data + ACTION_HEADER_LEN;
	out->body_len = len - ACTION_HEADER_LEN;
	return TRUE;
}

GBytes *
wifi_action_build(const guint8 *bssid, const guint8 *sa, const guint8 *body, gsize body_len)
{
	guint8 *frame = g_malloc0(ACTION_HEADER_LEN + body_len);

	/* Duration and sequence number are the driver's to fill. */
	frame[0] = FC_ACTION;
	memcpy(frame + 4, bssid, 6);
	memcpy(frame + 10, sa, 6);
	memcpy(frame + 16, bssid, 6);
	memcpy(frame + ACTION_HEADER_LEN, body, body_len);
	return g_bytes_new_take(frame, ACTION_HEADER_LEN + body_len);
}
