/* eap-tls-uri.c - RFC 7512 PKCS#11 URIs and TPM handles as profile values.
 * A URI may carry the PIN (pin-value): nothing here puts a value of that
 * attribute into a sentence. */
#include "eap-tls-uri.h"

#include <string.h>

#define PKCS11_SCHEME "pkcs11:"
#define HANDLE_SCHEME "handle:"

/* RFC 7512 section 2.3: the path attributes, then the query attributes. */
static const gchar *const path_attrs[] = {
        "token",
        "manufacturer",
        "serial",
        "model",
        "library-manufacturer",
        "library-version",
        "library-description",
        "object",
        "type",
        "id",
        "slot-description",
        "slot-manufacturer",
        "slot-id",
        NULL,
};
static const gchar *const query_attrs[] = {"pin-source", "pin-value", "module-name", "module-path",
                                           NULL};
static const gchar *const object_types[] = {"public",     "private", "cert",
                                            "secret-key", "data",    NULL};

EapTlsKeyForm
eap_tls_key_form(const gchar *value)
{
	if (value == NULL)
		return EAP_TLS_KEY_FILE;
	if (g_ascii_strncasecmp(value, PKCS11_SCHEME, strlen(PKCS11_SCHEME)) == 0)
		return EAP_TLS_KEY_PKCS11;
	if (g_str_has_prefix(value, HANDLE_SCHEME))
		return EAP_TLS_KEY_TPM_HANDLE;
	return EAP_TLS_KEY_FILE;
}

void
eap_tls_pkcs11_uri_free(EapTlsPkcs11Uri *uri)
{
	if (uri == NULL)
		return;
	g_free(uri->token);
	g_free(uri->object);
	g_free(uri->id_hex);
	g_free(uri->type);
	g_free(uri);
}

/* Characters a value may hold unencoded (RFC 7512's pk11-pchar and
 * pk11-qchar: unreserved, the sub-delimiters that do not separate
 * attributes, ':', '[', ']', '@', and in a query '/', '?', '|'). */
static gboolean
uri_char_is_allowed(gchar c, gboolean query)
{
	if (g_ascii_isalnum(c) || strchr("-._~:[]@!$'()*+,=", c) != NULL)
		return TRUE;
	if (query)
		return strchr("/?|;", c) != NULL;
	return c == '&';
}

/* Percent-decoded value; NULL when an escape is broken or a character is
 * not allowed there. */
static GByteArray *
uri_decode(const gchar *value, gboolean query)
{
	g_autoptr(GByteArray) out = g_byte_array_new();

	for (const gchar *p = value; *p != '\0'; p++) {
		guint8 byte = (guint8)*p;
		if (*p == '%') {
			if (!g_ascii_isxdigit(p[1]) || !g_ascii_isxdigit(p[2]))
				return NULL;
			byte = (guint8)(g_ascii_xdigit_value(p[1]) * 16 +
			                g_ascii_xdigit_value(p[2]));
			p += 2;
		} else if (!uri_char_is_allowed(*p, query)) {
			return NULL;
		}
		g_byte_array_append(out, &byte, 1);
	}
	return g_steal_pointer(&out);
}

static gchar *
uri_text_of(GByteArray *bytes)
{
	if (bytes->len == 0)
		return g_strdup("");
	if (memchr(bytes->data, '\0', bytes->len) != NULL ||
	    !g_utf8_validate((const gchar *)bytes->data, (gssize)bytes->len, NULL))
		return NULL;
	return g_strndup((const gchar *)bytes->data, bytes->len);
}

static gboolean
uri_is_digits(const gchar *text, gboolean dotted)
{
	gsize n = strspn(text, "0123456789");

	if (n == 0)
		return FALSE;
	if (text[n] == '.' && dotted)
		return uri_is_digits(text + n + 1, FALSE);
	return text[n] == '\0';
}

/* One known attribute's value, into the URI. */
static gboolean
uri_take_value(EapTlsPkcs11Uri *uri, const gchar *name, GByteArray *bytes, gchar **reason)
{
	g_autofree gchar *text = uri_text_of(bytes);

	if (strcmp(name, "id") == 0) {
		uri->id_hex = bytes->len > 0 ? g_malloc(bytes->len * 2 + 1) : NULL;
		for (guint i = 0; i < bytes->len; i++)
			g_snprintf(uri->id_hex + i * 2, 3, "%02x", bytes->data[i]);
		return TRUE;
	}
	if (strcmp(name, "pin-value") == 0 || strcmp(name, "pin-source") == 0) {
		uri->has_pin = TRUE;
		return TRUE;
	}
	if (text == NULL) {
		*reason = g_strdup_printf("the value of “%s” is not UTF-8 text", name);
		return FALSE;
	}
	if ((strcmp(name, "type") == 0 && !g_strv_contains(object_types, text)) ||
	    (strcmp(name, "slot-id") == 0 && !uri_is_digits(text, FALSE)) ||
	    (strcmp(name, "library-version") == 0 && !uri_is_digits(text, TRUE))) {
		*reason = g_strdup_printf("“%s=%s” is not a valid %s", name, text, name);
		return FALSE;
	}
	if (strcmp(name, "token") == 0)
		uri->token = g_steal_pointer(&text);
	else if (strcmp(name, "object") == 0)
		uri->object = g_steal_pointer(&text);
	else if (strcmp(name, "type") == 0)
		uri->type = g_steal_pointer(&text);
	return TRUE;
}

static gboolean
uri_parse_attr(EapTlsPkcs11Uri *uri, GHashTable *seen, const gchar *attr, gboolean query,
               gchar **reason)
{
	const gchar *eq = strchr(attr, '=');
	g_autofree gchar *name = eq != NULL ? g_strndup(attr, (gsize)(eq - attr)) : NULL;
	const gchar *const *known = query ? query_attrs : path_attrs;
	g_autoptr(GByteArray) bytes = NULL;

	if (name == NULL || name[0] == '\0') {
		*reason = g_strdup_printf("“%.40s” is not name=value", attr);
		return FALSE;
	}
	/* RFC 7512 lets vendors add attributes (named like "vendor-aaa");
	 * an unknown plain word is a misspelling ("label" for "object"). */
	if (!g_strv_contains(known, name) && strchr(name, '-') == NULL) {
		*reason = g_strdup_printf(
		        "“%s” is not an RFC 7512 %s attribute (a key is named by object= "
		        "and id=, a token by token=)",
		        name, query ? "query" : "path");
		return FALSE;
	}
	if (!g_hash_table_add(seen, g_strdup(name))) {
		*reason = g_strdup_printf("“%s” is given twice", name);
		return FALSE;
	}
	bytes = uri_decode(eq + 1, query);
	if (bytes == NULL) {
		/* pin-value's text is the secret: never quoted. */
		*reason = g_strdup_printf("the value of “%s” has a character that must be "
		                          "percent-encoded, or a broken %%XX escape",
		                          name);
		return FALSE;
	}
	return uri_take_value(uri, name, bytes, reason);
}

static gboolean
uri_parse_list(EapTlsPkcs11Uri *uri, GHashTable *seen, const gchar *text, gboolean query,
               gchar **reason)
{
	g_auto(GStrv) attrs = g_strsplit(text, query ? "&" : ";", -1);

	for (guint i = 0; attrs[i] != NULL; i++) {
		if (attrs[i][0] == '\0' && attrs[i + 1] == NULL && i > 0)
			break; /* a trailing separator */
		if (!uri_parse_attr(uri, seen, attrs[i], query, reason))
			return FALSE;
	}
	return TRUE;
}

EapTlsPkcs11Uri *
eap_tls_pkcs11_uri_parse(const gchar *text, gchar **reason)
{
	g_autoptr(EapTlsPkcs11Uri) uri = g_new0(EapTlsPkcs11Uri, 1);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	const gchar *path;
	const gchar *query;
	g_autofree gchar *path_text = NULL;

	if (eap_tls_key_form(text) != EAP_TLS_KEY_PKCS11) {
		*reason = g_strdup("a PKCS#11 URI begins with “pkcs11:”");
		return NULL;
	}
	path = text + strlen(PKCS11_SCHEME);
	query = strchr(path, '?');
	path_text = query != NULL ? g_strndup(path, (gsize)(query - path)) : g_strdup(path);
	if (path_text[0] != '\0' && !uri_parse_list(uri, seen, path_text, FALSE, reason))
		return NULL;
	if (query != NULL && !uri_parse_list(uri, seen, query + 1, TRUE, reason))
		return NULL;
	return g_steal_pointer(&uri);
}

gchar *
eap_tls_pkcs11_uri_describe(const EapTlsPkcs11Uri *uri)
{
	g_autofree gchar *token = uri->token != NULL ? g_strdup_printf("token “%s”", uri->token)
	                                             : g_strdup("any token");

	if (uri->object != NULL && uri->id_hex != NULL)
		return g_strdup_printf("%s, object “%s” (id %s)", token, uri->object, uri->id_hex);
	if (uri->object != NULL)
		return g_strdup_printf("%s, object “%s”", token, uri->object);
	if (uri->id_hex != NULL)
		return g_strdup_printf("%s, object id %s", token, uri->id_hex);
	return g_strdup_printf("%s, the first matching object", token);
}

gchar *
eap_tls_pkcs11_uri_redact(const gchar *text)
{
	const gchar *query = strchr(text, '?');
	g_auto(GStrv) attrs = NULL;
	g_autoptr(GPtrArray) kept = g_ptr_array_new();
	g_autofree gchar *joined = NULL;

	if (query == NULL)
		return g_strdup(text);
	attrs = g_strsplit(query + 1, "&", -1);
	for (guint i = 0; attrs[i] != NULL; i++) {
		if (!g_str_has_prefix(attrs[i], "pin-value=") && attrs[i][0] != '\0')
			g_ptr_array_add(kept, attrs[i]);
	}
	g_ptr_array_add(kept, NULL);
	joined = g_strjoinv("&", (gchar **)kept->pdata);
	if (joined[0] == '\0')
		return g_strndup(text, (gsize)(query - text));
	return g_strdup_printf("%.*s?%s", (int)(query - text), text, joined);
}

gboolean
eap_tls_tpm_handle_parse(const gchar *text, guint32 *handle, const gchar **reason)
{
	/* "handle:0x" and eight hexadecimal digits */
	gsize prefix = strlen(HANDLE_SCHEME "0x");
	guint64 value = 0;

	*reason = "a TPM key handle is “handle:0x81” and six hexadecimal digits "
	          "(a persistent handle, 0x81000000 to 0x81ffffff)";
	if (strlen(text) != prefix + 8 ||
	    g_ascii_strncasecmp(text, HANDLE_SCHEME "0x", prefix) != 0 ||
	    strspn(text + prefix, "0123456789abcdefABCDEF") != 8)
		return FALSE;
	value = g_ascii_strtoull(text + prefix, NULL, 16);
	if ((value >> 24) != 0x81)
		return FALSE;
	*handle = (guint32)value;
	*reason = NULL;
	return TRUE;
}

static gboolean
pkcs11_reference_is_valid(const gchar *value, gboolean is_key, gchar **reason)
{
	g_autoptr(EapTlsPkcs11Uri) uri = eap_tls_pkcs11_uri_parse(value, reason);
	const gchar *want = is_key ? "private" : "cert";

	if (uri == NULL)
		return FALSE;
	if (uri->type != NULL && strcmp(uri->type, want) != 0) {
		*reason = g_strdup_printf("type=%s names no %s (type=%s, or no type)", uri->type,
		                          is_key ? "private key" : "certificate", want);
		return FALSE;
	}
	if (uri->object == NULL && uri->id_hex == NULL) {
		*reason = g_strdup_printf("the URI names no object: add object=LABEL or id=%%XX "
		                          "(the %s's label or CKA_ID)",
		                          is_key ? "key" : "certificate");
		return FALSE;
	}
	return TRUE;
}

gboolean
eap_tls_key_reference_is_valid(const gchar *value, gboolean is_key, gchar **reason)
{
	guint32 handle = 0;
	const gchar *why = NULL;

	switch (eap_tls_key_form(value)) {
	case EAP_TLS_KEY_PKCS11:
		return pkcs11_reference_is_valid(value, is_key, reason);
	case EAP_TLS_KEY_TPM_HANDLE:
		if (!is_key) {
			*reason = g_strdup("a TPM handle holds a key, not a certificate: give the "
			                   "certificate as a file");
			return FALSE;
		}
		if (eap_tls_tpm_handle_parse(value, &handle, &why))
			return TRUE;
		*reason = g_strdup(why);
		return FALSE;
	case EAP_TLS_KEY_FILE:
		break;
	}
	return TRUE;
}
