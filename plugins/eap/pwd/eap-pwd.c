/* eap-pwd.c - EAP-pwd peer (RFC 5931): ID, Commit and Confirm exchanges,
 * with fragmentation both ways, then MSK and EMSK. */
#include "eap-pwd.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/crypto.h>

#include "eap-pwd-crypto.h"
#include "eap-pwd-packet.h"
#include "joind-error.h"
#include "joind-secret.h"
#include "joind-log.h"

typedef enum {
	EAP_PWD_PHASE_ID,      /* waiting for EAP-pwd-ID */
	EAP_PWD_PHASE_COMMIT,  /* waiting for the server's Commit */
	EAP_PWD_PHASE_CONFIRM, /* waiting for the server's Confirm */
	EAP_PWD_PHASE_DONE,
	/* the last value, which name tables are checked against */
	EAP_PWD_PHASE_LAST = EAP_PWD_PHASE_DONE,
} EapPwdPhase;

typedef struct {
	JoindEapSession *session;
	EapPwdPhase phase;
	EapPwdExchange *exchange;
	guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN];
	EapPwdReassembly in;
	/* A message of ours being sent in fragments. */
	GBytes *out;
	gsize out_pos;
	guint8 out_exch;
} EapPwdState;

static const gchar *
eap_pwd_phase_name(EapPwdPhase phase)
{
	static const gchar *const names[] = {
	        [EAP_PWD_PHASE_ID] = "id",
	        [EAP_PWD_PHASE_COMMIT] = "commit",
	        [EAP_PWD_PHASE_CONFIRM] = "confirm",
	        [EAP_PWD_PHASE_DONE] = "done",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == EAP_PWD_PHASE_LAST + 1);

	return names[phase];
}

static void
eap_pwd_set_phase(EapPwdState *st, EapPwdPhase phase, const gchar *reason)
{
	const JoindLogSubject subject = {.machine = "EAP-pwd"};

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE, &subject,
	                       eap_pwd_phase_name(st->phase), eap_pwd_phase_name(phase), reason);
	st->phase = phase;
}

static gpointer
eap_pwd_state_new(JoindEapSession *session, GError **error)
{
	EapPwdState *st = g_new0(EapPwdState, 1);

	st->session = session;
	return st;
}

static void
eap_pwd_state_free(gpointer data)
{
	EapPwdState *st = data;

	eap_pwd_exchange_free(st->exchange);
	eap_pwd_reassembly_clear(&st->in);
	g_clear_pointer(&st->out, g_bytes_unref);
	g_free(st);
}

/* Sends message, in fragments when it does not fit the lower layer. */
static void
eap_pwd_send(EapPwdState *st, guint8 exch, GByteArray *message, GByteArray *response)
{
	gsize mtu = joind_eap_session_get_mtu(st->session);

	g_clear_pointer(&st->out, g_bytes_unref);
	st->out = g_byte_array_free_to_bytes(g_byte_array_ref(message));
	st->out_pos = 0;
	st->out_exch = exch;
	eap_pwd_fragment_next(response, exch, g_bytes_get_data(st->out, NULL),
	                      g_bytes_get_size(st->out), &st->out_pos, mtu);
	if (st->out_pos == g_bytes_get_size(st->out))
		g_clear_pointer(&st->out, g_bytes_unref);
	else
		g_debug("EAP-pwd: sending the %s in fragments", eap_pwd_exch_to_string(exch));
}

/* The server acknowledged a fragment of ours: send the next. */
static JoindEapMethodResult
eap_pwd_send_next(EapPwdState *st, const EapPwdHeader *h, GByteArray *response, GError **error)
{
	gsize len;
	const guint8 *data = g_bytes_get_data(st->out, &len);

	if (h->exch != st->out_exch || h->l || h->m || h->payload_len != 0)
		return joind_eap_method_fail(
		        error, JOIND_ERROR_AUTHENTICATION_FAILED,
		        "The server did not acknowledge joind's EAP-pwd fragment.");
	eap_pwd_fragment_next(response, st->out_exch, data, len, &st->out_pos,
	                      joind_eap_session_get_mtu(st->session));
	if (st->out_pos == len)
		g_clear_pointer(&st->out, g_bytes_unref);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_pwd_check_id(const EapPwdId *id, GError **error)
{
	if (id->group != EAP_PWD_GROUP_P256)
		return joind_eap_method_fail(
		        error, JOIND_ERROR_NOT_SUPPORTED,
		        "The server proposed EAP-pwd group %u; joind supports only "
		        "group 19 (NIST P-256).",
		        id->group);
	if (id->random_function != EAP_PWD_RANDOM_FUNCTION || id->prf != EAP_PWD_PRF_HMAC_SHA256)
		return joind_eap_method_fail(
		        error, JOIND_ERROR_NOT_SUPPORTED,
		        "The server proposed EAP-pwd random function %u and PRF %u; "
		        "joind supports only 1 and 1 (HMAC-SHA256).",
		        id->random_function, id->prf);
	if (id->prep != EAP_PWD_PREP_NONE)
		return joind_eap_method_fail(
		        error, JOIND_ERROR_NOT_SUPPORTED,
		        "The server asks for EAP-pwd password preparation %u; joind "
		        "supports only none (0).",
		        id->prep);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_pwd_id(EapPwdState *st, GBytes *message, const gchar *password, GByteArray *response,
           GError **error)
{
	const gchar *identity = joind_eap_session_get_identity(st->session);
	g_autoptr(GByteArray) reply = g_byte_array_new();
	g_autoptr(GError) local = NULL;
	g_autofree gchar *server = NULL;
	EapPwdId id, mine;

	if (!eap_pwd_id_parse(g_bytes_get_data(message, NULL), g_bytes_get_size(message), &id,
	                      &local))
		return joind_eap_method_fail(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                             "The server sent a malformed EAP-pwd-ID: %s.",
		                             local->message);
	if (eap_pwd_check_id(&id, error) == JOIND_EAP_METHOD_FAIL)
		return JOIND_EAP_METHOD_FAIL;
	if (identity == NULL || password == NULL)
		return joind_eap_method_fail(
		        error, JOIND_ERROR_INVALID_ARGS,
		        "EAP-pwd needs the identity sent in Response/Identity and a "
		        "password.");
	server = g_utf8_make_valid((const gchar *)id.identity, (gssize)MIN(id.identity_len, 64));
	st->exchange = eap_pwd_exchange_new(id.group, &local);
	if (st->exchange == NULL ||
	    !eap_pwd_exchange_derive_pwe(st->exchange, id.token, (const guint8 *)identity,
	                                 strlen(identity), id.identity, id.identity_len,
	                                 (const guint8 *)password, strlen(password), NULL, &local))
		return joind_eap_method_fail(error, JOIND_ERROR_FAILED,
		                             "EAP-pwd could not derive the password element: %s.",
		                             local->message);
	eap_pwd_ciphersuite(id.group, id.random_function, id.prf, st->ciphersuite);
	mine = id;
	mine.identity = (const guint8 *)identity;
	mine.identity_len = strlen(identity);
	eap_pwd_id_build(reply, &mine);
	eap_pwd_send(st, EAP_PWD_EXCH_ID, reply, response);
	g_info("EAP-pwd: group 19 with server \"%s\"", server);
	eap_pwd_set_phase(st, EAP_PWD_PHASE_COMMIT, "sent EAP-pwd-ID");
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_pwd_commit(EapPwdState *st, GBytes *message, GByteArray *response, GError **error)
{
	guint8 commit[EAP_PWD_COMMIT_LEN];
	g_autoptr(GByteArray) reply = g_byte_array_new();
	g_autoptr(GError) local = NULL;
	gsize len;
	const guint8 *data = g_bytes_get_data(message, &len);

	if (!eap_pwd_exchange_commit(st->exchange, commit, &local))
		return joind_eap_method_fail(error, JOIND_ERROR_FAILED,
		                             "EAP-pwd could not commit: %s.", local->message);
	if (!eap_pwd_exchange_process_commit(st->exchange, data, len, &local))
		return joind_eap_method_fail(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                             "The server's EAP-pwd commit is invalid (%s).",
		                             local->message);
	g_byte_array_append(reply, commit, sizeof(commit));
	eap_pwd_send(st, EAP_PWD_EXCH_COMMIT, reply, response);
	eap_pwd_set_phase(st, EAP_PWD_PHASE_CONFIRM, "sent our commit");
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_pwd_confirm(EapPwdState *st, GBytes *message, GByteArray *response, GError **error)
{
	guint8 expected[EAP_PWD_HASH_LEN], mine[EAP_PWD_HASH_LEN], msk[64], emsk[64];
	g_autoptr(GByteArray) reply = g_byte_array_new();
	g_autoptr(GError) local = NULL;
	gsize len;
	const guint8 *data = g_bytes_get_data(message, &len);

	if (len != EAP_PWD_HASH_LEN)
		return joind_eap_method_fail(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                             "The server's EAP-pwd confirm has %zu octets, not %d.",
		                             len, EAP_PWD_HASH_LEN);
	/* Confirm_S = H(k | Element_S | Scalar_S | Element_P | Scalar_P | Ciphersuite) */
	if (!eap_pwd_exchange_confirm(st->exchange, st->ciphersuite, FALSE, expected, &local) ||
	    !eap_pwd_exchange_confirm(st->exchange, st->ciphersuite, TRUE, mine, &local))
		return joind_eap_method_fail(error, JOIND_ERROR_FAILED,
		                             "EAP-pwd could not confirm: %s.", local->message);
	if (CRYPTO_memcmp(expected, data, EAP_PWD_HASH_LEN) != 0) {
		joind_eap_session_forget_secret(st->session, "Password");
		return joind_eap_method_fail(
		        error, JOIND_ERROR_AUTHENTICATION_FAILED,
		        "The server's EAP-pwd confirm does not match: the password is "
		        "wrong (or the server does not know it).");
	}
	if (!eap_pwd_exchange_keys(st->exchange, st->ciphersuite, TRUE, mine, data, msk, emsk,
	                           &local))
		return joind_eap_method_fail(error, JOIND_ERROR_FAILED,
		                             "EAP-pwd could not derive its keys: %s.",
		                             local->message);
	joind_eap_session_set_keys(st->session, msk, sizeof(msk), emsk, sizeof(emsk));
	joind_secret_clear(msk, sizeof(msk));
	joind_secret_clear(emsk, sizeof(emsk));
	g_byte_array_append(reply, mine, sizeof(mine));
	eap_pwd_send(st, EAP_PWD_EXCH_CONFIRM, reply, response);
	g_info("EAP-pwd: the server proved it knows the password");
	eap_pwd_set_phase(st, EAP_PWD_PHASE_DONE, "confirm verified");
	/* Conditional: the authenticator may still refuse for its own reasons. */
	joind_eap_session_set_decision(st->session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	return JOIND_EAP_METHOD_RESPOND;
}

static JoindEapMethodResult
eap_pwd_dispatch(EapPwdState *st, guint8 exch, GBytes *message, const gchar *password,
                 GByteArray *response, GError **error)
{
	static const guint8 expected_exch[] = {EAP_PWD_EXCH_ID, EAP_PWD_EXCH_COMMIT,
	                                       EAP_PWD_EXCH_CONFIRM, 0};

	if (exch != expected_exch[st->phase])
		return joind_eap_method_fail(
		        error, JOIND_ERROR_AUTHENTICATION_FAILED,
		        "The server sent an EAP-pwd %s where the %s was due.",
		        eap_pwd_exch_to_string(exch),
		        st->phase == EAP_PWD_PHASE_DONE
		                ? "end"
		                : eap_pwd_exch_to_string(expected_exch[st->phase]));
	switch (st->phase) {
	case EAP_PWD_PHASE_ID:
		return eap_pwd_id(st, message, password, response, error);
	case EAP_PWD_PHASE_COMMIT:
		return eap_pwd_commit(st, message, response, error);
	default:
		return eap_pwd_confirm(st, message, response, error);
	}
}

static JoindEapMethodResult
eap_pwd_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
               GByteArray *response, GError **error)
{
	EapPwdState *st = state;
	g_autoptr(GError) local = NULL;
	g_autoptr(GBytes) message = NULL;
	const gchar *password = NULL;
	EapPwdHeader h;
	guint8 ack;

	/* The password before anything changes: a PENDING answer must leave
	 * the state as it was, since the request is handled again. */
	if (st->phase == EAP_PWD_PHASE_ID) {
		JoindEapSecretStatus status = joind_eap_session_get_secret(
		        session, "Password", JOIND_SECRET_USER_PASSWORD, &password, error);
		if (status != JOIND_EAP_SECRET_AVAILABLE)
			return status == JOIND_EAP_SECRET_PENDING ? JOIND_EAP_METHOD_PENDING
			                                          : JOIND_EAP_METHOD_FAIL;
	}
	if (!eap_pwd_header_parse(data, len, &h, &local))
		return joind_eap_method_fail(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                             "The server sent a malformed EAP-pwd request: %s.",
		                             local->message);
	if (st->out != NULL)
		return eap_pwd_send_next(st, &h, response, error);
	switch (eap_pwd_reassembly_add(&st->in, &h, &message, &local)) {
	case EAP_PWD_REASSEMBLY_ERROR:
		return joind_eap_method_fail(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                             "The server sent a malformed EAP-pwd request: %s.",
		                             local->message);
	case EAP_PWD_REASSEMBLY_MORE:
		ack = h.exch;
		g_byte_array_append(response, &ack, 1);
		return JOIND_EAP_METHOD_RESPOND;
	case EAP_PWD_REASSEMBLY_COMPLETE:
		break;
	}
	return eap_pwd_dispatch(st, h.exch, message, password, response, error);
}

const JoindEapMethodOps eap_pwd_ops = {
        .type = JOIND_EAP_TYPE_PWD,
        .name = "PWD",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER |
                 JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = eap_pwd_state_new,
        .state_free = eap_pwd_state_free,
        .handle_request = eap_pwd_handle,
};
