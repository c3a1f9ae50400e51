/* test-eap-tls.c - EAP-TLS end to end in one process: a JoindEapSession
 * running the TLS method against a small EAP-TLS server built on OpenSSL
 * (memory BIOs, its own fragments and ACKs), over a throw-away PKI.
 *
 * Keys are checked three ways: the peer's MSK/EMSK, the server's export
 * with the same labels, and an independent derivation from the raw TLS
 * secrets (TLS1-PRF over the master secret for TLS 1.2, HKDF-Expand-Label
 * from the exporter secret for TLS 1.3), so a wrong label or context in the
 * method cannot hide behind OpenSSL agreeing with itself. */
#include <string.h>

#include <glib/gstdio.h>

#include <gio/gio.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/ssl.h>

#include "eap-tls-flow.h"
#include "eap-tls-frag.h"
#include "eap-tls-autoptr.h"
#include "eap-tls-pin.h"
#include "eap-tls.h"
#include "joind-eap-private.h"
#include "joind-error.h"
#include "joind-profile-private.h"
#include "test-pki.h"

static TestPki *pki;

/* ---- the EAP-TLS server ---- */

typedef struct {
	int min_version, max_version;
	const gchar *cert, *key;
	const gchar *client_ca; /* trust anchor for client certificates */
	gsize max_type_data;    /* of the server's requests */
	gboolean tunnel;        /* after the handshake: "ping" in, "pong" out */
} ServerOptions;

typedef struct {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rbio, *wbio;
	EapTlsReassembler *in;
	EapTlsFragmenter *out;
	gsize max_type_data;
	guint8 id;
	gboolean handshake_done, failed, reject;
	gboolean tunnel, pinged, ponged;
	guint8 result; /* JOIND_EAP_CODE_SUCCESS/FAILURE once sent */
	guint requests, client_fragments;
	guint8 material[128];        /* the server's export */
	guint8 independent[128];     /* from the raw secrets */
	GByteArray *exporter_secret; /* TLS 1.3, from the key log */
} Server;

static Server *keylog_server;

static void
server_keylog(const SSL *ssl, const char *line)
{
	g_auto(GStrv) parts = g_strsplit(line, " ", 3);

	if (g_strcmp0(parts[0], "EXPORTER_SECRET") != 0 || parts[2] == NULL)
		return;
	g_byte_array_set_size(keylog_server->exporter_secret, 0);
	for (const gchar *p = parts[2]; p[0] != '\0' && p[1] != '\0'; p += 2) {
		guint8 b = (guint8)((g_ascii_xdigit_value(p[0]) << 4) | g_ascii_xdigit_value(p[1]));
		g_byte_array_append(keylog_server->exporter_secret, &b, 1);
	}
}

static Server *
server_new(const ServerOptions *o)
{
	Server *s = g_new0(Server, 1);

	s->ctx = SSL_CTX_new(TLS_server_method());
	g_assert_true(SSL_CTX_use_certificate_file(s->ctx, o->cert, SSL_FILETYPE_PEM));
	g_assert_true(SSL_CTX_use_PrivateKey_file(s->ctx, o->key, SSL_FILETYPE_PEM));
	g_assert_true(SSL_CTX_load_verify_file(s->ctx, o->client_ca));
	SSL_CTX_set_verify(s->ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	SSL_CTX_set_min_proto_version(s->ctx, o->min_version);
	SSL_CTX_set_max_proto_version(s->ctx, o->max_version);
	SSL_CTX_set_keylog_callback(s->ctx, server_keylog);
	/* Sessions may be resumed (test_resumption); one context for all. */
	SSL_CTX_set_session_id_context(s->ctx, (const guint8 *)"eap-tls", 7);
	s->ssl = SSL_new(s->ctx);
	s->rbio = BIO_new(BIO_s_mem());
	s->wbio = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(s->rbio, -1);
	SSL_set_bio(s->ssl, s->rbio, s->wbio);
	SSL_set_accept_state(s->ssl);
	s->in = eap_tls_reassembler_new(EAP_TLS_MAX_MESSAGE);
	s->out = eap_tls_fragmenter_new();
	s->max_type_data = o->max_type_data;
	s->tunnel = o->tunnel;
	s->id = 100;
	s->exporter_secret = g_byte_array_new();
	keylog_server = s;
	return s;
}

static void
server_free(Server *s)
{
	SSL_free(s->ssl);
	SSL_CTX_free(s->ctx);
	eap_tls_reassembler_free(s->in);
	eap_tls_fragmenter_free(s->out);
	g_byte_array_unref(s->exporter_secret);
	keylog_server = NULL;
	g_free(s);
}

static void
hkdf_expand_label(const EVP_MD *md, const guint8 *secret, gsize secret_len, const gchar *label,
                  const guint8 *context, gsize context_len, guint8 *out, gsize out_len)
{
	g_autoptr(GByteArray) info = g_byte_array_new();
	guint8 b[2] = {(guint8)(out_len >> 8), (guint8)out_len};
	gsize label_len = 6 + strlen(label);
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *kctx = EVP_KDF_CTX_new(kdf);
	int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
	OSSL_PARAM params[5];

	g_byte_array_append(info, b, 2);
	b[0] = (guint8)label_len;
	g_byte_array_append(info, b, 1);
	g_byte_array_append(info, (const guint8 *)"tls13 ", 6);
	g_byte_array_append(info, (const guint8 *)label, (guint)strlen(label));
	b[0] = (guint8)context_len;
	g_byte_array_append(info, b, 1);
	g_byte_array_append(info, context, (guint)context_len);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
	                                             (char *)EVP_MD_get0_name(md), 0);
	params[1] =
	        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)secret, secret_len);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info->data, info->len);
	params[3] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	params[4] = OSSL_PARAM_construct_end();
	g_assert_cmpint(EVP_KDF_derive(kctx, out, out_len, params), ==, 1);
	EVP_KDF_CTX_free(kctx);
	EVP_KDF_free(kdf);
}

/* RFC 9190 2.3 from the exporter secret: TLS-Exporter(label, 0x0D, 128). */
static void
server_independent_tls13(Server *s)
{
	const EVP_MD *md = SSL_CIPHER_get_handshake_digest(SSL_get_current_cipher(s->ssl));
	guint8 empty_hash[EVP_MAX_MD_SIZE], ctx_hash[EVP_MAX_MD_SIZE], derived[EVP_MAX_MD_SIZE];
	const guint8 type_code = 0x0d;
	unsigned int hlen = 0;

	g_assert_cmpuint(s->exporter_secret->len, >, 0);
	EVP_Digest("", 0, empty_hash, &hlen, md, NULL);
	EVP_Digest(&type_code, 1, ctx_hash, &hlen, md, NULL);
	hkdf_expand_label(md, s->exporter_secret->data, s->exporter_secret->len,
	                  "EXPORTER_EAP_TLS_Key_Material", empty_hash, hlen, derived, hlen);
	hkdf_expand_label(md, derived, hlen, "exporter", ctx_hash, hlen, s->independent, 128);
}

/* RFC 5216 2.3: TLS-PRF-128(master, "client EAP encryption", randoms). */
static void
server_independent_tls12(Server *s)
{
	const EVP_MD *md = SSL_CIPHER_get_handshake_digest(SSL_get_current_cipher(s->ssl));
	guint8 master[48], seed[64];
	gsize master_len = SSL_SESSION_get_master_key(SSL_get_session(s->ssl), master, 48);
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "TLS1-PRF", NULL);
	EVP_KDF_CTX *kctx = EVP_KDF_CTX_new(kdf);
	OSSL_PARAM params[5];

	SSL_get_client_random(s->ssl, seed, 32);
	SSL_get_server_random(s->ssl, seed + 32, 32);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
	                                             (char *)EVP_MD_get0_name(md), 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SECRET, master, master_len);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SEED,
	                                              (void *)"client EAP encryption", 21);
	params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SEED, seed, sizeof(seed));
	params[4] = OSSL_PARAM_construct_end();
	g_assert_cmpint(EVP_KDF_derive(kctx, s->independent, 128, params), ==, 1);
	EVP_KDF_CTX_free(kctx);
	EVP_KDF_free(kdf);
}

static void
server_handshake_done(Server *s)
{
	static const guint8 type_code = 0x0d;
	gboolean tls13 = SSL_version(s->ssl) == TLS1_3_VERSION;

	s->handshake_done = TRUE;
	if (tls13) {
		g_assert_cmpint(SSL_export_keying_material(s->ssl, s->material, 128,
		                                           "EXPORTER_EAP_TLS_Key_Material", 29,
		                                           &type_code, 1, 1),
		                ==, 1);
		server_independent_tls13(s);
		/* RFC 9190 2.5: the protected success indication (EAP-TLS only). */
		if (!s->tunnel)
			g_assert_cmpint(SSL_write(s->ssl, "\0", 1), ==, 1);
	} else {
		g_assert_cmpint(SSL_export_keying_material(s->ssl, s->material, 128,
		                                           "client EAP encryption", 21, NULL, 0, 0),
		                ==, 1);
		server_independent_tls12(s);
	}
}

static GByteArray *
server_request(Server *s, const guint8 *type_data, gsize len)
{
	s->requests++;
	return joind_eap_packet_build(JOIND_EAP_CODE_REQUEST, ++s->id,
	                              s->tunnel ? JOIND_EAP_TYPE_TTLS : JOIND_EAP_TYPE_TLS,
	                              type_data, len, NULL);
}

static GByteArray *
server_result(Server *s, guint8 code)
{
	if (s->reject)
		code = JOIND_EAP_CODE_FAILURE;
	s->result = code;
	return joind_eap_packet_build(code, s->id, 0, NULL, 0, NULL);
}

static GByteArray *
server_next_fragment(Server *s)
{
	g_autoptr(GByteArray) td = g_byte_array_new();

	eap_tls_fragmenter_next(s->out, s->max_type_data, 0, td);
	return server_request(s, td->data, td->len);
}

/* Feeds a complete TLS message from the peer; returns the next packet. */
static GByteArray *
server_tls_message(Server *s, GBytes *msg)
{
	g_autoptr(GBytes) output = NULL;
	size_t pending;

	BIO_write(s->rbio, g_bytes_get_data(msg, NULL), (int)g_bytes_get_size(msg));
	if (!s->handshake_done) {
		int r = SSL_do_handshake(s->ssl);
		if (r == 1)
			server_handshake_done(s);
		else if (SSL_get_error(s->ssl, r) != SSL_ERROR_WANT_READ)
			s->failed = TRUE;
	} else {
		guint8 buf[64];
		int n = SSL_read(s->ssl, buf, sizeof(buf));
		if (n == 4 && memcmp(buf, "pong", 4) == 0)
			s->ponged = TRUE;
		else if (n <= 0 && SSL_get_error(s->ssl, n) != SSL_ERROR_WANT_READ)
			s->failed = TRUE;
	}
	if (s->tunnel && s->handshake_done && !s->pinged && !s->failed &&
	    SSL_version(s->ssl) == TLS1_3_VERSION) {
		s->pinged = TRUE;
		g_assert_cmpint(SSL_write(s->ssl, "ping", 4), ==, 4);
	}
	ERR_clear_error();
	pending = BIO_ctrl_pending(s->wbio);
	if (pending == 0)
		return server_result(s,
		                     s->failed ? JOIND_EAP_CODE_FAILURE : JOIND_EAP_CODE_SUCCESS);
	output = g_bytes_new_take(g_malloc(pending), pending);
	BIO_read(s->wbio, (void *)g_bytes_get_data(output, NULL), (int)pending);
	eap_tls_fragmenter_set(s->out, output);
	return server_next_fragment(s);
}

static GByteArray *
server_handle(Server *s, GBytes *response)
{
	g_autoptr(GBytes) msg = NULL;
	const guint8 start = EAP_TLS_FLAG_START;
	JoindEapPacket p;
	EapTlsHeader h;
	gboolean complete = FALSE;

	g_assert_true(joind_eap_packet_parse(g_bytes_get_data(response, NULL),
	                                     g_bytes_get_size(response), &p, NULL));
	g_assert_cmpuint(p.code, ==, JOIND_EAP_CODE_RESPONSE);
	g_assert_cmpuint(p.id, ==, s->id);
	if (p.type == JOIND_EAP_TYPE_IDENTITY)
		return server_request(s, &start, 1);
	if (p.type != (s->tunnel ? JOIND_EAP_TYPE_TTLS : JOIND_EAP_TYPE_TLS))
		return server_result(s, JOIND_EAP_CODE_FAILURE);
	g_assert_true(eap_tls_header_parse(p.type_data, p.type_data_len, &h, NULL));
	if (eap_tls_fragmenter_pending(s->out)) {
		g_assert_cmpuint(h.data_len, ==, 0); /* the peer's ACK */
		return server_next_fragment(s);
	}
	g_assert_true(eap_tls_reassembler_push(s->in, &h, &complete, NULL));
	s->client_fragments++;
	if (!complete)
		return server_request(s, (const guint8 *)"\0", 1); /* ACK */
	msg = eap_tls_reassembler_take(s->in);
	if (g_bytes_get_size(msg) == 0 && s->tunnel && s->handshake_done && !s->pinged) {
		/* TLS 1.2: the peer acknowledged our Finished; start the tunnel. */
		g_autoptr(GBytes) ping = NULL;
		gsize pending;

		s->pinged = TRUE;
		g_assert_cmpint(SSL_write(s->ssl, "ping", 4), ==, 4);
		pending = BIO_ctrl_pending(s->wbio);
		ping = g_bytes_new_take(g_malloc(pending), pending);
		BIO_read(s->wbio, (void *)g_bytes_get_data(ping, NULL), (int)pending);
		eap_tls_fragmenter_set(s->out, ping);
		return server_next_fragment(s);
	}
	if (g_bytes_get_size(msg) == 0)
		return server_result(s, s->failed || !s->handshake_done ? JOIND_EAP_CODE_FAILURE
		                                                        : JOIND_EAP_CODE_SUCCESS);
	return server_tls_message(s, msg);
}

/* ---- the peer side ---- */

typedef struct {
	Server *server;
	JoindEapSession *session;
	GQueue responses; /* GBytes */
	guint succeeded, failed;
	JoindEapStage stage;
	GError *error;
	/* fake agent */
	GTask *agent_task;
	JoindSecretKind agent_kind;
	guint agent_requests;
} Conv;

static void
conv_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	g_queue_push_tail(&((Conv *)data)->responses, g_bytes_new(packet, len));
}

static void
conv_succeeded(JoindEapSession *s, gpointer data)
{
	((Conv *)data)->succeeded++;
}

static void
conv_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	Conv *c = data;

	c->failed++;
	c->stage = stage;
	g_clear_error(&c->error);
	c->error = g_error_copy(error);
	g_test_message("peer failed (%s): %s", joind_eap_stage_to_string(stage), error->message);
}

static const JoindEapSessionCallbacks conv_callbacks = {
        .send = conv_send, .succeeded = conv_succeeded, .failed = conv_failed};

static void
agent_request(gpointer data, JoindSecretKind kind, const gchar *object_path, const gchar *user,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	Conv *c = data;

	c->agent_requests++;
	c->agent_kind = kind;
	c->agent_task = g_task_new(NULL, cancellable, callback, user_data);
}

static JoindSecret *
agent_finish(gpointer data, GAsyncResult *result, GError **error)
{
	return g_task_propagate_pointer(G_TASK(result), error);
}

static const JoindEapSecretProvider fake_agent = {.request = agent_request, .finish = agent_finish};

static void
conv_init(Conv *c, const ServerOptions *o, gsize peer_mtu, const gchar *security)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree gchar *text = g_strdup_printf("[Security]\nEAP-Method=TLS\n"
	                                         "EAP-Identity=tlsuser\n%s\n",
	                                         security);

	memset(c, 0, sizeof(*c));
	g_assert_true(g_key_file_load_from_data(kf, text, (gsize)-1, G_KEY_FILE_NONE, NULL));
	c->server = server_new(o);
	c->session = joind_eap_session_new_for_keyfile(kf, &conv_callbacks, c);
	joind_eap_session_set_secret_provider(c->session, &fake_agent, c);
	if (peer_mtu > 0)
		joind_eap_session_set_mtu(c->session, peer_mtu);
}

static void
conv_clear(Conv *c)
{
	joind_eap_session_unref(c->session);
	server_free(c->server);
	g_queue_clear_full(&c->responses, (GDestroyNotify)g_bytes_unref);
	g_clear_error(&c->error);
	g_clear_object(&c->agent_task);
}

static void
conv_deliver(Conv *c, GByteArray *packet)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(joind_eap_session_rx(c->session, packet->data, packet->len, &error));
	g_assert_no_error(error);
	g_byte_array_unref(packet);
}

/* Passes packets both ways until the server has decided or the peer went
 * quiet (failed, or waiting for the agent). */
static void
conv_pump(Conv *c)
{
	for (guint i = 0; i < 500 && c->server->result == 0; i++) {
		g_autoptr(GBytes) response = g_queue_pop_head(&c->responses);
		if (response == NULL)
			return;
		conv_deliver(c, server_handle(c->server, response));
	}
	g_assert_cmpuint(c->server->result, !=, 0);
}

static void
conv_run(Conv *c)
{
	const guint8 identity[] = {JOIND_EAP_CODE_REQUEST, 100, 0, 5, JOIND_EAP_TYPE_IDENTITY};

	g_assert_true(joind_eap_session_rx(c->session, identity, sizeof(identity), NULL));
	conv_pump(c);
}

static void
assert_keys(Conv *c)
{
	gsize msk_len = 0, emsk_len = 0;
	const guint8 *msk = joind_eap_session_get_msk(c->session, &msk_len);
	const guint8 *emsk = joind_eap_session_get_emsk(c->session, &emsk_len);

	g_assert_cmpmem(msk, msk_len, c->server->material, 64);
	g_assert_cmpmem(emsk, emsk_len, c->server->material + 64, 64);
	g_assert_cmpmem(c->server->material, 128, c->server->independent, 128);
}

static void
assert_failed(Conv *c, gint code, const gchar *part)
{
	g_assert_cmpuint(c->succeeded, ==, 0);
	g_assert_cmpuint(c->failed, ==, 1);
	g_assert_nonnull(c->error);
	g_assert_cmpint(c->error->code, ==, code);
	if (strstr(c->error->message, part) == NULL)
		g_error("\"%s\" lacks \"%s\"", c->error->message, part);
	g_assert_null(joind_eap_session_get_msk(c->session, NULL));
}

#define SERVER_12                                                      \
	{                                                              \
		TLS1_2_VERSION, TLS1_2_VERSION, NULL, NULL, NULL, 1398 \
	}
#define SERVER_13                                                      \
	{                                                              \
		TLS1_3_VERSION, TLS1_3_VERSION, NULL, NULL, NULL, 1398 \
	}
#define SERVER_BOTH                                                    \
	{                                                              \
		TLS1_2_VERSION, TLS1_3_VERSION, NULL, NULL, NULL, 1398 \
	}

static void
server_defaults(ServerOptions *o)
{
	if (o->cert == NULL)
		o->cert = pki->server_cert;
	if (o->key == NULL)
		o->key = pki->server_key;
	if (o->client_ca == NULL)
		o->client_ca = pki->ca;
}

static gchar *
security_plain(const gchar *extra)
{
	return g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s\n%s",
	                       pki->ca, pki->client_cert, pki->client_key,
	                       extra != NULL ? extra : "");
}

static void
run_success(ServerOptions o, gsize peer_mtu, const gchar *security, int version)
{
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, peer_mtu, security);
	conv_run(&c);
	g_assert_no_error(c.error);
	g_assert_cmpuint(c.server->result, ==, JOIND_EAP_CODE_SUCCESS);
	g_assert_cmpuint(c.succeeded, ==, 1);
	g_assert_cmpint(SSL_version(c.server->ssl), ==, version);
	assert_keys(&c);
	conv_clear(&c);
}

/* ---- success cases ---- */

static void
test_tls12(void)
{
	g_autofree gchar *sec = security_plain(NULL);

	run_success((ServerOptions)SERVER_12, 0, sec, TLS1_2_VERSION);
}

static void
test_tls13(void)
{
	g_autofree gchar *sec = security_plain(NULL);

	run_success((ServerOptions)SERVER_13, 0, sec, TLS1_3_VERSION);
	/* Both allowed: 1.3 wins. */
	run_success((ServerOptions)SERVER_BOTH, 0, sec, TLS1_3_VERSION);
}

static void
test_small_fragments(void)
{
	g_autofree gchar *sec = security_plain(NULL);
	ServerOptions o = {TLS1_2_VERSION, TLS1_3_VERSION, NULL, NULL, NULL, 100};
	Conv c;

	/* Tiny MTUs on both sides: many fragments and ACKs each way. */
	server_defaults(&o);
	for (int v = 0; v < 2; v++) {
		o.max_version = v == 0 ? TLS1_2_VERSION : TLS1_3_VERSION;
		conv_init(&c, &o, 120, sec);
		conv_run(&c);
		g_assert_cmpuint(c.succeeded, ==, 1);
		g_assert_cmpuint(c.server->client_fragments, >, 6);
		g_assert_cmpuint(c.server->requests, >, 10);
		assert_keys(&c);
		conv_clear(&c);
	}
}

static void
test_version_pinned(void)
{
	g_autofree gchar *only12 = security_plain("EAP-TLS-Version-Max=1.2");
	g_autofree gchar *only13 = security_plain("EAP-TLS-Version-Min=1.3");

	run_success((ServerOptions)SERVER_BOTH, 0, only12, TLS1_2_VERSION);
	run_success((ServerOptions)SERVER_BOTH, 0, only13, TLS1_3_VERSION);
}

static void
test_domain_mask_ok(void)
{
	g_autofree gchar *exact = security_plain("EAP-TLS-ServerDomainMask=auth.test");
	g_autofree gchar *wild = security_plain("EAP-TLS-ServerDomainMask=other.example;*.test");

	run_success((ServerOptions)SERVER_BOTH, 0, exact, TLS1_3_VERSION);
	run_success((ServerOptions)SERVER_12, 0, wild, TLS1_2_VERSION);
}

static gchar *
read_text(const gchar *path)
{
	gchar *text = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return text;
}

/* iwd's embed:<name>: the CA, the certificate and the key as [@pem@name]
 * groups of the profile itself, no files beside it. */
static void
test_embedded_pem(void)
{
	g_autofree gchar *ca = read_text(pki->ca);
	g_autofree gchar *cert = read_text(pki->client_cert);
	g_autofree gchar *key = read_text(pki->client_key);
	g_autofree gchar *text = g_strdup_printf(
	        "[Security]\nEAP-Method=TLS\nEAP-Identity=tlsuser\nEAP-TLS-CACert=embed:ca\n"
	        "EAP-TLS-ClientCert=embed:cert\nEAP-TLS-ClientKey=embed:key\n\n"
	        "[@pem@ca]\n%s[@pem@cert]\n%s[@pem@key]\n%s",
	        ca, cert, key);
	g_autoptr(GBytes) ssid = g_bytes_new_static("corp", 4);
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile =
	        joind_profile_parse("/test/corp.8021x", JOIND_PROFILE_TYPE_8021X, ssid,
	                            (const guint8 *)text, strlen(text), &error);
	ServerOptions o = SERVER_13;
	Conv c;

	g_assert_no_error(error);
	server_defaults(&o);
	conv_init(&c, &o, 0, "");
	joind_eap_session_unref(c.session);
	c.session = joind_eap_session_new(NULL, profile, "/test", &conv_callbacks, &c);
	conv_run(&c);
	g_assert_no_error(c.error);
	g_assert_cmpuint(c.succeeded, ==, 1);
	assert_keys(&c);
	conv_clear(&c);
}

static void
test_client_key_formats(void)
{
	g_autofree gchar *enc =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s\n"
	                        "EAP-TLS-ClientKeyPassphrase=" TEST_PKI_PASSPHRASE,
	                        pki->ca, pki->client_cert, pki->client_enc_key);
	g_autofree gchar *p12 = g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\n"
	                                        "EAP-TLS-ClientKeyPassphrase=" TEST_PKI_PASSPHRASE,
	                                        pki->ca, pki->client_p12);
	g_autofree gchar *p12_as_key =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s\n"
	                        "EAP-TLS-ClientKeyPassphrase=" TEST_PKI_PASSPHRASE,
	                        pki->ca, pki->client_cert, pki->client_p12);
	g_autofree gchar *combined = g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s",
	                                             pki->ca, pki->client_combined);

	run_success((ServerOptions)SERVER_12, 0, enc, TLS1_2_VERSION);
	run_success((ServerOptions)SERVER_13, 0, p12, TLS1_3_VERSION);
	run_success((ServerOptions)SERVER_13, 0, p12_as_key, TLS1_3_VERSION);
	run_success((ServerOptions)SERVER_12, 0, combined, TLS1_2_VERSION);
}

static void
test_passphrase_from_agent(void)
{
	g_autofree gchar *sec =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s",
	                        pki->ca, pki->client_cert, pki->client_enc_key);
	ServerOptions o = SERVER_13;
	JoindSecret *answer = g_new0(JoindSecret, 1);
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	conv_run(&c);
	/* Paused on the Start until the agent answers. */
	g_assert_cmpuint(c.agent_requests, ==, 1);
	g_assert_cmpint(c.agent_kind, ==, JOIND_SECRET_PRIVATE_KEY_PASSPHRASE);
	g_assert_cmpint(joind_eap_session_get_state(c.session), ==, JOIND_EAP_STATE_PAUSED);
	g_assert_cmpuint(c.server->result, ==, 0);
	answer->secret = g_strdup(TEST_PKI_PASSPHRASE);
	g_task_return_pointer(c.agent_task, answer, (GDestroyNotify)joind_secret_free);
	g_clear_object(&c.agent_task);
	while (g_main_context_iteration(NULL, FALSE))
		;
	conv_pump(&c);
	g_assert_cmpuint(c.succeeded, ==, 1);
	assert_keys(&c);
	conv_clear(&c);
}

/* ---- a toy tunnel over tls-common: answers "ping" with "pong" ---- */

typedef struct {
	EapTlsFlow *flow;
	JoindEapSession *session;
	gboolean defer;
	guint pings;
} Tunnel;

static Tunnel *current_tunnel;
static gboolean tunnel_defers;

static gboolean
tunnel_app_data(EapTlsFlow *flow, const guint8 *data, gsize len, gpointer user_data, GError **error)
{
	Tunnel *t = user_data;

	g_assert_cmpmem(data, len, "ping", 4);
	t->pings++;
	if (t->defer) {
		eap_tls_flow_defer(flow);
		return TRUE;
	}
	joind_eap_session_set_decision(t->session, JOIND_EAP_METHOD_STATE_MAY_CONT,
	                               JOIND_EAP_DECISION_COND_SUCC);
	return eap_tls_flow_write(flow, (const guint8 *)"pong", 4, error);
}

static const EapTlsFlowHooks tunnel_hooks = {.app_data = tunnel_app_data};

static gpointer
tunnel_state_new(JoindEapSession *session, GError **error)
{
	Tunnel *t = g_new0(Tunnel, 1);

	t->session = session;
	t->defer = tunnel_defers;
	t->flow = eap_tls_flow_new(session, "TUNNEL", "TLS-", FALSE, &tunnel_hooks, t);
	current_tunnel = t;
	return t;
}

static void
tunnel_state_free(gpointer data)
{
	Tunnel *t = data;

	eap_tls_flow_free(t->flow);
	if (current_tunnel == t)
		current_tunnel = NULL;
	g_free(t);
}

static JoindEapMethodResult
tunnel_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
              GByteArray *response, GError **error)
{
	return eap_tls_flow_handle(((Tunnel *)state)->flow, data, len, response, error);
}

static const JoindEapMethodOps tunnel_ops = {
        .type = JOIND_EAP_TYPE_TTLS,
        .name = "TUNNEL",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .state_new = tunnel_state_new,
        .state_free = tunnel_state_free,
        .handle_request = tunnel_handle,
};

static void
run_tunnel(int version, gboolean defer)
{
	/* A later key wins in a key file: this replaces EAP-Method=TLS. */
	g_autofree gchar *sec = security_plain("EAP-Method=TUNNEL");
	ServerOptions o = {version, version, NULL, NULL, NULL, 1398, TRUE};
	Conv c;

	server_defaults(&o);
	tunnel_defers = defer;
	conv_init(&c, &o, 0, sec);
	conv_run(&c);
	if (defer) {
		g_autoptr(GByteArray) response = g_byte_array_new();

		/* The inner answer is late: the request waits. */
		g_assert_cmpint(joind_eap_session_get_state(c.session), ==, JOIND_EAP_STATE_PAUSED);
		g_assert_cmpuint(c.server->result, ==, 0);
		g_assert_true(
		        eap_tls_flow_write(current_tunnel->flow, (const guint8 *)"pong", 4, NULL));
		joind_eap_session_set_decision(c.session, JOIND_EAP_METHOD_STATE_MAY_CONT,
		                               JOIND_EAP_DECISION_COND_SUCC);
		eap_tls_flow_complete(current_tunnel->flow, response);
		joind_eap_session_method_reply(c.session, response->data, response->len);
		conv_pump(&c);
	}
	g_assert_cmpuint(current_tunnel->pings, ==, 1);
	g_assert_true(c.server->ponged);
	g_assert_cmpuint(c.server->result, ==, JOIND_EAP_CODE_SUCCESS);
	g_assert_cmpuint(c.succeeded, ==, 1);
	conv_clear(&c);
}

static void
test_tunnel_app_data(void)
{
	run_tunnel(TLS1_2_VERSION, FALSE);
	run_tunnel(TLS1_3_VERSION, FALSE);
	run_tunnel(TLS1_2_VERSION, TRUE);
	run_tunnel(TLS1_3_VERSION, TRUE);
}

/* ---- failures ---- */

static void
run_failure(ServerOptions o, const gchar *security, gint code, const gchar *part)
{
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, security);
	conv_run(&c);
	assert_failed(&c, code, part);
	g_assert_cmpint(c.stage, ==, JOIND_EAP_STAGE_METHOD);
	conv_clear(&c);
}

static void
test_untrusted_server(void)
{
	g_autofree gchar *sec =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s",
	                        pki->other_ca, pki->client_cert, pki->client_key);

	for (int v = 0; v < 2; v++) {
		ServerOptions o = v == 0 ? (ServerOptions)SERVER_12 : (ServerOptions)SERVER_13;
		run_failure(o, sec, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "server certificate not trusted");
		run_failure(o, sec, JOIND_ERROR_AUTHENTICATION_FAILED, pki->other_ca);
		run_failure(o, sec, JOIND_ERROR_AUTHENTICATION_FAILED, "CN=auth.test");
	}
}

static void
test_domain_mismatch(void)
{
	g_autofree gchar *sec = security_plain("EAP-TLS-ServerDomainMask=radius.example.com");

	run_failure((ServerOptions)SERVER_12, sec, JOIND_ERROR_AUTHENTICATION_FAILED,
	            "server name mismatch");
	run_failure((ServerOptions)SERVER_13, sec, JOIND_ERROR_AUTHENTICATION_FAILED,
	            "names auth.test, which matches none of radius.example.com");
}

static void
test_expired_server(void)
{
	g_autofree gchar *sec = security_plain(NULL);
	ServerOptions o = SERVER_BOTH;

	o.cert = pki->expired_cert;
	o.key = pki->expired_key;
	run_failure(o, sec, JOIND_ERROR_AUTHENTICATION_FAILED, "certificate has expired");
}

static void
test_client_rejected(void)
{
	g_autofree gchar *sec = security_plain(NULL);

	for (int v = 0; v < 2; v++) {
		ServerOptions o = v == 0 ? (ServerOptions)SERVER_12 : (ServerOptions)SERVER_13;
		o.client_ca = pki->other_ca;
		run_failure(o, sec, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "it did not accept the client certificate");
	}
}

static void
test_no_common_version(void)
{
	g_autofree gchar *sec = security_plain("EAP-TLS-Version-Min=1.3");

	run_failure((ServerOptions)SERVER_12, sec, JOIND_ERROR_AUTHENTICATION_FAILED,
	            "the profile allows TLS 1.3 to 1.3");
}

static void
test_wrong_passphrase(void)
{
	g_autofree gchar *enc =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s\n"
	                        "EAP-TLS-ClientKeyPassphrase=nope",
	                        pki->ca, pki->client_cert, pki->client_enc_key);
	g_autofree gchar *p12 = g_strdup_printf(
	        "EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKeyPassphrase=nope",
	        pki->ca, pki->client_p12);

	run_failure((ServerOptions)SERVER_12, enc, JOIND_ERROR_INVALID_ARGS,
	            "the passphrase (EAP-TLS-ClientKeyPassphrase) does not decrypt");
	run_failure((ServerOptions)SERVER_12, p12, JOIND_ERROR_INVALID_ARGS, "does not decrypt");
}

static void
test_no_agent_for_passphrase(void)
{
	g_autofree gchar *sec =
	        g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s",
	                        pki->ca, pki->client_cert, pki->client_enc_key);
	ServerOptions o = SERVER_12;
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	joind_eap_session_set_secret_provider(c.session, NULL, NULL);
	conv_run(&c);
	assert_failed(&c, JOIND_ERROR_NO_AGENT,
	              "EAP-TLS needs the passphrase of the client key ((settings): "
	              "EAP-TLS-ClientKeyPassphrase is not set) and no agent");
	conv_clear(&c);
}

#define SYSTEM_CA "EAP-TLS-SystemCA=true\nEAP-TLS-ServerDomainMask=auth.test"

static void
test_settings_errors(void)
{
	const struct {
		const gchar *security;
		const gchar *message;
	} cases[] = {
	        {SYSTEM_CA "\nEAP-TLS-ServerKeyPin=sha256/abc",
	         "EAP-TLS-ServerKeyPin: after “sha256/” comes the base64"},
	        {SYSTEM_CA "\nEAP-TLS-ServerKeyPin=md5/abc", "a pin starts with “sha256/”"},
	        {SYSTEM_CA "\nEAP-TLS-ClientKeyBundle=/x\nEAP-TLS-ClientCert=/y",
	         "EAP-TLS-ClientKeyBundle: the bundle holds the certificate and the key"},
	        {SYSTEM_CA "\nEAP-TLS-ClientKeyBundle=/nonexistent.p12",
	         "EAP-TLS-ClientKeyBundle: Failed to open file"},
	        {"EAP-TLS-CACert=/nonexistent-ca.pem", "/nonexistent-ca.pem”: No such file"},
	        {SYSTEM_CA, "EAP-TLS-ClientCert is not set"},
	        {SYSTEM_CA "\nEAP-TLS-ClientCert=/nonexistent.pem",
	         "/nonexistent.pem”: No such file"},
	        {SYSTEM_CA "\nEAP-TLS-ClientKey=/x", "EAP-TLS-ClientCert is not set but"},
	        {SYSTEM_CA "\nEAP-TLS-Version-Min=1.1", "\"1.1\" is not a TLS version"},
	        {SYSTEM_CA "\nEAP-TLS-Version-Min=1.3\nEAP-TLS-Version-Max=1.2",
	         "is above EAP-TLS-Version-Max"},
	};
	ServerOptions o = SERVER_12;

	server_defaults(&o);
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		Conv c;

		conv_init(&c, &o, 0, cases[i].security);
		g_assert_false(joind_eap_session_check(c.session, &error));
		g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
		if (strstr(error->message, cases[i].message) == NULL)
			g_error("\"%s\" lacks \"%s\"", error->message, cases[i].message);
		/* The conversation fails the same way once the server starts TLS. */
		conv_run(&c);
		assert_failed(&c, JOIND_ERROR_INVALID_ARGS, cases[i].message);
		conv_clear(&c);
	}
}

static void
test_system_ca(void)
{
	g_autofree gchar *sec =
	        g_strdup_printf(SYSTEM_CA "\nEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s",
	                        pki->client_cert, pki->client_key);
	ServerOptions o = SERVER_13;
	g_autoptr(GError) error = NULL;
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	g_assert_true(joind_eap_session_check(c.session, &error));
	conv_clear(&c);
	/* Our test CA is in no system store. */
	run_failure(o, sec, JOIND_ERROR_AUTHENTICATION_FAILED, "the system CA store");
}

static void
test_malformed_fragments(void)
{
	g_autofree gchar *sec = security_plain(NULL);
	ServerOptions o = SERVER_12;
	const guint8 identity[] = {JOIND_EAP_CODE_REQUEST, 1, 0, 5, JOIND_EAP_TYPE_IDENTITY};
	const guint8 start[] = {JOIND_EAP_CODE_REQUEST, 2, 0, 6, JOIND_EAP_TYPE_TLS, 0x20};
	/* M without L on a first fragment. */
	const guint8 bad[] = {JOIND_EAP_CODE_REQUEST, 3, 0, 8, JOIND_EAP_TYPE_TLS, 0x40, 0x16, 3};
	/* No Flags octet at all: discarded, not fatal. */
	const guint8 empty[] = {JOIND_EAP_CODE_REQUEST, 3, 0, 5, JOIND_EAP_TYPE_TLS};
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	g_assert_true(joind_eap_session_rx(c.session, identity, sizeof(identity), NULL));
	g_assert_true(joind_eap_session_rx(c.session, start, sizeof(start), NULL));
	g_assert_cmpuint(c.responses.length, ==, 2);
	g_assert_true(joind_eap_session_rx(c.session, empty, sizeof(empty), NULL));
	g_assert_cmpuint(c.responses.length, ==, 2);
	g_assert_cmpuint(c.failed, ==, 0);
	g_assert_true(joind_eap_session_rx(c.session, bad, sizeof(bad), NULL));
	assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED,
	              "fragments are malformed: first EAP-TLS fragment without the L flag");
	conv_clear(&c);
}

/* ---- server key pins ---- */

static gchar *
pin_of(const gchar *path)
{
	g_autoptr(BIO) bio = BIO_new_file(path, "r");
	X509 *cert = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	gchar *pin;

	g_assert_nonnull(cert);
	pin = eap_tls_pin_of_cert(cert);
	X509_free(cert);
	return pin;
}

/* The client credentials, with a CA and a pin when not NULL. */
static gchar *
security_pinned(const gchar *ca, const gchar *pin, const gchar *extra)
{
	g_autofree gchar *ca_line = ca != NULL ? g_strdup_printf("EAP-TLS-CACert=%s\n", ca) : NULL;
	g_autofree gchar *pin_line =
	        pin != NULL ? g_strdup_printf("EAP-TLS-ServerKeyPin=%s\n", pin) : NULL;

	return g_strdup_printf("%s%sEAP-TLS-ClientCert=%s\nEAP-TLS-ClientKey=%s\n%s",
	                       ca_line != NULL ? ca_line : "", pin_line != NULL ? pin_line : "",
	                       pki->client_cert, pki->client_key, extra != NULL ? extra : "");
}

static void
assert_server_cert(Conv *c, const gchar *pin, gboolean trusted)
{
	GVariant *details = joind_eap_session_get_server_cert(c->session);
	const gchar *subject = NULL, *issuer = NULL, *got_pin = NULL, *not_after = NULL;
	gboolean got_trusted = !trusted;

	g_assert_nonnull(details);
	g_assert_true(g_variant_lookup(details, "subject", "&s", &subject));
	g_assert_true(g_variant_lookup(details, "issuer", "&s", &issuer));
	g_assert_true(g_variant_lookup(details, "not-after", "&s", &not_after));
	g_assert_true(g_variant_lookup(details, "pin", "&s", &got_pin));
	g_assert_true(g_variant_lookup(details, "trusted", "b", &got_trusted));
	g_assert_nonnull(strstr(subject, "CN=auth.test"));
	g_assert_nonnull(strstr(issuer, "CN=joind Test CA"));
	g_assert_cmpstr(got_pin, ==, pin);
	g_assert_cmpint(got_trusted, ==, trusted);
}

/* The pin alone is a trust anchor; with a CA that does not vouch for the
 * server the pin still decides; the session keeps what it saw. */
static void
test_pin_accepted(void)
{
	g_autofree gchar *pin = pin_of(pki->server_cert);
	g_autofree gchar *alone = security_pinned(NULL, pin, NULL);
	g_autofree gchar *wrong_ca = security_pinned(pki->other_ca, pin, NULL);
	g_autofree gchar *two =
	        g_strdup_printf("sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;%s", pin);
	g_autofree gchar *rollover =
	        security_pinned(pki->ca, two, "EAP-TLS-ServerDomainMask=auth.test");

	for (int v = 0; v < 2; v++) {
		ServerOptions o = v == 0 ? (ServerOptions)SERVER_12 : (ServerOptions)SERVER_13;
		Conv c;

		server_defaults(&o);
		conv_init(&c, &o, 0, alone);
		conv_run(&c);
		g_assert_no_error(c.error);
		g_assert_cmpuint(c.succeeded, ==, 1);
		assert_keys(&c);
		assert_server_cert(&c, pin, TRUE);
		conv_clear(&c);
		run_success(o, 0, wrong_ca, v == 0 ? TLS1_2_VERSION : TLS1_3_VERSION);
		run_success(o, 0, rollover, v == 0 ? TLS1_2_VERSION : TLS1_3_VERSION);
	}
}

/* Another key than the pinned one is refused even when the CA vouches for
 * it, before the client certificate goes out; the sentence and the session
 * carry what a person needs to decide. */
static void
test_pin_mismatch(void)
{
	g_autofree gchar *pin = pin_of(pki->server_cert);
	g_autofree gchar *other = pin_of(pki->client_cert);
	g_autofree gchar *sec = security_pinned(pki->ca, other, NULL);
	g_autofree gchar *masked =
	        security_pinned(NULL, pin, "EAP-TLS-ServerDomainMask=other.test");

	for (int v = 0; v < 2; v++) {
		ServerOptions o = v == 0 ? (ServerOptions)SERVER_12 : (ServerOptions)SERVER_13;
		Conv c;

		server_defaults(&o);
		conv_init(&c, &o, 0, sec);
		conv_run(&c);
		assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, "server key not trusted");
		assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, pin);
		assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, "issued by “CN=joind Test CA");
		assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, "valid from ");
		assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED,
		              "(settings): EAP-TLS-ServerKeyPin");
		assert_server_cert(&c, pin, FALSE);
		g_assert_null(SSL_get0_peer_certificate(c.server->ssl));
		conv_clear(&c);
		/* A matching pin does not lift a ServerDomainMask. */
		run_failure(o, masked, JOIND_ERROR_AUTHENTICATION_FAILED, "server name mismatch");
	}
}

/* Nothing to trust the server by: the profile is used, but the server is
 * refused once it has shown its certificate, with the pin to set. */
static void
test_no_trust_anchor(void)
{
	g_autofree gchar *pin = pin_of(pki->server_cert);
	g_autofree gchar *sec = security_pinned(NULL, NULL, NULL);
	g_autofree gchar *hint = g_strdup_printf("set EAP-TLS-ServerKeyPin=%s", pin);
	ServerOptions o = SERVER_13;
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	g_test_expect_message("joind-eap-tls-common", G_LOG_LEVEL_WARNING,
	                      "EAP-TLS trusts no CA (*EAP-TLS-CACert is not set)*");
	g_assert_true(joind_eap_session_check(c.session, NULL));
	g_test_assert_expected_messages();
	conv_run(&c);
	assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, "nothing to verify the server by");
	assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, hint);
	assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, "“CN=auth.test,O=joind test”");
	assert_server_cert(&c, pin, FALSE);
	g_assert_null(SSL_get0_peer_certificate(c.server->ssl));
	conv_clear(&c);
}

/* What `openssl` prints for path (a shell pipeline reading "$f", its
 * output stripped); NULL when there is no openssl command. */
static gchar *
openssl_says(const gchar *pipeline, const gchar *path)
{
	g_autofree gchar *openssl = g_find_program_in_path("openssl");
	g_autofree gchar *quoted_path = g_shell_quote(path);
	g_autofree gchar *script = NULL;
	g_autofree gchar *quoted = NULL;
	g_autofree gchar *cmd = NULL;
	gchar *out = NULL;
	gint status = -1;

	if (openssl == NULL)
		return NULL;
	script = g_strconcat("f=", quoted_path, "; ", pipeline, NULL);
	quoted = g_shell_quote(script);
	cmd = g_strconcat("sh -c ", quoted, NULL);
	g_assert_true(g_spawn_command_line_sync(cmd, &out, NULL, &status, NULL));
	g_assert_cmpint(status, ==, 0);
	return g_strstrip(out);
}

static void
assert_report_string(GVariant *report, const gchar *key, const gchar *expected)
{
	const gchar *value = NULL;

	if (!g_variant_lookup(report, key, "&s", &value))
		g_error("the report lacks %s", key);
	g_assert_cmpstr(value, ==, expected);
}

/* The certificate report against what the openssl command says of the
 * same file (the pipeline the documentation gives for the pin), and the
 * TLS version and cipher once the handshake is done. */
static void
test_report_matches_openssl(void)
{
	g_autofree gchar *pin = openssl_says(
	        "openssl x509 -pubkey -noout -in \"$f\" | openssl pkey -pubin -outform der | "
	        "openssl dgst -sha256 -binary | base64",
	        pki->server_cert);
	g_autofree gchar *subject = NULL, *issuer = NULL, *start = NULL, *end = NULL;
	g_autofree gchar *sec = security_plain(NULL);

	if (pin == NULL) {
		g_test_skip("no openssl command");
		return;
	}
	subject = openssl_says("openssl x509 -noout -subject -nameopt RFC2253 -in \"$f\"",
	                       pki->server_cert);
	issuer = openssl_says("openssl x509 -noout -issuer -nameopt RFC2253 -in \"$f\"",
	                      pki->server_cert);
	start = openssl_says("openssl x509 -noout -startdate -in \"$f\"", pki->server_cert);
	end = openssl_says("openssl x509 -noout -enddate -in \"$f\"", pki->server_cert);
	for (int v = 0; v < 2; v++) {
		ServerOptions o = v == 0 ? (ServerOptions)SERVER_12 : (ServerOptions)SERVER_13;
		g_autofree gchar *pinned = g_strconcat("sha256/", pin, NULL);
		const gchar *cipher = NULL;
		gboolean resumed = TRUE;
		GVariant *report;
		Conv c;

		server_defaults(&o);
		conv_init(&c, &o, 0, sec);
		conv_run(&c);
		g_assert_cmpuint(c.succeeded, ==, 1);
		report = joind_eap_session_get_server_cert(c.session);
		g_assert_nonnull(report);
		assert_report_string(report, "subject", subject + strlen("subject="));
		assert_report_string(report, "issuer", issuer + strlen("issuer="));
		assert_report_string(report, "not-before", start + strlen("notBefore="));
		assert_report_string(report, "not-after", end + strlen("notAfter="));
		assert_report_string(report, "pin", pinned);
		assert_report_string(report, "pin-setting", "EAP-TLS-ServerKeyPin");
		assert_report_string(report, "tls-version", v == 0 ? "TLSv1.2" : "TLSv1.3");
		g_assert_true(g_variant_lookup(report, "cipher", "&s", &cipher));
		g_assert_cmpstr(cipher, ==,
		                SSL_CIPHER_standard_name(SSL_get_current_cipher(c.server->ssl)));
		g_assert_true(g_variant_lookup(report, "resumed", "b", &resumed));
		g_assert_false(resumed);
		g_assert_false(g_variant_lookup(report, "domain-mask-setting", "&s", NULL));
		conv_clear(&c);
	}
}

/* A refusal for want of trust ends with the command the device plugin
 * named (quoted for a shell when needed); the report of a name mismatch
 * says which mask the names missed. Other failures name no command. */
static void
test_refusal_names_trust_command(void)
{
	g_autofree gchar *no_anchor = security_pinned(NULL, NULL, NULL);
	g_autofree gchar *masked = security_plain("EAP-TLS-ServerDomainMask=other.test\n");
	g_autofree gchar *plain = security_plain(NULL);
	ServerOptions o = SERVER_13;
	const gchar *value = NULL;
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, no_anchor);
	joind_eap_session_set_trust_command(c.session, "joinctl known-networks trust", "my net");
	conv_run(&c);
	assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED,
	              "run “joinctl known-networks trust 'my net'”");
	conv_clear(&c);

	conv_init(&c, &o, 0, masked);
	joind_eap_session_set_trust_command(c.session, "joinctl wired trust", "eth0");
	conv_run(&c);
	assert_failed(&c, JOIND_ERROR_AUTHENTICATION_FAILED, "run “joinctl wired trust eth0”");
	g_assert_true(g_variant_lookup(joind_eap_session_get_server_cert(c.session),
	                               "domain-mask-setting", "&s", &value));
	g_assert_cmpstr(value, ==, "EAP-TLS-ServerDomainMask");
	conv_clear(&c);

	/* The server refuses our certificate: nothing a pin would change. */
	o.client_ca = pki->other_ca;
	conv_init(&c, &o, 0, plain);
	joind_eap_session_set_trust_command(c.session, "joinctl wired trust", "eth0");
	conv_run(&c);
	g_assert_cmpuint(c.failed, ==, 1);
	g_assert_null(strstr(c.error->message, "joinctl"));
	conv_clear(&c);
}

/* ClientKeyBundle: PKCS#12 (passphrase from the profile or the agent) or a
 * PEM bundle, from a file or embedded. */
static void
test_client_key_bundle(void)
{
	g_autofree gchar *p12 = g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientKeyBundle=%s\n"
	                                        "EAP-TLS-ClientKeyPassphrase=" TEST_PKI_PASSPHRASE,
	                                        pki->ca, pki->client_p12);
	g_autofree gchar *pem = g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientKeyBundle=%s",
	                                        pki->ca, pki->client_combined);
	g_autofree gchar *agent = g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientKeyBundle=%s",
	                                          pki->ca, pki->client_p12);
	ServerOptions o = SERVER_13;
	JoindSecret *answer = g_new0(JoindSecret, 1);
	Conv c;

	run_success((ServerOptions)SERVER_13, 0, p12, TLS1_3_VERSION);
	run_success((ServerOptions)SERVER_12, 0, pem, TLS1_2_VERSION);
	server_defaults(&o);
	conv_init(&c, &o, 0, agent);
	conv_run(&c);
	g_assert_cmpuint(c.agent_requests, ==, 1);
	g_assert_cmpint(c.agent_kind, ==, JOIND_SECRET_PRIVATE_KEY_PASSPHRASE);
	answer->secret = g_strdup(TEST_PKI_PASSPHRASE);
	g_task_return_pointer(c.agent_task, answer, (GDestroyNotify)joind_secret_free);
	g_clear_object(&c.agent_task);
	while (g_main_context_iteration(NULL, FALSE))
		;
	conv_pump(&c);
	g_assert_cmpuint(c.succeeded, ==, 1);
	assert_keys(&c);
	conv_clear(&c);
}

/* A PKCS#12 bundle as the openssl command makes one (OpenSSL 3's default
 * algorithms: PBES2/AES-256, SHA-256 MAC), with a passphrase. */
static void
test_client_key_bundle_openssl(void)
{
	g_autofree gchar *openssl = g_find_program_in_path("openssl");
	g_autofree gchar *out = g_build_filename(pki->dir, "cli.p12", NULL);
	g_autofree gchar *cmd =
	        g_strdup_printf("openssl pkcs12 -export -in %s -inkey %s -certfile %s -out %s "
	                        "-passout pass:" TEST_PKI_PASSPHRASE,
	                        pki->client_cert, pki->client_key, pki->ca, out);
	g_autofree gchar *sec = g_strdup_printf("EAP-TLS-CACert=%s\nEAP-TLS-ClientKeyBundle=%s\n"
	                                        "EAP-TLS-ClientKeyPassphrase=" TEST_PKI_PASSPHRASE,
	                                        pki->ca, out);
	gint status = -1;

	if (openssl == NULL) {
		g_test_skip("no openssl command");
		return;
	}
	g_assert_true(g_spawn_command_line_sync(cmd, NULL, NULL, &status, NULL));
	g_assert_cmpint(status, ==, 0);
	run_success((ServerOptions)SERVER_13, 0, sec, TLS1_3_VERSION);
	run_success((ServerOptions)SERVER_12, 0, sec, TLS1_2_VERSION);
	g_unlink(out);
}

/* A PEM bundle embedded in the profile, the CA too. */
static void
test_client_key_bundle_embedded(void)
{
	g_autofree gchar *ca = read_text(pki->ca);
	g_autofree gchar *bundle = read_text(pki->client_combined);
	g_autofree gchar *text = g_strdup_printf(
	        "[Security]\nEAP-Method=TLS\nEAP-Identity=tlsuser\nEAP-TLS-CACert=embed:ca\n"
	        "EAP-TLS-ClientKeyBundle=embed:bundle\n\n[@pem@ca]\n%s[@pem@bundle]\n%s",
	        ca, bundle);
	g_autoptr(GBytes) ssid = g_bytes_new_static("corp", 4);
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) profile =
	        joind_profile_parse("/test/corp.8021x", JOIND_PROFILE_TYPE_8021X, ssid,
	                            (const guint8 *)text, strlen(text), &error);
	ServerOptions o = SERVER_12;
	Conv c;

	g_assert_no_error(error);
	server_defaults(&o);
	conv_init(&c, &o, 0, "");
	joind_eap_session_unref(c.session);
	c.session = joind_eap_session_new(NULL, profile, "/test", &conv_callbacks, &c);
	conv_run(&c);
	g_assert_no_error(c.error);
	g_assert_cmpuint(c.succeeded, ==, 1);
	assert_keys(&c);
	conv_clear(&c);
}

/* ---- resumption ---- */

/* A new TLS connection on the same server context (its session cache), as
 * for the next authentication; the old one ends without close_notify as
 * EAP tunnels do, but its session stays resumable on the server. */
static void
server_restart(Server *s)
{
	SSL_set_shutdown(s->ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	SSL_free(s->ssl);
	s->ssl = SSL_new(s->ctx);
	s->rbio = BIO_new(BIO_s_mem());
	s->wbio = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(s->rbio, -1);
	SSL_set_bio(s->ssl, s->rbio, s->wbio);
	SSL_set_accept_state(s->ssl);
	s->handshake_done = s->failed = FALSE;
	s->result = 0;
	s->requests = s->client_fragments = 0;
	s->id = 100;
}

/* The next conversation of the same EAP session (a re-authentication). */
static void
conv_again(Conv *c)
{
	joind_eap_session_reset(c->session);
	server_restart(c->server);
	g_queue_clear_full(&c->responses, (GDestroyNotify)g_bytes_unref);
	conv_run(c);
}

/* A re-authentication offers the session of the last successful one; the
 * server resumes it (no certificates: fewer round trips) and the keys come
 * from the new handshake. After a failure nothing is offered. */
static void
test_resumption(gconstpointer data)
{
	int version = GPOINTER_TO_INT(data);
	ServerOptions o = {version, version, NULL, NULL, NULL, 1398};
	g_autofree gchar *sec = security_plain(NULL);
	guint full_requests;
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	conv_run(&c);
	g_assert_cmpuint(c.succeeded, ==, 1);
	g_assert_false(SSL_session_reused(c.server->ssl));
	full_requests = c.server->requests;

	conv_again(&c);
	g_assert_cmpuint(c.succeeded, ==, 2);
	g_assert_true(SSL_session_reused(c.server->ssl));
	/* TLS 1.2: the abbreviated handshake saves a round trip (TLS 1.3 only
	 * saves the certificates' bytes). */
	if (version == TLS1_2_VERSION)
		g_assert_cmpuint(c.server->requests, <, full_requests);
	assert_keys(&c);

	/* Resumed, but then rejected: that session is dropped, the next
	 * conversation is a full handshake. */
	c.server->reject = TRUE;
	conv_again(&c);
	g_assert_true(SSL_session_reused(c.server->ssl));
	g_assert_cmpuint(c.failed, ==, 1);
	c.server->reject = FALSE;
	conv_again(&c);
	g_assert_cmpuint(c.succeeded, ==, 3);
	g_assert_false(SSL_session_reused(c.server->ssl));
	conv_clear(&c);
}

/* FastReauthentication=false: every authentication is a full handshake. */
static void
test_no_fast_reauthentication(void)
{
	ServerOptions o = SERVER_12;
	g_autofree gchar *sec = security_plain("EAP-TLS-FastReauthentication=false");
	Conv c;

	server_defaults(&o);
	conv_init(&c, &o, 0, sec);
	conv_run(&c);
	conv_again(&c);
	g_assert_cmpuint(c.succeeded, ==, 2);
	g_assert_false(SSL_session_reused(c.server->ssl));
	conv_clear(&c);
}

int
main(int argc, char **argv)
{
	int result;

	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&eap_tls_ops, NULL));
	g_assert_true(joind_eap_register_method(&tunnel_ops, NULL));
	pki = test_pki_new();
	g_test_add_func("/eap/tls/tls12", test_tls12);
	g_test_add_func("/eap/tls/tls13", test_tls13);
	g_test_add_func("/eap/tls/small-fragments", test_small_fragments);
	g_test_add_func("/eap/tls/version-pinned", test_version_pinned);
	g_test_add_func("/eap/tls/domain-mask-ok", test_domain_mask_ok);
	g_test_add_func("/eap/tls/client-key-formats", test_client_key_formats);
	g_test_add_func("/eap/tls/embedded-pem", test_embedded_pem);
	g_test_add_func("/eap/tls/passphrase-from-agent", test_passphrase_from_agent);
	g_test_add_func("/eap/tls/tunnel-app-data", test_tunnel_app_data);
	g_test_add_func("/eap/tls/untrusted-server", test_untrusted_server);
	g_test_add_func("/eap/tls/domain-mismatch", test_domain_mismatch);
	g_test_add_func("/eap/tls/expired-server", test_expired_server);
	g_test_add_func("/eap/tls/client-rejected", test_client_rejected);
	g_test_add_func("/eap/tls/no-common-version", test_no_common_version);
	g_test_add_func("/eap/tls/wrong-passphrase", test_wrong_passphrase);
	g_test_add_func("/eap/tls/no-agent-for-passphrase", test_no_agent_for_passphrase);
	g_test_add_func("/eap/tls/settings-errors", test_settings_errors);
	g_test_add_func("/eap/tls/pin-accepted", test_pin_accepted);
	g_test_add_func("/eap/tls/pin-mismatch", test_pin_mismatch);
	g_test_add_func("/eap/tls/no-trust-anchor", test_no_trust_anchor);
	g_test_add_func("/eap/tls/report-matches-openssl", test_report_matches_openssl);
	g_test_add_func("/eap/tls/refusal-names-trust-command", test_refusal_names_trust_command);
	g_test_add_func("/eap/tls/client-key-bundle", test_client_key_bundle);
	g_test_add_func("/eap/tls/client-key-bundle/openssl", test_client_key_bundle_openssl);
	g_test_add_func("/eap/tls/client-key-bundle/embedded", test_client_key_bundle_embedded);
	g_test_add_func("/eap/tls/no-fast-reauthentication", test_no_fast_reauthentication);
	g_test_add_func("/eap/tls/system-ca", test_system_ca);
	g_test_add_func("/eap/tls/malformed-fragments", test_malformed_fragments);
	g_test_add_data_func("/eap/tls/resumption/tls12", GINT_TO_POINTER(TLS1_2_VERSION),
	                     test_resumption);
	g_test_add_data_func("/eap/tls/resumption/tls13", GINT_TO_POINTER(TLS1_3_VERSION),
	                     test_resumption);
	result = g_test_run();
	test_pki_free(pki);
	return result;
}
