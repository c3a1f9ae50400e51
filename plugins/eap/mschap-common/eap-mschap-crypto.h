/* eap-mschap-crypto.h - the MS-CHAP constructions (RFC 2759, RFC 3079) that
 * EAP-MSCHAPv2, PEAP's inner MSCHAPv2 and TTLS's MSCHAP/MSCHAPv2 share.
 *
 * MD4 and single DES live in OpenSSL 3's legacy provider, which is not
 * loaded by default: every function here fetches them from a private library
 * context that loads "legacy" and "default". When the legacy provider is
 * missing (not installed, or a FIPS-only build) the functions fail with a
 * G_IO_ERROR_NOT_SUPPORTED error that says so.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define EAP_MSCHAP_NT_HASH_LEN        16
#define EAP_MSCHAP_CHALLENGE_LEN      16 /* authenticator and peer challenges */
#define EAP_MSCHAP_CHALLENGE_HASH_LEN 8
#define EAP_MSCHAP_NT_RESPONSE_LEN    24
#define EAP_MSCHAP_AUTH_RESPONSE_LEN  42 /* "S=" and 40 upper-case hex digits */
#define EAP_MSCHAP_MASTER_KEY_LEN     16
#define EAP_MSCHAP_SESSION_KEY_LEN    16
/* RFC 2759 section 8.1: passwords are at most 256 Unicode characters. */
#define EAP_MSCHAP_PASSWORD_MAX_CHARS 256

/* TRUE when MD4 and DES can be fetched; else the error names what is missing. */
gboolean eap_mschap_crypto_available(GError **error);

/* NtPasswordHash: MD4 of the UTF-16LE password. Fails on invalid UTF-8 or a
 * password longer than 256 characters. */
gboolean eap_mschap_nt_hash(const gchar *password, guint8 hash[EAP_MSCHAP_NT_HASH_LEN],
                            GError **error);
/* HashNtPasswordHash: MD4 of the NT hash. */
gboolean eap_mschap_nt_hash_hash(const guint8 hash[EAP_MSCHAP_NT_HASH_LEN],
                                 guint8 hash_hash[EAP_MSCHAP_NT_HASH_LEN], GError **error);
/* Parses 32 hex digits (an EAP-Password-Hash setting) into an NT hash. */
gboolean eap_mschap_nt_hash_from_hex(const gchar *hex, guint8 hash[EAP_MSCHAP_NT_HASH_LEN],
                                     GError **error);

/* The user name that enters the challenge hash: RFC 2759 hashes the name
 * without a leading "DOMAIN\" part. Points into user_name. */
const gchar *eap_mschap_strip_domain(const gchar *user_name);

/* ChallengeHash: SHA-1(PeerChallenge | AuthenticatorChallenge | UserName),
 * first 8 octets. user_name is used as given (strip the domain first). */
gboolean eap_mschap_challenge_hash(const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                   const guint8 auth_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                   const gchar *user_name,
                                   guint8 challenge[EAP_MSCHAP_CHALLENGE_HASH_LEN], GError **error);
/* ChallengeResponse: the 8-octet challenge DES-encrypted with the three
 * 7-octet thirds of the zero-padded NT hash. Also MS-CHAPv1's NT-Response. */
gboolean eap_mschap_challenge_response(const guint8 challenge[EAP_MSCHAP_CHALLENGE_HASH_LEN],
                                       const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                       guint8 response[EAP_MSCHAP_NT_RESPONSE_LEN], GError **error);
/* GenerateNTResponse (MS-CHAPv2). */
gboolean eap_mschap_v2_nt_response(const guint8 auth_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                   const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                   const gchar *user_name,
                                   const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                   guint8 response[EAP_MSCHAP_NT_RESPONSE_LEN], GError **error);
/* GenerateAuthenticatorResponse: writes "S=" and 40 upper-case hex digits
 * (not NUL-terminated) to out. */
gboolean eap_mschap_v2_authenticator_response(const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                              const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                                              const guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                              const guint8 auth_challenge[EAP_MSCHAP_CHALLENGE_LEN],
                                              const gchar *user_name,
                                              gchar out[EAP_MSCHAP_AUTH_RESPONSE_LEN],
                                              GError **error);
/* Compares a received authenticator response (the 42 characters "S=...",
 * hex digits in either case) with the expected one in constant time. */
gboolean
eap_mschap_v2_authenticator_response_equal(const gchar *received, gsize received_len,
                                           const gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN]);

/* RFC 3079 3.4: GetMasterKey. */
gboolean eap_mschap_v2_master_key(const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                  const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                                  guint8 master_key[EAP_MSCHAP_MASTER_KEY_LEN], GError **error);
/* RFC 3079 3.4: GetAsymmetricStartKey for 128-bit keys. */
gboolean eap_mschap_v2_asymmetric_start_key(const guint8 master_key[EAP_MSCHAP_MASTER_KEY_LEN],
                                            gboolean is_send, gboolean is_server,
                                            guint8 key[EAP_MSCHAP_SESSION_KEY_LEN], GError **error);
/* The peer's key material as EAP-MSCHAPv2 exports it (and PEAP/TTLS use it
 * as the inner key): the peer's send key, then its receive key (which are
 * the server's MS-MPPE-Recv-Key and MS-MPPE-Send-Key). */
gboolean eap_mschap_v2_peer_keys(const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                 const guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN],
                                 guint8 keys[2 * EAP_MSCHAP_SESSION_KEY_LEN], GError **error);

G_END_DECLS
