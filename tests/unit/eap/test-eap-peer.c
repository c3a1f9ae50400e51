/* test-eap-peer.c - the EAP peer state machine with test methods and a fake
 * agent: identity, notification, Nak, Success/Failure acceptance rules,
 * duplicates, out-of-order requests, pausing for secrets, inner sessions. */
#include <string.h>

#include <gio/gio.h>

#include <glib/gstdio.h>

#include "joind-eap-private.h"
#include "joind-error.h"
#include "joind-profile-private.h"
#include "joind-profile-store.h"

#define TYPE_A 250 /* TESTA: outer and inner, uses a password */
#define TYPE_B 251 /* TESTB: outer only */
#define TYPE_I 252 /* TESTI: inner only */

/* ---- test methods: the first Type-Data octet says what to do ---- */

static guint method_calls;
static guint states_alive;

static gpointer
test_state_new(JoindEapSession *session, GError **error)
{
	states_alive++;
	return g_new0(guint, 1);
}

static void
test_state_free(gpointer state)
{
	states_alive--;
	g_free(state);
}

static JoindEapMethodResult
test_handle(JoindEapSession *s, gpointer state, guint8 id, const guint8 *data, gsize len,
            GByteArray *response, GError **error)
{
	guint8 msk[JOIND_EAP_MSK_LEN], emsk[JOIND_EAP_EMSK_LEN];
	const gchar *password = NULL;
	gchar cmd = len > 0 ? (gchar)data[0] : '?';

	method_calls++;
	switch (cmd) {
	case 'c':
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_CONT,
		                               JOIND_EAP_DECISION_FAIL);
		break;
	case 'm':
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_MAY_CONT,
		                               JOIND_EAP_DECISION_FAIL);
		break;
	case 'd':
		memset(msk, 0xaa, sizeof(msk));
		memset(emsk, 0xbb, sizeof(emsk));
		joind_eap_session_set_keys(s, msk, sizeof(msk), emsk, sizeof(emsk));
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_COND_SUCC);
		break;
	case 'u':
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_UNCOND_SUCC);
		break;
	case 'p':
		switch (joind_eap_session_get_secret(s, "Password", JOIND_SECRET_USER_PASSWORD,
		                                     &password, error)) {
		case JOIND_EAP_SECRET_PENDING:
			return JOIND_EAP_METHOD_PENDING;
		case JOIND_EAP_SECRET_FAILED:
			return JOIND_EAP_METHOD_FAIL;
		case JOIND_EAP_SECRET_AVAILABLE:
			break;
		}
		g_byte_array_append(response, (const guint8 *)password, (guint)strlen(password));
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_COND_SUCC);
		return JOIND_EAP_METHOD_RESPOND;
	case 'f':
		g_byte_array_append(response, (const guint8 *)"F", 1);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED, "test failure");
		return JOIND_EAP_METHOD_FAIL;
	case 'x':
		return JOIND_EAP_METHOD_DISCARD;
	case 'a':
		return JOIND_EAP_METHOD_PENDING;
	default:
		break;
	}
	g_byte_array_append(response, data, (guint)len);
	return JOIND_EAP_METHOD_RESPOND;
}

static const JoindEapMethodOps method_a = {
        .type = TYPE_A,
        .name = "TESTA",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER |
                 JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = test_state_new,
        .state_free = test_state_free,
        .handle_request = test_handle,
};
static const JoindEapMethodOps method_b = {
        .type = TYPE_B,
        .name = "TESTB",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .state_new = test_state_new,
        .state_free = test_state_free,
        .handle_request = test_handle,
};
static const JoindEapMethodOps method_i = {
        .type = TYPE_I,
        .name = "TESTI",
        .flags = JOIND_EAP_METHOD_FLAG_INNER,
        .state_new = test_state_new,
        .state_free = test_state_free,
        .handle_request = test_handle,
};

/* ---- fixture: a session, what it sent and reported, a fake agent ---- */

typedef struct {
	JoindEapSession *session;
	GPtrArray *sent; /* GBytes */
	guint started, succeeded, failed, selected, notified;
	gchar *started_identity, *selected_method, *notification;
	JoindEapStage fail_stage;
	GError *fail_error;
	gboolean unref_on_result;
	/* fake agent */
	gboolean has_agent;
	guint agent_requests;
	GTask *agent_task;
	JoindSecretKind agent_kind;
	gchar *agent_user;
} Fixture;

static void
cb_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	Fixture *f = data;

	g_ptr_array_add(f->sent, g_bytes_new(packet, len));
}

static void
cb_started(JoindEapSession *s, const gchar *identity, gpointer data)
{
	Fixture *f = data;

	f->started++;
	g_free(f->started_identity);
	f->started_identity = g_strdup(identity);
}

static void
cb_selected(JoindEapSession *s, const gchar *method, gpointer data)
{
	Fixture *f = data;

	f->selected++;
	g_free(f->selected_method);
	f->selected_method = g_strdup(method);
}

static void
cb_succeeded(JoindEapSession *s, gpointer data)
{
	Fixture *f = data;

	f->succeeded++;
	if (f->unref_on_result)
		g_clear_pointer(&f->session, joind_eap_session_unref);
}

static void
cb_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	Fixture *f = data;

	f->failed++;
	f->fail_stage = stage;
	g_clear_error(&f->fail_error);
	f->fail_error = g_error_copy(error);
	g_test_message("failed (%s): %s", joind_eap_stage_to_string(stage), error->message);
	if (f->unref_on_result)
		g_clear_pointer(&f->session, joind_eap_session_unref);
}

static void
cb_notification(JoindEapSession *s, const gchar *text, gpointer data)
{
	Fixture *f = data;

	f->notified++;
	g_free(f->notification);
	f->notification = g_strdup(text);
}

static const JoindEapSessionCallbacks callbacks = {
        .send = cb_send,
        .started = cb_started,
        .method_selected = cb_selected,
        .succeeded = cb_succeeded,
        .failed = cb_failed,
        .notification = cb_notification,
};

static void
agent_request(gpointer data, JoindSecretKind kind, const gchar *object_path, const gchar *user,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	Fixture *f = data;

	g_assert_null(f->agent_task);
	f->agent_requests++;
	f->agent_kind = kind;
	g_free(f->agent_user);
	f->agent_user = g_strdup(user);
	f->agent_task = g_task_new(NULL, cancellable, callback, user_data);
}

static JoindSecret *
agent_finish(gpointer data, GAsyncResult *result, GError **error)
{
	return g_task_propagate_pointer(G_TASK(result), error);
}

static gboolean
agent_has(gpointer data)
{
	Fixture *f = data;

	return f->has_agent;
}

static const JoindEapSecretProvider fake_agent = {
        .request = agent_request,
        .finish = agent_finish,
        .has_agent = agent_has,
};

static void
drain(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void
agent_answer(Fixture *f, const gchar *user, const gchar *secret)
{
	JoindSecret *answer = g_new0(JoindSecret, 1);

	g_assert_nonnull(f->agent_task);
	answer->user = g_strdup(user);
	answer->secret = g_strdup(secret);
	g_task_return_pointer(f->agent_task, answer, (GDestroyNotify)joind_secret_free);
	g_clear_object(&f->agent_task);
	drain();
}

static void
agent_refuse(Fixture *f, gint code)
{
	g_assert_nonnull(f->agent_task);
	g_task_return_new_error(f->agent_task, JOIND_ERROR, code, "refused by the test agent");
	g_clear_object(&f->agent_task);
	drain();
}

static JoindEapSession *
session_new(Fixture *f, const gchar *security)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree gchar *text = g_strdup_printf("[Security]\n%s\n", security);
	JoindEapSession *s;

	g_assert_true(g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, NULL));
	s = joind_eap_session_new_for_keyfile(kf, &callbacks, f);
	joind_eap_session_set_secret_provider(s, &fake_agent, f);
	return s;
}

static void
fixture_setup(Fixture *f, gconstpointer security)
{
	f->sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	f->has_agent = TRUE;
	f->session = session_new(f, security);
	method_calls = 0;
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_clear_pointer(&f->session, joind_eap_session_unref);
	if (f->agent_task != NULL) {
		/* The session is gone: its request was cancelled; finish it. */
		g_assert_true(g_cancellable_is_cancelled(g_task_get_cancellable(f->agent_task)));
		agent_refuse(f, JOIND_ERROR_ABORTED);
	}
	g_assert_cmpuint(states_alive, ==, 0);
	g_ptr_array_unref(f->sent);
	g_free(f->started_identity);
	g_free(f->selected_method);
	g_free(f->notification);
	g_free(f->agent_user);
	g_clear_error(&f->fail_error);
}

static void
rx_packet_len(Fixture *f, guint8 code, guint8 id, guint8 type, const void *data, gsize len)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GByteArray) p = joind_eap_packet_build(code, id, type, data, len, &error);

	g_assert_no_error(error);
	g_assert_true(joind_eap_session_rx(f->session, p->data, p->len, &error));
	g_assert_no_error(error);
}

static void
rx_packet(Fixture *f, guint8 code, guint8 id, guint8 type, const gchar *data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GByteArray) p = joind_eap_packet_build(code, id, type, (const guint8 *)data,
	                                                 data != NULL ? strlen(data) : 0, &error);

	g_assert_no_error(error);
	g_assert_true(joind_eap_session_rx(f->session, p->data, p->len, &error));
	g_assert_no_error(error);
}

static void
rx_req(Fixture *f, guint8 id, guint8 type, const gchar *data)
{
	rx_packet(f, JOIND_EAP_CODE_REQUEST, id, type, data);
}

static void
assert_sent(Fixture *f, guint index, guint8 id, guint8 type, const void *data, gsize len)
{
	g_autoptr(GByteArray) want =
	        joind_eap_packet_build(JOIND_EAP_CODE_RESPONSE, id, type, data, len, NULL);
	GBytes *got;

	g_assert_cmpuint(f->sent->len, >, index);
	got = g_ptr_array_index(f->sent, index);
	g_assert_cmpmem(g_bytes_get_data(got, NULL), g_bytes_get_size(got), want->data, want->len);
}

#define assert_state(f, st)                                                                       \
	g_assert_cmpstr(joind_eap_state_to_string(joind_eap_session_get_state((f)->session)), ==, \
	                joind_eap_state_to_string(st))

#define PROFILE_A    "EAP-Method=TESTA\nEAP-Identity=alice"
#define PROFILE_AB   "EAP-Method=TESTA,TESTB\nEAP-Identity=alice"
#define PROFILE_NOID "EAP-Method=TESTA"

/* ---- identity, duplicates, notification ---- */

static void
test_identity(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	assert_sent(f, 0, 1, JOIND_EAP_TYPE_IDENTITY, "alice", 5);
	g_assert_cmpuint(f->started, ==, 1);
	g_assert_cmpstr(f->started_identity, ==, "alice");
	g_assert_cmpstr(joind_eap_session_get_identity(f->session), ==, "alice");
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
}

static void
test_duplicate(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->sent->len, ==, 2);
	g_assert_true(g_bytes_equal(g_ptr_array_index(f->sent, 0), g_ptr_array_index(f->sent, 1)));
	g_assert_cmpuint(f->started, ==, 1);

	/* A duplicate method Request is answered without running the method. */
	rx_req(f, 2, TYPE_A, "c1");
	g_assert_cmpuint(method_calls, ==, 1);
	rx_req(f, 2, TYPE_A, "c1");
	g_assert_cmpuint(method_calls, ==, 1);
	g_assert_cmpuint(f->sent->len, ==, 4);
	assert_sent(f, 3, 2, TYPE_A, "c1", 2);
}

static void
test_notification(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, JOIND_EAP_TYPE_NOTIFICATION, "Port\x01 5 \xff");
	assert_sent(f, 1, 2, JOIND_EAP_TYPE_NOTIFICATION, NULL, 0);
	g_assert_cmpuint(f->notified, ==, 1);
	g_assert_cmpstr(f->notification, ==, "Port? 5 \xef\xbf\xbd");
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
	/* The method still starts afterwards. */
	rx_req(f, 3, TYPE_A, "d");
	assert_state(f, JOIND_EAP_STATE_METHOD);
	/* ... and the notification appears in a failure sentence. */
	rx_req(f, 4, JOIND_EAP_TYPE_NOTIFICATION, "account locked");
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 4, 0, NULL);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_nonnull(strstr(f->fail_error->message, "It said: \"account locked\""));
}

/* ---- method negotiation ---- */

static void
test_nak(Fixture *f, gconstpointer data)
{
	const guint8 want[] = {TYPE_A, TYPE_B};

	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, JOIND_EAP_TYPE_MD5, "challenge");
	assert_sent(f, 1, 2, JOIND_EAP_TYPE_NAK, want, sizeof(want));
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
	g_assert_cmpuint(f->selected, ==, 0);
	/* The authenticator gives up: the sentence names what it offered. */
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_NEGOTIATION);
	g_assert_error(f->fail_error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	g_assert_nonnull(strstr(f->fail_error->message, "offered only EAP-MD5"));
	g_assert_nonnull(strstr(f->fail_error->message, "EAP-Method=TESTA,TESTB"));
}

static void
test_nak_then_method(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_packet_len(f, JOIND_EAP_CODE_REQUEST, 2, JOIND_EAP_TYPE_EXPANDED, "\0\0\0\0\0\0\1", 7);
	g_assert_cmpuint(f->sent->len, ==, 2);
	rx_req(f, 3, TYPE_B, "hello");
	assert_sent(f, 2, 3, TYPE_B, "hello", 5);
	g_assert_cmpuint(f->selected, ==, 1);
	g_assert_cmpstr(f->selected_method, ==, "TESTB");
	g_assert_cmpstr(joind_eap_session_get_method_name(f->session), ==, "TESTB");
	assert_state(f, JOIND_EAP_STATE_METHOD);
}

static void
test_method_without_identity(Fixture *f, gconstpointer data)
{
	/* RFC 3748 allows a method without Identity first. */
	rx_req(f, 1, TYPE_A, "d");
	assert_sent(f, 0, 1, TYPE_A, "d", 1);
	g_assert_cmpuint(f->started, ==, 1);
	g_assert_null(f->started_identity);
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 1, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
}

/* ---- Success and Failure acceptance (RFC 4137 section 4.5) ---- */

static void
test_success_keys(Fixture *f, gconstpointer data)
{
	const guint8 *msk, *emsk;
	gsize msk_len = 0, emsk_len = 0;
	guint8 want[JOIND_EAP_MSK_LEN];

	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "d");
	g_assert_null(joind_eap_session_get_msk(f->session, &msk_len));
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
	assert_state(f, JOIND_EAP_STATE_SUCCESS);
	msk = joind_eap_session_get_msk(f->session, &msk_len);
	emsk = joind_eap_session_get_emsk(f->session, &emsk_len);
	memset(want, 0xaa, sizeof(want));
	g_assert_cmpmem(msk, msk_len, want, sizeof(want));
	memset(want, 0xbb, sizeof(want));
	g_assert_cmpmem(emsk, emsk_len, want, sizeof(want));
	/* A second Success changes nothing. */
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
}

static void
test_success_wrong_id(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "d");
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 9, 0, NULL);
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 9, 0, NULL);
	g_assert_cmpuint(f->succeeded + f->failed, ==, 0);
	assert_state(f, JOIND_EAP_STATE_METHOD);
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
}

static void
test_result_while_method_continues(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "c");
	/* methodState CONT, decision FAIL: neither result is accepted. */
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded + f->failed, ==, 0);
	assert_state(f, JOIND_EAP_STATE_METHOD);
}

static void
test_failure_may_cont(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "m");
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_RESULT);
	g_assert_error(f->fail_error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	g_assert_cmpstr(f->fail_error->message, ==,
	                "The authenticator rejected the EAP-TESTA authentication of \"alice\".");
	assert_state(f, JOIND_EAP_STATE_FAILURE);
}

static void
test_success_when_method_failed(Fixture *f, gconstpointer data)
{
	/* MAY_CONT with decision FAIL: EAP-Success means failure. */
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "m");
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 0);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_nonnull(strstr(f->fail_error->message, "does not accept"));
}

static void
test_success_after_identity_only(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 1, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 0);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_nonnull(strstr(f->fail_error->message, "before any authentication method ran"));
}

static void
test_failure_after_identity(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 1, 0, NULL);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_IDENTITY);
	g_assert_cmpstr(f->fail_error->message, ==,
	                "The authenticator rejected the identity \"alice\".");
}

static void
test_unconditional_success(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "u");
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
	g_assert_cmpuint(f->failed, ==, 0);
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
}

static void
test_result_before_conversation(Fixture *f, gconstpointer data)
{
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 0, 0, NULL);
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 0, 0, NULL);
	g_assert_cmpuint(f->succeeded + f->failed, ==, 0);
	assert_state(f, JOIND_EAP_STATE_IDLE);
}

/* ---- out of order, discards, method failures ---- */

static void
test_out_of_order(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "c");
	/* Another method while TESTA runs: discarded, not Nak'ed. */
	rx_req(f, 3, TYPE_B, "c");
	g_assert_cmpuint(f->sent->len, ==, 2);
	/* Nak and type 0 are not Request types. */
	rx_req(f, 3, JOIND_EAP_TYPE_NAK, "c");
	{
		const guint8 type0[] = {JOIND_EAP_CODE_REQUEST, 3, 0, 6, 0, 'c'};
		g_assert_true(joind_eap_session_rx(f->session, type0, sizeof(type0), NULL));
	}
	g_assert_cmpuint(f->sent->len, ==, 2);
	/* Responses are not for a peer. */
	rx_packet(f, JOIND_EAP_CODE_RESPONSE, 3, TYPE_A, "c");
	g_assert_cmpuint(f->sent->len, ==, 2);
	rx_req(f, 3, TYPE_A, "d");
	g_assert_cmpuint(f->sent->len, ==, 3);
	/* After DONE the method takes no more Requests. */
	rx_req(f, 4, TYPE_A, "c");
	g_assert_cmpuint(f->sent->len, ==, 3);
	g_assert_cmpuint(method_calls, ==, 2);
}

static void
test_method_discard(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "x");
	g_assert_cmpuint(f->sent->len, ==, 1);
	assert_state(f, JOIND_EAP_STATE_METHOD);
	/* Not a duplicate: nothing was sent for id 2. */
	rx_req(f, 2, TYPE_A, "d");
	assert_sent(f, 1, 2, TYPE_A, "d", 1);
}

static void
test_method_fail(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "f");
	assert_sent(f, 1, 2, TYPE_A, "F", 1);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_METHOD);
	g_assert_cmpstr(f->fail_error->message, ==, "test failure");
	/* The EAP-Failure that follows changes nothing. */
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
	g_assert_cmpuint(f->failed, ==, 1);
	/* Nor does a non-Identity Request. */
	rx_req(f, 3, TYPE_A, "d");
	g_assert_cmpuint(f->sent->len, ==, 2);
}

static void
test_malformed(Fixture *f, gconstpointer data)
{
	const guint8 truncated[] = {1, 5, 0, 20, 1, 'x'};
	g_autoptr(GError) error = NULL;

	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_false(joind_eap_session_rx(f->session, truncated, sizeof(truncated), &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	g_assert_cmpuint(f->sent->len, ==, 1);
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
}

/* ---- restarts ---- */

static void
test_reauthentication(Fixture *f, gconstpointer data)
{
	gsize len = 0;

	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "d");
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
	/* Same id as the last Response: not a new conversation. */
	rx_req(f, 2, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->started, ==, 1);
	rx_req(f, 7, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->started, ==, 2);
	assert_sent(f, 2, 7, JOIND_EAP_TYPE_IDENTITY, "alice", 5);
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
	g_assert_null(joind_eap_session_get_msk(f->session, &len));
	g_assert_null(joind_eap_session_get_method_name(f->session));
	rx_req(f, 8, TYPE_A, "d");
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 8, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 2);
}

static void
test_identity_during_method(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "c");
	rx_req(f, 3, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->started, ==, 2);
	g_assert_cmpuint(states_alive, ==, 0);
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
	/* After a failure too. */
	rx_req(f, 4, TYPE_A, "f");
	g_assert_cmpuint(f->failed, ==, 1);
	rx_req(f, 5, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->started, ==, 3);
}

static void
test_reset(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "c");
	joind_eap_session_reset(f->session);
	assert_state(f, JOIND_EAP_STATE_IDLE);
	g_assert_cmpuint(states_alive, ==, 0);
	/* id 1 is no duplicate any more. */
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->started, ==, 2);
}

static void
test_unref_in_callback(Fixture *f, gconstpointer data)
{
	f->unref_on_result = TRUE;
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "m");
	rx_packet(f, JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
	g_assert_null(f->session);
	g_assert_cmpuint(states_alive, ==, 0);
}

/* ---- secrets from the agent ---- */

static void
test_agent_identity(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->agent_requests, ==, 1);
	g_assert_cmpint(f->agent_kind, ==, JOIND_SECRET_USER_NAME_AND_PASSWORD);
	assert_state(f, JOIND_EAP_STATE_PAUSED);
	g_assert_cmpuint(f->sent->len, ==, 0);
	/* The authenticator retransmits while the person types. */
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->sent->len, ==, 0);
	g_assert_cmpuint(f->agent_requests, ==, 1);
	agent_answer(f, "bob", "hunter2");
	assert_sent(f, 0, 1, JOIND_EAP_TYPE_IDENTITY, "bob", 3);
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
	/* The password came along: no second question. */
	rx_req(f, 2, TYPE_A, "p");
	assert_sent(f, 1, 2, TYPE_A, "hunter2", 7);
	g_assert_cmpuint(f->agent_requests, ==, 1);
	/* Kept across a re-authentication, until forgotten. */
	rx_req(f, 3, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 4, TYPE_A, "p");
	g_assert_cmpuint(f->agent_requests, ==, 1);
	joind_eap_session_forget_secret(f->session, "Password");
	joind_eap_session_reset(f->session);
	rx_req(f, 5, JOIND_EAP_TYPE_IDENTITY, "");
	assert_sent(f, 4, 5, JOIND_EAP_TYPE_IDENTITY, "bob", 3);
	rx_req(f, 6, TYPE_A, "p");
	g_assert_cmpuint(f->agent_requests, ==, 2);
	g_assert_cmpint(f->agent_kind, ==, JOIND_SECRET_USER_PASSWORD);
	g_assert_cmpstr(f->agent_user, ==, "bob");
	agent_answer(f, NULL, "correct");
	assert_sent(f, 5, 6, TYPE_A, "correct", 7);
}

static void
test_agent_password(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "p");
	g_assert_cmpuint(f->agent_requests, ==, 1);
	g_assert_cmpint(f->agent_kind, ==, JOIND_SECRET_USER_PASSWORD);
	g_assert_cmpstr(f->agent_user, ==, "alice");
	assert_state(f, JOIND_EAP_STATE_PAUSED);
	/* No Success while the method waits. */
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded + f->failed, ==, 0);
	agent_answer(f, NULL, "s3cret");
	/* The request ran again, now with the secret. */
	g_assert_cmpuint(method_calls, ==, 2);
	assert_sent(f, 1, 2, TYPE_A, "s3cret", 6);
	assert_state(f, JOIND_EAP_STATE_METHOD);
	rx_packet(f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f->succeeded, ==, 1);
}

static void
test_no_agent(Fixture *f, gconstpointer data)
{
	f->has_agent = FALSE;
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "p");
	g_assert_cmpuint(f->agent_requests, ==, 0);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_METHOD);
	g_assert_error(f->fail_error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	g_assert_cmpstr(f->fail_error->message, ==,
	                "EAP-TESTA needs a password ((settings): EAP-Password is not set) and no "
	                "agent is registered to ask for it");
}

static void
test_no_agent_identity(Fixture *f, gconstpointer data)
{
	f->has_agent = FALSE;
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_IDENTITY);
	g_assert_error(f->fail_error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
}

static void
test_agent_cancelled(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "p");
	agent_refuse(f, JOIND_ERROR_ABORTED);
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpint(f->fail_stage, ==, JOIND_EAP_STAGE_METHOD);
	g_assert_error(f->fail_error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	g_assert_nonnull(strstr(f->fail_error->message, "cancelled"));
}

static void
test_agent_gone(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "p");
	agent_refuse(f, JOIND_ERROR_NO_AGENT);
	g_assert_error(f->fail_error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
}

static void
test_unref_while_asking(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "p");
	g_clear_pointer(&f->session, joind_eap_session_unref);
	g_assert_cmpuint(states_alive, ==, 0);
	g_assert_true(g_cancellable_is_cancelled(g_task_get_cancellable(f->agent_task)));
	agent_answer(f, NULL, "late");
	g_assert_cmpuint(f->failed + f->succeeded, ==, 0);
	g_assert_cmpuint(f->sent->len, ==, 1);
}

static void
test_identity_while_paused(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "p");
	/* The authenticator timed out and starts over; the question stays. */
	rx_req(f, 9, JOIND_EAP_TYPE_IDENTITY, "");
	g_assert_cmpuint(f->started, ==, 2);
	assert_state(f, JOIND_EAP_STATE_IDENTITY);
	rx_req(f, 10, TYPE_A, "p");
	assert_state(f, JOIND_EAP_STATE_PAUSED);
	g_assert_cmpuint(f->agent_requests, ==, 1);
	agent_answer(f, NULL, "pw");
	assert_sent(f, 2, 10, TYPE_A, "pw", 2);
}

static void
test_method_reply_later(Fixture *f, gconstpointer data)
{
	rx_req(f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(f, 2, TYPE_A, "a");
	assert_state(f, JOIND_EAP_STATE_PAUSED);
	g_assert_cmpuint(f->agent_requests, ==, 0);
	rx_req(f, 2, TYPE_A, "a");
	rx_req(f, 3, TYPE_A, "a");
	g_assert_cmpuint(f->sent->len, ==, 1);
	joind_eap_session_method_reply(f->session, (const guint8 *)"late", 4);
	assert_sent(f, 1, 2, TYPE_A, "late", 4);
	assert_state(f, JOIND_EAP_STATE_METHOD);
	rx_req(f, 3, TYPE_A, "a");
	{
		g_autoptr(GError) error =
		        g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED, "inner gave up");
		joind_eap_session_method_fail(f->session, error);
	}
	g_assert_cmpuint(f->failed, ==, 1);
	g_assert_cmpstr(f->fail_error->message, ==, "inner gave up");
}

/* ---- inner sessions ---- */

typedef struct {
	GPtrArray *sent;
	guint succeeded, failed;
	GError *error;
} InnerSink;

static void
inner_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	InnerSink *sink = data;

	g_ptr_array_add(sink->sent, g_bytes_new(packet, len));
}

static void
inner_succeeded(JoindEapSession *s, gpointer data)
{
	((InnerSink *)data)->succeeded++;
}

static void
inner_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	InnerSink *sink = data;

	sink->failed++;
	g_clear_error(&sink->error);
	sink->error = g_error_copy(error);
}

static const JoindEapSessionCallbacks inner_callbacks = {
        .send = inner_send,
        .succeeded = inner_succeeded,
        .failed = inner_failed,
};

static void
inner_rx(JoindEapSession *inner, guint8 code, guint8 id, guint8 type, const gchar *data)
{
	g_autoptr(GByteArray) p = joind_eap_packet_build(code, id, type, (const guint8 *)data,
	                                                 data != NULL ? strlen(data) : 0, NULL);

	g_assert_true(joind_eap_session_rx(inner, p->data, p->len, NULL));
}

static void
test_inner(Fixture *f, gconstpointer data)
{
	InnerSink sink = {g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref), 0, 0,
	                  NULL};
	JoindEapSession *inner =
	        joind_eap_session_new_inner(f->session, "EAP-T-Phase2-", &inner_callbacks, &sink);
	const guint8 want_id[] = {2, 1, 0, 10, 1, 'i', 'n', 'n', 'e', 'r'};
	const guint8 want_pw[] = {2, 2, 0, 7, TYPE_I, 'i', 'p'};
	GBytes *got;
	gsize len = 0;

	g_assert_cmpstr(joind_eap_session_get_prefix(inner), ==, "EAP-T-Phase2-");
	g_assert_true(joind_eap_session_check(inner, NULL));
	inner_rx(inner, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	got = g_ptr_array_index(sink.sent, 0);
	g_assert_cmpmem(g_bytes_get_data(got, NULL), g_bytes_get_size(got), want_id,
	                sizeof(want_id));
	/* The inner method's password comes from the inner keys. */
	inner_rx(inner, JOIND_EAP_CODE_REQUEST, 2, TYPE_I, "p");
	got = g_ptr_array_index(sink.sent, 1);
	g_assert_cmpmem(g_bytes_get_data(got, NULL), g_bytes_get_size(got), want_pw,
	                sizeof(want_pw));
	/* A tunnel synthesises the inner Success. */
	inner_rx(inner, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(sink.succeeded, ==, 1);
	g_assert_null(joind_eap_session_get_msk(inner, &len));
	/* The outer session is untouched. */
	assert_state(f, JOIND_EAP_STATE_IDLE);
	g_assert_cmpuint(f->sent->len, ==, 0);
	joind_eap_session_unref(inner);
	g_ptr_array_unref(sink.sent);
}

static void
test_inner_outer_only_method(Fixture *f, gconstpointer data)
{
	InnerSink sink = {g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref), 0, 0,
	                  NULL};
	JoindEapSession *inner =
	        joind_eap_session_new_inner(f->session, "EAP-B-Phase2-", &inner_callbacks, &sink);
	g_autoptr(GError) error = NULL;

	g_assert_false(joind_eap_session_check(inner, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "cannot be used inside a tunnel"));
	inner_rx(inner, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	g_assert_cmpuint(sink.failed, ==, 1);
	g_assert_error(sink.error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_cmpuint(sink.sent->len, ==, 0);
	g_clear_error(&sink.error);
	joind_eap_session_unref(inner);
	g_ptr_array_unref(sink.sent);
}

static void
test_inner_agent(Fixture *f, gconstpointer data)
{
	InnerSink sink = {g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref), 0, 0,
	                  NULL};
	JoindEapSession *inner =
	        joind_eap_session_new_inner(f->session, "EAP-N-Phase2-", &inner_callbacks, &sink);

	inner_rx(inner, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	g_assert_cmpint(f->agent_kind, ==, JOIND_SECRET_USER_NAME_AND_PASSWORD);
	g_assert_cmpuint(sink.sent->len, ==, 0);
	agent_answer(f, "carol", "pw");
	g_assert_cmpuint(sink.sent->len, ==, 1);
	/* Cached under the inner keys only. */
	g_assert_null(joind_eap_session_lookup_agent_identity(f->session));
	joind_eap_session_unref(inner);
	g_ptr_array_unref(sink.sent);
}

/* ---- profile checks and the registry ---- */

static void
test_check(void)
{
	Fixture f = {0};
	const struct {
		const gchar *security, *message;
	} cases[] = {
	        {"EAP-Identity=x", "(settings): EAP-Method is missing"},
	        {"EAP-Method= ", "(settings): EAP-Method is missing"},
	        {"EAP-Method=,", "EAP-Method is empty"},
	        {"EAP-Method=FOO", "EAP method FOO is not available"},
	        {"EAP-Method=TESTI", "cannot be used outside a tunnel"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(JoindEapSession) s = session_new(&f, cases[i].security);
		g_autoptr(GError) error = NULL;

		g_assert_false(joind_eap_session_check(s, &error));
		g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
		if (strstr(error->message, cases[i].message) == NULL)
			g_error("\"%s\" lacks \"%s\"", error->message, cases[i].message);
	}
	{
		g_autoptr(JoindEapSession) s = session_new(&f, "EAP-Method=testa; TESTB");
		g_assert_true(joind_eap_session_check(s, NULL));
	}
}

static void
test_registry(void)
{
	static const JoindEapMethodOps dup_name = {.type = 249,
	                                           .name = "testa",
	                                           .state_new = test_state_new,
	                                           .state_free = test_state_free,
	                                           .handle_request = test_handle};
	static const JoindEapMethodOps dup_type = {.type = TYPE_A,
	                                           .name = "OTHER",
	                                           .state_new = test_state_new,
	                                           .state_free = test_state_free,
	                                           .handle_request = test_handle};
	static const JoindEapMethodOps bad_type = {.type = JOIND_EAP_TYPE_NOTIFICATION,
	                                           .name = "BAD",
	                                           .state_new = test_state_new,
	                                           .state_free = test_state_free,
	                                           .handle_request = test_handle};
	g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;

	g_assert_false(joind_eap_register_method(&dup_name, &e1));
	g_assert_error(e1, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_assert_false(joind_eap_register_method(&dup_type, &e2));
	g_assert_error(e2, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_assert_false(joind_eap_register_method(&bad_type, &e3));
	g_assert_error(e3, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_true(joind_eap_find_method("testb") == &method_b);
	g_assert_true(joind_eap_find_method_by_type(TYPE_I) == &method_i);
	g_assert_null(joind_eap_find_method_by_type(JOIND_EAP_TYPE_MD5));
}

static void
test_settings(void)
{
	Fixture f = {0};
	g_autoptr(JoindEapSession) s =
	        session_new(&f, "EAP-Method=TESTA\nEAP-TLS-CACert=ca.pem\nEAP-Abs=/etc/x\n"
	                        "EAP-Flag=true\nEAP-Bad=maybe");

	g_assert_cmpstr(joind_eap_session_get_setting(s, "Missing"), ==, NULL);
	g_assert_true(joind_eap_session_get_setting_bool(s, "Flag", FALSE));
	g_assert_true(joind_eap_session_get_setting_bool(s, "Missing", TRUE));
	g_test_expect_message("joind-eap", G_LOG_LEVEL_WARNING, "*EAP-Bad=maybe*");
	g_assert_false(joind_eap_session_get_setting_bool(s, "Bad", FALSE));
	g_test_assert_expected_messages();
	{
		g_autofree gchar *abs = joind_eap_session_get_setting_path(s, "Abs");
		g_autofree gchar *rel = joind_eap_session_get_setting_path(s, "TLS-CACert");
		g_assert_cmpstr(abs, ==, "/etc/x");
		g_assert_cmpstr(rel, ==, "./ca.pem");
	}
}

/* A session on a real profile file: sentences name the file and line,
 * relative paths resolve against the file's directory, and without a core
 * there is no agent to ask. */
static void
test_profile_file(void)
{
	g_autofree gchar *dir = g_dir_make_tmp("joind-eap-XXXXXX", NULL);
	g_autofree gchar *path = g_build_filename(dir, "port.8021x", NULL);
	g_autofree gchar *want_ca = g_build_filename(dir, "certs", "ca.pem", NULL);
	g_autofree gchar *where = NULL;
	g_autofree gchar *ca = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(JoindEapSession) s = NULL;
	g_autoptr(GError) error = NULL;
	const guint8 identity[] = {1, 1, 0, 5, 1};
	const guint8 challenge[] = {1, 2, 0, 6, TYPE_A, 'p'};
	Fixture f = {0};

	g_assert_true(g_file_set_contents(path,
	                                  "[Match]\nInterface=eth*\n\n[Security]\n"
	                                  "EAP-Method=TESTA\nEAP-Identity=alice\n"
	                                  "EAP-TLS-CACert=certs/ca.pem\n",
	                                  -1, NULL));
	profile = joind_profile_load(path, JOIND_PROFILE_TYPE_WIRED, NULL, &error);
	g_assert_no_error(error);
	f.sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	s = joind_eap_session_new(NULL, profile, "/net/joind/device/7", &callbacks, &f);
	g_assert_true(joind_eap_session_check(s, NULL));
	where = joind_eap_session_describe_setting(s, "Identity");
	g_assert_true(g_str_has_suffix(where, "port.8021x:6: EAP-Identity"));
	ca = joind_eap_session_get_setting_path(s, "TLS-CACert");
	g_assert_cmpstr(ca, ==, want_ca);
	g_assert_true(joind_eap_session_rx(s, identity, sizeof(identity), NULL));
	g_assert_cmpstr(joind_eap_session_get_identity(s), ==, "alice");
	g_assert_true(joind_eap_session_rx(s, challenge, sizeof(challenge), NULL));
	g_assert_cmpuint(f.failed, ==, 1);
	g_assert_error(f.fail_error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	g_assert_nonnull(strstr(f.fail_error->message, "port.8021x: EAP-Password is not set"));
	g_clear_pointer(&s, joind_eap_session_unref);
	g_assert_cmpuint(states_alive, ==, 0);
	g_ptr_array_unref(f.sent);
	g_clear_error(&f.fail_error);
	g_free(f.started_identity);
	g_free(f.selected_method);
	g_unlink(path);
	g_rmdir(dir);
}

static JoindProfile *
wired_profile(const gchar *match, const gchar *security)
{
	g_autofree gchar *text =
	        g_strdup_printf("[Match]\nInterface=%s\n[Security]\n%s\n", match, security);
	g_autoptr(GError) error = NULL;
	JoindProfile *p =
	        joind_profile_parse("/var/lib/joind/wired/port.8021x", JOIND_PROFILE_TYPE_WIRED,
	                            NULL, (const guint8 *)text, strlen(text), &error);

	g_assert_no_error(error);
	return p;
}

/* A newer snapshot of the profile that only adds what the agent supplied
 * (EAP-RememberCredentials wrote it back) is taken over by the session;
 * one that differs otherwise, or holds another value, is not. */
static void
test_adopt_profile(void)
{
	g_autoptr(JoindProfile) p1 = wired_profile("eth*", PROFILE_A);
	g_autoptr(JoindProfile) same_pw = wired_profile("eth*", PROFILE_A "\nEAP-Password=s3cret");
	g_autoptr(JoindProfile) other_pw = wired_profile("eth*", PROFILE_A "\nEAP-Password=nope");
	g_autoptr(JoindProfile) other_match =
	        wired_profile("en*", PROFILE_A "\nEAP-Password=s3cret");
	g_autoptr(JoindProfile) more = wired_profile("eth*", PROFILE_A "\nEAP-Password=s3cret\n"
	                                                               "EAP-TLS-CACert=/ca.pem");
	g_autofree gchar *pw = NULL;
	Fixture f = {.has_agent = TRUE};

	f.sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	f.session = joind_eap_session_new(NULL, p1, "/net/joind/device/7", &callbacks, &f);
	joind_eap_session_set_secret_provider(f.session, &fake_agent, &f);
	/* Before the agent answered, nothing can be adopted. */
	g_assert_false(joind_eap_session_adopt_profile(f.session, same_pw));
	rx_req(&f, 1, JOIND_EAP_TYPE_IDENTITY, "");
	rx_req(&f, 2, TYPE_A, "p");
	agent_answer(&f, NULL, "s3cret");
	rx_packet(&f, JOIND_EAP_CODE_SUCCESS, 2, 0, NULL);
	g_assert_cmpuint(f.succeeded, ==, 1);

	g_assert_true(joind_eap_session_adopt_profile(f.session, p1));
	g_assert_false(joind_eap_session_adopt_profile(f.session, other_pw));
	g_assert_false(joind_eap_session_adopt_profile(f.session, other_match));
	g_assert_false(joind_eap_session_adopt_profile(f.session, more));
	g_assert_true(joind_eap_session_adopt_profile(f.session, same_pw));
	pw = joind_eap_session_get_setting(f.session, "Password");
	g_assert_cmpstr(pw, ==, "s3cret");
	/* The value is the profile's now, not the agent's: a file that then
	 * drops it is a real change. */
	g_assert_false(joind_eap_session_adopt_profile(f.session, p1));
	g_assert_cmpuint(f.agent_requests, ==, 1);

	g_clear_pointer(&f.session, joind_eap_session_unref);
	g_assert_cmpuint(states_alive, ==, 0);
	g_ptr_array_unref(f.sent);
	g_free(f.started_identity);
	g_free(f.selected_method);
	g_free(f.agent_user);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&method_a, NULL));
	g_assert_true(joind_eap_register_method(&method_b, NULL));
	g_assert_true(joind_eap_register_method(&method_i, NULL));

#define ADD(path, profile, fn) \
	g_test_add("/eap/peer/" path, Fixture, profile, fixture_setup, fn, fixture_teardown)
	ADD("identity", PROFILE_A, test_identity);
	ADD("duplicate", PROFILE_A, test_duplicate);
	ADD("notification", PROFILE_A, test_notification);
	ADD("nak", PROFILE_AB, test_nak);
	ADD("nak-then-method", PROFILE_AB, test_nak_then_method);
	ADD("method-without-identity", PROFILE_A, test_method_without_identity);
	ADD("success-keys", PROFILE_A, test_success_keys);
	ADD("success-wrong-id", PROFILE_A, test_success_wrong_id);
	ADD("result-while-method-continues", PROFILE_A, test_result_while_method_continues);
	ADD("failure-may-cont", PROFILE_A, test_failure_may_cont);
	ADD("success-when-method-failed", PROFILE_A, test_success_when_method_failed);
	ADD("success-after-identity-only", PROFILE_A, test_success_after_identity_only);
	ADD("failure-after-identity", PROFILE_A, test_failure_after_identity);
	ADD("unconditional-success", PROFILE_A, test_unconditional_success);
	ADD("result-before-conversation", PROFILE_A, test_result_before_conversation);
	ADD("out-of-order", PROFILE_AB, test_out_of_order);
	ADD("method-discard", PROFILE_A, test_method_discard);
	ADD("method-fail", PROFILE_A, test_method_fail);
	ADD("malformed", PROFILE_A, test_malformed);
	ADD("reauthentication", PROFILE_A, test_reauthentication);
	ADD("identity-during-method", PROFILE_A, test_identity_during_method);
	ADD("reset", PROFILE_A, test_reset);
	ADD("unref-in-callback", PROFILE_A, test_unref_in_callback);
	ADD("agent-identity", PROFILE_NOID, test_agent_identity);
	ADD("agent-password", PROFILE_A, test_agent_password);
	ADD("no-agent", PROFILE_A, test_no_agent);
	ADD("no-agent-identity", PROFILE_NOID, test_no_agent_identity);
	ADD("agent-cancelled", PROFILE_A, test_agent_cancelled);
	ADD("agent-gone", PROFILE_A, test_agent_gone);
	ADD("unref-while-asking", PROFILE_A, test_unref_while_asking);
	ADD("identity-while-paused", PROFILE_A, test_identity_while_paused);
	ADD("method-reply-later", PROFILE_A, test_method_reply_later);
	ADD("inner",
	    PROFILE_A "\nEAP-T-Phase2-Method=TESTI\nEAP-T-Phase2-Identity=inner\n"
	              "EAP-T-Phase2-Password=ip",
	    test_inner);
	ADD("inner-outer-only-method", PROFILE_A "\nEAP-B-Phase2-Method=TESTB",
	    test_inner_outer_only_method);
	ADD("inner-agent", PROFILE_A "\nEAP-N-Phase2-Method=TESTA", test_inner_agent);
#undef ADD
	g_test_add_func("/eap/peer/check", test_check);
	g_test_add_func("/eap/peer/registry", test_registry);
	g_test_add_func("/eap/peer/settings", test_settings);
	g_test_add_func("/eap/peer/profile-file", test_profile_file);
	g_test_add_func("/eap/peer/adopt-profile", test_adopt_profile);
	return g_test_run();
}
