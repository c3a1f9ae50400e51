/* neighbor.c - 802.11k neighbour reports (see neighbor.h). */
#include "neighbor.h"

#include <string.h>

#include "action.h"
#include "ie.h"

#define NEIGHBOR_FIXED_LEN 13 /* BSSID, BSSID Information, class, channel, PHY */
#define SUB_PREFERENCE     3
#define SUB_TERMINATION    4
#define TERMINATION_LEN    10 /* TSF (8) and duration in minutes (2) */

static guint64
le64(const guint8 *p)
{
	guint64 v = 0;

	for (guint i = 8; i-- > 0;)
		v = (v << 8) | p[i];
	return v;
}

static gboolean
malformed(GError **error, const gchar *what)
{
	g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED, "%s", what);
	return FALSE;
}

/* A subelement joind reads must have its defined length: a shorter one
 * would be read past, a longer one is something else. */
static gboolean
neighbor_subelement(WifiNeighbor *out, guint8 id, const guint8 *data, guint8 len, GError **error)
{
	if (id == SUB_PREFERENCE) {
		if (len != 1)
			return malformed(error,
			                 "A candidate preference subelement is not one octet.");
		out->has_preference = TRUE;
		out->preference = data[0];
	} else if (id == SUB_TERMINATION) {
		if (len != TERMINATION_LEN)
			return malformed(error, "A BSS termination subelement is not ten octets.");
		out->has_termination = TRUE;
		out->termination_tsf = le64(data);
		out->termination_minutes = (guint16)(data[8] | (data[9] << 8));
	}
	return TRUE;
}

gboolean
wifi_neighbor_parse(const guint8 *body, gsize len, WifiNeighbor *out, GError **error)
{
	gsize pos = NEIGHBOR_FIXED_LEN;

	if (body == NULL || len < NEIGHBOR_FIXED_LEN)
		return malformed(error, "A neighbour report is shorter than 13 octets.");
	memset(out, 0, sizeof(*out));
	memcpy(out->bssid, body, 6);
	out->info = (guint32)body[6] | (guint32)body[7] << 8 | (guint32)body[8] << 16 |
	            (guint32)body[9] << 24;
	out->op_class = body[10];
	out->channel = body[11];
	out->phy_type = body[12];
	out->freq = wifi_op_class_channel_to_freq(out->op_class, out->channel);
	while (pos < len) {
		if (len - pos < 2 || body[pos + 1] > len - pos - 2)
			return malformed(error,
			                 "A neighbour report's subelement runs past its end.");
		if (!neighbor_subelement(out, body[pos], body + pos + 2, body[pos + 1], error))
			return FALSE;
		pos += 2 + body[pos + 1];
	}
	return TRUE;
}

GArray *
wifi_neighbor_list_parse(const guint8 *data, gsize len, GError **error)
{
	g_autoptr(GArray) out = g_array_new(FALSE, TRUE, sizeof(WifiNeighbor));
	g_autoptr(GError) list_error = NULL;
	WifiIeIter iter;
	const guint8 *body;
	gsize body_len;
	guint id;

	wifi_ie_iter_init(&iter, data, len);
	while (wifi_ie_iter_next(&iter, &id, &body, &body_len, &list_error)) {
		WifiNeighbor n;

		if (id != WIFI_IE_NEIGHBOR_REPORT)
			continue;
		if (!wifi_neighbor_parse(body, body_len, &n, error))
			return NULL;
		g_array_append_val(out, n);
	}
	if (list_error != NULL) {
		g_propagate_error(error, g_steal_pointer(&list_error));
		return NULL;
	}
	return g_steal_pointer(&out);
}

guint32
wifi_op_class_channel_to_freq(guint8 op_class, guint8 channel)
{
	if (op_class >= 131 && op_class <= 137) {
		if (channel == 2)
			return 5935;
		return channel >= 1 && channel <= 233 ? 5950 + 5u * channel : 0;
	}
	if (op_class == 82 || (op_class < 81 && channel == 14))
		return channel == 14 ? 2484 : 0;
	if ((op_class >= 81 && op_class <= 84) || (op_class < 81 && channel >= 1 && channel <= 13))
		return channel >= 1 && channel <= 13 ? 2407 + 5u * channel : 0;
	if ((op_class >= 115 && op_class <= 130) || op_class < 81)
		return channel >= 32 && channel <= 177 ? 5000 + 5u * channel : 0;
	return 0;
}

GBytes *
wifi_neighbor_request_build(guint8 token, const guint8 *ssid, gsize ssid_len)
{
	GByteArray *out = g_byte_array_new();
	const guint8 head[] = {WIFI_ACTION_RADIO_MEASUREMENT, WIFI_RM_ACTION_NEIGHBOR_REQUEST,
	                       token};

	g_byte_array_append(out, head, sizeof(head));
	if (ssid != NULL) {
		const guint8 ie[] = {WIFI_IE_SSID, (guint8)MIN(ssid_len, 32)};

		g_byte_array_append(out, ie, sizeof(ie));
		g_byte_array_append(out, ssid, ie[1]);
	}
	return g_byte_array_free_to_bytes(out);
}

gboolean
wifi_neighbor_response_parse(const guint8 *body, gsize len, guint8 *token, GArray **neighbors,
                             GError **error)
{
	if (body == NULL || len < 3)
		return malformed(error, "A neighbour report response is shorter than 3 octets.");
	if (body[0] != WIFI_ACTION_RADIO_MEASUREMENT ||
	    body[1] != WIFI_RM_ACTION_NEIGHBOR_RESPONSE) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_OTHER,
		            "Action %u/%u is not a neighbour report response.", body[0], body[1]);
		return FALSE;
	}
	*token = body[2];
	*neighbors = wifi_neighbor_list_parse(body + 3, len - 3, error);
	return *neighbors != NULL;
}
