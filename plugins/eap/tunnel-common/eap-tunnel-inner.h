/* eap-tunnel-inner.h - the inner EAP conversation of a tunnel (PEAP, TTLS
 * with inner EAP): an inner JoindEapSession whose packets the tunnel
 * carries, with the cases a tunnel must tell apart after feeding it one
 * packet: it answered at once, it waits for an agent (and answers later
 * through the late hook), it failed, or it ignored the packet. */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

typedef struct _EapTunnelInner EapTunnelInner;

typedef struct {
	/* An inner packet (code, id, length, data) to carry to the server. late:
	 * it answers a packet fed earlier, after the inner session waited for
	 * an agent (the tunnel then completes its deferred outer response). */
	void (*send)(EapTunnelInner *inner, const guint8 *packet, gsize len, gboolean late,
	             gpointer user_data);
	/* The inner session failed while the tunnel waited for it (the agent
	 * was cancelled or is gone). */
	void (*failed_late)(EapTunnelInner *inner, const GError *error, gpointer user_data);
} EapTunnelInnerHooks;

/* prefix: the inner settings, "EAP-PEAP-Phase2-". */
EapTunnelInner *eap_tunnel_inner_new(JoindEapSession *outer, const gchar *prefix,
                                     const EapTunnelInnerHooks *hooks, gpointer user_data);
void eap_tunnel_inner_free(EapTunnelInner *inner);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapTunnelInner, eap_tunnel_inner_free)

typedef enum {
	EAP_TUNNEL_INNER_ANSWERED, /* send was called (not late) */
	EAP_TUNNEL_INNER_WAITING,  /* paused for an agent: send(late) or failed_late follow */
	EAP_TUNNEL_INNER_SILENT,   /* the inner session discarded the packet */
	EAP_TUNNEL_INNER_FAILED,   /* error holds the inner session's sentence */
} EapTunnelInnerResult;

/* One inner packet from the server (a whole EAP packet). */
EapTunnelInnerResult eap_tunnel_inner_feed(EapTunnelInner *inner, const guint8 *packet, gsize len,
                                           GError **error);
/* The tunnel learned the inner outcome without an inner EAP-Success or
 * Failure (PEAPv0's Result TLV, TTLS): feeds the inner session one with the
 * identifier of its last Response. TRUE when the inner session accepted
 * success; else error says why (the inner method's own sentence when it
 * has one). */
gboolean eap_tunnel_inner_finish(EapTunnelInner *inner, gboolean success, GError **error);
/* Identifier of the last inner Request fed, -1 before any. */
gint eap_tunnel_inner_last_id(EapTunnelInner *inner);
JoindEapSession *eap_tunnel_inner_get_session(EapTunnelInner *inner);

G_END_DECLS
