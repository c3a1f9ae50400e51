/* rsn-crypto.h - the OpenSSL 3 primitives the RSN handshakes are glued
 * from: HMAC (SHA-1, SHA-256), AES-CMAC, AES key wrap (RFC 3394) and the
 * random number generator. Nothing here is a hand-written cipher or hash:
 * the MACs are fetched from OpenSSL's default provider, the key wrap runs
 * on OpenSSL's AES (rsn-crypto.c says why not through a fetched cipher).
 *
 * Every failure is a WIFI_HANDSHAKE_ERROR: CRYPTO when OpenSSL itself fails,
 * INVALID_ARGS for a bad length, KEY_DATA when an unwrap fails its integrity
 * check.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One piece of a message that is MACed as the concatenation of pieces. */
typedef struct {
	const guint8 *data;
	gsize len;
} WifiIov;

/* HMAC over the concatenation of iov[0..n_iov). digest is an OpenSSL
 * digest name ("SHA1", "SHA256"); out receives the full digest size, which
 * must fit in out_size; *out_len (optional) is set to it. */
gboolean wifi_hmac(const gchar *digest, const guint8 *key, gsize key_len, const WifiIov *iov,
                   guint n_iov, guint8 *out, gsize out_size, gsize *out_len, GError **error);

/* A hash ("SHA256", "SHA384") of the concatenation of iov[0..n_iov); out
 * receives the digest, which must fit in out_size; *out_len (optional) is
 * set to its size. */
gboolean wifi_digest(const gchar *digest, const WifiIov *iov, guint n_iov, guint8 *out,
                     gsize out_size, gsize *out_len, GError **error);

/* AES-CMAC (RFC 4493) with a 128- or 256-bit key; out gets 16 octets. */
gboolean wifi_aes_cmac(const guint8 *key, gsize key_len, const WifiIov *iov, guint n_iov,
                       guint8 out[16], GError **error);

/* AES key wrap (RFC 3394, default IV) with a 128-, 192- or 256-bit KEK.
 * The plaintext is a multiple of 8 octets, at least 16; out receives
 * len + 8 octets. */
gboolean wifi_aes_key_wrap(const guint8 *kek, gsize kek_len, const guint8 *in, gsize len,
                           guint8 *out, GError **error);
/* The inverse; out receives len - 8 octets. Fails with KEY_DATA when the
 * integrity check value does not match (wrong KEK or corrupted data). */
gboolean wifi_aes_key_unwrap(const guint8 *kek, gsize kek_len, const guint8 *in, gsize len,
                             guint8 *out, GError **error);

/* Fills out with len octets from the kernel's CSPRNG (getrandom(2)). */
gboolean wifi_random_bytes(guint8 *out, gsize len, GError **error);

/* Compares two buffers in time that does not depend on their contents. */
gboolean wifi_equal_const_time(const guint8 *a, const guint8 *b, gsize len);

G_END_DECLS
