/* eap-mschap-message.c - the text messages of MS-CHAPv2 Success and
 * Failure (RFC 2759 sections 5 and 6). */
#include "eap-mschap-message.h"

#include <string.h>

#include <gio/gio.h>

#include "joind-eap.h"

gboolean
eap_mschap_success_parse(const guint8 *message, gsize len, const gchar **auth_response,
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
		*text = joind_eap_sanitize_text((const guint8 *)m + 3, len - 3);
		return TRUE;
	}
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
	            "MS-CHAPv2 Success with unexpected text after the authenticator response");
	return FALSE;
}

static gboolean
eap_mschap_parse_decimal(const gchar *s, gsize len, guint *value)
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
eap_mschap_failure_field(const gchar *tok, gsize tok_len, EapMschapFailure *failure)
{
	const gchar *v = tok + 2;
	gsize v_len = tok_len - 2;

	switch (tok[0]) {
	case 'E':
		return eap_mschap_parse_decimal(v, v_len, &failure->error_code);
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
		return eap_mschap_parse_decimal(v, v_len, &failure->version);
	default:
		/* Unknown fields are skipped, as RFC 2759 expects of extensions. */
		return TRUE;
	}
}

gboolean
eap_mschap_failure_parse(const guint8 *message, gsize len, EapMschapFailure *failure,
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
			failure->text = joind_eap_sanitize_text((const guint8 *)pos + 2,
			                                        (gsize)(end - pos - 2));
			break;
		}
		space = memchr(pos, ' ', (gsize)(end - pos));
		tok_len = (gsize)((space != NULL ? space : end) - pos);
		if (tok_len < 2 || pos[1] != '=' ||
		    !eap_mschap_failure_field(pos, tok_len, failure)) {
			g_autofree gchar *tok =
			        joind_eap_sanitize_text((const guint8 *)pos, tok_len);
			eap_mschap_failure_clear(failure);
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
eap_mschap_failure_clear(EapMschapFailure *failure)
{
	g_clear_pointer(&failure->text, g_free);
}

static const gchar *
eap_mschap_error_meaning(guint code)
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
eap_mschap_failure_describe(const EapMschapFailure *failure)
{
	const gchar *meaning = eap_mschap_error_meaning(failure->error_code);
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
