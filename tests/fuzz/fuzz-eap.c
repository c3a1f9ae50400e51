/* fuzz-eap.c - the EAP peer's receive path: a sequence of packets (each
 * prefixed by a control octet and a 16-bit length) fed to one session with
 * two toy methods and a fake agent, so that every state is reachable.
 * Control octet: bit 0 answer a pending agent question first, bit 1 refuse
 * it, bit 2 reset the session, bit 3 complete a method that went PENDING. */
#include <stdint.h>
#include <string.h>

#include <gio/gio.h>

#include "joind-eap-private.h"
#include "joind-error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static GTask *agent_task;
static guint sent_octets;

static JoindEapMethodResult
fuzz_handle(JoindEapSession *s, gpointer state, guint8 id, const guint8 *data, gsize len,
            GByteArray *response, GError **error)
{
	static const guint8 msk[JOIND_EAP_MSK_LEN];
	const gchar *pw = NULL;

	switch (len > 0 ? data[0] % 8 : 0) {
	case 0:
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_CONT,
		                               JOIND_EAP_DECISION_FAIL);
		break;
	case 1:
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_MAY_CONT,
		                               JOIND_EAP_DECISION_FAIL);
		break;
	case 2:
		joind_eap_session_set_keys(s, msk, sizeof(msk), NULL, 0);
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_COND_SUCC);
		break;
	case 3:
		joind_eap_session_set_decision(s, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_UNCOND_SUCC);
		break;
	case 4:
		switch (joind_eap_session_get_secret(s, "Password", JOIND_SECRET_USER_PASSWORD, &pw,
		                                     error)) {
		case JOIND_EAP_SECRET_PENDING:
			return JOIND_EAP_METHOD_PENDING;
		case JOIND_EAP_SECRET_FAILED:
			return JOIND_EAP_METHOD_FAIL;
		default:
			break;
		}
		break;
	case 5:
		return JOIND_EAP_METHOD_PENDING;
	case 6:
		return JOIND_EAP_METHOD_DISCARD;
	default:
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED, "fuzz failure");
		return JOIND_EAP_METHOD_FAIL;
	}
	g_byte_array_append(response, data, (guint)MIN(len, 64));
	return JOIND_EAP_METHOD_RESPOND;
}

static gpointer
fuzz_state_new(JoindEapSession *s, GError **error)
{
	return g_new0(guint8, 1);
}

static const JoindEapMethodOps fuzz_a = {
        .type = 4,
        .name = "FUZZA",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = fuzz_state_new,
        .state_free = g_free,
        .handle_request = fuzz_handle,
};
static const JoindEapMethodOps fuzz_b = {
        .type = 13,
        .name = "FUZZB",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .state_new = fuzz_state_new,
        .state_free = g_free,
        .handle_request = fuzz_handle,
};

static void
fuzz_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	JoindEapPacket p;

	/* Everything the peer sends must itself parse as a Response. */
	if (!joind_eap_packet_parse(packet, len, &p, NULL) || p.code != JOIND_EAP_CODE_RESPONSE)
		abort();
	sent_octets += (guint)len;
}

static void
fuzz_agent_request(gpointer data, JoindSecretKind kind, const gchar *object_path, const gchar *user,
                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	if (agent_task != NULL)
		abort(); /* one question at a time */
	agent_task = g_task_new(NULL, cancellable, callback, user_data);
}

static JoindSecret *
fuzz_agent_finish(gpointer data, GAsyncResult *result, GError **error)
{
	return g_task_propagate_pointer(G_TASK(result), error);
}

static const JoindEapSecretProvider fuzz_agent = {
        .request = fuzz_agent_request,
        .finish = fuzz_agent_finish,
};

static void
fuzz_agent_complete(gboolean answer)
{
	GTask *task = g_steal_pointer(&agent_task);

	if (task == NULL)
		return;
	if (answer) {
		JoindSecret *secret = g_new0(JoindSecret, 1);
		secret->user = g_strdup("fuzz");
		secret->secret = g_strdup("pw");
		g_task_return_pointer(task, secret, (GDestroyNotify)joind_secret_free);
	} else {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_ABORTED, "no");
	}
	g_object_unref(task);
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void
fuzz_control(JoindEapSession *s, guint8 control)
{
	if (control & 1)
		fuzz_agent_complete(TRUE);
	if (control & 2)
		fuzz_agent_complete(FALSE);
	if (control & 4)
		joind_eap_session_reset(s);
	if ((control & 8) && joind_eap_session_get_state(s) == JOIND_EAP_STATE_PAUSED &&
	    !joind_eap_session_secret_in_flight(s) && s->pause_reason == JOIND_EAP_PAUSE_METHOD)
		joind_eap_session_method_reply(s, (const guint8 *)"late", 4);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const JoindEapSessionCallbacks callbacks = {.send = fuzz_send};
	static gboolean registered;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	JoindEapSession *s;

	if (!registered) {
		joind_eap_register_method(&fuzz_a, NULL);
		joind_eap_register_method(&fuzz_b, NULL);
		registered = TRUE;
	}
	g_key_file_set_string(kf, "Security", "EAP-Method", "FUZZA,FUZZB");
	if (size > 0 && (data[0] & 0x80))
		g_key_file_set_string(kf, "Security", "EAP-Identity", "fuzzer");
	s = joind_eap_session_new_for_keyfile(kf, &callbacks, NULL);
	joind_eap_session_set_secret_provider(s, &fuzz_agent, NULL);

	while (size >= 3) {
		guint8 control = data[0];
		gsize len = MIN((gsize)((data[1] << 8) | data[2]), size - 3);

		fuzz_control(s, control);
		joind_eap_session_rx(s, data + 3, len, NULL);
		data += 3 + len;
		size -= 3 + len;
	}
	joind_eap_session_unref(s);
	/* The dropped question completes against a dead session. */
	fuzz_agent_complete(TRUE);
	return 0;
}
