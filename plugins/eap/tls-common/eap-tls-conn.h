/* eap-tls-conn.h - a TLS client on memory BIOs: records in from the EAP
 * server, records out to it, server validation with sentences a person can
 * act on, and keying material exports. */
#pragma once

#include <gio/gio.h>

#include "eap-tls-config.h"

G_BEGIN_DECLS

typedef struct _EapTlsConn EapTlsConn;

EapTlsConn *eap_tls_conn_new(const EapTlsConfig *config, GError **error);
void eap_tls_conn_free(EapTlsConn *conn);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTlsConn, eap_tls_conn_free)

typedef enum {
	EAP_TLS_CONN_CONTINUE, /* handshake or data exchange goes on */
	EAP_TLS_CONN_CLOSED,   /* the server sent close_notify */
	EAP_TLS_CONN_FAILED,   /* error set; an alert may wait in the output */
} EapTlsConnStatus;

/* Feeds TLS records from the server (len may be 0 to start the handshake)
 * and advances: the handshake, then reading application data into app_data.
 * On failure the error says why: the server certificate did not validate
 * (which certificate, which CA, which name), the server sent an alert, or
 * the handshake broke. */
EapTlsConnStatus eap_tls_conn_process(EapTlsConn *conn, const guint8 *in, gsize len,
                                      GByteArray *app_data, GError **error);
gboolean eap_tls_conn_handshake_done(EapTlsConn *conn);
/* Encrypt application data; the records appear in the output. */
gboolean eap_tls_conn_write(EapTlsConn *conn, const guint8 *data, gsize len, GError **error);
/* Records to send, or NULL when there are none. */
GBytes *eap_tls_conn_take_output(EapTlsConn *conn);
/* TLS1_2_VERSION, TLS1_3_VERSION; 0 before the handshake. */
int eap_tls_conn_get_version(EapTlsConn *conn);
/* The fatal alert the server sent ("unknown CA"), or NULL. */
const gchar *eap_tls_conn_get_peer_alert(EapTlsConn *conn);
/* RFC 5705 / RFC 8446 exporter. context NULL: no context (TLS 1.2 style). */
gboolean eap_tls_conn_export(EapTlsConn *conn, const gchar *label, const guint8 *context,
                             gsize context_len, guint8 *out, gsize out_len, GError **error);

/* Session resumption (RFC 5216 section 2.1.3): before the handshake, offer
 * a session the server gave in an earlier handshake; FALSE when it cannot
 * be offered. The server decides whether it resumes it. */
gboolean eap_tls_conn_offer_session(EapTlsConn *conn, SSL_SESSION *session);
/* A resumable session the server gave since the last call (the caller owns
 * it: SSL_SESSION_free), or NULL. */
SSL_SESSION *eap_tls_conn_take_new_session(EapTlsConn *conn);
/* The handshake is done and resumed a session (no certificate exchanged:
 * the server proved it holds the earlier session's keys). */
gboolean eap_tls_conn_resumed(EapTlsConn *conn);

/* What the server presented (a{sv}, joind-eap.h's report: subject,
 * issuer, not-before, not-after, pin, pin-setting, trusted: whether the
 * handshake got past it, domain-mask-setting and names when its names
 * matched no mask), and once the handshake is done tls-version, cipher and
 * resumed; a new floating GVariant. A resumed handshake shows no
 * certificate: then earlier (the report of the handshake it resumed, may be
 * NULL) is what it adds to. NULL before a certificate came. */
GVariant *eap_tls_conn_get_server_details(EapTlsConn *conn, GVariant *earlier);

G_END_DECLS
