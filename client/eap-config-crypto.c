/* eap-config-crypto.c - the certificates of an eap-config file made into
 * the PEM texts a joind profile embeds, with OpenSSL: each CA checked to
 * be an X.509 certificate, the PKCS#12 client certificate opened.
 */
#include "eap-config-profile.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <string.h>

static gchar *
bio_text(BIO *bio)
{
	char *data = NULL;
	long len = BIO_get_mem_data(bio, &data);

	return g_strndup(data, (gsize)len);
}

gchar *
eap_config_ca_pem(const GPtrArray *cas, GError **error)
{
	BIO *out = BIO_new(BIO_s_mem());
	gchar *text = NULL;
	guint i;

	for (i = 0; i < cas->len; i++) {
		gsize len = 0;
		const guchar *der = g_bytes_get_data(g_ptr_array_index(cas, i), &len);
		const guchar *end = der;
		X509 *x = d2i_X509(NULL, &end, (long)len);
		gboolean ok = x != NULL && end == der + len && PEM_write_bio_X509(out, x) == 1;

		X509_free(x);
		if (!ok)
			break;
	}
	ERR_clear_error();
	if (i == cas->len)
		text = bio_text(out);
	else
		g_set_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
		            "<CA> number %u is not an X.509 certificate (DER)", i + 1);
	BIO_free(out);
	return text;
}

void
eap_config_client_pem_free(EapConfigClientPem *pem)
{
	if (pem == NULL)
		return;
	g_free(pem->cert_pem);
	if (pem->key_pem != NULL)
		explicit_bzero(pem->key_pem, strlen(pem->key_pem));
	g_free(pem->key_pem);
	g_free(pem->common_name);
	g_free(pem);
}

static gchar *
common_name(X509 *cert)
{
	X509_NAME *subject = X509_get_subject_name(cert);
	gint i = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
	ASN1_STRING *value;
	unsigned char *utf8 = NULL;
	gint len;
	gchar *cn;

	if (i < 0)
		return NULL;
	value = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, i));
	len = ASN1_STRING_to_UTF8(&utf8, value);
	if (len <= 0)
		return NULL;
	cn = g_strndup((const gchar *)utf8, (gsize)len);
	OPENSSL_free(utf8);
	return cn;
}

/* The certificate, then its chain, then the key, into pem. */
static gboolean
write_client(EapConfigClientPem *pem, X509 *cert, STACK_OF(X509) * chain, EVP_PKEY *key)
{
	BIO *certs = BIO_new(BIO_s_mem());
	BIO *keys = BIO_new(BIO_s_mem());
	gboolean ok = PEM_write_bio_X509(certs, cert) == 1 &&
	              PEM_write_bio_PKCS8PrivateKey(keys, key, NULL, NULL, 0, NULL, NULL) == 1;

	for (gint i = 0; ok && i < sk_X509_num(chain); i++)
		ok = PEM_write_bio_X509(certs, sk_X509_value(chain, i)) == 1;
	if (ok) {
		pem->cert_pem = bio_text(certs);
		pem->key_pem = bio_text(keys);
		pem->common_name = common_name(cert);
	}
	BIO_free(certs);
	BIO_free_all(keys);
	return ok;
}

static PKCS12 *
read_pkcs12(GBytes *pkcs12, GError **error)
{
	gsize len = 0;
	const guchar *der = g_bytes_get_data(pkcs12, &len);
	PKCS12 *p12 = d2i_PKCS12(NULL, &der, (long)len);

	if (p12 == NULL)
		g_set_error_literal(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
		                    "<ClientCertificate> is not a PKCS#12 file");
	return p12;
}

EapConfigClientPem *
eap_config_client_pem(GBytes *pkcs12, const gchar *passphrase, GError **error)
{
	g_autoptr(EapConfigClientPem) pem = g_new0(EapConfigClientPem, 1);
	PKCS12 *p12 = read_pkcs12(pkcs12, error);
	EVP_PKEY *key = NULL;
	X509 *cert = NULL;
	STACK_OF(X509) *chain = NULL;
	gboolean ok = FALSE;

	if (p12 == NULL)
		return NULL;
	/* No passphrase: PKCS#12 tells an absent one from an empty one. */
	if (passphrase == NULL || *passphrase == '\0')
		passphrase = PKCS12_verify_mac(p12, NULL, 0) ? NULL : "";
	if (!PKCS12_verify_mac(p12, passphrase, -1))
		g_set_error_literal(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
		                    "the passphrase does not open the <ClientCertificate>");
	else if (!PKCS12_parse(p12, passphrase, &key, &cert, &chain) || key == NULL || cert == NULL)
		g_set_error_literal(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
		                    "<ClientCertificate> holds no certificate with its key");
	else if (!(ok = write_client(pem, cert, chain, key)))
		g_set_error_literal(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID,
		                    "<ClientCertificate>: its key cannot be written as PEM");
	ERR_clear_error();
	EVP_PKEY_free(key);
	X509_free(cert);
	sk_X509_pop_free(chain, X509_free);
	PKCS12_free(p12);
	return ok ? g_steal_pointer(&pem) : NULL;
}
