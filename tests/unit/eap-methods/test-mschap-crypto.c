/* test-mschap-crypto.c - MS-CHAPv2 and MPPE constructions against the
 * published vectors of RFC 2759 section 9.2 and RFC 3079 section 3.5.3. */
#include <string.h>

#include <gio/gio.h>

#include "eap-mschap-crypto.h"

/* RFC 2759 9.2 (the same exchange feeds RFC 3079 3.5) */
static const gchar user[] = "User";
static const gchar password[] = "clientPass";
static const guint8 auth_challenge[16] = {0x5B, 0x5D, 0x7C, 0x7D, 0x7B, 0x3F, 0x2F, 0x3E,
                                          0x3C, 0x2C, 0x60, 0x21, 0x32, 0x26, 0x26, 0x28};
static const guint8 peer_challenge[16] = {0x21, 0x40, 0x23, 0x24, 0x25, 0x5E, 0x26, 0x2A,
                                          0x28, 0x29, 0x5F, 0x2B, 0x3A, 0x33, 0x7C, 0x7E};
static const guint8 challenge_hash[8] = {0xD0, 0x2E, 0x43, 0x86, 0xBC, 0xE9, 0x12, 0x26};
static const guint8 nt_hash[16] = {0x44, 0xEB, 0xBA, 0x8D, 0x53, 0x12, 0xB8, 0xD6,
                                   0x11, 0x47, 0x44, 0x11, 0xF5, 0x69, 0x89, 0xAE};
static const guint8 nt_response[24] = {0x82, 0x30, 0x9E, 0xCD, 0x8D, 0x70, 0x8B, 0x5E,
                                       0xA0, 0x8F, 0xAA, 0x39, 0x81, 0xCD, 0x83, 0x54,
                                       0x42, 0x33, 0x11, 0x4A, 0x3D, 0x85, 0xD6, 0xDF};
static const guint8 nt_hash_hash[16] = {0x41, 0xC0, 0x0C, 0x58, 0x4B, 0xD2, 0xD9, 0x1C,
                                        0x40, 0x17, 0xA2, 0xA1, 0x2F, 0xA5, 0x9F, 0x3F};
static const gchar auth_response[] = "S=407A5589115FD0D6209F510FE9C04566932CDA56";
/* RFC 3079 3.5.3 (128-bit keys) */
static const guint8 master_key[16] = {0xFD, 0xEC, 0xE3, 0x71, 0x7A, 0x8C, 0x83, 0x8C,
                                      0xB3, 0x88, 0xE5, 0x27, 0xAE, 0x3C, 0xDD, 0x31};
static const guint8 send_start_key[16] = {0x8B, 0x7C, 0xDC, 0x14, 0x9B, 0x99, 0x3A, 0x1B,
                                          0xA1, 0x18, 0xCB, 0x15, 0x3F, 0x56, 0xDC, 0xCB};

static gboolean
require_crypto(void)
{
	g_autoptr(GError) error = NULL;

	if (eap_mschap_crypto_available(&error))
		return TRUE;
	/* Skipping is visible in the TAP output; Debian's libssl3 ships the
	 * legacy provider, so this only happens on stripped-down systems. */
	g_test_skip(error->message);
	return FALSE;
}

static void
test_nt_hash(void)
{
	g_autoptr(GError) error = NULL;
	guint8 hash[16], hash_hash[16];

	if (!require_crypto())
		return;
	g_assert_true(eap_mschap_nt_hash(password, hash, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(hash, 16, nt_hash, 16);
	g_assert_true(eap_mschap_nt_hash_hash(hash, hash_hash, &error));
	g_assert_cmpmem(hash_hash, 16, nt_hash_hash, 16);
}

static void
test_nt_hash_unicode(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *long_password = g_strnfill(257, 'a');
	guint8 a[16], b[16];

	if (!require_crypto())
		return;
	/* A non-ASCII password hashes as UTF-16LE: "é" is E9 00, not the
	 * UTF-8 octets C3 A9, so it differs from the Latin-1 look-alike. */
	g_assert_true(eap_mschap_nt_hash("\xc3\xa9", a, &error));
	g_assert_true(eap_mschap_nt_hash("\xc3\xa9\xc3\xa9", b, &error));
	g_assert_true(memcmp(a, b, 16) != 0);
	/* Empty is allowed (MD4 of nothing). */
	{
		static const guint8 md4_empty[16] = {0x31, 0xd6, 0xcf, 0xe0, 0xd1, 0x6a,
		                                     0xe9, 0x31, 0xb7, 0x3c, 0x59, 0xd7,
		                                     0xe0, 0xc0, 0x89, 0xc0};
		g_assert_true(eap_mschap_nt_hash("", a, &error));
		g_assert_cmpmem(a, 16, md4_empty, 16);
	}
	g_assert_false(eap_mschap_nt_hash("\xff\xfe", a, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	g_assert_false(eap_mschap_nt_hash(long_password, a, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	long_password[256] = '\0';
	g_assert_true(eap_mschap_nt_hash(long_password, a, &error));
	g_assert_no_error(error);
}

static void
test_nt_hash_hex(void)
{
	g_autoptr(GError) error = NULL;
	guint8 hash[16];

	g_assert_true(
	        eap_mschap_nt_hash_from_hex("44ebba8d5312b8d611474411F56989AE", hash, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(hash, 16, nt_hash, 16);
	g_assert_false(
	        eap_mschap_nt_hash_from_hex("44ebba8d5312b8d611474411F56989A", hash, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	g_assert_false(
	        eap_mschap_nt_hash_from_hex("44ebba8d5312b8d611474411F56989AG", hash, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	g_assert_false(eap_mschap_nt_hash_from_hex("", hash, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

static void
test_challenge_hash(void)
{
	g_autoptr(GError) error = NULL;
	guint8 challenge[8];

	if (!require_crypto())
		return;
	g_assert_true(
	        eap_mschap_challenge_hash(peer_challenge, auth_challenge, user, challenge, &error));
	g_assert_cmpmem(challenge, 8, challenge_hash, 8);
	g_assert_cmpstr(eap_mschap_strip_domain("CORP\\User"), ==, "User");
	g_assert_cmpstr(eap_mschap_strip_domain("User"), ==, "User");
	g_assert_cmpstr(eap_mschap_strip_domain("user@realm"), ==, "user@realm");
}

static void
test_nt_response(void)
{
	g_autoptr(GError) error = NULL;
	guint8 response[24];

	if (!require_crypto())
		return;
	g_assert_true(eap_mschap_challenge_response(challenge_hash, nt_hash, response, &error));
	g_assert_cmpmem(response, 24, nt_response, 24);
	memset(response, 0, sizeof(response));
	g_assert_true(eap_mschap_v2_nt_response(auth_challenge, peer_challenge, user, nt_hash,
	                                        response, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(response, 24, nt_response, 24);
}

static void
test_authenticator_response(void)
{
	g_autoptr(GError) error = NULL;
	gchar out[EAP_MSCHAP_AUTH_RESPONSE_LEN];
	gchar lower[EAP_MSCHAP_AUTH_RESPONSE_LEN + 1];

	if (!require_crypto())
		return;
	g_assert_true(eap_mschap_v2_authenticator_response(nt_hash, nt_response, peer_challenge,
	                                                   auth_challenge, user, out, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(out, sizeof(out), auth_response, strlen(auth_response));
	g_assert_true(eap_mschap_v2_authenticator_response_equal(auth_response,
	                                                         strlen(auth_response), out));
	/* Lower-case hex digits are the same response. */
	for (gsize i = 0; i < sizeof(lower); i++)
		lower[i] = i < 2 ? auth_response[i] : g_ascii_tolower(auth_response[i]);
	g_assert_true(eap_mschap_v2_authenticator_response_equal(lower, sizeof(out), out));
	/* One digit off, truncated, or the wrong prefix: not equal. */
	lower[41] = lower[41] == '6' ? '7' : '6';
	g_assert_false(eap_mschap_v2_authenticator_response_equal(lower, sizeof(out), out));
	g_assert_false(eap_mschap_v2_authenticator_response_equal(auth_response, 41, out));
	g_assert_false(eap_mschap_v2_authenticator_response_equal(
	        "T=407A5589115FD0D6209F510FE9C04566932CDA56", 42, out));
	/* Another user name changes the response. */
	g_assert_true(eap_mschap_v2_authenticator_response(nt_hash, nt_response, peer_challenge,
	                                                   auth_challenge, "user", out, &error));
	g_assert_false(eap_mschap_v2_authenticator_response_equal(auth_response,
	                                                          strlen(auth_response), out));
}

static void
test_mppe_keys(void)
{
	g_autoptr(GError) error = NULL;
	guint8 key[16], keys[32];

	if (!require_crypto())
		return;
	g_assert_true(eap_mschap_v2_master_key(nt_hash, nt_response, key, &error));
	g_assert_cmpmem(key, 16, master_key, 16);
	/* RFC 3079's sample start key is the server's send key (IsSend and
	 * IsServer), which is the client's receive key. */
	g_assert_true(eap_mschap_v2_asymmetric_start_key(master_key, TRUE, TRUE, key, &error));
	g_assert_cmpmem(key, 16, send_start_key, 16);
	g_assert_true(eap_mschap_v2_asymmetric_start_key(master_key, FALSE, FALSE, key, &error));
	g_assert_cmpmem(key, 16, send_start_key, 16);
	/* The peer exports its send key, then its receive key. */
	g_assert_true(eap_mschap_v2_peer_keys(nt_hash, nt_response, keys, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(keys + 16, 16, send_start_key, 16);
	g_assert_true(eap_mschap_v2_asymmetric_start_key(master_key, TRUE, FALSE, key, &error));
	g_assert_cmpmem(keys, 16, key, 16);
	g_assert_true(eap_mschap_v2_asymmetric_start_key(master_key, FALSE, TRUE, key, &error));
	g_assert_cmpmem(keys, 16, key, 16);
	g_assert_true(memcmp(keys, keys + 16, 16) != 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap-mschap/nt-hash", test_nt_hash);
	g_test_add_func("/eap-mschap/nt-hash-unicode", test_nt_hash_unicode);
	g_test_add_func("/eap-mschap/nt-hash-hex", test_nt_hash_hex);
	g_test_add_func("/eap-mschap/challenge-hash", test_challenge_hash);
	g_test_add_func("/eap-mschap/nt-response", test_nt_response);
	g_test_add_func("/eap-mschap/authenticator-response", test_authenticator_response);
	g_test_add_func("/eap-mschap/mppe-keys", test_mppe_keys);
	return g_test_run();
}
