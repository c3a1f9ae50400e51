/* eap-ttls.c - EAP-TTLSv0 (RFC 5281; TLS 1.3 per RFC 9427): a TLS tunnel
 * (tls-common) in which the peer speaks first, with AVPs: a non-EAP
 * authentication (PAP, CHAP, MS-CHAP, MS-CHAPv2) or an inner EAP
 * conversation in EAP-Message AVPs (tunnel-common).
 *
 * Keys: TLS-PRF(master, "ttls keying material", randoms) (TLS 1.2) or the
 * RFC 9427 exporter with Type 21 (TLS 1.3); challenges for the non-EAP
 * methods come from "ttls challenge" keying material. */
#include "eap-ttls.h"

#include <string.h>

#include <gio/gio.h>

#include "eap-mschap-crypto.h"
#include "eap-mschap-message.h"
#include "eap-tls-flow.h"
#include "eap-ttls-avp.h"
#include "eap-ttls-phase2.h"
#include "eap-tunnel-inner.h"
#include "joind-error.h"
#include "joind-secret.h"

#define EAP_TTLS_KEY_MATERIAL_LEN 128

typedef struct {
	JoindEapSession *session;
	EapTlsFlow *flow;
	EapTtlsPhase2 phase2;
	EapTunnelInner *inner; /* phase2 == EAP */
	gboolean tunnel_up;
	guint8 mschapv2_ident;
	gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN];
} EapTtls;

static gchar *
eap_ttls_inner_prefix(JoindEapSession *session)
{
	return g_strconcat(joind_eap_session_get_prefix(session), "TTLS-Phase2-", NULL);
}

/* ---- inner EAP ---- */

static void
eap_ttls_inner_send(EapTunnelInner *inner, const guint8 *packet, gsize len, gboolean late,
                    gpointer user_data)
{
	EapTtls *ttls = user_data;
	g_autoptr(GByteArray) avp = g_byte_array_new();
	g_autoptr(GByteArray) response = NULL;
	g_autoptr(GError) error = NULL;

	eap_ttls_avp_append(avp, EAP_TTLS_AVP_EAP_MESSAGE, 0, packet, len);
	if (!eap_tls_flow_write(ttls->flow, avp->data, avp->len, &error)) {
		g_warning("TTLS: cannot carry the inner response: %s", error->message);
		return;
	}
	if (!late)
		return;
	response = g_byte_array_new();
	eap_tls_flow_complete(ttls->flow, response);
	joind_eap_session_method_reply(ttls->session, response->data, response->len);
}

static void
eap_ttls_inner_failed_late(EapTunnelInner *inner, const GError *error, gpointer user_data)
{
	EapTtls *ttls = user_data;

	joind_eap_session_method_fail(ttls->session, error);
}

static const EapTunnelInnerHooks eap_ttls_inner_hooks = {
        .send = eap_ttls_inner_send,
        .failed_late = eap_ttls_inner_failed_late,
};

static gboolean
eap_ttls_inner_feed(EapTtls *ttls, const guint8 *packet, gsize len, GError **error)
{
	JoindEapSession *inner = eap_tunnel_inner_get_session(ttls->inner);
	g_autofree gchar *reason = NULL;

	switch (eap_tunnel_inner_feed(ttls->inner, packet, len, error)) {
	case EAP_TUNNEL_INNER_ANSWERED:
		/* What an EAP-Failure now would be about. */
		if (joind_eap_session_get_method_name(inner) != NULL) {
			reason = g_strdup_printf(
			        "The inner EAP-%s authentication of \"%s\" did not succeed.",
			        joind_eap_session_get_method_name(inner),
			        joind_eap_session_get_identity(inner));
			joind_eap_session_set_peer_reason(ttls->session, reason);
		}
		return TRUE;
	case EAP_TUNNEL_INNER_WAITING:
		eap_tls_flow_defer(ttls->flow);
		return TRUE;
	case EAP_TUNNEL_INNER_SILENT:
		return joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                       "The inner EAP conversation could not answer the TTLS "
		                       "server's request.");
	default:
		return FALSE;
	}
}

/* ---- non-EAP credentials ---- */

static gchar *
eap_ttls_user(JoindEapSession *session)
{
	gchar *user = joind_eap_session_get_setting(session, "TTLS-Phase2-Identity");

	return user != NULL ? user : g_strdup(joind_eap_session_get_identity(session));
}

/* The password, from the profile or the agent; called before the tunnel
 * starts so that waiting for the agent leaves no TLS state behind. */
static JoindEapSecretStatus
eap_ttls_password(EapTtls *ttls, const gchar **password, GError **error)
{
	gchar *hash = NULL;

	*password = NULL;
	if (ttls->phase2 == EAP_TTLS_PHASE2_MSCHAP || ttls->phase2 == EAP_TTLS_PHASE2_MSCHAPV2)
		hash = joind_eap_session_get_setting(ttls->session, "TTLS-Phase2-Password-Hash");
	if (hash != NULL) {
		joind_secret_wipe(hash);
		return JOIND_EAP_SECRET_AVAILABLE;
	}
	return joind_eap_session_get_secret(ttls->session, "TTLS-Phase2-Password",
	                                    JOIND_SECRET_USER_PASSWORD, password, error);
}

static gboolean
eap_ttls_nt_hash(EapTtls *ttls, const gchar *password, guint8 hash[EAP_MSCHAP_NT_HASH_LEN],
                 GError **error)
{
	gchar *hex = joind_eap_session_get_setting(ttls->session, "TTLS-Phase2-Password-Hash");
	const gchar *key = hex != NULL ? "TTLS-Phase2-Password-Hash" : "TTLS-Phase2-Password";
	g_autoptr(GError) local = NULL;
	gboolean ok;

	ok = hex != NULL ? eap_mschap_nt_hash_from_hex(g_strstrip(hex), hash, &local)
	                 : eap_mschap_nt_hash(password, hash, &local);
	joind_secret_wipe(hex);
	if (!ok) {
		g_autofree gchar *where = joind_eap_session_describe_setting(ttls->session, key);
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS, "%s: %s", where,
		                       local->message);
	}
	return TRUE;
}

static gboolean
eap_ttls_credentials(EapTtls *ttls, const gchar *user, const gchar *password,
                     const guint8 *material, GByteArray *avps, GError **error)
{
	guint8 hash[EAP_MSCHAP_NT_HASH_LEN];
	gboolean ok;

	switch (ttls->phase2) {
	case EAP_TTLS_PHASE2_PAP:
		eap_ttls_pap_build(avps, user, password);
		return TRUE;
	case EAP_TTLS_PHASE2_CHAP:
		return eap_ttls_chap_build(avps, user, password, material, error);
	default:
		break;
	}
	if (!eap_ttls_nt_hash(ttls, password, hash, error))
		return FALSE;
	if (ttls->phase2 == EAP_TTLS_PHASE2_MSCHAP) {
		ok = eap_ttls_mschap_build(avps, user, hash, material, error);
	} else {
		ttls->mschapv2_ident = material[EAP_TTLS_MSCHAPV2_CHALLENGE_LEN];
		ok = eap_ttls_mschapv2_build(avps, user, hash, material, ttls->expected, error);
	}
	joind_secret_clear(hash, sizeof(hash));
	return ok;
}

/* Phase 2 without EAP: everything in one message right after the handshake. */
static gboolean
eap_ttls_send_credentials(EapTtls *ttls, GError **error)
{
	g_autofree gchar *user = eap_ttls_user(ttls->session);
	g_autoptr(GByteArray) avps = g_byte_array_new();
	g_autoptr(GError) local = NULL;
	guint8 material[EAP_TTLS_MSCHAPV2_CHALLENGE_LEN + 1] = {0};
	gsize material_len = eap_ttls_phase2_challenge_len(ttls->phase2);
	const gchar *password = NULL;
	gboolean ok;

	if (user == NULL)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "EAP-TTLS needs a user name for its phase 2.");
	if (eap_ttls_password(ttls, &password, error) != JOIND_EAP_SECRET_AVAILABLE)
		return FALSE;
	if (material_len > 0 &&
	    !eap_tls_conn_export(eap_tls_flow_get_conn(ttls->flow), "ttls challenge", NULL, 0,
	                         material, material_len, &local))
		return joind_set_error(error, JOIND_ERROR_FAILED,
		                       "EAP-TTLS could not draw its challenge: %s.",
		                       local->message);
	ok = eap_ttls_credentials(ttls, user, password, material, avps, error) &&
	     eap_tls_flow_write(ttls->flow, avps->data, avps->len, error);
	joind_secret_clear(avps->data, avps->len);
	if (ok) {
		/* PAP, CHAP and MS-CHAP carry only the password: a rejection now
		 * is about it (MS-CHAPv2 says more in its error attribute). */
		g_autofree gchar *reason =
		        g_strdup_printf("The server did not accept the %s password of \"%s\".",
		                        eap_ttls_phase2_name(ttls->phase2), user);
		joind_eap_session_set_peer_reason(ttls->session, reason);
		g_info("EAP-TTLS: phase 2 %s as \"%s\"", eap_ttls_phase2_name(ttls->phase2), user);
	}
	return ok;
}

/* ---- tls-common hooks ---- */

static gboolean
eap_ttls_start(EapTlsFlow *flow, guint8 flags, gpointer user_data, GError **error)
{
	eap_tls_flow_set_version_bits(flow, 0);
	return TRUE;
}

static gboolean
eap_ttls_keys(EapTtls *ttls, GError **error)
{
	static const guint8 type_code[] = {JOIND_EAP_TYPE_TTLS};
	EapTlsConn *conn = eap_tls_flow_get_conn(ttls->flow);
	guint8 material[EAP_TTLS_KEY_MATERIAL_LEN];
	gboolean ok =
	        eap_tls_conn_get_version(conn) == TLS1_3_VERSION
	                ? eap_tls_conn_export(conn, "EXPORTER_EAP_TLS_Key_Material", type_code,
	                                      sizeof(type_code), material, sizeof(material), error)
	                : eap_tls_conn_export(conn, "ttls keying material", NULL, 0, material,
	                                      sizeof(material), error);

	if (ok)
		joind_eap_session_set_keys(ttls->session, material, JOIND_EAP_MSK_LEN,
		                           material + JOIND_EAP_MSK_LEN, JOIND_EAP_EMSK_LEN);
	joind_secret_clear(material, sizeof(material));
	return ok;
}

static gboolean
eap_ttls_handshake_done(EapTlsFlow *flow, gpointer user_data, GError **error)
{
	/* Phase 2 opens with the inner Response/Identity, the server's request
	 * being implied (RFC 5281 11.3). */
	static const guint8 identity_request[] = {JOIND_EAP_CODE_REQUEST, 0, 0, 5,
	                                          JOIND_EAP_TYPE_IDENTITY};
	EapTtls *ttls = user_data;

	ttls->tunnel_up = TRUE;
	if (!eap_ttls_keys(ttls, error))
		return FALSE;
	/* The server proved itself with its certificate; it decides now. With
	 * MS-CHAPv2 it must also prove it knows the password first, unless the
	 * handshake resumed a session in which it did (servers then skip phase
	 * 2 and answer Success; the credentials sent anyway serve those that
	 * do not). */
	joind_eap_session_set_decision(ttls->session, JOIND_EAP_METHOD_STATE_MAY_CONT,
	                               ttls->phase2 == EAP_TTLS_PHASE2_MSCHAPV2 &&
	                                               !eap_tls_flow_resumed(flow)
	                                       ? JOIND_EAP_DECISION_FAIL
	                                       : JOIND_EAP_DECISION_COND_SUCC);
	if (ttls->phase2 == EAP_TTLS_PHASE2_EAP)
		return eap_ttls_inner_feed(ttls, identity_request, sizeof(identity_request), error);
	return eap_ttls_send_credentials(ttls, error);
}

/* MS-CHAP-Error (RFC 2548): the identifier, then "E=691 R=0 ..."; hostapd
 * sends just a word ("Failed"), so plain text is accepted too. */
static gchar *
eap_ttls_mschap_error_sentence(const guint8 *data, gsize len)
{
	g_autofree gchar *text = NULL;
	EapMschapFailure failure;
	gchar *sentence;

	/* With the identifier first, or (leniently) without it. */
	for (gsize skip = len > 1 ? 1 : 0;; skip = 0) {
		if (eap_mschap_failure_parse(data + skip, len - skip, &failure, NULL)) {
			if (failure.error_code != 0 || skip == 0) {
				sentence = eap_mschap_failure_describe(&failure);
				eap_mschap_failure_clear(&failure);
				return sentence;
			}
			eap_mschap_failure_clear(&failure);
		}
		if (skip == 0)
			break;
	}
	text = joind_eap_sanitize_text(data, len);
	return g_strdup_printf("The MS-CHAPv2 server refused. It said: \"%s\".", text);
}

static gboolean
eap_ttls_mschapv2_result(EapTtls *ttls, const EapTtlsAvps *avps, GError **error)
{
	g_autoptr(GError) local = NULL;
	gsize len;
	const guint8 *data;

	if (avps->ms_chap2_success != NULL) {
		data = g_bytes_get_data(avps->ms_chap2_success, &len);
		if (!eap_ttls_mschapv2_verify(data, len, ttls->mschapv2_ident, ttls->expected,
		                              &local))
			return joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
			                       "EAP-TTLS/MS-CHAPv2: %s; joind does not trust it.",
			                       local->message);
		g_info("EAP-TTLS: the server proved it knows the password");
		joind_eap_session_set_decision(ttls->session, JOIND_EAP_METHOD_STATE_MAY_CONT,
		                               JOIND_EAP_DECISION_COND_SUCC);
	}
	if (avps->ms_chap_error != NULL) {
		g_autofree gchar *sentence = NULL;

		data = g_bytes_get_data(avps->ms_chap_error, &len);
		sentence = eap_ttls_mschap_error_sentence(data, len);
		joind_eap_session_forget_secret(ttls->session, "TTLS-Phase2-Password");
		joind_eap_session_set_peer_reason(ttls->session, sentence);
		joind_eap_session_set_decision(ttls->session, JOIND_EAP_METHOD_STATE_DONE,
		                               JOIND_EAP_DECISION_FAIL);
	}
	return TRUE;
}

static gboolean
eap_ttls_app_data(EapTlsFlow *flow, const guint8 *data, gsize len, gpointer user_data,
                  GError **error)
{
	EapTtls *ttls = user_data;
	EapTtlsAvps avps;
	g_autoptr(GError) local = NULL;
	gboolean ok = TRUE;

	if (!eap_ttls_avps_parse(data, len, &avps, &local))
		return joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                       "The TTLS server sent malformed attributes: %s.",
		                       local->message);
	if (avps.reply_message != NULL) {
		g_autofree gchar *reason =
		        g_strdup_printf("The TTLS server said: \"%s\".", avps.reply_message);
		joind_eap_session_set_peer_reason(ttls->session, reason);
	}
	if (ttls->phase2 == EAP_TTLS_PHASE2_MSCHAPV2)
		ok = eap_ttls_mschapv2_result(ttls, &avps, error);
	if (ok && avps.eap_message != NULL) {
		ok = ttls->phase2 == EAP_TTLS_PHASE2_EAP
		             ? eap_ttls_inner_feed(ttls, avps.eap_message->data,
		                                   avps.eap_message->len, error)
		             : joind_set_error(
		                       error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                       "The TTLS server sent an EAP-Message where phase 2 is "
		                       "%s.",
		                       eap_ttls_phase2_name(ttls->phase2));
	}
	eap_ttls_avps_clear(&avps);
	return ok;
}

static gboolean
eap_ttls_closed(EapTlsFlow *flow, gpointer user_data, GError **error)
{
	return joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
	                       "The TTLS server closed the tunnel before the end of the "
	                       "authentication.");
}

static const EapTlsFlowHooks eap_ttls_hooks = {
        .start = eap_ttls_start,
        .handshake_done = eap_ttls_handshake_done,
        .app_data = eap_ttls_app_data,
        .closed = eap_ttls_closed,
};

/* ---- the method ---- */

static EapTtlsPhase2
eap_ttls_phase2_of(JoindEapSession *session)
{
	g_autofree gchar *method = joind_eap_session_get_setting(session, "TTLS-Phase2-Method");

	return eap_ttls_phase2_from_setting(method);
}

static void
eap_ttls_check_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	/* A session made only to check the settings never sends. */
}

static gboolean
eap_ttls_check_settings(JoindEapSession *session, GError **error)
{
	static const JoindEapSessionCallbacks none = {.send = eap_ttls_check_send};
	g_autofree gchar *prefix = eap_ttls_inner_prefix(session);
	JoindEapSession *inner;
	gboolean ok;

	if (!eap_tls_config_check(session, "TTLS", "TTLS-", FALSE, error))
		return FALSE;
	if (eap_ttls_phase2_of(session) != EAP_TTLS_PHASE2_EAP)
		return TRUE;
	inner = joind_eap_session_new_inner(session, prefix, &none, NULL);
	ok = joind_eap_session_check(inner, error);
	joind_eap_session_unref(inner);
	return ok;
}

/* Phase 2 is one of TTLS's own (Tunneled-PAP, ...) or an inner EAP method
 * with keys of its own under EAP-TTLS-Phase2-. */
static gboolean
eap_ttls_check_profile(JoindProfile *profile, const gchar *prefix, GError **error)
{
	g_autofree gchar *inner = g_strconcat(prefix, "TTLS-Phase2-", NULL);
	g_autofree gchar *key = g_strconcat(inner, "Method", NULL);
	g_autofree gchar *method = joind_profile_get_string(profile, "Security", key);
	g_autofree gchar *tls = g_strconcat(prefix, "TTLS-", NULL);

	if (!eap_tls_config_check_profile(profile, tls, error))
		return FALSE;
	if (eap_ttls_phase2_from_setting(method) != EAP_TTLS_PHASE2_EAP)
		return TRUE;
	return joind_eap_check_profile(profile, inner, error);
}

static gpointer
eap_ttls_state_new(JoindEapSession *session, GError **error)
{
	EapTtls *ttls = g_new0(EapTtls, 1);
	g_autofree gchar *prefix = eap_ttls_inner_prefix(session);

	ttls->session = session;
	ttls->phase2 = eap_ttls_phase2_of(session);
	ttls->flow = eap_tls_flow_new(session, "TTLS", "TTLS-", FALSE, &eap_ttls_hooks, ttls);
	if (ttls->phase2 == EAP_TTLS_PHASE2_EAP)
		ttls->inner = eap_tunnel_inner_new(session, prefix, &eap_ttls_inner_hooks, ttls);
	return ttls;
}

static void
eap_ttls_state_free(gpointer data)
{
	EapTtls *ttls = data;

	eap_tunnel_inner_free(ttls->inner);
	eap_tls_flow_free(ttls->flow);
	joind_secret_clear(ttls->expected, sizeof(ttls->expected));
	g_free(ttls);
}

static JoindEapMethodResult
eap_ttls_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
                GByteArray *response, GError **error)
{
	EapTtls *ttls = state;
	const gchar *password = NULL;

	/* Before the tunnel: make sure the phase 2 password is at hand. */
	if (ttls->phase2 != EAP_TTLS_PHASE2_EAP && !ttls->tunnel_up &&
	    eap_tls_flow_get_conn(ttls->flow) == NULL) {
		switch (eap_ttls_password(ttls, &password, error)) {
		case JOIND_EAP_SECRET_PENDING:
			return JOIND_EAP_METHOD_PENDING;
		case JOIND_EAP_SECRET_FAILED:
			return JOIND_EAP_METHOD_FAIL;
		case JOIND_EAP_SECRET_AVAILABLE:
			break;
		}
	}
	return eap_tls_flow_handle(ttls->flow, data, len, response, error);
}

const JoindEapMethodOps eap_ttls_ops = {
        .type = JOIND_EAP_TYPE_TTLS,
        .name = "TTLS",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .check_settings = eap_ttls_check_settings,
        .state_new = eap_ttls_state_new,
        .state_free = eap_ttls_state_free,
        .handle_request = eap_ttls_handle,
        .check_profile = eap_ttls_check_profile,
};
