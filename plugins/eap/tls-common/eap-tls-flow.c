/* eap-tls-flow.c - Start, fragments, ACKs and the TLS connection behind
 * them (RFC 5216 sections 2.1 and 3.1). */
#include "eap-tls-flow.h"

#include <gio/gio.h>

#include "eap-tls-frag.h"
#include "joind-error.h"
#include "joind-secret.h"

/* EAP header (4) and Type (1) come before the EAP-TLS Type-Data. */
#define EAP_TLS_EAP_OVERHEAD 5

struct _EapTlsFlow {
	JoindEapSession *session; /* owns the method state that owns us */
	gchar *method;
	gchar *key_prefix;
	gboolean require_client_cert;
	EapTlsFlowHooks hooks;
	gpointer user_data;
	guint8 version_bits;
	EapTlsConn *conn;
	EapTlsReassembler *in;
	EapTlsFragmenter *out;
	gboolean handshake_reported;
	guint server_reported; /* 0, 1: the certificate, 2: the handshake too */
	gboolean resume;       /* FastReauthentication */
	gboolean deferred;
	SSL_SESSION *pending; /* the server's session, kept if this one succeeds */
};

static void eap_tls_flow_settle_session(EapTlsFlow *flow);

EapTlsFlow *
eap_tls_flow_new(JoindEapSession *session, const gchar *method, const gchar *key_prefix,
                 gboolean require_client_cert, const EapTlsFlowHooks *hooks, gpointer user_data)
{
	EapTlsFlow *flow = g_new0(EapTlsFlow, 1);

	flow->session = session;
	flow->method = g_strdup(method);
	flow->key_prefix = g_strdup(key_prefix);
	flow->require_client_cert = require_client_cert;
	flow->hooks = *hooks;
	flow->user_data = user_data;
	flow->in = eap_tls_reassembler_new(EAP_TLS_MAX_MESSAGE);
	flow->out = eap_tls_fragmenter_new();
	return flow;
}

void
eap_tls_flow_free(EapTlsFlow *flow)
{
	if (flow == NULL)
		return;
	eap_tls_flow_settle_session(flow);
	eap_tls_conn_free(flow->conn);
	eap_tls_reassembler_free(flow->in);
	eap_tls_fragmenter_free(flow->out);
	g_free(flow->method);
	g_free(flow->key_prefix);
	g_free(flow);
}

void
eap_tls_flow_set_version_bits(EapTlsFlow *flow, guint8 bits)
{
	flow->version_bits = bits & EAP_TLS_VERSION_MASK;
}

EapTlsConn *
eap_tls_flow_get_conn(EapTlsFlow *flow)
{
	return flow->conn;
}

gboolean
eap_tls_flow_write(EapTlsFlow *flow, const guint8 *data, gsize len, GError **error)
{
	g_return_val_if_fail(flow->conn != NULL, FALSE);
	return eap_tls_conn_write(flow->conn, data, len, error);
}

void
eap_tls_flow_defer(EapTlsFlow *flow)
{
	flow->deferred = TRUE;
}

static void eap_tls_flow_emit(EapTlsFlow *flow, GByteArray *response);

void
eap_tls_flow_complete(EapTlsFlow *flow, GByteArray *response)
{
	g_return_if_fail(flow->deferred);
	flow->deferred = FALSE;
	eap_tls_flow_emit(flow, response);
}

static gsize
eap_tls_flow_max_type_data(EapTlsFlow *flow)
{
	return joind_eap_session_get_mtu(flow->session) - EAP_TLS_EAP_OVERHEAD;
}

/* The next response: our pending TLS output, else an ACK (Flags only). */
static void
eap_tls_flow_emit(EapTlsFlow *flow, GByteArray *response)
{
	g_autoptr(GBytes) output = flow->conn != NULL ? eap_tls_conn_take_output(flow->conn) : NULL;

	if (output != NULL)
		eap_tls_fragmenter_set(flow->out, output);
	eap_tls_fragmenter_next(flow->out, eap_tls_flow_max_type_data(flow), flow->version_bits,
	                        response);
}

/* ---- resumption: one session per method, kept by the EAP session ---- */

static gchar *
eap_tls_flow_session_key(EapTlsFlow *flow)
{
	/* With the prefix: an inner TLS method would not take the outer's. */
	return g_strconcat("eap-tls-resume:", joind_eap_session_get_prefix(flow->session),
	                   flow->method, NULL);
}

static void
eap_tls_flow_offer_session(EapTlsFlow *flow)
{
	g_autofree gchar *key = eap_tls_flow_session_key(flow);
	SSL_SESSION *cached = joind_eap_session_get_data(flow->session, key);

	if (!flow->resume) {
		if (cached != NULL)
			joind_eap_session_set_data(flow->session, key, NULL, NULL);
		g_debug("EAP-%s: FastReauthentication=false: no TLS session resumption",
		        flow->method);
		return;
	}
	if (cached != NULL && eap_tls_conn_offer_session(flow->conn, cached))
		g_debug("EAP-%s: offering the TLS session of the last authentication",
		        flow->method);
}

static void
eap_tls_flow_keep_session(EapTlsFlow *flow, gboolean ok)
{
	g_autofree gchar *key = eap_tls_flow_session_key(flow);
	SSL_SESSION *fresh = eap_tls_conn_take_new_session(flow->conn);

	if (fresh != NULL) {
		if (flow->pending != NULL)
			SSL_SESSION_free(flow->pending);
		flow->pending = fresh;
	}
	if (!ok) /* whatever went wrong, the next attempt starts from scratch */
		joind_eap_session_set_data(flow->session, key, NULL, NULL);
}

/* When the conversation is over (the method state goes before the session
 * restarts or ends): a session is worth resuming only after a success;
 * after a failure, even the one offered is not (hostapd refuses to resume
 * a session whose authentication failed, and would again and again). */
static void
eap_tls_flow_settle_session(EapTlsFlow *flow)
{
	g_autofree gchar *key = eap_tls_flow_session_key(flow);
	JoindEapState state = joind_eap_session_get_state(flow->session);

	if (state == JOIND_EAP_STATE_SUCCESS && flow->pending != NULL && flow->resume) {
		joind_eap_session_set_data(flow->session, key, g_steal_pointer(&flow->pending),
		                           (GDestroyNotify)SSL_SESSION_free);
		g_debug("EAP-%s: keeping the TLS session for the next authentication",
		        flow->method);
	} else if (state == JOIND_EAP_STATE_FAILURE) {
		joind_eap_session_set_data(flow->session, key, NULL, NULL);
	}
	if (flow->pending != NULL)
		SSL_SESSION_free(g_steal_pointer(&flow->pending));
}

gboolean
eap_tls_flow_resumed(EapTlsFlow *flow)
{
	return flow->conn != NULL && eap_tls_conn_resumed(flow->conn);
}

/* The server's certificate for the core, as soon as it came (whoever
 * decides to pin it later needs to see it), and again with the TLS
 * version and cipher once the handshake is done. */
static void
eap_tls_flow_report_server(EapTlsFlow *flow)
{
	guint stage = eap_tls_conn_handshake_done(flow->conn) ? 2 : 1;
	GVariant *details;

	if (flow->server_reported >= stage)
		return;
	details = eap_tls_conn_get_server_details(flow->conn,
	                                          joind_eap_session_get_server_cert(flow->session));
	if (details == NULL)
		return;
	flow->server_reported = stage;
	joind_eap_session_set_server_cert(flow->session, details);
}

static JoindEapMethodResult
eap_tls_flow_start(EapTlsFlow *flow, guint8 flags, GByteArray *response, GError **error)
{
	g_autoptr(EapTlsConfig) config = NULL;
	g_autoptr(GByteArray) ignored = g_byte_array_new();
	JoindEapMethodResult r;

	if (flow->conn != NULL) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		                    "EAP-TLS Start in the middle of the handshake");
		return JOIND_EAP_METHOD_DISCARD;
	}
	r = eap_tls_config_load(flow->session, flow->method, flow->key_prefix,
	                        flow->require_client_cert, &config, error);
	if (r != JOIND_EAP_METHOD_RESPOND)
		return r;
	if (flow->hooks.start != NULL && !flow->hooks.start(flow, flags, flow->user_data, error))
		return JOIND_EAP_METHOD_FAIL;
	flow->resume = config->resume;
	flow->conn = eap_tls_conn_new(config, error);
	if (flow->conn == NULL)
		return JOIND_EAP_METHOD_FAIL;
	joind_eap_session_set_decision(flow->session, JOIND_EAP_METHOD_STATE_MAY_CONT,
	                               JOIND_EAP_DECISION_FAIL);
	eap_tls_flow_offer_session(flow);
	if (eap_tls_conn_process(flow->conn, NULL, 0, ignored, error) == EAP_TLS_CONN_FAILED)
		return JOIND_EAP_METHOD_FAIL;
	eap_tls_flow_emit(flow, response);
	g_debug("EAP-%s: sent ClientHello", flow->method);
	return JOIND_EAP_METHOD_RESPOND;
}

/* Runs the hooks for what a complete message from the server yielded. */
static gboolean
eap_tls_flow_dispatch(EapTlsFlow *flow, EapTlsConnStatus status, GByteArray *app, GError **error)
{
	if (!flow->handshake_reported && eap_tls_conn_handshake_done(flow->conn)) {
		flow->handshake_reported = TRUE;
		if (eap_tls_conn_resumed(flow->conn))
			g_info("EAP-%s: TLS session resumed (no certificate exchange)",
			       flow->method);
		if (flow->hooks.handshake_done != NULL &&
		    !flow->hooks.handshake_done(flow, flow->user_data, error))
			return FALSE;
	}
	if (app->len > 0) {
		if (flow->hooks.app_data == NULL) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
			            "The EAP-%s server sent unexpected application data.",
			            flow->method);
			return FALSE;
		}
		if (!flow->hooks.app_data(flow, app->data, app->len, flow->user_data, error))
			return FALSE;
	}
	if (status == EAP_TLS_CONN_CLOSED && flow->hooks.closed != NULL)
		return flow->hooks.closed(flow, flow->user_data, error);
	return TRUE;
}

static JoindEapMethodResult
eap_tls_flow_message(EapTlsFlow *flow, GBytes *message, GByteArray *response, GError **error)
{
	g_autoptr(GByteArray) app = g_byte_array_new();
	EapTlsConnStatus status;
	gboolean ok;

	status = eap_tls_conn_process(flow->conn, g_bytes_get_data(message, NULL),
	                              g_bytes_get_size(message), app, error);
	eap_tls_flow_report_server(flow);
	ok = status != EAP_TLS_CONN_FAILED && eap_tls_flow_dispatch(flow, status, app, error);
	joind_secret_clear(app->data, app->len);
	eap_tls_flow_keep_session(flow, ok);
	if (ok && flow->deferred)
		return JOIND_EAP_METHOD_PENDING;
	/* Send what TLS produced: on failure that is our alert, if any. */
	eap_tls_flow_emit(flow, response);
	if (!ok) {
		const gchar *alert = eap_tls_conn_get_peer_alert(flow->conn);
		if (alert != NULL) {
			g_autofree gchar *reason =
			        g_strdup_printf("The server sent the TLS alert \"%s\".", alert);
			joind_eap_session_set_peer_reason(flow->session, reason);
		}
		joind_eap_session_set_decision(flow->session, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_FAIL);
		return JOIND_EAP_METHOD_FAIL;
	}
	return JOIND_EAP_METHOD_RESPOND;
}

JoindEapMethodResult
eap_tls_flow_handle(EapTlsFlow *flow, const guint8 *data, gsize len, GByteArray *response,
                    GError **error)
{
	g_autoptr(GBytes) message = NULL;
	g_autoptr(GError) local = NULL;
	gboolean complete = FALSE;
	EapTlsHeader h;

	if (!eap_tls_header_parse(data, len, &h, error))
		return JOIND_EAP_METHOD_DISCARD;
	if (h.flags & EAP_TLS_FLAG_START)
		return eap_tls_flow_start(flow, h.flags, response, error);
	if (flow->conn == NULL) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "EAP-%s Request before Start", flow->method);
		return JOIND_EAP_METHOD_DISCARD;
	}
	if (eap_tls_fragmenter_pending(flow->out)) {
		if (h.data_len > 0 || (h.flags & (EAP_TLS_FLAG_LENGTH | EAP_TLS_FLAG_MORE))) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
			            "The EAP-%s server sent data instead of acknowledging our "
			            "fragment.",
			            flow->method);
			return JOIND_EAP_METHOD_FAIL;
		}
		eap_tls_fragmenter_next(flow->out, eap_tls_flow_max_type_data(flow),
		                        flow->version_bits, response);
		return JOIND_EAP_METHOD_RESPOND;
	}
	if (!eap_tls_reassembler_push(flow->in, &h, &complete, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The EAP-%s server's fragments are malformed: %s.", flow->method,
		            local->message);
		return JOIND_EAP_METHOD_FAIL;
	}
	if (!complete) {
		eap_tls_fragmenter_next(flow->out, eap_tls_flow_max_type_data(flow),
		                        flow->version_bits, response); /* ACK */
		return JOIND_EAP_METHOD_RESPOND;
	}
	message = eap_tls_reassembler_take(flow->in);
	if (g_bytes_get_size(message) == 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "empty EAP-%s Request with nothing to acknowledge", flow->method);
		return JOIND_EAP_METHOD_DISCARD;
	}
	return eap_tls_flow_message(flow, message, response, error);
}
