/* eap-tls-config.c - TLS settings and client credentials for TLS-based
 * EAP methods. Key material is never logged. */
#include "eap-tls-config.h"

#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>

#include "eap-tls-autoptr.h"
#include "eap-tls-domain.h"
#include "eap-tls-hwkey.h"
#include "eap-tls-pin.h"
#include "eap-tls-tpm.h"
#include "eap-tls-uri.h"
#include "joind-error.h"
#include "joind-secret.h"

void
eap_tls_config_free(EapTlsConfig *c)
{
	if (c == NULL)
		return;
	g_free(c->method);
	g_free(c->setting_prefix);
	g_free(c->ca_file);
	g_clear_pointer(&c->ca_pem, g_bytes_unref);
	g_free(c->ca_where);
	g_free(c->domain_masks);
	g_free(c->domain_where);
	g_strfreev(c->pins);
	g_free(c->pin_where);
	X509_free(c->cert);
	sk_X509_pop_free(c->chain, X509_free);
	EVP_PKEY_free(c->key);
	eap_tls_pkcs11_hold_unref(c->key_hold);
	g_free(c);
}

int
eap_tls_parse_version(const gchar *text)
{
	if (g_strcmp0(text, "1.2") == 0)
		return TLS1_2_VERSION;
	if (g_strcmp0(text, "1.3") == 0)
		return TLS1_3_VERSION;
	return 0;
}

/* Setting helpers: key is key_prefix + name. A token object or a TPM
 * handle is returned as written: it is no path. */
static gchar *
tls_setting_path(JoindEapSession *s, const gchar *key_prefix, const gchar *name)
{
	g_autofree gchar *key = g_strconcat(key_prefix, name, NULL);
	g_autofree gchar *value = joind_eap_session_get_setting(s, key);

	if (eap_tls_key_form(value) != EAP_TLS_KEY_FILE)
		return g_steal_pointer(&value);
	return joind_eap_session_get_setting_path(s, key);
}

static gchar *
tls_where(JoindEapSession *s, const gchar *key_prefix, const gchar *name)
{
	g_autofree gchar *key = g_strconcat(key_prefix, name, NULL);

	return joind_eap_session_describe_setting(s, key);
}

typedef struct {
	gchar *data;
	gsize len;
} TlsFileBytes;

/* Key files hold private keys (a PKCS#12 bundle or a combined PEM in
 * ClientCert too): their bytes are overwritten before the memory goes back
 * to the allocator, where the next g_malloc() could hand them to anyone. */
static void
tls_file_bytes_wipe(gpointer user_data)
{
	TlsFileBytes *f = user_data;

	joind_secret_clear(f->data, f->len);
	g_free(f->data);
	g_free(f);
}

static gboolean
tls_read_file(JoindEapSession *s, const gchar *key_prefix, const gchar *name, const gchar *path,
              GBytes **contents, GError **error)
{
	g_autoptr(GError) local = NULL;
	TlsFileBytes *f = g_new0(TlsFileBytes, 1);
	const gchar *pem = NULL;

	/* iwd's embed:<name>: a [@pem@name] group of the profile itself. */
	if (g_str_has_prefix(path, "embed:")) {
		pem = joind_eap_session_get_embedded_pem(s, path + strlen("embed:"));
		if (pem == NULL)
			local = g_error_new(G_FILE_ERROR, G_FILE_ERROR_NOENT,
			                    "the profile has no [@pem@%s] group",
			                    path + strlen("embed:"));
		else {
			f->data = g_strdup(pem);
			f->len = strlen(pem);
		}
	}
	if (pem == NULL &&
	    (local != NULL || !g_file_get_contents(path, &f->data, &f->len, &local))) {
		g_autofree gchar *where = tls_where(s, key_prefix, name);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s: %s", where,
		            local->message);
		g_free(f);
		return FALSE;
	}
	if (contents != NULL)
		*contents = g_bytes_new_with_free_func(f->data, f->len, tls_file_bytes_wipe, f);
	else
		tls_file_bytes_wipe(f);
	return TRUE;
}

static gboolean
tls_check_versions(JoindEapSession *s, const gchar *key_prefix, int *min, int *max, GError **error)
{
	const gchar *names[] = {"Version-Min", "Version-Max"};
	int *out[] = {min, max};

	*min = TLS1_2_VERSION;
	*max = TLS1_3_VERSION;
	for (guint i = 0; i < 2; i++) {
		g_autofree gchar *key = g_strconcat(key_prefix, names[i], NULL);
		g_autofree gchar *value = joind_eap_session_get_setting(s, key);
		if (value == NULL)
			continue;
		*out[i] = eap_tls_parse_version(value);
		if (*out[i] == 0) {
			g_autofree gchar *where = joind_eap_session_describe_setting(s, key);
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s: \"%s\" is not a TLS version joind supports (1.2 or 1.3)",
			            where, value);
			return FALSE;
		}
	}
	if (*min > *max) {
		g_autofree gchar *where = tls_where(s, key_prefix, "Version-Min");
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s is above %s%sVersion-Max", where, joind_eap_session_get_prefix(s),
		            key_prefix);
		return FALSE;
	}
	return TRUE;
}

static gboolean
tls_masks_unset(const EapTlsConfig *c)
{
	const gchar *masks = c->domain_masks != NULL ? c->domain_masks : "";

	return masks[strspn(masks, " \t;")] == '\0';
}

/* Every public CA vouches for millions of names: trusting the system store
 * without naming the server would let anyone who owns a web site (and so
 * holds a publicly trusted certificate) pose as the authenticator and
 * collect the credentials the tunnel carries. Android 11 and later refuse
 * the same configuration. */
static gboolean
tls_check_system_ca_names(JoindEapSession *s, const gchar *method, const gchar *key_prefix,
                          const EapTlsConfig *c, GError **error)
{
	if (c->ca_file != NULL || !c->system_ca ||
	    eap_tls_domain_masks_name_servers(c->domain_masks))
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            "%s %s: with %s%sSystemCA=true EAP-%s would accept any server whose "
	            "certificate a public CA issued, an impostor's too. Set %s%sServerDomainMask "
	            "to the server's name (e.g. radius.example.com or *.example.com)",
	            c->domain_where,
	            tls_masks_unset(c) ? "is not set" : "names no domain, only wildcards",
	            joind_eap_session_get_prefix(s), key_prefix, method,
	            joind_eap_session_get_prefix(s), key_prefix);
	return FALSE;
}

static gboolean
tls_check_pins(JoindEapSession *s, const gchar *key_prefix, EapTlsConfig *c, GError **error)
{
	g_autofree gchar *key = g_strconcat(key_prefix, "ServerKeyPin", NULL);
	g_autofree gchar *value = joind_eap_session_get_setting(s, key);
	const gchar *reason = NULL;

	c->pin_where = joind_eap_session_describe_setting(s, key);
	if (value == NULL)
		return TRUE;
	c->pins = eap_tls_pins_parse(value, &reason);
	if (c->pins != NULL)
		return TRUE;
	return joind_set_error(error, JOIND_ERROR_INVALID_ARGS, "%s: %s", c->pin_where, reason);
}

/* The trust anchors: CACert, else SystemCA, else a ServerKeyPin alone.
 * With none of them every server is refused, but only once it has shown
 * its certificate (eap-tls-conn.c), so that the refusal can tell a person
 * the pin to set. */
static gboolean
tls_check_trust(JoindEapSession *s, const gchar *method, const gchar *key_prefix, EapTlsConfig *c,
                GError **error)
{
	g_autofree gchar *system_key = g_strconcat(key_prefix, "SystemCA", NULL);
	g_autofree gchar *mask_key = g_strconcat(key_prefix, "ServerDomainMask", NULL);
	g_autofree gchar *ca_setting = tls_where(s, key_prefix, "CACert");

	c->setting_prefix = g_strconcat(joind_eap_session_get_prefix(s), key_prefix, NULL);
	c->ca_file = tls_setting_path(s, key_prefix, "CACert");
	c->system_ca = joind_eap_session_get_setting_bool(s, system_key, FALSE);
	if (!tls_check_pins(s, key_prefix, c, error))
		return FALSE;
	if (c->ca_file != NULL) {
		c->ca_where =
		        g_strdup_printf("the CA certificates in %s (%s)", c->ca_file, ca_setting);
		if (!tls_read_file(s, key_prefix, "CACert", c->ca_file, &c->ca_pem, error))
			return FALSE;
	} else if (c->system_ca) {
		c->ca_where =
		        g_strdup_printf("the system CA store (%sSystemCA=true)", c->setting_prefix);
	} else {
		c->ca_where = g_strdup_printf("no CA (%s is not set)", ca_setting);
	}
	c->domain_masks = joind_eap_session_get_setting(s, mask_key);
	c->domain_where = joind_eap_session_describe_setting(s, mask_key);
	return tls_check_system_ca_names(s, method, key_prefix, c, error);
}

/* A file is read; a token object or a TPM handle is checked for its form
 * only (the token is looked at when the key is needed). */
static gboolean
tls_check_credential(JoindEapSession *s, const gchar *key_prefix, const gchar *name,
                     const gchar *value, GError **error)
{
	g_autofree gchar *reason = NULL;

	if (value == NULL)
		return TRUE;
	if (eap_tls_key_form(value) == EAP_TLS_KEY_FILE)
		return tls_read_file(s, key_prefix, name, value, NULL, error);
	if (!eap_tls_key_reference_is_valid(value, strcmp(name, "ClientKey") == 0, &reason)) {
		g_autofree gchar *where = tls_where(s, key_prefix, name);
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS, "%s: %s", where, reason);
	}
	return TRUE;
}

static gboolean
tls_check_credential_files(JoindEapSession *s, const gchar *method, const gchar *key_prefix,
                           gboolean require, GError **error)
{
	g_autofree gchar *cert = tls_setting_path(s, key_prefix, "ClientCert");
	g_autofree gchar *key = tls_setting_path(s, key_prefix, "ClientKey");
	g_autofree gchar *bundle = tls_setting_path(s, key_prefix, "ClientKeyBundle");
	const gchar *p = joind_eap_session_get_prefix(s);

	if (bundle != NULL && (cert != NULL || key != NULL)) {
		g_autofree gchar *where = tls_where(s, key_prefix, "ClientKeyBundle");
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s: the bundle holds the certificate and the key; set "
		                       "either it or %s%sClientCert and %s%sClientKey, not both",
		                       where, p, key_prefix, p, key_prefix);
	}
	if (cert == NULL && key == NULL && bundle == NULL && require) {
		g_autofree gchar *where = tls_where(s, key_prefix, "ClientCert");
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s is not set: EAP-%s authenticates with a client "
		                       "certificate (ClientCert and ClientKey, or "
		                       "ClientKeyBundle)",
		                       where, method);
	}
	if (cert == NULL && key != NULL) {
		g_autofree gchar *where = tls_where(s, key_prefix, "ClientCert");
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s is not set but %s%sClientKey is", where, p, key_prefix);
	}
	return tls_check_credential(s, key_prefix, "ClientCert", cert, error) &&
	       tls_check_credential(s, key_prefix, "ClientKey", key, error) &&
	       (bundle == NULL ||
	        tls_read_file(s, key_prefix, "ClientKeyBundle", bundle, NULL, error));
}

gboolean
eap_tls_config_check(JoindEapSession *session, const gchar *method, const gchar *key_prefix,
                     gboolean require_client_cert, GError **error)
{
	g_autoptr(EapTlsConfig) c = g_new0(EapTlsConfig, 1);

	if (!tls_check_versions(session, key_prefix, &c->min_version, &c->max_version, error) ||
	    !tls_check_trust(session, method, key_prefix, c, error) ||
	    !tls_check_credential_files(session, method, key_prefix, require_client_cert, error))
		return FALSE;
	if (c->ca_file == NULL && !c->system_ca && c->pins == NULL)
		g_warning("EAP-%s trusts %s, no system CA (%sSystemCA) and no pinned key "
		          "(%sServerKeyPin): it will refuse every server once it presents its "
		          "certificate, before any credential goes out, naming the pin to set",
		          method, c->ca_where, c->setting_prefix, c->setting_prefix);
	/* A private CA usually signs little else than the organisation's own
	 * servers, so this works; but any certificate it ever issued (a
	 * laptop's, a printer's) would pass for the authenticator. */
	if (c->ca_file != NULL && c->pins == NULL && tls_masks_unset(c))
		g_warning("%s is not set: EAP-%s accepts any server certificate that %s issued. "
		          "Set it to the server's name",
		          c->domain_where, method, c->ca_where);
	return TRUE;
}

/* ---- credentials ---- */

static gboolean
tls_is_pem(GBytes *contents)
{
	gsize len = 0;
	const gchar *data = g_bytes_get_data(contents, &len);

	return g_strstr_len(data, (gssize)len, "-----BEGIN ") != NULL;
}

typedef struct {
	const gchar *passphrase;
	gboolean asked;
} TlsPassphrase;

static int
tls_passphrase_cb(char *buf, int size, int rwflag, void *data)
{
	TlsPassphrase *p = data;
	gsize len;

	p->asked = TRUE;
	if (p->passphrase == NULL)
		return -1;
	len = strlen(p->passphrase);
	if (len > (gsize)size)
		return -1;
	memcpy(buf, p->passphrase, len);
	return (int)len;
}

/* Every certificate of a PEM file: the first is ours, the rest its chain. */
static gboolean
tls_load_pem_certs(GBytes *contents, EapTlsConfig *c)
{
	g_autoptr(BIO) bio =
	        BIO_new_mem_buf(g_bytes_get_data(contents, NULL), (int)g_bytes_get_size(contents));
	X509 *x;

	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (c->cert == NULL) {
			c->cert = x;
			continue;
		}
		if (c->chain == NULL)
			c->chain = sk_X509_new_null();
		sk_X509_push(c->chain, x);
	}
	ERR_clear_error();
	return c->cert != NULL;
}

typedef enum {
	TLS_KEY_LOADED,
	TLS_KEY_NEEDS_PASSPHRASE,
	TLS_KEY_WRONG_PASSPHRASE,
	TLS_KEY_UNREADABLE,
} TlsKeyStatus;

static TlsKeyStatus
tls_load_pem_key(GBytes *contents, const gchar *passphrase, EapTlsConfig *c)
{
	g_autoptr(BIO) bio =
	        BIO_new_mem_buf(g_bytes_get_data(contents, NULL), (int)g_bytes_get_size(contents));
	TlsPassphrase p = {passphrase, FALSE};

	c->key = PEM_read_bio_PrivateKey(bio, NULL, tls_passphrase_cb, &p);
	ERR_clear_error();
	if (c->key != NULL)
		return TLS_KEY_LOADED;
	if (p.asked)
		return passphrase == NULL ? TLS_KEY_NEEDS_PASSPHRASE : TLS_KEY_WRONG_PASSPHRASE;
	return TLS_KEY_UNREADABLE;
}

static TlsKeyStatus
tls_load_pkcs12(GBytes *contents, const gchar *passphrase, EapTlsConfig *c)
{
	const unsigned char *der = g_bytes_get_data(contents, NULL);
	g_autoptr(PKCS12) p12 = d2i_PKCS12(NULL, &der, (long)g_bytes_get_size(contents));
	const gchar *pass = passphrase;
	TlsKeyStatus status = TLS_KEY_LOADED;
	X509 *cert = NULL;
	STACK_OF(X509) *ca = NULL;

	if (p12 == NULL) {
		ERR_clear_error();
		return TLS_KEY_UNREADABLE;
	}
	if (pass == NULL) {
		/* Bundles without a password use NULL or "" depending on the tool. */
		if (PKCS12_verify_mac(p12, NULL, 0))
			pass = NULL;
		else if (PKCS12_verify_mac(p12, "", 0))
			pass = "";
		else
			status = TLS_KEY_NEEDS_PASSPHRASE;
		ERR_clear_error();
		if (status == TLS_KEY_NEEDS_PASSPHRASE)
			return status;
	} else if (!PKCS12_verify_mac(p12, pass, -1)) {
		ERR_clear_error();
		return TLS_KEY_WRONG_PASSPHRASE;
	}
	if (!PKCS12_parse(p12, pass, &c->key, &cert, &ca)) {
		ERR_clear_error();
		return TLS_KEY_UNREADABLE;
	}
	if (c->cert == NULL) {
		c->cert = cert;
		c->chain = ca;
	} else {
		X509_free(cert);
		sk_X509_pop_free(ca, X509_free);
	}
	return c->key != NULL ? TLS_KEY_LOADED : TLS_KEY_UNREADABLE;
}

static TlsKeyStatus
tls_try_key(GBytes *key_data, const gchar *passphrase, EapTlsConfig *c)
{
	EVP_PKEY_free(g_steal_pointer(&c->key));
	return tls_is_pem(key_data) ? tls_load_pem_key(key_data, passphrase, c)
	                            : tls_load_pkcs12(key_data, passphrase, c);
}

JoindEapMethodResult
eap_tls_config_passphrase(JoindEapSession *s, const gchar *key_prefix, const gchar **value,
                          GError **error)
{
	g_autofree gchar *pass_key = g_strconcat(key_prefix, "ClientKeyPassphrase", NULL);

	switch (joind_eap_session_get_secret(s, pass_key, JOIND_SECRET_PRIVATE_KEY_PASSPHRASE,
	                                     value, error)) {
	case JOIND_EAP_SECRET_PENDING:
		return JOIND_EAP_METHOD_PENDING;
	case JOIND_EAP_SECRET_FAILED:
		return JOIND_EAP_METHOD_FAIL;
	case JOIND_EAP_SECRET_AVAILABLE:
		break;
	}
	return JOIND_EAP_METHOD_RESPOND;
}

/* The key, asking for the passphrase when it is encrypted. */
static JoindEapMethodResult
tls_load_key(JoindEapSession *s, const gchar *key_prefix, const gchar *key_name,
             const gchar *key_path, GBytes *key_data, EapTlsConfig *c, GError **error)
{
	g_autofree gchar *pass_key = g_strconcat(key_prefix, "ClientKeyPassphrase", NULL);
	g_autofree gchar *where = tls_where(s, key_prefix, key_name);
	const gchar *passphrase = NULL;
	TlsKeyStatus status = tls_try_key(key_data, NULL, c);

	if (status == TLS_KEY_NEEDS_PASSPHRASE) {
		JoindEapMethodResult r =
		        eap_tls_config_passphrase(s, key_prefix, &passphrase, error);
		if (r != JOIND_EAP_METHOD_RESPOND)
			return r;
		status = tls_try_key(key_data, passphrase, c);
	}
	switch (status) {
	case TLS_KEY_LOADED:
		return JOIND_EAP_METHOD_RESPOND;
	case TLS_KEY_WRONG_PASSPHRASE:
	case TLS_KEY_NEEDS_PASSPHRASE:
		/* Ask again next time if an agent supplied it. */
		joind_eap_session_forget_secret(s, pass_key);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: the passphrase (%s%s) does not decrypt %s", where,
		            joind_eap_session_get_prefix(s), pass_key, key_path);
		return JOIND_EAP_METHOD_FAIL;
	default:
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: %s holds no private key joind can read (PEM, PKCS#8 or PKCS#12)",
		            where, key_path);
		return JOIND_EAP_METHOD_FAIL;
	}
}

/* The certificates of a PEM file (a PKCS#12 bundle is read with its key). */
static gboolean
tls_read_certs(JoindEapSession *s, const gchar *key_prefix, const gchar *cert_name,
               const gchar *cert_path, GBytes **cert_data, EapTlsConfig *c, GError **error)
{
	if (!tls_read_file(s, key_prefix, cert_name, cert_path, cert_data, error))
		return FALSE;
	if (tls_is_pem(*cert_data) && !tls_load_pem_certs(*cert_data, c)) {
		g_autofree gchar *where = tls_where(s, key_prefix, cert_name);
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s: %s holds no PEM certificate", where, cert_path);
	}
	return TRUE;
}

/* The key belongs to the certificate (compared by their public halves:
 * a key in hardware answers that too). */
static JoindEapMethodResult
tls_check_pair(JoindEapSession *s, const gchar *key_prefix, const gchar *cert_name,
               const gchar *cert_path, const gchar *key_path, EapTlsConfig *c, GError **error)
{
	g_autofree gchar *where = tls_where(s, key_prefix, cert_name);
	/* A URI's pin-value never goes into a sentence. */
	g_autofree gchar *key_shown = key_path != NULL ? eap_tls_pkcs11_uri_redact(key_path) : NULL;

	if (c->cert != NULL && X509_check_private_key(c->cert, c->key) == 1)
		return JOIND_EAP_METHOD_RESPOND;
	ERR_clear_error();
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            c->cert == NULL ? "%s: %s holds no certificate"
	                            : "%s: the key in %s does not belong to the certificate",
	            where,
	            c->cert == NULL ? cert_path
	            : key_shown     ? key_shown
	                            : cert_path);
	return JOIND_EAP_METHOD_FAIL;
}

/* A key on a token or in the TPM; the certificate from a file or the token. */
static JoindEapMethodResult
tls_load_hardware(JoindEapSession *s, const gchar *key_prefix, EapTlsConfig *c, GError **error)
{
	g_autofree gchar *cert_path = tls_setting_path(s, key_prefix, "ClientCert");
	g_autofree gchar *key_path = tls_setting_path(s, key_prefix, "ClientKey");
	g_autoptr(GBytes) cert_data = NULL;
	g_autoptr(GBytes) key_data = NULL;
	JoindEapMethodResult r;

	if (eap_tls_key_form(cert_path) == EAP_TLS_KEY_FILE &&
	    !tls_read_certs(s, key_prefix, "ClientCert", cert_path, &cert_data, c, error))
		return JOIND_EAP_METHOD_FAIL;
	if (key_path != NULL && eap_tls_key_form(key_path) == EAP_TLS_KEY_FILE) {
		if (!tls_read_file(s, key_prefix, "ClientKey", key_path, &key_data, error))
			return JOIND_EAP_METHOD_FAIL;
		if (!eap_tls_tpm_is_tss2(key_data)) {
			g_autofree gchar *where = tls_where(s, key_prefix, "ClientKey");
			return joind_eap_method_fail(
			        error, JOIND_ERROR_INVALID_ARGS,
			        "%s: a certificate on a token goes with a key on "
			        "the token or in the TPM, not with the key file %s",
			        where, key_path);
		}
	}
	r = eap_tls_hwkey_load(s, key_prefix, key_data, c, error);
	if (r != JOIND_EAP_METHOD_RESPOND)
		return r;
	return tls_check_pair(s, key_prefix, "ClientCert", cert_path, key_path, c, error);
}

static JoindEapMethodResult
tls_load_credentials(JoindEapSession *s, const gchar *key_prefix, EapTlsConfig *c, GError **error)
{
	g_autofree gchar *bundle_path = tls_setting_path(s, key_prefix, "ClientKeyBundle");
	/* A bundle is read like a ClientCert that holds the key too. */
	const gchar *cert_name = bundle_path != NULL ? "ClientKeyBundle" : "ClientCert";
	g_autofree gchar *cert_path = bundle_path != NULL
	                                      ? g_steal_pointer(&bundle_path)
	                                      : tls_setting_path(s, key_prefix, "ClientCert");
	g_autofree gchar *key_path = tls_setting_path(s, key_prefix, "ClientKey");
	const gchar *key_name = key_path != NULL ? "ClientKey" : cert_name;
	g_autoptr(GBytes) cert_data = NULL;
	g_autoptr(GBytes) key_data = NULL;
	JoindEapMethodResult r;

	if (cert_path == NULL)
		return JOIND_EAP_METHOD_RESPOND;
	if (eap_tls_hwkey_named(s, key_prefix))
		return tls_load_hardware(s, key_prefix, c, error);
	if (!tls_read_certs(s, key_prefix, cert_name, cert_path, &cert_data, c, error))
		return JOIND_EAP_METHOD_FAIL;
	if (key_path == NULL)
		key_data = g_bytes_ref(cert_data); /* a combined PEM or a PKCS#12 bundle */
	else if (!tls_read_file(s, key_prefix, "ClientKey", key_path, &key_data, error))
		return JOIND_EAP_METHOD_FAIL;
	if (key_path != NULL && eap_tls_tpm_is_tss2(key_data))
		r = eap_tls_hwkey_load(s, key_prefix, key_data, c, error);
	else
		r = tls_load_key(s, key_prefix, key_name, key_path != NULL ? key_path : cert_path,
		                 key_data, c, error);
	if (r != JOIND_EAP_METHOD_RESPOND)
		return r;
	return tls_check_pair(s, key_prefix, cert_name, cert_path, key_path, c, error);
}

JoindEapMethodResult
eap_tls_config_load(JoindEapSession *session, const gchar *method, const gchar *key_prefix,
                    gboolean require_client_cert, EapTlsConfig **config, GError **error)
{
	g_autoptr(EapTlsConfig) c = g_new0(EapTlsConfig, 1);
	g_autofree gchar *resume_key = g_strconcat(key_prefix, "FastReauthentication", NULL);
	JoindEapMethodResult r;

	*config = NULL;
	c->method = g_strdup(method);
	c->resume = joind_eap_session_get_setting_bool(session, resume_key, TRUE);
	if (!tls_check_versions(session, key_prefix, &c->min_version, &c->max_version, error) ||
	    !tls_check_trust(session, method, key_prefix, c, error) ||
	    !tls_check_credential_files(session, method, key_prefix, require_client_cert, error))
		return JOIND_EAP_METHOD_FAIL;
	r = tls_load_credentials(session, key_prefix, c, error);
	if (r == JOIND_EAP_METHOD_RESPOND)
		*config = g_steal_pointer(&c);
	return r;
}

/* ---- profile check ---- */

static gboolean
tls_profile_has(JoindProfile *profile, const gchar *prefix, const gchar *name)
{
	g_autofree gchar *key = g_strconcat(prefix, name, NULL);

	return joind_profile_has_key(profile, "Security", key);
}

/* ClientKey=pkcs11:... (RFC 7512), handle:0x81......, ClientCert=pkcs11:... */
static gboolean
tls_profile_check_reference(JoindProfile *profile, const gchar *prefix, const gchar *name,
                            GError **error)
{
	g_autofree gchar *key = g_strconcat(prefix, name, NULL);
	g_autofree gchar *value = joind_profile_get_string(profile, "Security", key);
	g_autofree gchar *reason = NULL;

	if (value == NULL ||
	    eap_tls_key_reference_is_valid(value, strcmp(name, "ClientKey") == 0, &reason))
		return TRUE;
	g_autofree gchar *where = joind_profile_describe_key(profile, "Security", key);
	return joind_set_error(error, JOIND_ERROR_INVALID_ARGS, "%s: %s", where, reason);
}

gboolean
eap_tls_config_check_profile(JoindProfile *profile, const gchar *prefix, GError **error)
{
	g_autofree gchar *pin_key = g_strconcat(prefix, "ServerKeyPin", NULL);
	g_autofree gchar *pins_text = joind_profile_get_string(profile, "Security", pin_key);
	g_auto(GStrv) pins = NULL;
	const gchar *reason = NULL;

	if (pins_text != NULL && (pins = eap_tls_pins_parse(pins_text, &reason)) == NULL) {
		g_autofree gchar *where = joind_profile_describe_key(profile, "Security", pin_key);
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS, "%s: %s", where, reason);
	}
	if (tls_profile_has(profile, prefix, "ClientKeyBundle") &&
	    (tls_profile_has(profile, prefix, "ClientCert") ||
	     tls_profile_has(profile, prefix, "ClientKey"))) {
		g_autofree gchar *key = g_strconcat(prefix, "ClientKeyBundle", NULL);
		g_autofree gchar *where = joind_profile_describe_key(profile, "Security", key);
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s: the bundle holds the certificate and the key; set "
		                       "either it or %sClientCert and %sClientKey, not both",
		                       where, prefix, prefix);
	}
	return tls_profile_check_reference(profile, prefix, "ClientKey", error) &&
	       tls_profile_check_reference(profile, prefix, "ClientCert", error);
}
