/* eap-mschapv2.c - EAP-MSCHAPv2 peer (draft-kamath-pppext-eap-mschapv2-02
 * over RFC 2759): answer the Challenge, verify the server's authenticator
 * response, export the MPPE keys, explain Failures. */
#include "eap-mschapv2.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/rand.h>

#include "eap-mschap-crypto.h"
#include "eap-mschapv2-packet.h"
#include "joind-error.h"
#include "joind-secret.h"
#include "joind-log.h"

/* Long enough for any realistic "DOMAIN\user" or NAI. */
#define EAP_MSCHAPV2_USER_MAX 256

typedef enum {
	EAP_MSCHAPV2_PHASE_CHALLENGE, /* waiting for the server's Challenge */
	EAP_MSCHAPV2_PHASE_RESULT,    /* answered; waiting for Success or Failure */
	EAP_MSCHAPV2_PHASE_DONE,
	/* the last value, which name tables are checked against */
	EAP_MSCHAPV2_PHASE_LAST = EAP_MSCHAPV2_PHASE_DONE,
} EapMschapv2Phase;

typedef struct {
	JoindEapSession *session;
	EapMschapv2Phase phase;
	gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN];
	/* The peer's send and receive keys, exported once the server proved
	 * it knows the password. */
	guint8 keys[2 * EAP_MSCHAP_SESSION_KEY_LEN];
} EapMschapv2State;

static const gchar *
eap_mschapv2_phase_name(EapMschapv2Phase phase)
{
	static const gchar *const names[] = {
	        [EAP_MSCHAPV2_PHASE_CHALLENGE] = "challenge",
	        [EAP_MSCHAPV2_PHASE_RESULT] = "result",
	        [EAP_MSCHAPV2_PHASE_DONE] = "done",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == EAP_MSCHAPV2_PHASE_LAST + 1);

	return names[phase];
}

static void
eap_mschapv2_set_phase(EapMschapv2State *st, EapMschapv2Phase phase, const gchar *reason)
{
	const JoindLogSubject subject = {.machine = "EAP-MSCHAPv2"};

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE, &subject,
	                       eap_mschapv2_phase_name(st->phase), eap_mschapv2_phase_name(phase),
	                       reason);
	st->phase = phase;
}

static gboolean
eap_mschapv2_crypto_check(GError **error)
{
	g_autoptr(GError) local = NULL;

	if (eap_mschap_crypto_available(&local))
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	            "EAP-MSCHAPv2 cannot run on this system: %s.", local->message);
	return FALSE;
}

/* <P>Password-Hash, parsed; FALSE with an error when present but invalid. */
static gboolean
eap_mschapv2_hash_setting(JoindEapSession *session, gboolean *present,
                          guint8 hash[EAP_MSCHAP_NT_HASH_LEN], GError **error)
{
	gchar *hex = joind_eap_session_get_setting(session, "Password-Hash");
	g_autoptr(GError) local = NULL;
	gboolean ok;

	*present = hex != NULL;
	if (hex == NULL)
		return TRUE;
	g_strstrip(hex);
	ok = eap_mschap_nt_hash_from_hex(hex, hash, &local);
	joind_secret_wipe(hex);
	if (!ok) {
		g_autofree gchar *where =
		        joind_eap_session_describe_setting(session, "Password-Hash");
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s: %s", where,
		            local->message);
	}
	return ok;
}

static gboolean
eap_mschapv2_check_settings(JoindEapSession *session, GError **error)
{
	guint8 hash[EAP_MSCHAP_NT_HASH_LEN];
	gboolean present;
	gboolean ok = eap_mschapv2_crypto_check(error) &&
	              eap_mschapv2_hash_setting(session, &present, hash, error);

	joind_secret_clear(hash, sizeof(hash));
	return ok;
}

static gpointer
eap_mschapv2_state_new(JoindEapSession *session, GError **error)
{
	EapMschapv2State *st;

	if (!eap_mschapv2_crypto_check(error))
		return NULL;
	st = g_new0(EapMschapv2State, 1);
	st->session = session;
	return st;
}

static void
eap_mschapv2_state_free(gpointer data)
{
	EapMschapv2State *st = data;

	joind_secret_clear(st, sizeof(*st));
	g_free(st);
}

/* The NT hash, from <P>Password-Hash or the password (profile or agent). */
static JoindEapSecretStatus
eap_mschapv2_nt_hash(JoindEapSession *session, guint8 hash[EAP_MSCHAP_NT_HASH_LEN], GError **error)
{
	g_autoptr(GError) local = NULL;
	const gchar *password = NULL;
	JoindEapSecretStatus status;
	gboolean present;

	if (!eap_mschapv2_hash_setting(session, &present, hash, error))
		return JOIND_EAP_SECRET_FAILED;
	if (present)
		return JOIND_EAP_SECRET_AVAILABLE;
	status = joind_eap_session_get_secret(session, "Password", JOIND_SECRET_USER_PASSWORD,
	                                      &password, error);
	if (status != JOIND_EAP_SECRET_AVAILABLE)
		return status;
	if (!eap_mschap_nt_hash(password, hash, &local)) {
		g_autofree gchar *where = joind_eap_session_describe_setting(session, "Password");
		gint code = g_error_matches(local, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED)
		                    ? JOIND_ERROR_NOT_SUPPORTED
		                    : JOIND_ERROR_INVALID_ARGS;
		g_set_error(error, JOIND_ERROR, code, "%s: %s", where, local->message);
		return JOIND_EAP_SECRET_FAILED;
	}
	return JOIND_EAP_SECRET_AVAILABLE;
}

static gchar *
eap_mschapv2_user(JoindEapSession *session, GError **error)
{
	const gchar *sent = joind_eap_session_get_identity(session);
	gchar *user =
	        sent != NULL ? g_strdup(sent) : joind_eap_session_get_setting(session, "Identity");

	if (user == NULL || *user == '\0' || strlen(user) > EAP_MSCHAPV2_USER_MAX) {
		g_autofree gchar *where = joind_eap_session_describe_setting(session, "Identity");
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            user == NULL || *user == '\0'
		                    ? "%s: EAP-MSCHAPv2 needs a user name"
		                    : "%s: the user name is longer than EAP-MSCHAPv2's %d octets",
		            where, EAP_MSCHAPV2_USER_MAX);
		g_free(user);
		return NULL;
	}
	return user;
}

/* Computes the NT-Response, the authenticator response to expect and the
 * keys; nothing of the state changes on failure. */
static gboolean
eap_mschapv2_answer(EapMschapv2State *st, const EapMschapv2Request *req, const gchar *user,
                    const guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN], GByteArray *response,
                    GError **error)
{
	const gchar *hashed_user = eap_mschap_strip_domain(user);
	guint8 peer_challenge[EAP_MSCHAP_CHALLENGE_LEN];
	guint8 nt_response[EAP_MSCHAP_NT_RESPONSE_LEN];
	g_autoptr(GError) local = NULL;

	if (RAND_bytes(peer_challenge, sizeof(peer_challenge)) != 1)
		return joind_set_error_from_openssl(
		        error, JOIND_ERROR, JOIND_ERROR_FAILED,
		        "EAP-MSCHAPv2 could not draw a random challenge from OpenSSL");
	if (!eap_mschap_v2_nt_response(req->challenge, peer_challenge, hashed_user, nt_hash,
	                               nt_response, &local) ||
	    !eap_mschap_v2_authenticator_response(nt_hash, nt_response, peer_challenge,
	                                          req->challenge, hashed_user, st->expected,
	                                          &local) ||
	    !eap_mschap_v2_peer_keys(nt_hash, nt_response, st->keys, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "EAP-MSCHAPv2 could not compute its response: %s.", local->message);
		return FALSE;
	}
	eap_mschapv2_response_build(response, req->ms_id, peer_challenge, nt_response, user);
	return TRUE;
}

static JoindEapMethodResult
eap_mschapv2_challenge(EapMschapv2State *st, const EapMschapv2Request *req, GByteArray *response,
                       GError **error)
{
	g_autofree gchar *server = joind_eap_sanitize_text(req->name, req->name_len);
	g_autofree gchar *user = NULL;
	guint8 nt_hash[EAP_MSCHAP_NT_HASH_LEN];
	gboolean ok;

	if (st->phase != EAP_MSCHAPV2_PHASE_CHALLENGE) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server sent a second EAP-MSCHAPv2 Challenge; joind does not "
		            "retry within one authentication.");
		return JOIND_EAP_METHOD_FAIL;
	}
	user = eap_mschapv2_user(st->session, error);
	if (user == NULL)
		return JOIND_EAP_METHOD_FAIL;
	switch (eap_mschapv2_nt_hash(st->session, nt_hash, error)) {
	case JOIND_EAP_SECRET_PENDING:
		return JOIND_EAP_METHOD_PENDING;
	case JOIND_EAP_SECRET_FAILED:
		return JOIND_EAP_METHOD_FAIL;
	case JOIND_EAP_SECRET_AVAILABLE:
		break;
	}
	ok = eap_mschapv2_answer(st, req, user, nt_hash, response, error);
	joind_secret_clear(nt_hash, sizeof(nt_hash));
	if (!ok)
		return JOIND_EAP_METHOD_FAIL;
	g_info("EAP-MSCHAPv2: answering the challenge of server \"%s\" as \"%s\"", server, user);
	eap_mschapv2_set_phase(st, EAP_MSCHAPV2_PHASE_RESULT, "sent the Response");
	/* The server may now end with a bare EAP-Failure. */
	joind_eap_session_set_decision(st->session, JOIND_EAP_METHOD_STATE_MAY_CONT,
	                               JOIND_EAP_DECISION_FAIL);
	return JOIND_EAP_METHOD_RESPOND;
}

static void
eap_mschapv2_export_keys(EapMschapv2State *st)
{
	/* EAP-MSCHAPv2 yields 32 octets; the MSK is 64, the rest zero, as the
	 * tunnels that use it as inner key (PEAP's ISK) expect. */
	guint8 msk[JOIND_EAP_MSK_LEN] = {0};

	memcpy(msk, st->keys, sizeof(st->keys));
	joind_eap_session_set_keys(st->session, msk, sizeof(msk), NULL, 0);
	joind_secret_clear(msk, sizeof(msk));
	joind_secret_clear(st->keys, sizeof(st->keys));
}

static JoindEapMethodResult
eap_mschapv2_success(EapMschapv2State *st, const EapMschapv2Request *req, GByteArray *response,
                     GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree gchar *text = NULL;
	const gchar *received = NULL;
	const guint8 op = EAP_MSCHAPV2_OP_SUCCESS;

	if (st->phase != EAP_MSCHAPV2_PHASE_RESULT) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server sent EAP-MSCHAPv2 Success before joind answered its "
		            "challenge.");
		return JOIND_EAP_METHOD_FAIL;
	}
	if (!eap_mschap_success_parse(req->message, req->message_len, &received, &text, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server's EAP-MSCHAPv2 Success is malformed (%s), so it did not "
		            "prove that it knows the password.",
		            local->message);
		return JOIND_EAP_METHOD_FAIL;
	}
	if (!eap_mschap_v2_authenticator_response_equal(received, EAP_MSCHAP_AUTH_RESPONSE_LEN,
	                                                st->expected)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server's EAP-MSCHAPv2 authenticator response is wrong: it does "
		            "not know the password, so joind does not trust it (a rogue "
		            "authenticator?).");
		return JOIND_EAP_METHOD_FAIL;
	}
	g_info("EAP-MSCHAPv2: the server proved it knows the password%s%s%s",
	       text != NULL ? " (it says \"" : "", text != NULL ? text : "",
	       text != NULL ? "\")" : "");
	eap_mschapv2_export_keys(st);
	eap_mschapv2_set_phase(st, EAP_MSCHAPV2_PHASE_DONE, "authenticator response verified");
	joind_eap_session_set_decision(st->session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	g_byte_array_append(response, &op, 1);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_mschapv2_failure(EapMschapv2State *st, const EapMschapv2Request *req, GByteArray *response)
{
	EapMschapFailure failure;
	g_autoptr(GError) local = NULL;
	g_autofree gchar *sentence = NULL;
	const guint8 op = EAP_MSCHAPV2_OP_FAILURE;

	if (eap_mschap_failure_parse(req->message, req->message_len, &failure, &local)) {
		sentence = eap_mschap_failure_describe(&failure);
	} else {
		sentence = g_strdup_printf("The MS-CHAPv2 server refused, with a malformed "
		                           "message (%s).",
		                           local->message);
		failure.error_code = 0;
	}
	/* A wrong or expired password from an agent is asked for again next
	 * time; account restrictions are not the password's fault. */
	if (failure.error_code == 0 || failure.error_code == 691 || failure.error_code == 648 ||
	    failure.error_code == 709)
		joind_eap_session_forget_secret(st->session, "Password");
	g_info("EAP-MSCHAPv2: %s", sentence);
	joind_eap_session_set_peer_reason(st->session, sentence);
	eap_mschap_failure_clear(&failure);
	eap_mschapv2_set_phase(st, EAP_MSCHAPV2_PHASE_DONE, "the server sent Failure");
	joind_eap_session_set_decision(st->session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_FAIL);
	g_byte_array_append(response, &op, 1);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_mschapv2_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data,
                    gsize len, GByteArray *response, GError **error)
{
	EapMschapv2State *st = state;
	EapMschapv2Request req;
	g_autoptr(GError) local = NULL;

	if (!eap_mschapv2_request_parse(data, len, &req, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server sent a malformed EAP-MSCHAPv2 request: %s.",
		            local->message);
		return JOIND_EAP_METHOD_FAIL;
	}
	switch (req.op_code) {
	case EAP_MSCHAPV2_OP_CHALLENGE:
		return eap_mschapv2_challenge(st, &req, response, error);
	case EAP_MSCHAPV2_OP_SUCCESS:
		return eap_mschapv2_success(st, &req, response, error);
	default: /* the parser admits only Challenge, Success and Failure */
		return eap_mschapv2_failure(st, &req, response);
	}
}

const JoindEapMethodOps eap_mschapv2_ops = {
        .type = JOIND_EAP_TYPE_MSCHAPV2,
        .name = "MSCHAPV2",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER |
                 JOIND_EAP_METHOD_FLAG_PASSWORD,
        .check_settings = eap_mschapv2_check_settings,
        .state_new = eap_mschapv2_state_new,
        .state_free = eap_mschapv2_state_free,
        .handle_request = eap_mschapv2_handle,
};
