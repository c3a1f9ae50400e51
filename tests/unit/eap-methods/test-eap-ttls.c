/* test-eap-ttls.c - EAP-TTLS in a real EAP session against an in-process
 * TTLS server (tunnel-server.c) that checks the phase 2 attributes with
 * the same primitives: PAP, CHAP, MS-CHAP, MS-CHAPv2 (and its
 * authenticator response), inner EAP-GTC, passwords from the profile, a
 * hash or an agent, TLS 1.2 and 1.3, the MSK both sides derive, and
 * malformed attributes. */
#include <string.h>

#include <openssl/evp.h>

#include "eap-gtc.h"
#include "eap-mschap-crypto.h"
#include "eap-test-peer.h"
#include "eap-ttls-avp.h"
#include "eap-ttls-phase2.h"
#include "eap-ttls.h"
#include "test-pki.h"
#include "tunnel-server.h"

static TestPki *pki;

typedef struct {
	EapTtlsPhase2 phase2;
	const gchar *user, *password;
	gboolean bad_auth_response; /* MS-CHAPv2: answer with a wrong S= */
	gboolean malformed;         /* answer with a broken AVP */
	guint8 msk[64], emsk[64];
	guint8 material[17];
	guint eap_step;
	gboolean credentials_seen;
} TtlsServer;

/* The AVPs of one message from the peer. */
typedef struct {
	const guint8 *data;
	gsize len;
} Avps;

static const guint8 *
avp_find(const Avps *a, guint32 code, guint32 vendor, gsize *len)
{
	gsize pos = 0;
	EapTtlsAvp avp;

	while (pos < a->len) {
		g_assert_true(eap_ttls_avp_next(a->data, a->len, &pos, &avp, NULL));
		if (avp.code == code && avp.vendor == vendor) {
			*len = avp.len;
			return avp.data;
		}
	}
	*len = 0;
	return NULL;
}

#define MS EAP_TTLS_VENDOR_MICROSOFT

static gboolean
is_user(TtlsServer *srv, Avps *a)
{
	gsize len;
	const guint8 *user = avp_find(a, EAP_TTLS_AVP_USER_NAME, 0, &len);

	return user != NULL && len == strlen(srv->user) && memcmp(user, srv->user, len) == 0;
}

static gboolean
check_pap(TtlsServer *srv, Avps *a)
{
	gsize len;
	const guint8 *pw = avp_find(a, EAP_TTLS_AVP_USER_PASSWORD, 0, &len);

	g_assert_nonnull(pw);
	g_assert_cmpuint(len % 16, ==, 0);
	while (len > 0 && pw[len - 1] == 0)
		len--;
	return len == strlen(srv->password) && memcmp(pw, srv->password, len) == 0;
}

static gboolean
check_chap(TtlsServer *srv, Avps *a)
{
	gsize chap_len, challenge_len;
	const guint8 *chap = avp_find(a, EAP_TTLS_AVP_CHAP_PASSWORD, 0, &chap_len);
	const guint8 *challenge = avp_find(a, EAP_TTLS_AVP_CHAP_CHALLENGE, 0, &challenge_len);
	guint8 digest[16];
	guint len = 0;

	g_assert_cmpmem(challenge, challenge_len, srv->material, 16);
	g_assert_cmpuint(chap_len, ==, 17);
	g_assert_cmpuint(chap[0], ==, srv->material[16]);
	{
		EVP_MD_CTX *ctx = EVP_MD_CTX_new();
		EVP_DigestInit_ex2(ctx, EVP_md5(), NULL);
		EVP_DigestUpdate(ctx, chap, 1);
		EVP_DigestUpdate(ctx, srv->password, strlen(srv->password));
		EVP_DigestUpdate(ctx, srv->material, 16);
		EVP_DigestFinal_ex(ctx, digest, &len);
		EVP_MD_CTX_free(ctx);
	}
	return memcmp(digest, chap + 1, 16) == 0;
}

static gboolean
check_mschap(TtlsServer *srv, Avps *a)
{
	gsize r_len, c_len;
	const guint8 *r = avp_find(a, EAP_TTLS_MS_CHAP_RESPONSE, MS, &r_len);
	const guint8 *c = avp_find(a, EAP_TTLS_MS_CHAP_CHALLENGE, MS, &c_len);
	guint8 hash[16], nt[24];

	g_assert_cmpmem(c, c_len, srv->material, 8);
	g_assert_cmpuint(r_len, ==, 50);
	g_assert_cmpuint(r[0], ==, srv->material[8]);
	g_assert_cmpuint(r[1], ==, 1);
	g_assert_true(eap_mschap_nt_hash(srv->password, hash, NULL));
	g_assert_true(eap_mschap_challenge_response(srv->material, hash, nt, NULL));
	return memcmp(nt, r + 26, 24) == 0;
}

/* MS-CHAPv2: answers with MS-CHAP2-Success or, like hostapd, MS-CHAP-Error
 * "Failed"; the verdict follows the peer's (empty) acknowledgement. */
static TunnelServerVerdict
check_mschapv2(TunnelServer *s, TtlsServer *srv, Avps *a)
{
	gsize r_len, c_len;
	const guint8 *r = avp_find(a, EAP_TTLS_MS_CHAP2_RESPONSE, MS, &r_len);
	const guint8 *c = avp_find(a, EAP_TTLS_MS_CHAP_CHALLENGE, MS, &c_len);
	g_autoptr(GByteArray) out = g_byte_array_new();
	guint8 hash[16], nt[24], success[1 + EAP_MSCHAP_AUTH_RESPONSE_LEN];

	g_assert_cmpmem(c, c_len, srv->material, 16);
	g_assert_cmpuint(r_len, ==, 50);
	g_assert_cmpuint(r[0], ==, srv->material[16]);
	g_assert_true(eap_mschap_nt_hash(srv->password, hash, NULL));
	g_assert_true(eap_mschap_v2_nt_response(srv->material, r + 2, srv->user, hash, nt, NULL));
	if (memcmp(nt, r + 26, 24) != 0) {
		eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP_ERROR, EAP_TTLS_VENDOR_MICROSOFT,
		                    (const guint8 *)"Failed", 6);
		tunnel_server_write(s, out->data, out->len);
		return TUNNEL_SERVER_FAILURE;
	}
	success[0] = srv->material[16];
	g_assert_true(eap_mschap_v2_authenticator_response(hash, r + 26, r + 2, srv->material,
	                                                   srv->user, (gchar *)success + 1, NULL));
	if (srv->bad_auth_response)
		success[10] = success[10] == 'A' ? 'B' : 'A';
	eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP2_SUCCESS, EAP_TTLS_VENDOR_MICROSOFT, success,
	                    sizeof(success));
	tunnel_server_write(s, out->data, out->len);
	return TUNNEL_SERVER_SUCCESS;
}

/* Inner EAP-GTC in EAP-Message AVPs. */
static TunnelServerVerdict
check_eap(TunnelServer *s, TtlsServer *srv, Avps *a)
{
	gsize len;
	const guint8 *p = avp_find(a, EAP_TTLS_AVP_EAP_MESSAGE, 0, &len);
	g_autoptr(GByteArray) out = g_byte_array_new();
	static const guint8 gtc_request[] = {JOIND_EAP_CODE_REQUEST,
	                                     1,
	                                     0,
	                                     14,
	                                     JOIND_EAP_TYPE_GTC,
	                                     'P',
	                                     'a',
	                                     's',
	                                     's',
	                                     'w',
	                                     'o',
	                                     'r',
	                                     'd',
	                                     ':'};

	g_assert_nonnull(p);
	g_assert_cmpuint(p[0], ==, JOIND_EAP_CODE_RESPONSE);
	g_assert_cmpuint((p[2] << 8) | p[3], ==, len);
	if (srv->eap_step++ == 0) {
		/* Response/Identity to the implied request (identifier 0) */
		g_assert_cmpuint(p[1], ==, 0);
		g_assert_cmpuint(p[4], ==, JOIND_EAP_TYPE_IDENTITY);
		g_assert_cmpmem(p + 5, len - 5, srv->user, strlen(srv->user));
		eap_ttls_avp_append(out, EAP_TTLS_AVP_EAP_MESSAGE, 0, gtc_request,
		                    sizeof(gtc_request));
		tunnel_server_write(s, out->data, out->len);
		return TUNNEL_SERVER_CONTINUE;
	}
	g_assert_cmpuint(p[1], ==, 1);
	g_assert_cmpuint(p[4], ==, JOIND_EAP_TYPE_GTC);
	return len - 5 == strlen(srv->password) && memcmp(p + 5, srv->password, len - 5) == 0
	               ? TUNNEL_SERVER_SUCCESS
	               : TUNNEL_SERVER_FAILURE;
}

static TunnelServerVerdict
ttls_srv_app_data(TunnelServer *s, const guint8 *data, gsize len, gpointer user_data)
{
	TtlsServer *srv = user_data;
	guint8 keys[128];
	Avps a;

	if (tunnel_server_version(s) == TLS1_3_VERSION)
		tunnel_server_export(s, "EXPORTER_EAP_TLS_Key_Material",
		                     (const guint8[]){JOIND_EAP_TYPE_TTLS}, 1, keys, sizeof(keys));
	else
		tunnel_server_export(s, "ttls keying material", NULL, 0, keys, sizeof(keys));
	memcpy(srv->msk, keys, 64);
	memcpy(srv->emsk, keys + 64, 64);
	/* Exactly as long as the method needs: in TLS 1.3 the exporter's
	 * output depends on its length. */
	if (eap_ttls_phase2_challenge_len(srv->phase2) > 0)
		tunnel_server_export(s, "ttls challenge", NULL, 0, srv->material,
		                     eap_ttls_phase2_challenge_len(srv->phase2));
	if (srv->malformed) {
		tunnel_server_write(s, "\0\0\0\x4f\x40\0\0\x07", 8);
		return TUNNEL_SERVER_FAILURE;
	}
	a.data = data;
	a.len = len;
	if (srv->phase2 == EAP_TTLS_PHASE2_EAP)
		return check_eap(s, srv, &a);
	srv->credentials_seen = TRUE;
	g_assert_true(is_user(srv, &a));
	switch (srv->phase2) {
	case EAP_TTLS_PHASE2_PAP:
		return check_pap(srv, &a) ? TUNNEL_SERVER_SUCCESS : TUNNEL_SERVER_FAILURE;
	case EAP_TTLS_PHASE2_CHAP:
		return check_chap(srv, &a) ? TUNNEL_SERVER_SUCCESS : TUNNEL_SERVER_FAILURE;
	case EAP_TTLS_PHASE2_MSCHAP:
		return check_mschap(srv, &a) ? TUNNEL_SERVER_SUCCESS : TUNNEL_SERVER_FAILURE;
	default:
		return check_mschapv2(s, srv, &a);
	}
}

static TunnelServer *
ttls_server(TtlsServer *srv, int max_version)
{
	TunnelServerOptions o = {
	        .eap_type = JOIND_EAP_TYPE_TTLS,
	        .max_version = max_version,
	        .cert = pki->server_cert,
	        .key = pki->server_key,
	        .app_data = ttls_srv_app_data,
	        .user_data = srv,
	};

	return tunnel_server_new(&o);
}

static EapTestPeer *
ttls_peer(const gchar *method, const gchar *secret_line)
{
	g_autofree gchar *security = g_strdup_printf(
	        "EAP-Method=TTLS\nEAP-Identity=anonymous@auth.test\nEAP-TTLS-CACert=%s\n"
	        "EAP-TTLS-ServerDomainMask=auth.test\nEAP-TTLS-Phase2-Method=%s\nEAP-TTLS-Phase2-"
	        "Identity=ttlsuser\n%s",
	        pki->ca, method, secret_line != NULL ? secret_line : "");

	return eap_test_peer_new(security);
}

static void
assert_success(EapTestPeer *peer, TtlsServer *srv)
{
	gsize len = 0;
	const guint8 *msk;

	g_assert_true(peer->succeeded);
	msk = joind_eap_session_get_msk(peer->session, &len);
	g_assert_cmpmem(msk, len, srv->msk, 64);
	msk = joind_eap_session_get_emsk(peer->session, &len);
	g_assert_cmpmem(msk, len, srv->emsk, 64);
}

typedef struct {
	const gchar *method;
	EapTtlsPhase2 phase2;
} Phase2Case;

static const Phase2Case cases[] = {
        {"Tunneled-PAP", EAP_TTLS_PHASE2_PAP},
        {"Tunneled-CHAP", EAP_TTLS_PHASE2_CHAP},
        {"Tunneled-MSCHAP", EAP_TTLS_PHASE2_MSCHAP},
        {"Tunneled-MSCHAPv2", EAP_TTLS_PHASE2_MSCHAPV2},
        {"GTC", EAP_TTLS_PHASE2_EAP},
};

static void
test_success(gconstpointer data)
{
	const Phase2Case *c = data;

	for (int v = TLS1_2_VERSION; v <= TLS1_3_VERSION; v++) {
		TtlsServer srv = {.phase2 = c->phase2, .user = "ttlsuser", .password = "ttlspass"};
		g_autoptr(EapTestPeer) peer =
		        ttls_peer(c->method, "EAP-TTLS-Phase2-Password=ttlspass");
		g_autoptr(TunnelServer) s = ttls_server(&srv, v);

		g_assert_true(joind_eap_session_check(peer->session, NULL));
		g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_SUCCESS);
		g_assert_cmpint(tunnel_server_version(s), ==, v);
		assert_success(peer, &srv);
	}
}

static void
test_wrong_password(gconstpointer data)
{
	const Phase2Case *c = data;
	TtlsServer srv = {.phase2 = c->phase2, .user = "ttlsuser", .password = "ttlspass"};
	g_autoptr(EapTestPeer) peer = ttls_peer(c->method, "EAP-TTLS-Phase2-Password=wrong");
	g_autoptr(TunnelServer) s = ttls_server(&srv, TLS1_2_VERSION);

	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_FAILURE);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, "rejected the EAP-TTLS authentication");
	if (c->phase2 == EAP_TTLS_PHASE2_MSCHAPV2)
		eap_test_assert_message(peer->error, "It said: \"Failed\"");
	else if (c->phase2 == EAP_TTLS_PHASE2_EAP)
		eap_test_assert_message(peer->error,
		                        "inner EAP-GTC authentication of \"ttlsuser\"");
	else
		eap_test_assert_message(peer->error, "password of \"ttlsuser\"");
	g_assert_null(strstr(peer->error->message, "wrong"));
}

static void
test_mschapv2_bad_auth_response(void)
{
	TtlsServer srv = {.phase2 = EAP_TTLS_PHASE2_MSCHAPV2,
	                  .user = "ttlsuser",
	                  .password = "ttlspass",
	                  .bad_auth_response = TRUE};
	g_autoptr(EapTestPeer) peer =
	        ttls_peer("Tunneled-MSCHAPv2", "EAP-TTLS-Phase2-Password=ttlspass");
	g_autoptr(TunnelServer) s = ttls_server(&srv, TLS1_2_VERSION);

	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	g_assert_true(peer->failed);
	eap_test_assert_message(peer->error, "authenticator response is wrong");
	/* The EAP-Success a rogue server sends next changes nothing. */
	eap_test_peer_success(peer);
	g_assert_false(peer->succeeded);
}

static void
test_mschapv2_hash(void)
{
	TtlsServer srv = {
	        .phase2 = EAP_TTLS_PHASE2_MSCHAPV2, .user = "ttlsuser", .password = "ttlspass"};
	guint8 hash[16];
	gchar hex[33];
	g_autofree gchar *line = NULL;
	g_autoptr(EapTestPeer) peer = NULL;
	g_autoptr(TunnelServer) s = ttls_server(&srv, TLS1_2_VERSION);

	g_assert_true(eap_mschap_nt_hash("ttlspass", hash, NULL));
	for (guint i = 0; i < 16; i++)
		g_snprintf(hex + 2 * i, 3, "%02x", hash[i]);
	line = g_strdup_printf("EAP-TTLS-Phase2-Password-Hash=%s", hex);
	peer = ttls_peer("Tunneled-MSCHAPv2", line);
	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_SUCCESS);
	assert_success(peer, &srv);
	g_assert_cmpuint(peer->agent_questions, ==, 0);
}

/* A non-EAP phase 2 asks the agent before the tunnel starts. */
static void
test_agent_pap(void)
{
	TtlsServer srv = {
	        .phase2 = EAP_TTLS_PHASE2_PAP, .user = "ttlsuser", .password = "ttlspass"};
	g_autoptr(EapTestPeer) peer = ttls_peer("Tunneled-PAP", NULL);
	g_autoptr(TunnelServer) s = ttls_server(&srv, TLS1_2_VERSION);

	peer->has_agent = TRUE;
	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	g_assert_cmpuint(peer->agent_questions, ==, 1);
	g_assert_false(srv.credentials_seen);
	eap_test_peer_agent_answer(peer, NULL, "ttlspass");
	g_assert_cmpint(tunnel_server_resume(s, peer), ==, TUNNEL_SERVER_SUCCESS);
	assert_success(peer, &srv);
}

/* An inner EAP method asks in the middle of the tunnel; the outer
 * response follows the agent's answer. */
static void
test_agent_inner_eap(void)
{
	TtlsServer srv = {
	        .phase2 = EAP_TTLS_PHASE2_EAP, .user = "ttlsuser", .password = "ttlspass"};
	g_autoptr(EapTestPeer) peer = ttls_peer("GTC", NULL);
	g_autoptr(TunnelServer) s = ttls_server(&srv, TLS1_3_VERSION);

	peer->has_agent = TRUE;
	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	g_assert_cmpuint(peer->agent_questions, ==, 1);
	g_assert_cmpuint(srv.eap_step, ==, 1);
	eap_test_peer_agent_answer(peer, NULL, "ttlspass");
	g_assert_cmpint(tunnel_server_resume(s, peer), ==, TUNNEL_SERVER_SUCCESS);
	assert_success(peer, &srv);
}

static void
test_malformed_avp(void)
{
	TtlsServer srv = {.phase2 = EAP_TTLS_PHASE2_PAP,
	                  .user = "ttlsuser",
	                  .password = "ttlspass",
	                  .malformed = TRUE};
	g_autoptr(EapTestPeer) peer = ttls_peer("Tunneled-PAP", "EAP-TTLS-Phase2-Password=x");
	g_autoptr(TunnelServer) s = ttls_server(&srv, TLS1_2_VERSION);

	tunnel_server_run(s, peer);
	g_assert_true(peer->failed);
	eap_test_assert_message(peer->error, "malformed attributes");
}

static void
test_bad_settings(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(EapTestPeer) peer = eap_test_peer_new("EAP-Method=TTLS\nEAP-Identity=a\n"
	                                                "EAP-TTLS-SystemCA=true\n"
	                                                "EAP-TTLS-ServerDomainMask=auth.test");

	/* No phase 2 method: the inner EAP session has none. */
	g_assert_false(joind_eap_session_check(peer->session, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	eap_test_assert_message(error, "EAP-TTLS-Phase2-Method");
}

int
main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_ttls_ops, NULL));
	g_assert_true(joind_eap_register_method(&eap_gtc_ops, NULL));
	pki = test_pki_new();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *ok = g_strdup_printf("/eap-ttls/success/%s", cases[i].method);
		g_autofree gchar *bad =
		        g_strdup_printf("/eap-ttls/wrong-password/%s", cases[i].method);
		g_test_add_data_func(ok, &cases[i], test_success);
		g_test_add_data_func(bad, &cases[i], test_wrong_password);
	}
	g_test_add_func("/eap-ttls/mschapv2/bad-auth-response", test_mschapv2_bad_auth_response);
	g_test_add_func("/eap-ttls/mschapv2/password-hash", test_mschapv2_hash);
	g_test_add_func("/eap-ttls/agent/pap", test_agent_pap);
	g_test_add_func("/eap-ttls/agent/inner-eap", test_agent_inner_eap);
	g_test_add_func("/eap-ttls/malformed-avp", test_malformed_avp);
	g_test_add_func("/eap-ttls/bad-settings", test_bad_settings);
	status = g_test_run();
	test_pki_free(pki);
	return status;
}
