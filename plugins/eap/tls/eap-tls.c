/* eap-tls.c - EAP-TLS: mutual certificate authentication.
 *
 * TLS 1.2 (RFC 5216): the method is done when the handshake is, keys are
 * TLS-PRF-128(master, "client EAP encryption", client/server random).
 * TLS 1.3 (RFC 9190): the handshake ends before the server has judged our
 * certificate; the server then sends a protected success indication (one
 * octet 0x00 of application data; early drafts used close_notify, also
 * accepted), and keys come from the exporter with label
 * "EXPORTER_EAP_TLS_Key_Material" and context Type-Code 0x0D. */
#include "eap-tls.h"

#include "eap-tls-flow.h"
#include "joind-error.h"
#include "joind-secret.h"

#define EAP_TLS_KEY_MATERIAL_LEN (JOIND_EAP_MSK_LEN + JOIND_EAP_EMSK_LEN)

typedef struct {
	JoindEapSession *session;
	EapTlsFlow *flow;
	gboolean keys_derived;
} EapTls;

static gboolean
eap_tls_derive_keys(EapTls *tls, GError **error)
{
	static const guint8 type_code[] = {JOIND_EAP_TYPE_TLS};
	EapTlsConn *conn = eap_tls_flow_get_conn(tls->flow);
	guint8 material[EAP_TLS_KEY_MATERIAL_LEN];
	gboolean tls13 = eap_tls_conn_get_version(conn) == TLS1_3_VERSION;
	gboolean ok;

	ok = tls13 ? eap_tls_conn_export(conn, "EXPORTER_EAP_TLS_Key_Material", type_code,
	                                 sizeof(type_code), material, sizeof(material), error)
	           : eap_tls_conn_export(conn, "client EAP encryption", NULL, 0, material,
	                                 sizeof(material), error);
	if (!ok)
		return FALSE;
	joind_eap_session_set_keys(tls->session, material, JOIND_EAP_MSK_LEN,
	                           material + JOIND_EAP_MSK_LEN, JOIND_EAP_EMSK_LEN);
	joind_secret_clear(material, sizeof(material));
	joind_eap_session_set_decision(tls->session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	tls->keys_derived = TRUE;
	g_debug("EAP-TLS %s: authenticated the server, keys derived", tls13 ? "1.3" : "1.2");
	return TRUE;
}

static gboolean
eap_tls_handshake_done(EapTlsFlow *flow, gpointer data, GError **error)
{
	EapTls *tls = data;

	/* TLS 1.3: wait for the server's verdict on our certificate. */
	if (eap_tls_conn_get_version(eap_tls_flow_get_conn(flow)) == TLS1_3_VERSION)
		return TRUE;
	return eap_tls_derive_keys(tls, error);
}

static gboolean
eap_tls_app_data(EapTlsFlow *flow, const guint8 *data, gsize len, gpointer user_data,
                 GError **error)
{
	EapTls *tls = user_data;

	if (eap_tls_conn_get_version(eap_tls_flow_get_conn(flow)) == TLS1_3_VERSION && len == 1 &&
	    data[0] == 0x00 && !tls->keys_derived)
		return eap_tls_derive_keys(tls, error);
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
	            "The EAP-TLS server sent %zu octets of application data where only the TLS 1.3 "
	            "success indication (0x00) may come.",
	            len);
	return FALSE;
}

static gboolean
eap_tls_closed(EapTlsFlow *flow, gpointer data, GError **error)
{
	EapTls *tls = data;

	if (eap_tls_conn_get_version(eap_tls_flow_get_conn(flow)) == TLS1_3_VERSION &&
	    !tls->keys_derived)
		return eap_tls_derive_keys(tls, error);
	return TRUE;
}

static const EapTlsFlowHooks eap_tls_hooks = {
        .handshake_done = eap_tls_handshake_done,
        .app_data = eap_tls_app_data,
        .closed = eap_tls_closed,
};

static gboolean
eap_tls_check_settings(JoindEapSession *session, GError **error)
{
	return eap_tls_config_check(session, "TLS", "TLS-", TRUE, error);
}

static gboolean
eap_tls_check_profile(JoindProfile *profile, const gchar *prefix, GError **error)
{
	g_autofree gchar *tls = g_strconcat(prefix, "TLS-", NULL);

	return eap_tls_config_check_profile(profile, tls, error);
}

static gpointer
eap_tls_state_new(JoindEapSession *session, GError **error)
{
	EapTls *tls = g_new0(EapTls, 1);

	tls->session = session;
	tls->flow = eap_tls_flow_new(session, "TLS", "TLS-", TRUE, &eap_tls_hooks, tls);
	return tls;
}

static void
eap_tls_state_free(gpointer data)
{
	EapTls *tls = data;

	eap_tls_flow_free(tls->flow);
	g_free(tls);
}

static JoindEapMethodResult
eap_tls_handle_request(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data,
                       gsize len, GByteArray *response, GError **error)
{
	EapTls *tls = state;

	return eap_tls_flow_handle(tls->flow, data, len, response, error);
}

const JoindEapMethodOps eap_tls_ops = {
        .type = JOIND_EAP_TYPE_TLS,
        .name = "TLS",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .check_settings = eap_tls_check_settings,
        .check_profile = eap_tls_check_profile,
        .state_new = eap_tls_state_new,
        .state_free = eap_tls_state_free,
        .handle_request = eap_tls_handle_request,
};
