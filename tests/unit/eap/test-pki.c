/* test-pki.c - throw-away PKI for the TLS tests. */
#include "test-pki.h"

#include <glib/gstdio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509v3.h>

static EVP_PKEY *
pki_key(void)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");

	g_assert_nonnull(key);
	return key;
}

static void
pki_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	g_assert_nonnull(ext);
	g_assert_true(X509_add_ext(cert, ext, -1));
	X509_EXTENSION_free(ext);
}

typedef struct {
	const char *cn;
	gboolean ca;
	const char *eku; /* NULL for a CA */
	const char *san;
	long not_before_days, not_after_days;
} PkiProfile;

/* issuer NULL: self-signed with key. */
static X509 *
pki_cert(const PkiProfile *p, EVP_PKEY *key, X509 *issuer, EVP_PKEY *issuer_key)
{
	static long serial = 1;
	X509 *cert = X509_new();
	X509_NAME *name = X509_NAME_new();

	X509_set_version(cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(cert), serial++);
	X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"joind test", -1,
	                           -1, 0);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)p->cn, -1, -1,
	                           0);
	X509_set_subject_name(cert, name);
	X509_set_issuer_name(cert, issuer != NULL ? X509_get_subject_name(issuer) : name);
	X509_gmtime_adj(X509_getm_notBefore(cert), p->not_before_days * 86400);
	X509_gmtime_adj(X509_getm_notAfter(cert), p->not_after_days * 86400);
	X509_set_pubkey(cert, key);
	if (issuer == NULL)
		issuer = cert;
	if (p->ca) {
		pki_ext(cert, issuer, NID_basic_constraints, "critical,CA:TRUE");
		pki_ext(cert, issuer, NID_key_usage, "critical,keyCertSign,cRLSign");
	} else {
		pki_ext(cert, issuer, NID_basic_constraints, "critical,CA:FALSE");
		pki_ext(cert, issuer, NID_key_usage, "critical,digitalSignature");
		pki_ext(cert, issuer, NID_ext_key_usage, p->eku);
	}
	pki_ext(cert, issuer, NID_subject_key_identifier, "hash");
	if (p->san != NULL)
		pki_ext(cert, issuer, NID_subject_alt_name, p->san);
	g_assert_cmpint(X509_sign(cert, issuer_key != NULL ? issuer_key : key, EVP_sha256()), >, 0);
	X509_NAME_free(name);
	return cert;
}

static gchar *
pki_write(TestPki *pki, const gchar *name, X509 *cert, EVP_PKEY *key, gboolean encrypt)
{
	gchar *path = g_build_filename(pki->dir, name, NULL);
	BIO *bio = BIO_new_file(path, "w");

	g_assert_nonnull(bio);
	if (cert != NULL)
		g_assert_true(PEM_write_bio_X509(bio, cert));
	if (key != NULL)
		g_assert_true(PEM_write_bio_PKCS8PrivateKey(
		        bio, key, encrypt ? EVP_aes_256_cbc() : NULL, NULL, 0, NULL,
		        encrypt ? (void *)TEST_PKI_PASSPHRASE : NULL));
	BIO_free(bio);
	return path;
}

static gchar *
pki_write_p12(TestPki *pki, X509 *cert, EVP_PKEY *key, X509 *ca)
{
	gchar *path = g_build_filename(pki->dir, "client.p12", NULL);
	STACK_OF(X509) *chain = sk_X509_new_null();
	PKCS12 *p12;
	BIO *bio;

	sk_X509_push(chain, ca);
	p12 = PKCS12_create(TEST_PKI_PASSPHRASE, "tlsuser", key, cert, chain, 0, 0, 0, 0, 0);
	g_assert_nonnull(p12);
	bio = BIO_new_file(path, "wb");
	g_assert_true(i2d_PKCS12_bio(bio, p12));
	BIO_free(bio);
	PKCS12_free(p12);
	sk_X509_free(chain);
	return path;
}

TestPki *
test_pki_new(void)
{
	static const PkiProfile ca_p = {"joind Test CA", TRUE, NULL, NULL, -1, 10};
	static const PkiProfile other_p = {"Unrelated Test CA", TRUE, NULL, NULL, -1, 10};
	static const PkiProfile server_p = {"auth.test",     FALSE, "serverAuth",
	                                    "DNS:auth.test", -1,    10};
	static const PkiProfile expired_p = {"auth.test",     FALSE, "serverAuth",
	                                     "DNS:auth.test", -10,   -1};
	static const PkiProfile client_p = {"tlsuser", FALSE, "clientAuth", NULL, -1, 10};
	TestPki *pki = g_new0(TestPki, 1);
	EVP_PKEY *ca_key = pki_key(), *other_key = pki_key(), *server_key = pki_key();
	EVP_PKEY *client_key = pki_key();
	X509 *ca = pki_cert(&ca_p, ca_key, NULL, NULL);
	X509 *other = pki_cert(&other_p, other_key, NULL, NULL);
	X509 *server = pki_cert(&server_p, server_key, ca, ca_key);
	X509 *expired = pki_cert(&expired_p, server_key, ca, ca_key);
	X509 *client = pki_cert(&client_p, client_key, ca, ca_key);

	pki->dir = g_dir_make_tmp("joind-pki-XXXXXX", NULL);
	g_assert_nonnull(pki->dir);
	pki->ca = pki_write(pki, "ca.pem", ca, NULL, FALSE);
	pki->other_ca = pki_write(pki, "other-ca.pem", other, NULL, FALSE);
	pki->server_cert = pki_write(pki, "server.pem", server, NULL, FALSE);
	pki->server_key = pki_write(pki, "server.key", NULL, server_key, FALSE);
	pki->expired_cert = pki_write(pki, "expired.pem", expired, NULL, FALSE);
	pki->expired_key = pki_write(pki, "expired.key", NULL, server_key, FALSE);
	pki->client_cert = pki_write(pki, "client.pem", client, NULL, FALSE);
	pki->client_key = pki_write(pki, "client.key", NULL, client_key, FALSE);
	pki->client_enc_key = pki_write(pki, "client.enc.key", NULL, client_key, TRUE);
	pki->client_combined = pki_write(pki, "client-combined.pem", client, client_key, FALSE);
	pki->client_p12 = pki_write_p12(pki, client, client_key, ca);
	X509_free(ca);
	X509_free(other);
	X509_free(server);
	X509_free(expired);
	X509_free(client);
	EVP_PKEY_free(ca_key);
	EVP_PKEY_free(other_key);
	EVP_PKEY_free(server_key);
	EVP_PKEY_free(client_key);
	return pki;
}

void
test_pki_free(TestPki *pki)
{
	const gchar *name;
	GDir *dir = g_dir_open(pki->dir, 0, NULL);

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *path = g_build_filename(pki->dir, name, NULL);
		g_unlink(path);
	}
	if (dir != NULL)
		g_dir_close(dir);
	g_rmdir(pki->dir);
	g_free(pki->dir);
	g_free(pki->ca);
	g_free(pki->other_ca);
	g_free(pki->server_cert);
	g_free(pki->server_key);
	g_free(pki->expired_cert);
	g_free(pki->expired_key);
	g_free(pki->client_cert);
	g_free(pki->client_key);
	g_free(pki->client_enc_key);
	g_free(pki->client_p12);
	g_free(pki->client_combined);
	g_free(pki);
}
