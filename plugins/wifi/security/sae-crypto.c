/* sae-crypto.c - SAE's password element, keys and confirm (see
 * sae-crypto.h). */
#include "sae-crypto.h"

#include <string.h>

#include <gio/gio.h>

#include "joind-error.h"
#include "joind-secret.h"

#define SAE_MAX_VALUE_LEN (JOIND_EC_MAX_PRIME_LEN + JOIND_EC_MAX_PRIME_LEN / 2)

static gboolean
sae_fail(GError **error, const gchar *what)
{
	return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                    "OpenSSL failed to %s", what);
}

gsize
wifi_sae_hash_len(JoindEcGroup *group, gboolean h2e)
{
	guint bits = joind_ec_group_get_prime_bits(group);

	if (!h2e || bits <= 256)
		return 32;
	return bits <= 384 ? 48 : 64;
}

static const gchar *
sae_digest(gsize hash_len)
{
	return hash_len == 64 ? "SHA512" : hash_len == 48 ? "SHA384" : "SHA256";
}

/* Orders the two addresses: MAX(a, b) then MIN(a, b). */
static void
sae_sort_addrs(const guint8 a[6], const guint8 b[6], guint8 out[12])
{
	gboolean a_first = memcmp(a, b, 6) > 0;

	memcpy(out, a_first ? a : b, 6);
	memcpy(out + 6, a_first ? b : a, 6);
}

/* KDF-Hash-Length (12.7.1.6.2): bits bits of HMAC(key, i | label |
 * context | bits), i and bits 16-bit little-endian; unused low bits of
 * the last octet are zero. */
static gboolean
sae_kdf(gsize hash_len, const guint8 *key, gsize key_len, const gchar *label, const guint8 *context,
        gsize context_len, guint bits, guint8 *out, GError **error)
{
	guint8 block[WIFI_SAE_MAX_HASH_LEN], length[2] = {(guint8)bits, (guint8)(bits >> 8)};
	gsize out_len = (bits + 7) / 8, done = 0;
	gboolean ok = TRUE;

	for (guint16 i = 1; ok && done < out_len; i++) {
		guint8 counter[2] = {(guint8)i, (guint8)(i >> 8)};
		const guint8 *parts[] = {counter, (const guint8 *)label, context, length};
		const gsize lens[] = {2, strlen(label), context_len, 2};
		gsize take = MIN(hash_len, out_len - done);

		ok = joind_hmac(sae_digest(hash_len), key, key_len, parts, lens,
		                G_N_ELEMENTS(parts), block, hash_len, error);
		if (ok)
			memcpy(out + done, block, take);
		done += take;
	}
	if (ok && bits % 8 != 0)
		out[out_len - 1] &= (guint8)(0xff << (8 - bits % 8));
	joind_secret_clear(block, sizeof(block));
	return ok;
}

/* ---- hunting and pecking ---- */

typedef struct {
	guint8 addrs[12];
	const guint8 *password;
	gsize password_len;
	const gchar *identifier;
} SaeHunt;

/* pwd-seed = HMAC-SHA256(MAX | MIN, password [| identifier] | counter),
 * pwd-value = KDF-Hash-Length(pwd-seed, "SAE Hunting and Pecking", p). */
static gboolean
sae_candidate(JoindEcGroup *group, guint8 counter, guint8 *value, guint8 *y_bit, gpointer user_data,
              GError **error)
{
	const SaeHunt *in = user_data;
	const guint8 *parts[] = {in->password, (const guint8 *)in->identifier, &counter};
	const gsize lens[] = {in->password_len, in->identifier != NULL ? strlen(in->identifier) : 0,
	                      1};
	guint8 seed[32], prime[JOIND_EC_MAX_PRIME_LEN];
	gsize prime_len = joind_ec_group_get_prime_len(group);
	guint bits = joind_ec_group_get_prime_bits(group);
	gboolean ok;

	ok = joind_hmac("SHA256", in->addrs, sizeof(in->addrs), parts, lens, G_N_ELEMENTS(parts),
	                seed, sizeof(seed), error) &&
	     (BN_bn2binpad(joind_ec_group_get_prime(group), prime, (int)prime_len) ==
	              (int)prime_len ||
	      sae_fail(error, "encode the prime")) &&
	     sae_kdf(32, seed, sizeof(seed), "SAE Hunting and Pecking", prime, prime_len, bits,
	             value, error);
	/* A prime of 521 bits: the value is the top 521 bits, right-aligned. */
	if (ok && bits % 8 != 0) {
		guint shift = 8 - bits % 8;

		for (gsize i = prime_len - 1; i > 0; i--)
			value[i] = (guint8)((value[i] >> shift) | (value[i - 1] << (8 - shift)));
		value[0] = (guint8)(value[0] >> shift);
	}
	*y_bit = seed[sizeof(seed) - 1] & 1u;
	joind_secret_clear(seed, sizeof(seed));
	return ok;
}

EC_POINT *
wifi_sae_pwe_hunt(JoindEcGroup *group, const guint8 addr1[6], const guint8 addr2[6],
                  const guint8 *password, gsize password_len, const gchar *identifier,
                  guint *rounds, GError **error)
{
	SaeHunt in = {.password = password, .password_len = password_len, .identifier = identifier};

	sae_sort_addrs(addr1, addr2, in.addrs);
	return joind_ec_group_hunt_and_peck(group, sae_candidate, &in, WIFI_SAE_MIN_ROUNDS, rounds,
	                                    error);
}

/* ---- hash to element ---- */

/* z of the simplified SWU map for the group (RFC 9380 8.2 - 8.4). */
static gboolean
sae_sswu_z(JoindEcGroup *group, BIGNUM *z)
{
	guint number = joind_ec_group_get_number(group);
	BN_ULONG minus = number == 19 ? 10 : number == 20 ? 12 : 4;

	return BN_set_word(z, minus) == 1 && BN_sub(z, joind_ec_group_get_prime(group), z) == 1;
}

/* x1 = CSEL(m == 0, b / (z * a), (-b / a) * (1 + 1/m)), all mod p, with
 * 1/m = m^(p-2) (0 for m = 0). */
static gboolean
sae_sswu_x1(JoindEcGroup *group, const BIGNUM *z, const BIGNUM *m, BIGNUM *x1)
{
	BN_CTX *ctx = joind_ec_group_get_bn_ctx(group);
	const BIGNUM *p = joind_ec_group_get_prime(group), *a = joind_ec_group_get_a(group);
	const BIGNUM *b = joind_ec_group_get_b(group);
	BIGNUM *t, *e, *u, *v;
	gboolean ok;

	BN_CTX_start(ctx);
	t = BN_CTX_get(ctx);
	e = BN_CTX_get(ctx);
	u = BN_CTX_get(ctx);
	v = BN_CTX_get(ctx);
	ok = v != NULL && BN_sub(e, p, BN_value_one()) == 1 && BN_sub_word(e, 1) == 1 &&
	     BN_mod_exp_mont_consttime(t, m, e, p, ctx, NULL) == 1 &&
	     BN_mod_add(t, t, BN_value_one(), p, ctx) == 1 && BN_mod_inverse(u, a, p, ctx) &&
	     BN_mod_mul(u, u, b, p, ctx) == 1 && BN_mod_sub(u, p, u, p, ctx) == 1 &&
	     BN_mod_mul(u, u, t, p, ctx) == 1 && /* (-b/a)(1 + t) */
	     BN_mod_mul(v, z, a, p, ctx) == 1 && BN_mod_inverse(v, v, p, ctx) &&
	     BN_mod_mul(v, v, b, p, ctx) == 1 && /* b/(za) */
	     joind_ec_group_bn_select(group, x1, (guint)BN_is_zero(m), v, u);
	BN_CTX_end(ctx);
	return ok;
}

/* x and y^2 of the map: (x1, gx1) when gx1 is a square, else (x2, gx2)
 * with x2 = z u^2 x1. */
static gboolean
sae_sswu_xy2(JoindEcGroup *group, const BIGNUM *u, BIGNUM *x, BIGNUM *y2, GError **error)
{
	BN_CTX *ctx = joind_ec_group_get_bn_ctx(group);
	const BIGNUM *p = joind_ec_group_get_prime(group);
	BIGNUM *z, *zu2, *m, *x1, *x2, *gx1, *gx2;
	guint qr = 0;
	gboolean ok;

	BN_CTX_start(ctx);
	z = BN_CTX_get(ctx);
	zu2 = BN_CTX_get(ctx);
	m = BN_CTX_get(ctx);
	x1 = BN_CTX_get(ctx);
	x2 = BN_CTX_get(ctx);
	gx1 = BN_CTX_get(ctx);
	gx2 = BN_CTX_get(ctx);
	/* m = z^2 u^4 + z u^2 = zu2^2 + zu2 */
	ok = gx2 != NULL && sae_sswu_z(group, z) && BN_mod_sqr(zu2, u, p, ctx) == 1 &&
	     BN_mod_mul(zu2, zu2, z, p, ctx) == 1 && BN_mod_sqr(m, zu2, p, ctx) == 1 &&
	     BN_mod_add(m, m, zu2, p, ctx) == 1 && sae_sswu_x1(group, z, m, x1) &&
	     joind_ec_group_curve_rhs(group, x1, gx1) && BN_mod_mul(x2, zu2, x1, p, ctx) == 1 &&
	     joind_ec_group_curve_rhs(group, x2, gx2);
	ok = ok || sae_fail(error, "map a value to the curve");
	ok = ok && joind_ec_group_is_qr(group, gx1, &qr, error);
	ok = ok && ((joind_ec_group_bn_select(group, x, qr, x1, x2) &&
	             joind_ec_group_bn_select(group, y2, qr, gx1, gx2)) ||
	            sae_fail(error, "select the mapped point"));
	BN_CTX_end(ctx);
	return ok;
}

EC_POINT *
wifi_sae_sswu(JoindEcGroup *group, const BIGNUM *u, GError **error)
{
	BN_CTX *ctx = joind_ec_group_get_bn_ctx(group);
	const BIGNUM *p = joind_ec_group_get_prime(group);
	EC_POINT *point = EC_POINT_new(joind_ec_group_get_curve(group));
	BIGNUM *x, *y, *neg;
	gboolean ok;

	BN_CTX_start(ctx);
	x = BN_CTX_get(ctx);
	y = BN_CTX_get(ctx);
	neg = BN_CTX_get(ctx);
	ok = point != NULL && neg != NULL && sae_sswu_xy2(group, u, x, y, error) &&
	     joind_ec_group_sqrt(group, y, y, error);
	/* y's parity follows u's */
	ok = ok &&
	     ((BN_sub(neg, p, y) == 1 &&
	       joind_ec_group_bn_select(group, y, (guint)(BN_is_odd(u) == BN_is_odd(y)), y, neg) &&
	       EC_POINT_set_affine_coordinates(joind_ec_group_get_curve(group), point, x, y, ctx) ==
	               1) ||
	      sae_fail(error, "build the mapped point"));
	BN_CTX_end(ctx);
	if (!ok) {
		EC_POINT_free(point);
		return NULL;
	}
	return point;
}

/* HKDF-Expand (RFC 5869) of len octets, len at most 255 * hash_len. */
static gboolean
sae_hkdf_expand(gsize hash_len, const guint8 *prk, const gchar *info, guint8 *out, gsize len,
                GError **error)
{
	guint8 block[WIFI_SAE_MAX_HASH_LEN];
	gsize done = 0;
	gboolean ok = TRUE;

	for (guint8 i = 1; ok && done < len; i++) {
		const guint8 *parts[] = {block, (const guint8 *)info, &i};
		const gsize lens[] = {i == 1 ? 0 : hash_len, strlen(info), 1};

		ok = joind_hmac(sae_digest(hash_len), prk, hash_len, parts, lens,
		                G_N_ELEMENTS(parts), block, hash_len, error);
		if (ok)
			memcpy(out + done, block, MIN(hash_len, len - done));
		done += MIN(hash_len, len - done);
	}
	joind_secret_clear(block, sizeof(block));
	return ok;
}

/* P = SSWU(HKDF-Expand(seed, info, len) mod p). */
static EC_POINT *
sae_pt_half(JoindEcGroup *group, const guint8 *seed, const gchar *info, GError **error)
{
	gsize hash_len = wifi_sae_hash_len(group, TRUE);
	gsize prime_len = joind_ec_group_get_prime_len(group);
	gsize len = prime_len + prime_len / 2;
	guint8 value[SAE_MAX_VALUE_LEN];
	BIGNUM *u = BN_secure_new();
	EC_POINT *point = NULL;

	if (u != NULL && sae_hkdf_expand(hash_len, seed, info, value, len, error)) {
		if (BN_bin2bn(value, (int)len, u) != NULL &&
		    BN_nnmod(u, u, joind_ec_group_get_prime(group),
		             joind_ec_group_get_bn_ctx(group)))
			point = wifi_sae_sswu(group, u, error);
		else
			sae_fail(error, "reduce a password value");
	} else if (u == NULL) {
		sae_fail(error, "allocate a password value");
	}
	BN_clear_free(u);
	joind_secret_clear(value, sizeof(value));
	return point;
}

EC_POINT *
wifi_sae_derive_pt(JoindEcGroup *group, const guint8 *ssid, gsize ssid_len, const guint8 *password,
                   gsize password_len, const gchar *identifier, GError **error)
{
	gsize hash_len = wifi_sae_hash_len(group, TRUE);
	const guint8 *parts[] = {password, (const guint8 *)identifier};
	const gsize lens[] = {password_len, identifier != NULL ? strlen(identifier) : 0};
	guint8 seed[WIFI_SAE_MAX_HASH_LEN];
	EC_POINT *p1 = NULL, *p2 = NULL, *pt = NULL;

	/* pwd-seed = HKDF-Extract(ssid, password [| identifier]) */
	if (joind_hmac(sae_digest(hash_len), ssid, ssid_len, parts, lens, G_N_ELEMENTS(parts), seed,
	               hash_len, error) &&
	    (p1 = sae_pt_half(group, seed, "SAE Hash to Element u1 P1", error)) != NULL &&
	    (p2 = sae_pt_half(group, seed, "SAE Hash to Element u2 P2", error)) != NULL) {
		pt = EC_POINT_new(joind_ec_group_get_curve(group));
		if (pt == NULL || EC_POINT_add(joind_ec_group_get_curve(group), pt, p1, p2,
		                               joind_ec_group_get_bn_ctx(group)) != 1) {
			EC_POINT_clear_free(pt);
			pt = NULL;
			sae_fail(error, "add the two halves of the password token");
		}
	}
	EC_POINT_clear_free(p1);
	EC_POINT_clear_free(p2);
	joind_secret_clear(seed, sizeof(seed));
	return pt;
}

EC_POINT *
wifi_sae_pwe_from_pt(JoindEcGroup *group, const EC_POINT *pt, const guint8 addr1[6],
                     const guint8 addr2[6], GError **error)
{
	static const guint8 zeros[WIFI_SAE_MAX_HASH_LEN] = {0};
	gsize hash_len = wifi_sae_hash_len(group, TRUE);
	BN_CTX *ctx = joind_ec_group_get_bn_ctx(group);
	guint8 addrs[12], hash[WIFI_SAE_MAX_HASH_LEN];
	const guint8 *parts[] = {addrs};
	const gsize lens[] = {sizeof(addrs)};
	EC_POINT *pwe = EC_POINT_new(joind_ec_group_get_curve(group));
	BIGNUM *val = BN_new(), *r1 = BN_dup(joind_ec_group_get_order(group));
	gboolean ok;

	sae_sort_addrs(addr1, addr2, addrs);
	/* val = H(0^n, MAX | MIN) mod (r - 1) + 1 */
	ok = pwe != NULL && val != NULL && r1 != NULL &&
	     joind_hmac(sae_digest(hash_len), zeros, hash_len, parts, lens, 1, hash, hash_len,
	                error);
	ok = ok && ((BN_bin2bn(hash, (int)hash_len, val) != NULL && BN_sub_word(r1, 1) == 1 &&
	             BN_mod(val, val, r1, ctx) == 1 && BN_add_word(val, 1) == 1 &&
	             EC_POINT_mul(joind_ec_group_get_curve(group), pwe, NULL, pt, val, ctx) == 1) ||
	            sae_fail(error, "derive the password element from the token"));
	BN_clear_free(val);
	BN_free(r1);
	if (!ok) {
		EC_POINT_clear_free(pwe);
		return NULL;
	}
	return pwe;
}

/* ---- keys and confirm ---- */

gboolean
wifi_sae_derive_keys(JoindEcGroup *group, gboolean h2e, const guint8 *salt, gsize salt_len,
                     const guint8 *k, const BIGNUM *scalar, const BIGNUM *peer_scalar,
                     guint8 kck[WIFI_SAE_MAX_HASH_LEN], guint8 pmk[WIFI_SAE_PMK_LEN],
                     guint8 pmkid[WIFI_SAE_PMKID_LEN], GError **error)
{
	static const guint8 zeros[WIFI_SAE_MAX_HASH_LEN] = {0};
	gsize hash_len = wifi_sae_hash_len(group, h2e);
	gsize order_len = joind_ec_group_get_order_len(group);
	guint8 keyseed[WIFI_SAE_MAX_HASH_LEN], val[JOIND_EC_MAX_PRIME_LEN];
	guint8 keys[WIFI_SAE_MAX_HASH_LEN + WIFI_SAE_PMK_LEN];
	const guint8 *parts[] = {k};
	const gsize lens[] = {joind_ec_group_get_prime_len(group)};
	BIGNUM *sum = BN_new();
	gboolean ok;

	/* keyseed = H(salt, k); KCK | PMK = KDF(keyseed, "SAE KCK and PMK",
	 * (scalar + peer-scalar) mod r) */
	ok = sum != NULL &&
	     BN_mod_add(sum, scalar, peer_scalar, joind_ec_group_get_order(group),
	                joind_ec_group_get_bn_ctx(group)) == 1 &&
	     BN_bn2binpad(sum, val, (int)order_len) == (int)order_len;
	ok = (ok || sae_fail(error, "add the scalars")) &&
	     joind_hmac(sae_digest(hash_len), salt != NULL ? salt : zeros,
	                salt != NULL ? salt_len : hash_len, parts, lens, 1, keyseed, hash_len,
	                error) &&
	     sae_kdf(hash_len, keyseed, hash_len, "SAE KCK and PMK", val, order_len,
	             (guint)(8 * (hash_len + WIFI_SAE_PMK_LEN)), keys, error);
	if (ok) {
		memcpy(kck, keys, hash_len);
		memcpy(pmk, keys + hash_len, WIFI_SAE_PMK_LEN);
		memcpy(pmkid, val, WIFI_SAE_PMKID_LEN);
	}
	BN_free(sum);
	joind_secret_clear(keyseed, sizeof(keyseed));
	joind_secret_clear(keys, sizeof(keys));
	return ok;
}

gboolean
wifi_sae_confirm_compute(JoindEcGroup *group, const guint8 *kck, gsize kck_len,
                         guint16 send_confirm, const guint8 *scalar1, const guint8 *element1,
                         const guint8 *scalar2, const guint8 *element2, guint8 *out, GError **error)
{
	guint8 sc[2] = {(guint8)send_confirm, (guint8)(send_confirm >> 8)};
	gsize order_len = joind_ec_group_get_order_len(group);
	gsize element_len = 2 * joind_ec_group_get_prime_len(group);
	const guint8 *parts[] = {sc, scalar1, element1, scalar2, element2};
	const gsize lens[] = {2, order_len, element_len, order_len, element_len};

	return joind_hmac(sae_digest(kck_len), kck, kck_len, parts, lens, G_N_ELEMENTS(parts), out,
	                  kck_len, error);
}
