/* eap-pwd-crypto.h - the EAP-pwd constructions of RFC 5931 over OpenSSL's
 * EC, BN and HMAC primitives: the random function H, the KDF, the password
 * element (hunting and pecking), the commit exchange, the confirms and the
 * MSK/EMSK. Group 19 (NIST P-256) only, with RFC 5931's random function
 * and PRF 1 (HMAC-SHA256).
 *
 * The same exchange object serves either side, so that unit tests can play
 * the server with exactly these primitives. */
#pragma once

#include <glib.h>
#include <openssl/ec.h>

G_BEGIN_DECLS

#define EAP_PWD_GROUP_P256      19
#define EAP_PWD_RANDOM_FUNCTION 1 /* HMAC-SHA256 based, RFC 5931 2.10 */
#define EAP_PWD_PRF_HMAC_SHA256 1
#define EAP_PWD_PRIME_LEN       32
#define EAP_PWD_ORDER_LEN       32
#define EAP_PWD_ELEMENT_LEN     (2 * EAP_PWD_PRIME_LEN)
#define EAP_PWD_COMMIT_LEN      (EAP_PWD_ELEMENT_LEN + EAP_PWD_ORDER_LEN)
#define EAP_PWD_HASH_LEN        32
#define EAP_PWD_CIPHERSUITE_LEN 4
/* Hunting and pecking always runs at least this many rounds, whether or
 * not it found the element earlier, so the time it takes says little about
 * the password (the mitigation hostapd and SAE use). */
#define EAP_PWD_MIN_ROUNDS 40

/* H(x) = HMAC-SHA256 with a key of zeros (RFC 5931 2.4), over n parts. */
gboolean eap_pwd_h(const guint8 *const *parts, const gsize *lens, guint n,
                   guint8 out[EAP_PWD_HASH_LEN], GError **error);
/* KDF(key, label, length) of RFC 5931 2.5: out_bits bits (a multiple of 8)
 * into out. */
gboolean eap_pwd_kdf(const guint8 *key, gsize key_len, const guint8 *label, gsize label_len,
                     guint8 *out, gsize out_bits, GError **error);

typedef struct _EapPwdExchange EapPwdExchange;

/* Fails (G_IO_ERROR_NOT_SUPPORTED) for any group but 19. */
EapPwdExchange *eap_pwd_exchange_new(guint16 group, GError **error);
void eap_pwd_exchange_free(EapPwdExchange *ex);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapPwdExchange, eap_pwd_exchange_free)

/* The password element from token, identities and the (prepared) password;
 * rounds, if not NULL, says in which round it was found (1-based). */
gboolean eap_pwd_exchange_derive_pwe(EapPwdExchange *ex, const guint8 token[4],
                                     const guint8 *peer_id, gsize peer_id_len,
                                     const guint8 *server_id, gsize server_id_len,
                                     const guint8 *password, gsize password_len, guint *rounds,
                                     GError **error);
/* The affine coordinates of the password element (x then y). */
gboolean eap_pwd_exchange_get_pwe(EapPwdExchange *ex, guint8 out[EAP_PWD_ELEMENT_LEN],
                                  GError **error);

/* Draws rand and mask and computes this side's Scalar and Element;
 * out: Element (x, y) then Scalar, as on the wire. */
gboolean eap_pwd_exchange_commit(EapPwdExchange *ex, guint8 out[EAP_PWD_COMMIT_LEN],
                                 GError **error);
/* The other side's Element and Scalar: fails (G_IO_ERROR_INVALID_DATA) for
 * an element off the curve, coordinates not below p, the point at
 * infinity, a scalar outside 1 < s < r, a reflection of our own commit, or
 * a shared point K at infinity; then computes k. */
gboolean eap_pwd_exchange_process_commit(EapPwdExchange *ex, const guint8 *data, gsize len,
                                         GError **error);
/* Confirm = H(k | Element_A | Scalar_A | Element_B | Scalar_B | Ciphersuite)
 * over wire octets: commit_a and commit_b are Element then Scalar. */
gboolean eap_pwd_confirm_compute(const guint8 k[EAP_PWD_PRIME_LEN],
                                 const guint8 commit_a[EAP_PWD_COMMIT_LEN],
                                 const guint8 commit_b[EAP_PWD_COMMIT_LEN],
                                 const guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN],
                                 guint8 out[EAP_PWD_HASH_LEN], GError **error);
/* The confirm of the exchange, with A this side when own_first, else the
 * other side. */
gboolean eap_pwd_exchange_confirm(EapPwdExchange *ex,
                                  const guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN],
                                  gboolean own_first, guint8 out[EAP_PWD_HASH_LEN], GError **error);
/* MSK | EMSK = KDF(MK, Type | Method-ID, 1024) with
 * Method-ID = H(Ciphersuite | Scalar_P | Scalar_S) and
 * MK = H(k | Confirm_P | Confirm_S); is_peer says which side this is. */
gboolean eap_pwd_exchange_keys(EapPwdExchange *ex,
                               const guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN], gboolean is_peer,
                               const guint8 confirm_p[EAP_PWD_HASH_LEN],
                               const guint8 confirm_s[EAP_PWD_HASH_LEN], guint8 msk[64],
                               guint8 emsk[64], GError **error);

/* Ciphersuite octets: group (16 bits), random function, PRF. */
void eap_pwd_ciphersuite(guint16 group, guint8 random_function, guint8 prf,
                         guint8 out[EAP_PWD_CIPHERSUITE_LEN]);

G_END_DECLS
