/* test-pki.h - a throw-away PKI for TLS tests, made with OpenSSL in a
 * temporary directory (EC P-256 keys: fast). Mirrors the wired bench's
 * accounts: server CN/SAN auth.test, client tlsuser, passphrase "whatever". */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TEST_PKI_PASSPHRASE "whatever"

typedef struct {
	gchar *dir;
	gchar *ca;           /* ca.pem: issues everything below */
	gchar *other_ca;     /* other-ca.pem: issues nothing we use */
	gchar *server_cert;  /* server.pem: CN=auth.test, SAN DNS:auth.test, serverAuth */
	gchar *server_key;   /* server.key */
	gchar *expired_cert; /* expired.pem: as server.pem but expired yesterday */
	gchar *expired_key;
	gchar *client_cert;     /* client.pem: CN=tlsuser, clientAuth */
	gchar *client_key;      /* client.key: unencrypted PKCS#8 */
	gchar *client_enc_key;  /* client.enc.key: PKCS#8, AES-256-CBC, TEST_PKI_PASSPHRASE */
	gchar *client_p12;      /* client.p12: cert + key + CA, TEST_PKI_PASSPHRASE */
	gchar *client_combined; /* client-combined.pem: certificate and key in one file */
} TestPki;

TestPki *test_pki_new(void);
/* Removes the directory. */
void test_pki_free(TestPki *pki);

G_END_DECLS
