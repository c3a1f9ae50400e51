/* eap-tls-flow.h - the EAP-TLS conversation pattern that EAP-TLS, PEAP and
 * TTLS share: Start, TLS records carried in fragments with ACKs both ways,
 * then (for the tunnels) application data. The method supplies hooks for
 * what the TLS connection yields and decides success itself. */
#pragma once

#include "eap-tls-conn.h"
#include "joind-eap.h"

G_BEGIN_DECLS

typedef struct _EapTlsFlow EapTlsFlow;

typedef struct {
	/* Optional: the server's Start; flags carry its version bits (PEAP,
	 * TTLS). Call eap_tls_flow_set_version_bits() to answer. */
	gboolean (*start)(EapTlsFlow *flow, guint8 flags, gpointer user_data, GError **error);
	/* The handshake completed (called once). */
	gboolean (*handshake_done)(EapTlsFlow *flow, gpointer user_data, GError **error);
	/* Decrypted application data from the server. */
	gboolean (*app_data)(EapTlsFlow *flow, const guint8 *data, gsize len, gpointer user_data,
	                     GError **error);
	/* The server sent close_notify. */
	gboolean (*closed)(EapTlsFlow *flow, gpointer user_data, GError **error);
} EapTlsFlowHooks;

/* method: "TLS", "PEAP", "TTLS" (for sentences); key_prefix: the settings
 * under the session's prefix ("TLS-" reads EAP-TLS-CACert ...). */
EapTlsFlow *eap_tls_flow_new(JoindEapSession *session, const gchar *method, const gchar *key_prefix,
                             gboolean require_client_cert, const EapTlsFlowHooks *hooks,
                             gpointer user_data);
void eap_tls_flow_free(EapTlsFlow *flow);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsFlow, eap_tls_flow_free)

/* One Request's Type-Data: the body of a method's handle_request. Before the
 * handshake ends the method state is MAY_CONT/FAIL (the server may reject
 * at any time); deciding success is up to the hooks. */
JoindEapMethodResult eap_tls_flow_handle(EapTlsFlow *flow, const guint8 *data, gsize len,
                                         GByteArray *response, GError **error);

void eap_tls_flow_set_version_bits(EapTlsFlow *flow, guint8 bits);
/* NULL before Start. */
EapTlsConn *eap_tls_flow_get_conn(EapTlsFlow *flow);
/* The handshake resumed the TLS session of an earlier authentication of
 * this EAP session (offered automatically at Start). The server then
 * usually skips the inner authentication (hostapd, FreeRADIUS). */
gboolean eap_tls_flow_resumed(EapTlsFlow *flow);
/* Application data for the server, sent with the next response. */
gboolean eap_tls_flow_write(EapTlsFlow *flow, const guint8 *data, gsize len, GError **error);

/* For tunnels whose inner conversation cannot answer at once (it waits for
 * an agent): called from the app_data hook, it makes this request return
 * JOIND_EAP_METHOD_PENDING. When the inner answer is there, write it with
 * eap_tls_flow_write(), then eap_tls_flow_complete() fills the deferred
 * response's Type-Data for joind_eap_session_method_reply(). */
void eap_tls_flow_defer(EapTlsFlow *flow);
void eap_tls_flow_complete(EapTlsFlow *flow, GByteArray *response);

G_END_DECLS
