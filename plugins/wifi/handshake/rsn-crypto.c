/* rsn-crypto.c - thin wrappers over OpenSSL 3's EVP_MAC and EVP_CIPHER
 * interfaces, shaped for the IEEE 802.11 key hierarchy, and the random
 * octets it starts from (nonces, from the kernel). */
#include "rsn-crypto.h"

#include <errno.h>
#include <sys/random.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "joind-error.h"
#include "rsn-suites.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MAC, EVP_MAC_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MAC_CTX, EVP_MAC_CTX_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_CIPHER, EVP_CIPHER_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_CIPHER_CTX, EVP_CIPHER_CTX_free)

/* Runs one MAC (HMAC or CMAC, chosen by name and parameters) over iov. */
static gboolean
mac_run(const gchar *mac_name, const OSSL_PARAM *params, const guint8 *key, gsize key_len,
        const WifiIov *iov, guint n_iov, guint8 *out, gsize out_size, gsize *out_len,
        GError **error)
{
	g_autoptr(EVP_MAC) mac = EVP_MAC_fetch(NULL, mac_name, NULL);
	g_autoptr(EVP_MAC_CTX) ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	gsize len = 0;
	gboolean ok = ctx != NULL && EVP_MAC_init(ctx, key, key_len, params);

	for (guint i = 0; ok && i < n_iov; i++)
		ok = iov[i].len == 0 || EVP_MAC_update(ctx, iov[i].data, iov[i].len);
	if (!ok || !EVP_MAC_final(ctx, out, &len, out_size))
		return joind_set_error_from_openssl(error, WIFI_HANDSHAKE_ERROR,
		                                    WIFI_HANDSHAKE_ERROR_CRYPTO,
		                                    "OpenSSL could not compute %s", mac_name);
	if (out_len != NULL)
		*out_len = len;
	return TRUE;
}

gboolean
wifi_hmac(const gchar *digest, const guint8 *key, gsize key_len, const WifiIov *iov, guint n_iov,
          guint8 *out, gsize out_size, gsize *out_len, GError **error)
{
	OSSL_PARAM params[] = {
	        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest, 0),
	        OSSL_PARAM_construct_end(),
	};

	if (key_len == 0) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "An HMAC key must not be empty");
		return FALSE;
	}
	return mac_run("HMAC", params, key, key_len, iov, n_iov, out, out_size, out_len, error);
}

gboolean
wifi_aes_cmac(const guint8 *key, gsize key_len, const WifiIov *iov, guint n_iov, guint8 out[16],
              GError **error)
{
	const gchar *cipher = key_len == 16 ? "AES-128-CBC" : key_len == 32 ? "AES-256-CBC" : NULL;
	OSSL_PARAM params[] = {
	        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0),
	        OSSL_PARAM_construct_end(),
	};

	if (cipher == NULL) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "An AES-CMAC key has 16 or 32 octets, not %" G_GSIZE_FORMAT, key_len);
		return FALSE;
	}
	return mac_run("CMAC", params, key, key_len, iov, n_iov, out, 16, NULL, error);
}

static const gchar *
wrap_cipher_name(gsize kek_len)
{
	switch (kek_len) {
	case 16:
		return "AES-128-WRAP";
	case 24:
		return "AES-192-WRAP";
	case 32:
		return "AES-256-WRAP";
	default:
		return NULL;
	}
}

/* One RFC 3394 wrap (enc) or unwrap (!enc) of len octets into out. */
static gboolean
key_wrap_run(gboolean enc, const guint8 *kek, gsize kek_len, const guint8 *in, gsize len,
             guint8 *out, GError **error)
{
	const gchar *name = wrap_cipher_name(kek_len);
	g_autoptr(EVP_CIPHER) cipher = NULL;
	g_autoptr(EVP_CIPHER_CTX) ctx = NULL;
	int out_len = 0, final_len = 0;
	gsize min_len = enc ? 16 : 24;
	gboolean ok, run;

	if (name == NULL || len < min_len || len % 8 != 0 || len > G_MAXINT - 16) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "AES key %s needs a 16, 24 or 32 octet KEK and a multiple of 8 "
		            "octets, at least %" G_GSIZE_FORMAT ", of data (got %" G_GSIZE_FORMAT
		            " and %" G_GSIZE_FORMAT ")",
		            enc ? "wrap" : "unwrap", min_len, kek_len, len);
		return FALSE;
	}
	cipher = EVP_CIPHER_fetch(NULL, name, NULL);
	ctx = EVP_CIPHER_CTX_new();
	/* Wrap modes must be allowed explicitly on an EVP context. */
	if (ctx != NULL)
		EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = cipher != NULL && ctx != NULL &&
	     EVP_CipherInit_ex2(ctx, cipher, kek, NULL, enc ? 1 : 0, NULL);
	run = ok && EVP_CipherUpdate(ctx, out, &out_len, in, (int)len) && out_len >= 0 &&
	      EVP_CipherFinal_ex(ctx, out + out_len, &final_len);
	if (ok && !run && !enc) {
		ERR_clear_error();
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "AES key unwrap failed its integrity check: the data was not "
		            "wrapped with this key or was corrupted");
		return FALSE;
	}
	if (!run || (gsize)out_len + (gsize)final_len != (enc ? len + 8 : len - 8))
		return joind_set_error_from_openssl(error, WIFI_HANDSHAKE_ERROR,
		                                    WIFI_HANDSHAKE_ERROR_CRYPTO,
		                                    "OpenSSL could not compute %s", name);
	return TRUE;
}

gboolean
wifi_aes_key_wrap(const guint8 *kek, gsize kek_len, const guint8 *in, gsize len, guint8 *out,
                  GError **error)
{
	return key_wrap_run(TRUE, kek, kek_len, in, len, out, error);
}

gboolean
wifi_aes_key_unwrap(const guint8 *kek, gsize kek_len, const guint8 *in, gsize len, guint8 *out,
                    GError **error)
{
	return key_wrap_run(FALSE, kek, kek_len, in, len, out, error);
}

/* The kernel's CSPRNG, which OpenSSL's own generators are seeded from: a
 * nonce or an address needs nothing more, and OpenSSL's first RAND_bytes()
 * instantiates its DRBG tree (fetches, an AES-CTR DRBG per level), 14 % of
 * the daemon's CPU from its start to a WPA2 connection under emulation. */
gboolean
wifi_random_bytes(guint8 *out, gsize len, GError **error)
{
	gsize done = 0;

	while (done < len) {
		gssize n = getrandom(out + done, len - done, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_CRYPTO,
			            "the kernel gave no random bytes: %s", g_strerror(errno));
			return FALSE;
		}
		done += (gsize)n;
	}
	return TRUE;
}

gboolean
wifi_equal_const_time(const guint8 *a, const guint8 *b, gsize len)
{
	return CRYPTO_memcmp(a, b, len) == 0;
}
