/* eap-ttls-phase2.h - EAP-TTLS's non-EAP inner authentications (RFC 5281
 * section 11.2): PAP, CHAP, MS-CHAP and MS-CHAPv2 as AVPs, with the
 * challenges drawn from the TLS keying material. */
#pragma once

#include <glib.h>

#include "eap-mschap-crypto.h"

G_BEGIN_DECLS

typedef enum {
	EAP_TTLS_PHASE2_EAP, /* an inner EAP method */
	EAP_TTLS_PHASE2_PAP,
	EAP_TTLS_PHASE2_CHAP,
	EAP_TTLS_PHASE2_MSCHAP,
	EAP_TTLS_PHASE2_MSCHAPV2,
	/* the last value, which name tables are checked against */
	EAP_TTLS_PHASE2_LAST = EAP_TTLS_PHASE2_MSCHAPV2,
} EapTtlsPhase2;

/* "Tunneled-PAP", "Tunneled-CHAP", "Tunneled-MSCHAP", "Tunneled-MSCHAPv2"
 * (iwd's names, any case); anything else names an inner EAP method. */
EapTtlsPhase2 eap_ttls_phase2_from_setting(const gchar *method);
const gchar *eap_ttls_phase2_name(EapTtlsPhase2 phase2);

/* Octets of "ttls challenge" keying material each needs: the challenge,
 * then the identifier octet. */
#define EAP_TTLS_CHAP_CHALLENGE_LEN     16
#define EAP_TTLS_MSCHAP_CHALLENGE_LEN   8
#define EAP_TTLS_MSCHAPV2_CHALLENGE_LEN 16
gsize eap_ttls_phase2_challenge_len(EapTtlsPhase2 phase2);

/* User-Name and User-Password (NUL-padded to 16 octets). */
void eap_ttls_pap_build(GByteArray *out, const gchar *user, const gchar *password);
/* User-Name, CHAP-Challenge, CHAP-Password = ident | MD5(ident | password | challenge). */
gboolean eap_ttls_chap_build(GByteArray *out, const gchar *user, const gchar *password,
                             const guint8 material[EAP_TTLS_CHAP_CHALLENGE_LEN + 1],
                             GError **error);
/* User-Name, MS-CHAP-Challenge, MS-CHAP-Response (ident, flags 1, no LM
 * response, the NT-Response). */
gboolean eap_ttls_mschap_build(GByteArray *out, const gchar *user,
                               const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                               const guint8 material[EAP_TTLS_MSCHAP_CHALLENGE_LEN + 1],
                               GError **error);
/* User-Name, MS-CHAP-Challenge, MS-CHAP2-Response; expected receives the
 * authenticator response the server must send back. */
gboolean eap_ttls_mschapv2_build(GByteArray *out, const gchar *user,
                                 const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                                 const guint8 material[EAP_TTLS_MSCHAPV2_CHALLENGE_LEN + 1],
                                 gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN], GError **error);
/* The MS-CHAP2-Success AVP's data: ident, then "S=..." (and maybe " M=..."). */
gboolean eap_ttls_mschapv2_verify(const guint8 *data, gsize len, guint8 ident,
                                  const gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN],
                                  GError **error);

G_END_DECLS
