/* rsn-crypto.c - thin wrappers over OpenSSL 3's EVP_MAC interface and its
 * AES key wrap, shaped for the IEEE 802.11 key hierarchy, and the random
 * octets it starts from (nonces, from the kernel). */
#include "rsn-crypto.h"

#include <errno.h>
#include <sys/random.h>

/* AES_wrap_key() and its key schedule: see key_wrap_run(). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/aes.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "joind-error.h"
#include "rsn-suites.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MAC, EVP_MAC_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MAC_CTX, EVP_MAC_CTX_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MD, EVP_MD_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MD_CTX, EVP_MD_CTX_free)

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
wifi_digest(const gchar *digest, const WifiIov *iov, guint n_iov, guint8 *out, gsize out_size,
            gsize *out_len, GError **error)
{
	g_autoptr(EVP_MD) md = EVP_MD_fetch(NULL, digest, NULL);
	g_autoptr(EVP_MD_CTX) ctx = md != NULL ? EVP_MD_CTX_new() : NULL;
	unsigned int len = 0;
	gboolean ok = ctx != NULL && (gsize)EVP_MD_get_size(md) <= out_size &&
	              EVP_DigestInit_ex(ctx, md, NULL);

	for (guint i = 0; ok && i < n_iov; i++)
		ok = iov[i].len == 0 || EVP_DigestUpdate(ctx, iov[i].data, iov[i].len);
	if (!ok || !EVP_DigestFinal_ex(ctx, out, &len))
		return joind_set_error_from_openssl(error, WIFI_HANDSHAKE_ERROR,
		                                    WIFI_HANDSHAKE_ERROR_CRYPTO,
		                                    "OpenSSL could not compute %s", digest);
	if (out_len != NULL)
		*out_len = len;
	return TRUE;
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

/* One RFC 3394 wrap (enc) or unwrap (!enc) of len octets into out, on
 * OpenSSL's AES block functions. Fetching any EVP_CIPHER makes OpenSSL 3.0
 * build the provider's whole cipher table first (every cipher and name:
 * 118 KB of heap in 1,632 blocks, kept for the process's life, half of
 * what the daemon holds over the required stack after a WPA2 connection),
 * for the two or three blocks a group key takes. These functions are
 * deprecated since 3.0 and kept through 3.x; the key schedule is wiped. */
static gboolean
key_wrap_run(gboolean enc, const guint8 *kek, gsize kek_len, const guint8 *in, gsize len,
             guint8 *out, GError **error)
{
	AES_KEY key = {0};
	int bits = (int)kek_len * 8;
	gsize min_len = enc ? 16 : 24;
	int set, n;

	if ((kek_len != 16 && kek_len != 24 && kek_len != 32) || len < min_len || len % 8 != 0 ||
	    len > G_MAXINT - 16) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
		            "AES key %s needs a 16, 24 or 32 octet KEK and a multiple of 8 "
		            "octets, at least %" G_GSIZE_FORMAT ", of data (got %" G_GSIZE_FORMAT
		            " and %" G_GSIZE_FORMAT ")",
		            enc ? "wrap" : "unwrap", min_len, kek_len, len);
		return FALSE;
	}
	set = enc ? AES_set_encrypt_key(kek, bits, &key) : AES_set_decrypt_key(kek, bits, &key);
	if (set != 0) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_CRYPTO,
		            "OpenSSL could not set up an AES-%d key", bits);
		return FALSE;
	}
	n = enc ? AES_wrap_key(&key, NULL, out, in, (unsigned int)len)
	        : AES_unwrap_key(&key, NULL, out, in, (unsigned int)len);
	OPENSSL_cleanse(&key, sizeof(key));
	if (n == (int)(enc ? len + 8 : len - 8))
		return TRUE;
	/* The lengths were checked: what fails now is the integrity check. */
	g_set_error(error, WIFI_HANDSHAKE_ERROR,
	            enc ? WIFI_HANDSHAKE_ERROR_CRYPTO : WIFI_HANDSHAKE_ERROR_KEY_DATA,
	            enc ? "OpenSSL could not wrap the key"
	                : "AES key unwrap failed its integrity check: the data was not "
	                  "wrapped with this key or was corrupted");
	return FALSE;
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
