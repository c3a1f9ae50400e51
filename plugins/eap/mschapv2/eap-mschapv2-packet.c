/* eap-mschapv2-packet.c - EAP-MSCHAPv2 Type-Data parsing and building. */
#include "eap-mschapv2-packet.h"

#include <string.h>

#include <gio/gio.h>

static gboolean
eap_mschapv2_parse_challenge(const guint8 *data, gsize len, EapMschapv2Request *request,
                             GError **error)
{
	const gsize value_at = EAP_MSCHAPV2_HEADER_LEN + 1;

	if (len < value_at + EAP_MSCHAP_CHALLENGE_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "MS-CHAPv2 Challenge of %zu octets is too short for a 16-octet "
		            "challenge",
		            len);
		return FALSE;
	}
	if (data[EAP_MSCHAPV2_HEADER_LEN] != EAP_MSCHAP_CHALLENGE_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "MS-CHAPv2 Challenge with Value-Size %u (must be 16)",
		            data[EAP_MSCHAPV2_HEADER_LEN]);
		return FALSE;
	}
	request->challenge = data + value_at;
	request->name = data + value_at + EAP_MSCHAP_CHALLENGE_LEN;
	request->name_len = len - value_at - EAP_MSCHAP_CHALLENGE_LEN;
	return TRUE;
}

gboolean
eap_mschapv2_request_parse(const guint8 *data, gsize len, EapMschapv2Request *request,
                           GError **error)
{
	memset(request, 0, sizeof(*request));
	if (data == NULL || len < EAP_MSCHAPV2_HEADER_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "MS-CHAPv2 Request of %zu octets is shorter than its 4-octet header",
		            len);
		return FALSE;
	}
	request->op_code = data[0];
	request->ms_id = data[1];
	request->ms_length = (guint16)((data[2] << 8) | data[3]);
	if (request->ms_length != len)
		g_debug("MS-CHAPv2 MS-Length %u disagrees with the %zu octets received; using "
		        "the EAP length",
		        request->ms_length, len);
	switch (request->op_code) {
	case EAP_MSCHAPV2_OP_CHALLENGE:
		return eap_mschapv2_parse_challenge(data, len, request, error);
	case EAP_MSCHAPV2_OP_SUCCESS:
	case EAP_MSCHAPV2_OP_FAILURE:
		request->message = data + EAP_MSCHAPV2_HEADER_LEN;
		request->message_len = len - EAP_MSCHAPV2_HEADER_LEN;
		return TRUE;
	default:
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "MS-CHAPv2 OpCode %u is not one a server sends", request->op_code);
		return FALSE;
	}
}

void
eap_mschapv2_response_build(GByteArray *out, guint8 ms_id,
                            const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                            const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN], const gchar *name)
{
	static const guint8 reserved[8] = {0};
	gsize name_len = strlen(name);
	gsize ms_length = EAP_MSCHAPV2_HEADER_LEN + 1 + EAP_MSCHAPV2_RESPONSE_VALUE_LEN + name_len;
	guint8 header[EAP_MSCHAPV2_HEADER_LEN + 1];
	guint8 flags = 0;

	/* An EAP packet is at most 65535 octets; the caller bounds the name. */
	g_return_if_fail(ms_length <= G_MAXUINT16);
	header[0] = EAP_MSCHAPV2_OP_RESPONSE;
	header[1] = ms_id;
	header[2] = (guint8)(ms_length >> 8);
	header[3] = (guint8)(ms_length & 0xff);
	header[4] = EAP_MSCHAPV2_RESPONSE_VALUE_LEN;
	g_byte_array_append(out, header, sizeof(header));
	g_byte_array_append(out, peer_challenge, EAP_MSCHAP_CHALLENGE_LEN);
	g_byte_array_append(out, reserved, sizeof(reserved));
	g_byte_array_append(out, nt_response, EAP_MSCHAP_NT_RESPONSE_LEN);
	g_byte_array_append(out, &flags, 1);
	g_byte_array_append(out, (const guint8 *)name, (guint)name_len);
}
