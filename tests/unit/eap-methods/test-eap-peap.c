/* test-eap-peap.c - PEAPv0 in a real EAP session against an in-process
 * PEAP server (tunnel-server.c) that plays the inner EAP-MSCHAPv2 and
 * EAP-GTC with the same primitives: success with crypto binding and the
 * MSK both sides derive, success without binding, wrong inner password,
 * a binding that does not verify, an inner password from an agent (the
 * tunnel answers later), an untrusted server, TLS 1.2 and 1.3 (over 1.3
 * a binding keyed with RFC 9427's 128-octet TK and with hostapd's
 * 64-octet one, and the MSK without a binding). */
#include <string.h>

#include <openssl/rand.h>

#include "eap-gtc.h"
#include "eap-mschap-crypto.h"
#include "eap-mschapv2.h"
#include "eap-peap-tlv.h"
#include "eap-peap.h"
#include "eap-test-peer.h"
#include "test-pki.h"
#include "tunnel-server.h"

static TestPki *pki;

typedef enum {
	PEAP_SRV_IDENTITY,
	PEAP_SRV_MSCHAPV2_RESPONSE,
	PEAP_SRV_MSCHAPV2_ACK,
	PEAP_SRV_GTC_RESPONSE,
	PEAP_SRV_FAILURE_ACK,
	PEAP_SRV_RESULT,
} PeapServerPhase;

typedef struct {
	const gchar *inner_method; /* "MSCHAPV2" or "GTC" */
	const gchar *user, *password;
	gboolean binding;       /* send a Crypto-Binding */
	gboolean break_binding; /* ... with a wrong MAC */
	/* TLS 1.3: octets exported for the binding's TK, 128 (RFC 9427) when
	 * 0, or 64 (hostapd, wpa_supplicant). The MSK without a binding is
	 * always the first 64 of 128 (RFC 9427, hostapd's getKey). */
	gsize binding_tk_len;
	PeapServerPhase phase;
	guint8 challenge[16];
	guint8 isk[EAP_PEAP_ISK_LEN];
	guint8 ipmk[EAP_PEAP_IPMK_LEN], cmk[EAP_PEAP_CMK_LEN];
	guint8 msk[64], emsk[64];
	gboolean inner_ok;
	guint8 ext_id;
	guint8 nonce[32];
} PeapServer;

static TunnelServerVerdict
peap_srv_tunnel_up(TunnelServer *s, gpointer data)
{
	PeapServer *srv = data;
	const guint8 identity = JOIND_EAP_TYPE_IDENTITY;

	/* Inner Request/Identity, header left out (PEAPv0). */
	tunnel_server_write(s, &identity, 1);
	srv->phase = PEAP_SRV_IDENTITY;
	return TUNNEL_SERVER_CONTINUE;
}

static void
peap_srv_mschapv2_challenge(TunnelServer *s, PeapServer *srv)
{
	/* Type, OpCode, MS-CHAPv2-ID, MS-Length, Value-Size, Challenge, Name "srv" */
	guint8 req[1 + 4 + 1 + 16 + 3] = {JOIND_EAP_TYPE_MSCHAPV2, 1, 9, 0, 4 + 1 + 16 + 3, 16};

	g_assert_cmpint(RAND_bytes(srv->challenge, 16), ==, 1);
	memcpy(req + 6, srv->challenge, 16);
	req[22] = 's';
	req[23] = 'r';
	req[24] = 'v';
	tunnel_server_write(s, req, sizeof(req));
	srv->phase = PEAP_SRV_MSCHAPV2_RESPONSE;
}

static void
peap_srv_mschapv2_verify(TunnelServer *s, PeapServer *srv, const guint8 *d, gsize len)
{
	guint8 hash[16], nt[24];
	gchar auth[EAP_MSCHAP_AUTH_RESPONSE_LEN];
	const guint8 *peer_challenge = d + 6, *nt_response = d + 6 + 24;

	g_assert_cmpuint(len, ==, 1 + 4 + 1 + 49 + strlen(srv->user));
	g_assert_true(eap_mschap_nt_hash(srv->password, hash, NULL));
	g_assert_true(eap_mschap_v2_nt_response(srv->challenge, peer_challenge, srv->user, hash, nt,
	                                        NULL));
	if (memcmp(nt, nt_response, 24) != 0) {
		static const gchar fail[] = "E=691 R=0 V=3";
		guint8 req[5 + sizeof(fail) - 1] = {JOIND_EAP_TYPE_MSCHAPV2, 4, 9, 0,
		                                    (guint8)(4 + sizeof(fail) - 1)};
		memcpy(req + 5, fail, sizeof(fail) - 1);
		tunnel_server_write(s, req, sizeof(req));
		srv->phase = PEAP_SRV_FAILURE_ACK;
		return;
	}
	g_assert_true(eap_mschap_v2_authenticator_response(hash, nt_response, peer_challenge,
	                                                   srv->challenge, srv->user, auth, NULL));
	{
		guint8 req[5 + EAP_MSCHAP_AUTH_RESPONSE_LEN] = {JOIND_EAP_TYPE_MSCHAPV2, 3, 9, 0,
		                                                4 + EAP_MSCHAP_AUTH_RESPONSE_LEN};
		guint8 master[16];
		memcpy(req + 5, auth, sizeof(auth));
		tunnel_server_write(s, req, sizeof(req));
		/* The server's ISK: its receive key, then its send key. */
		g_assert_true(eap_mschap_v2_master_key(hash, nt_response, master, NULL));
		g_assert_true(
		        eap_mschap_v2_asymmetric_start_key(master, FALSE, TRUE, srv->isk, NULL));
		g_assert_true(eap_mschap_v2_asymmetric_start_key(master, TRUE, TRUE, srv->isk + 16,
		                                                 NULL));
	}
	srv->phase = PEAP_SRV_MSCHAPV2_ACK;
}

/* The tunnel's key material, len octets: TLS 1.3's exporter (RFC 9427,
 * Type 25 as the context) or TLS 1.2's PRF. */
static void
peap_srv_export(TunnelServer *s, guint8 *out, gsize len)
{
	if (tunnel_server_version(s) == TLS1_3_VERSION)
		tunnel_server_export(s, "EXPORTER_EAP_TLS_Key_Material",
		                     (const guint8[]){JOIND_EAP_TYPE_PEAP}, 1, out, len);
	else
		tunnel_server_export(s, "client EAP encryption", NULL, 0, out, len);
}

/* Extensions with Result (and Crypto-Binding), full EAP header. */
static void
peap_srv_result(TunnelServer *s, PeapServer *srv, gboolean success)
{
	g_autoptr(GByteArray) ext = g_byte_array_new();
	guint8 header[5] = {JOIND_EAP_CODE_REQUEST, srv->ext_id = 77, 0, 0,
	                    EAP_PEAP_TYPE_EXTENSIONS};
	guint8 tk[128] = {0};
	gboolean bind = success && srv->binding;

	g_byte_array_append(ext, header, sizeof(header));
	eap_peap_result_tlv_build(ext, success ? EAP_PEAP_RESULT_SUCCESS : EAP_PEAP_RESULT_FAILURE);
	peap_srv_export(s, tk, bind && srv->binding_tk_len != 0 ? srv->binding_tk_len : sizeof(tk));
	if (bind) {
		guint8 tlv[EAP_PEAP_BINDING_TLV_LEN] = {0, EAP_PEAP_TLV_BINDING, 0,
		                                        EAP_PEAP_BINDING_VALUE_LEN};
		g_assert_true(eap_peap_compound_keys(tk, srv->isk, srv->ipmk, srv->cmk, NULL));
		g_assert_cmpint(RAND_bytes(tlv + 8, 32), ==, 1);
		memcpy(srv->nonce, tlv + 8, 32);
		g_assert_true(eap_peap_compound_mac(srv->cmk, tlv, tlv + 40, NULL));
		if (srv->break_binding)
			tlv[45] ^= 0x10;
		g_byte_array_append(ext, tlv, sizeof(tlv));
		g_assert_true(eap_peap_binding_session_keys(srv->ipmk, srv->msk, srv->emsk, NULL));
	} else {
		memcpy(srv->msk, tk, 64);
		memcpy(srv->emsk, tk + 64, 64);
	}
	ext->data[3] = (guint8)ext->len;
	tunnel_server_write(s, ext->data, ext->len);
	srv->phase = PEAP_SRV_RESULT;
}

static TunnelServerVerdict
peap_srv_final(PeapServer *srv, const guint8 *d, gsize len)
{
	EapPeapTlvs tlvs;
	g_autoptr(GError) error = NULL;

	g_assert_cmpuint(len, >=, 5);
	g_assert_cmpuint(d[0], ==, JOIND_EAP_CODE_RESPONSE);
	g_assert_cmpuint(d[1], ==, srv->ext_id);
	g_assert_cmpuint((d[2] << 8) | d[3], ==, len);
	g_assert_cmpuint(d[4], ==, EAP_PEAP_TYPE_EXTENSIONS);
	/* The Result first (the peer's parser takes only a binding request,
	 * so the server checks the peer's binding response by hand). */
	g_assert_cmpuint(len, >=, 5 + 6);
	g_assert_true(eap_peap_tlvs_parse(d + 5, 6, &tlvs, &error));
	if (!srv->inner_ok) {
		g_assert_cmpuint(tlvs.result, ==, EAP_PEAP_RESULT_FAILURE);
		g_assert_cmpuint(len, ==, 5 + 6);
		return TUNNEL_SERVER_FAILURE;
	}
	g_assert_cmpuint(tlvs.result, ==, EAP_PEAP_RESULT_SUCCESS);
	if (srv->binding) {
		const guint8 *tlv = d + 11;
		guint8 mac[EAP_PEAP_BINDING_MAC_LEN];

		g_assert_cmpuint(len, ==, 5 + 6 + EAP_PEAP_BINDING_TLV_LEN);
		g_assert_cmpuint(tlv[1], ==, EAP_PEAP_TLV_BINDING);
		g_assert_cmpuint(tlv[7], ==, EAP_PEAP_BINDING_RESPONSE);
		g_assert_cmpmem(tlv + 8, 32, srv->nonce, 32);
		g_assert_true(eap_peap_compound_mac(srv->cmk, tlv, mac, NULL));
		g_assert_cmpmem(tlv + 40, 20, mac, 20);
	} else {
		g_assert_cmpuint(len, ==, 5 + 6);
	}
	return TUNNEL_SERVER_SUCCESS;
}

static TunnelServerVerdict
peap_srv_app_data(TunnelServer *s, const guint8 *d, gsize len, gpointer data)
{
	PeapServer *srv = data;

	switch (srv->phase) {
	case PEAP_SRV_IDENTITY:
		g_assert_cmpuint(d[0], ==, JOIND_EAP_TYPE_IDENTITY);
		g_assert_cmpmem(d + 1, len - 1, srv->user, strlen(srv->user));
		if (g_strcmp0(srv->inner_method, "GTC") == 0) {
			tunnel_server_write(s, "\x06Password:", 10);
			srv->phase = PEAP_SRV_GTC_RESPONSE;
		} else {
			peap_srv_mschapv2_challenge(s, srv);
		}
		return TUNNEL_SERVER_CONTINUE;
	case PEAP_SRV_MSCHAPV2_RESPONSE:
		g_assert_cmpuint(d[0], ==, JOIND_EAP_TYPE_MSCHAPV2);
		peap_srv_mschapv2_verify(s, srv, d, len);
		return TUNNEL_SERVER_CONTINUE;
	case PEAP_SRV_MSCHAPV2_ACK:
		g_assert_cmpmem(d, len, "\x1a\x03", 2);
		srv->inner_ok = TRUE;
		peap_srv_result(s, srv, TRUE);
		return TUNNEL_SERVER_CONTINUE;
	case PEAP_SRV_GTC_RESPONSE:
		g_assert_cmpuint(d[0], ==, JOIND_EAP_TYPE_GTC);
		srv->inner_ok = len - 1 == strlen(srv->password) &&
		                memcmp(d + 1, srv->password, len - 1) == 0;
		peap_srv_result(s, srv, srv->inner_ok);
		return TUNNEL_SERVER_CONTINUE;
	case PEAP_SRV_FAILURE_ACK:
		g_assert_cmpmem(d, len, "\x1a\x04", 2);
		peap_srv_result(s, srv, FALSE);
		return TUNNEL_SERVER_CONTINUE;
	default:
		return peap_srv_final(srv, d, len);
	}
}

static EapTestPeer *
peap_peer(const gchar *inner, const gchar *user, const gchar *password, const gchar *ca,
          const gchar *extra)
{
	g_autofree gchar *security = g_strdup_printf(
	        "EAP-Method=PEAP\nEAP-Identity=anonymous@auth.test\nEAP-PEAP-CACert=%s\n"
	        "EAP-PEAP-ServerDomainMask=auth.test\nEAP-PEAP-Phase2-Method=%s\n"
	        "EAP-PEAP-Phase2-Identity=%s\n%s%s%s",
	        ca, inner, user, password != NULL ? "EAP-PEAP-Phase2-Password=" : "",
	        password != NULL ? password : "", extra != NULL ? extra : "");

	return eap_test_peer_new(security);
}

static TunnelServer *
peap_server(PeapServer *srv, int max_version)
{
	TunnelServerOptions o = {
	        .eap_type = JOIND_EAP_TYPE_PEAP,
	        .max_version = max_version,
	        .cert = pki->server_cert,
	        .key = pki->server_key,
	        .tunnel_up = peap_srv_tunnel_up,
	        .app_data = peap_srv_app_data,
	        .user_data = srv,
	};

	return tunnel_server_new(&o);
}

static void
assert_keys(EapTestPeer *peer, PeapServer *srv)
{
	gsize len = 0;
	const guint8 *msk = joind_eap_session_get_msk(peer->session, &len);

	g_assert_cmpmem(msk, len, srv->msk, 64);
	msk = joind_eap_session_get_emsk(peer->session, &len);
	g_assert_cmpmem(msk, len, srv->emsk, 64);
}

/* A successful run against srv; export64 (when not NULL): the first 64
 * octets of a 64-octet export of the tunnel, after the run. */
static void
run_server(PeapServer *srv, int max_version, guint8 *export64)
{
	g_autoptr(EapTestPeer) peer =
	        peap_peer(srv->inner_method, "peapuser", "peappass", pki->ca, NULL);
	g_autoptr(TunnelServer) s = peap_server(srv, max_version);

	g_assert_true(joind_eap_session_check(peer->session, NULL));
	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_SUCCESS);
	g_assert_true(peer->succeeded);
	g_assert_cmpint(tunnel_server_version(s), ==, max_version);
	assert_keys(peer, srv);
	if (export64 != NULL)
		peap_srv_export(s, export64, 64);
}

static void
run_success(const gchar *inner, gboolean binding, int max_version)
{
	PeapServer srv = {.inner_method = inner,
	                  .user = "peapuser",
	                  .password = "peappass",
	                  .binding = binding};

	run_server(&srv, max_version, NULL);
}

/* hostapd's crypto binding over TLS 1.3: its TK is a 64-octet export, no
 * prefix of the 128-octet one joind tries first. */
static void
test_mschapv2_binding_tls13_tk64(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2",
	                  .user = "peapuser",
	                  .password = "peappass",
	                  .binding = TRUE,
	                  .binding_tk_len = 64};

	run_server(&srv, TLS1_3_VERSION, NULL);
}

/* No binding over TLS 1.3 (FreeRADIUS never sends one): the MSK is the
 * first 64 octets of the 128-octet export, as RFC 9427 and hostapd's
 * getKey have it, which the 64-octet export is not. */
static void
test_mschapv2_no_binding_tls13(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2", .user = "peapuser", .password = "peappass"};
	guint8 export64[64];

	run_server(&srv, TLS1_3_VERSION, export64);
	g_assert_true(memcmp(srv.msk, export64, sizeof(export64)) != 0);
}

static void
test_mschapv2_binding(void)
{
	run_success("MSCHAPV2", TRUE, TLS1_2_VERSION);
}

static void
test_mschapv2_binding_tls13(void)
{
	run_success("MSCHAPV2", TRUE, TLS1_3_VERSION);
}

static void
test_mschapv2_no_binding(void)
{
	run_success("MSCHAPV2", FALSE, TLS1_2_VERSION);
}

static void
test_gtc_binding(void)
{
	run_success("GTC", TRUE, TLS1_2_VERSION);
}

static void
test_wrong_password(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2",
	                  .user = "peapuser",
	                  .password = "peappass",
	                  .binding = TRUE};
	g_autoptr(EapTestPeer) peer = peap_peer("MSCHAPV2", "peapuser", "nope", pki->ca, NULL);
	g_autoptr(TunnelServer) s = peap_server(&srv, TLS1_2_VERSION);

	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_FAILURE);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	eap_test_assert_message(peer->error, "rejected the EAP-PEAP authentication");
	eap_test_assert_message(peer->error, "user name or password is wrong (E=691)");
	g_assert_null(joind_eap_session_get_msk(peer->session, NULL));
}

static void
test_broken_binding(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2",
	                  .user = "peapuser",
	                  .password = "peappass",
	                  .binding = TRUE,
	                  .break_binding = TRUE};
	g_autoptr(EapTestPeer) peer = peap_peer("MSCHAPV2", "peapuser", "peappass", pki->ca, NULL);
	g_autoptr(TunnelServer) s = peap_server(&srv, TLS1_2_VERSION);

	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	g_assert_true(peer->failed);
	eap_test_assert_message(peer->error, "crypto binding failed");
	g_assert_false(peer->succeeded);
}

static void
test_untrusted_server(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2", .user = "peapuser", .password = "peappass"};
	g_autoptr(EapTestPeer) peer =
	        peap_peer("MSCHAPV2", "peapuser", "peappass", pki->other_ca, NULL);
	g_autoptr(TunnelServer) s = peap_server(&srv, TLS1_2_VERSION);

	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	g_assert_true(peer->failed);
	g_assert_cmpint(srv.phase, ==, PEAP_SRV_IDENTITY); /* never reached the inner method */
	g_test_message("%s", peer->error->message);
}

/* The inner password comes from the agent while the outer conversation
 * waits, then the tunnel answers the held request. */
static void
test_agent_password(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2",
	                  .user = "peapuser",
	                  .password = "peappass",
	                  .binding = TRUE};
	g_autoptr(EapTestPeer) peer = peap_peer("MSCHAPV2", "peapuser", NULL, pki->ca, NULL);
	g_autoptr(TunnelServer) s = peap_server(&srv, TLS1_2_VERSION);

	peer->has_agent = TRUE;
	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	g_assert_cmpuint(peer->agent_questions, ==, 1);
	g_assert_cmpint(peer->agent_kind, ==, JOIND_SECRET_USER_PASSWORD);
	g_assert_cmpint(joind_eap_session_get_state(peer->session), ==, JOIND_EAP_STATE_PAUSED);
	eap_test_peer_agent_answer(peer, NULL, "peappass");
	g_assert_cmpint(tunnel_server_resume(s, peer), ==, TUNNEL_SERVER_SUCCESS);
	g_assert_true(peer->succeeded);
	assert_keys(peer, &srv);
}

static void
test_agent_cancelled(void)
{
	PeapServer srv = {.inner_method = "MSCHAPV2", .user = "peapuser", .password = "peappass"};
	g_autoptr(EapTestPeer) peer = peap_peer("MSCHAPV2", "peapuser", NULL, pki->ca, NULL);
	g_autoptr(TunnelServer) s = peap_server(&srv, TLS1_2_VERSION);

	peer->has_agent = TRUE;
	g_assert_cmpint(tunnel_server_run(s, peer), ==, TUNNEL_SERVER_CONTINUE);
	eap_test_peer_agent_refuse(peer, JOIND_ERROR_ABORTED);
	g_assert_true(peer->failed);
	g_assert_error(peer->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	eap_test_assert_message(peer->error, "EAP-PEAP-Phase2-Password");
}

static void
test_bad_settings(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(EapTestPeer) peer = peap_peer("TLS", "peapuser", "x", pki->ca, NULL);
	g_autoptr(EapTestPeer) none = eap_test_peer_new("EAP-Method=PEAP\nEAP-Identity=a\n"
	                                                "EAP-PEAP-CACert=/nonexistent\n"
	                                                "EAP-PEAP-Phase2-Method=MSCHAPV2");

	/* EAP-TLS is not an inner method; a missing CA file is an error. */
	g_assert_false(joind_eap_session_check(peer->session, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	eap_test_assert_message(error, "EAP-PEAP-Phase2-Method");
	g_clear_error(&error);
	g_assert_false(joind_eap_session_check(none->session, &error));
	eap_test_assert_message(error, "EAP-PEAP-CACert");
}

int
main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_peap_ops, NULL));
	g_assert_true(joind_eap_register_method(&eap_mschapv2_ops, NULL));
	g_assert_true(joind_eap_register_method(&eap_gtc_ops, NULL));
	pki = test_pki_new();
	g_test_add_func("/eap-peap/mschapv2/binding", test_mschapv2_binding);
	g_test_add_func("/eap-peap/mschapv2/binding-tls13", test_mschapv2_binding_tls13);
	g_test_add_func("/eap-peap/mschapv2/binding-tls13-tk64", test_mschapv2_binding_tls13_tk64);
	g_test_add_func("/eap-peap/mschapv2/no-binding", test_mschapv2_no_binding);
	g_test_add_func("/eap-peap/mschapv2/no-binding-tls13", test_mschapv2_no_binding_tls13);
	g_test_add_func("/eap-peap/gtc/binding", test_gtc_binding);
	g_test_add_func("/eap-peap/wrong-password", test_wrong_password);
	g_test_add_func("/eap-peap/broken-binding", test_broken_binding);
	g_test_add_func("/eap-peap/untrusted-server", test_untrusted_server);
	g_test_add_func("/eap-peap/agent/password", test_agent_password);
	g_test_add_func("/eap-peap/agent/cancelled", test_agent_cancelled);
	g_test_add_func("/eap-peap/bad-settings", test_bad_settings);
	status = g_test_run();
	test_pki_free(pki);
	return status;
}
