/* test-eap-gtc.c - EAP-GTC in a real EAP session: outer and inner, profile
 * and agent passwords, EAP-FAST style challenges, rejection sentences and
 * malformed prompts. */
#include <string.h>

#include "eap-gtc.h"
#include "eap-test-peer.h"

static void
assert_response(EapTestPeer *peer, const void *expected, gsize len)
{
	g_autoptr(GBytes) r = eap_test_peer_last_response(peer, JOIND_EAP_TYPE_GTC);

	g_assert_cmpmem(g_bytes_get_data(r, NULL), g_bytes_get_size(r), expected, len);
}

static void
test_success(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC\n"
	                                                "EAP-Identity=gtcuser\n"
	                                                "EAP-Password=gtcpass");
	gsize msk_len = 1;

	g_assert_true(joind_eap_session_check(peer->session, NULL));
	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, "Password: ", 10);
	assert_response(peer, "gtcpass", 7);
	eap_test_peer_success(peer);
	g_assert_true(peer->succeeded);
	/* GTC derives no keys. */
	g_assert_null(joind_eap_session_get_msk(peer->session, &msk_len));
	g_assert_cmpuint(msk_len, ==, 0);
}

static void
test_rejected(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC\n"
	                                                "EAP-Identity=gtcuser\n"
	                                                "EAP-Password=nope");

	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, "Token code:", 11);
	assert_response(peer, "nope", 4);
	eap_test_peer_failure(peer);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, "rejected the EAP-GTC authentication of \"gtcuser\"");
	eap_test_assert_message(peer->error, "did not accept the password or token");
	eap_test_assert_message(peer->error, "\"Token code:\"");
	g_assert_null(strstr(peer->error->message, "nope"));
}

static void
test_agent(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC\n"
	                                                "EAP-Identity=gtcuser");

	peer->has_agent = TRUE;
	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, "Password: ", 10);
	g_assert_cmpuint(peer->agent_questions, ==, 1);
	g_assert_cmpint(peer->agent_kind, ==, JOIND_SECRET_USER_PASSWORD);
	eap_test_peer_agent_answer(peer, NULL, "gtcpass");
	assert_response(peer, "gtcpass", 7);
	eap_test_peer_success(peer);
	g_assert_true(peer->succeeded);
}

static void
test_agent_user_and_password(void)
{
	/* No identity in the profile: the engine asks for both at Identity. */
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC");

	peer->has_agent = TRUE;
	eap_test_peer_identity(peer);
	g_assert_cmpint(peer->agent_kind, ==, JOIND_SECRET_USER_NAME_AND_PASSWORD);
	eap_test_peer_agent_answer(peer, "gtcuser", "gtcpass");
	g_assert_cmpstr(joind_eap_session_get_identity(peer->session), ==, "gtcuser");
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, NULL, 0);
	assert_response(peer, "gtcpass", 7);
	g_assert_cmpuint(peer->agent_questions, ==, 1);
}

static void
test_no_agent(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC\n"
	                                                "EAP-Identity=gtcuser");

	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, "Password: ", 10);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
}

static void
test_fast_challenge(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC\n"
	                                                "EAP-Identity=gtcuser\n"
	                                                "EAP-Password=gtcpass");
	static const gchar expected[] = "RESPONSE=gtcuser\0gtcpass";

	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, "CHALLENGE=Password", 18);
	assert_response(peer, expected, sizeof(expected) - 1);
}

static void
test_malformed(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=GTC\n"
	                                                "EAP-Identity=gtcuser\n"
	                                                "EAP-Password=gtcpass");

	eap_test_peer_identity(peer);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_GTC, "Pass\0word", 9);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, "malformed EAP-GTC request");
}

static void
test_parse(void)
{
	EapGtcRequest req;
	g_autoptr(GError) error = NULL;

	/* One trailing NUL is tolerated; control characters and invalid UTF-8
	 * never reach a log or a sentence. */
	g_assert_true(eap_gtc_request_parse((const guint8 *)"PIN:\0", 5, &req, &error));
	g_assert_cmpstr(req.prompt, ==, "PIN:");
	g_assert_false(req.fast_challenge);
	eap_gtc_request_clear(&req);
	g_assert_true(eap_gtc_request_parse((const guint8 *)"a\tb\xff\"", 5, &req, &error));
	g_assert_no_error(error);
	g_assert_true(g_utf8_validate(req.prompt, -1, NULL));
	g_assert_null(strchr(req.prompt, '\t'));
	g_assert_null(strchr(req.prompt, '"'));
	eap_gtc_request_clear(&req);
	g_assert_true(eap_gtc_request_parse(NULL, 0, &req, &error));
	g_assert_cmpstr(req.prompt, ==, "");
	eap_gtc_request_clear(&req);
	g_assert_false(eap_gtc_request_parse((const guint8 *)"\0\0", 2, &req, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	g_assert_null(req.prompt);
}

static void
inner_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	g_ptr_array_add(data, g_bytes_new(packet, len));
}

static void
test_inner(void)
{
	static const JoindEapSessionCallbacks cb = {.send = inner_send};
	g_autoptr(EapTestPeer) outer = eap_test_peer_new("EAP-Method=PEAP\n"
	                                                 "EAP-Identity=anonymous\n"
	                                                 "EAP-PEAP-Phase2-Method=GTC\n"
	                                                 "EAP-PEAP-Phase2-Identity=gtcuser\n"
	                                                 "EAP-PEAP-Phase2-Password=gtcpass");
	g_autoptr(GPtrArray) sent = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	JoindEapSession *inner =
	        joind_eap_session_new_inner(outer->session, "EAP-PEAP-Phase2-", &cb, sent);
	static const guint8 identity[] = {1, 1, 0, 5, 1};
	static const guint8 gtc[] = {1, 2, 0, 9, 6, 'P', 'w', 'd', ':'};
	static const guint8 success[] = {3, 2, 0, 4};
	static const guint8 expected[] = {2, 2, 0, 12, 6, 'g', 't', 'c', 'p', 'a', 's', 's'};
	const guint8 *p;
	gsize len;

	g_assert_true(joind_eap_session_rx(inner, identity, sizeof(identity), NULL));
	g_assert_true(joind_eap_session_rx(inner, gtc, sizeof(gtc), NULL));
	g_assert_cmpuint(sent->len, ==, 2);
	p = g_bytes_get_data(g_ptr_array_index(sent, 0), &len);
	g_assert_cmpmem(p + 5, len - 5, "gtcuser", 7);
	p = g_bytes_get_data(g_ptr_array_index(sent, 1), &len);
	g_assert_cmpmem(p, len, expected, sizeof(expected));
	g_assert_true(joind_eap_session_rx(inner, success, sizeof(success), NULL));
	g_assert_cmpint(joind_eap_session_get_state(inner), ==, JOIND_EAP_STATE_SUCCESS);
	joind_eap_session_unref(inner);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_gtc_ops, NULL));
	g_test_add_func("/eap-gtc/success", test_success);
	g_test_add_func("/eap-gtc/rejected", test_rejected);
	g_test_add_func("/eap-gtc/agent", test_agent);
	g_test_add_func("/eap-gtc/agent-user-and-password", test_agent_user_and_password);
	g_test_add_func("/eap-gtc/no-agent", test_no_agent);
	g_test_add_func("/eap-gtc/fast-challenge", test_fast_challenge);
	g_test_add_func("/eap-gtc/malformed", test_malformed);
	g_test_add_func("/eap-gtc/parse", test_parse);
	g_test_add_func("/eap-gtc/inner", test_inner);
	return g_test_run();
}
