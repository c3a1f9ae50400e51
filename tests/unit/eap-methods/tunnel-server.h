/* tunnel-server.h - a small PEAP/TTLS server for unit tests: OpenSSL on
 * memory BIOs behind EAP-TLS framing (fragments and ACKs both ways, with
 * tls-common's framing helpers), driving an EapTestPeer. What happens in
 * the tunnel is up to the test's hooks. */
#pragma once

#include <openssl/ssl.h>

#include "eap-test-peer.h"

G_BEGIN_DECLS

typedef enum {
	TUNNEL_SERVER_CONTINUE,
	TUNNEL_SERVER_SUCCESS, /* send EAP-Success once our output is acknowledged */
	TUNNEL_SERVER_FAILURE,
} TunnelServerVerdict;

typedef struct _TunnelServer TunnelServer;

typedef struct {
	guint8 eap_type; /* JOIND_EAP_TYPE_PEAP or _TTLS */
	int max_version; /* TLS1_2_VERSION, TLS1_3_VERSION */
	const gchar *cert, *key;
	gsize max_type_data; /* of the server's requests; 0: 1000 */
	/* Called once the handshake is done (PEAP's server speaks first). */
	TunnelServerVerdict (*tunnel_up)(TunnelServer *s, gpointer user_data);
	/* Decrypted data from the peer. */
	TunnelServerVerdict (*app_data)(TunnelServer *s, const guint8 *data, gsize len,
	                                gpointer user_data);
	gpointer user_data;
} TunnelServerOptions;

TunnelServer *tunnel_server_new(const TunnelServerOptions *options);
void tunnel_server_free(TunnelServer *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TunnelServer, tunnel_server_free)

/* Application data for the peer (from within the hooks). */
void tunnel_server_write(TunnelServer *s, const void *data, gsize len);
/* TLS keying material: context NULL for the TLS 1.2 style exporter. */
void tunnel_server_export(TunnelServer *s, const gchar *label, const guint8 *context,
                          gsize context_len, guint8 *out, gsize out_len);
int tunnel_server_version(TunnelServer *s);

/* Request/Identity, Start, then the conversation until the server's
 * verdict is sent, or the peer fails or pauses (for an agent): returns the
 * verdict sent, else CONTINUE. */
TunnelServerVerdict tunnel_server_run(TunnelServer *s, EapTestPeer *peer);
/* Goes on after the peer paused and the test answered its agent. */
TunnelServerVerdict tunnel_server_resume(TunnelServer *s, EapTestPeer *peer);

G_END_DECLS
