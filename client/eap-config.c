/* eap-config.c - the eap-metadata XML of eduroam CAT and geteduroam, read
 * with GMarkup:
 *
 *   EAPIdentityProviderList / EAPIdentityProvider (ID=...)
 *     AuthenticationMethods / AuthenticationMethod
 *       EAPMethod/Type
 *       ServerSideCredential: CA (format="X.509" encoding="base64")..., ServerID...
 *       ClientSideCredential: OuterIdentity, InnerIdentitySuffix, InnerIdentityHint,
 *                             ClientCertificate (format="PKCS12" encoding="base64"),
 *                             Passphrase
 *       InnerAuthenticationMethod: EAPMethod/Type or NonEAPAuthMethod/Type
 *     CredentialApplicability: IEEE80211 (SSID, ConsortiumOID)..., IEEE8023 (NetworkID)...
 *     ProviderInfo/DisplayName
 *
 * Elements the schema has and joinctl does not use are skipped. The file
 * comes from a web site, so it is data from a stranger: no DOCTYPE (and so
 * no entity of its own), bounded size, depth, text and counts, and every
 * refusal names the element and where it is.
 */
#include "eap-config-private.h"

#include <string.h>

G_DEFINE_QUARK(eap - config - error - quark, eap_config_error)

typedef enum {
	TEXT_NONE,
	TEXT_PLAIN,
	TEXT_BASE64,
} TextKind;

/* A place in the file: GMarkup's position and the markup ("<Name") to
 * look for backwards from it, made line:column only for a message. */
typedef struct {
	gint line, column;
	gchar needle[80];
} Mark;

typedef struct {
	GMarkupParseContext *markup;
	const gchar *data;
	gsize len;
	EapConfigCursor cursor;
	Mark here;         /* the element that starts or ends */
	Mark text_mark;    /* the element whose text is kept */
	const Mark *blame; /* what an error is about: one of the two */
	EapConfig *config;
	GPtrArray *stack; /* local element names, outermost first */
	EapConfigProvider *provider;
	EapConfigMethod *method;
	TextKind text_kind;
	GString *text;
	gboolean root_seen;
} Parser;

static void
method_free(EapConfigMethod *m)
{
	g_ptr_array_unref(m->cas);
	g_ptr_array_unref(m->server_ids);
	g_free(m->outer_identity);
	g_free(m->inner_identity_suffix);
	g_clear_pointer(&m->client_pkcs12, g_bytes_unref);
	if (m->client_passphrase != NULL)
		explicit_bzero(m->client_passphrase, strlen(m->client_passphrase));
	g_free(m->client_passphrase);
	g_free(m);
}

static void
provider_free(EapConfigProvider *p)
{
	g_free(p->id);
	g_free(p->display_name);
	g_ptr_array_unref(p->methods);
	g_ptr_array_unref(p->ssids);
	g_ptr_array_unref(p->consortium_oids);
	g_ptr_array_unref(p->wired_ids);
	g_free(p);
}

void
eap_config_free(EapConfig *config)
{
	if (config == NULL)
		return;
	g_ptr_array_unref(config->providers);
	g_free(config);
}

/* ---- errors and where ------------------------------------------------------ */

static gboolean G_GNUC_PRINTF(3, 4) fail_at(Parser *p, GError **error, const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	gint line = p->blame->line, column = p->blame->column;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	eap_config_position_find(&p->cursor, p->data, p->len, p->blame->needle, &line, &column);
	g_set_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID, "line %d:%d: %s", line,
	            column, message);
	return FALSE;
}

/* A value's error, prefixed with where its element starts. */
static gboolean
fail_value(Parser *p, const gchar *name, GError *local, GError **error)
{
	fail_at(p, error, "<%s>: %s", name, local->message);
	g_error_free(local);
	return FALSE;
}

static void
mark(Parser *p, const gchar *prefix, const gchar *name)
{
	g_markup_parse_context_get_position(p->markup, &p->here.line, &p->here.column);
	g_snprintf(p->here.needle, sizeof(p->here.needle), "%s%s", prefix, name);
	p->blame = &p->here;
}

/* Where the element that starts now starts, for an object's line:column. */
static void
element_start(Parser *p, gint *line, gint *column)
{
	*line = p->here.line;
	*column = p->here.column;
	eap_config_position_find(&p->cursor, p->data, p->len, p->here.needle, line, column);
}

/* The local name: a prefix ("eap:Type") does not change the element. */
static const gchar *
local_name(const gchar *name)
{
	const gchar *colon = strchr(name, ':');

	return colon != NULL ? colon + 1 : name;
}

static const gchar *
parent_at(Parser *p, guint up)
{
	return up < p->stack->len ? g_ptr_array_index(p->stack, p->stack->len - 1 - up) : "";
}

static gboolean
inside(Parser *p, const gchar *parent, const gchar *grandparent)
{
	return g_str_equal(parent_at(p, 0), parent) &&
	       (grandparent == NULL || g_str_equal(parent_at(p, 1), grandparent));
}

/* ---- start ------------------------------------------------------------------ */

static gboolean
check_attribute(Parser *p, const gchar *element, const gchar **names, const gchar **values,
                const gchar *attribute, const gchar *wanted, GError **error)
{
	for (guint i = 0; names[i] != NULL; i++) {
		if (!g_str_equal(local_name(names[i]), attribute))
			continue;
		if (g_ascii_strcasecmp(values[i], wanted) == 0)
			return TRUE;
		return fail_at(p, error, "<%s %s=\"%s\">: only %s=\"%s\" is understood", element,
		               attribute, values[i], attribute, wanted);
	}
	return TRUE;
}

static gboolean
start_provider(Parser *p, const gchar **names, const gchar **values, GError **error)
{
	EapConfigProvider *provider;

	if (p->config->providers->len >= EAP_CONFIG_MAX_ITEMS)
		return fail_at(p, error, "<EAPIdentityProvider>: more than %d in one file",
		               EAP_CONFIG_MAX_ITEMS);
	provider = g_new0(EapConfigProvider, 1);
	provider->methods = g_ptr_array_new_with_free_func((GDestroyNotify)method_free);
	provider->ssids = g_ptr_array_new_with_free_func(g_free);
	provider->consortium_oids = g_ptr_array_new_with_free_func(g_free);
	provider->wired_ids = g_ptr_array_new_with_free_func(g_free);
	element_start(p, &provider->line, &provider->column);
	for (guint i = 0; names[i] != NULL; i++) {
		if (g_str_equal(names[i], "ID") && strlen(values[i]) <= EAP_CONFIG_MAX_TEXT)
			provider->id = g_strdup(values[i]);
	}
	g_ptr_array_add(p->config->providers, provider);
	p->provider = provider;
	return TRUE;
}

static gboolean
start_method(Parser *p, GError **error)
{
	EapConfigMethod *method;

	if (p->provider->methods->len >= EAP_CONFIG_MAX_ITEMS)
		return fail_at(p, error, "<AuthenticationMethod>: more than %d in one provider",
		               EAP_CONFIG_MAX_ITEMS);
	method = g_new0(EapConfigMethod, 1);
	method->cas = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	method->server_ids = g_ptr_array_new_null_terminated(0, g_free, TRUE);
	element_start(p, &method->line, &method->column);
	g_ptr_array_add(p->provider->methods, method);
	p->method = method;
	return TRUE;
}

/* Which elements' text is kept, and how: by name and where they are. */
static TextKind
text_kind_of(Parser *p, const gchar *name)
{
	static const gchar *const method_texts[] = {
	        "ServerID",          "OuterIdentity", "InnerIdentitySuffix",
	        "InnerIdentityHint", "Passphrase",    NULL};

	if (p->method != NULL && g_str_equal(name, "Type") &&
	    (inside(p, "EAPMethod", NULL) || inside(p, "NonEAPAuthMethod", NULL)))
		return TEXT_PLAIN;
	if (p->method != NULL &&
	    (g_str_equal(name, "CA") || g_str_equal(name, "ClientCertificate")))
		return TEXT_BASE64;
	if (p->method != NULL && g_strv_contains(method_texts, name))
		return TEXT_PLAIN;
	if (p->provider != NULL && inside(p, "IEEE80211", "CredentialApplicability") &&
	    (g_str_equal(name, "SSID") || g_str_equal(name, "ConsortiumOID")))
		return TEXT_PLAIN;
	if (p->provider != NULL && inside(p, "IEEE8023", "CredentialApplicability") &&
	    g_str_equal(name, "NetworkID"))
		return TEXT_PLAIN;
	if (p->provider != NULL && inside(p, "ProviderInfo", NULL) &&
	    g_str_equal(name, "DisplayName"))
		return TEXT_PLAIN;
	return TEXT_NONE;
}

/* Elements that make an object or change what their children mean. */
static gboolean
start_structure(Parser *p, const gchar *name, const gchar **names, const gchar **values,
                GError **error)
{
	if (g_str_equal(name, "EAPIdentityProvider") && p->stack->len == 1)
		return start_provider(p, names, values, error);
	if (g_str_equal(name, "AuthenticationMethod") && p->provider != NULL &&
	    inside(p, "AuthenticationMethods", "EAPIdentityProvider"))
		return start_method(p, error);
	if (g_str_equal(name, "IEEE8023") && p->provider != NULL &&
	    inside(p, "CredentialApplicability", NULL)) {
		if (p->provider->wired_ids->len >= EAP_CONFIG_MAX_ITEMS)
			return fail_at(p, error, "<IEEE8023>: more than %d", EAP_CONFIG_MAX_ITEMS);
		g_ptr_array_add(p->provider->wired_ids, g_strdup(""));
	}
	if (g_str_equal(name, "CA"))
		return check_attribute(p, name, names, values, "format", "X.509", error) &&
		       check_attribute(p, name, names, values, "encoding", "base64", error);
	if (g_str_equal(name, "ClientCertificate"))
		return check_attribute(p, name, names, values, "format", "PKCS12", error) &&
		       check_attribute(p, name, names, values, "encoding", "base64", error);
	return TRUE;
}

/* XML allows an attribute once per element; GMarkup does not check (it
 * caps an element's attributes, which bounds this loop). */
static gboolean
attributes_unique(Parser *p, const gchar *name, const gchar **names, GError **error)
{
	for (guint i = 0; names[i] != NULL; i++) {
		for (guint j = 0; j < i; j++) {
			if (g_str_equal(names[i], names[j]))
				return fail_at(p, error, "<%s>: the attribute %s is given twice",
				               name, names[i]);
		}
	}
	return TRUE;
}

static void
on_start(GMarkupParseContext *context, const gchar *qname, const gchar **names,
         const gchar **values, gpointer user_data, GError **error)
{
	Parser *p = user_data;
	const gchar *name = local_name(qname);

	mark(p, "<", qname);
	if (p->stack->len >= EAP_CONFIG_MAX_DEPTH) {
		fail_at(p, error, "<%s>: elements nest deeper than %d", name, EAP_CONFIG_MAX_DEPTH);
		return;
	}
	if (p->stack->len == 0 && (p->root_seen || !g_str_equal(name, "EAPIdentityProviderList"))) {
		fail_at(p, error, "<%s>: an eap-config file is one <EAPIdentityProviderList>",
		        name);
		return;
	}
	p->root_seen = TRUE;
	if (!attributes_unique(p, name, names, error) ||
	    !start_structure(p, name, names, values, error))
		return;
	p->text_kind = text_kind_of(p, name);
	g_string_truncate(p->text, 0);
	p->text_mark = p->here;
	g_ptr_array_add(p->stack, g_strdup(name));
}

/* ---- text ------------------------------------------------------------------ */

static void
on_text(GMarkupParseContext *context, const gchar *text, gsize len, gpointer user_data,
        GError **error)
{
	Parser *p = user_data;
	gsize limit = p->text_kind == TEXT_BASE64 ? EAP_CONFIG_MAX_BASE64 : EAP_CONFIG_MAX_TEXT;

	if (p->text_kind == TEXT_NONE)
		return;
	p->blame = &p->text_mark;
	if (p->text->len + len > limit) {
		fail_at(p, error, "<%s>: its text is longer than %zu bytes", parent_at(p, 0),
		        limit);
		return;
	}
	g_string_append_len(p->text, text, (gssize)len);
}

/* A DOCTYPE could declare entities (billion laughs, external files): none
 * is taken. Comments and the XML declaration pass. */
static void
on_passthrough(GMarkupParseContext *context, const gchar *text, gsize len, gpointer user_data,
               GError **error)
{
	Parser *p = user_data;
	gsize n = 0;
	g_autofree gchar *word = NULL;

	while (n < len && n < 64 && !g_ascii_isspace(text[n]) && text[n] != '>')
		n++;
	word = g_strndup(text, n);
	mark(p, "", word);
	if (len >= 2 && text[0] == '<' && text[1] == '!' &&
	    !(len >= 4 && text[2] == '-' && text[3] == '-'))
		fail_at(p, error, "<!DOCTYPE> and entity declarations are refused");
}

/* ---- end ------------------------------------------------------------------- */

static gboolean
add_item(Parser *p, GPtrArray *items, gpointer item, const gchar *name, GError **error)
{
	if (item == NULL)
		return FALSE;
	if (items->len >= EAP_CONFIG_MAX_ITEMS) {
		g_free(item);
		return fail_at(p, error, "<%s>: more than %d", name, EAP_CONFIG_MAX_ITEMS);
	}
	g_ptr_array_add(items, item);
	return TRUE;
}

static gboolean
store_type(Parser *p, const gchar *text, GError **error)
{
	guint *slot = &p->method->eap_type;
	guint type = 0;

	if (g_str_equal(parent_at(p, 1), "InnerAuthenticationMethod"))
		slot = g_str_equal(parent_at(p, 0), "NonEAPAuthMethod")
		               ? &p->method->inner_non_eap_type
		               : &p->method->inner_eap_type;
	else if (!g_str_equal(parent_at(p, 1), "AuthenticationMethod") ||
	         g_str_equal(parent_at(p, 0), "NonEAPAuthMethod"))
		return TRUE; /* a Type the schema does not put there */
	if (!eap_config_value_type(text, &type, error))
		return FALSE;
	if (*slot != 0)
		return fail_at(p, error, "<%s>: a second <Type>", parent_at(p, 0));
	*slot = type;
	return TRUE;
}

static gboolean
store_method_text(Parser *p, const gchar *name, const gchar *text, GError **error)
{
	EapConfigMethod *m = p->method;
	gchar **slot = NULL;

	if (g_str_equal(name, "ServerID"))
		return add_item(p, m->server_ids, eap_config_value_server_id(text, error), name,
		                error);
	if (g_str_equal(name, "InnerIdentityHint"))
		return eap_config_value_bool(text, &m->inner_identity_hint, error);
	if (g_str_equal(name, "OuterIdentity"))
		slot = &m->outer_identity;
	else if (g_str_equal(name, "InnerIdentitySuffix"))
		slot = &m->inner_identity_suffix;
	else if (g_str_equal(name, "Passphrase"))
		slot = &m->client_passphrase;
	if (slot == NULL || *slot != NULL)
		return slot == NULL || fail_at(p, error, "<%s>: given twice", name);
	*slot = eap_config_value_text(text, FALSE, error);
	return *slot != NULL;
}

static gboolean
store_base64(Parser *p, const gchar *name, const gchar *text, GError **error)
{
	GBytes *der = eap_config_value_base64(text, error);

	if (der == NULL)
		return FALSE;
	if (g_str_equal(name, "CA")) {
		if (p->method->cas->len < EAP_CONFIG_MAX_ITEMS) {
			g_ptr_array_add(p->method->cas, der);
			return TRUE;
		}
		g_bytes_unref(der);
		return fail_at(p, error, "<CA>: more than %d", EAP_CONFIG_MAX_ITEMS);
	}
	if (p->method->client_pkcs12 != NULL) {
		g_bytes_unref(der);
		return fail_at(p, error, "<ClientCertificate>: given twice");
	}
	p->method->client_pkcs12 = der;
	return TRUE;
}

static gboolean
store_provider_text(Parser *p, const gchar *name, const gchar *text, GError **error)
{
	EapConfigProvider *pr = p->provider;
	gchar *value;

	if (g_str_equal(name, "SSID"))
		return add_item(p, pr->ssids, eap_config_value_ssid(text, error), name, error);
	value = eap_config_value_text(text, FALSE, error);
	if (value == NULL)
		return FALSE;
	if (g_str_equal(name, "ConsortiumOID"))
		return add_item(p, pr->consortium_oids, value, name, error);
	if (g_str_equal(name, "NetworkID")) {
		g_free(g_ptr_array_index(pr->wired_ids, pr->wired_ids->len - 1));
		g_ptr_array_index(pr->wired_ids, pr->wired_ids->len - 1) = value;
		return TRUE;
	}
	g_free(pr->display_name);
	pr->display_name = value; /* the last DisplayName (one per language) */
	return TRUE;
}

/* The kept text of the element that ends, into the object it belongs to. */
static gboolean
store_text(Parser *p, const gchar *name, GError **error)
{
	GError *local = NULL;
	gboolean ok;

	if (p->text_kind == TEXT_BASE64)
		ok = store_base64(p, name, p->text->str, &local);
	else if (g_str_equal(name, "Type"))
		ok = store_type(p, p->text->str, &local);
	else if (p->method != NULL)
		ok = store_method_text(p, name, p->text->str, &local);
	else
		ok = store_provider_text(p, name, p->text->str, &local);
	if (ok)
		return TRUE;
	if (local->domain == EAP_CONFIG_ERROR) { /* placed already */
		g_propagate_error(error, local);
		return FALSE;
	}
	return fail_value(p, name, local, error);
}

static void
on_end(GMarkupParseContext *context, const gchar *qname, gpointer user_data, GError **error)
{
	Parser *p = user_data;
	g_autofree gchar *name = g_ptr_array_steal_index(p->stack, p->stack->len - 1);

	p->blame = &p->text_mark;
	if (p->text_kind != TEXT_NONE && !store_text(p, name, error))
		return;
	p->text_kind = TEXT_NONE;
	g_string_truncate(p->text, 0);
	if (g_str_equal(name, "AuthenticationMethod") && p->method != NULL && p->stack->len == 3) {
		p->method = NULL;
	} else if (g_str_equal(name, "EAPIdentityProvider") && p->stack->len == 1) {
		p->provider = NULL;
		p->method = NULL;
	}
}

static const GMarkupParser markup_parser = {
        .start_element = on_start,
        .end_element = on_end,
        .text = on_text,
        .passthrough = on_passthrough,
};

static gboolean
parse_markup(Parser *p, GError **error)
{
	GError *local = NULL;

	/* A UTF-8 byte order mark is not XML's business here. */
	if (p->len >= 3 && memcmp(p->data, "\xef\xbb\xbf", 3) == 0) {
		p->data += 3;
		p->len -= 3;
	}
	/* The error decides, not the return value: GLib 2.74's GMarkup can
	 * set one and still return TRUE (bytes that are not UTF-8 after "<!"). */
	g_markup_parse_context_parse(p->markup, p->data, (gssize)p->len, &local);
	if (local == NULL)
		g_markup_parse_context_end_parse(p->markup, &local);
	if (local == NULL)
		return TRUE;
	if (local->domain == G_MARKUP_ERROR) {
		local->domain = EAP_CONFIG_ERROR;
		local->code = EAP_CONFIG_ERROR_INVALID;
	}
	g_propagate_error(error, local);
	return FALSE;
}

EapConfig *
eap_config_parse(const guint8 *data, gsize len, GError **error)
{
	g_autoptr(EapConfig) config = g_new0(EapConfig, 1);
	Parser p = {0};
	gboolean ok;

	config->providers = g_ptr_array_new_with_free_func((GDestroyNotify)provider_free);
	if (len > EAP_CONFIG_MAX_FILE) {
		g_set_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
		            "the file has %zu bytes, more than an eap-config file may (%d)", len,
		            EAP_CONFIG_MAX_FILE);
		return NULL;
	}
	p.config = config;
	p.data = (const gchar *)data;
	p.len = len;
	p.cursor.line = 1;
	p.stack = g_ptr_array_new_with_free_func(g_free);
	p.text = g_string_new(NULL);
	p.markup =
	        g_markup_parse_context_new(&markup_parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &p, NULL);
	ok = parse_markup(&p, error) && eap_config_check(config, error);
	g_markup_parse_context_free(p.markup);
	g_ptr_array_unref(p.stack);
	explicit_bzero(p.text->str, p.text->allocated_len);
	g_string_free(p.text, TRUE);
	return ok ? g_steal_pointer(&config) : NULL;
}
