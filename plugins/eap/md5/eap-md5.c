/* eap-md5.c - EAP-MD5 (RFC 3748 section 5.4): a CHAP-style challenge,
 * answered with MD5(id || password || challenge). No mutual
 * authentication and no keys: fit for wired ports and as an inner method. */
#include "eap-md5.h"

#include <string.h>

#include <openssl/evp.h>

#include "joind-error.h"
#include "joind-secret.h"

#define EAP_MD5_VALUE_LEN 16

G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_MD_CTX, EVP_MD_CTX_free)

gboolean
eap_md5_compute(guint8 id, const gchar *password, const guint8 *challenge, gsize challenge_len,
                guint8 out[16], GError **error)
{
	g_autoptr(EVP_MD_CTX) ctx = EVP_MD_CTX_new();
	unsigned int len = 0;

	if (ctx == NULL || EVP_DigestInit_ex(ctx, EVP_md5(), NULL) != 1 ||
	    EVP_DigestUpdate(ctx, &id, 1) != 1 ||
	    EVP_DigestUpdate(ctx, password, strlen(password)) != 1 ||
	    EVP_DigestUpdate(ctx, challenge, challenge_len) != 1 ||
	    EVP_DigestFinal_ex(ctx, out, &len) != 1 || len != EAP_MD5_VALUE_LEN)
		return joind_set_error_from_openssl(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                                    "EAP-MD5: MD5 is not available from OpenSSL");
	return TRUE;
}

static gpointer
eap_md5_state_new(JoindEapSession *session, GError **error)
{
	/* Stateless: each challenge stands alone. */
	return g_new0(guint8, 1);
}

static JoindEapMethodResult
eap_md5_handle_request(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data,
                       gsize len, GByteArray *response, GError **error)
{
	const gchar *password = NULL;
	guint8 value[EAP_MD5_VALUE_LEN];
	guint8 value_size;

	/* Value-Size, Value (the challenge), Name (ignored). */
	if (len < 1 || data[0] == 0 || data[0] > len - 1) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "malformed EAP-MD5 challenge (%zu octets, Value-Size %u)", len,
		            (guint)(len > 0 ? data[0] : 0));
		return JOIND_EAP_METHOD_DISCARD;
	}
	switch (joind_eap_session_get_secret(session, "Password", JOIND_SECRET_USER_PASSWORD,
	                                     &password, error)) {
	case JOIND_EAP_SECRET_PENDING:
		return JOIND_EAP_METHOD_PENDING;
	case JOIND_EAP_SECRET_FAILED:
		return JOIND_EAP_METHOD_FAIL;
	case JOIND_EAP_SECRET_AVAILABLE:
		break;
	}
	if (!eap_md5_compute(id, password, data + 1, data[0], value, error))
		return JOIND_EAP_METHOD_FAIL;
	value_size = EAP_MD5_VALUE_LEN;
	g_byte_array_append(response, &value_size, 1);
	g_byte_array_append(response, value, sizeof(value));
	joind_secret_clear(value, sizeof(value));
	/* The server may challenge again, or end it either way. */
	joind_eap_session_set_decision(session, JOIND_EAP_METHOD_STATE_MAY_CONT,
	                               JOIND_EAP_DECISION_COND_SUCC);
	g_debug("answered an EAP-MD5 challenge of %u octets", data[0]);
	return JOIND_EAP_METHOD_RESPOND;
}

static const JoindEapMethodOps eap_md5_ops = {
        .type = JOIND_EAP_TYPE_MD5,
        .name = "MD5",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER |
                 JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = eap_md5_state_new,
        .state_free = g_free,
        .handle_request = eap_md5_handle_request,
};

const JoindEapMethodOps *
eap_md5_get_ops(void)
{
	return &eap_md5_ops;
}
