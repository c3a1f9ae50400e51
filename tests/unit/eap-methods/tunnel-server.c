/* tunnel-server.c - a PEAP/TTLS server for unit tests. */
#include "tunnel-server.h"

#include <string.h>

#include "eap-tls-frag.h"

struct _TunnelServer {
	TunnelServerOptions o;
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rbio, *wbio;
	EapTlsReassembler *in;
	EapTlsFragmenter *out;
	gboolean handshake_done;
	TunnelServerVerdict pending; /* to send once our output is acknowledged */
};

TunnelServer *
tunnel_server_new(const TunnelServerOptions *options)
{
	TunnelServer *s = g_new0(TunnelServer, 1);

	s->o = *options;
	if (s->o.max_type_data == 0)
		s->o.max_type_data = 1000;
	s->ctx = SSL_CTX_new(TLS_server_method());
	g_assert_true(SSL_CTX_use_certificate_file(s->ctx, s->o.cert, SSL_FILETYPE_PEM));
	g_assert_true(SSL_CTX_use_PrivateKey_file(s->ctx, s->o.key, SSL_FILETYPE_PEM));
	SSL_CTX_set_min_proto_version(s->ctx, TLS1_2_VERSION);
	SSL_CTX_set_max_proto_version(s->ctx, s->o.max_version);
	/* No session tickets: keeps the message flow that of a server without
	 * resumption. */
	SSL_CTX_set_num_tickets(s->ctx, 0);
	s->ssl = SSL_new(s->ctx);
	s->rbio = BIO_new(BIO_s_mem());
	s->wbio = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(s->rbio, -1);
	SSL_set_bio(s->ssl, s->rbio, s->wbio);
	SSL_set_accept_state(s->ssl);
	s->in = eap_tls_reassembler_new(EAP_TLS_MAX_MESSAGE);
	s->out = eap_tls_fragmenter_new();
	return s;
}

void
tunnel_server_free(TunnelServer *s)
{
	SSL_free(s->ssl);
	SSL_CTX_free(s->ctx);
	eap_tls_reassembler_free(s->in);
	eap_tls_fragmenter_free(s->out);
	g_free(s);
}

void
tunnel_server_write(TunnelServer *s, const void *data, gsize len)
{
	g_assert_cmpint(SSL_write(s->ssl, data, (int)len), ==, (int)len);
}

void
tunnel_server_export(TunnelServer *s, const gchar *label, const guint8 *context, gsize context_len,
                     guint8 *out, gsize out_len)
{
	g_assert_cmpint(SSL_export_keying_material(s->ssl, out, out_len, label, strlen(label),
	                                           context, context_len, context != NULL),
	                ==, 1);
}

int
tunnel_server_version(TunnelServer *s)
{
	return SSL_version(s->ssl);
}

static void
server_request(TunnelServer *s, EapTestPeer *peer)
{
	g_autoptr(GByteArray) td = g_byte_array_new();

	eap_tls_fragmenter_next(s->out, s->o.max_type_data, 0, td);
	eap_test_peer_request(peer, s->o.eap_type, td->data, td->len);
}

/* Runs the TLS engine over a whole message from the peer. */
static TunnelServerVerdict
server_message(TunnelServer *s, GBytes *message)
{
	TunnelServerVerdict verdict = TUNNEL_SERVER_CONTINUE;
	guint8 buf[4096];
	int n;

	g_assert_cmpint(
	        BIO_write(s->rbio, g_bytes_get_data(message, NULL), (int)g_bytes_get_size(message)),
	        ==, (int)g_bytes_get_size(message));
	if (!s->handshake_done) {
		int r = SSL_do_handshake(s->ssl);
		if (r != 1) {
			g_assert_cmpint(SSL_get_error(s->ssl, r), ==, SSL_ERROR_WANT_READ);
			return verdict;
		}
		s->handshake_done = TRUE;
		if (s->o.tunnel_up != NULL)
			verdict = s->o.tunnel_up(s, s->o.user_data);
	}
	while (verdict == TUNNEL_SERVER_CONTINUE && (n = SSL_read(s->ssl, buf, sizeof(buf))) > 0)
		verdict = s->o.app_data(s, buf, (gsize)n, s->o.user_data);
	return verdict;
}

static void
server_result(EapTestPeer *peer, TunnelServerVerdict verdict)
{
	if (verdict == TUNNEL_SERVER_SUCCESS)
		eap_test_peer_success(peer);
	else
		eap_test_peer_failure(peer);
}

/* One response from the peer; FALSE when the conversation stops here. */
static gboolean
server_step(TunnelServer *s, EapTestPeer *peer, TunnelServerVerdict *sent)
{
	g_autoptr(GBytes) td = NULL;
	g_autoptr(GBytes) message = NULL;
	g_autoptr(GError) error = NULL;
	gboolean complete = FALSE;
	TunnelServerVerdict verdict;
	EapTlsHeader h;
	gsize pending;

	if (peer->failed || peer->succeeded ||
	    joind_eap_session_get_state(peer->session) == JOIND_EAP_STATE_PAUSED)
		return FALSE;
	td = eap_test_peer_last_response(peer, s->o.eap_type);
	g_assert_true(
	        eap_tls_header_parse(g_bytes_get_data(td, NULL), g_bytes_get_size(td), &h, &error));
	if (eap_tls_fragmenter_pending(s->out)) {
		g_assert_cmpuint(h.data_len, ==, 0); /* an ACK */
		server_request(s, peer);
		return TRUE;
	}
	if (h.data_len == 0 && !(h.flags & EAP_TLS_FLAG_MORE) &&
	    s->pending != TUNNEL_SERVER_CONTINUE) {
		*sent = s->pending;
		server_result(peer, s->pending);
		return FALSE;
	}
	g_assert_true(eap_tls_reassembler_push(s->in, &h, &complete, &error));
	g_assert_no_error(error);
	if (!complete) {
		server_request(s, peer); /* ACK */
		return TRUE;
	}
	message = eap_tls_reassembler_take(s->in);
	verdict = server_message(s, message);
	pending = BIO_ctrl_pending(s->wbio);
	if (pending > 0) {
		g_autofree guint8 *records = g_malloc(pending);
		g_autoptr(GBytes) output = NULL;
		g_assert_cmpint(BIO_read(s->wbio, records, (int)pending), ==, (int)pending);
		output = g_bytes_new_take(g_steal_pointer(&records), pending);
		eap_tls_fragmenter_set(s->out, output);
		s->pending = verdict;
		server_request(s, peer);
		return TRUE;
	}
	g_assert_cmpint(verdict, !=, TUNNEL_SERVER_CONTINUE);
	*sent = verdict;
	server_result(peer, verdict);
	return FALSE;
}

TunnelServerVerdict
tunnel_server_resume(TunnelServer *s, EapTestPeer *peer)
{
	TunnelServerVerdict sent = TUNNEL_SERVER_CONTINUE;

	for (guint i = 0; i < 100 && server_step(s, peer, &sent); i++)
		;
	return sent;
}

TunnelServerVerdict
tunnel_server_run(TunnelServer *s, EapTestPeer *peer)
{
	guint8 start = EAP_TLS_FLAG_START;

	eap_test_peer_identity(peer);
	if (peer->failed || joind_eap_session_get_state(peer->session) == JOIND_EAP_STATE_PAUSED)
		return TUNNEL_SERVER_CONTINUE;
	eap_test_peer_request(peer, s->o.eap_type, &start, 1);
	return tunnel_server_resume(s, peer);
}
