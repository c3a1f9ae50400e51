/* eap-gtc.c - EAP-GTC peer (RFC 3748 section 5.6): the server shows a
 * prompt, the peer answers with the password or token. */
#include "eap-gtc.h"

#include <string.h>

#include <gio/gio.h>

#include "joind-error.h"
#include "joind-secret.h"

#define EAP_GTC_FAST_CHALLENGE "CHALLENGE="
#define EAP_GTC_FAST_RESPONSE  "RESPONSE="

gboolean
eap_gtc_request_parse(const guint8 *data, gsize len, EapGtcRequest *request, GError **error)
{
	memset(request, 0, sizeof(*request));
	if (len > 0 && data[len - 1] == '\0')
		len--;
	if (len > 0 && memchr(data, '\0', len) != NULL) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP-GTC prompt with a NUL octet inside its text");
		return FALSE;
	}
	request->fast_challenge =
	        len >= strlen(EAP_GTC_FAST_CHALLENGE) &&
	        memcmp(data, EAP_GTC_FAST_CHALLENGE, strlen(EAP_GTC_FAST_CHALLENGE)) == 0;
	request->prompt = joind_eap_sanitize_text(len > 0 ? data : (const guint8 *)"", len);
	return TRUE;
}

void
eap_gtc_request_clear(EapGtcRequest *request)
{
	g_clear_pointer(&request->prompt, g_free);
}

void
eap_gtc_response_build(GByteArray *out, const EapGtcRequest *request, const gchar *user,
                       const gchar *password)
{
	static const guint8 nul = 0;

	if (request->fast_challenge) {
		g_byte_array_append(out, (const guint8 *)EAP_GTC_FAST_RESPONSE,
		                    strlen(EAP_GTC_FAST_RESPONSE));
		g_byte_array_append(out, (const guint8 *)user, (guint)strlen(user));
		g_byte_array_append(out, &nul, 1);
	}
	g_byte_array_append(out, (const guint8 *)password, (guint)strlen(password));
}

typedef struct {
	JoindEapSession *session;
} EapGtcState;

static gpointer
eap_gtc_state_new(JoindEapSession *session, GError **error)
{
	EapGtcState *st = g_new0(EapGtcState, 1);

	st->session = session;
	return st;
}

static JoindEapMethodResult
eap_gtc_answer(JoindEapSession *session, const EapGtcRequest *req, GByteArray *response,
               GError **error)
{
	const gchar *sent = joind_eap_session_get_identity(session);
	g_autofree gchar *user =
	        sent != NULL ? g_strdup(sent) : joind_eap_session_get_setting(session, "Identity");
	const gchar *password = NULL;
	g_autofree gchar *reason = NULL;

	if (req->fast_challenge && user == NULL) {
		g_autofree gchar *where = joind_eap_session_describe_setting(session, "Identity");
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s: EAP-GTC needs a user name for the server's challenge", where);
		return JOIND_EAP_METHOD_FAIL;
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
	eap_gtc_response_build(response, req, user, password);
	g_info("EAP-GTC: answering the prompt \"%s\"", req->prompt);
	/* GTC carries nothing but the password, so a rejection now is about it. */
	reason = g_strdup_printf("The server did not accept the password or token given for the "
	                         "EAP-GTC prompt \"%s\".",
	                         req->prompt);
	joind_eap_session_set_peer_reason(session, reason);
	joind_eap_session_set_decision(session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_gtc_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
               GByteArray *response, GError **error)
{
	EapGtcRequest req;
	g_autoptr(GError) local = NULL;
	JoindEapMethodResult result;

	if (!eap_gtc_request_parse(data, len, &req, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server sent a malformed EAP-GTC request: %s.", local->message);
		return JOIND_EAP_METHOD_FAIL;
	}
	result = eap_gtc_answer(session, &req, response, error);
	eap_gtc_request_clear(&req);
	return result;
}

const JoindEapMethodOps eap_gtc_ops = {
        .type = JOIND_EAP_TYPE_GTC,
        .name = "GTC",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER |
                 JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = eap_gtc_state_new,
        .state_free = g_free,
        .handle_request = eap_gtc_handle,
};
