/* eap-ttls-phase2.c - PAP, CHAP, MS-CHAP and MS-CHAPv2 inside EAP-TTLS. */
#include "eap-ttls-phase2.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "eap-mschap-message.h"
#include "eap-ttls-avp.h"
#include "joind-error.h"
#include "joind-secret.h"

#define EAP_TTLS_MSCHAP_RESPONSE_LEN 50

EapTtlsPhase2
eap_ttls_phase2_from_setting(const gchar *method)
{
	static const struct {
		const gchar *name;
		EapTtlsPhase2 phase2;
	} names[] = {
	        {"Tunneled-PAP", EAP_TTLS_PHASE2_PAP},
	        {"Tunneled-CHAP", EAP_TTLS_PHASE2_CHAP},
	        {"Tunneled-MSCHAP", EAP_TTLS_PHASE2_MSCHAP},
	        {"Tunneled-MSCHAPv2", EAP_TTLS_PHASE2_MSCHAPV2},
	};

	for (guint i = 0; method != NULL && i < G_N_ELEMENTS(names); i++) {
		if (g_ascii_strcasecmp(method, names[i].name) == 0)
			return names[i].phase2;
	}
	return EAP_TTLS_PHASE2_EAP;
}

const gchar *
eap_ttls_phase2_name(EapTtlsPhase2 phase2)
{
	static const gchar *const names[] = {
	        [EAP_TTLS_PHASE2_EAP] = "EAP",
	        [EAP_TTLS_PHASE2_PAP] = "PAP",
	        [EAP_TTLS_PHASE2_CHAP] = "CHAP",
	        [EAP_TTLS_PHASE2_MSCHAP] = "MS-CHAP",
	        [EAP_TTLS_PHASE2_MSCHAPV2] = "MS-CHAPv2",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == EAP_TTLS_PHASE2_LAST + 1);

	return names[phase2];
}

gsize
eap_ttls_phase2_challenge_len(EapTtlsPhase2 phase2)
{
	switch (phase2) {
	case EAP_TTLS_PHASE2_CHAP:
		return EAP_TTLS_CHAP_CHALLENGE_LEN + 1;
	case EAP_TTLS_PHASE2_MSCHAP:
		return EAP_TTLS_MSCHAP_CHALLENGE_LEN + 1;
	case EAP_TTLS_PHASE2_MSCHAPV2:
		return EAP_TTLS_MSCHAPV2_CHALLENGE_LEN + 1;
	default:
		return 0;
	}
}

static void
eap_ttls_user_name(GByteArray *out, const gchar *user)
{
	eap_ttls_avp_append(out, EAP_TTLS_AVP_USER_NAME, 0, (const guint8 *)user, strlen(user));
}

void
eap_ttls_pap_build(GByteArray *out, const gchar *user, const gchar *password)
{
	gsize len = strlen(password);
	/* RFC 5281 11.2.5: NULs up to a multiple of 16 octets (at least 16). */
	gsize padded = MAX((len + 15) / 16 * 16, 16);
	GByteArray *buf = g_byte_array_sized_new((guint)padded);

	g_byte_array_append(buf, (const guint8 *)password, (guint)len);
	g_byte_array_set_size(buf, (guint)padded);
	memset(buf->data + len, 0, padded - len);
	eap_ttls_user_name(out, user);
	eap_ttls_avp_append(out, EAP_TTLS_AVP_USER_PASSWORD, 0, buf->data, buf->len);
	joind_secret_clear(buf->data, buf->len);
	g_byte_array_unref(buf);
}

gboolean
eap_ttls_chap_build(GByteArray *out, const gchar *user, const gchar *password,
                    const guint8 material[EAP_TTLS_CHAP_CHALLENGE_LEN + 1], GError **error)
{
	guint8 chap[1 + 16];
	guint ident_len = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	gboolean ok;

	/* RFC 1994: MD5(identifier | secret | challenge) */
	chap[0] = material[EAP_TTLS_CHAP_CHALLENGE_LEN];
	ok = ctx != NULL && EVP_DigestInit_ex2(ctx, EVP_md5(), NULL) == 1 &&
	     EVP_DigestUpdate(ctx, chap, 1) == 1 &&
	     EVP_DigestUpdate(ctx, password, strlen(password)) == 1 &&
	     EVP_DigestUpdate(ctx, material, EAP_TTLS_CHAP_CHALLENGE_LEN) == 1 &&
	     EVP_DigestFinal_ex(ctx, chap + 1, &ident_len) == 1;
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                                    "OpenSSL MD5 failed");
	eap_ttls_user_name(out, user);
	eap_ttls_avp_append(out, EAP_TTLS_AVP_CHAP_CHALLENGE, 0, material,
	                    EAP_TTLS_CHAP_CHALLENGE_LEN);
	eap_ttls_avp_append(out, EAP_TTLS_AVP_CHAP_PASSWORD, 0, chap, sizeof(chap));
	return TRUE;
}

gboolean
eap_ttls_mschap_build(GByteArray *out, const gchar *user,
                      const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                      const guint8 material[EAP_TTLS_MSCHAP_CHALLENGE_LEN + 1], GError **error)
{
	guint8 response[EAP_TTLS_MSCHAP_RESPONSE_LEN] = {0};

	/* Ident, Flags (1: use the NT-Response), LM-Response (unused), NT-Response */
	response[0] = material[EAP_TTLS_MSCHAP_CHALLENGE_LEN];
	response[1] = 1;
	if (!eap_mschap_challenge_response(material, nt_hash, response + 26, error))
		return FALSE;
	eap_ttls_user_name(out, user);
	eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP_CHALLENGE, EAP_TTLS_VENDOR_MICROSOFT, material,
	                    EAP_TTLS_MSCHAP_CHALLENGE_LEN);
	eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP_RESPONSE, EAP_TTLS_VENDOR_MICROSOFT, response,
	                    sizeof(response));
	return TRUE;
}

gboolean
eap_ttls_mschapv2_build(GByteArray *out, const gchar *user,
                        const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN],
                        const guint8 material[EAP_TTLS_MSCHAPV2_CHALLENGE_LEN + 1],
                        gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN], GError **error)
{
	guint8 response[EAP_TTLS_MSCHAP_RESPONSE_LEN] = {0};
	const gchar *hashed = eap_mschap_strip_domain(user);
	guint8 *peer_challenge = response + 2, *nt_response = response + 26;

	/* Ident, Flags (0), Peer-Challenge, 8 reserved octets, NT-Response */
	response[0] = material[EAP_TTLS_MSCHAPV2_CHALLENGE_LEN];
	if (RAND_bytes(peer_challenge, EAP_MSCHAP_CHALLENGE_LEN) != 1)
		return joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                                    "OpenSSL RAND failed");
	if (!eap_mschap_v2_nt_response(material, peer_challenge, hashed, nt_hash, nt_response,
	                               error) ||
	    !eap_mschap_v2_authenticator_response(nt_hash, nt_response, peer_challenge, material,
	                                          hashed, expected, error))
		return FALSE;
	eap_ttls_user_name(out, user);
	eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP_CHALLENGE, EAP_TTLS_VENDOR_MICROSOFT, material,
	                    EAP_TTLS_MSCHAPV2_CHALLENGE_LEN);
	eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP2_RESPONSE, EAP_TTLS_VENDOR_MICROSOFT, response,
	                    sizeof(response));
	return TRUE;
}

gboolean
eap_ttls_mschapv2_verify(const guint8 *data, gsize len, guint8 ident,
                         const gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN], GError **error)
{
	g_autofree gchar *text = NULL;
	const gchar *received = NULL;

	if (len < 1 || data[0] != ident) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "MS-CHAP2-Success for another exchange (identifier %d, not %u)",
		            len < 1 ? -1 : data[0], ident);
		return FALSE;
	}
	if (!eap_mschap_success_parse(data + 1, len - 1, &received, &text, error))
		return FALSE;
	if (!eap_mschap_v2_authenticator_response_equal(received, EAP_MSCHAP_AUTH_RESPONSE_LEN,
	                                                expected)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
		            "the server's MS-CHAPv2 authenticator response is wrong: it does not "
		            "know the password");
		return FALSE;
	}
	return TRUE;
}
