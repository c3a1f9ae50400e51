/* joind-eap-peer.c - the EAP peer state machine (RFC 3748, RFC 4137 section
 * 4): what a received packet does to a session.
 *
 * Departures from RFC 4137, on purpose:
 * - A Request/Identity with a new identifier while a method runs, or after
 *   Success/Failure, restarts the conversation: 802.1X authenticators
 *   re-authenticate that way and the lower layer need not notice first.
 * - The session has no idleWhile timer: the lower layer times out.
 * - Asking an agent for a secret pauses the session (PAUSED); duplicates of
 *   the held Request are dropped, as no Response exists yet to retransmit.
 */
#undef G_LOG_DOMAIN
#define G_LOG_DOMAIN "joind-eap"

#include <string.h>

#include "joind-eap-private.h"
#include "joind-error.h"
#include "joind-secret.h"

#define EAP_TEXT_MAX 256

static void eap_peer_request(JoindEapSession *s, const JoindEapPacket *p);

gchar *
joind_eap_sanitize_text(const guint8 *data, gsize len)
{
	const guint8 *nul = data != NULL ? memchr(data, 0, len) : NULL;
	g_autofree gchar *valid = NULL;
	GString *out = g_string_new(NULL);

	if (nul != NULL)
		len = (gsize)(nul - data);
	len = MIN(len, EAP_TEXT_MAX);
	valid = g_utf8_make_valid((const gchar *)data, (gssize)len);
	for (const gchar *c = valid; *c != '\0'; c = g_utf8_next_char(c)) {
		gunichar u = g_utf8_get_char(c);
		if (g_unichar_isprint(u) && u != '"')
			g_string_append_unichar(out, u);
		else
			g_string_append_c(out, u == '"' ? '\'' : '?');
	}
	return g_string_free(out, FALSE);
}

static void
eap_peer_discard(JoindEapSession *s, const JoindEapPacket *p, const gchar *why)
{
	gchar buf[16];

	g_debug("%s: discarding %s id %u%s%s: %s", s->label, joind_eap_code_to_string(p->code),
	        p->id, p->type != 0 ? " type " : "",
	        p->type != 0 ? joind_eap_type_to_string(p->type, buf, sizeof(buf)) : "", why);
}

static void
eap_peer_send_response(JoindEapSession *s, guint8 id, guint8 type, const guint8 *data, gsize len)
{
	g_autoptr(GError) error = NULL;
	GByteArray *packet =
	        joind_eap_packet_build(JOIND_EAP_CODE_RESPONSE, id, type, data, len, &error);
	gchar buf[16];

	if (packet == NULL) {
		g_prefix_error(&error, "EAP-%s produced an oversized response: ",
		               joind_eap_type_to_string(type, buf, sizeof(buf)));
		joind_eap_session_fail(s, JOIND_EAP_STAGE_METHOD, error);
		return;
	}
	if (s->last_response != NULL) {
		joind_secret_clear(s->last_response->data, s->last_response->len);
		g_byte_array_unref(s->last_response);
	}
	s->last_response = packet;
	s->last_id = id;
	g_debug("%s: sending Response id %u type %s (%u octets)", s->label, id,
	        joind_eap_type_to_string(type, buf, sizeof(buf)), packet->len);
	s->callbacks.send(s, packet->data, packet->len, s->user_data);
}

void
joind_eap_peer_restart(JoindEapSession *s, const gchar *reason)
{
	joind_eap_session_clear_method(s);
	joind_eap_session_wipe_keys(s);
	g_clear_pointer(&s->held_request, g_bytes_unref);
	if (s->last_response != NULL)
		joind_secret_clear(s->last_response->data, s->last_response->len);
	g_clear_pointer(&s->last_response, g_byte_array_unref);
	g_clear_pointer(&s->notification, g_free);
	g_clear_pointer(&s->peer_reason, g_free);
	s->server_refused = FALSE;
	s->last_id = -1;
	s->n_offered = 0;
	joind_eap_session_set_state(s, JOIND_EAP_STATE_IDLE, reason);
}

static void
eap_peer_pause(JoindEapSession *s, const JoindEapPacket *p, JoindEapPauseReason why)
{
	g_clear_pointer(&s->held_request, g_bytes_unref);
	s->held_request = g_bytes_new(p->raw, p->length);
	s->paused_from = s->state;
	s->pause_reason = why;
	joind_eap_session_set_state(s, JOIND_EAP_STATE_PAUSED,
	                            why == JOIND_EAP_PAUSE_SECRET ? "waiting for the agent"
	                                                          : "waiting for the method");
}

/* Takes the held Request back out of PAUSED; FALSE if there is none. */
static gboolean
eap_peer_unpause(JoindEapSession *s, const gchar *reason, JoindEapPacket *held, GBytes **held_bytes)
{
	if (s->state != JOIND_EAP_STATE_PAUSED || s->held_request == NULL)
		return FALSE;
	*held_bytes = g_steal_pointer(&s->held_request);
	/* The held bytes parsed once already. */
	if (!joind_eap_packet_parse(g_bytes_get_data(*held_bytes, NULL),
	                            g_bytes_get_size(*held_bytes), held, NULL))
		g_return_val_if_reached(FALSE);
	joind_eap_session_set_state(s, s->paused_from, reason);
	return TRUE;
}

void
joind_eap_peer_resume(JoindEapSession *s)
{
	g_autoptr(GBytes) bytes = NULL;
	JoindEapPacket held;

	if (eap_peer_unpause(s, "the agent answered", &held, &bytes))
		eap_peer_request(s, &held);
}

void
joind_eap_session_method_reply(JoindEapSession *s, const guint8 *type_data, gsize len)
{
	g_autoptr(GBytes) bytes = NULL;
	JoindEapPacket held;

	g_return_if_fail(s->pause_reason == JOIND_EAP_PAUSE_METHOD && s->method != NULL);
	if (!eap_peer_unpause(s, "the method answered", &held, &bytes))
		return;
	joind_eap_session_ref(s);
	eap_peer_send_response(s, held.id, s->method->type, type_data, len);
	joind_eap_session_unref(s);
}

void
joind_eap_session_method_fail(JoindEapSession *s, const GError *error)
{
	g_autoptr(GBytes) bytes = NULL;
	JoindEapPacket held;

	g_return_if_fail(s->pause_reason == JOIND_EAP_PAUSE_METHOD);
	if (!eap_peer_unpause(s, "the method gave up", &held, &bytes))
		return;
	joind_eap_session_ref(s);
	joind_eap_session_fail(s, JOIND_EAP_STAGE_METHOD, error);
	joind_eap_session_unref(s);
}

void
joind_eap_session_set_peer_reason(JoindEapSession *s, const gchar *reason)
{
	g_free(s->peer_reason);
	s->peer_reason = g_strdup(reason);
}

/* <prefix>Identity from the profile, then from an agent, else asks the agent
 * for user name and password when the method uses a password. */
static JoindEapSecretStatus
eap_peer_resolve_identity(JoindEapSession *s, GPtrArray *methods, gchar **identity, GError **error)
{
	const JoindEapMethodOps *first = g_ptr_array_index(methods, 0);
	g_autofree gchar *where = joind_eap_session_describe_setting(s, "Identity");
	const gchar *password = NULL;
	JoindEapSecretStatus status;

	*identity = joind_eap_session_get_setting(s, "Identity");
	if (*identity == NULL)
		*identity = g_strdup(joind_eap_session_lookup_agent_identity(s));
	if (*identity != NULL)
		return JOIND_EAP_SECRET_AVAILABLE;
	if ((first->flags & JOIND_EAP_METHOD_FLAG_PASSWORD) == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s is missing: EAP-%s needs an identity", where, first->name);
		return JOIND_EAP_SECRET_FAILED;
	}
	status = joind_eap_session_get_secret(s, "Password", JOIND_SECRET_USER_NAME_AND_PASSWORD,
	                                      &password, error);
	if (status != JOIND_EAP_SECRET_AVAILABLE)
		return status;
	/* A password but no user name: from the profile, or an agent that
	 * answered without one. */
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            "%s is missing: EAP-%s has a password but no user name", where, first->name);
	return JOIND_EAP_SECRET_FAILED;
}

static void
eap_peer_identity(JoindEapSession *s, const JoindEapPacket *p)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) methods = joind_eap_session_allowed_methods(s, &error);
	g_autofree gchar *prompt = joind_eap_sanitize_text(p->type_data, p->type_data_len);
	g_autofree gchar *identity = NULL;

	if (methods == NULL) {
		joind_eap_session_fail(s, JOIND_EAP_STAGE_IDENTITY, error);
		return;
	}
	if (*prompt != '\0')
		g_debug("%s: Request/Identity says \"%s\"", s->label, prompt);
	switch (eap_peer_resolve_identity(s, methods, &identity, &error)) {
	case JOIND_EAP_SECRET_PENDING:
		eap_peer_pause(s, p, JOIND_EAP_PAUSE_SECRET);
		return;
	case JOIND_EAP_SECRET_FAILED:
		joind_eap_session_fail(s, JOIND_EAP_STAGE_IDENTITY, error);
		return;
	case JOIND_EAP_SECRET_AVAILABLE:
		break;
	}
	g_free(s->identity);
	s->identity = g_strdup(identity);
	joind_eap_session_set_state(s, JOIND_EAP_STATE_IDENTITY, "answering Request/Identity");
	eap_peer_send_response(s, p->id, JOIND_EAP_TYPE_IDENTITY, (const guint8 *)identity,
	                       strlen(identity));
	if (s->state == JOIND_EAP_STATE_IDENTITY && s->callbacks.started != NULL)
		s->callbacks.started(s, s->identity, s->user_data);
}

static void
eap_peer_notification(JoindEapSession *s, const JoindEapPacket *p)
{
	g_autofree gchar *text = joind_eap_sanitize_text(p->type_data, p->type_data_len);

	g_info("%s: the authenticator says \"%s\"", s->label, text);
	g_free(s->notification);
	s->notification = g_strdup(text);
	/* RFC 3748 5.2: the Response carries no data and changes no state. */
	eap_peer_send_response(s, p->id, JOIND_EAP_TYPE_NOTIFICATION, NULL, 0);
	if (s->callbacks.notification != NULL && s->state != JOIND_EAP_STATE_FAILURE)
		s->callbacks.notification(s, text, s->user_data);
}

static void
eap_peer_run_method(JoindEapSession *s, const JoindEapPacket *p)
{
	g_autoptr(GByteArray) response = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	JoindEapMethodResult result;

	result = s->method->handle_request(s, s->method_state, p->id, p->type_data,
	                                   p->type_data_len, response, &error);
	if (s->state != JOIND_EAP_STATE_METHOD) {
		/* The method ended the session from within (an inner failure). */
	} else if (result == JOIND_EAP_METHOD_RESPOND) {
		eap_peer_send_response(s, p->id, s->method->type, response->data, response->len);
	} else if (result == JOIND_EAP_METHOD_PENDING) {
		eap_peer_pause(s, p,
		               joind_eap_session_secret_in_flight(s) ? JOIND_EAP_PAUSE_SECRET
		                                                     : JOIND_EAP_PAUSE_METHOD);
	} else if (result == JOIND_EAP_METHOD_DISCARD) {
		eap_peer_discard(s, p, error != NULL ? error->message : "the method ignored it");
	} else {
		if (response->len > 0)
			eap_peer_send_response(s, p->id, s->method->type, response->data,
			                       response->len);
		if (error == NULL)
			error = g_error_new(JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
			                    "EAP-%s failed", s->method->name);
		if (s->state == JOIND_EAP_STATE_METHOD)
			joind_eap_session_fail(s, JOIND_EAP_STAGE_METHOD, error);
	}
	joind_secret_clear(response->data, response->len);
}

static void
eap_peer_select_method(JoindEapSession *s, const JoindEapMethodOps *ops, const JoindEapPacket *p)
{
	g_autoptr(GError) error = NULL;
	gboolean from_idle = s->state == JOIND_EAP_STATE_IDLE;
	g_autofree gchar *reason = g_strdup_printf("the authenticator proposed EAP-%s", ops->name);

	s->method = ops;
	s->method_progress = JOIND_EAP_METHOD_STATE_CONT;
	s->decision = JOIND_EAP_DECISION_FAIL;
	joind_eap_session_set_state(s, JOIND_EAP_STATE_METHOD, reason);
	if (from_idle && s->callbacks.started != NULL)
		s->callbacks.started(s, NULL, s->user_data);
	if (s->state == JOIND_EAP_STATE_METHOD && s->callbacks.method_selected != NULL)
		s->callbacks.method_selected(s, ops->name, s->user_data);
	if (s->state != JOIND_EAP_STATE_METHOD)
		return;
	s->method_state = ops->state_new(s, &error);
	if (s->method_state == NULL) {
		if (error == NULL)
			error = g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
			                    "EAP-%s could not start", ops->name);
		joind_eap_session_fail(s, JOIND_EAP_STAGE_METHOD, error);
		return;
	}
	eap_peer_run_method(s, p);
}

/* RFC 4137 GET_METHOD: start the proposed method if the profile allows it,
 * else a legacy Nak listing what it allows (RFC 3748 5.3.1). */
static void
eap_peer_get_method(JoindEapSession *s, const JoindEapPacket *p)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) methods = joind_eap_session_allowed_methods(s, &error);
	g_autoptr(GByteArray) nak = g_byte_array_new();
	gchar buf[16];

	if (methods == NULL) {
		joind_eap_session_fail(s, JOIND_EAP_STAGE_NEGOTIATION, error);
		return;
	}
	for (guint i = 0; i < methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(methods, i);
		if (ops->type == p->type) {
			eap_peer_select_method(s, ops, p);
			return;
		}
		g_byte_array_append(nak, &ops->type, 1);
	}
	if (s->n_offered < G_N_ELEMENTS(s->offered) &&
	    memchr(s->offered, p->type, s->n_offered) == NULL)
		s->offered[s->n_offered++] = p->type;
	g_info("%s: the authenticator proposed EAP-%s, which the profile does not allow: Nak",
	       s->label, joind_eap_type_to_string(p->type, buf, sizeof(buf)));
	eap_peer_send_response(s, p->id, JOIND_EAP_TYPE_NAK, nak->data, nak->len);
}

static void
eap_peer_request_paused(JoindEapSession *s, const JoindEapPacket *p)
{
	JoindEapPacket held;

	if (!joind_eap_packet_parse(g_bytes_get_data(s->held_request, NULL),
	                            g_bytes_get_size(s->held_request), &held, NULL))
		g_return_if_reached();
	if (p->id == held.id) {
		eap_peer_discard(s, p, "duplicate of the Request being worked on");
	} else if (p->type == JOIND_EAP_TYPE_IDENTITY) {
		joind_eap_peer_restart(s, "new Request/Identity while paused");
		eap_peer_request(s, p);
	} else if (s->pause_reason == JOIND_EAP_PAUSE_SECRET) {
		/* The authenticator moved on; answer the newest once the agent has. */
		g_bytes_unref(s->held_request);
		s->held_request = g_bytes_new(p->raw, p->length);
	} else {
		eap_peer_discard(s, p, "the method is still working on the previous Request");
	}
}

static void
eap_peer_request(JoindEapSession *s, const JoindEapPacket *p)
{
	switch (s->state) {
	case JOIND_EAP_STATE_PAUSED:
		eap_peer_request_paused(s, p);
		return;
	case JOIND_EAP_STATE_SUCCESS:
	case JOIND_EAP_STATE_FAILURE:
		if (p->type != JOIND_EAP_TYPE_IDENTITY || p->id == s->last_id) {
			eap_peer_discard(s, p, "the conversation is over");
			return;
		}
		joind_eap_peer_restart(s, "new Request/Identity: re-authentication");
		break;
	default:
		break;
	}
	if (s->last_response != NULL && p->id == s->last_id) {
		/* RFC 3748 4.1: resend, without processing the Request again. */
		g_debug("%s: duplicate Request id %u: retransmitting the last Response", s->label,
		        p->id);
		s->callbacks.send(s, s->last_response->data, s->last_response->len, s->user_data);
		return;
	}
	switch (p->type) {
	case JOIND_EAP_TYPE_IDENTITY:
		if (s->state == JOIND_EAP_STATE_METHOD)
			joind_eap_peer_restart(s, "new Request/Identity during the method");
		eap_peer_identity(s, p);
		break;
	case JOIND_EAP_TYPE_NOTIFICATION:
		eap_peer_notification(s, p);
		break;
	case 0:
	case JOIND_EAP_TYPE_NAK:
		eap_peer_discard(s, p, "not a valid Request type");
		break;
	default:
		if (s->method == NULL)
			eap_peer_get_method(s, p);
		else if (p->type != s->method->type)
			eap_peer_discard(s, p, "another method is running");
		else if (s->method_progress == JOIND_EAP_METHOD_STATE_DONE)
			eap_peer_discard(s, p, "the method has finished");
		else
			eap_peer_run_method(s, p);
	}
}

static GError *
eap_peer_rejection(JoindEapSession *s, JoindEapStage *stage)
{
	GString *msg = g_string_new(NULL);
	g_autofree gchar *text = NULL;
	gchar buf[16];

	if (s->method == NULL && s->n_offered > 0) {
		g_autofree gchar *allowed = joind_eap_session_get_setting(s, "Method");
		*stage = JOIND_EAP_STAGE_NEGOTIATION;
		g_string_append(msg, "The authenticator offered only");
		for (guint i = 0; i < s->n_offered; i++)
			g_string_append_printf(
			        msg, "%s EAP-%s", i > 0 ? "," : "",
			        joind_eap_type_to_string(s->offered[i], buf, sizeof(buf)));
		g_string_append_printf(msg, ", which the profile does not allow (%sMethod=%s).",
		                       s->prefix, allowed != NULL ? allowed : "");
	} else if (s->method == NULL) {
		*stage = JOIND_EAP_STAGE_IDENTITY;
		g_string_append_printf(msg, "The authenticator rejected the identity \"%s\".",
		                       s->identity != NULL ? s->identity : "");
	} else {
		*stage = JOIND_EAP_STAGE_RESULT;
		g_string_append_printf(msg, "The authenticator rejected the EAP-%s authentication",
		                       s->method->name);
		if (s->identity != NULL)
			g_string_append_printf(msg, " of \"%s\"", s->identity);
		g_string_append_c(msg, '.');
	}
	if (s->peer_reason != NULL)
		g_string_append_printf(msg, " %s", s->peer_reason);
	if (s->notification != NULL)
		g_string_append_printf(msg, " It said: \"%s\".", s->notification);
	text = g_string_free(msg, FALSE);
	return g_error_new_literal(JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED, text);
}

/* Success without a method that succeeded (RFC 4137: a failure). */
static GError *
eap_peer_unearned_success(JoindEapSession *s, const gchar *what)
{
	if (s->method == NULL)
		return g_error_new(JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		                   "The authenticator %s before any authentication method ran; "
		                   "joind does not accept that.",
		                   what);
	return g_error_new(JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
	                   "The authenticator %s although EAP-%s had not authenticated it; joind "
	                   "does not accept that.",
	                   what, s->method->name);
}

static gboolean
eap_peer_result_id_matches(JoindEapSession *s, const JoindEapPacket *p)
{
	return s->last_response != NULL && p->id == s->last_id;
}

static void
eap_peer_success(JoindEapSession *s, const JoindEapPacket *p)
{
	if (s->state == JOIND_EAP_STATE_IDLE || s->state == JOIND_EAP_STATE_SUCCESS ||
	    s->state == JOIND_EAP_STATE_FAILURE || s->state == JOIND_EAP_STATE_PAUSED) {
		eap_peer_discard(s, p, "no conversation waits for a result");
	} else if (!eap_peer_result_id_matches(s, p)) {
		eap_peer_discard(s, p, "its identifier is not that of our last Response");
	} else if (s->decision != JOIND_EAP_DECISION_FAIL) {
		joind_eap_session_set_state(s, JOIND_EAP_STATE_SUCCESS, "EAP-Success");
		joind_eap_secret_remember_later(s);
		if (s->callbacks.succeeded != NULL)
			s->callbacks.succeeded(s, s->user_data);
	} else if (s->method == NULL || s->method_progress != JOIND_EAP_METHOD_STATE_CONT) {
		/* RFC 4137: Success when the method did not succeed is a failure. */
		g_autoptr(GError) error = eap_peer_unearned_success(s, "sent EAP-Success");
		joind_eap_session_fail(s, JOIND_EAP_STAGE_RESULT, error);
	} else {
		eap_peer_discard(s, p, "the method has not finished");
	}
}

static void
eap_peer_failure(JoindEapSession *s, const JoindEapPacket *p)
{
	gboolean id_ok = eap_peer_result_id_matches(s, p);
	JoindEapStage stage;
	g_autoptr(GError) error = NULL;

	if (s->state == JOIND_EAP_STATE_PAUSED && s->held_request != NULL) {
		/* The authenticator may give up on the Request we are holding. */
		const guint8 *held = g_bytes_get_data(s->held_request, NULL);
		id_ok = id_ok || p->id == held[1];
	}
	if (s->state == JOIND_EAP_STATE_IDLE || s->state == JOIND_EAP_STATE_SUCCESS ||
	    s->state == JOIND_EAP_STATE_FAILURE) {
		eap_peer_discard(s, p, "no conversation waits for a result");
	} else if (!id_ok) {
		eap_peer_discard(s, p, "its identifier is not that of our last Response");
	} else if (s->method != NULL && s->method_progress == JOIND_EAP_METHOD_STATE_CONT) {
		eap_peer_discard(s, p, "the method cannot end here");
	} else if (s->decision == JOIND_EAP_DECISION_UNCOND_SUCC) {
		eap_peer_discard(s, p, "the method has already succeeded");
	} else {
		error = eap_peer_rejection(s, &stage);
		joind_eap_session_fail(s, stage, error);
	}
}

void
joind_eap_peer_receive(JoindEapSession *s, const JoindEapPacket *p)
{
	gchar buf[16];

	g_debug("%s: received %s id %u%s%s (%u octets)", s->label,
	        joind_eap_code_to_string(p->code), p->id, p->type != 0 ? " type " : "",
	        p->type != 0 ? joind_eap_type_to_string(p->type, buf, sizeof(buf)) : "", p->length);
	switch (p->code) {
	case JOIND_EAP_CODE_REQUEST:
		eap_peer_request(s, p);
		break;
	case JOIND_EAP_CODE_SUCCESS:
		eap_peer_success(s, p);
		break;
	case JOIND_EAP_CODE_FAILURE:
		eap_peer_failure(s, p);
		break;
	default:
		eap_peer_discard(s, p, "a peer ignores Responses");
	}
}

gboolean
joind_eap_session_rx(JoindEapSession *session, const guint8 *data, gsize len, GError **error)
{
	JoindEapPacket packet;

	g_return_val_if_fail(session != NULL, FALSE);
	if (!joind_eap_packet_parse(data, len, &packet, error)) {
		g_debug("%s: discarding a malformed EAP packet", session->label);
		return FALSE;
	}
	joind_eap_session_ref(session);
	joind_eap_peer_receive(session, &packet);
	joind_eap_session_unref(session);
	return TRUE;
}
