/* eap-mschapv2-packet.c - EAP-MSCHAPv2 Type-Data parsing and building. */
#include "eap-mschapv2-packet.h"

#include <string.h>

#include <gio/gio.h>

#define EAP_MSCHAPV2_TEXT_MAX 200

gchar *
eap_mschapv2_sanitize(const guint8 *data, gsize len)
{
	g_autofree gchar *valid = g_utf8_make_valid((const gchar *)data, (gssize)len);
	GString *out = g_string_new(NULL);

	for (const gchar *p = valid; *p != '\0' && out->len < EAP_MSCHAPV2_TEXT_MAX;
	     p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (g_unichar_isprint(c) && c != '"')
			g_string_append_unichar(out, c);
		else
			g_string_append_c(out, c == '"' ? '\'' : '?');
	}
	return g_string_free(out, FALSE);
}

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

gboolean
eap_mschapv2_success_parse(const guint8 *message, gsize len, const gchar **auth_response,
                           gchar **text, GError **error)
{
	const gchar *m = (const gchar *)message;

	*auth_response = NULL;
	*text = NULL;
	if (len < EAP_MSCHAP_AUTH_RESPONSE_LEN || m[0] != 'S' || m[1] != '=') {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "MS-CHAPv2 Success without an \"S=\" authenticator response");
		return FALSE;
	}
	for (gsize i = 2; i < EAP_MSCHAP_AUTH_RESPONSE_LEN; i++) {
		if (!g_ascii_isxdigit(m[i])) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "MS-CHAPv2 Success with a malformed authenticator response");
			return FALSE;
		}
	}
	*auth_response = m;
	m += EAP_MSCHAP_AUTH_RESPONSE_LEN;
	len -= EAP_MSCHAP_AUTH_RESPONSE_LEN;
	/* Some servers end the message with a NUL; it is not text. */
	while (len > 0 && m[len - 1] == '\0')
		len--;
	if (len == 0)
		return TRUE;
	if (len >= 3 && m[0] == ' ' && m[1] == 'M' && m[2] == '=') {
		*text = eap_mschapv2_sanitize((const guint8 *)m + 3, len - 3);
		return TRUE;
	}
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
	            "MS-CHAPv2 Success with unexpected text after the authenticator response");
	return FALSE;
}

static gboolean
eap_mschapv2_parse_decimal(const gchar *s, gsize len, guint *value)
{
	guint64 v = 0;

	if (len == 0 || len > 10)
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (!g_ascii_isdigit(s[i]))
			return FALSE;
		v = v * 10 + (guint)(s[i] - '0');
	}
	if (v > G_MAXUINT)
		return FALSE;
	*value = (guint)v;
	return TRUE;
}

static gboolean
eap_mschapv2_failure_field(const gchar *tok, gsize tok_len, EapMschapv2Failure *failure)
{
	const gchar *v = tok + 2;
	gsize v_len = tok_len - 2;

	switch (tok[0]) {
	case 'E':
		return eap_mschapv2_parse_decimal(v, v_len, &failure->error_code);
	case 'R':
		if (v_len != 1 || (v[0] != '0' && v[0] != '1'))
			return FALSE;
		failure->retry = v[0] == '1';
		return TRUE;
	case 'C':
		if (v_len != 2 * EAP_MSCHAP_CHALLENGE_LEN)
			return FALSE;
		for (gsize i = 0; i < EAP_MSCHAP_CHALLENGE_LEN; i++) {
			gint hi = g_ascii_xdigit_value(v[2 * i]);
			gint lo = g_ascii_xdigit_value(v[2 * i + 1]);
			if (hi < 0 || lo < 0)
				return FALSE;
			failure->challenge[i] = (guint8)((hi << 4) | lo);
		}
		failure->has_challenge = TRUE;
		return TRUE;
	case 'V':
		return eap_mschapv2_parse_decimal(v, v_len, &failure->version);
	default:
		/* Unknown fields are skipped, as RFC 2759 expects of extensions. */
		return TRUE;
	}
}

gboolean
eap_mschapv2_failure_parse(const guint8 *message, gsize len, EapMschapv2Failure *failure,
                           GError **error)
{
	const gchar *pos = (const gchar *)message;
	const gchar *end = pos + len;

	memset(failure, 0, sizeof(*failure));
	while (end > pos && end[-1] == '\0')
		end--;
	while (pos < end) {
		const gchar *space;
		gsize tok_len;

		if (end - pos >= 2 && pos[0] == 'M' && pos[1] == '=') {
			failure->text = eap_mschapv2_sanitize((const guint8 *)pos + 2,
			                                      (gsize)(end - pos - 2));
			break;
		}
		space = memchr(pos, ' ', (gsize)(end - pos));
		tok_len = (gsize)((space != NULL ? space : end) - pos);
		if (tok_len < 2 || pos[1] != '=' ||
		    !eap_mschapv2_failure_field(pos, tok_len, failure)) {
			g_autofree gchar *tok = eap_mschapv2_sanitize((const guint8 *)pos, tok_len);
			eap_mschapv2_failure_clear(failure);
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "MS-CHAPv2 Failure with a malformed field \"%s\"", tok);
			return FALSE;
		}
		pos += tok_len;
		while (pos < end && *pos == ' ')
			pos++;
	}
	return TRUE;
}

void
eap_mschapv2_failure_clear(EapMschapv2Failure *failure)
{
	g_clear_pointer(&failure->text, g_free);
}

static const gchar *
eap_mschapv2_error_meaning(guint code)
{
	/* RFC 2759 section 6 */
	switch (code) {
	case 646:
		return "the account may not log on at this time of day (E=646)";
	case 647:
		return "the account is disabled (E=647)";
	case 648:
		return "the password has expired and must be changed (E=648); joind cannot "
		       "change it over MS-CHAPv2, change it another way and try again";
	case 649:
		return "the account has no permission to connect (E=649)";
	case 691:
		return "the user name or password is wrong (E=691)";
	case 709:
		return "changing the password failed (E=709)";
	default:
		return NULL;
	}
}

gchar *
eap_mschapv2_failure_describe(const EapMschapv2Failure *failure)
{
	const gchar *meaning = eap_mschapv2_error_meaning(failure->error_code);
	GString *s = g_string_new("The MS-CHAPv2 server refused: ");

	if (meaning != NULL)
		g_string_append(s, meaning);
	else if (failure->error_code != 0)
		g_string_append_printf(s, "error %u", failure->error_code);
	else
		g_string_append(s, "no reason given");
	if (failure->retry)
		g_string_append(s, "; it would accept another attempt");
	g_string_append_c(s, '.');
	if (failure->text != NULL && *failure->text != '\0')
		g_string_append_printf(s, " It said: \"%s\".", failure->text);
	return g_string_free(s, FALSE);
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
