/* eap-tls-hwkey.c - client keys on a PKCS#11 token or in a TPM 2.0.
 * The PIN (or a TPM key's auth value) is ClientKeyPassphrase's: from the
 * URI, the profile or the agent; it is used for one login and never
 * logged. A token error fails the attempt without a retry of our own (a
 * card locks its PIN after three wrong ones) and without blaming the
 * network: a person inserts the card and retries. */
#include "eap-tls-hwkey.h"

#include <string.h>

#include <openssl/err.h>

#include "eap-tls-tpm.h"
#include "eap-tls-uri.h"
#include "joind-error.h"

gchar *
eap_tls_hwkey_take_reasons(void)
{
	g_autoptr(GString) text = g_string_new(NULL);
	unsigned long e;

	while ((e = ERR_get_error()) != 0) {
		const char *reason = ERR_reason_error_string(e);
		if (reason == NULL || strstr(text->str, reason) != NULL)
			continue;
		g_string_append_printf(text, "%s%s", text->len > 0 ? "; " : "", reason);
	}
	return text->len > 0 ? g_string_free(g_steal_pointer(&text), FALSE) : NULL;
}

static gchar *
hwkey_setting(JoindEapSession *s, const gchar *key_prefix, const gchar *name)
{
	g_autofree gchar *key = g_strconcat(key_prefix, name, NULL);

	return joind_eap_session_get_setting(s, key);
}

static gchar *
hwkey_where(JoindEapSession *s, const gchar *key_prefix, const gchar *name)
{
	g_autofree gchar *key = g_strconcat(key_prefix, name, NULL);

	return joind_eap_session_describe_setting(s, key);
}

gboolean
eap_tls_hwkey_named(JoindEapSession *s, const gchar *key_prefix)
{
	g_autofree gchar *key = hwkey_setting(s, key_prefix, "ClientKey");
	g_autofree gchar *cert = hwkey_setting(s, key_prefix, "ClientCert");

	return eap_tls_key_form(key) != EAP_TLS_KEY_FILE ||
	       eap_tls_key_form(cert) != EAP_TLS_KEY_FILE;
}

/* ---- PKCS#11 ---- */

static JoindEapMethodResult
hwkey_pkcs11_fail(JoindEapSession *s, const gchar *key_prefix, const gchar *name,
                  const gchar *uri_text, EapTlsPkcs11Status status, const gchar *detail,
                  GError **error)
{
	g_autofree gchar *where = hwkey_where(s, key_prefix, name);
	g_autofree gchar *reason = NULL;
	g_autoptr(EapTlsPkcs11Uri) uri = eap_tls_pkcs11_uri_parse(uri_text, &reason);
	g_autofree gchar *what = uri != NULL ? eap_tls_pkcs11_uri_describe(uri) : g_strdup("?");
	const gchar *why = detail != NULL ? detail : "no reason given";

	switch (status) {
	case EAP_TLS_PKCS11_NOT_FOUND:
		/* The module is read afresh next time: a card inserted since is found. */
		eap_tls_pkcs11_reset();
		return joind_eap_method_fail(
		        error, JOIND_ERROR_FAILED,
		        "%s: the %s on the PKCS#11 %s is not available: no such "
		        "token is present, or it holds no such object (%s). Insert "
		        "the token and try again",
		        where, strcmp(name, "ClientCert") == 0 ? "certificate" : "key", what, why);
	case EAP_TLS_PKCS11_PIN_INCORRECT: {
		g_autofree gchar *pass_key = g_strconcat(key_prefix, "ClientKeyPassphrase", NULL);
		/* An agent's PIN is asked for again next time, a profile's kept. */
		joind_eap_session_forget_secret(s, pass_key);
		return joind_eap_method_fail(
		        error, JOIND_ERROR_FAILED,
		        "%s: the PKCS#11 %s refused the PIN (wrong PIN). joind does "
		        "not try it again: the token locks after a few wrong PINs",
		        where, what);
	}
	case EAP_TLS_PKCS11_PIN_LOCKED:
		return joind_eap_method_fail(
		        error, JOIND_ERROR_FAILED,
		        "%s: the PIN of the PKCS#11 %s is locked (%s): unlock it "
		        "with the token's PUK or its administrator",
		        where, what, why);
	default:
		eap_tls_pkcs11_reset();
		return joind_eap_method_fail(error, JOIND_ERROR_FAILED, "%s: the PKCS#11 %s: %s",
		                             where, what, why);
	}
}

static JoindEapMethodResult
hwkey_load_pkcs11(JoindEapSession *s, const gchar *key_prefix, const gchar *key_uri,
                  const gchar *cert_uri, EapTlsConfig *c, GError **error)
{
	g_autofree gchar *reason = NULL;
	g_autoptr(EapTlsPkcs11Uri) uri = eap_tls_pkcs11_uri_parse(key_uri, &reason);
	g_autofree gchar *detail = NULL;
	const gchar *pin = NULL;
	EapTlsPkcs11Status status;
	JoindEapMethodResult r;

	if (uri == NULL) {
		g_autofree gchar *where = hwkey_where(s, key_prefix, "ClientKey");
		return joind_eap_method_fail(error, JOIND_ERROR_INVALID_ARGS, "%s: %s", where,
		                             reason);
	}
	/* The certificate first (no login), so that a missing token is told
	 * before anyone is asked for its PIN. */
	if (cert_uri != NULL) {
		status = eap_tls_pkcs11_load_cert(cert_uri, &c->cert, &detail);
		if (status != EAP_TLS_PKCS11_OK)
			return hwkey_pkcs11_fail(s, key_prefix, "ClientCert", cert_uri, status,
			                         detail, error);
	}
	if (!uri->has_pin) {
		r = eap_tls_config_passphrase(s, key_prefix, &pin, error);
		if (r != JOIND_EAP_METHOD_RESPOND)
			return r;
	}
	status = eap_tls_pkcs11_load_key(key_uri, pin, &c->key, &c->key_hold, &detail);
	if (status != EAP_TLS_PKCS11_OK)
		return hwkey_pkcs11_fail(s, key_prefix, "ClientKey", key_uri, status, detail,
		                         error);
	g_free(detail);
	detail = eap_tls_pkcs11_uri_describe(uri);
	g_info("EAP-%s: the client key is on the PKCS#11 %s", c->method, detail);
	return JOIND_EAP_METHOD_RESPOND;
}

/* ---- TPM ---- */

/* Real TPMs sign RSA-PSS with the largest salt the key allows, which TLS
 * 1.3 (salt = hash length) refuses; rsa_pkcs1 needs TLS 1.2. */
static JoindEapMethodResult
hwkey_tpm_rsa_limits(JoindEapSession *s, const gchar *key_prefix, EapTlsConfig *c, GError **error)
{
	if (!EVP_PKEY_is_a(c->key, "RSA"))
		return JOIND_EAP_METHOD_RESPOND;
	if (c->min_version > TLS1_2_VERSION) {
		g_autofree gchar *where = hwkey_where(s, key_prefix, "Version-Min");
		return joind_eap_method_fail(
		        error, JOIND_ERROR_INVALID_ARGS,
		        "%s: an RSA key in a TPM works with TLS 1.2 only (a TPM's "
		        "RSA-PSS signatures are refused by TLS 1.3 peers); use an EC "
		        "P-256 key for TLS 1.3",
		        where);
	}
	c->rsa_pkcs1_only = TRUE;
	c->max_version = TLS1_2_VERSION;
	g_info("EAP-%s: the client key is an RSA key in the TPM: offering rsa_pkcs1 signatures "
	       "and TLS 1.2 only, since TPMs sign RSA-PSS with a salt length TLS peers refuse",
	       c->method);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
hwkey_load_tpm(JoindEapSession *s, const gchar *key_prefix, const gchar *handle, GBytes *tss2,
               EapTlsConfig *c, GError **error)
{
	g_autofree gchar *tcti = joind_eap_session_get_config_string(s, EAP_TLS_TPM_TCTI_GROUP,
	                                                             EAP_TLS_TPM_TCTI_KEY);
	g_autoptr(GError) local = NULL;
	const gchar *auth = NULL;
	gboolean asked = FALSE;
	JoindEapMethodResult r;

	c->key = eap_tls_tpm_load_key(tcti, handle, tss2, NULL, &asked, &local);
	if (c->key == NULL && asked) {
		/* The key has an auth value: ClientKeyPassphrase, as for a file. */
		g_clear_error(&local);
		r = eap_tls_config_passphrase(s, key_prefix, &auth, error);
		if (r != JOIND_EAP_METHOD_RESPOND)
			return r;
		c->key = eap_tls_tpm_load_key(tcti, handle, tss2, auth, &asked, &local);
	}
	if (c->key == NULL) {
		g_autofree gchar *where = hwkey_where(s, key_prefix, "ClientKey");
		return joind_eap_method_fail(error, JOIND_ERROR_FAILED, "%s: %s", where,
		                             local->message);
	}
	c->key_in_tpm = TRUE;
	g_info("EAP-%s: the client key is in the TPM (%s)", c->method,
	       handle != NULL ? handle : "a TSS2 key file");
	return hwkey_tpm_rsa_limits(s, key_prefix, c, error);
}

JoindEapMethodResult
eap_tls_hwkey_load(JoindEapSession *s, const gchar *key_prefix, GBytes *tss2, EapTlsConfig *c,
                   GError **error)
{
	g_autofree gchar *key = hwkey_setting(s, key_prefix, "ClientKey");
	g_autofree gchar *cert = hwkey_setting(s, key_prefix, "ClientCert");
	const gchar *cert_uri = eap_tls_key_form(cert) == EAP_TLS_KEY_PKCS11 ? cert : NULL;

	if (key == NULL) {
		g_autofree gchar *where = hwkey_where(s, key_prefix, "ClientKey");
		return joind_eap_method_fail(
		        error, JOIND_ERROR_INVALID_ARGS,
		        "%s is not set: a certificate on a token needs the key "
		        "beside it (ClientKey=pkcs11:...)",
		        where);
	}
	switch (eap_tls_key_form(key)) {
	case EAP_TLS_KEY_PKCS11:
		return hwkey_load_pkcs11(s, key_prefix, key, cert_uri, c, error);
	case EAP_TLS_KEY_TPM_HANDLE:
		tss2 = NULL;
		break;
	case EAP_TLS_KEY_FILE:
		g_clear_pointer(&key, g_free);
		break;
	}
	if (cert_uri != NULL) {
		g_autofree gchar *detail = NULL;
		EapTlsPkcs11Status status = eap_tls_pkcs11_load_cert(cert_uri, &c->cert, &detail);
		if (status != EAP_TLS_PKCS11_OK)
			return hwkey_pkcs11_fail(s, key_prefix, "ClientCert", cert_uri, status,
			                         detail, error);
	}
	return hwkey_load_tpm(s, key_prefix, key, tss2, c, error);
}
