/* test-eap-md5.c - EAP-MD5 through a session: the response value (checked
 * against Python's hashlib), malformed challenges, success and failure. */
#include <string.h>

#include "eap-md5.h"
#include "joind-eap-private.h"
#include "joind-error.h"

typedef struct {
	GPtrArray *sent;
	guint succeeded, failed;
	gchar *error;
} Sink;

static void
sink_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	g_ptr_array_add(((Sink *)data)->sent, g_bytes_new(packet, len));
}

static void
sink_succeeded(JoindEapSession *s, gpointer data)
{
	((Sink *)data)->succeeded++;
}

static void
sink_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	Sink *sink = data;

	sink->failed++;
	g_free(sink->error);
	sink->error = g_strdup(error->message);
}

static const JoindEapSessionCallbacks sink_callbacks = {
        .send = sink_send, .succeeded = sink_succeeded, .failed = sink_failed};

static JoindEapSession *
md5_session(Sink *sink, const gchar *password)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();

	g_key_file_set_string(kf, "Security", "EAP-Method", "MD5");
	g_key_file_set_string(kf, "Security", "EAP-Identity", "md5user");
	if (password != NULL)
		g_key_file_set_string(kf, "Security", "EAP-Password", password);
	sink->sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	return joind_eap_session_new_for_keyfile(kf, &sink_callbacks, sink);
}

static void
sink_clear(Sink *sink)
{
	g_ptr_array_unref(sink->sent);
	g_free(sink->error);
}

static void
rx(JoindEapSession *s, const guint8 *packet, gsize len)
{
	g_assert_true(joind_eap_session_rx(s, packet, len, NULL));
}

static void
test_vector(void)
{
	guint8 out[16];
	const guint8 challenge[] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
	const guint8 want[] = {0x0a, 0x47, 0x82, 0xd4, 0x51, 0x53, 0x8d, 0x04,
	                       0xd9, 0x47, 0xda, 0x84, 0x68, 0x66, 0x4e, 0x65};

	g_assert_true(eap_md5_compute(0x2a, "password", challenge, sizeof(challenge), out, NULL));
	g_assert_cmpmem(out, sizeof(out), want, sizeof(want));
}

static void
test_conversation(void)
{
	Sink sink = {0};
	g_autoptr(JoindEapSession) s = md5_session(&sink, "md5pass");
	const guint8 identity[] = {1, 1, 0, 5, 1};
	guint8 challenge[4 + 1 + 1 + 16 + 4] = {1, 2, 0, sizeof(challenge), 4, 16};
	const guint8 want[] = {2,    2,    0,    22,   4,    16,   0x9f, 0xe5, 0x0e, 0x2a, 0x1a,
	                       0xda, 0x47, 0x28, 0x21, 0x51, 0x60, 0x6c, 0x41, 0x5a, 0xcf, 0xf8};
	const guint8 success[] = {3, 2, 0, 4};
	GBytes *got;

	for (guint i = 0; i < 16; i++)
		challenge[6 + i] = (guint8)i;
	memcpy(challenge + 22, "name", 4);
	rx(s, identity, sizeof(identity));
	rx(s, challenge, sizeof(challenge));
	g_assert_cmpuint(sink.sent->len, ==, 2);
	got = g_ptr_array_index(sink.sent, 1);
	g_assert_cmpmem(g_bytes_get_data(got, NULL), g_bytes_get_size(got), want, sizeof(want));
	rx(s, success, sizeof(success));
	g_assert_cmpuint(sink.succeeded, ==, 1);
	sink_clear(&sink);
}

static void
test_rejected(void)
{
	Sink sink = {0};
	g_autoptr(JoindEapSession) s = md5_session(&sink, "wrong");
	const guint8 identity[] = {1, 1, 0, 5, 1};
	const guint8 challenge[] = {1, 2, 0, 8, 4, 2, 0xaa, 0xbb};
	const guint8 failure[] = {4, 2, 0, 4};

	rx(s, identity, sizeof(identity));
	rx(s, challenge, sizeof(challenge));
	rx(s, failure, sizeof(failure));
	g_assert_cmpuint(sink.failed, ==, 1);
	g_assert_cmpstr(sink.error, ==,
	                "The authenticator rejected the EAP-MD5 authentication of \"md5user\".");
	sink_clear(&sink);
}

static void
test_malformed(void)
{
	const guint8 bad[][8] = {
	        {1, 2, 0, 5, 4},          /* no Value-Size */
	        {1, 2, 0, 6, 4, 0},       /* Value-Size 0 */
	        {1, 2, 0, 8, 4, 3, 1, 2}, /* Value-Size beyond the data */
	        {1, 2, 0, 7, 4, 255, 1},  /* far beyond */
	};
	const gsize lens[] = {5, 6, 8, 7};

	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		Sink sink = {0};
		g_autoptr(JoindEapSession) s = md5_session(&sink, "pw");
		const guint8 identity[] = {1, 1, 0, 5, 1};
		const guint8 good[] = {1, 2, 0, 7, 4, 1, 9};

		rx(s, identity, sizeof(identity));
		rx(s, bad[i], lens[i]);
		/* Discarded: nothing sent, still waiting for a proper challenge. */
		g_assert_cmpuint(sink.sent->len, ==, 1);
		g_assert_cmpuint(sink.failed, ==, 0);
		rx(s, good, sizeof(good));
		g_assert_cmpuint(sink.sent->len, ==, 2);
		sink_clear(&sink);
	}
}

static void
test_no_password(void)
{
	Sink sink = {0};
	g_autoptr(JoindEapSession) s = md5_session(&sink, NULL);
	const guint8 identity[] = {1, 1, 0, 5, 1};
	const guint8 challenge[] = {1, 2, 0, 7, 4, 1, 9};

	rx(s, identity, sizeof(identity));
	rx(s, challenge, sizeof(challenge));
	g_assert_cmpuint(sink.failed, ==, 1);
	g_assert_nonnull(strstr(sink.error, "EAP-MD5 needs a password"));
	sink_clear(&sink);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_md5_ops, NULL));
	g_test_add_func("/eap/md5/vector", test_vector);
	g_test_add_func("/eap/md5/conversation", test_conversation);
	g_test_add_func("/eap/md5/rejected", test_rejected);
	g_test_add_func("/eap/md5/malformed", test_malformed);
	g_test_add_func("/eap/md5/no-password", test_no_password);
	return g_test_run();
}
