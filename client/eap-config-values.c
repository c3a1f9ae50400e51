/* eap-config-values.c - the values of eap-config elements, checked, and
 * what a parsed file must hold: a provider with methods that say their
 * EAP type, and somewhere they apply.
 */
#include "eap-config-private.h"

#include <string.h>

static gboolean G_GNUC_PRINTF(2, 3) invalid(GError **error, const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error_literal(error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, message);
	return FALSE;
}

gboolean
eap_config_value_type(const gchar *text, guint *type, GError **error)
{
	g_autofree gchar *trimmed = g_strstrip(g_strdup(text));
	guint64 value = 0;

	if (!g_ascii_string_to_unsigned(trimmed, 10, 1, 255, &value, NULL))
		return invalid(error, "“%.32s” is not a method type (a number from 1 to 255)",
		               trimmed);
	*type = (guint)value;
	return TRUE;
}

GBytes *
eap_config_value_base64(const gchar *text, GError **error)
{
	gsize len = strlen(text), n = 0, out_len = 0;
	g_autofree gchar *packed = g_malloc(len + 1);
	const gchar *pad;
	guchar *der;

	for (gsize i = 0; i < len; i++) {
		if (g_ascii_isspace(text[i]))
			continue;
		if (!g_ascii_isalnum(text[i]) && text[i] != '+' && text[i] != '/' && text[i] != '=')
			return invalid(error, "not base64: the character “%c” at offset %zu",
			               g_ascii_isprint(text[i]) ? text[i] : '?', i),
			       NULL;
		packed[n++] = text[i];
	}
	packed[n] = '\0';
	pad = strchr(packed, '=');
	if (n == 0 || n % 4 != 0 ||
	    (pad != NULL && (pad < packed + n - 2 || pad[strspn(pad, "=")] != '\0')))
		return invalid(error, "not base64: %zu characters, padded wrongly or empty", n),
		       NULL;
	der = g_base64_decode(packed, &out_len);
	return g_bytes_new_take(der, out_len);
}

gchar *
eap_config_value_text(const gchar *text, gboolean may_be_empty, GError **error)
{
	g_autofree gchar *trimmed = g_strstrip(g_strdup(text));

	for (const gchar *c = trimmed; *c != '\0'; c++) {
		if ((guchar)*c < 0x20 || *c == 0x7f)
			return invalid(error, "a control character in the text"), NULL;
	}
	if (!may_be_empty && trimmed[0] == '\0')
		return invalid(error, "empty"), NULL;
	return g_steal_pointer(&trimmed);
}

gchar *
eap_config_value_server_id(const gchar *text, GError **error)
{
	g_autofree gchar *name = eap_config_value_text(text, FALSE, error);

	if (name == NULL)
		return NULL;
	for (const gchar *c = name; *c != '\0'; c++) {
		if (!g_ascii_isgraph(*c) || *c == ';')
			return invalid(error,
			               "“%.64s” is not a server name (printable ASCII, no "
			               "space or “;”)",
			               g_utf8_validate(name, -1, NULL) ? name : "?"),
			       NULL;
	}
	if (strlen(name) > 253)
		return invalid(error, "a server name of more than 253 characters"), NULL;
	return g_steal_pointer(&name);
}

gchar *
eap_config_value_ssid(const gchar *text, GError **error)
{
	g_autofree gchar *ssid = eap_config_value_text(text, FALSE, error);

	if (ssid == NULL)
		return NULL;
	if (strlen(ssid) > 32)
		return invalid(error, "“%.40s…” is longer than an SSID may be (32 bytes)", ssid),
		       NULL;
	return g_steal_pointer(&ssid);
}

gboolean
eap_config_value_bool(const gchar *text, gboolean *value, GError **error)
{
	g_autofree gchar *trimmed = g_strstrip(g_strdup(text));

	if (g_str_equal(trimmed, "true") || g_str_equal(trimmed, "1"))
		*value = TRUE;
	else if (g_str_equal(trimmed, "false") || g_str_equal(trimmed, "0"))
		*value = FALSE;
	else
		return invalid(error, "“%.32s” is not true or false", trimmed);
	return TRUE;
}

/* ---- the file as a whole --------------------------------------------------- */

static gboolean G_GNUC_PRINTF(4, 5)
        missing(GError **error, gint line, gint column, const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID, "line %d:%d: %s", line,
	            column, message);
	return FALSE;
}

static gboolean
check_method(const EapConfigMethod *m, GError **error)
{
	if (m->eap_type == 0)
		return missing(error, m->line, m->column,
		               "<AuthenticationMethod> has no <EAPMethod><Type>");
	if (m->inner_eap_type != 0 && m->inner_non_eap_type != 0)
		return missing(error, m->line, m->column,
		               "<InnerAuthenticationMethod> names both an <EAPMethod> and a "
		               "<NonEAPAuthMethod>");
	return TRUE;
}

static gboolean
check_provider(const EapConfigProvider *p, GError **error)
{
	if (p->methods->len == 0)
		return missing(error, p->line, p->column,
		               "<EAPIdentityProvider> has no <AuthenticationMethods> with an "
		               "<AuthenticationMethod>");
	for (guint i = 0; i < p->methods->len; i++) {
		if (!check_method(g_ptr_array_index(p->methods, i), error))
			return FALSE;
	}
	if (p->ssids->len == 0 && p->consortium_oids->len == 0 && p->wired_ids->len == 0)
		return missing(error, p->line, p->column,
		               "<EAPIdentityProvider> has no <CredentialApplicability> naming an "
		               "<IEEE80211> <SSID> or <IEEE8023>");
	return TRUE;
}

gboolean
eap_config_check(const EapConfig *config, GError **error)
{
	if (config->providers->len == 0)
		return missing(error, 1, 1,
		               "<EAPIdentityProviderList> holds no <EAPIdentityProvider>");
	for (guint i = 0; i < config->providers->len; i++) {
		if (!check_provider(g_ptr_array_index(config->providers, i), error))
			return FALSE;
	}
	return TRUE;
}
