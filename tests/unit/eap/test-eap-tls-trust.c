/* test-eap-tls-trust.c - what the TLS-based methods (TLS, PEAP, TTLS) accept
 * as trust settings, and that key files do not linger in freed memory.
 *
 * The system CA store without ServerDomainMask is refused (any holder of a
 * publicly trusted certificate could pose as the authenticator), both by the
 * settings check a port runs before it starts and by the load a conversation
 * runs; a mask made of wildcards alone is no mask. A private CACert without
 * a mask works but is warned about.
 *
 * Server key pins: computed as the openssl command line does, parsed
 * strictly, and deciding a handshake alone (no CA needed; another key is
 * refused even when a CA vouches for it).
 *
 * The binary is linked with -Wl,--wrap=g_free: __wrap_g_free() looks at
 * every block the TLS code frees while a test watches, to check that no
 * private key is handed back to the allocator readable.
 */
#include <malloc.h>
#include <string.h>

#include <openssl/pem.h>

#include "eap-peap.h"
#include "eap-tls-autoptr.h"
#include "eap-tls-config.h"
#include "eap-tls-conn.h"
#include "eap-tls-pin.h"
#include "eap-tls-domain.h"
#include "eap-tls.h"
#include "eap-ttls.h"
#include "joind-eap-private.h"
#include "joind-error.h"
#include "test-pki.h"

static TestPki *pki;

/* ---- freed blocks --------------------------------------------------------- */

void __real_g_free(gpointer mem);
void __wrap_g_free(gpointer mem);

static struct {
	gboolean armed;
	gsize len;          /* the key file's size */
	guint with_key;     /* blocks freed that still held "PRIVATE KEY" */
	guint wiped_blocks; /* blocks of at least len octets freed all zero */
} freed;

void
__wrap_g_free(gpointer mem)
{
	if (freed.armed && mem != NULL) {
		gsize size = malloc_usable_size(mem);
		const guint8 *p = mem;
		gsize n = MIN(size, freed.len);
		gboolean zero = size >= freed.len;

		if (memmem(p, size, "PRIVATE KEY", strlen("PRIVATE KEY")) != NULL)
			freed.with_key++;
		for (gsize i = 0; zero && i < n; i++)
			zero = p[i] == 0;
		freed.wiped_blocks += zero;
	}
	__real_g_free(mem);
}

/* ---- sessions ------------------------------------------------------------- */

static void
ignore_send(JoindEapSession *session, const guint8 *packet, gsize len, gpointer user_data)
{
}

static const JoindEapSessionCallbacks callbacks = {.send = ignore_send};

/* A session for EAP-<method> with these extra [Security] lines; the
 * client credentials for TLS, a phase 2 for the tunnels. */
static JoindEapSession *
session_new(const gchar *method, const gchar *extra)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree gchar *text = NULL;

	if (g_str_equal(method, "TLS"))
		text = g_strdup_printf("[Security]\nEAP-Method=TLS\nEAP-Identity=tlsuser\n"
		                       "EAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s\n%s\n",
		                       pki->client_cert, pki->client_key, extra);
	else
		text = g_strdup_printf(
		        "[Security]\nEAP-Method=%s\nEAP-Identity=anonymous\n"
		        "EAP-%s-Phase2-Method=Tunneled-PAP\n"
		        "EAP-%s-Phase2-Identity=user\nEAP-%s-Phase2-Password=pw\n%s\n",
		        method, method, method, method, extra);
	g_assert_true(g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, NULL));
	return joind_eap_session_new_for_keyfile(kf, &callbacks, NULL);
}

static void
assert_refused(JoindEapSession *s, const gchar *part)
{
	g_autoptr(GError) error = NULL;

	g_assert_false(joind_eap_session_check(s, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	if (strstr(error->message, part) == NULL)
		g_error("\"%s\" lacks \"%s\"", error->message, part);
}

/* ---- tests ---------------------------------------------------------------- */

/* Each TLS-based method refuses the system store without a mask, naming
 * the key to add. PEAP needs no phase 2 registered to get this far: the
 * TLS settings are checked first. */
static void
test_system_ca_needs_mask(void)
{
	const gchar *methods[] = {"TLS", "PEAP", "TTLS"};

	for (gsize i = 0; i < G_N_ELEMENTS(methods); i++) {
		g_autofree gchar *system = g_strdup_printf("EAP-%s-SystemCA=true", methods[i]);
		g_autofree gchar *empty = g_strdup_printf(
		        "EAP-%s-SystemCA=true\nEAP-%s-ServerDomainMask=", methods[i], methods[i]);
		g_autofree gchar *part =
		        g_strdup_printf("EAP-%s-ServerDomainMask is not set", methods[i]);
		g_autoptr(JoindEapSession) a = session_new(methods[i], system);
		g_autoptr(JoindEapSession) b = session_new(methods[i], empty);

		assert_refused(a, part);
		assert_refused(b, part);
	}
}

/* The load a conversation runs refuses it too (the connect error). */
static void
test_system_ca_load_refused(void)
{
	g_autoptr(JoindEapSession) s = session_new("TLS", "EAP-TLS-SystemCA=true");
	g_autoptr(EapTlsConfig) config = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(eap_tls_config_load(s, "TLS", "TLS-", TRUE, &config, &error), ==,
	                JOIND_EAP_METHOD_FAIL);
	g_assert_null(config);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "EAP-TLS-ServerDomainMask is not set"));
}

/* Wildcards alone match whatever a public CA signed. */
static void
test_system_ca_wildcard_masks(void)
{
	const gchar *refused[] = {"*", "*.*", "*.test", "auth.test;*"};
	const gchar *accepted[] = {"auth.test", "*.auth.test", "other.example; *.test.example"};

	for (gsize i = 0; i < G_N_ELEMENTS(refused); i++) {
		g_autofree gchar *extra = g_strdup_printf(
		        "EAP-TLS-SystemCA=true\nEAP-TLS-ServerDomainMask=%s", refused[i]);
		g_autoptr(JoindEapSession) s = session_new("TLS", extra);

		assert_refused(s, "EAP-TLS-ServerDomainMask names no domain");
	}
	for (gsize i = 0; i < G_N_ELEMENTS(accepted); i++) {
		g_autofree gchar *extra = g_strdup_printf(
		        "EAP-TLS-SystemCA=true\nEAP-TLS-ServerDomainMask=%s", accepted[i]);
		g_autoptr(JoindEapSession) s = session_new("TLS", extra);
		g_autoptr(GError) error = NULL;

		g_assert_true(joind_eap_session_check(s, &error));
		g_assert_no_error(error);
	}
}

/* A CACert of its own wins over SystemCA: no mask needed, only a warning. */
static void
test_private_ca_without_mask_warns(void)
{
	g_autofree gchar *bare = g_strdup_printf("EAP-TLS-CACert=%s", pki->ca);
	g_autofree gchar *both =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-SystemCA=true", pki->ca);
	g_autofree gchar *masked =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ServerDomainMask=auth.test", pki->ca);
	g_autoptr(JoindEapSession) a = session_new("TLS", bare);
	g_autoptr(JoindEapSession) b = session_new("TLS", both);
	g_autoptr(JoindEapSession) c = session_new("TLS", masked);

	g_test_expect_message("joind-eap-tls-common", G_LOG_LEVEL_WARNING,
	                      "*EAP-TLS-ServerDomainMask is not set: EAP-TLS accepts any server "
	                      "certificate that the CA certificates in*");
	g_assert_true(joind_eap_session_check(a, NULL));
	g_test_assert_expected_messages();
	g_test_expect_message("joind-eap-tls-common", G_LOG_LEVEL_WARNING,
	                      "*EAP-TLS-ServerDomainMask is not set*");
	g_assert_true(joind_eap_session_check(b, NULL));
	g_test_assert_expected_messages();
	/* With a mask: no warning (an unexpected one aborts the test). */
	g_assert_true(joind_eap_session_check(c, NULL));
}

static void
test_masks_name_servers(void)
{
	g_assert_true(eap_tls_domain_masks_name_servers("radius.example.com"));
	g_assert_true(eap_tls_domain_masks_name_servers("*.example.com;auth.test"));
	g_assert_false(eap_tls_domain_masks_name_servers(NULL));
	g_assert_false(eap_tls_domain_masks_name_servers(""));
	g_assert_false(eap_tls_domain_masks_name_servers(" ; "));
	g_assert_false(eap_tls_domain_masks_name_servers("radius"));
	g_assert_false(eap_tls_domain_masks_name_servers("*.com"));
	g_assert_false(eap_tls_domain_masks_name_servers("example..com"));
}

/* The client key file's bytes are zero by the time they are freed, on the
 * check's path and the load's. */
static void
test_key_file_wiped(void)
{
	g_autofree gchar *extra =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ServerDomainMask=auth.test", pki->ca);
	g_autoptr(JoindEapSession) s = session_new("TLS", extra);
	g_autoptr(EapTlsConfig) config = NULL;
	g_autofree gchar *key = NULL;

	g_assert_true(g_file_get_contents(pki->client_key, &key, &freed.len, NULL));
	g_assert_nonnull(strstr(key, "PRIVATE KEY"));
	freed.armed = TRUE;
	g_assert_true(joind_eap_session_check(s, NULL));
	g_assert_cmpint(eap_tls_config_load(s, "TLS", "TLS-", TRUE, &config, NULL), ==,
	                JOIND_EAP_METHOD_RESPOND);
	g_clear_pointer(&config, eap_tls_config_free);
	freed.armed = FALSE;
	g_assert_cmpuint(freed.with_key, ==, 0);
	/* Read twice (check, load), wiped twice. */
	g_assert_cmpuint(freed.wiped_blocks, >=, 2);
}

/* ---- server key pins ----------------------------------------------------- */

static gchar *
pin_of(const gchar *path)
{
	g_autoptr(BIO) bio = BIO_new_file(path, "r");
	X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	gchar *pin;

	g_assert_nonnull(cert);
	pin = eap_tls_pin_of_cert(cert);
	X509_free(cert);
	return pin;
}

/* The same digest as the command the documentation gives. */
static void
test_pin_matches_openssl(void)
{
	g_autofree gchar *openssl = g_find_program_in_path("openssl");
	const gchar *certs[] = {pki->server_cert, pki->client_cert, pki->ca};

	if (openssl == NULL) {
		g_test_skip("no openssl command");
		return;
	}
	for (gsize i = 0; i < G_N_ELEMENTS(certs); i++) {
		g_autofree gchar *cmd = g_strdup_printf(
		        "sh -c 'openssl x509 -pubkey -noout -in %s | openssl pkey -pubin -outform "
		        "der | openssl dgst -sha256 -binary | base64'",
		        certs[i]);
		g_autofree gchar *out = NULL;
		g_autofree gchar *pin = pin_of(certs[i]);
		g_autofree gchar *expected = NULL;
		gint status = -1;

		g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, &status, NULL));
		g_assert_cmpint(status, ==, 0);
		expected = g_strconcat("sha256/", g_strstrip(out), NULL);
		g_assert_cmpstr(pin, ==, expected);
	}
}

static void
test_pin_parse(void)
{
	const gchar *good = "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";
	const gchar *bad[] = {
	        "",
	        "sha1/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
	        "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuF=",
	        "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU",
	        "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSu*U=",
	        "sha256/",
	        "sha",
	};
	g_autofree gchar *two = g_strdup_printf(" %s ; %s,", good, good);
	g_auto(GStrv) one = NULL;
	g_auto(GStrv) both = NULL;
	const gchar *reason = NULL;

	one = eap_tls_pins_parse(good, &reason);
	g_assert_cmpuint(g_strv_length(one), ==, 1);
	g_assert_cmpstr(one[0], ==, good);
	both = eap_tls_pins_parse(two, &reason);
	g_assert_cmpuint(g_strv_length(both), ==, 2);
	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		reason = NULL;
		g_assert_null(eap_tls_pins_parse(bad[i], &reason));
		g_assert_nonnull(reason);
	}
}

/* A handshake of an EapTlsConn (TTLS's settings: no client certificate)
 * against an in-memory server presenting server.pem. */
static gboolean
pin_handshake(const gchar *extra, GError **error)
{
	g_autoptr(JoindEapSession) s = session_new("TTLS", extra);
	g_autoptr(EapTlsConfig) config = NULL;
	g_autoptr(EapTlsConn) conn = NULL;
	g_autoptr(GByteArray) app = g_byte_array_new();
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	SSL *server;
	EapTlsConnStatus st;

	g_assert_true(SSL_CTX_use_certificate_file(ctx, pki->server_cert, SSL_FILETYPE_PEM));
	g_assert_true(SSL_CTX_use_PrivateKey_file(ctx, pki->server_key, SSL_FILETYPE_PEM));
	server = SSL_new(ctx);
	SSL_set_bio(server, BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()));
	BIO_set_mem_eof_return(SSL_get_rbio(server), -1);
	SSL_set_accept_state(server);
	g_assert_cmpint(eap_tls_config_load(s, "TTLS", "TTLS-", FALSE, &config, error), ==,
	                JOIND_EAP_METHOD_RESPOND);
	conn = eap_tls_conn_new(config, error);
	st = eap_tls_conn_process(conn, NULL, 0, app, error);
	for (guint i = 0;
	     i < 10 && st == EAP_TLS_CONN_CONTINUE && !eap_tls_conn_handshake_done(conn); i++) {
		g_autoptr(GBytes) out = eap_tls_conn_take_output(conn);
		guint8 buf[16384];
		int n;

		if (out != NULL)
			BIO_write(SSL_get_rbio(server), g_bytes_get_data(out, NULL),
			          (int)g_bytes_get_size(out));
		SSL_do_handshake(server);
		n = BIO_read(SSL_get_wbio(server), buf, sizeof(buf));
		st = eap_tls_conn_process(conn, buf, (gsize)MAX(n, 0), app, error);
	}
	SSL_free(server);
	SSL_CTX_free(ctx);
	return st != EAP_TLS_CONN_FAILED && eap_tls_conn_handshake_done(conn);
}

static void
test_pin_decides(void)
{
	g_autofree gchar *pin = pin_of(pki->server_cert);
	g_autofree gchar *other = pin_of(pki->client_cert);
	g_autofree gchar *alone = g_strdup_printf("EAP-TTLS-ServerKeyPin=%s", pin);
	g_autofree gchar *with_ca =
	        g_strdup_printf("EAP-TTLS-CACert=%s\nEAP-TTLS-ServerKeyPin=%s", pki->other_ca, pin);
	g_autofree gchar *wrong =
	        g_strdup_printf("EAP-TTLS-CACert=%s\nEAP-TTLS-ServerKeyPin=%s", pki->ca, other);
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindEapSession) s = session_new("TTLS", alone);

	/* A pin alone is a valid profile, without any warning. */
	g_assert_true(joind_eap_session_check(s, NULL));
	g_assert_true(pin_handshake(alone, &error));
	g_assert_no_error(error);
	g_assert_true(pin_handshake(with_ca, &error));
	g_assert_no_error(error);
	g_assert_false(pin_handshake(wrong, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	g_assert_nonnull(strstr(error->message, "server key not trusted"));
	g_assert_nonnull(strstr(error->message, pin));
	g_assert_nonnull(strstr(error->message, "CN=auth.test"));
	g_assert_nonnull(strstr(error->message, "valid from "));
}

int
main(int argc, char **argv)
{
	int result;

	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_tls_ops, NULL));
	g_assert_true(joind_eap_register_method(&eap_peap_ops, NULL));
	g_assert_true(joind_eap_register_method(&eap_ttls_ops, NULL));
	pki = test_pki_new();
	g_test_add_func("/eap/tls-trust/system-ca-needs-mask", test_system_ca_needs_mask);
	g_test_add_func("/eap/tls-trust/system-ca-load-refused", test_system_ca_load_refused);
	g_test_add_func("/eap/tls-trust/system-ca-wildcard-masks", test_system_ca_wildcard_masks);
	g_test_add_func("/eap/tls-trust/private-ca-without-mask-warns",
	                test_private_ca_without_mask_warns);
	g_test_add_func("/eap/tls-trust/masks-name-servers", test_masks_name_servers);
	g_test_add_func("/eap/tls-trust/key-file-wiped", test_key_file_wiped);
	g_test_add_func("/eap/tls-trust/pin-matches-openssl", test_pin_matches_openssl);
	g_test_add_func("/eap/tls-trust/pin-parse", test_pin_parse);
	g_test_add_func("/eap/tls-trust/pin-decides", test_pin_decides);
	result = g_test_run();
	test_pki_free(pki);
	return result;
}
