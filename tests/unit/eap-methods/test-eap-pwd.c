/* test-eap-pwd.c - EAP-pwd: known-answer vectors for the KDF, the password
 * element and the confirm (published with the Dragonblood analysis tools,
 * which check them against hostapd; one more KDF vector from an
 * independent Go implementation), then full exchanges in a real
 * EAP session against a server written here from the same primitives:
 * success with matching MSK/EMSK, wrong password, fragmentation both ways,
 * malformed and hostile commits, unsupported parameters. */
#include <string.h>

#include <openssl/rand.h>

#include "eap-pwd-crypto.h"
#include "eap-pwd-packet.h"
#include "eap-pwd.h"
#include "eap-test-peer.h"

static GBytes *
unhex(const gchar *hex)
{
	gsize len = strlen(hex) / 2;
	guint8 *out = g_malloc(len);

	for (gsize i = 0; i < len; i++)
		out[i] = (guint8)((g_ascii_xdigit_value(hex[2 * i]) << 4) |
		                  g_ascii_xdigit_value(hex[2 * i + 1]));
	return g_bytes_new_take(out, len);
}

static void
assert_hex(const guint8 *data, gsize len, const gchar *hex)
{
	g_autoptr(GBytes) expected = unhex(hex);

	g_assert_cmpmem(data, len, g_bytes_get_data(expected, NULL), g_bytes_get_size(expected));
}

static const gchar hunting[] = "EAP-pwd Hunting And Pecking";

static void
test_kdf(void)
{
	static const struct {
		const gchar *key, *label_hex, *out;
	} v[] = {
	        {"794b5932df56505f8452046409a9acc0d081e701aa35e0d572b64bb167e0c8ca", NULL,
	         "82e792d735fcef0e3ab1ea8545e60d748439d6c36ccd008ede94e4dea671911e"},
	        {"a8d50cf4379bd01d891d1ff4a1ebdd9e179dec6dd8e641329cde24709acbd54e", NULL,
	         "c872fd6b65cefabb0ec3b883c204959f54c350a91b658416fb6126c021fb4d73"},
	        {"b1e50711fc015af0a24676ea1c4dc59957ba83068291456ad4ab4cb8de67107c", NULL,
	         "8234076f9ca7b17694e462e196174ae1b00f01b56732f3a78a5a2ca0e61da188"},
	        /* 1024 bits with a Session-ID (Type | Method-ID) as label: MSK|EMSK */
	        {"820207ce58f5bb1173dce4cbcc22a91f2719e0ee8477b7d647ada6775ff18e67",
	         "3425fe8ed4935944b3e7ea8c6f4eacf12072838675e149be53a7126ceabd6877c7",
	         "73ddb9cf5d8008f6a038f14a204c8dd5a96a834a9d0454281abc116fab01358256d8ff3e4a8050"
	         "1f5b5042fa4613aeeffddd426b58ffe033d37128809f2253adfe4b3a9890dedf77d5e4f04fcf9c"
	         "a10d5ef3f61f705fd9133cf70ef1318188b9fe806d6eedf2de6c8f38665cd491837d7cd090a649"
	         "accadb1d3400f5f8f52fa1"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(v); i++) {
		g_autoptr(GBytes) key = unhex(v[i].key);
		g_autoptr(GBytes) label = v[i].label_hex != NULL
		                                  ? unhex(v[i].label_hex)
		                                  : g_bytes_new_static(hunting, strlen(hunting));
		g_autoptr(GError) error = NULL;
		gsize bits = 4 * strlen(v[i].out);
		g_autofree guint8 *out = g_malloc(bits / 8);

		g_assert_true(eap_pwd_kdf(g_bytes_get_data(key, NULL), g_bytes_get_size(key),
		                          g_bytes_get_data(label, NULL), g_bytes_get_size(label),
		                          out, bits, &error));
		g_assert_no_error(error);
		assert_hex(out, bits / 8, v[i].out);
	}
}

static void
test_pwe(void)
{
	static const struct {
		const gchar *password, *peer, *server;
		guint32 token;
		const gchar *pwe;
	} v[] = {
	        {"password", "user", "server", 2903600207u,
	         "906c74636be75ec6f1b719e4192ee1ed76811232b117379a5733bcbb522f793a"
	         "b3b727860b96908b29f9e3a6bc980090a28e8ecd0b284760354a104a72039e68"},
	        {"password", "user", "server", 2546484939u,
	         "48757819c861241ea2a8e353e44fbcaa2fe689e7ecab4bb17b99b8c721166e76"
	         "9182a63c9491850d72cabf272a6ff5bf1e01407c0295947367e3267b9060d2e4"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(v); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(EapPwdExchange) ex = eap_pwd_exchange_new(19, &error);
		guint8 token[4] = {(guint8)(v[i].token >> 24), (guint8)(v[i].token >> 16),
		                   (guint8)(v[i].token >> 8), (guint8)v[i].token};
		guint8 pwe[EAP_PWD_ELEMENT_LEN];
		guint rounds = 0;

		g_assert_nonnull(ex);
		g_assert_true(eap_pwd_exchange_derive_pwe(
		        ex, token, (const guint8 *)v[i].peer, strlen(v[i].peer),
		        (const guint8 *)v[i].server, strlen(v[i].server),
		        (const guint8 *)v[i].password, strlen(v[i].password), &rounds, &error));
		g_assert_no_error(error);
		g_assert_cmpuint(rounds, >=, 1);
		g_assert_true(eap_pwd_exchange_get_pwe(ex, pwe, &error));
		assert_hex(pwe, sizeof(pwe), v[i].pwe);
	}
}

static void
test_confirm_vector(void)
{
	g_autoptr(GBytes) k =
	        unhex("4c6f022df1a9267bc0ef1755d4f284ce0c0b91f94ce366da3705a23e76750477");
	g_autoptr(GBytes) c1 =
	        unhex("4d814fa0ad829638939c45643586b17070de977628924d42fe396da61f4c5ff3"
	              "42b8a232865ce3dd82c3c44e63cf8b6542fa024ee023277ceb1328648e644486"
	              "38c2f1ec25c991355a06f0871b2504bb2bf7df68390436cab4a17040be9f4d02");
	g_autoptr(GBytes) c2 =
	        unhex("7b7806cbbab6346e4ffaa911b2a119c318d18eaa5e50193e40c233d7627a6826"
	              "38778a2b8d053fa09038d6257320343deab0ecb445e7c7c534c9dbcc6c5be9af"
	              "c64029eeda820ad417001572d34f93d8a3e7e02d812d73b39ce820cd56a77eb2");
	guint8 cs[EAP_PWD_CIPHERSUITE_LEN], out[EAP_PWD_HASH_LEN];
	g_autoptr(GError) error = NULL;

	eap_pwd_ciphersuite(19, 1, 1, cs);
	g_assert_true(eap_pwd_confirm_compute(g_bytes_get_data(k, NULL), g_bytes_get_data(c1, NULL),
	                                      g_bytes_get_data(c2, NULL), cs, out, &error));
	assert_hex(out, sizeof(out),
	           "6ee14ec1860f9485572a59f8f22719ac9cf6e6e6148c2bf70ed0fd46870347cc");
}

/* ---- a server from the same primitives ---- */

typedef struct {
	const gchar *password;
	const gchar *server_id;
	guint16 group;
	guint8 random_function, prf, prep;
	guint8 token[4];
	gsize fragment; /* 0: whole messages; else the MTU the server fragments for */
	EapPwdExchange *ex;
	guint8 ciphersuite[EAP_PWD_CIPHERSUITE_LEN];
	guint8 confirm_s[EAP_PWD_HASH_LEN];
	guint8 msk[64], emsk[64];
	guint acks_received, acks_sent;
} PwdServer;

static void
server_init(PwdServer *srv, const gchar *password)
{
	memset(srv, 0, sizeof(*srv));
	srv->password = password;
	srv->server_id = "theserver@example.com";
	srv->group = 19;
	srv->random_function = 1;
	srv->prf = 1;
	g_assert_cmpint(RAND_bytes(srv->token, 4), ==, 1);
	eap_pwd_ciphersuite(19, 1, 1, srv->ciphersuite);
}

static void
server_clear(PwdServer *srv)
{
	g_clear_pointer(&srv->ex, eap_pwd_exchange_free);
}

/* Sends one message as the server, fragmented when srv->fragment says so;
 * every fragment but the last must be acknowledged by the peer. */
static void
server_send(EapTestPeer *peer, PwdServer *srv, guint8 exch, const guint8 *msg, gsize len)
{
	gsize pos = 0;

	do {
		g_autoptr(GByteArray) p = g_byte_array_new();
		gboolean more;

		if (srv->fragment == 0) {
			g_byte_array_append(p, &exch, 1);
			g_byte_array_append(p, msg, (guint)len);
			pos = len;
		} else {
			eap_pwd_fragment_next(p, exch, msg, len, &pos, srv->fragment);
		}
		more = (p->data[0] & EAP_PWD_FLAG_M) != 0;
		eap_test_peer_request(peer, JOIND_EAP_TYPE_PWD, p->data, p->len);
		if (more && !peer->failed) {
			g_autoptr(GBytes) ack =
			        eap_test_peer_last_response(peer, JOIND_EAP_TYPE_PWD);
			g_assert_cmpmem(g_bytes_get_data(ack, NULL), g_bytes_get_size(ack), &exch,
			                1);
			srv->acks_received++;
		}
	} while (pos < len && !peer->failed);
}

/* The peer's message of exch, acknowledging its fragments. */
static GBytes *
server_receive(EapTestPeer *peer, PwdServer *srv, guint8 exch)
{
	EapPwdReassembly r = {0};

	for (;;) {
		g_autoptr(GBytes) data = eap_test_peer_last_response(peer, JOIND_EAP_TYPE_PWD);
		g_autoptr(GError) error = NULL;
		GBytes *message = NULL;
		EapPwdHeader h;

		g_assert_true(eap_pwd_header_parse(g_bytes_get_data(data, NULL),
		                                   g_bytes_get_size(data), &h, &error));
		g_assert_cmpuint(h.exch, ==, exch);
		switch (eap_pwd_reassembly_add(&r, &h, &message, &error)) {
		case EAP_PWD_REASSEMBLY_COMPLETE:
			return message;
		case EAP_PWD_REASSEMBLY_MORE:
			srv->acks_sent++;
			eap_test_peer_request(peer, JOIND_EAP_TYPE_PWD, &exch, 1);
			break;
		default:
			g_error("peer fragment: %s", error->message);
		}
	}
}

static void
server_id(EapTestPeer *peer, PwdServer *srv)
{
	g_autoptr(GByteArray) msg = g_byte_array_new();
	EapPwdId id = {
	        .group = srv->group,
	        .random_function = srv->random_function,
	        .prf = srv->prf,
	        .prep = srv->prep,
	        .identity = (const guint8 *)srv->server_id,
	        .identity_len = strlen(srv->server_id),
	};

	memcpy(id.token, srv->token, 4);
	eap_pwd_id_build(msg, &id);
	server_send(peer, srv, EAP_PWD_EXCH_ID, msg->data, msg->len);
}

/* The peer's ID response, checked; then the server's commit. */
static void
server_commit(EapTestPeer *peer, PwdServer *srv, const gchar *peer_id, guint8 commit[96])
{
	g_autoptr(GBytes) reply = server_receive(peer, srv, EAP_PWD_EXCH_ID);
	g_autoptr(GError) error = NULL;
	EapPwdId id;

	g_assert_true(eap_pwd_id_parse(g_bytes_get_data(reply, NULL), g_bytes_get_size(reply), &id,
	                               &error));
	g_assert_cmpuint(id.group, ==, 19);
	g_assert_cmpuint(id.random_function, ==, 1);
	g_assert_cmpuint(id.prf, ==, 1);
	g_assert_cmpuint(id.prep, ==, 0);
	g_assert_cmpmem(id.token, 4, srv->token, 4);
	g_assert_cmpmem(id.identity, id.identity_len, peer_id, strlen(peer_id));
	srv->ex = eap_pwd_exchange_new(19, &error);
	g_assert_true(eap_pwd_exchange_derive_pwe(
	        srv->ex, srv->token, id.identity, id.identity_len, (const guint8 *)srv->server_id,
	        strlen(srv->server_id), (const guint8 *)srv->password, strlen(srv->password), NULL,
	        &error));
	g_assert_true(eap_pwd_exchange_commit(srv->ex, commit, &error));
	g_assert_no_error(error);
}

/* Up to the peer's commit, which the server validates. */
static void
run_to_peer_commit(EapTestPeer *peer, PwdServer *srv, const gchar *peer_id)
{
	guint8 commit[EAP_PWD_COMMIT_LEN];
	g_autoptr(GBytes) reply = NULL;
	g_autoptr(GError) error = NULL;

	eap_test_peer_identity(peer);
	server_id(peer, srv);
	g_assert_false(peer->failed);
	server_commit(peer, srv, peer_id, commit);
	server_send(peer, srv, EAP_PWD_EXCH_COMMIT, commit, sizeof(commit));
	g_assert_false(peer->failed);
	reply = server_receive(peer, srv, EAP_PWD_EXCH_COMMIT);
	g_assert_true(eap_pwd_exchange_process_commit(srv->ex, g_bytes_get_data(reply, NULL),
	                                              g_bytes_get_size(reply), &error));
	g_assert_no_error(error);
	g_assert_true(
	        eap_pwd_exchange_confirm(srv->ex, srv->ciphersuite, TRUE, srv->confirm_s, &error));
}

static void
run_success(EapTestPeer *peer, PwdServer *srv, const gchar *peer_id)
{
	g_autoptr(GBytes) confirm_p = NULL;
	g_autoptr(GError) error = NULL;
	guint8 expected[EAP_PWD_HASH_LEN];
	const guint8 *msk, *emsk;
	gsize msk_len = 0, emsk_len = 0;

	run_to_peer_commit(peer, srv, peer_id);
	server_send(peer, srv, EAP_PWD_EXCH_CONFIRM, srv->confirm_s, sizeof(srv->confirm_s));
	g_assert_false(peer->failed);
	confirm_p = server_receive(peer, srv, EAP_PWD_EXCH_CONFIRM);
	g_assert_true(eap_pwd_exchange_confirm(srv->ex, srv->ciphersuite, FALSE, expected, &error));
	g_assert_cmpmem(g_bytes_get_data(confirm_p, NULL), g_bytes_get_size(confirm_p), expected,
	                sizeof(expected));
	g_assert_true(eap_pwd_exchange_keys(srv->ex, srv->ciphersuite, FALSE, expected,
	                                    srv->confirm_s, srv->msk, srv->emsk, &error));
	eap_test_peer_success(peer);
	g_assert_true(peer->succeeded);
	msk = joind_eap_session_get_msk(peer->session, &msk_len);
	emsk = joind_eap_session_get_emsk(peer->session, &emsk_len);
	g_assert_cmpmem(msk, msk_len, srv->msk, 64);
	g_assert_cmpmem(emsk, emsk_len, srv->emsk, 64);
	g_assert_true(memcmp(srv->msk, srv->emsk, 64) != 0);
}

static void
test_success(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser\n"
	                                                "EAP-Password=pwdpass");
	PwdServer srv;

	server_init(&srv, "pwdpass");
	g_assert_true(joind_eap_session_check(peer->session, NULL));
	run_success(peer, &srv, "pwduser");
	server_clear(&srv);
}

static void
test_fragmented(void)
{
	/* A long identity makes the peer's ID response span several packets;
	 * the server fragments everything it sends. */
	g_autofree gchar *user = g_strnfill(150, 'u');
	g_autofree gchar *security =
	        g_strdup_printf("EAP-Method=PWD\nEAP-Identity=%s\nEAP-Password=pwdpass", user);
	g_autoptr(EapTestPeer) peer = eap_test_peer_new(security);
	PwdServer srv;

	server_init(&srv, "pwdpass");
	srv.fragment = 40;
	joind_eap_session_set_mtu(peer->session, 60);
	run_success(peer, &srv, user);
	g_assert_cmpuint(srv.acks_received, ==, 2); /* the 96-octet commit in three */
	g_assert_cmpuint(srv.acks_sent, ==, 3);     /* ID (159) in three, commit in two */
	server_clear(&srv);
}

static void
test_wrong_password(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser\n"
	                                                "EAP-Password=wrong");
	PwdServer srv;
	guint sent;

	server_init(&srv, "pwdpass");
	run_to_peer_commit(peer, &srv, "pwduser");
	sent = peer->sent->len;
	server_send(peer, &srv, EAP_PWD_EXCH_CONFIRM, srv.confirm_s, sizeof(srv.confirm_s));
	g_assert_true(peer->failed);
	g_assert_cmpuint(peer->sent->len, ==, sent); /* no confirm of ours */
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, "password is wrong");
	g_assert_null(joind_eap_session_get_msk(peer->session, NULL));
	server_clear(&srv);
}

static void
test_agent(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser");
	PwdServer srv;

	peer->has_agent = TRUE;
	server_init(&srv, "pwdpass");
	eap_test_peer_identity(peer);
	server_id(peer, &srv);
	g_assert_cmpuint(peer->agent_questions, ==, 1);
	g_assert_cmpint(joind_eap_session_get_state(peer->session), ==, JOIND_EAP_STATE_PAUSED);
	eap_test_peer_agent_answer(peer, NULL, "pwdpass");
	{
		guint8 commit[EAP_PWD_COMMIT_LEN];
		server_commit(peer, &srv, "pwduser", commit);
	}
	server_clear(&srv);
}

/* ---- hostile and malformed commits, against the peer ---- */

static void
run_bad_commit(const guint8 *commit, gsize len, const gchar *fragment)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser\n"
	                                                "EAP-Password=pwdpass");
	PwdServer srv;
	guint8 real[EAP_PWD_COMMIT_LEN];

	server_init(&srv, "pwdpass");
	eap_test_peer_identity(peer);
	server_id(peer, &srv);
	server_commit(peer, &srv, "pwduser", real);
	server_send(peer, &srv, EAP_PWD_EXCH_COMMIT, commit, len);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, fragment);
	server_clear(&srv);
}

static void
set_scalar_hex(guint8 commit[EAP_PWD_COMMIT_LEN], const gchar *hex)
{
	g_autoptr(GBytes) s = unhex(hex);

	memset(commit + EAP_PWD_ELEMENT_LEN, 0, EAP_PWD_ORDER_LEN);
	memcpy(commit + EAP_PWD_COMMIT_LEN - g_bytes_get_size(s), g_bytes_get_data(s, NULL),
	       g_bytes_get_size(s));
}

static void
test_bad_commits(void)
{
	/* A valid element (the KAT's password element) to pair with bad scalars. */
	static const gchar element[] =
	        "906c74636be75ec6f1b719e4192ee1ed76811232b117379a5733bcbb522f793a"
	        "b3b727860b96908b29f9e3a6bc980090a28e8ecd0b284760354a104a72039e68";
	static const gchar order[] =
	        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
	static const gchar prime[] =
	        "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
	g_autoptr(GBytes) e = unhex(element);
	guint8 c[EAP_PWD_COMMIT_LEN];

	memcpy(c, g_bytes_get_data(e, NULL), EAP_PWD_ELEMENT_LEN);
	set_scalar_hex(c, "00");
	run_bad_commit(c, sizeof(c), "scalar is not between 1 and the group order");
	set_scalar_hex(c, "01");
	run_bad_commit(c, sizeof(c), "scalar is not between 1 and the group order");
	set_scalar_hex(c, order);
	run_bad_commit(c, sizeof(c), "scalar is not between 1 and the group order");
	memset(c + EAP_PWD_ELEMENT_LEN, 0xff, EAP_PWD_ORDER_LEN);
	run_bad_commit(c, sizeof(c), "scalar is not between 1 and the group order");
	/* A good scalar with elements that are not points of the group. */
	set_scalar_hex(c, "1234");
	c[EAP_PWD_ELEMENT_LEN - 1] ^= 1; /* y off by one: not on the curve */
	run_bad_commit(c, sizeof(c), "not on the curve");
	memset(c, 0, EAP_PWD_ELEMENT_LEN); /* (0, 0): not on the curve either */
	run_bad_commit(c, sizeof(c), "not on the curve");
	{
		g_autoptr(GBytes) p = unhex(prime);
		memcpy(c, g_bytes_get_data(p, NULL), EAP_PWD_PRIME_LEN); /* x = p */
		run_bad_commit(c, sizeof(c), "not below the prime");
	}
	run_bad_commit(c, sizeof(c) - 1, "commit of 95 octets");
	run_bad_commit(c, 0, "commit of 0 octets");
}

static void
test_reflection(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(EapPwdExchange) ex = eap_pwd_exchange_new(19, &error);
	guint8 token[4] = {1, 2, 3, 4}, commit[EAP_PWD_COMMIT_LEN];

	g_assert_true(eap_pwd_exchange_derive_pwe(ex, token, (const guint8 *)"a", 1,
	                                          (const guint8 *)"b", 1, (const guint8 *)"c", 1,
	                                          NULL, &error));
	g_assert_true(eap_pwd_exchange_commit(ex, commit, &error));
	g_assert_false(eap_pwd_exchange_process_commit(ex, commit, sizeof(commit), &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	eap_test_assert_message(error, "reflection");
}

static void
run_bad_id(PwdServer *srv, gint code, const gchar *fragment)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser\n"
	                                                "EAP-Password=pwdpass");

	eap_test_peer_identity(peer);
	server_id(peer, srv);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, code);
	eap_test_assert_message(peer->error, fragment);
}

static void
test_unsupported(void)
{
	PwdServer srv;

	server_init(&srv, "pwdpass");
	srv.group = 20;
	run_bad_id(&srv, JOIND_ERROR_NOT_SUPPORTED, "group 20");
	server_init(&srv, "pwdpass");
	srv.prep = 1;
	run_bad_id(&srv, JOIND_ERROR_NOT_SUPPORTED, "preparation 1");
	server_init(&srv, "pwdpass");
	srv.random_function = 2;
	run_bad_id(&srv, JOIND_ERROR_NOT_SUPPORTED, "random function 2");
	{
		g_autoptr(GError) error = NULL;
		g_assert_null(eap_pwd_exchange_new(21, &error));
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
	}
}

static void
run_bad_packet(const guint8 *data, gsize len, gboolean after_id, const gchar *fragment)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser\n"
	                                                "EAP-Password=pwdpass");
	PwdServer srv;

	server_init(&srv, "pwdpass");
	eap_test_peer_identity(peer);
	if (after_id)
		server_id(peer, &srv);
	eap_test_peer_request(peer, JOIND_EAP_TYPE_PWD, data, len);
	g_assert_true(peer->failed);
	eap_test_assert_message(peer->error, fragment);
}

static void
test_malformed(void)
{
	static const guint8 commit_first[] = {EAP_PWD_EXCH_COMMIT, 1, 2, 3};
	static const guint8 confirm_early[] = {EAP_PWD_EXCH_CONFIRM, 1, 2, 3};
	static const guint8 exch0[] = {0};
	static const guint8 exch9[] = {9};
	static const guint8 short_id[] = {EAP_PWD_EXCH_ID, 0, 19, 1, 1};
	static const guint8 l_no_len[] = {EAP_PWD_FLAG_L | EAP_PWD_EXCH_ID, 0};
	static const guint8 m_no_l[] = {EAP_PWD_FLAG_M | EAP_PWD_EXCH_ID, 0, 19};
	static const guint8 l_too_short[] = {EAP_PWD_FLAG_L | EAP_PWD_EXCH_ID, 0, 1, 0, 19};

	run_bad_packet(NULL, 0, FALSE, "without its header");
	run_bad_packet(exch0, sizeof(exch0), FALSE, "unknown PWD-Exch 0");
	run_bad_packet(exch9, sizeof(exch9), FALSE, "unknown PWD-Exch 9");
	run_bad_packet(commit_first, sizeof(commit_first), FALSE, "Commit where the ID was due");
	run_bad_packet(confirm_early, sizeof(confirm_early), TRUE,
	               "Confirm where the Commit was due");
	run_bad_packet(short_id, sizeof(short_id), FALSE, "shorter than its 9 fixed octets");
	run_bad_packet(l_no_len, sizeof(l_no_len), FALSE, "no Total-Length");
	run_bad_packet(m_no_l, sizeof(m_no_l), FALSE, "without Total-Length");
	run_bad_packet(l_too_short, sizeof(l_too_short), FALSE, "longer than its Total-Length");
}

static void
test_confirm_length(void)
{
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=PWD\n"
	                                                "EAP-Identity=pwduser\n"
	                                                "EAP-Password=pwdpass");
	PwdServer srv;

	server_init(&srv, "pwdpass");
	run_to_peer_commit(peer, &srv, "pwduser");
	server_send(peer, &srv, EAP_PWD_EXCH_CONFIRM, srv.confirm_s, sizeof(srv.confirm_s) - 1);
	g_assert_true(peer->failed);
	eap_test_assert_message(peer->error, "confirm has 31 octets");
	server_clear(&srv);
}

static void
test_reassembly(void)
{
	EapPwdReassembly r = {0};
	g_autoptr(GError) error = NULL;
	GBytes *msg = NULL;
	EapPwdHeader h;
	static const guint8 first[] = {EAP_PWD_FLAG_L | EAP_PWD_FLAG_M | 2, 0, 4, 'a', 'b'};
	static const guint8 other[] = {EAP_PWD_FLAG_M | 3, 'c'};
	static const guint8 again_l[] = {EAP_PWD_FLAG_L | 2, 0, 4, 'c', 'd'};
	static const guint8 too_much[] = {2, 'c', 'd', 'e'};
	static const guint8 last[] = {2, 'c', 'd'};
	static const guint8 more_at_end[] = {EAP_PWD_FLAG_M | 2, 'c', 'd'};
	static const struct {
		const guint8 *p;
		gsize len;
		const gchar *what;
	} bad[] = {
	        {other, sizeof(other), "another exchange"},
	        {again_l, sizeof(again_l), "repeats Total-Length"},
	        {too_much, sizeof(too_much), "exceeds Total-Length"},
	        {more_at_end, sizeof(more_at_end), "more follow after the last"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_true(eap_pwd_header_parse(first, sizeof(first), &h, NULL));
		g_assert_cmpint(eap_pwd_reassembly_add(&r, &h, &msg, NULL), ==,
		                EAP_PWD_REASSEMBLY_MORE);
		g_assert_true(eap_pwd_header_parse(bad[i].p, bad[i].len, &h, NULL));
		g_assert_cmpint(eap_pwd_reassembly_add(&r, &h, &msg, &error), ==,
		                EAP_PWD_REASSEMBLY_ERROR);
		eap_test_assert_message(error, bad[i].what);
		g_assert_null(msg);
		g_assert_null(r.buffer);
		g_clear_error(&error);
	}
	g_assert_true(eap_pwd_header_parse(first, sizeof(first), &h, NULL));
	g_assert_cmpint(eap_pwd_reassembly_add(&r, &h, &msg, NULL), ==, EAP_PWD_REASSEMBLY_MORE);
	g_assert_true(eap_pwd_header_parse(last, sizeof(last), &h, NULL));
	g_assert_cmpint(eap_pwd_reassembly_add(&r, &h, &msg, &error), ==,
	                EAP_PWD_REASSEMBLY_COMPLETE);
	g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg), "abcd", 4);
	g_clear_pointer(&msg, g_bytes_unref);
	/* hostapd's Total-Length counts 3 header octets more than the message:
	 * a message that ends short of Total-Length is whole. */
	{
		static const guint8 hostapd_first[] = {EAP_PWD_FLAG_L | EAP_PWD_FLAG_M | 2, 0, 7,
		                                       'a', 'b'};
		g_assert_true(eap_pwd_header_parse(hostapd_first, sizeof(hostapd_first), &h, NULL));
		g_assert_cmpint(eap_pwd_reassembly_add(&r, &h, &msg, NULL), ==,
		                EAP_PWD_REASSEMBLY_MORE);
		g_assert_true(eap_pwd_header_parse(last, sizeof(last), &h, NULL));
		g_assert_cmpint(eap_pwd_reassembly_add(&r, &h, &msg, &error), ==,
		                EAP_PWD_REASSEMBLY_COMPLETE);
		g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg), "abcd", 4);
		g_clear_pointer(&msg, g_bytes_unref);
	}
	eap_pwd_reassembly_clear(&r);
}

static void
test_fragment_next(void)
{
	static const guint8 msg[100] = {0};
	g_autoptr(GByteArray) out = g_byte_array_new();
	gsize pos = 0;
	guint n = 0;

	/* A 100-octet message over 30-octet EAP packets: L+M first with
	 * Total-Length 100, then M, M, ..., last without flags. */
	while (pos < sizeof(msg)) {
		g_byte_array_set_size(out, 0);
		eap_pwd_fragment_next(out, 2, msg, sizeof(msg), &pos, 30);
		g_assert_cmpuint(out->len + 5, <=, 30);
		if (n == 0) {
			g_assert_cmpuint(out->data[0], ==, EAP_PWD_FLAG_L | EAP_PWD_FLAG_M | 2);
			g_assert_cmpuint((out->data[1] << 8) | out->data[2], ==, 100);
		} else {
			g_assert_cmpuint(out->data[0], ==,
			                 (pos < sizeof(msg) ? EAP_PWD_FLAG_M : 0) | 2);
		}
		n++;
	}
	g_assert_cmpuint(n, ==, 5);
	/* Fits: one packet without flags. */
	pos = 0;
	g_byte_array_set_size(out, 0);
	eap_pwd_fragment_next(out, 3, msg, 32, &pos, 1400);
	g_assert_cmpuint(out->len, ==, 33);
	g_assert_cmpuint(out->data[0], ==, 3);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_pwd_ops, NULL));
	g_test_add_func("/eap-pwd/kat/kdf", test_kdf);
	g_test_add_func("/eap-pwd/kat/pwe", test_pwe);
	g_test_add_func("/eap-pwd/kat/confirm", test_confirm_vector);
	g_test_add_func("/eap-pwd/success", test_success);
	g_test_add_func("/eap-pwd/fragmented", test_fragmented);
	g_test_add_func("/eap-pwd/wrong-password", test_wrong_password);
	g_test_add_func("/eap-pwd/agent", test_agent);
	g_test_add_func("/eap-pwd/bad-commits", test_bad_commits);
	g_test_add_func("/eap-pwd/reflection", test_reflection);
	g_test_add_func("/eap-pwd/unsupported", test_unsupported);
	g_test_add_func("/eap-pwd/malformed", test_malformed);
	g_test_add_func("/eap-pwd/confirm-length", test_confirm_length);
	g_test_add_func("/eap-pwd/reassembly", test_reassembly);
	g_test_add_func("/eap-pwd/fragment-next", test_fragment_next);
	return g_test_run();
}
