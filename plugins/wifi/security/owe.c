/* owe.c - OWE's Diffie-Hellman exchange and key derivation (see owe.h). */
#include "owe.h"

#include <openssl/evp.h>
#include <string.h>

#include "ie.h"
#include "joind-crypto.h"
#include "joind.h"

G_DEFINE_QUARK(wifi - owe - error - quark, wifi_owe_error)

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BIGNUM, BN_clear_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EC_POINT, EC_POINT_clear_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MD, EVP_MD_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MD_CTX, EVP_MD_CTX_free)

struct _WifiOwe {
	JoindEcGroup *group;
	BIGNUM *priv;
	guint8 pub[JOIND_EC_MAX_PRIME_LEN]; /* our x coordinate */
	gsize pub_len;
};

static const gchar *
group_digest(guint group)
{
	switch (group) {
	case 19:
		return "SHA256";
	case 20:
		return "SHA384";
	case 21:
		return "SHA512";
	default:
		return NULL;
	}
}

guint
wifi_owe_next_group(guint group)
{
	return group == 19 ? 20 : group == 20 ? 21 : 0;
}

gboolean
wifi_owe_dh_parse(const guint8 *body, gsize len, guint *group, const guint8 **key, gsize *key_len,
                  GError **error)
{
	if (body == NULL || len < 3) {
		g_set_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_MALFORMED,
		            "The OWE Diffie-Hellman element of %zu octets has no public key.", len);
		return FALSE;
	}
	*group = (guint)(body[0] | (body[1] << 8));
	*key = body + 2;
	*key_len = len - 2;
	return TRUE;
}

static gboolean
crypto_failed(GError **error, const gchar *what)
{
	g_set_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_CRYPTO, "OWE: %s failed.", what);
	return FALSE;
}

/* The x coordinate of point, prime_len octets. */
static gboolean
point_x(JoindEcGroup *group, const EC_POINT *point, guint8 *out, GError **error)
{
	BN_CTX *ctx = joind_ec_group_get_bn_ctx(group);
	g_autoptr(BIGNUM) x = BN_new();

	if (x == NULL || EC_POINT_is_at_infinity(joind_ec_group_get_curve(group), point) ||
	    !EC_POINT_get_affine_coordinates(joind_ec_group_get_curve(group), point, x, NULL,
	                                     ctx) ||
	    BN_bn2binpad(x, out, (int)joind_ec_group_get_prime_len(group)) < 0)
		return crypto_failed(error, "reading a point");
	return TRUE;
}

/* Uniform in [2, r): neither 0 nor the identity's 1. */
static BIGNUM *
owe_draw_private(JoindEcGroup *group)
{
	BIGNUM *priv = BN_secure_new();

	do {
		if (priv == NULL || !BN_priv_rand_range(priv, joind_ec_group_get_order(group))) {
			BN_clear_free(priv);
			return NULL;
		}
	} while (BN_cmp(priv, BN_value_one()) <= 0);
	return priv;
}

/* priv NULL: a fresh one. */
static WifiOwe *
owe_new(guint group, const guint8 *priv, gsize priv_len, GError **error)
{
	g_autoptr(WifiOwe) self = g_new0(WifiOwe, 1);
	g_autoptr(EC_POINT) pub = NULL;

	self->group = joind_ec_group_new(group, NULL);
	if (self->group == NULL) {
		g_set_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_GROUP,
		            "OWE group %u is not one joind does (19, 20, 21).", group);
		return NULL;
	}
	self->priv =
	        priv != NULL ? BN_bin2bn(priv, (int)priv_len, NULL) : owe_draw_private(self->group);
	pub = EC_POINT_new(joind_ec_group_get_curve(self->group));
	if (self->priv == NULL || pub == NULL ||
	    !EC_POINT_mul(joind_ec_group_get_curve(self->group), pub, self->priv, NULL, NULL,
	                  joind_ec_group_get_bn_ctx(self->group))) {
		crypto_failed(error, "making the key pair");
		return NULL;
	}
	self->pub_len = joind_ec_group_get_prime_len(self->group);
	if (!point_x(self->group, pub, self->pub, error))
		return NULL;
	return g_steal_pointer(&self);
}

WifiOwe *
wifi_owe_new(guint group, GError **error)
{
	return owe_new(group, NULL, 0, error);
}

WifiOwe *
wifi_owe_new_with_private(guint group, const guint8 *priv, gsize len, GError **error)
{
	return owe_new(group, priv, len, error);
}

void
wifi_owe_free(WifiOwe *self)
{
	if (self == NULL)
		return;
	BN_clear_free(self->priv);
	g_clear_pointer(&self->group, joind_ec_group_free);
	g_free(self);
}

guint
wifi_owe_get_group(const WifiOwe *self)
{
	return joind_ec_group_get_number(self->group);
}

gsize
wifi_owe_write_element(const WifiOwe *self, guint8 *out)
{
	guint group = wifi_owe_get_group(self);

	out[0] = WIFI_IE_EXTENSION;
	out[1] = (guint8)(1 + 2 + self->pub_len);
	out[2] = WIFI_OWE_DH_EXT_ID;
	out[3] = (guint8)(group & 0xff);
	out[4] = (guint8)(group >> 8);
	memcpy(out + 5, self->pub, self->pub_len);
	return 5 + self->pub_len;
}

/* Hash over two parts (the PMKID's C | A). */
static gboolean
digest2(const gchar *name, const guint8 *a, const guint8 *b, gsize len, guint8 *out)
{
	g_autoptr(EVP_MD) md = EVP_MD_fetch(NULL, name, NULL);
	g_autoptr(EVP_MD_CTX) ctx = EVP_MD_CTX_new();

	return md != NULL && ctx != NULL && EVP_DigestInit_ex(ctx, md, NULL) &&
	       EVP_DigestUpdate(ctx, a, len) && EVP_DigestUpdate(ctx, b, len) &&
	       EVP_DigestFinal_ex(ctx, out, NULL);
}

/* The key derivation alone, from the two public keys (x coordinates, as
 * the elements carry them) and the shared secret z. */
static gboolean
owe_kdf(guint group, const guint8 *own_pub, const guint8 *peer_pub, gsize pub_len, const guint8 *z,
        gsize z_len, guint8 *pmk, gsize *pmk_len, guint8 pmkid[WIFI_OWE_PMKID_LEN], GError **error)
{
	static const gchar info[] = "OWE Key Generation";
	const gchar *digest = group_digest(group);
	gsize n = group == 19 ? 32 : group == 20 ? 48 : 64;
	guint8 group_le[2] = {(guint8)(group & 0xff), (guint8)(group >> 8)};
	guint8 prk[WIFI_OWE_PMK_MAX], hash[WIFI_OWE_PMK_MAX], salt[2 * JOIND_EC_MAX_PRIME_LEN + 2];
	const guint8 one = 1;
	const guint8 *extract_parts[] = {z};
	const gsize extract_lens[] = {z_len};
	const guint8 *expand_parts[] = {(const guint8 *)info, &one};
	const gsize expand_lens[] = {sizeof(info) - 1, 1};
	gboolean ok;

	if (digest == NULL || pub_len > JOIND_EC_MAX_PRIME_LEN) {
		g_set_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_GROUP,
		            "OWE group %u is not one joind does (19, 20, 21).", group);
		return FALSE;
	}
	memcpy(salt, own_pub, pub_len);
	memcpy(salt + pub_len, peer_pub, pub_len);
	memcpy(salt + 2 * pub_len, group_le, 2);
	/* The PMK is one hash long: HKDF-Expand's first block is all of it. */
	ok = joind_hmac(digest, salt, 2 * pub_len + 2, extract_parts, extract_lens, 1, prk, n,
	                error) &&
	     joind_hmac(digest, prk, n, expand_parts, expand_lens, 2, pmk, n, error);
	joind_secret_clear(prk, sizeof(prk));
	if (!ok)
		return FALSE;
	if (!digest2(digest, own_pub, peer_pub, pub_len, hash))
		return crypto_failed(error, "hashing the PMKID");
	memcpy(pmkid, hash, WIFI_OWE_PMKID_LEN);
	*pmk_len = n;
	return TRUE;
}

/* The access point's element from its response's elements: in our group,
 * of our key's length. */
static const guint8 *
owe_find_peer_key(WifiOwe *self, const guint8 *ies, gsize ies_len, GError **error)
{
	gsize body_len = 0, key_len = 0;
	const guint8 *body = wifi_ie_find(ies, ies_len, WIFI_IE_EXT(WIFI_OWE_DH_EXT_ID), &body_len);
	const guint8 *key = NULL;
	guint group = 0;

	if (body == NULL) {
		g_set_error_literal(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_MISSING,
		                    "The access point's association response has no OWE "
		                    "Diffie-Hellman element.");
		return NULL;
	}
	if (!wifi_owe_dh_parse(body, body_len, &group, &key, &key_len, error))
		return NULL;
	if (group != wifi_owe_get_group(self)) {
		g_set_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_GROUP,
		            "The access point answered OWE in group %u, not in our group %u.",
		            group, wifi_owe_get_group(self));
		return NULL;
	}
	if (key_len != self->pub_len) {
		g_set_error(
		        error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_KEY,
		        "The access point's OWE public key has %zu octets, not the %zu of group "
		        "%u.",
		        key_len, self->pub_len, group);
		return NULL;
	}
	return key;
}

gboolean
wifi_owe_derive(WifiOwe *self, const guint8 *ies, gsize ies_len, guint8 *pmk, gsize *pmk_len,
                guint8 pmkid[WIFI_OWE_PMKID_LEN], GError **error)
{
	const EC_GROUP *curve = joind_ec_group_get_curve(self->group);
	const guint8 *peer = owe_find_peer_key(self, ies, ies_len, error);
	g_autoptr(BIGNUM) x = NULL;
	g_autoptr(EC_POINT) point = NULL;
	g_autoptr(EC_POINT) shared = NULL;
	guint8 z[JOIND_EC_MAX_PRIME_LEN];
	gboolean ok;

	if (peer == NULL)
		return FALSE;
	/* OpenSSL would reduce an x not below the prime. Either y gives the
	 * same x of the shared point. */
	x = BN_bin2bn(peer, (int)self->pub_len, NULL);
	if (x != NULL && BN_cmp(x, joind_ec_group_get_prime(self->group)) < 0)
		point = joind_ec_group_point_from_x(self->group, peer, 0, NULL);
	if (point == NULL) {
		g_set_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_KEY,
		            "The access point's OWE public key is not a point of group %u.",
		            wifi_owe_get_group(self));
		return FALSE;
	}
	shared = EC_POINT_new(curve);
	if (shared == NULL || !EC_POINT_mul(curve, shared, NULL, point, self->priv,
	                                    joind_ec_group_get_bn_ctx(self->group)))
		return crypto_failed(error, "the Diffie-Hellman exchange");
	if (!point_x(self->group, shared, z, error))
		return FALSE;
	ok = owe_kdf(wifi_owe_get_group(self), self->pub, peer, self->pub_len, z, self->pub_len,
	             pmk, pmk_len, pmkid, error);
	joind_secret_clear(z, sizeof(z));
	return ok;
}
