/* eap-mschap-crypto.c - MS-CHAPv2 and MPPE key constructions (RFC 2759,
 * RFC 3079) glued from OpenSSL primitives. */
#include "eap-mschap-crypto.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "joind-error.h"
#include "joind-secret.h"

/* Fetched once per process: the library context keeps its providers loaded
 * for as long as the algorithms are held. */
typedef struct {
	OSSL_LIB_CTX *libctx;
	EVP_MD *md4;
	EVP_MD *sha1;
	EVP_CIPHER *des;
	gchar *missing; /* why MD4/DES are unavailable, or NULL */
} EapMschapAlgorithms;

static gpointer
eap_mschap_algorithms_init(gpointer data)
{
	EapMschapAlgorithms *a = g_new0(EapMschapAlgorithms, 1);

	a->libctx = OSSL_LIB_CTX_new();
	if (a->libctx == NULL) {
		a->missing = g_strdup("OpenSSL could not create a library context");
		return a;
	}
	if (OSSL_PROVIDER_load(a->libctx, "default") == NULL) {
		a->missing = g_strdup("OpenSSL's default provider could not be loaded");
		return a;
	}
	/* MD4 and single DES are only in the legacy provider since OpenSSL 3. */
	if (OSSL_PROVIDER_load(a->libctx, "legacy") == NULL) {
		a->missing = g_strdup("OpenSSL's legacy provider (legacy.so, with MD4 and DES) "
		                      "could not be loaded; MS-CHAP needs it");
		return a;
	}
	a->md4 = EVP_MD_fetch(a->libctx, "MD4", NULL);
	a->sha1 = EVP_MD_fetch(a->libctx, "SHA1", NULL);
	a->des = EVP_CIPHER_fetch(a->libctx, "DES-ECB", NULL);
	if (a->md4 == NULL || a->sha1 == NULL || a->des == NULL)
		a->missing = g_strdup_printf("OpenSSL does not provide %s, which MS-CHAP needs",
		                             a->md4 == NULL   ? "MD4"
		                             : a->des == NULL ? "DES-ECB"
		                                              : "SHA-1");
	return a;
}

static const EapMschapAlgorithms *
eap_mschap_algorithms(GError **error)
{
	static GOnce once = G_ONCE_INIT;
	const EapMschapAlgorithms *a = g_once(&once, eap_mschap_algorithms_init, NULL);

	if (a->missing != NULL) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s", a->missing);
		return NULL;
	}
	return a;
}

gboolean
eap_mschap_crypto_available(GError **error)
{
	return eap_mschap_algorithms(error) != NULL;
}

/* One digest over up to three parts (NULL parts are skipped). */
static gboolean
eap_mschap_digest(const EVP_MD *md, const void *a, gsize a_len, const void *b, gsize b_len,
                  const void *c, gsize c_len, guint8 *out, GError **error)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	gboolean ok = ctx != NULL && EVP_DigestInit_ex2(ctx, md, NULL) == 1 &&
	              (a == NULL || EVP_DigestUpdate(ctx, a, a_len) == 1) &&
	              (b == NULL || EVP_DigestUpdate(ctx, b, b_len) == 1) &&
	              (c == NULL || EVP_DigestUpdate(ctx, c, c_len) == 1) &&
	              EVP_DigestFinal_ex(ctx, out, NULL) == 1;

	EVP_MD_CTX_free(ctx);
	if (!ok)
		joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                             "OpenSSL %s digest failed", EVP_MD_get0_name(md));
	return ok;
}

gboolean
eap_mschap_nt_hash(const gchar *password, guint8 hash[EAP_MSCHAP_NT_HASH_LEN], GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);
	glong units = 0;
	gunichar2 *utf16;
	guint8 *le;
	gboolean ok;

	if (a == NULL)
		return FALSE;
	utf16 = g_utf8_to_utf16(password, -1, NULL, &units, NULL);
	if (utf16 == NULL) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		            "the password is not valid UTF-8");
		return FALSE;
	}
	if (units > EAP_MSCHAP_PASSWORD_MAX_CHARS) {
		joind_secret_clear(utf16, (gsize)units * 2);
		g_free(utf16);
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		            "the password is longer than MS-CHAP's %d characters",
		            EAP_MSCHAP_PASSWORD_MAX_CHARS);
		return FALSE;
	}
	/* The hash is over little-endian UTF-16, whatever the host order. */
	le = g_malloc((gsize)units * 2 + 1);
	for (glong i = 0; i < units; i++) {
		le[2 * i] = (guint8)(utf16[i] & 0xff);
		le[2 * i + 1] = (guint8)(utf16[i] >> 8);
	}
	ok = eap_mschap_digest(a->md4, le, (gsize)units * 2, NULL, 0, NULL, 0, hash, error);
	joind_secret_clear(le, (gsize)units * 2);
	joind_secret_clear(utf16, (gsize)units * 2);
	g_free(le);
	g_free(utf16);
	return ok;
}

gboolean
eap_mschap_nt_hash_hash(const guint8 hash[EAP_MSCHAP_NT_HASH_LEN],
                        guint8 hash_hash[EAP_MSCHAP_NT_HASH_LEN], GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);

	return a != NULL && eap_mschap_digest(a->md4, hash, EAP_MSCHAP_NT_HASH_LEN, NULL, 0, NULL,
	                                      0, hash_hash, error);
}

gboolean
eap_mschap_nt_hash_from_hex(const gchar *hex, guint8 hash[EAP_MSCHAP_NT_HASH_LEN], GError **error)
{
	gsize len = strlen(hex);

	if (len != 2 * EAP_MSCHAP_NT_HASH_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		            "an NT password hash is 32 hexadecimal digits, not %zu characters",
		            len);
		return FALSE;
	}
	for (gsize i = 0; i < EAP_MSCHAP_NT_HASH_LEN; i++) {
		gint hi = g_ascii_xdigit_value(hex[2 * i]);
		gint lo = g_ascii_xdigit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			joind_secret_clear(hash, EAP_MSCHAP_NT_HASH_LEN);
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			            "an NT password hash has only hexadecimal digits");
			return FALSE;
		}
		hash[i] = (guint8)((hi << 4) | lo);
	}
	return TRUE;
}

const gchar *
eap_mschap_strip_domain(const gchar *user_name)
{
	const gchar *slash = strrchr(user_name, '\\');

	return slash != NULL ? slash + 1 : user_name;
}

gboolean
eap_mschap_challenge_hash(const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                          const guint8 auth_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                          const gchar *user_name, guint8 challenge[EAP_MSCHAP_CHALLENGE_HASH_LEN],
                          GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);
	guint8 digest[EVP_MAX_MD_SIZE];

	if (a == NULL || !eap_mschap_digest(a->sha1, peer_challenge, EAP_MSCHAP_CHALLENGE_LEN,
	                                    auth_challenge, EAP_MSCHAP_CHALLENGE_LEN, user_name,
	                                    strlen(user_name), digest, error))
		return FALSE;
	memcpy(challenge, digest, EAP_MSCHAP_CHALLENGE_HASH_LEN);
	return TRUE;
}

/* Spreads 56 key bits over 8 octets, with DES's odd parity in bit 0. */
static void
eap_mschap_des_key(const guint8 in[7], guint8 out[8])
{
	out[0] = in[0];
	for (guint i = 1; i < 7; i++)
		out[i] = (guint8)((in[i - 1] << (8 - i)) | (in[i] >> i));
	out[7] = (guint8)(in[6] << 1);
	for (guint i = 0; i < 8; i++) {
		guint bits = 0;

		out[i] &= 0xfe;
		for (guint b = 1; b < 8; b++)
			bits += (out[i] >> b) & 1u;
		out[i] |= (bits & 1u) ? 0 : 1;
	}
}

static gboolean
eap_mschap_des_encrypt(const EVP_CIPHER *des, const guint8 key7[7], const guint8 clear[8],
                       guint8 cypher[8], GError **error)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	guint8 key[8];
	int len = 0;
	gboolean ok;

	eap_mschap_des_key(key7, key);
	ok = ctx != NULL && EVP_EncryptInit_ex2(ctx, des, key, NULL, NULL) == 1 &&
	     EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
	     EVP_EncryptUpdate(ctx, cypher, &len, clear, 8) == 1 && len == 8;
	EVP_CIPHER_CTX_free(ctx);
	joind_secret_clear(key, sizeof(key));
	if (!ok)
		joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                             "OpenSSL DES encryption failed");
	return ok;
}

gboolean
eap_mschap_challenge_response(const guint8 challenge[EAP_MSCHAP_CHALLENGE_HASH_LEN],
                              const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                              guint8 response[EAP_MSCHAP_NT_RESPONSE_LEN], GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);
	guint8 zpwd[21] = {0};
	gboolean ok;

	if (a == NULL)
		return FALSE;
	memcpy(zpwd, nt_hash, EAP_MSCHAP_NT_HASH_LEN);
	ok = eap_mschap_des_encrypt(a->des, zpwd, challenge, response, error) &&
	     eap_mschap_des_encrypt(a->des, zpwd + 7, challenge, response + 8, error) &&
	     eap_mschap_des_encrypt(a->des, zpwd + 14, challenge, response + 16, error);
	joind_secret_clear(zpwd, sizeof(zpwd));
	return ok;
}

gboolean
eap_mschap_v2_nt_response(const guint8 auth_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                          const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                          const gchar *user_name, const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                          guint8 response[EAP_MSCHAP_NT_RESPONSE_LEN], GError **error)
{
	guint8 challenge[EAP_MSCHAP_CHALLENGE_HASH_LEN];

	return eap_mschap_challenge_hash(peer_challenge, auth_challenge, user_name, challenge,
	                                 error) &&
	       eap_mschap_challenge_response(challenge, nt_hash, response, error);
}

/* RFC 2759 8.7 */
static const gchar eap_mschap_auth_magic1[] = "Magic server to client signing constant";
static const gchar eap_mschap_auth_magic2[] = "Pad to make it do more than one iteration";

gboolean
eap_mschap_v2_authenticator_response(const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                     const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                                     const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                     const guint8 auth_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                     const gchar *user_name,
                                     gchar out[EAP_MSCHAP_AUTH_RESPONSE_LEN], GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);
	guint8 hash_hash[EAP_MSCHAP_NT_HASH_LEN];
	guint8 challenge[EAP_MSCHAP_CHALLENGE_HASH_LEN];
	guint8 digest[EVP_MAX_MD_SIZE];
	gboolean ok;

	if (a == NULL)
		return FALSE;
	ok = eap_mschap_nt_hash_hash(nt_hash, hash_hash, error) &&
	     eap_mschap_digest(a->sha1, hash_hash, sizeof(hash_hash), nt_response,
	                       EAP_MSCHAP_NT_RESPONSE_LEN, eap_mschap_auth_magic1,
	                       sizeof(eap_mschap_auth_magic1) - 1, digest, error) &&
	     eap_mschap_challenge_hash(peer_challenge, auth_challenge, user_name, challenge,
	                               error) &&
	     eap_mschap_digest(a->sha1, digest, 20, challenge, sizeof(challenge),
	                       eap_mschap_auth_magic2, sizeof(eap_mschap_auth_magic2) - 1, digest,
	                       error);
	joind_secret_clear(hash_hash, sizeof(hash_hash));
	if (ok) {
		static const gchar hex[] = "0123456789ABCDEF";

		out[0] = 'S';
		out[1] = '=';
		for (guint i = 0; i < 20; i++) {
			out[2 + 2 * i] = hex[digest[i] >> 4];
			out[3 + 2 * i] = hex[digest[i] & 0xf];
		}
	}
	joind_secret_clear(digest, sizeof(digest));
	return ok;
}

gboolean
eap_mschap_v2_authenticator_response_equal(const gchar *received, gsize received_len,
                                           const gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN])
{
	gchar upper[EAP_MSCHAP_AUTH_RESPONSE_LEN];

	if (received_len != EAP_MSCHAP_AUTH_RESPONSE_LEN)
		return FALSE;
	/* RFC 2759 says upper case; accept either rather than fail a server
	 * over the case of its hex digits. */
	for (gsize i = 0; i < EAP_MSCHAP_AUTH_RESPONSE_LEN; i++)
		upper[i] = g_ascii_toupper(received[i]);
	return CRYPTO_memcmp(upper, expected, EAP_MSCHAP_AUTH_RESPONSE_LEN) == 0;
}

/* RFC 3079 3.4 */
static const gchar eap_mschap_mppe_magic1[] = "This is the MPPE Master Key";
static const gchar eap_mschap_mppe_magic2[] = "On the client side, this is the send key; "
                                              "on the server side, it is the receive key.";
static const gchar eap_mschap_mppe_magic3[] = "On the client side, this is the receive key; "
                                              "on the server side, it is the send key.";

gboolean
eap_mschap_v2_master_key(const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                         const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                         guint8 master_key[EAP_MSCHAP_MASTER_KEY_LEN], GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);
	guint8 hash_hash[EAP_MSCHAP_NT_HASH_LEN];
	guint8 digest[EVP_MAX_MD_SIZE];
	gboolean ok;

	if (a == NULL)
		return FALSE;
	ok = eap_mschap_nt_hash_hash(nt_hash, hash_hash, error) &&
	     eap_mschap_digest(a->sha1, hash_hash, sizeof(hash_hash), nt_response,
	                       EAP_MSCHAP_NT_RESPONSE_LEN, eap_mschap_mppe_magic1,
	                       sizeof(eap_mschap_mppe_magic1) - 1, digest, error);
	if (ok)
		memcpy(master_key, digest, EAP_MSCHAP_MASTER_KEY_LEN);
	joind_secret_clear(hash_hash, sizeof(hash_hash));
	joind_secret_clear(digest, sizeof(digest));
	return ok;
}

gboolean
eap_mschap_v2_asymmetric_start_key(const guint8 master_key[EAP_MSCHAP_MASTER_KEY_LEN],
                                   gboolean is_send, gboolean is_server,
                                   guint8 key[EAP_MSCHAP_SESSION_KEY_LEN], GError **error)
{
	const EapMschapAlgorithms *a = eap_mschap_algorithms(error);
	/* The two pads of RFC 3079 3.4, 40 octets each. */
	static const guint8 pad1[40] = {0};
	guint8 pad2[40];
	const gchar *magic = is_send == is_server ? eap_mschap_mppe_magic3 : eap_mschap_mppe_magic2;
	guint8 digest[EVP_MAX_MD_SIZE];
	EVP_MD_CTX *ctx;
	gboolean ok;

	if (a == NULL)
		return FALSE;
	memset(pad2, 0xf2, sizeof(pad2));
	ctx = EVP_MD_CTX_new();
	ok = ctx != NULL && EVP_DigestInit_ex2(ctx, a->sha1, NULL) == 1 &&
	     EVP_DigestUpdate(ctx, master_key, EAP_MSCHAP_MASTER_KEY_LEN) == 1 &&
	     EVP_DigestUpdate(ctx, pad1, sizeof(pad1)) == 1 &&
	     EVP_DigestUpdate(ctx, magic, strlen(magic)) == 1 &&
	     EVP_DigestUpdate(ctx, pad2, sizeof(pad2)) == 1 &&
	     EVP_DigestFinal_ex(ctx, digest, NULL) == 1;
	EVP_MD_CTX_free(ctx);
	if (ok)
		memcpy(key, digest, EAP_MSCHAP_SESSION_KEY_LEN);
	else
		joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                             "OpenSSL SHA-1 digest failed");
	joind_secret_clear(digest, sizeof(digest));
	return ok;
}

gboolean
eap_mschap_v2_peer_keys(const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                        const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                        guint8 keys[2 * EAP_MSCHAP_SESSION_KEY_LEN], GError **error)
{
	guint8 master_key[EAP_MSCHAP_MASTER_KEY_LEN];
	gboolean ok;

	ok = eap_mschap_v2_master_key(nt_hash, nt_response, master_key, error) &&
	     eap_mschap_v2_asymmetric_start_key(master_key, TRUE, FALSE, keys, error) &&
	     eap_mschap_v2_asymmetric_start_key(master_key, FALSE, FALSE,
	                                        keys + EAP_MSCHAP_SESSION_KEY_LEN, error);
	joind_secret_clear(master_key, sizeof(master_key));
	return ok;
}
