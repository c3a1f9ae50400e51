/* eap-pwd-crypto.c - RFC 5931's constructions from OpenSSL primitives. */
#include "eap-pwd-crypto.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include "joind-eap.h"
#include "joind-error.h"
#include "joind-secret.h"

struct _EapPwdExchange {
	EC_GROUP *group;
	BN_CTX *bnctx;
	BIGNUM *p, *a, *b, *order;
	EC_POINT *pwe;
	/* this side */
	BIGNUM *rand, *scalar;
	EC_POINT *element;
	/* the other side */
	BIGNUM *peer_scalar;
	EC_POINT *peer_element;
	guint8 k[EAP_PWD_PRIME_LEN];
	gboolean have_k;
};

static const gchar eap_pwd_hunting_label[] = "EAP-pwd Hunting And Pecking";

static gboolean
eap_pwd_hmac(const guint8 *key, gsize key_len, const guint8 *const *parts, const gsize *lens,
             guint n, guint8 out[EAP_PWD_HASH_LEN], GError **error)
{
	static const guint8 empty_key[1] = {0};
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[] = {
	        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
	        OSSL_PARAM_construct_end(),
	};
	gsize out_len = 0;
	gboolean ok = ctx != NULL &&
	              EVP_MAC_init(ctx, key_len > 0 ? key : empty_key, key_len, params) == 1;

	for (guint i = 0; ok && i < n; i++)
		ok = lens[i] == 0 || EVP_MAC_update(ctx, parts[i], lens[i]) == 1;
	ok = ok && EVP_MAC_final(ctx, out, &out_len, EAP_PWD_HASH_LEN) == 1 &&
	     out_len == EAP_PWD_HASH_LEN;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok || joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                          "OpenSSL failed to compute HMAC-SHA256");
}

gboolean
eap_pwd_h(const guint8 *const *parts, const gsize *lens, guint n, guint8 out[EAP_PWD_HASH_LEN],
          GError **error)
{
	static const guint8 zero_key[EAP_PWD_HASH_LEN] = {0};

	return eap_pwd_hmac(zero_key, sizeof(zero_key), parts, lens, n, out, error);
}

gboolean
eap_pwd_kdf(const guint8 *key, gsize key_len, const guint8 *label, gsize label_len, guint8 *out,
            gsize out_bits, GError **error)
{
	guint8 block[EAP_PWD_HASH_LEN];
	guint8 length[2] = {(guint8)(out_bits >> 8), (guint8)(out_bits & 0xff)};
	gsize out_len = out_bits / 8, done = 0;
	gboolean ok = TRUE;

	g_return_val_if_fail(out_bits % 8 == 0 && out_bits <= G_MAXUINT16, FALSE);
	/* K(i) = HMAC(key, K(i-1) | i | label | length), K(0) empty */
	for (guint16 i = 1; ok && done < out_len; i++) {
		guint8 counter[2] = {(guint8)(i >> 8), (guint8)(i & 0xff)};
		const guint8 *parts[] = {block, counter, label, length};
		gsize lens[] = {i == 1 ? 0 : sizeof(block), sizeof(counter), label_len,
		                sizeof(length)};
		gsize take = MIN(sizeof(block), out_len - done);

		ok = eap_pwd_hmac(key, key_len, parts, lens, G_N_ELEMENTS(parts), block, error);
		if (ok)
			memcpy(out + done, block, take);
		done += take;
	}
	joind_secret_clear(block, sizeof(block));
	return ok;
}

void
eap_pwd_ciphersuite(guint16 group, guint8 random_function, guint8 prf,
                    guint8 out[EAP_PWD_CIPHERSUITE_LEN])
{
	out[0] = (guint8)(group >> 8);
	out[1] = (guint8)(group & 0xff);
	out[2] = random_function;
	out[3] = prf;
}

EapPwdExchange *
eap_pwd_exchange_new(guint16 group, GError **error)
{
	EapPwdExchange *ex;

	if (group != EAP_PWD_GROUP_P256) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "EAP-pwd group %u is not supported (only group 19, NIST P-256)", group);
		return NULL;
	}
	ex = g_new0(EapPwdExchange, 1);
	ex->group = EC_GROUP_new_by_curve_name_ex(NULL, NULL, NID_X9_62_prime256v1);
	ex->bnctx = BN_CTX_new();
	ex->p = BN_new();
	ex->a = BN_new();
	ex->b = BN_new();
	ex->order = BN_new();
	if (ex->group == NULL || ex->bnctx == NULL || ex->p == NULL || ex->a == NULL ||
	    ex->b == NULL || ex->order == NULL ||
	    EC_GROUP_get_curve(ex->group, ex->p, ex->a, ex->b, ex->bnctx) != 1 ||
	    EC_GROUP_get_order(ex->group, ex->order, ex->bnctx) != 1) {
		eap_pwd_exchange_free(ex);
		joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                             "OpenSSL failed to set up the NIST P-256 group");
		return NULL;
	}
	return ex;
}

void
eap_pwd_exchange_free(EapPwdExchange *ex)
{
	if (ex == NULL)
		return;
	EC_POINT_clear_free(ex->pwe);
	EC_POINT_free(ex->element);
	EC_POINT_free(ex->peer_element);
	BN_clear_free(ex->rand);
	BN_free(ex->scalar);
	BN_free(ex->peer_scalar);
	BN_free(ex->p);
	BN_free(ex->a);
	BN_free(ex->b);
	BN_free(ex->order);
	BN_CTX_free(ex->bnctx);
	EC_GROUP_free(ex->group);
	joind_secret_clear(ex->k, sizeof(ex->k));
	g_free(ex);
}

/* y^2 = x^3 + ax + b (mod p), and whether it is a quadratic residue, by
 * Euler's criterion with a constant-time exponentiation. */
static gboolean
eap_pwd_is_qr(EapPwdExchange *ex, const BIGNUM *x, const BIGNUM *p_minus_1_half, gboolean *qr)
{
	BIGNUM *y2, *t;
	gboolean ok;

	BN_CTX_start(ex->bnctx);
	y2 = BN_CTX_get(ex->bnctx);
	t = BN_CTX_get(ex->bnctx);
	ok = t != NULL && BN_mod_sqr(y2, x, ex->p, ex->bnctx) == 1 &&
	     BN_mod_mul(y2, y2, x, ex->p, ex->bnctx) == 1 &&
	     BN_mod_mul(t, ex->a, x, ex->p, ex->bnctx) == 1 &&
	     BN_mod_add(y2, y2, t, ex->p, ex->bnctx) == 1 &&
	     BN_mod_add(y2, y2, ex->b, ex->p, ex->bnctx) == 1 &&
	     BN_mod_exp_mont_consttime(t, y2, p_minus_1_half, ex->p, ex->bnctx, NULL) == 1;
	*qr = ok && BN_is_one(t);
	BN_CTX_end(ex->bnctx);
	return ok;
}

/* One round: the candidate x (as octets) and whether it is on the curve. */
static gboolean
eap_pwd_hunt_round(EapPwdExchange *ex, const guint8 *const *seed_parts, const gsize *seed_lens,
                   const BIGNUM *p_minus_1_half, guint8 seed[EAP_PWD_HASH_LEN],
                   guint8 value[EAP_PWD_PRIME_LEN], gboolean *qr, GError **error)
{
	BIGNUM *x;
	gboolean ok;

	*qr = FALSE;
	if (!eap_pwd_h(seed_parts, seed_lens, 5, seed, error) ||
	    !eap_pwd_kdf(seed, EAP_PWD_HASH_LEN, (const guint8 *)eap_pwd_hunting_label,
	                 strlen(eap_pwd_hunting_label), value, 8 * EAP_PWD_PRIME_LEN, error))
		return FALSE;
	BN_CTX_start(ex->bnctx);
	x = BN_CTX_get(ex->bnctx);
	ok = x != NULL && BN_bin2bn(value, EAP_PWD_PRIME_LEN, x) != NULL;
	/* pwd-value >= p is no candidate (probability about 2^-32 here). */
	ok = ok && (BN_cmp(x, ex->p) >= 0 || eap_pwd_is_qr(ex, x, p_minus_1_half, qr));
	BN_CTX_end(ex->bnctx);
	return ok ||
	       joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                    "OpenSSL failed to test a password element candidate");
}

/* Hunting and pecking (RFC 5931 2.8.3.2), always EAP_PWD_MIN_ROUNDS rounds
 * at least; the first candidate found is kept with masked copies. */
static gboolean
eap_pwd_hunt(EapPwdExchange *ex, const guint8 *const *parts, const gsize *lens,
             guint8 x_out[EAP_PWD_PRIME_LEN], guint8 *y_bit, guint *rounds, GError **error)
{
	guint8 seed[EAP_PWD_HASH_LEN] = {0}, value[EAP_PWD_PRIME_LEN] = {0};
	const guint8 *seed_parts[5] = {parts[0], parts[1], parts[2], parts[3], NULL};
	gsize seed_lens[5] = {lens[0], lens[1], lens[2], lens[3], 1};
	BIGNUM *half = BN_dup(ex->p);
	guint found = 0;
	gboolean ok = half != NULL && BN_sub_word(half, 1) == 1 && BN_rshift1(half, half) == 1;

	for (guint counter = 1; ok && counter <= 255; counter++) {
		guint8 c = (guint8)counter, mask;
		gboolean qr;

		if (found != 0 && counter > EAP_PWD_MIN_ROUNDS)
			break;
		seed_parts[4] = &c;
		ok = eap_pwd_hunt_round(ex, seed_parts, seed_lens, half, seed, value, &qr, error);
		/* 0xff when this is the first residue, else 0 */
		mask = (guint8)(0u - (guint)(qr && found == 0));
		for (guint i = 0; i < EAP_PWD_PRIME_LEN; i++)
			x_out[i] = (guint8)((x_out[i] & ~mask) | (value[i] & mask));
		*y_bit = (guint8)((*y_bit & ~mask) | (seed[EAP_PWD_HASH_LEN - 1] & 1u & mask));
		found |= (guint)(qr ? counter : 0) & (0u - (guint)(found == 0));
	}
	BN_free(half);
	joind_secret_clear(seed, sizeof(seed));
	joind_secret_clear(value, sizeof(value));
	if (ok && found == 0)
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		            "EAP-pwd found no password element in 255 rounds");
	if (rounds != NULL)
		*rounds = found;
	return ok && found != 0;
}

gboolean
eap_pwd_exchange_derive_pwe(EapPwdExchange *ex, const guint8 token[4], const guint8 *peer_id,
                            gsize peer_id_len, const guint8 *server_id, gsize server_id_len,
                            const guint8 *password, gsize password_len, guint *rounds,
                            GError **error)
{
	/* pwd-seed = H(token | peer-ID | server-ID | password | counter) */
	const guint8 *parts[] = {token, peer_id, server_id, password};
	gsize lens[] = {4, peer_id_len, server_id_len, password_len};
	guint8 x_octets[EAP_PWD_PRIME_LEN] = {0}, y_bit = 0;
	BIGNUM *x = NULL;
	gboolean ok;

	EC_POINT_clear_free(ex->pwe);
	ex->pwe = NULL;
	if (!eap_pwd_hunt(ex, parts, lens, x_octets, &y_bit, rounds, error))
		return FALSE;
	x = BN_bin2bn(x_octets, sizeof(x_octets), NULL);
	ex->pwe = EC_POINT_new(ex->group);
	/* The y whose lowest bit equals the seed's. */
	ok = x != NULL && ex->pwe != NULL &&
	     EC_POINT_set_compressed_coordinates(ex->group, ex->pwe, x, y_bit, ex->bnctx) == 1;
	BN_clear_free(x);
	joind_secret_clear(x_octets, sizeof(x_octets));
	return ok || joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                          "OpenSSL failed to build the password element");
}

static gboolean
eap_pwd_point_to_octets(EapPwdExchange *ex, const EC_POINT *point, guint8 out[EAP_PWD_ELEMENT_LEN])
{
	BIGNUM *x, *y;
	gboolean ok;

	BN_CTX_start(ex->bnctx);
	x = BN_CTX_get(ex->bnctx);
	y = BN_CTX_get(ex->bnctx);
	ok = y != NULL && EC_POINT_get_affine_coordinates(ex->group, point, x, y, ex->bnctx) == 1 &&
	     BN_bn2binpad(x, out, EAP_PWD_PRIME_LEN) == EAP_PWD_PRIME_LEN &&
	     BN_bn2binpad(y, out + EAP_PWD_PRIME_LEN, EAP_PWD_PRIME_LEN) == EAP_PWD_PRIME_LEN;
	BN_CTX_end(ex->bnctx);
	return ok;
}

gboolean
eap_pwd_exchange_get_pwe(EapPwdExchange *ex, guint8 out[EAP_PWD_ELEMENT_LEN], GError **error)
{
	return (ex->pwe != NULL && eap_pwd_point_to_octets(ex, ex->pwe, out)) ||
	       joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                    "OpenSSL failed to read the password element");
}

/* A uniformly random value in [2, r). */
static gboolean
eap_pwd_random_scalar(EapPwdExchange *ex, BIGNUM *out)
{
	do {
		if (BN_priv_rand_range_ex(out, ex->order, 0, ex->bnctx) != 1)
			return FALSE;
	} while (BN_cmp(out, BN_value_one()) <= 0);
	return TRUE;
}

gboolean
eap_pwd_exchange_commit(EapPwdExchange *ex, guint8 out[EAP_PWD_COMMIT_LEN], GError **error)
{
	BIGNUM *mask = BN_secure_new();
	gboolean ok;

	g_return_val_if_fail(ex->pwe != NULL, FALSE);
	if (ex->rand == NULL)
		ex->rand = BN_secure_new();
	if (ex->scalar == NULL)
		ex->scalar = BN_new();
	if (ex->element == NULL)
		ex->element = EC_POINT_new(ex->group);
	ok = mask != NULL && ex->rand != NULL && ex->scalar != NULL && ex->element != NULL;
	/* Scalar = (rand + mask) mod r, which must not be 0 or 1 either. */
	do {
		ok = ok && eap_pwd_random_scalar(ex, ex->rand) && eap_pwd_random_scalar(ex, mask) &&
		     BN_mod_add(ex->scalar, ex->rand, mask, ex->order, ex->bnctx) == 1;
	} while (ok && BN_cmp(ex->scalar, BN_value_one()) <= 0);
	/* Element = inverse(mask * PWE) */
	ok = ok && EC_POINT_mul(ex->group, ex->element, NULL, ex->pwe, mask, ex->bnctx) == 1 &&
	     EC_POINT_invert(ex->group, ex->element, ex->bnctx) == 1 &&
	     eap_pwd_point_to_octets(ex, ex->element, out) &&
	     BN_bn2binpad(ex->scalar, out + EAP_PWD_ELEMENT_LEN, EAP_PWD_ORDER_LEN) ==
	             EAP_PWD_ORDER_LEN;
	BN_clear_free(mask);
	return ok || joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                          "OpenSSL failed to compute the EAP-pwd commit");
}

static gboolean
eap_pwd_invalid(GError **error, const gchar *what)
{
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "EAP-pwd commit %s", what);
	return FALSE;
}

/* Decodes and validates the other side's Element. */
static gboolean
eap_pwd_decode_element(EapPwdExchange *ex, const guint8 *data, EC_POINT *point, GError **error)
{
	BIGNUM *x, *y;
	gboolean in_range, on_curve;

	BN_CTX_start(ex->bnctx);
	x = BN_CTX_get(ex->bnctx);
	y = BN_CTX_get(ex->bnctx);
	if (y == NULL || BN_bin2bn(data, EAP_PWD_PRIME_LEN, x) == NULL ||
	    BN_bin2bn(data + EAP_PWD_PRIME_LEN, EAP_PWD_PRIME_LEN, y) == NULL) {
		BN_CTX_end(ex->bnctx);
		return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                                    "OpenSSL failed to decode an element");
	}
	in_range = BN_cmp(x, ex->p) < 0 && BN_cmp(y, ex->p) < 0;
	/* set_affine_coordinates refuses points off the curve; ask anyway. */
	on_curve = in_range &&
	           EC_POINT_set_affine_coordinates(ex->group, point, x, y, ex->bnctx) == 1 &&
	           EC_POINT_is_on_curve(ex->group, point, ex->bnctx) == 1;
	BN_CTX_end(ex->bnctx);
	if (!in_range)
		return eap_pwd_invalid(error, "element has a coordinate not below the prime");
	if (!on_curve)
		return eap_pwd_invalid(error, "element is not on the curve");
	if (EC_POINT_is_at_infinity(ex->group, point))
		return eap_pwd_invalid(error, "element is the point at infinity");
	return TRUE;
}

/* K = rand * (Scalar_peer * PWE + Element_peer); k = x(K). */
static gboolean
eap_pwd_shared_secret(EapPwdExchange *ex, GError **error)
{
	EC_POINT *point = EC_POINT_new(ex->group);
	BIGNUM *x;
	gboolean ok, infinity = FALSE;

	BN_CTX_start(ex->bnctx);
	x = BN_CTX_get(ex->bnctx);
	ok = point != NULL && x != NULL &&
	     EC_POINT_mul(ex->group, point, NULL, ex->pwe, ex->peer_scalar, ex->bnctx) == 1 &&
	     EC_POINT_add(ex->group, point, point, ex->peer_element, ex->bnctx) == 1 &&
	     EC_POINT_mul(ex->group, point, NULL, point, ex->rand, ex->bnctx) == 1;
	if (ok)
		infinity = EC_POINT_is_at_infinity(ex->group, point) == 1;
	ok = ok && !infinity &&
	     EC_POINT_get_affine_coordinates(ex->group, point, x, NULL, ex->bnctx) == 1 &&
	     BN_bn2binpad(x, ex->k, EAP_PWD_PRIME_LEN) == EAP_PWD_PRIME_LEN;
	BN_clear(x);
	BN_CTX_end(ex->bnctx);
	EC_POINT_clear_free(point);
	if (infinity)
		return eap_pwd_invalid(error, "yields the point at infinity as shared secret");
	ex->have_k = ok;
	return ok ||
	       joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
	                                    "OpenSSL failed to compute the EAP-pwd shared secret");
}

gboolean
eap_pwd_exchange_process_commit(EapPwdExchange *ex, const guint8 *data, gsize len, GError **error)
{
	g_return_val_if_fail(ex->pwe != NULL && ex->rand != NULL, FALSE);
	if (len != EAP_PWD_COMMIT_LEN) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP-pwd commit of %zu octets (group 19 needs %d)", len,
		            EAP_PWD_COMMIT_LEN);
		return FALSE;
	}
	if (ex->peer_element == NULL)
		ex->peer_element = EC_POINT_new(ex->group);
	if (ex->peer_scalar == NULL)
		ex->peer_scalar = BN_new();
	if (ex->peer_element == NULL || ex->peer_scalar == NULL ||
	    BN_bin2bn(data + EAP_PWD_ELEMENT_LEN, EAP_PWD_ORDER_LEN, ex->peer_scalar) == NULL)
		return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                                    "OpenSSL failed to decode a commit");
	/* RFC 5931 2.8.5.1: 1 < scalar < r */
	if (BN_cmp(ex->peer_scalar, BN_value_one()) <= 0 || BN_cmp(ex->peer_scalar, ex->order) >= 0)
		return eap_pwd_invalid(error, "scalar is not between 1 and the group order");
	if (!eap_pwd_decode_element(ex, data, ex->peer_element, error))
		return FALSE;
	/* Our own commit sent back (a reflection attack). */
	if (BN_cmp(ex->peer_scalar, ex->scalar) == 0 &&
	    EC_POINT_cmp(ex->group, ex->peer_element, ex->element, ex->bnctx) == 0)
		return eap_pwd_invalid(error, "is a reflection of our own");
	return eap_pwd_shared_secret(ex, error);
}

/* Element then Scalar of one side, as on the wire. */
static gboolean
eap_pwd_encode_commit(EapPwdExchange *ex, gboolean own, guint8 out[EAP_PWD_COMMIT_LEN])
{
	const EC_POINT *element = own ? ex->element : ex->peer_element;
	const BIGNUM *scalar = own ? ex->scalar : ex->peer_scalar;

	return element != NULL && scalar != NULL && eap_pwd_point_to_octets(ex, element, out) &&
	       BN_bn2binpad(scalar, out + EAP_PWD_ELEMENT_LEN, EAP_PWD_ORDER_LEN) ==
	               EAP_PWD_ORDER_LEN;
}

gboolean
eap_pwd_confirm_compute(const guint8 k[EAP_PWD_PRIME_LEN],
                        const guint8 commit_a[EAP_PWD_COMMIT_LEN],
                        const guint8 commit_b[EAP_PWD_COMMIT_LEN],
                        const guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN],
                        guint8 out[EAP_PWD_HASH_LEN], GError **error)
{
	const guint8 *parts[] = {k, commit_a, commit_b, ciphersuite};
	const gsize lens[] = {EAP_PWD_PRIME_LEN, EAP_PWD_COMMIT_LEN, EAP_PWD_COMMIT_LEN,
	                      EAP_PWD_CIPHERSUITE_LEN};

	return eap_pwd_h(parts, lens, G_N_ELEMENTS(parts), out, error);
}

gboolean
eap_pwd_exchange_confirm(EapPwdExchange *ex, const guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN],
                         gboolean own_first, guint8 out[EAP_PWD_HASH_LEN], GError **error)
{
	guint8 first[EAP_PWD_COMMIT_LEN], second[EAP_PWD_COMMIT_LEN];

	if (!ex->have_k || !eap_pwd_encode_commit(ex, own_first, first) ||
	    !eap_pwd_encode_commit(ex, !own_first, second))
		return joind_set_error_from_openssl(
		        error, G_IO_ERROR, G_IO_ERROR_FAILED,
		        "OpenSSL failed to encode the commits for the confirm");
	return eap_pwd_confirm_compute(ex->k, first, second, ciphersuite, out, error);
}

gboolean
eap_pwd_exchange_keys(EapPwdExchange *ex, const guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN],
                      gboolean is_peer, const guint8 confirm_p[EAP_PWD_HASH_LEN],
                      const guint8 confirm_s[EAP_PWD_HASH_LEN], guint8 msk[64], guint8 emsk[64],
                      GError **error)
{
	guint8 scalar_p[EAP_PWD_ORDER_LEN], scalar_s[EAP_PWD_ORDER_LEN];
	guint8 session_id[1 + EAP_PWD_HASH_LEN], mk[EAP_PWD_HASH_LEN], keys[128];
	const guint8 *id_parts[] = {ciphersuite, scalar_p, scalar_s};
	const gsize id_lens[] = {EAP_PWD_CIPHERSUITE_LEN, sizeof(scalar_p), sizeof(scalar_s)};
	const guint8 *mk_parts[] = {ex->k, confirm_p, confirm_s};
	const gsize mk_lens[] = {EAP_PWD_PRIME_LEN, EAP_PWD_HASH_LEN, EAP_PWD_HASH_LEN};
	gboolean ok;

	if (!ex->have_k ||
	    BN_bn2binpad(is_peer ? ex->scalar : ex->peer_scalar, scalar_p, EAP_PWD_ORDER_LEN) !=
	            EAP_PWD_ORDER_LEN ||
	    BN_bn2binpad(is_peer ? ex->peer_scalar : ex->scalar, scalar_s, EAP_PWD_ORDER_LEN) !=
	            EAP_PWD_ORDER_LEN)
		return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                                    "OpenSSL failed to encode the scalars");
	/* Session-ID = Type | Method-ID, Method-ID = H(Ciphersuite | Scalar_P | Scalar_S) */
	session_id[0] = JOIND_EAP_TYPE_PWD;
	ok = eap_pwd_h(id_parts, id_lens, G_N_ELEMENTS(id_parts), session_id + 1, error) &&
	     eap_pwd_h(mk_parts, mk_lens, G_N_ELEMENTS(mk_parts), mk, error) &&
	     eap_pwd_kdf(mk, sizeof(mk), session_id, sizeof(session_id), keys, 8 * sizeof(keys),
	                 error);
	if (ok) {
		memcpy(msk, keys, 64);
		memcpy(emsk, keys + 64, 64);
	}
	joind_secret_clear(mk, sizeof(mk));
	joind_secret_clear(keys, sizeof(keys));
	return ok;
}
