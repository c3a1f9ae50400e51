/* eap-test-peer.c - a real EAP session around one method, for unit tests. */
#include "eap-test-peer.h"

#include <string.h>

static void
peer_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	EapTestPeer *peer = data;

	g_ptr_array_add(peer->sent, g_bytes_new(packet, len));
}

static void
peer_succeeded(JoindEapSession *s, gpointer data)
{
	EapTestPeer *peer = data;

	peer->succeeded = TRUE;
}

static void
peer_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	EapTestPeer *peer = data;

	g_assert_false(peer->failed);
	peer->failed = TRUE;
	peer->failed_stage = stage;
	peer->error = g_error_copy(error);
	g_test_message("failed (%s): %s", joind_eap_stage_to_string(stage), error->message);
}

static const JoindEapSessionCallbacks peer_callbacks = {
        .send = peer_send,
        .succeeded = peer_succeeded,
        .failed = peer_failed,
};

static void
agent_request(gpointer data, JoindSecretKind kind, const gchar *object_path, const gchar *user,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	EapTestPeer *peer = data;

	g_assert_null(peer->agent_task);
	peer->agent_questions++;
	peer->agent_kind = kind;
	peer->agent_task = g_task_new(NULL, cancellable, callback, user_data);
}

static JoindSecret *
agent_finish(gpointer data, GAsyncResult *result, GError **error)
{
	return g_task_propagate_pointer(G_TASK(result), error);
}

static gboolean
agent_has(gpointer data)
{
	EapTestPeer *peer = data;

	return peer->has_agent;
}

static const JoindEapSecretProvider fake_agent = {
        .request = agent_request,
        .finish = agent_finish,
        .has_agent = agent_has,
};

EapTestPeer *
eap_test_peer_new(const gchar *security)
{
	EapTestPeer *peer = g_new0(EapTestPeer, 1);
	g_autofree gchar *text = g_strdup_printf("[Security]\n%s\n", security);
	g_autoptr(GError) error = NULL;

	peer->keyfile = g_key_file_new();
	g_assert_true(g_key_file_load_from_data(peer->keyfile, text, -1, G_KEY_FILE_NONE, &error));
	g_assert_no_error(error);
	peer->sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	peer->session = joind_eap_session_new_for_keyfile(peer->keyfile, &peer_callbacks, peer);
	joind_eap_session_set_secret_provider(peer->session, &fake_agent, peer);
	peer->next_id = 1;
	return peer;
}

static void
drain(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

void
eap_test_peer_free(EapTestPeer *peer)
{
	joind_eap_session_unref(peer->session);
	if (peer->agent_task != NULL) {
		g_task_return_new_error(peer->agent_task, JOIND_ERROR, JOIND_ERROR_ABORTED, "gone");
		g_clear_object(&peer->agent_task);
	}
	drain();
	g_key_file_unref(peer->keyfile);
	g_ptr_array_unref(peer->sent);
	g_clear_error(&peer->error);
	g_free(peer);
}

guint8
eap_test_peer_request(EapTestPeer *peer, guint8 type, const void *data, gsize len)
{
	g_autoptr(GByteArray) p = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	guint8 id = peer->next_id++;
	guint8 header[5] = {JOIND_EAP_CODE_REQUEST, id, (guint8)((len + 5) >> 8),
	                    (guint8)((len + 5) & 0xff), type};

	g_byte_array_append(p, header, sizeof(header));
	if (len > 0)
		g_byte_array_append(p, data, (guint)len);
	g_assert_true(joind_eap_session_rx(peer->session, p->data, p->len, &error));
	g_assert_no_error(error);
	return id;
}

void
eap_test_peer_identity(EapTestPeer *peer)
{
	eap_test_peer_request(peer, JOIND_EAP_TYPE_IDENTITY, NULL, 0);
}

static void
peer_result(EapTestPeer *peer, guint8 code)
{
	g_autoptr(GError) error = NULL;
	guint8 p[4] = {code, (guint8)(peer->next_id - 1), 0, 4};

	g_assert_true(joind_eap_session_rx(peer->session, p, sizeof(p), &error));
	g_assert_no_error(error);
}

void
eap_test_peer_success(EapTestPeer *peer)
{
	peer_result(peer, JOIND_EAP_CODE_SUCCESS);
}

void
eap_test_peer_failure(EapTestPeer *peer)
{
	peer_result(peer, JOIND_EAP_CODE_FAILURE);
}

GBytes *
eap_test_peer_last_response(EapTestPeer *peer, guint8 type)
{
	GBytes *last;
	const guint8 *d;
	gsize len;

	g_assert_cmpuint(peer->sent->len, >, 0);
	last = g_ptr_array_index(peer->sent, peer->sent->len - 1);
	d = g_bytes_get_data(last, &len);
	g_assert_cmpuint(len, >=, 5);
	g_assert_cmpuint(d[0], ==, JOIND_EAP_CODE_RESPONSE);
	g_assert_cmpuint(d[1], ==, (guint8)(peer->next_id - 1));
	g_assert_cmpuint((d[2] << 8) | d[3], ==, len);
	g_assert_cmpuint(d[4], ==, type);
	return g_bytes_new_from_bytes(last, 5, len - 5);
}

void
eap_test_peer_agent_answer(EapTestPeer *peer, const gchar *user, const gchar *secret)
{
	JoindSecret *s = g_new0(JoindSecret, 1);
	GTask *task = g_steal_pointer(&peer->agent_task);

	g_assert_nonnull(task);
	s->user = g_strdup(user);
	s->secret = g_strdup(secret);
	g_task_return_pointer(task, s, (GDestroyNotify)joind_secret_free);
	g_object_unref(task);
	drain();
}

void
eap_test_peer_agent_refuse(EapTestPeer *peer, gint code)
{
	GTask *task = g_steal_pointer(&peer->agent_task);

	g_assert_nonnull(task);
	g_task_return_new_error(task, JOIND_ERROR, code, "refused");
	g_object_unref(task);
	drain();
}

void
eap_test_assert_message(const GError *error, const gchar *fragment)
{
	g_assert_nonnull(error);
	if (strstr(error->message, fragment) == NULL)
		g_error("\"%s\" is not in the message \"%s\"", fragment, error->message);
}
