/* eap-peap.c - PEAPv0 ([MS-PEAP], draft-kamath-pppext-peapv0): a TLS
 * tunnel (tls-common) carrying an inner EAP conversation whose headers are
 * left out, except for Extensions (type 33), which end it with a Result TLV
 * and, when the server asks, a Crypto-Binding that ties the inner keys to
 * the tunnel.
 *
 * Keys: TK = TLS-PRF(master, "client EAP encryption", randoms) (TLS 1.2)
 * or the RFC 9427 exporter with Type 25 (TLS 1.3). Without crypto binding
 * MSK | EMSK = TK[0..128); with it, they come from PRF+ over the IPMK.
 *
 * TLS 1.3's exporter mixes the length asked for into its output, so a
 * 64-octet export is no prefix of the 128-octet one, and the two uses of
 * the export disagree on the length:
 * - The crypto binding (optional in [MS-PEAP]: a server may leave it out,
 *   and FreeRADIUS 3.x always does) takes IPMK and CMK from the TK. RFC
 *   9427 makes the TK the 128-octet Key_Material; hostapd and
 *   wpa_supplicant (2.10) export 64 octets for it. The binding says
 *   which one the server used: one that the 128-octet TK does not verify
 *   is tried with the 64-octet one, and either proves that the server
 *   holds this tunnel's secrets.
 * - Without a binding, nothing on the wire tells, and the keys go straight
 *   into the PMK: a wrong choice would show only as a failed 4-way
 *   handshake. There is nothing to tell, though: RFC 9427 (MSK and EMSK
 *   from the 128-octet Key_Material), hostapd's and wpa_supplicant's
 *   getKey (an export of EAP_TLS_KEY_LEN + EAP_EMSK_LEN = 128 octets) and
 *   FreeRADIUS (its MPPE keys from a 128-octet export; 3.2 itself runs
 *   PEAP over TLS 1.2 only) all take the first 64 octets of the
 *   128-octet export as the MSK, so joind does. The 64-octet export is
 *   never a key without a binding that verified with it. */
#include "eap-peap.h"

#include <string.h>

#include <gio/gio.h>

#include "eap-peap-tlv.h"
#include "eap-tls-flow.h"
#include "eap-tunnel-inner.h"
#include "joind-error.h"
#include "joind-secret.h"
#include "joind-log.h"

#define EAP_PEAP_TK_LEN 128

typedef enum {
	EAP_PEAP_PHASE_TLS,   /* handshake */
	EAP_PEAP_PHASE_INNER, /* inner conversation in the tunnel */
	EAP_PEAP_PHASE_DONE,  /* answered the Result */
	/* the last value, which name tables are checked against */
	EAP_PEAP_PHASE_LAST = EAP_PEAP_PHASE_DONE,
} EapPeapPhase;

typedef struct {
	JoindEapSession *session;
	EapTlsFlow *flow;
	EapTunnelInner *inner;
	EapPeapPhase phase;
	guint8 outer_id;
	guint8 tk[EAP_PEAP_TK_LEN];
	gboolean have_tk;
	guint8 tk64[EAP_PEAP_TK_LEN]; /* TLS 1.3: the exporter's 64 octets */
	gboolean have_tk64;
	gboolean fast_reconnect; /* resumed TLS session, no inner method */
} EapPeap;

static const gchar *
eap_peap_phase_name(EapPeapPhase phase)
{
	static const gchar *const names[] = {
	        [EAP_PEAP_PHASE_TLS] = "tls",
	        [EAP_PEAP_PHASE_INNER] = "inner",
	        [EAP_PEAP_PHASE_DONE] = "done",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == EAP_PEAP_PHASE_LAST + 1);

	return names[phase];
}

static void
eap_peap_set_phase(EapPeap *peap, EapPeapPhase phase, const gchar *reason)
{
	const JoindLogSubject subject = {.machine = "PEAP"};

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE, &subject,
	                       eap_peap_phase_name(peap->phase), eap_peap_phase_name(phase),
	                       reason);
	peap->phase = phase;
}

static gchar *
eap_peap_inner_prefix(JoindEapSession *session)
{
	return g_strconcat(joind_eap_session_get_prefix(session), "PEAP-Phase2-", NULL);
}

/* ---- the inner conversation ---- */

static void
eap_peap_inner_send(EapTunnelInner *inner, const guint8 *packet, gsize len, gboolean late,
                    gpointer user_data)
{
	EapPeap *peap = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GByteArray) response = NULL;

	/* PEAPv0 leaves the inner header out: Type and Type-Data only. */
	if (len <= 4 || !eap_tls_flow_write(peap->flow, packet + 4, len - 4, &error)) {
		g_warning("PEAP: cannot carry the inner response: %s",
		          error != NULL ? error->message : "empty packet");
		return;
	}
	if (!late)
		return;
	response = g_byte_array_new();
	eap_tls_flow_complete(peap->flow, response);
	joind_eap_session_method_reply(peap->session, response->data, response->len);
}

static void
eap_peap_inner_failed_late(EapTunnelInner *inner, const GError *error, gpointer user_data)
{
	EapPeap *peap = user_data;

	joind_eap_session_method_fail(peap->session, error);
}

static const EapTunnelInnerHooks eap_peap_inner_hooks = {
        .send = eap_peap_inner_send,
        .failed_late = eap_peap_inner_failed_late,
};

/* An inner Request, its header rebuilt with the outer identifier. */
static gboolean
eap_peap_inner_request(EapPeap *peap, const guint8 *data, gsize len, GError **error)
{
	g_autoptr(GByteArray) packet = g_byte_array_sized_new((guint)len + 4);
	guint8 header[4] = {JOIND_EAP_CODE_REQUEST, peap->outer_id, (guint8)((len + 4) >> 8),
	                    (guint8)((len + 4) & 0xff)};

	if (len + 4 > G_MAXUINT16) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The PEAP server sent an inner request of %zu octets.", len);
		return FALSE;
	}
	g_byte_array_append(packet, header, sizeof(header));
	g_byte_array_append(packet, data, (guint)len);
	switch (eap_tunnel_inner_feed(peap->inner, packet->data, packet->len, error)) {
	case EAP_TUNNEL_INNER_ANSWERED:
		return TRUE;
	case EAP_TUNNEL_INNER_WAITING:
		eap_tls_flow_defer(peap->flow);
		return TRUE;
	case EAP_TUNNEL_INNER_SILENT:
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The inner EAP conversation could not answer the PEAP server's "
		            "request.");
		return FALSE;
	default:
		return FALSE;
	}
}

/* ---- Extensions: the end of the inner conversation ---- */

/* IPMK and CMK from tk and the ISK, and the server's binding verified
 * with them. A fast reconnect ([MS-PEAP] 3.1.5.5: resumed session, no
 * inner method) takes IPMK and CMK straight from TK. */
static gboolean
eap_peap_bind_keys(EapPeap *peap, const guint8 tk[EAP_PEAP_TK_LEN],
                   const guint8 isk[EAP_PEAP_ISK_LEN], const EapPeapTlvs *tlvs,
                   guint8 ipmk[EAP_PEAP_IPMK_LEN], guint8 cmk[EAP_PEAP_CMK_LEN], GError **error)
{
	if (peap->fast_reconnect) {
		memcpy(ipmk, tk, EAP_PEAP_IPMK_LEN);
		memcpy(cmk, tk + EAP_PEAP_IPMK_LEN, EAP_PEAP_CMK_LEN);
	} else if (!eap_peap_compound_keys(tk, isk, ipmk, cmk, error)) {
		return FALSE;
	}
	return eap_peap_binding_verify(tlvs, cmk, error);
}

/* Verifies the server's binding, answers it, and derives the keys. Both
 * TKs of a TLS 1.3 tunnel come from its secrets: whichever verifies the
 * binding proves that the server holds the tunnel's other end. */
static gboolean
eap_peap_bind(EapPeap *peap, const EapPeapTlvs *tlvs, GByteArray *reply, guint8 msk[64],
              guint8 emsk[64], GError **error)
{
	guint8 isk[EAP_PEAP_ISK_LEN] = {0}, ipmk[EAP_PEAP_IPMK_LEN], cmk[EAP_PEAP_CMK_LEN];
	gsize inner_len = 0;
	const guint8 *inner_msk =
	        joind_eap_session_get_msk(eap_tunnel_inner_get_session(peap->inner), &inner_len);
	g_autoptr(GError) local = NULL;
	gboolean ok;

	/* ISK: the inner MSK's first 32 octets, zeros when it has none (GTC). */
	if (inner_msk != NULL)
		memcpy(isk, inner_msk, MIN(inner_len, sizeof(isk)));
	ok = eap_peap_bind_keys(peap, peap->tk, isk, tlvs, ipmk, cmk, &local);
	if (!ok && peap->have_tk64) {
		g_clear_error(&local);
		ok = eap_peap_bind_keys(peap, peap->tk64, isk, tlvs, ipmk, cmk, &local);
		if (ok)
			g_debug("PEAP: the server's crypto binding uses a TK of 64 exported "
			        "octets");
	}
	ok = ok && eap_peap_binding_build(reply, tlvs, cmk, &local) &&
	     eap_peap_binding_session_keys(ipmk, msk, emsk, &local);
	joind_secret_clear(isk, sizeof(isk));
	joind_secret_clear(ipmk, sizeof(ipmk));
	joind_secret_clear(cmk, sizeof(cmk));
	if (!ok)
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The PEAP crypto binding failed (%s): the inner authentication may "
		            "have been relayed by someone in the middle.",
		            local->message);
	return ok;
}

static gboolean
eap_peap_success(EapPeap *peap, const EapPeapTlvs *tlvs, GByteArray *reply, GError **error)
{
	guint8 msk[64], emsk[64];
	g_autoptr(GByteArray) binding = g_byte_array_new();

	if (tlvs->has_binding) {
		if (!eap_peap_bind(peap, tlvs, binding, msk, emsk, error))
			return FALSE;
	} else {
		memcpy(msk, peap->tk, 64);
		memcpy(emsk, peap->tk + 64, 64);
	}
	eap_peap_result_tlv_build(reply, EAP_PEAP_RESULT_SUCCESS);
	g_byte_array_append(reply, binding->data, binding->len);
	joind_eap_session_set_keys(peap->session, msk, sizeof(msk), emsk, sizeof(emsk));
	joind_secret_clear(msk, sizeof(msk));
	joind_secret_clear(emsk, sizeof(emsk));
	joind_eap_session_set_decision(peap->session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	g_info("PEAP: inner authentication succeeded%s",
	       tlvs->has_binding ? ", crypto binding verified" : " (no crypto binding)");
	return TRUE;
}

static void
eap_peap_failure(EapPeap *peap, const GError *inner_error, GByteArray *reply)
{
	g_info("PEAP: inner authentication failed: %s", inner_error->message);
	joind_eap_session_set_peer_reason(peap->session, inner_error->message);
	eap_peap_result_tlv_build(reply, EAP_PEAP_RESULT_FAILURE);
	joind_eap_session_set_decision(peap->session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_FAIL);
}

/* A resumed TLS session lets the server skip the inner authentication
 * (it did it in the session being resumed): its Result then comes first,
 * and the crypto binding uses an all-zero ISK. */
static gboolean
eap_peap_resumed_without_inner(EapPeap *peap)
{
	if (!eap_tls_flow_resumed(peap->flow) || eap_tunnel_inner_last_id(peap->inner) >= 0)
		return FALSE;
	g_info("PEAP: resumed TLS session; the server skipped the inner authentication");
	peap->fast_reconnect = TRUE;
	return TRUE;
}

static gboolean
eap_peap_extensions(EapPeap *peap, const guint8 *data, gsize len, GError **error)
{
	g_autoptr(GByteArray) reply = g_byte_array_new();
	g_autoptr(GError) local = NULL;
	guint8 header[5] = {JOIND_EAP_CODE_RESPONSE, data[1], 0, 0, EAP_PEAP_TYPE_EXTENSIONS};
	EapPeapTlvs tlvs;

	if (!eap_peap_tlvs_parse(data + 5, len - 5, &tlvs, &local)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The PEAP server sent malformed Extensions: %s.", local->message);
		return FALSE;
	}
	if (tlvs.result == 0 || tlvs.unknown_mandatory != 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            tlvs.result == 0 ? "The PEAP server sent Extensions without a Result."
		                             : "The PEAP server requires TLV %u, which joind does "
		                               "not support.",
		            tlvs.unknown_mandatory);
		return FALSE;
	}
	g_byte_array_append(reply, header, sizeof(header));
	if (tlvs.result == EAP_PEAP_RESULT_SUCCESS &&
	    (eap_peap_resumed_without_inner(peap) ||
	     eap_tunnel_inner_finish(peap->inner, TRUE, &local))) {
		if (!eap_peap_success(peap, &tlvs, reply, error))
			return FALSE;
	} else {
		if (local == NULL)
			eap_tunnel_inner_finish(peap->inner, FALSE, &local);
		eap_peap_failure(peap, local, reply);
	}
	reply->data[2] = (guint8)(reply->len >> 8);
	reply->data[3] = (guint8)(reply->len & 0xff);
	eap_peap_set_phase(peap, EAP_PEAP_PHASE_DONE, "answered the Result");
	return eap_tls_flow_write(peap->flow, reply->data, reply->len, error);
}

/* ---- tls-common hooks ---- */

static gboolean
eap_peap_start(EapTlsFlow *flow, guint8 flags, gpointer user_data, GError **error)
{
	/* The server offers its highest version; joind speaks version 0. */
	g_debug("PEAP: the server offers version %u, using 0", (guint)(flags & 0x07u));
	eap_tls_flow_set_version_bits(flow, 0);
	return TRUE;
}

static gboolean
eap_peap_handshake_done(EapTlsFlow *flow, gpointer user_data, GError **error)
{
	static const guint8 type_code[] = {JOIND_EAP_TYPE_PEAP};
	EapPeap *peap = user_data;
	EapTlsConn *conn = eap_tls_flow_get_conn(flow);
	gboolean tls13 = eap_tls_conn_get_version(conn) == TLS1_3_VERSION;

	peap->have_tk =
	        tls13 ? eap_tls_conn_export(conn, "EXPORTER_EAP_TLS_Key_Material", type_code,
	                                    sizeof(type_code), peap->tk, sizeof(peap->tk), error)
	              : eap_tls_conn_export(conn, "client EAP encryption", NULL, 0, peap->tk,
	                                    sizeof(peap->tk), error);
	if (!peap->have_tk)
		return FALSE;
	peap->have_tk64 =
	        tls13 && eap_tls_conn_export(conn, "EXPORTER_EAP_TLS_Key_Material", type_code,
	                                     sizeof(type_code), peap->tk64, 64, NULL);
	eap_peap_set_phase(peap, EAP_PEAP_PHASE_INNER,
	                   tls13 ? "TLS 1.3 tunnel up" : "TLS 1.2 tunnel up");
	return TRUE;
}

static gboolean
eap_peap_app_data(EapTlsFlow *flow, const guint8 *data, gsize len, gpointer user_data,
                  GError **error)
{
	EapPeap *peap = user_data;

	if (peap->phase != EAP_PEAP_PHASE_INNER) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The PEAP server sent data after the Result.");
		return FALSE;
	}
	/* Extensions keep their full EAP header; everything else lost it. */
	if (len >= 5 && data[0] == JOIND_EAP_CODE_REQUEST &&
	    (gsize)((data[2] << 8) | data[3]) == len && data[4] == EAP_PEAP_TYPE_EXTENSIONS)
		return eap_peap_extensions(peap, data, len, error);
	return eap_peap_inner_request(peap, data, len, error);
}

static gboolean
eap_peap_closed(EapTlsFlow *flow, gpointer user_data, GError **error)
{
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
	            "The PEAP server closed the tunnel before the end of the authentication.");
	return FALSE;
}

static const EapTlsFlowHooks eap_peap_hooks = {
        .start = eap_peap_start,
        .handshake_done = eap_peap_handshake_done,
        .app_data = eap_peap_app_data,
        .closed = eap_peap_closed,
};

/* ---- the method ---- */

static void
eap_peap_check_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	/* A session made only to check the settings never sends. */
}

static gboolean
eap_peap_check_settings(JoindEapSession *session, GError **error)
{
	static const JoindEapSessionCallbacks none = {.send = eap_peap_check_send};
	g_autofree gchar *prefix = eap_peap_inner_prefix(session);
	JoindEapSession *inner;
	gboolean ok;

	if (!eap_tls_config_check(session, "PEAP", "PEAP-", FALSE, error))
		return FALSE;
	inner = joind_eap_session_new_inner(session, prefix, &none, NULL);
	ok = joind_eap_session_check(inner, error);
	joind_eap_session_unref(inner);
	return ok;
}

/* The inner method runs with keys of its own under EAP-PEAP-Phase2-. */
static gboolean
eap_peap_check_profile(JoindProfile *profile, const gchar *prefix, GError **error)
{
	g_autofree gchar *inner = g_strconcat(prefix, "PEAP-Phase2-", NULL);
	g_autofree gchar *tls = g_strconcat(prefix, "PEAP-", NULL);

	return eap_tls_config_check_profile(profile, tls, error) &&
	       joind_eap_check_profile(profile, inner, error);
}

static gpointer
eap_peap_state_new(JoindEapSession *session, GError **error)
{
	EapPeap *peap = g_new0(EapPeap, 1);
	g_autofree gchar *prefix = eap_peap_inner_prefix(session);

	peap->session = session;
	peap->flow = eap_tls_flow_new(session, "PEAP", "PEAP-", FALSE, &eap_peap_hooks, peap);
	peap->inner = eap_tunnel_inner_new(session, prefix, &eap_peap_inner_hooks, peap);
	return peap;
}

static void
eap_peap_state_free(gpointer data)
{
	EapPeap *peap = data;

	/* The inner session first: it may still reach for the flow. */
	eap_tunnel_inner_free(peap->inner);
	eap_tls_flow_free(peap->flow);
	joind_secret_clear(peap->tk, sizeof(peap->tk));
	joind_secret_clear(peap->tk64, sizeof(peap->tk64));
	g_free(peap);
}

static JoindEapMethodResult
eap_peap_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
                GByteArray *response, GError **error)
{
	EapPeap *peap = state;

	peap->outer_id = id;
	return eap_tls_flow_handle(peap->flow, data, len, response, error);
}

const JoindEapMethodOps eap_peap_ops = {
        .type = JOIND_EAP_TYPE_PEAP,
        .name = "PEAP",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .check_settings = eap_peap_check_settings,
        .state_new = eap_peap_state_new,
        .state_free = eap_peap_state_free,
        .handle_request = eap_peap_handle,
        .check_profile = eap_peap_check_profile,
};
