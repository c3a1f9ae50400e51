/* mgmt-request.c - a station's requests to an access point, and the
 * access point's answers (see mgmt-request.h). */
#include "mgmt-request.h"

#include <string.h>

#include "ie.h"
#include "mgmt.h"

static gboolean malformed(GError **error, const gchar *format, ...) G_GNUC_PRINTF(2, 3);

static gboolean
malformed(GError **error, const gchar *format, ...)
{
	va_list args;

	if (error == NULL)
		return FALSE;
	va_start(args, format);
	g_propagate_error(error, g_error_new_valist(WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED,
	                                            format, args));
	va_end(args);
	return FALSE;
}

/* The octets of fixed fields before the elements, by kind. */
static gsize
fixed_len(WifiMgmtRequestKind kind)
{
	switch (kind) {
	case WIFI_MGMT_REQUEST_AUTH:
		return 6; /* algorithm, sequence, status */
	case WIFI_MGMT_REQUEST_ASSOC:
		return 4; /* capabilities, listen interval */
	case WIFI_MGMT_REQUEST_REASSOC:
		return 10; /* and the current AP's address */
	default:
		return 0;
	}
}

static gboolean
request_kind(guint8 fc, WifiMgmtRequestKind *kind)
{
	if ((fc & WIFI_MGMT_FC_TYPE_MASK) != 0)
		return FALSE;
	switch (fc & WIFI_MGMT_FC_SUBTYPE_MASK) {
	case WIFI_MGMT_FC_SUBTYPE_PROBE_REQ:
		*kind = WIFI_MGMT_REQUEST_PROBE;
		return TRUE;
	case WIFI_MGMT_FC_SUBTYPE_AUTH:
		*kind = WIFI_MGMT_REQUEST_AUTH;
		return TRUE;
	case WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ:
		*kind = WIFI_MGMT_REQUEST_ASSOC;
		return TRUE;
	case WIFI_MGMT_FC_SUBTYPE_REASSOC_REQ:
		*kind = WIFI_MGMT_REQUEST_REASSOC;
		return TRUE;
	default:
		return FALSE;
	}
}

static gboolean
take_once(const guint8 **where, gsize *where_len, const guint8 *element, gsize len,
          const gchar *what, GError **error)
{
	if (*where != NULL)
		return malformed(error, "The request names its %s twice.", what);
	*where = element;
	*where_len = len;
	return TRUE;
}

static void
take_rates(WifiMgmtRequest *out, const guint8 *body, gsize len)
{
	for (gsize i = 0; i < len && out->n_rates < G_N_ELEMENTS(out->rates); i++)
		out->rates[out->n_rates++] = body[i];
}

/* The elements a probe or (re)association request is judged by. */
static gboolean
parse_elements(WifiMgmtRequest *out, GError **error)
{
	g_autoptr(GError) local = NULL;
	const guint8 *body;
	gsize body_len;
	WifiIeIter it;
	guint id;

	wifi_ie_iter_init(&it, out->body, out->body_len);
	while (wifi_ie_iter_next(&it, &id, &body, &body_len, &local)) {
		const guint8 *whole = body - 2;

		if (id == WIFI_IE_SSID) {
			if (out->has_ssid || body_len > 32)
				return malformed(error, "The request's SSID element is repeated or "
				                        "longer than 32 octets.");
			out->has_ssid = TRUE;
			out->ssid = body;
			out->ssid_len = body_len;
		} else if (id == WIFI_IE_RSN && !take_once(&out->rsne, &out->rsne_len, whole,
		                                           body_len + 2, "RSNE", error)) {
			return FALSE;
		} else if (id == WIFI_IE_RSNX && !take_once(&out->rsnxe, &out->rsnxe_len, whole,
		                                            body_len + 2, "RSNXE", error)) {
			return FALSE;
		} else if (id == WIFI_IE_SUPPORTED_RATES || id == WIFI_IE_EXT_SUPPORTED_RATES) {
			take_rates(out, body, body_len);
		}
	}
	if (local != NULL)
		return malformed(error, "The request's elements do not parse: %s", local->message);
	return TRUE;
}

gboolean
wifi_mgmt_parse_request(const guint8 *data, gsize len, WifiMgmtRequest *out, GError **error)
{
	const guint8 *fixed;

	memset(out, 0, sizeof(*out));
	if (data == NULL || len < WIFI_MGMT_HEADER_LEN)
		return malformed(error, "A management frame of %zu octets is too short.", len);
	if (!request_kind(data[0], &out->kind))
		return malformed(error, "Frame control 0x%02x is not a station's request.",
		                 data[0]);
	if (len < WIFI_MGMT_HEADER_LEN + fixed_len(out->kind))
		return malformed(error, "A request of %zu octets lacks its fixed fields.", len);
	memcpy(out->da, data + 4, 6);
	memcpy(out->sa, data + 10, 6);
	memcpy(out->bssid, data + 16, 6);
	fixed = data + WIFI_MGMT_HEADER_LEN;
	out->body = fixed + fixed_len(out->kind);
	out->body_len = len - WIFI_MGMT_HEADER_LEN - fixed_len(out->kind);
	if (out->kind == WIFI_MGMT_REQUEST_AUTH) {
		out->auth_algorithm = wifi_mgmt_le16(fixed);
		out->auth_seq = wifi_mgmt_le16(fixed + 2);
		out->status = wifi_mgmt_le16(fixed + 4);
		return TRUE;
	}
	if (out->kind != WIFI_MGMT_REQUEST_PROBE) {
		out->capabilities = wifi_mgmt_le16(fixed);
		out->listen_interval = wifi_mgmt_le16(fixed + 2);
	}
	if (out->kind == WIFI_MGMT_REQUEST_REASSOC)
		memcpy(out->current_ap, fixed + 4, 6);
	return parse_elements(out, error);
}

static GByteArray *
frame_start(guint8 subtype, const guint8 bssid[6], const guint8 da[6])
{
	GByteArray *out = g_byte_array_sized_new(128);
	guint8 h[WIFI_MGMT_HEADER_LEN] = {0};

	h[0] = subtype;
	memcpy(h + 4, da, 6);
	memcpy(h + 10, bssid, 6);
	memcpy(h + 16, bssid, 6);
	g_byte_array_append(out, h, sizeof(h));
	return out;
}

static void
append_le16(GByteArray *out, guint16 v)
{
	guint8 b[2] = {(guint8)(v & 0xff), (guint8)(v >> 8)};

	g_byte_array_append(out, b, 2);
}

GBytes *
wifi_mgmt_build_auth(const guint8 bssid[6], const guint8 da[6], guint16 algorithm, guint16 seq,
                     guint16 status, const guint8 *body, gsize body_len)
{
	GByteArray *out = frame_start(WIFI_MGMT_FC_SUBTYPE_AUTH, bssid, da);

	append_le16(out, algorithm);
	append_le16(out, seq);
	append_le16(out, status);
	if (body != NULL && body_len > 0)
		g_byte_array_append(out, body, (guint)body_len);
	return g_byte_array_free_to_bytes(out);
}

GBytes *
wifi_mgmt_build_assoc_resp(const guint8 bssid[6], const guint8 da[6], gboolean reassoc,
                           guint16 capabilities, guint16 status, guint16 aid, const guint8 *ies,
                           gsize ies_len)
{
	GByteArray *out = frame_start(reassoc ? WIFI_MGMT_FC_SUBTYPE_REASSOC_RESP
	                                      : WIFI_MGMT_FC_SUBTYPE_ASSOC_RESP,
	                              bssid, da);

	append_le16(out, capabilities);
	append_le16(out, status);
	append_le16(out, (guint16)(aid | 0xc000));
	if (ies != NULL && ies_len > 0)
		g_byte_array_append(out, ies, (guint)ies_len);
	return g_byte_array_free_to_bytes(out);
}

GBytes *
wifi_mgmt_build_leave(const guint8 bssid[6], const guint8 da[6], gboolean disassoc, guint16 reason)
{
	GByteArray *out = frame_start(
	        disassoc ? WIFI_MGMT_FC_SUBTYPE_DISASSOC : WIFI_MGMT_FC_SUBTYPE_DEAUTH, bssid, da);

	append_le16(out, reason);
	return g_byte_array_free_to_bytes(out);
}
