/* eap-pwd-crypto.c - RFC 5931's constructions from OpenSSL primitives. */
#include "eap-pwd-crypto.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/bn.h>

#include "joind-crypto.h"
#include "joind-eap.h"
#include "joind-error.h"
#include "joind-secret.h"

struct _EapPwdExchange {
	JoindEcGroup *group;
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

gboolean
eap_pwd_h(const guint8 *const *parts, const gsize *lens, guint n, guint8 out[EAP_PWD_HASH_LEN],
          GError **error)
{
	static const guint8 zero_key[EAP_PWD_HASH_LEN] = {0};

	return joind_hmac("SHA256", zero_key, sizeof(zero_key), parts, lens, n, out,
	                  EAP_PWD_HASH_LEN, error);
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

		ok = joind_hmac("SHA256", key, key_len, parts, lens, G_N_ELEMENTS(parts), block,
		                sizeof(block), error);
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
	ex->group = joind_ec_group_new(group, error);
	if (ex->group == NULL) {
		g_free(ex);
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
	joind_ec_group_free(ex->group);
	joind_secret_clear(ex->k, sizeof(ex->k));
	g_free(ex);
}

typedef struct {
	const guint8 *const *parts; /* token, peer-ID, server-ID, password */
	const gsize *lens;
} EapPwdSeed;

/* One round's candidate: pwd-seed = H(token | peer-ID | server-ID |
 * password | counter), pwd-value = KDF(pwd-seed, label, 256); the seed's
 * lowest bit picks y. */
static gboolean
eap_pwd_candidate(JoindEcGroup *group, guint8 counter, guint8 *value, guint8 *y_bit,
                  gpointer user_data, GError **error)
{
	const EapPwdSeed *in = user_data;
	const guint8 *parts[] = {in->parts[0], in->parts[1], in->parts[2], in->parts[3], &counter};
	const gsize lens[] = {in->lens[0], in->lens[1], in->lens[2], in->lens[3], 1};
	guint8 seed[EAP_PWD_HASH_LEN];
	gboolean ok;

	(void)group;
	ok = eap_pwd_h(parts, lens, G_N_ELEMENTS(parts), seed, error) &&
	     eap_pwd_kdf(seed, sizeof(seed), (const guint8 *)eap_pwd_hunting_label,
	                 strlen(eap_pwd_hunting_label), value, 8 * EAP_PWD_PRIME_LEN, error);
	*y_bit = seed[EAP_PWD_HASH_LEN - 1] & 1u;
	joind_secret_clear(seed, sizeof(seed));
	return ok;
}

gboolean
eap_pwd_exchange_derive_pwe(EapPwdExchange *ex, const guint8 token[4], const guint8 *peer_id,
                            gsize peer_id_len, const guint8 *server_id, gsize server_id_len,
                            const guint8 *password, gsize password_len, guint *rounds,
                            GError **error)
{
	const guint8 *parts[] = {token, peer_id, server_id, password};
	const gsize lens[] = {4, peer_id_len, server_id_len, password_len};
	EapPwdSeed seed = {parts, lens};

	EC_POINT_clear_free(ex->pwe);
	/* RFC 5931 2.8.3.2, with the minimum rounds SAE uses against timing. */
	ex->pwe = joind_ec_group_hunt_and_peck(ex->group, eap_pwd_candidate, &seed,
	                                       EAP_PWD_MIN_ROUNDS, rounds, error);
	if (ex->pwe == NULL)
		g_prefix_error(error, "EAP-pwd: ");
	return ex->pwe != NULL;
}

gboolean
eap_pwd_exchange_get_pwe(EapPwdExchange *ex, guint8 out[EAP_PWD_ELEMENT_LEN], GError **error)
{
	g_return_val_if_fail(ex->pwe != NULL, FALSE);
	return joind_ec_group_point_to_octets(ex->group, ex->pwe, out, error);
}

gboolean
eap_pwd_exchange_commit(EapPwdExchange *ex, guint8 out[EAP_PWD_COMMIT_LEN], GError **error)
{
	g_return_val_if_fail(ex->pwe != NULL, FALSE);
	if (ex->rand == NULL)
		ex->rand = BN_secure_new();
	if (ex->scalar == NULL)
		ex->scalar = BN_new();
	if (ex->element == NULL)
		ex->element = EC_POINT_new(joind_ec_group_get_curve(ex->group));
	if (ex->rand == NULL || ex->scalar == NULL || ex->element == NULL)
		return joind_set_error_from_openssl(
		        error, G_IO_ERROR, G_IO_ERROR_FAILED,
		        "OpenSSL failed to allocate the EAP-pwd commit");
	/* Element then Scalar, as on the wire */
	return joind_ec_group_commit(ex->group, ex->pwe, ex->rand, NULL, ex->scalar, ex->element,
	                             error) &&
	       joind_ec_group_point_to_octets(ex->group, ex->element, out, error) &&
	       joind_ec_group_scalar_to_octets(ex->group, ex->scalar, out + EAP_PWD_ELEMENT_LEN,
	                                       error);
}

static gboolean
eap_pwd_decode_commit(EapPwdExchange *ex, const guint8 *data, GError **error)
{
	BN_free(ex->peer_scalar);
	EC_POINT_free(ex->peer_element);
	ex->peer_element = NULL;
	/* RFC 5931 2.8.5.1: 1 < scalar < r, a valid element */
	ex->peer_scalar = joind_ec_group_scalar_from_octets(ex->group, data + EAP_PWD_ELEMENT_LEN,
	                                                    EAP_PWD_ORDER_LEN, error);
	if (ex->peer_scalar != NULL)
		ex->peer_element = joind_ec_group_point_from_octets(ex->group, data,
		                                                    EAP_PWD_ELEMENT_LEN, error);
	return ex->peer_element != NULL;
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
	if (!eap_pwd_decode_commit(ex, data, error)) {
		g_prefix_error(error, "EAP-pwd commit: ");
		return FALSE;
	}
	/* Our own commit sent back (a reflection attack). */
	if (BN_cmp(ex->peer_scalar, ex->scalar) == 0 &&
	    EC_POINT_cmp(joind_ec_group_get_curve(ex->group), ex->peer_element, ex->element,
	                 joind_ec_group_get_bn_ctx(ex->group)) == 0) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		                    "EAP-pwd commit is a reflection of our own");
		return FALSE;
	}
	ex->have_k = joind_ec_group_shared_secret(ex->group, ex->pwe, ex->rand, ex->peer_scalar,
	                                          ex->peer_element, ex->k, error);
	if (!ex->have_k)
		g_prefix_error(error, "EAP-pwd: ");
	return ex->have_k;
}

/* Element then Scalar of one side, as on the wire. */
static gboolean
eap_pwd_encode_commit(EapPwdExchange *ex, gboolean own, guint8 out[EAP_PWD_COMMIT_LEN])
{
	const EC_POINT *element = own ? ex->element : ex->peer_element;
	const BIGNUM *scalar = own ? ex->scalar : ex->peer_scalar;

	return element != NULL && scalar != NULL &&
	       joind_ec_group_point_to_octets(ex->group, element, out, NULL) &&
	       joind_ec_group_scalar_to_octets(ex->group, scalar, out + EAP_PWD_ELEMENT_LEN, NULL);
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
