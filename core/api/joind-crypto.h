/* joind-crypto.h - the elliptic-curve pieces that the password-authenticated
 * key exchanges share (EAP-pwd, RFC 5931, and SAE, IEEE 802.11-2020 12.4),
 * over OpenSSL's EC and BN primitives (ABI 1.6).
 *
 * A JoindEcGroup is one of the prime-field groups both exchanges use, by its
 * IANA (IKE) number: 19 (NIST P-256), 20 (P-384), 21 (P-521). It carries
 * the curve's numbers and a BN_CTX, so it serves one exchange at a time.
 *
 * What depends on the password runs in constant time as far as these
 * primitives allow: hunting and pecking always runs its minimum number of
 * rounds and selects the first candidate with masks, and the quadratic
 * residue test is blinded (a random square and, at random, a known
 * non-residue multiply the value before Euler's criterion). What a peer
 * sends goes through decoders that refuse coordinates not below the prime,
 * points off the curve or at infinity, and scalars outside 1 < s < r, with
 * G_IO_ERROR_INVALID_DATA and a sentence the caller may prefix. */
#pragma once

#include <glib.h>
#include <openssl/bn.h>
#include <openssl/ec.h>

#include "joind-export.h"

G_BEGIN_DECLS

/* The longest prime and order of a supported group (P-521), in octets. */
#define JOIND_EC_MAX_PRIME_LEN 66

typedef struct _JoindEcGroup JoindEcGroup;

/* Fails with G_IO_ERROR_NOT_SUPPORTED for a group other than 19, 20, 21. */
JOIND_EXPORT JoindEcGroup *joind_ec_group_new(guint number, GError **error);
JOIND_EXPORT void joind_ec_group_free(JoindEcGroup *group);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindEcGroup, joind_ec_group_free)

JOIND_EXPORT guint joind_ec_group_get_number(const JoindEcGroup *group);
/* Octets of the prime p (32, 48, 66) and of the order r (the same here). */
JOIND_EXPORT gsize joind_ec_group_get_prime_len(const JoindEcGroup *group);
JOIND_EXPORT guint joind_ec_group_get_prime_bits(const JoindEcGroup *group);
JOIND_EXPORT gsize joind_ec_group_get_order_len(const JoindEcGroup *group);
JOIND_EXPORT const EC_GROUP *joind_ec_group_get_curve(const JoindEcGroup *group);
JOIND_EXPORT const BIGNUM *joind_ec_group_get_prime(const JoindEcGroup *group);
JOIND_EXPORT const BIGNUM *joind_ec_group_get_a(const JoindEcGroup *group);
JOIND_EXPORT const BIGNUM *joind_ec_group_get_b(const JoindEcGroup *group);
JOIND_EXPORT const BIGNUM *joind_ec_group_get_order(const JoindEcGroup *group);
JOIND_EXPORT BN_CTX *joind_ec_group_get_bn_ctx(const JoindEcGroup *group);

/* ---- constant-time helpers ---- */

/* dst = condition ? src : dst, over len octets; condition is 0 or 1. */
JOIND_EXPORT void joind_ct_copy_if(guint8 *dst, const guint8 *src, gsize len, guint condition);
/* 1 when the big-endian number a is below b (both len octets), else 0. */
JOIND_EXPORT guint joind_ct_less_than(const guint8 *a, const guint8 *b, gsize len);
/* out = condition ? a : b, for values below p; condition is 0 or 1. */
JOIND_EXPORT gboolean joind_ec_group_bn_select(JoindEcGroup *group, BIGNUM *out, guint condition,
                                               const BIGNUM *a, const BIGNUM *b);

/* ---- field arithmetic ---- */

/* out = x^3 + a*x + b mod p: the square of y for a point whose x is x. */
JOIND_EXPORT gboolean joind_ec_group_curve_rhs(JoindEcGroup *group, const BIGNUM *x, BIGNUM *out);
/* Whether v (0 < v < p) is a quadratic residue mod p, blinded as above;
 * *qr is 0 or 1. */
JOIND_EXPORT gboolean joind_ec_group_is_qr(JoindEcGroup *group, const BIGNUM *v, guint *qr,
                                           GError **error);
/* A square root of v mod p (v^((p+1)/4): every supported p is 3 mod 4). */
JOIND_EXPORT gboolean joind_ec_group_sqrt(JoindEcGroup *group, const BIGNUM *v, BIGNUM *out,
                                          GError **error);
/* The point (x, y) with y's lowest bit y_bit; x is prime_len octets. */
JOIND_EXPORT EC_POINT *joind_ec_group_point_from_x(JoindEcGroup *group, const guint8 *x,
                                                   guint y_bit, GError **error);

/* ---- hunting and pecking ---- */

/* Writes round counter's candidate x (prime_len octets, possibly not below
 * p) into value and the bit that picks y into *y_bit. */
typedef gboolean (*JoindEcHuntFunc)(JoindEcGroup *group, guint8 counter, guint8 *value,
                                    guint8 *y_bit, gpointer user_data, GError **error);

/* The password element: the first candidate x below p with a square
 * x^3 + ax + b, and the y whose lowest bit is that round's y_bit. Runs at
 * least min_rounds rounds whatever it finds, at most 255; rounds, if not
 * NULL, says in which round the element was found (1-based). */
JOIND_EXPORT EC_POINT *joind_ec_group_hunt_and_peck(JoindEcGroup *group, JoindEcHuntFunc func,
                                                    gpointer user_data, guint min_rounds,
                                                    guint *rounds, GError **error);

/* ---- wire encodings ---- */

/* x then y, each prime_len octets. */
JOIND_EXPORT gboolean joind_ec_group_point_to_octets(JoindEcGroup *group, const EC_POINT *point,
                                                     guint8 *out, GError **error);
/* A peer's element of len (2 * prime_len) octets, validated. */
JOIND_EXPORT EC_POINT *joind_ec_group_point_from_octets(JoindEcGroup *group, const guint8 *data,
                                                        gsize len, GError **error);
/* A peer's scalar of len (order_len) octets, validated: 1 < s < r. */
JOIND_EXPORT BIGNUM *joind_ec_group_scalar_from_octets(JoindEcGroup *group, const guint8 *data,
                                                       gsize len, GError **error);
JOIND_EXPORT gboolean joind_ec_group_scalar_to_octets(JoindEcGroup *group, const BIGNUM *scalar,
                                                      guint8 *out, GError **error);

/* ---- the commit exchange ---- */

/* Scalar = (rand + mask) mod r and Element = inverse(mask * PWE). With
 * mask NULL, rand and a mask are drawn uniformly from [2, r) until the
 * scalar is above 1 (rand is set); with a mask, rand and mask are given
 * (known-answer tests). */
JOIND_EXPORT gboolean joind_ec_group_commit(JoindEcGroup *group, const EC_POINT *pwe, BIGNUM *rand,
                                            const BIGNUM *mask, BIGNUM *scalar, EC_POINT *element,
                                            GError **error);
/* K = rand * (peer_scalar * PWE + peer_element); k = x(K), prime_len
 * octets. Fails with G_IO_ERROR_INVALID_DATA when K is at infinity. */
JOIND_EXPORT gboolean joind_ec_group_shared_secret(JoindEcGroup *group, const EC_POINT *pwe,
                                                   const BIGNUM *rand, const BIGNUM *peer_scalar,
                                                   const EC_POINT *peer_element, guint8 *k,
                                                   GError **error);

/* ---- keyed hashes ---- */

/* HMAC with the named digest ("SHA256", "SHA384", "SHA512") over n parts
 * (a part of length 0 may be NULL); out_len must be the digest's length. */
JOIND_EXPORT gboolean joind_hmac(const gchar *digest, const guint8 *key, gsize key_len,
                                 const guint8 *const *parts, const gsize *lens, guint n,
                                 guint8 *out, gsize out_len, GError **error);

G_END_DECLS
