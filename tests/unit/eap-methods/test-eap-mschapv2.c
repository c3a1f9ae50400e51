/* test-eap-mschapv2.c - EAP-MSCHAPv2 in a real EAP session against a
 * server written here from the same (RFC-vector tested) primitives: success
 * with password and with Password-Hash, wrong authenticator response,
 * Failure codes and retry flag, malformed packets, agent secrets, inner
 * use; plus the packet parsers' malformed cases. */
#include <string.h>

#include <openssl/rand.h>

#include "eap-mschap-crypto.h"
#include "eap-mschapv2-packet.h"
#include "eap-mschapv2.h"
#include "eap-test-peer.h"

#define PASSWORD      "clientPass"
#define PASSWORD_HASH "44EBBA8D5312B8D611474411F56989AE" /* RFC 2759 9.2 */

typedef struct {
	const gchar *user;     /* what the server expects in Name */
	const gchar *password; /* what the server knows */
	guint8 ms_id;
	guint8 challenge[EAP_MSCHAP_CHALLENGE_LEN];
	gchar auth_response[EAP_MSCHAP_AUTH_RESPONSE_LEN + 1];
	guint8 msk[2 * EAP_MSCHAP_SESSION_KEY_LEN];
} TestServer;

static void
server_init(TestServer *srv, const gchar *user, const gchar *password)
{
	memset(srv, 0, sizeof(*srv));
	srv->user = user;
	srv->password = password;
	srv->ms_id = 0x42;
	g_assert_cmpint(RAND_bytes(srv->challenge, sizeof(srv->challenge)), ==, 1);
}

static GByteArray *
server_challenge(TestServer *srv)
{
	static const gchar name[] = "authsrv";
	GByteArray *p = g_byte_array_new();
	gsize len = 4 + 1 + 16 + strlen(name);
	guint8 h[5] = {EAP_MSCHAPV2_OP_CHALLENGE, srv->ms_id, 0, (guint8)len, 16};

	g_byte_array_append(p, h, 5);
	g_byte_array_append(p, srv->challenge, 16);
	g_byte_array_append(p, (const guint8 *)name, (guint)strlen(name));
	return p;
}

/* Checks the peer's Response as a server would, and prepares the
 * authenticator response and the MSK the server would derive. */
static gboolean
server_verify(TestServer *srv, GBytes *response)
{
	g_autoptr(GError) error = NULL;
	gsize len;
	const guint8 *r = g_bytes_get_data(response, &len);
	const gchar *hashed = eap_mschap_strip_domain(srv->user);
	guint8 hash[16], expected[24], master[16];
	static const guint8 zero[8];

	g_assert_cmpuint(len, ==, 4 + 1 + 49 + strlen(srv->user));
	g_assert_cmpuint(r[0], ==, EAP_MSCHAPV2_OP_RESPONSE);
	g_assert_cmpuint(r[1], ==, srv->ms_id);
	g_assert_cmpuint((r[2] << 8) | r[3], ==, len);
	g_assert_cmpuint(r[4], ==, 49);
	g_assert_cmpmem(r + 5 + 16, 8, zero, 8);
	g_assert_cmpuint(r[5 + 48], ==, 0); /* Flags */
	g_assert_cmpmem(r + 54, len - 54, srv->user, strlen(srv->user));
	g_assert_true(eap_mschap_nt_hash(srv->password, hash, &error));
	g_assert_true(
	        eap_mschap_v2_nt_response(srv->challenge, r + 5, hashed, hash, expected, &error));
	if (memcmp(expected, r + 5 + 24, 24) != 0)
		return FALSE;
	g_assert_true(eap_mschap_v2_authenticator_response(hash, r + 5 + 24, r + 5, srv->challenge,
	                                                   hashed, srv->auth_response, &error));
	/* The server's MSK: its receive key, then its send key. */
	g_assert_true(eap_mschap_v2_master_key(hash, r + 5 + 24, master, &error));
	g_assert_true(eap_mschap_v2_asymmetric_start_key(master, FALSE, TRUE, srv->msk, &error));
	g_assert_true(
	        eap_mschap_v2_asymmetric_start_key(master, TRUE, TRUE, srv->msk + 16, &error));
	g_assert_no_error(error);
	return TRUE;
}

static GByteArray *
server_message(guint8 op, guint8 ms_id, const gchar *message)
{
	GByteArray *p = g_byte_array_new();
	gsize len = 4 + strlen(message);
	guint8 h[4] = {op, ms_id, (guint8)(len >> 8), (guint8)len};

	g_byte_array_append(p, h, 4);
	g_byte_array_append(p, (const guint8 *)message, (guint)strlen(message));
	return p;
}

static void
send_mschapv2(EapTestPeer *peer, GByteArray *p)
{
	eap_test_peer_request(peer, JOIND_EAP_TYPE_MSCHAPV2, p->data, p->len);
	g_byte_array_unref(p);
}

static void
assert_ack(EapTestPeer *peer, guint8 op)
{
	g_autoptr(GBytes) r = eap_test_peer_last_response(peer, JOIND_EAP_TYPE_MSCHAPV2);

	g_assert_cmpmem(g_bytes_get_data(r, NULL), g_bytes_get_size(r), &op, 1);
}

/* Runs Identity, Challenge, Response; returns whether the server accepted
 * the NT-Response. */
static gboolean
run_to_response(EapTestPeer *peer, TestServer *srv)
{
	g_autoptr(GBytes) r = NULL;

	eap_test_peer_identity(peer);
	g_assert_cmpstr(joind_eap_session_get_identity(peer->session), ==, srv->user);
	send_mschapv2(peer, server_challenge(srv));
	g_assert_false(peer->failed);
	r = eap_test_peer_last_response(peer, JOIND_EAP_TYPE_MSCHAPV2);
	return server_verify(srv, r);
}

static void
assert_success(EapTestPeer *peer, TestServer *srv)
{
	g_autofree gchar *msg = g_strdup_printf("%s M=welcome", srv->auth_response);
	const guint8 *msk;
	gsize msk_len = 0;
	static const guint8 zero[32];

	send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_SUCCESS, srv->ms_id, msg));
	assert_ack(peer, EAP_MSCHAPV2_OP_SUCCESS);
	g_assert_false(peer->succeeded);
	eap_test_peer_success(peer);
	g_assert_true(peer->succeeded);
	g_assert_false(peer->failed);
	msk = joind_eap_session_get_msk(peer->session, &msk_len);
	g_assert_cmpuint(msk_len, ==, JOIND_EAP_MSK_LEN);
	g_assert_cmpmem(msk, 32, srv->msk, 32);
	g_assert_cmpmem(msk + 32, 32, zero, 32);
}

static void
test_success_password(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=CORP\\alice\n"
	                                                "EAP-Password=" PASSWORD);
	TestServer srv;

	server_init(&srv, "CORP\\alice", PASSWORD);
	g_assert_true(joind_eap_session_check(peer->session, NULL));
	g_assert_true(run_to_response(peer, &srv));
	assert_success(peer, &srv);
	g_assert_cmpuint(peer->agent_questions, ==, 0);
}

static void
test_success_hash(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=bob@example.org\n"
	                                                "EAP-Password-Hash=" PASSWORD_HASH);
	TestServer srv;

	server_init(&srv, "bob@example.org", PASSWORD);
	g_assert_true(run_to_response(peer, &srv));
	assert_success(peer, &srv);
	g_assert_cmpuint(peer->agent_questions, ==, 0);
}

static void
test_wrong_password(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice\n"
	                                                "EAP-Password=wrong");
	TestServer srv;
	gchar hex[33];

	server_init(&srv, "alice", PASSWORD);
	g_assert_false(run_to_response(peer, &srv));
	for (guint i = 0; i < 16; i++)
		g_snprintf(hex + 2 * i, 3, "%02X", srv.challenge[i]);
	{
		g_autofree gchar *msg =
		        g_strdup_printf("E=691 R=0 C=%s V=3 M=Authentication failed", hex);
		send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_FAILURE, srv.ms_id, msg));
	}
	assert_ack(peer, EAP_MSCHAPV2_OP_FAILURE);
	g_assert_false(peer->failed);
	eap_test_peer_failure(peer);
	g_assert_true(peer->failed);
	g_assert_false(peer->succeeded);
	g_assert_cmpint(peer->failed_stage, ==, JOIND_EAP_STAGE_RESULT);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, "user name or password is wrong (E=691)");
	eap_test_assert_message(peer->error, "Authentication failed");
	g_assert_null(joind_eap_session_get_msk(peer->session, NULL));
}

/* The server knows the password but answers with a wrong authenticator
 * response (or one for another password): a rogue server. */
static void
test_wrong_authenticator_response(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice\n"
	                                                "EAP-Password=" PASSWORD);
	TestServer srv;
	guint sent;

	server_init(&srv, "alice", PASSWORD);
	g_assert_true(run_to_response(peer, &srv));
	srv.auth_response[10] = srv.auth_response[10] == 'A' ? 'B' : 'A';
	sent = peer->sent->len;
	send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_SUCCESS, srv.ms_id, srv.auth_response));
	g_assert_true(peer->failed);
	g_assert_cmpuint(peer->sent->len, ==, sent); /* no Success acknowledgement */
	g_assert_cmpint(peer->failed_stage, ==, JOIND_EAP_STAGE_METHOD);
	eap_test_assert_message(peer->error, "authenticator response is wrong");
	/* And the EAP-Success that follows does not turn it into success. */
	eap_test_peer_success(peer);
	g_assert_false(peer->succeeded);
	g_assert_null(joind_eap_session_get_msk(peer->session, NULL));
}

static void
test_authenticator_response_lower_case(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice\n"
	                                                "EAP-Password=" PASSWORD);
	TestServer srv;
	g_autofree gchar *lower = NULL;

	server_init(&srv, "alice", PASSWORD);
	g_assert_true(run_to_response(peer, &srv));
	lower = g_ascii_strdown(srv.auth_response, -1);
	lower[0] = 'S';
	send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_SUCCESS, srv.ms_id, lower));
	assert_ack(peer, EAP_MSCHAPV2_OP_SUCCESS);
	eap_test_peer_success(peer);
	g_assert_true(peer->succeeded);
}

static void
run_failure(const gchar *message, const gchar *const *fragments)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice\n"
	                                                "EAP-Password=" PASSWORD);
	TestServer srv;
	server_init(&srv, "alice", PASSWORD);
	g_assert_true(run_to_response(peer, &srv));
	send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_FAILURE, srv.ms_id, message));
	assert_ack(peer, EAP_MSCHAPV2_OP_FAILURE);
	eap_test_peer_failure(peer);
	g_assert_true(peer->failed);
	for (guint i = 0; fragments[i] != NULL; i++)
		eap_test_assert_message(peer->error, fragments[i]);
}

static void
test_failure_codes(void)
{
	run_failure("E=648 R=0 V=3", (const gchar *const[]){"password has expired", "E=648", NULL});
	run_failure(
	        "E=691 R=1 C=00112233445566778899AABBCCDDEEFF V=3 M=try again",
	        (const gchar *const[]){"E=691", "would accept another attempt", "try again", NULL});
	run_failure("E=647 R=0 V=3", (const gchar *const[]){"account is disabled", NULL});
	run_failure("E=646", (const gchar *const[]){"time of day", NULL});
	run_failure("E=649 R=0", (const gchar *const[]){"no permission", NULL});
	run_failure("E=12345 R=0 V=3", (const gchar *const[]){"error 12345", NULL});
	run_failure("", (const gchar *const[]){"no reason given", NULL});
	/* A malformed Failure is still a failure, and says so. */
	run_failure("E=69x R=0", (const gchar *const[]){"malformed", NULL});
	/* A bare EAP-Failure after the Response is accepted too. */
	{
		g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
		                                                "EAP-Identity=alice\n"
		                                                "EAP-Password=x");
		TestServer srv;

		server_init(&srv, "alice", PASSWORD);
		g_assert_false(run_to_response(peer, &srv));
		eap_test_peer_failure(peer);
		g_assert_true(peer->failed);
		eap_test_assert_message(peer->error, "rejected the EAP-MSCHAPV2");
	}
}

static void
run_malformed(const guint8 *data, gsize len, const gchar *fragment)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice\n"
	                                                "EAP-Password=" PASSWORD);

	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_MSCHAPV2, data, len);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, fragment);
}

static void
test_malformed_requests(void)
{
	static const guint8 short_header[] = {1, 1, 0};
	static const guint8 short_challenge[] = {1, 1, 0, 12, 16, 1, 2, 3, 4, 5, 6, 7};
	static const guint8 bad_size[] = {1, 1, 0, 21, 8, 0, 0, 0, 0, 0, 0,
	                                  0, 0, 0, 0,  0, 0, 0, 0, 0, 0};
	static const guint8 response_op[] = {2, 1, 0, 4};
	static const guint8 change_pw[] = {7, 1, 0, 4};
	static const guint8 early_success[] = {3, 1, 0, 6, 'S', '='};

	run_malformed(short_header, sizeof(short_header), "shorter than its 4-octet header");
	run_malformed(short_challenge, sizeof(short_challenge), "too short");
	run_malformed(bad_size, sizeof(bad_size), "Value-Size 8");
	run_malformed(response_op, sizeof(response_op), "OpCode 2");
	run_malformed(change_pw, sizeof(change_pw), "OpCode 7");
	run_malformed(early_success, sizeof(early_success), "before joind answered");
	run_malformed(NULL, 0, "shorter than");
}

static void
test_malformed_success(void)
{
	static const gchar *const bad[] = {
	        "",
	        "S=407A5589115FD0D6209F510FE9C04566932CDA5",
	        "S=407A5589115FD0D6209F510FE9C04566932CDAZZ",
	        "T=407A5589115FD0D6209F510FE9C04566932CDA56",
	        "S=407A5589115FD0D6209F510FE9C04566932CDA56 X=1",
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
		                                                "EAP-Identity=alice\n"
		                                                "EAP-Password=" PASSWORD);
		TestServer srv;

		server_init(&srv, "alice", PASSWORD);
		g_assert_true(run_to_response(peer, &srv));
		send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_SUCCESS, srv.ms_id, bad[i]));
		g_assert_true(peer->failed);
		eap_test_assert_message(peer->error, "malformed");
	}
}

static void
test_second_challenge(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice\n"
	                                                "EAP-Password=" PASSWORD);
	TestServer srv;

	server_init(&srv, "alice", PASSWORD);
	g_assert_true(run_to_response(peer, &srv));
	send_mschapv2(peer, server_challenge(&srv));
	g_assert_true(peer->failed);
	eap_test_assert_message(peer->error, "second EAP-MSCHAPv2 Challenge");
}

static void
test_agent_password(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
	                                                "EAP-Identity=alice");
	TestServer srv;
	g_autoptr(GBytes) r = NULL;

	peer->has_agent = TRUE;
	server_init(&srv, "alice", PASSWORD);
	eap_test_peer_identity(peer);
	send_mschapv2(peer, server_challenge(&srv));
	g_assert_cmpuint(peer->agent_questions, ==, 1);
	g_assert_cmpint(peer->agent_kind, ==, JOIND_SECRET_USER_PASSWORD);
	g_assert_cmpint(joind_eap_session_get_state(peer->session), ==, JOIND_EAP_STATE_PAUSED);
	/* A wrong password first: the server refuses, the password is
	 * forgotten, and the next authentication asks again. */
	eap_test_peer_agent_answer(peer, NULL, "wrong");
	r = eap_test_peer_last_response(peer, JOIND_EAP_TYPE_MSCHAPV2);
	g_assert_false(server_verify(&srv, r));
	send_mschapv2(peer, server_message(EAP_MSCHAPV2_OP_FAILURE, srv.ms_id, "E=691 R=0 V=3"));
	eap_test_peer_failure(peer);
	g_assert_true(peer->failed);
	peer->failed = FALSE;
	g_clear_error(&peer->error);

	server_init(&srv, "alice", PASSWORD);
	eap_test_peer_identity(peer);
	send_mschapv2(peer, server_challenge(&srv));
	g_assert_cmpuint(peer->agent_questions, ==, 2);
	eap_test_peer_agent_answer(peer, NULL, PASSWORD);
	g_clear_pointer(&r, g_bytes_unref);
	r = eap_test_peer_last_response(peer, JOIND_EAP_TYPE_MSCHAPV2);
	g_assert_true(server_verify(&srv, r));
	assert_success(peer, &srv);
}

static void
test_agent_cancel_and_none(void)
{
	TestServer srv;

	server_init(&srv, "alice", PASSWORD);
	{
		g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
		                                                "EAP-Identity=alice");
		peer->has_agent = TRUE;
		eap_test_peer_identity(peer);
		send_mschapv2(peer, server_challenge(&srv));
		eap_test_peer_agent_refuse(peer, JOIND_ERROR_ABORTED);
		g_assert_true(peer->failed);
		g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	}
	{
		g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=MSCHAPV2\n"
		                                                "EAP-Identity=alice");
		eap_test_peer_identity(peer);
		send_mschapv2(peer, server_challenge(&srv));
		g_assert_true(peer->failed);
		g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
		eap_test_assert_message(peer->error, "EAP-Password");
	}
}

static void
test_bad_settings(void)
{
	static const gchar *const bad[] = {"0123", "44EBBA8D5312B8D611474411F56989AEzz",
	                                   "44EBBA8D5312B8D611474411F56989AG"};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree gchar *security = g_strdup_printf(
		        "EAP-Method=MSCHAPV2\nEAP-Identity=alice\nEAP-Password-Hash=%s", bad[i]);
		g_autoptr(EapTestPeer) peer = eap_test_peer_new(security);
		g_autoptr(GError) error = NULL;
		TestServer srv;

		g_assert_false(joind_eap_session_check(peer->session, &error));
		g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
		eap_test_assert_message(error, "EAP-Password-Hash");
		/* The key's value, a secret, is not repeated. */
		g_assert_null(strstr(error->message, bad[i]));
		server_init(&srv, "alice", PASSWORD);
		eap_test_peer_identity(peer);
		send_mschapv2(peer, server_challenge(&srv));
		g_assert_true(peer->failed);
		g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	}
}

/* As PEAP and TTLS run it: an inner session with its own prefix. */
static void
inner_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	GPtrArray *sent = data;

	g_ptr_array_add(sent, g_bytes_new(packet, len));
}

static void
test_inner(void)
{
	static const JoindEapSessionCallbacks cb = {.send = inner_send};
	g_autoptr(EapTestPeer) outer = eap_test_peer_new("EAP-Method=PEAP\n"
	                                                 "EAP-Identity=anonymous@example.org\n"
	                                                 "EAP-PEAP-Phase2-Method=MSCHAPV2\n"
	                                                 "EAP-PEAP-Phase2-Identity=alice\n"
	                                                 "EAP-PEAP-Phase2-Password=" PASSWORD);
	g_autoptr(GPtrArray) sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	JoindEapSession *inner =
	        joind_eap_session_new_inner(outer->session, "EAP-PEAP-Phase2-", &cb, sent);
	guint8 identity[] = {1, 1, 0, 5, 1};
	g_autoptr(GByteArray) req = g_byte_array_new();
	g_autoptr(GByteArray) challenge = NULL;
	g_autoptr(GBytes) r = NULL;
	TestServer srv;
	const guint8 *p;
	gsize len;

	server_init(&srv, "alice", PASSWORD);
	g_assert_true(joind_eap_session_rx(inner, identity, sizeof(identity), NULL));
	g_assert_cmpstr(joind_eap_session_get_identity(inner), ==, "alice");
	challenge = server_challenge(&srv);
	g_byte_array_append(req, (const guint8[]){1, 2, 0, (guint8)(challenge->len + 5), 26}, 5);
	g_byte_array_append(req, challenge->data, challenge->len);
	g_assert_true(joind_eap_session_rx(inner, req->data, req->len, NULL));
	g_assert_cmpuint(sent->len, ==, 2);
	p = g_bytes_get_data(g_ptr_array_index(sent, 1), &len);
	g_assert_cmpuint(p[4], ==, JOIND_EAP_TYPE_MSCHAPV2);
	r = g_bytes_new(p + 5, len - 5);
	g_assert_true(server_verify(&srv, r));
	joind_eap_session_unref(inner);
}

static void
test_parse_failure_fields(void)
{
	EapMschapFailure f;
	g_autoptr(GError) error = NULL;
	static const gchar ok[] =
	        "E=691 R=1 C=000102030405060708090A0B0C0D0E0F V=3 Q=ignored M=bad \"x\"\001";
	static const gchar *const bad[] = {
	        "E=",  "E=12345678901", "R=2", "C=0011", "C=000102030405060708090A0B0C0D0E0G",
	        "V=x", "E691",          "=1",  "E=1  R",
	};

	g_assert_true(eap_mschap_failure_parse((const guint8 *)ok, sizeof(ok) - 1, &f, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f.error_code, ==, 691);
	g_assert_true(f.retry);
	g_assert_true(f.has_challenge);
	g_assert_cmpuint(f.challenge[15], ==, 0x0f);
	g_assert_cmpuint(f.version, ==, 3);
	g_assert_cmpstr(f.text, ==, "bad 'x'?");
	eap_mschap_failure_clear(&f);
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_false(eap_mschap_failure_parse((const guint8 *)bad[i], strlen(bad[i]), &f,
		                                        &error));
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
		g_assert_null(f.text);
		g_clear_error(&error);
	}
}

static void
test_response_build(void)
{
	g_autoptr(GByteArray) out = g_byte_array_new();
	guint8 pc[16], nt[24];

	memset(pc, 0xaa, sizeof(pc));
	memset(nt, 0xbb, sizeof(nt));
	eap_mschapv2_response_build(out, 7, pc, nt, "User");
	g_assert_cmpuint(out->len, ==, 58);
	g_assert_cmpuint(out->data[0], ==, 2);
	g_assert_cmpuint(out->data[1], ==, 7);
	g_assert_cmpuint((out->data[2] << 8) | out->data[3], ==, 58);
	g_assert_cmpuint(out->data[4], ==, 49);
	g_assert_cmpmem(out->data + 5, 16, pc, 16);
	g_assert_cmpmem(out->data + 29, 24, nt, 24);
	g_assert_cmpmem(out->data + 54, 4, "User", 4);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;

	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_mschapv2_ops, NULL));
	g_test_add_func("/eap-mschapv2/parse/failure-fields", test_parse_failure_fields);
	g_test_add_func("/eap-mschapv2/parse/response-build", test_response_build);
	if (!eap_mschap_crypto_available(&error)) {
		/* Without MD4/DES the exchange tests cannot run; say why. */
		g_test_message("skipping exchanges: %s", error->message);
		return g_test_run();
	}
	g_test_add_func("/eap-mschapv2/success/password", test_success_password);
	g_test_add_func("/eap-mschapv2/success/password-hash", test_success_hash);
	g_test_add_func("/eap-mschapv2/success/lower-case", test_authenticator_response_lower_case);
	g_test_add_func("/eap-mschapv2/wrong-password", test_wrong_password);
	g_test_add_func("/eap-mschapv2/wrong-authenticator-response",
	                test_wrong_authenticator_response);
	g_test_add_func("/eap-mschapv2/failure-codes", test_failure_codes);
	g_test_add_func("/eap-mschapv2/malformed/requests", test_malformed_requests);
	g_test_add_func("/eap-mschapv2/malformed/success", test_malformed_success);
	g_test_add_func("/eap-mschapv2/second-challenge", test_second_challenge);
	g_test_add_func("/eap-mschapv2/agent/password", test_agent_password);
	g_test_add_func("/eap-mschapv2/agent/cancel-and-none", test_agent_cancel_and_none);
	g_test_add_func("/eap-mschapv2/bad-settings", test_bad_settings);
	g_test_add_func("/eap-mschapv2/inner", test_inner);
	return g_test_run();
}
