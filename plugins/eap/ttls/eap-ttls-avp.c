/* eap-ttls-avp.c - EAP-TTLS AVP encoding and decoding. */
#include "eap-ttls-avp.h"

#include <string.h>

#include <gio/gio.h>

#include "eap-mschap-message.h"
#include "joind-eap.h"

#define EAP_TTLS_AVP_HEADER_LEN 8
#define EAP_TTLS_AVP_VENDOR_LEN 4
#define EAP_TTLS_AVP_MAX_LEN    0xffffff

void
eap_ttls_avp_append(GByteArray *out, guint32 code, guint32 vendor, const guint8 *data, gsize len)
{
	static const guint8 zeros[3] = {0};
	gsize header = EAP_TTLS_AVP_HEADER_LEN + (vendor != 0 ? EAP_TTLS_AVP_VENDOR_LEN : 0);
	gsize total = header + len;
	guint8 h[12] = {
	        (guint8)(code >> 24),
	        (guint8)(code >> 16),
	        (guint8)(code >> 8),
	        (guint8)code,
	        (guint8)(EAP_TTLS_AVP_FLAG_M | (vendor != 0 ? EAP_TTLS_AVP_FLAG_V : 0)),
	        (guint8)(total >> 16),
	        (guint8)(total >> 8),
	        (guint8)total,
	        (guint8)(vendor >> 24),
	        (guint8)(vendor >> 16),
	        (guint8)(vendor >> 8),
	        (guint8)vendor,
	};

	g_return_if_fail(total <= EAP_TTLS_AVP_MAX_LEN);
	g_byte_array_append(out, h, (guint)header);
	if (len > 0)
		g_byte_array_append(out, data, (guint)len);
	g_byte_array_append(out, zeros, (guint)((4 - total % 4) % 4));
}

gboolean
eap_ttls_avp_next(const guint8 *data, gsize len, gsize *pos, EapTtlsAvp *avp, GError **error)
{
	const guint8 *p = data + *pos;
	gsize left = len - *pos, header = EAP_TTLS_AVP_HEADER_LEN, total;

	memset(avp, 0, sizeof(*avp));
	if (left < EAP_TTLS_AVP_HEADER_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "TTLS AVP header truncated (%zu octets left)", left);
		return FALSE;
	}
	avp->code = ((guint32)p[0] << 24) | ((guint32)p[1] << 16) | ((guint32)p[2] << 8) | p[3];
	avp->flags = p[4];
	total = ((gsize)p[5] << 16) | ((gsize)p[6] << 8) | p[7];
	if (avp->flags & EAP_TTLS_AVP_FLAG_V) {
		header += EAP_TTLS_AVP_VENDOR_LEN;
		if (left < header) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "TTLS AVP %u without room for its Vendor-ID", avp->code);
			return FALSE;
		}
		avp->vendor = ((guint32)p[8] << 24) | ((guint32)p[9] << 16) |
		              ((guint32)p[10] << 8) | p[11];
		if (avp->vendor == 0) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "TTLS AVP %u with the V bit and Vendor-ID 0", avp->code);
			return FALSE;
		}
	}
	if (total < header || total > left) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "TTLS AVP %u with length %zu (header %zu, %zu octets left)", avp->code,
		            total, header, left);
		return FALSE;
	}
	avp->data = p + header;
	avp->len = total - header;
	*pos += MIN(left, total + (4 - total % 4) % 4);
	return TRUE;
}

static gboolean
eap_ttls_avp_take(EapTtlsAvps *avps, const EapTtlsAvp *avp, GError **error)
{
	if (avp->vendor == 0 && avp->code == EAP_TTLS_AVP_EAP_MESSAGE) {
		if (avps->eap_message == NULL)
			avps->eap_message = g_byte_array_new();
		g_byte_array_append(avps->eap_message, avp->data, (guint)avp->len);
	} else if (avp->vendor == 0 && avp->code == EAP_TTLS_AVP_REPLY_MESSAGE) {
		g_free(avps->reply_message);
		avps->reply_message = joind_eap_sanitize_text(avp->data, avp->len);
	} else if (avp->vendor == EAP_TTLS_VENDOR_MICROSOFT &&
	           avp->code == EAP_TTLS_MS_CHAP2_SUCCESS) {
		g_clear_pointer(&avps->ms_chap2_success, g_bytes_unref);
		avps->ms_chap2_success = g_bytes_new(avp->data, avp->len);
	} else if (avp->vendor == EAP_TTLS_VENDOR_MICROSOFT &&
	           avp->code == EAP_TTLS_MS_CHAP_ERROR) {
		g_clear_pointer(&avps->ms_chap_error, g_bytes_unref);
		avps->ms_chap_error = g_bytes_new(avp->data, avp->len);
	} else if (avp->flags & EAP_TTLS_AVP_FLAG_M) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "mandatory TTLS AVP %u (vendor %u) is not supported", avp->code,
		            avp->vendor);
		return FALSE;
	}
	return TRUE;
}

gboolean
eap_ttls_avps_parse(const guint8 *data, gsize len, EapTtlsAvps *avps, GError **error)
{
	gsize pos = 0;

	memset(avps, 0, sizeof(*avps));
	while (pos < len) {
		EapTtlsAvp avp;

		if (!eap_ttls_avp_next(data, len, &pos, &avp, error) ||
		    !eap_ttls_avp_take(avps, &avp, error)) {
			eap_ttls_avps_clear(avps);
			return FALSE;
		}
	}
	return TRUE;
}

void
eap_ttls_avps_clear(EapTtlsAvps *avps)
{
	if (avps->eap_message != NULL)
		g_byte_array_unref(g_steal_pointer(&avps->eap_message));
	g_clear_pointer(&avps->reply_message, g_free);
	g_clear_pointer(&avps->ms_chap2_success, g_bytes_unref);
	g_clear_pointer(&avps->ms_chap_error, g_bytes_unref);
}
