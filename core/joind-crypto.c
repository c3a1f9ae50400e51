/* joind-crypto.c - the EC groups and constant-time pieces EAP-pwd and SAE
 * share (see core/api/joind-crypto.h). */
#include "joind-crypto.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>

#include "joind-error.h"
#include "joind-secret.h"

struct _JoindEcGroup {
	guint number;
	EC_GROUP *curve;
	BN_CTX *bnctx;
	BIGNUM *p, *a, *b, *order;
	BIGNUM *euler_exp; /* (p - 1) / 2 */
	BIGNUM *sqrt_exp;  /* (p + 1) / 4 */
	BIGNUM *qnr;       /* p - 1, a quadratic non-residue mod p, for blinding */
	/* p's Montgomery form, made once: without it every exponentiation mod
	 * p (each round of hunting and pecking) would make its own. */
	BN_MONT_CTX *mont;
	guint8 p_octets[JOIND_EC_MAX_PRIME_LEN];
	gsize prime_len, order_len;
};

static gboolean
crypto_fail(GError **error, const gchar *what)
{
	return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                    "OpenSSL failed to %s", what);
}

static gboolean
crypto_invalid(GError **error, const gchar *what)
{
	g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, what);
	return FALSE;
}

static gint
group_nid(guint number)
{
	switch (number) {
	case 19:
		return NID_X9_62_prime256v1;
	case 20:
		return NID_secp384r1;
	case 21:
		return NID_secp521r1;
	default:
		return NID_undef;
	}
}

/* Every supported prime is 3 mod 4 (the square root above relies on it
 * too), so (p - 1) / 2 is odd and -1 is a non-residue: public, as a
 * searched one would be, without the exponentiations of a search. */
static gboolean
group_set_qnr(JoindEcGroup *group)
{
	return BN_is_bit_set(group->p, 0) && BN_is_bit_set(group->p, 1) &&
	       BN_sub(group->qnr, group->p, BN_value_one()) == 1;
}

static gboolean
group_setup(JoindEcGroup *group)
{
	group->p = BN_new();
	group->a = BN_new();
	group->b = BN_new();
	group->order = BN_new();
	group->euler_exp = BN_new();
	group->sqrt_exp = BN_new();
	group->qnr = BN_new();
	group->mont = BN_MONT_CTX_new();
	if (group->curve == NULL || group->bnctx == NULL || group->qnr == NULL ||
	    group->mont == NULL || group->sqrt_exp == NULL || group->euler_exp == NULL ||
	    group->order == NULL || group->b == NULL || group->a == NULL || group->p == NULL ||
	    EC_GROUP_get_curve(group->curve, group->p, group->a, group->b, group->bnctx) != 1 ||
	    EC_GROUP_get_order(group->curve, group->order, group->bnctx) != 1)
		return FALSE;
	if (BN_MONT_CTX_set(group->mont, group->p, group->bnctx) != 1)
		return FALSE;
	group->prime_len = (gsize)BN_num_bytes(group->p);
	group->order_len = (gsize)BN_num_bytes(group->order);
	return BN_sub(group->euler_exp, group->p, BN_value_one()) == 1 &&
	       BN_rshift1(group->euler_exp, group->euler_exp) == 1 &&
	       BN_add(group->sqrt_exp, group->p, BN_value_one()) == 1 &&
	       BN_rshift(group->sqrt_exp, group->sqrt_exp, 2) == 1 &&
	       BN_bn2binpad(group->p, group->p_octets, (int)group->prime_len) ==
	               (int)group->prime_len &&
	       group_set_qnr(group);
}

JoindEcGroup *
joind_ec_group_new(guint number, GError **error)
{
	JoindEcGroup *group;
	gint nid = group_nid(number);

	if (nid == NID_undef) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "group %u is not supported (only the elliptic-curve groups 19, 20 "
		            "and 21)",
		            number);
		return NULL;
	}
	group = g_new0(JoindEcGroup, 1);
	group->number = number;
	group->curve = EC_GROUP_new_by_curve_name_ex(NULL, NULL, nid);
	group->bnctx = BN_CTX_new();
	if (!group_setup(group)) {
		joind_ec_group_free(group);
		crypto_fail(error, "set up an elliptic-curve group");
		return NULL;
	}
	return group;
}

void
joind_ec_group_free(JoindEcGroup *group)
{
	if (group == NULL)
		return;
	BN_free(group->p);
	BN_free(group->a);
	BN_free(group->b);
	BN_free(group->order);
	BN_free(group->euler_exp);
	BN_free(group->sqrt_exp);
	BN_free(group->qnr);
	BN_MONT_CTX_free(group->mont);
	BN_CTX_free(group->bnctx);
	EC_GROUP_free(group->curve);
	g_free(group);
}

guint
joind_ec_group_get_number(const JoindEcGroup *group)
{
	return group->number;
}

gsize
joind_ec_group_get_prime_len(const JoindEcGroup *group)
{
	return group->prime_len;
}

guint
joind_ec_group_get_prime_bits(const JoindEcGroup *group)
{
	return (guint)BN_num_bits(group->p);
}

gsize
joind_ec_group_get_order_len(const JoindEcGroup *group)
{
	return group->order_len;
}

const EC_GROUP *
joind_ec_group_get_curve(const JoindEcGroup *group)
{
	return group->curve;
}

const BIGNUM *
joind_ec_group_get_prime(const JoindEcGroup *group)
{
	return group->p;
}

const BIGNUM *
joind_ec_group_get_a(const JoindEcGroup *group)
{
	return group->a;
}

const BIGNUM *
joind_ec_group_get_b(const JoindEcGroup *group)
{
	return group->b;
}

const BIGNUM *
joind_ec_group_get_order(const JoindEcGroup *group)
{
	return group->order;
}

BN_CTX *
joind_ec_group_get_bn_ctx(const JoindEcGroup *group)
{
	return group->bnctx;
}

/* ---- constant time ---- */

void
joind_ct_copy_if(guint8 *dst, const guint8 *src, gsize len, guint condition)
{
	guint8 mask = (guint8)(0u - (condition & 1u));

	for (gsize i = 0; i < len; i++)
		dst[i] = (guint8)((dst[i] & (guint8)~mask) | (src[i] & mask));
}

guint
joind_ct_less_than(const guint8 *a, const guint8 *b, gsize len)
{
	guint less = 0, decided = 0;

	for (gsize i = 0; i < len; i++) {
		guint lt = ((guint)a[i] - (guint)b[i]) >> 31;
		guint gt = ((guint)b[i] - (guint)a[i]) >> 31;

		less |= lt & ~decided;
		decided |= lt | gt;
	}
	return less & 1u;
}

gboolean
joind_ec_group_bn_select(JoindEcGroup *group, BIGNUM *out, guint condition, const BIGNUM *a,
                         const BIGNUM *b)
{
	guint8 va[JOIND_EC_MAX_PRIME_LEN], vb[JOIND_EC_MAX_PRIME_LEN];
	int len = (int)group->prime_len;
	gboolean ok = BN_bn2binpad(a, va, len) == len && BN_bn2binpad(b, vb, len) == len;

	if (ok) {
		joind_ct_copy_if(vb, va, group->prime_len, condition);
		ok = BN_bin2bn(vb, len, out) != NULL;
	}
	joind_secret_clear(va, sizeof(va));
	joind_secret_clear(vb, sizeof(vb));
	return ok;
}

/* ---- field arithmetic ---- */

gboolean
joind_ec_group_curve_rhs(JoindEcGroup *group, const BIGNUM *x, BIGNUM *out)
{
	BIGNUM *t;
	gboolean ok;

	BN_CTX_start(group->bnctx);
	t = BN_CTX_get(group->bnctx);
	ok = t != NULL && BN_mod_sqr(out, x, group->p, group->bnctx) == 1 &&
	     BN_mod_mul(out, out, x, group->p, group->bnctx) == 1 &&
	     BN_mod_mul(t, group->a, x, group->p, group->bnctx) == 1 &&
	     BN_mod_add(out, out, t, group->p, group->bnctx) == 1 &&
	     BN_mod_add(out, out, group->b, group->p, group->bnctx) == 1;
	BN_CTX_end(group->bnctx);
	return ok;
}

gboolean
joind_ec_group_is_qr(JoindEcGroup *group, const BIGNUM *v, guint *qr, GError **error)
{
	BIGNUM *r, *t;
	guint8 coin = 0;
	gboolean ok;

	*qr = 0;
	BN_CTX_start(group->bnctx);
	r = BN_CTX_get(group->bnctx);
	t = BN_CTX_get(group->bnctx);
	/* t = v * r^2, times the non-residue when the coin says so: its
	 * residuosity is v's, flipped by a coin only this side knows. */
	ok = t != NULL && RAND_priv_bytes(&coin, 1) == 1;
	do {
		ok = ok && BN_priv_rand_range_ex(r, group->p, 0, group->bnctx) == 1;
	} while (ok && BN_is_zero(r));
	ok = ok && BN_mod_sqr(r, r, group->p, group->bnctx) == 1 &&
	     BN_mod_mul(t, v, r, group->p, group->bnctx) == 1 &&
	     BN_mod_mul(r, t, group->qnr, group->p, group->bnctx) == 1 &&
	     joind_ec_group_bn_select(group, t, coin & 1u, r, t) &&
	     BN_mod_exp_mont_consttime(r, t, group->euler_exp, group->p, group->bnctx,
	                               group->mont) == 1;
	if (ok)
		*qr = ((guint)BN_is_one(r) ^ (coin & 1u)) & 1u;
	BN_CTX_end(group->bnctx);
	return ok || crypto_fail(error, "test a quadratic residue");
}

gboolean
joind_ec_group_sqrt(JoindEcGroup *group, const BIGNUM *v, BIGNUM *out, GError **error)
{
	return BN_mod_exp_mont_consttime(out, v, group->sqrt_exp, group->p, group->bnctx,
	                                 group->mont) == 1 ||
	       crypto_fail(error, "compute a square root");
}

EC_POINT *
joind_ec_group_point_from_x(JoindEcGroup *group, const guint8 *x, guint y_bit, GError **error)
{
	EC_POINT *point = EC_POINT_new(group->curve);
	BIGNUM *bx = BN_bin2bn(x, (int)group->prime_len, NULL);
	gboolean ok = point != NULL && bx != NULL &&
	              EC_POINT_set_compressed_coordinates(group->curve, point, bx,
	                                                  (int)(y_bit & 1u), group->bnctx) == 1;

	BN_clear_free(bx);
	if (!ok) {
		EC_POINT_clear_free(point);
		crypto_fail(error, "build a point from its x coordinate");
		return NULL;
	}
	return point;
}

/* ---- hunting and pecking ---- */

/* Whether value is below p and x^3 + ax + b is a square for x = value. */
static gboolean
hunt_test(JoindEcGroup *group, const guint8 *value, guint *found, GError **error)
{
	BIGNUM *x, *y2;
	guint in_range = joind_ct_less_than(value, group->p_octets, group->prime_len), qr = 0;
	gboolean ok;

	BN_CTX_start(group->bnctx);
	x = BN_CTX_get(group->bnctx);
	y2 = BN_CTX_get(group->bnctx);
	/* Out of range candidates are tested too (reduced), so that each
	 * round costs the same. */
	ok = y2 != NULL && BN_bin2bn(value, (int)group->prime_len, x) != NULL &&
	     BN_nnmod(x, x, group->p, group->bnctx) == 1 && joind_ec_group_curve_rhs(group, x, y2);
	if (!ok)
		crypto_fail(error, "test a password element candidate");
	ok = ok && joind_ec_group_is_qr(group, y2, &qr, error);
	BN_CTX_end(group->bnctx);
	*found = in_range & qr;
	return ok;
}

EC_POINT *
joind_ec_group_hunt_and_peck(JoindEcGroup *group, JoindEcHuntFunc func, gpointer user_data,
                             guint min_rounds, guint *rounds, GError **error)
{
	guint8 x[JOIND_EC_MAX_PRIME_LEN] = {0}, value[JOIND_EC_MAX_PRIME_LEN] = {0};
	guint8 y_bit = 0, bit = 0;
	guint found = 0;
	gboolean ok = TRUE;
	EC_POINT *pwe = NULL;

	for (guint counter = 1; ok && counter <= 255; counter++) {
		guint hit = 0, take;

		if (found != 0 && counter > min_rounds)
			break;
		ok = func(group, (guint8)counter, value, &bit, user_data, error) &&
		     hunt_test(group, value, &hit, error);
		/* 1 when this is the first hit, else 0 */
		take = hit & (guint)(((found | (0u - found)) >> 31) ^ 1u);
		joind_ct_copy_if(x, value, group->prime_len, take);
		joind_ct_copy_if(&y_bit, &bit, 1, take);
		found |= counter & (0u - take);
	}
	if (ok && found == 0)
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		            "no password element was found in 255 rounds");
	if (ok && found != 0)
		pwe = joind_ec_group_point_from_x(group, x, y_bit, error);
	joind_secret_clear(x, sizeof(x));
	joind_secret_clear(value, sizeof(value));
	if (rounds != NULL)
		*rounds = found;
	return pwe;
}

/* ---- wire encodings ---- */

gboolean
joind_ec_group_point_to_octets(JoindEcGroup *group, const EC_POINT *point, guint8 *out,
                               GError **error)
{
	int len = (int)group->prime_len;
	BIGNUM *x, *y;
	gboolean ok;

	BN_CTX_start(group->bnctx);
	x = BN_CTX_get(group->bnctx);
	y = BN_CTX_get(group->bnctx);
	ok = y != NULL &&
	     EC_POINT_get_affine_coordinates(group->curve, point, x, y, group->bnctx) == 1 &&
	     BN_bn2binpad(x, out, len) == len && BN_bn2binpad(y, out + len, len) == len;
	BN_CTX_end(group->bnctx);
	return ok || crypto_fail(error, "encode an element");
}

static gboolean
point_decode(JoindEcGroup *group, const guint8 *data, EC_POINT *point, GError **error)
{
	int len = (int)group->prime_len;
	BIGNUM *x, *y;
	gboolean decoded, in_range, on_curve;

	BN_CTX_start(group->bnctx);
	x = BN_CTX_get(group->bnctx);
	y = BN_CTX_get(group->bnctx);
	decoded = y != NULL && BN_bin2bn(data, len, x) != NULL &&
	          BN_bin2bn(data + len, len, y) != NULL;
	in_range = decoded && BN_cmp(x, group->p) < 0 && BN_cmp(y, group->p) < 0;
	/* set_affine_coordinates refuses points off the curve; ask anyway. */
	on_curve = in_range &&
	           EC_POINT_set_affine_coordinates(group->curve, point, x, y, group->bnctx) == 1 &&
	           EC_POINT_is_on_curve(group->curve, point, group->bnctx) == 1;
	BN_CTX_end(group->bnctx);
	if (!decoded)
		return crypto_fail(error, "decode an element");
	if (!in_range)
		return crypto_invalid(error, "element has a coordinate not below the prime");
	if (!on_curve)
		return crypto_invalid(error, "element is not on the curve");
	if (EC_POINT_is_at_infinity(group->curve, point))
		return crypto_invalid(error, "element is the point at infinity");
	return TRUE;
}

EC_POINT *
joind_ec_group_point_from_octets(JoindEcGroup *group, const guint8 *data, gsize len, GError **error)
{
	EC_POINT *point;

	if (len != 2 * group->prime_len) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "element of %zu octets (group %u needs %zu)", len, group->number,
		            2 * group->prime_len);
		return NULL;
	}
	point = EC_POINT_new(group->curve);
	if (point == NULL) {
		crypto_fail(error, "allocate an element");
		return NULL;
	}
	if (!point_decode(group, data, point, error)) {
		EC_POINT_free(point);
		return NULL;
	}
	return point;
}

BIGNUM *
joind_ec_group_scalar_from_octets(JoindEcGroup *group, const guint8 *data, gsize len,
                                  GError **error)
{
	BIGNUM *scalar;

	if (len != group->order_len) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "scalar of %zu octets (group %u needs %zu)", len, group->number,
		            group->order_len);
		return NULL;
	}
	scalar = BN_bin2bn(data, (int)len, NULL);
	if (scalar == NULL) {
		crypto_fail(error, "decode a scalar");
		return NULL;
	}
	if (BN_cmp(scalar, BN_value_one()) <= 0 || BN_cmp(scalar, group->order) >= 0) {
		BN_free(scalar);
		crypto_invalid(error, "scalar is not between 1 and the group order");
		return NULL;
	}
	return scalar;
}

gboolean
joind_ec_group_scalar_to_octets(JoindEcGroup *group, const BIGNUM *scalar, guint8 *out,
                                GError **error)
{
	return BN_bn2binpad(scalar, out, (int)group->order_len) == (int)group->order_len ||
	       crypto_fail(error, "encode a scalar");
}

/* ---- the commit exchange ---- */

/* A uniformly random value in [2, r). */
static gboolean
random_scalar(JoindEcGroup *group, BIGNUM *out)
{
	do {
		if (BN_priv_rand_range_ex(out, group->order, 0, group->bnctx) != 1)
			return FALSE;
	} while (BN_cmp(out, BN_value_one()) <= 0);
	return TRUE;
}

gboolean
joind_ec_group_commit(JoindEcGroup *group, const EC_POINT *pwe, BIGNUM *rand, const BIGNUM *mask,
                      BIGNUM *scalar, EC_POINT *element, GError **error)
{
	BIGNUM *drawn = mask == NULL ? BN_secure_new() : NULL;
	const BIGNUM *m = mask != NULL ? mask : drawn;
	gboolean ok = m != NULL;

	do {
		ok = ok &&
		     (mask != NULL ||
		      (random_scalar(group, rand) && random_scalar(group, drawn))) &&
		     BN_mod_add(scalar, rand, m, group->order, group->bnctx) == 1;
	} while (ok && mask == NULL && BN_cmp(scalar, BN_value_one()) <= 0);
	ok = ok && EC_POINT_mul(group->curve, element, NULL, pwe, m, group->bnctx) == 1 &&
	     EC_POINT_invert(group->curve, element, group->bnctx) == 1;
	BN_clear_free(drawn);
	return ok || crypto_fail(error, "compute a commit");
}

gboolean
joind_ec_group_shared_secret(JoindEcGroup *group, const EC_POINT *pwe, const BIGNUM *rand,
                             const BIGNUM *peer_scalar, const EC_POINT *peer_element, guint8 *k,
                             GError **error)
{
	EC_POINT *point = EC_POINT_new(group->curve);
	BIGNUM *x;
	gboolean ok, infinity = FALSE;

	BN_CTX_start(group->bnctx);
	x = BN_CTX_get(group->bnctx);
	ok = point != NULL && x != NULL &&
	     EC_POINT_mul(group->curve, point, NULL, pwe, peer_scalar, group->bnctx) == 1 &&
	     EC_POINT_add(group->curve, point, point, peer_element, group->bnctx) == 1 &&
	     EC_POINT_mul(group->curve, point, NULL, point, rand, group->bnctx) == 1;
	if (ok)
		infinity = EC_POINT_is_at_infinity(group->curve, point) == 1;
	ok = ok && !infinity &&
	     EC_POINT_get_affine_coordinates(group->curve, point, x, NULL, group->bnctx) == 1 &&
	     BN_bn2binpad(x, k, (int)group->prime_len) == (int)group->prime_len;
	BN_clear(x);
	BN_CTX_end(group->bnctx);
	EC_POINT_clear_free(point);
	if (infinity)
		return crypto_invalid(error,
		                      "commit yields the point at infinity as shared secret");
	return ok || crypto_fail(error, "compute the shared secret");
}

/* ---- keyed hashes ---- */

gboolean
joind_hmac(const gchar *digest, const guint8 *key, gsize key_len, const guint8 *const *parts,
           const gsize *lens, guint n, guint8 *out, gsize out_len, GError **error)
{
	static const guint8 empty_key[1] = {0};
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[] = {
	        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest, 0),
	        OSSL_PARAM_construct_end(),
	};
	gsize done = 0;
	gboolean ok = ctx != NULL &&
	              EVP_MAC_init(ctx, key_len > 0 ? key : empty_key, key_len, params) == 1 &&
	              EVP_MAC_CTX_get_mac_size(ctx) == out_len;

	for (guint i = 0; ok && i < n; i++)
		ok = lens[i] == 0 || EVP_MAC_update(ctx, parts[i], lens[i]) == 1;
	ok = ok && EVP_MAC_final(ctx, out, &done, out_len) == 1 && done == out_len;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok || joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                          "OpenSSL failed to compute HMAC-%s", digest);
}
