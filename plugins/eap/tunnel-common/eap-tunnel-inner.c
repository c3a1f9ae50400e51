/* eap-tunnel-inner.c - the inner EAP session of a tunnel. */
#include "eap-tunnel-inner.h"

#include <gio/gio.h>

#include "joind-error.h"

struct _EapTunnelInner {
	JoindEapSession *session;
	EapTunnelInnerHooks hooks;
	gpointer user_data;
	gboolean feeding; /* inside eap_tunnel_inner_feed() */
	gboolean answered;
	GError *failure;
	gint last_id;
};

static void
eap_tunnel_inner_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	EapTunnelInner *inner = data;

	inner->answered = TRUE;
	inner->hooks.send(inner, packet, len, !inner->feeding, inner->user_data);
}

static void
eap_tunnel_inner_failed(JoindEapSession *s, JoindEapStage stage, const GError *error, gpointer data)
{
	EapTunnelInner *inner = data;

	g_clear_error(&inner->failure);
	inner->failure = g_error_copy(error);
	if (!inner->feeding && inner->hooks.failed_late != NULL)
		inner->hooks.failed_late(inner, error, inner->user_data);
}

static void
eap_tunnel_inner_method(JoindEapSession *s, const gchar *method, gpointer data)
{
	g_info("tunnel: inner method EAP-%s", method);
}

static const JoindEapSessionCallbacks eap_tunnel_inner_callbacks = {
        .send = eap_tunnel_inner_send,
        .method_selected = eap_tunnel_inner_method,
        .failed = eap_tunnel_inner_failed,
};

EapTunnelInner *
eap_tunnel_inner_new(JoindEapSession *outer, const gchar *prefix, const EapTunnelInnerHooks *hooks,
                     gpointer user_data)
{
	EapTunnelInner *inner = g_new0(EapTunnelInner, 1);

	inner->hooks = *hooks;
	inner->user_data = user_data;
	inner->last_id = -1;
	inner->session =
	        joind_eap_session_new_inner(outer, prefix, &eap_tunnel_inner_callbacks, inner);
	return inner;
}

void
eap_tunnel_inner_free(EapTunnelInner *inner)
{
	if (inner == NULL)
		return;
	joind_eap_session_unref(inner->session);
	g_clear_error(&inner->failure);
	g_free(inner);
}

EapTunnelInnerResult
eap_tunnel_inner_feed(EapTunnelInner *inner, const guint8 *packet, gsize len, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (len >= 2 && packet[0] == JOIND_EAP_CODE_REQUEST)
		inner->last_id = packet[1];
	inner->answered = FALSE;
	g_clear_error(&inner->failure);
	inner->feeding = TRUE;
	if (!joind_eap_session_rx(inner->session, packet, len, &local)) {
		inner->feeding = FALSE;
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The server sent a malformed inner EAP packet: %s.", local->message);
		return EAP_TUNNEL_INNER_FAILED;
	}
	inner->feeding = FALSE;
	if (inner->failure != NULL) {
		g_propagate_error(error, g_steal_pointer(&inner->failure));
		return EAP_TUNNEL_INNER_FAILED;
	}
	if (inner->answered)
		return EAP_TUNNEL_INNER_ANSWERED;
	if (joind_eap_session_get_state(inner->session) == JOIND_EAP_STATE_PAUSED)
		return EAP_TUNNEL_INNER_WAITING;
	return EAP_TUNNEL_INNER_SILENT;
}

gboolean
eap_tunnel_inner_finish(EapTunnelInner *inner, gboolean success, GError **error)
{
	guint8 packet[4] = {success ? JOIND_EAP_CODE_SUCCESS : JOIND_EAP_CODE_FAILURE,
	                    (guint8)inner->last_id, 0, 4};
	JoindEapState state;

	g_clear_error(&inner->failure);
	inner->feeding = TRUE;
	if (inner->last_id >= 0)
		joind_eap_session_rx(inner->session, packet, sizeof(packet), NULL);
	inner->feeding = FALSE;
	state = joind_eap_session_get_state(inner->session);
	if (state == JOIND_EAP_STATE_SUCCESS)
		return TRUE;
	if (inner->failure != NULL)
		g_propagate_error(error, g_steal_pointer(&inner->failure));
	else
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The inner authentication did not complete (it is %s).",
		            joind_eap_state_to_string(state));
	return FALSE;
}

gint
eap_tunnel_inner_last_id(EapTunnelInner *inner)
{
	return inner->last_id;
}

JoindEapSession *
eap_tunnel_inner_get_session(EapTunnelInner *inner)
{
	return inner->session;
}
