/* eap-pwd-packet.c - EAP-pwd framing, ID payloads and fragments. */
#include "eap-pwd-packet.h"

#include <string.h>

#include <gio/gio.h>

/* EAP header (4) and Type (1) around the EAP-pwd packet. */
#define EAP_PWD_EAP_OVERHEAD 5
/* Never fragment into pieces smaller than this, whatever the MTU says. */
#define EAP_PWD_MIN_FRAGMENT 8

const gchar *
eap_pwd_exch_to_string(guint8 exch)
{
	switch (exch) {
	case EAP_PWD_EXCH_ID:
		return "ID";
	case EAP_PWD_EXCH_COMMIT:
		return "Commit";
	case EAP_PWD_EXCH_CONFIRM:
		return "Confirm";
	default:
		return "unknown";
	}
}

gboolean
eap_pwd_header_parse(const guint8 *data, gsize len, EapPwdHeader *header, GError **error)
{
	gsize at = 1;

	memset(header, 0, sizeof(*header));
	if (data == NULL || len < 1) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP-pwd packet without its header octet");
		return FALSE;
	}
	header->l = (data[0] & EAP_PWD_FLAG_L) != 0;
	header->m = (data[0] & EAP_PWD_FLAG_M) != 0;
	header->exch = data[0] & EAP_PWD_EXCH_MASK;
	if (header->exch < EAP_PWD_EXCH_ID || header->exch > EAP_PWD_EXCH_CONFIRM) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP-pwd packet with unknown PWD-Exch %u", header->exch);
		return FALSE;
	}
	if (header->l) {
		if (len < 3) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "EAP-pwd packet with the L bit but no Total-Length");
			return FALSE;
		}
		header->total_len = (guint16)((data[1] << 8) | data[2]);
		at = 3;
	}
	header->payload = data + at;
	header->payload_len = len - at;
	return TRUE;
}

gboolean
eap_pwd_id_parse(const guint8 *data, gsize len, EapPwdId *id, GError **error)
{
	memset(id, 0, sizeof(*id));
	if (len < EAP_PWD_ID_FIXED_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP-pwd-ID of %zu octets is shorter than its %d fixed octets", len,
		            EAP_PWD_ID_FIXED_LEN);
		return FALSE;
	}
	id->group = (guint16)((data[0] << 8) | data[1]);
	id->random_function = data[2];
	id->prf = data[3];
	memcpy(id->token, data + 4, 4);
	id->prep = data[8];
	id->identity = data + EAP_PWD_ID_FIXED_LEN;
	id->identity_len = len - EAP_PWD_ID_FIXED_LEN;
	return TRUE;
}

void
eap_pwd_id_build(GByteArray *out, const EapPwdId *id)
{
	guint8 fixed[EAP_PWD_ID_FIXED_LEN] = {
	        (guint8)(id->group >> 8),
	        (guint8)(id->group & 0xff),
	        id->random_function,
	        id->prf,
	        id->token[0],
	        id->token[1],
	        id->token[2],
	        id->token[3],
	        id->prep,
	};

	g_byte_array_append(out, fixed, sizeof(fixed));
	if (id->identity_len > 0)
		g_byte_array_append(out, id->identity, (guint)id->identity_len);
}

static EapPwdReassemblyResult
eap_pwd_reassembly_fail(EapPwdReassembly *r, GError **error, const gchar *what)
{
	eap_pwd_reassembly_clear(r);
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "EAP-pwd fragment %s", what);
	return EAP_PWD_REASSEMBLY_ERROR;
}

/* A packet that starts a message: whole, or the first of several. */
static EapPwdReassemblyResult
eap_pwd_reassembly_first(EapPwdReassembly *r, const EapPwdHeader *h, GBytes **message,
                         GError **error)
{
	if (h->m && !h->l)
		return eap_pwd_reassembly_fail(r, error, "starts a message without Total-Length");
	if (h->l && h->total_len < h->payload_len)
		return eap_pwd_reassembly_fail(r, error, "is longer than its Total-Length");
	if (!h->m) {
		*message = g_bytes_new(h->payload, h->payload_len);
		return EAP_PWD_REASSEMBLY_COMPLETE;
	}
	if (h->payload_len == 0 || h->payload_len == h->total_len)
		return eap_pwd_reassembly_fail(r, error,
		                               "says more follow but carries all or none");
	r->buffer = g_byte_array_sized_new(h->total_len);
	r->exch = h->exch;
	r->total_len = h->total_len;
	g_byte_array_append(r->buffer, h->payload, (guint)h->payload_len);
	return EAP_PWD_REASSEMBLY_MORE;
}

EapPwdReassemblyResult
eap_pwd_reassembly_add(EapPwdReassembly *r, const EapPwdHeader *h, GBytes **message, GError **error)
{
	*message = NULL;
	if (r->buffer == NULL)
		return eap_pwd_reassembly_first(r, h, message, error);
	if (h->exch != r->exch)
		return eap_pwd_reassembly_fail(r, error, "belongs to another exchange");
	if (h->l)
		return eap_pwd_reassembly_fail(r, error, "repeats Total-Length after the first");
	if (h->payload_len == 0 || r->buffer->len + h->payload_len > r->total_len)
		return eap_pwd_reassembly_fail(r, error, "is empty or exceeds Total-Length");
	g_byte_array_append(r->buffer, h->payload, (guint)h->payload_len);
	if (h->m) {
		if (r->buffer->len == r->total_len)
			return eap_pwd_reassembly_fail(r, error, "says more follow after the last");
		return EAP_PWD_REASSEMBLY_MORE;
	}
	/* Total-Length is an upper bound: hostapd counts the 3 octets of the
	 * EAP-pwd header and Total-Length field in it, and its peer (like
	 * this one) accepts a message that ends short of it. */
	if (r->buffer->len != r->total_len)
		g_debug("EAP-pwd: message of %u octets, Total-Length said %u", r->buffer->len,
		        r->total_len);
	*message = g_byte_array_free_to_bytes(g_steal_pointer(&r->buffer));
	return EAP_PWD_REASSEMBLY_COMPLETE;
}

void
eap_pwd_reassembly_clear(EapPwdReassembly *r)
{
	if (r->buffer != NULL)
		g_byte_array_unref(g_steal_pointer(&r->buffer));
	r->exch = 0;
	r->total_len = 0;
}

void
eap_pwd_fragment_next(GByteArray *out, guint8 exch, const guint8 *message, gsize len, gsize *pos,
                      gsize mtu)
{
	gsize room = mtu > EAP_PWD_EAP_OVERHEAD + 1 ? mtu - EAP_PWD_EAP_OVERHEAD - 1 : 0;
	gsize left = len - *pos;
	/* The first of several carries Total-Length. */
	gboolean with_length = *pos == 0 && left > room;
	guint8 header = exch;
	guint8 total[2] = {(guint8)(len >> 8), (guint8)(len & 0xff)};
	gsize take;

	if (with_length)
		room = room > sizeof(total) ? room - sizeof(total) : 0;
	take = MIN(left, MAX(room, EAP_PWD_MIN_FRAGMENT));
	if (with_length)
		header |= EAP_PWD_FLAG_L;
	if (take < left)
		header |= EAP_PWD_FLAG_M;
	g_byte_array_append(out, &header, 1);
	if (with_length)
		g_byte_array_append(out, total, sizeof(total));
	if (take > 0)
		g_byte_array_append(out, message + *pos, (guint)take);
	*pos += take;
}
