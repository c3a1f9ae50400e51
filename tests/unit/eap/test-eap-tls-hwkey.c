/* test-eap-tls-hwkey.c - the value forms of hardware-held client keys:
 * RFC 7512 PKCS#11 URIs (the RFC's own examples, section 3.3), TPM
 * handles, and the sentences of the PKCS#11 and TPM adapters when the
 * token or the TPM is not there. */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "eap-tls-pkcs11.h"
#include "eap-tls-tpm.h"
#include "eap-tls-uri.h"
#include "joind-error.h"

/* RFC 7512, section 3.3: every example is a valid URI. */
static const gchar *const rfc7512_examples[] = {
        "pkcs11:",
        "pkcs11:object=my-pubkey;type=public",
        "pkcs11:object=my-key;type=private?pin-source=file:/etc/token",
        "pkcs11:token=The%20Software%20PKCS%2311%20Softtoken;manufacturer=Snake%20Oil,%20Inc.;"
        "model=1.0;object=my-certificate;type=cert;id=%69%95%3E%5C%F4%BD%EC%91;serial="
        "?pin-source=file:/etc/token_pin",
        "pkcs11:object=my-sign-key;type=private?module-name=mypkcs11",
        "pkcs11:object=my-sign-key;type=private?module-path=/mnt/libmypkcs11.so.1",
        "pkcs11:token=Software%20PKCS%2311%20softtoken;manufacturer=Snake%20Oil,%20Inc."
        "?pin-value=the-pin",
        "pkcs11:slot-description=Sun%20Metaslot",
        "pkcs11:library-manufacturer=Snake%20Oil,%20Inc.;library-description=Soft%20Token%20"
        "Library;library-version=1.23",
        "pkcs11:token=my-token;object=my-certificate;type=cert;vendor-aaa=value-a"
        "?pin-source=file:/etc/token_pin&vendor-bbb=value-b",
        "pkcs11:token=A%20name%20with%20a%20substring%20%25%3B;object=my-certificate;type=cert",
        "pkcs11:token=Name%20with%20a%20small%20A%20with%20acute:%20%C3%A1;"
        "object=my-certificate;type=cert",
        "pkcs11:token=my-token;object=my-certificate;type=cert;slot-id=1",
        NULL,
};

static void
test_rfc_examples(void)
{
	for (guint i = 0; rfc7512_examples[i] != NULL; i++) {
		g_autofree gchar *reason = NULL;
		g_autoptr(EapTlsPkcs11Uri) uri =
		        eap_tls_pkcs11_uri_parse(rfc7512_examples[i], &reason);

		g_test_message("%s", rfc7512_examples[i]);
		g_assert_null(reason);
		g_assert_nonnull(uri);
	}
}

static void
test_decoded_fields(void)
{
	g_autofree gchar *reason = NULL;
	g_autoptr(EapTlsPkcs11Uri) uri = eap_tls_pkcs11_uri_parse(rfc7512_examples[3], &reason);
	g_autoptr(EapTlsPkcs11Uri) acute = eap_tls_pkcs11_uri_parse(rfc7512_examples[11], &reason);
	g_autoptr(EapTlsPkcs11Uri) pin = eap_tls_pkcs11_uri_parse(rfc7512_examples[6], &reason);
	g_autofree gchar *described = eap_tls_pkcs11_uri_describe(uri);

	g_assert_cmpstr(uri->token, ==, "The Software PKCS#11 Softtoken");
	g_assert_cmpstr(uri->object, ==, "my-certificate");
	g_assert_cmpstr(uri->type, ==, "cert");
	g_assert_cmpstr(uri->id_hex, ==, "69953e5cf4bdec91");
	g_assert_true(uri->has_pin);
	g_assert_cmpstr(described, ==,
	                "token “The Software PKCS#11 Softtoken”, object “my-certificate” "
	                "(id 69953e5cf4bdec91)");
	g_assert_cmpstr(acute->token, ==, "Name with a small A with acute: \xc3\xa1");
	g_assert_true(pin->has_pin);
	g_assert_null(pin->object);
}

static void
test_malformed(void)
{
	static const struct {
		const gchar *uri, *reason;
	} cases[] = {
	        {"pkcs12:token=a", "a PKCS#11 URI begins with “pkcs11:”"},
	        {"pkcs11:token=a;token=b", "“token” is given twice"},
	        {"pkcs11:token=a b", "the value of “token” has a character that must be"},
	        {"pkcs11:id=%ZZ", "the value of “id” has a character that must be"},
	        {"pkcs11:token=a/b", "the value of “token” has a character that must be"},
	        {"pkcs11:type=secret", "“type=secret” is not a valid type"},
	        {"pkcs11:slot-id=one", "“slot-id=one” is not a valid slot-id"},
	        {"pkcs11:library-version=1.", "“library-version=1.” is not a valid"},
	        {"pkcs11:label=k", "“label” is not an RFC 7512 path attribute"},
	        {"pkcs11:object=k?pin=1", "“pin” is not an RFC 7512 query attribute"},
	        {"pkcs11:object=k?pin-value=a&pin-value=b", "“pin-value” is given twice"},
	        {"pkcs11:object", "“object” is not name=value"},
	        {"pkcs11:token=%C3", "the value of “token” is not UTF-8 text"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *reason = NULL;
		g_autoptr(EapTlsPkcs11Uri) uri = eap_tls_pkcs11_uri_parse(cases[i].uri, &reason);

		g_test_message("%s -> %s", cases[i].uri, reason);
		g_assert_null(uri);
		g_assert_true(g_str_has_prefix(reason, cases[i].reason));
	}
}

/* The PIN never reaches a sentence: not when it is malformed, not in the
 * text shown for the setting. */
static void
test_pin_never_shown(void)
{
	g_autofree gchar *reason = NULL;
	g_autoptr(EapTlsPkcs11Uri) bad =
	        eap_tls_pkcs11_uri_parse("pkcs11:object=k?pin-value=Zq9 secret", &reason);
	g_autofree gchar *shown = eap_tls_pkcs11_uri_redact(
	        "pkcs11:token=t;object=k?pin-value=Zq9secret&module-name=m");
	g_autofree gchar *only = eap_tls_pkcs11_uri_redact("pkcs11:object=k?pin-value=Zq9secret");

	g_assert_null(bad);
	g_assert_null(strstr(reason, "Zq9"));
	g_assert_cmpstr(shown, ==, "pkcs11:token=t;object=k?module-name=m");
	g_assert_cmpstr(only, ==, "pkcs11:object=k");
}

static void
test_references(void)
{
	static const struct {
		const gchar *value;
		gboolean is_key;
		const gchar *reason; /* NULL: valid */
	} cases[] = {
	        {"/etc/joind/key.pem", TRUE, NULL},
	        {"pkcs11:token=t;object=k;type=private", TRUE, NULL},
	        {"pkcs11:token=t;id=%01", TRUE, NULL},
	        {"pkcs11:token=t;object=c;type=cert", FALSE, NULL},
	        {"pkcs11:token=t", TRUE, "the URI names no object"},
	        {"pkcs11:object=c;type=cert", TRUE, "type=cert names no private key"},
	        {"pkcs11:object=k;type=private", FALSE, "type=private names no certificate"},
	        {"handle:0x81000001", TRUE, NULL},
	        {"handle:0x81ffffff", TRUE, NULL},
	        {"handle:0x81000001", FALSE, "a TPM handle holds a key, not a certificate"},
	        {"handle:0x80000001", TRUE, "a TPM key handle is"},
	        {"handle:0x8100001", TRUE, "a TPM key handle is"},
	        {"handle:81000001", TRUE, "a TPM key handle is"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *reason = NULL;
		gboolean ok =
		        eap_tls_key_reference_is_valid(cases[i].value, cases[i].is_key, &reason);

		g_test_message("%s -> %s", cases[i].value, reason);
		g_assert_cmpint(ok, ==, cases[i].reason == NULL);
		if (cases[i].reason != NULL)
			g_assert_true(g_str_has_prefix(reason, cases[i].reason));
	}
}

/* An empty SoftHSM2 token directory: the module lists no token, and the
 * adapter says so (the sentence around it is the wired test's). */
static void
test_pkcs11_no_token(void)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *conf = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *detail = NULL;
	g_autoptr(EapTlsPkcs11Hold) hold = NULL;
	EVP_PKEY *key = NULL;
	EapTlsPkcs11Status status;

	if (!g_file_test("/usr/lib/softhsm/libsofthsm2.so", G_FILE_TEST_EXISTS)) {
		g_test_skip("softhsm2 is not installed (scripts/install-deps)");
		return;
	}
	dir = g_dir_make_tmp("joind-hwkey-XXXXXX", NULL);
	conf = g_build_filename(dir, "softhsm2.conf", NULL);
	text = g_strdup_printf("directories.tokendir = %s\nobjectstore.backend = file\n", dir);
	g_assert_true(g_file_set_contents(conf, text, -1, NULL));
	g_setenv("SOFTHSM2_CONF", conf, TRUE);
	status = eap_tls_pkcs11_load_key("pkcs11:token=absent;object=k;type=private", "Zq9pin",
	                                 &key, &hold, &detail);
	g_test_message("detail: %s", detail);
	g_assert_cmpint(status, ==, EAP_TLS_PKCS11_NOT_FOUND);
	g_assert_null(key);
	g_assert_null(hold);
	g_remove(conf);
	g_rmdir(dir);
}

/* No TPM behind the TCTI (tcti_conf: main.conf's, NULL for the
 * environment's): the sentence starts with how joind tried to reach it,
 * and the environment is as it was. */
static void
assert_tpm_unreachable(const gchar *tcti_conf, const gchar *sentence)
{
	g_autoptr(GError) error = NULL;
	gboolean asked = TRUE;
	EVP_PKEY *key;

	if (!g_file_test("/usr/lib/x86_64-linux-gnu/ossl-modules/tpm2.so", G_FILE_TEST_EXISTS)) {
		g_test_skip("tpm2-openssl is not installed (scripts/install-deps)");
		return;
	}
	key = eap_tls_tpm_load_key(tcti_conf, "handle:0x81000001", NULL, NULL, &asked, &error);
	g_assert_null(key);
	g_assert_false(asked);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_true(g_str_has_prefix(error->message, sentence));
	g_assert_cmpstr(g_getenv("TPM2OPENSSL_TCTI"), ==, "swtpm:host=127.0.0.1,port=1");
}

static void
test_tpm_unreachable(void)
{
	assert_tpm_unreachable(NULL, "the TPM cannot be reached through "
	                             "TPM2OPENSSL_TCTI=swtpm:host=127.0.0.1,port=1: OpenSSL's "
	                             "tpm2 provider");
}

/* main.conf's TCTI overrides the environment's while the provider loads. */
static void
test_tpm_tcti_from_config(void)
{
	assert_tpm_unreachable("swtpm:host=127.0.0.1,port=2",
	                       "the TPM cannot be reached through main.conf's [EAP] "
	                       "TPM2TCTI=swtpm:host=127.0.0.1,port=2: OpenSSL's tpm2 provider");
}

int
main(int argc, char **argv)
{
	/* No TPM: port 1 on loopback refuses at once. Set before any module
	 * starts a thread (setenv is not thread-safe). */
	g_setenv("TPM2OPENSSL_TCTI", "swtpm:host=127.0.0.1,port=1", TRUE);
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap-tls/pkcs11-uri/rfc7512-examples", test_rfc_examples);
	g_test_add_func("/eap-tls/pkcs11-uri/decoded", test_decoded_fields);
	g_test_add_func("/eap-tls/pkcs11-uri/malformed", test_malformed);
	g_test_add_func("/eap-tls/pkcs11-uri/pin-never-shown", test_pin_never_shown);
	g_test_add_func("/eap-tls/key-references", test_references);
	g_test_add_func("/eap-tls/pkcs11/no-token", test_pkcs11_no_token);
	g_test_add_func("/eap-tls/tpm/unreachable", test_tpm_unreachable);
	g_test_add_func("/eap-tls/tpm/tcti-from-config", test_tpm_tcti_from_config);
	return g_test_run();
}
