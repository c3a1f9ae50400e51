/* test-error.c - the error helpers the core exports to plugins: JOIND_ERROR
 * with a printf-style message returning FALSE or JOIND_EAP_METHOD_FAIL, and
 * an OpenSSL failure turned into a GError that names OpenSSL's reason and
 * leaves its error queue empty. */
#include <gio/gio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <string.h>

#include "joind-eap.h"
#include "joind-error.h"

static void
test_set_error(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) eap = NULL;

	g_assert_false(joind_set_error(&error, JOIND_ERROR_BUSY, "%s is busy (%d)", "wlan0", 3));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_assert_cmpstr(error->message, ==, "wlan0 is busy (3)");
	g_assert_cmpint(joind_eap_method_fail(&eap, JOIND_ERROR_AUTHENTICATION_FAILED,
	                                      "The server sent %u octets.", 7u),
	                ==, JOIND_EAP_METHOD_FAIL);
	g_assert_error(eap, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	g_assert_cmpstr(eap->message, ==, "The server sent 7 octets.");
	/* A caller that does not want the error still gets the result. */
	g_assert_false(joind_set_error(NULL, JOIND_ERROR_FAILED, "ignored"));
	g_assert_cmpint(joind_eap_method_fail(NULL, JOIND_ERROR_FAILED, "ignored"), ==,
	                JOIND_EAP_METHOD_FAIL);
}

static void
test_openssl_reason(void)
{
	g_autoptr(GError) error = NULL;
	EVP_MD *md;

	ERR_clear_error();
	md = EVP_MD_fetch(NULL, "NO-SUCH-DIGEST", NULL);
	g_assert_null(md);
	g_assert_cmpuint(ERR_peek_error(), !=, 0);
	g_assert_false(joind_set_error_from_openssl(&error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                            "OpenSSL could not fetch %s",
	                                            "NO-SUCH-DIGEST"));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_FAILED);
	g_assert_true(g_str_has_prefix(error->message, "OpenSSL could not fetch NO-SUCH-DIGEST: "));
	g_assert_cmpstr(error->message, !=, "OpenSSL could not fetch NO-SUCH-DIGEST: ");
	g_assert_null(strstr(error->message, "no reason given"));
	/* The queue is empty for whatever OpenSSL does next. */
	g_assert_cmpuint(ERR_peek_error(), ==, 0);
}

static void
test_openssl_no_reason(void)
{
	g_autoptr(GError) error = NULL;

	ERR_clear_error();
	g_assert_false(joind_set_error_from_openssl(&error, JOIND_ERROR, JOIND_ERROR_FAILED,
	                                            "EAP-%s: cannot set up TLS", "TTLS"));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_cmpstr(error->message, ==, "EAP-TTLS: cannot set up TLS: no reason given");
}

/* An entry whose library registered no reason strings is still named,
 * by OpenSSL's own "error:..." spelling of its code. */
static void
test_openssl_unknown_reason(void)
{
	g_autoptr(GError) error = NULL;
	int lib = ERR_get_next_error_library();

	ERR_clear_error();
	ERR_raise(lib, 77);
	g_assert_false(joind_set_error_from_openssl(&error, JOIND_ERROR, JOIND_ERROR_FAILED,
	                                            "OpenSSL failed"));
	g_assert_true(g_str_has_prefix(error->message, "OpenSSL failed: error:"));
	g_assert_cmpuint(ERR_peek_error(), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/error/set-error", test_set_error);
	g_test_add_func("/error/openssl-reason", test_openssl_reason);
	g_test_add_func("/error/openssl-no-reason", test_openssl_no_reason);
	g_test_add_func("/error/openssl-unknown-reason", test_openssl_unknown_reason);
	return g_test_run();
}
