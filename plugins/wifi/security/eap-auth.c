/* eap-auth.c - the 802.1X supplicant of one association (see eap-auth.h). */
#include "eap-auth.h"

#include <string.h>

#include "joind-log.h"

/* 802.1X-2004, as wpa_supplicant and hostapd speak it. */
#define EAPOL_VERSION 2
/* Authenticators begin right after the association; an EAPOL-Start that
 * crosses their first Request makes them authenticate again once done
 * (hostapd does), and drop a PMKSA they were about to use, so the first
 * waits this long: measured in the emulated test VM, hostapd's
 * Request/Identity took up to 1.6 s to arrive. */
#define START_WHEN_FIRST_MS 3000u
#define START_PERIOD_MS     3000u
#define MAX_START           3u
/* The authenticator's silence mid-conversation (802.1X authPeriod). */
#define AUTH_WHILE_MS 30000u

typedef enum {
	EAP_AUTH_IDLE,
	EAP_AUTH_STARTING,
	EAP_AUTH_AUTHENTICATING,
	EAP_AUTH_AUTHENTICATED,
	EAP_AUTH_STOPPED,
	EAP_AUTH_FAILED,
	EAP_AUTH_LAST = EAP_AUTH_FAILED, /* move with a new last state: the names check it */
} EapAuthState;

static const gchar *const state_names[] = {
        [EAP_AUTH_IDLE] = "idle",
        [EAP_AUTH_STARTING] = "starting",
        [EAP_AUTH_AUTHENTICATING] = "authenticating",
        [EAP_AUTH_AUTHENTICATED] = "authenticated",
        [EAP_AUTH_STOPPED] = "stopped",
        [EAP_AUTH_FAILED] = "failed",
};
G_STATIC_ASSERT(G_N_ELEMENTS(state_names) == EAP_AUTH_LAST + 1);

struct _WifiEapAuth {
	gchar *ifname;
	JoindEapSession *session;
	WifiEapAuthCallbacks cb;
	gpointer user_data;
	EapAuthState state;
	guint timer;
	guint n_start;
	gchar *method;
	gint64 started_at;
};

static void eap_auth_enter(WifiEapAuth *self, EapAuthState state, const gchar *reason);

static void
eap_auth_send(WifiEapAuth *self, guint8 type, const guint8 *body, gsize len)
{
	g_autofree guint8 *frame = g_malloc(WIFI_EAPOL_HLEN + len);

	frame[0] = EAPOL_VERSION;
	frame[1] = type;
	frame[2] = (guint8)(len >> 8);
	frame[3] = (guint8)(len & 0xff);
	if (len > 0)
		memcpy(frame + WIFI_EAPOL_HLEN, body, len);
	self->cb.send(frame, WIFI_EAPOL_HLEN + len, self->user_data);
	joind_secret_clear(frame, WIFI_EAPOL_HLEN + len);
}

static void
eap_auth_fail(WifiEapAuth *self, const GError *error, gboolean rejected)
{
	eap_auth_enter(self, EAP_AUTH_FAILED, error->message);
	self->cb.failed(error, rejected, self->user_data);
}

/* ---- timers --------------------------------------------------------------- */

static gboolean
start_when_expired(gpointer user_data)
{
	WifiEapAuth *self = user_data;
	g_autoptr(GError) error = NULL;

	self->timer = 0;
	if (self->n_start < MAX_START) {
		self->n_start++;
		joind_dev_debug(self->ifname,
		                "no EAP request from the access point: EAPOL-Start %u of %u",
		                self->n_start, MAX_START);
		eap_auth_send(self, WIFI_EAPOL_START, NULL, 0);
		self->timer = g_timeout_add(START_PERIOD_MS, start_when_expired, self);
		return G_SOURCE_REMOVE;
	}
	error = g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
	                    "The access point did not begin the 802.1X authentication "
	                    "(no answer to %u EAPOL-Start frames).",
	                    MAX_START);
	eap_auth_fail(self, error, FALSE);
	return G_SOURCE_REMOVE;
}

static gboolean
auth_while_expired(gpointer user_data)
{
	WifiEapAuth *self = user_data;
	g_autoptr(GError) error = NULL;

	if (joind_eap_session_get_state(self->session) == JOIND_EAP_STATE_PAUSED)
		return G_SOURCE_CONTINUE;
	self->timer = 0;
	error = g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
	                    "The 802.1X authentication stopped: the access point sent nothing "
	                    "for %u s.",
	                    AUTH_WHILE_MS / 1000);
	eap_auth_fail(self, error, FALSE);
	return G_SOURCE_REMOVE;
}

static void
eap_auth_enter(WifiEapAuth *self, EapAuthState state, const gchar *reason)
{
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->ifname, NULL, "802.1X"},
	                       state_names[self->state], state_names[state], reason);
	g_clear_handle_id(&self->timer, g_source_remove);
	self->state = state;
	switch (state) {
	case EAP_AUTH_STARTING:
		self->n_start = 0;
		self->started_at = g_get_monotonic_time();
		self->timer = g_timeout_add(START_WHEN_FIRST_MS, start_when_expired, self);
		break;
	case EAP_AUTH_AUTHENTICATING:
		self->timer = g_timeout_add(AUTH_WHILE_MS, auth_while_expired, self);
		break;
	default:
		break;
	}
}

/* ---- the EAP session's callbacks ----------------------------------------- */

static void
session_send(JoindEapSession *session, const guint8 *packet, gsize len, gpointer user_data)
{
	eap_auth_send(user_data, WIFI_EAPOL_EAP_PACKET, packet, len);
}

static void
session_method_selected(JoindEapSession *session, const gchar *method, gpointer user_data)
{
	WifiEapAuth *self = user_data;

	joind_dev_info(self->ifname, "EAP method %s selected", method);
	g_free(self->method);
	self->method = g_strdup(method);
}

static void
session_succeeded(JoindEapSession *session, gpointer user_data)
{
	WifiEapAuth *self = user_data;
	gsize len = 0;
	const guint8 *msk = joind_eap_session_get_msk(session, &len);
	const gchar *identity = joind_eap_session_get_identity(session);
	g_autofree gchar *reason = NULL;
	g_autoptr(GError) error = NULL;

	if (msk == NULL) {
		error = g_error_new(JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                    "EAP-%s succeeded but made no keys: a WiFi network needs a "
		                    "key-generating method (TLS, PEAP, TTLS, PWD).",
		                    self->method != NULL ? self->method : "?");
		eap_auth_fail(self, error, FALSE);
		return;
	}
	reason = g_strdup_printf("EAP-Success, %s as %s, %.1f ms", self->method,
	                         identity != NULL ? identity : "(no identity)",
	                         (g_get_monotonic_time() - self->started_at) / 1000.0);
	eap_auth_enter(self, EAP_AUTH_AUTHENTICATED, reason);
	self->cb.succeeded(msk, len, self->user_data);
}

static void
session_failed(JoindEapSession *session, JoindEapStage stage, const GError *error,
               gpointer user_data)
{
	WifiEapAuth *self = user_data;
	gboolean rejected =
	        g_error_matches(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED) &&
	        (stage == JOIND_EAP_STAGE_METHOD || stage == JOIND_EAP_STAGE_RESULT);
	g_autoptr(GError) sentence = g_error_new(
	        JOIND_ERROR, error->domain == JOIND_ERROR ? error->code : JOIND_ERROR_FAILED,
	        "802.1X authentication failed (%s stage): %s", joind_eap_stage_to_string(stage),
	        error->message);

	eap_auth_fail(self, sentence, rejected);
}

static void
session_notification(JoindEapSession *session, const gchar *text, gpointer user_data)
{
	joind_dev_info(((WifiEapAuth *)user_data)->ifname, "the authenticator says: %s", text);
}

static const JoindEapSessionCallbacks session_callbacks = {
        .send = session_send,
        .method_selected = session_method_selected,
        .succeeded = session_succeeded,
        .failed = session_failed,
        .notification = session_notification,
};

/* ---- life cycle ----------------------------------------------------------- */

WifiEapAuth *
wifi_eap_auth_new(JoindCore *core, JoindProfile *profile, const gchar *object_path,
                  const gchar *requester, const gchar *ifname,
                  const WifiEapAuthCallbacks *callbacks, gpointer user_data, GError **error)
{
	WifiEapAuth *self = g_new0(WifiEapAuth, 1);

	self->ifname = g_strdup(ifname);
	self->cb = *callbacks;
	self->user_data = user_data;
	self->session = joind_eap_session_new(core, profile, object_path, &session_callbacks, self);
	joind_eap_session_set_requester(self->session, requester);
	joind_eap_session_set_trust_command(self->session, "joinctl known-networks trust",
	                                    joind_profile_get_name(profile));
	self->method = joind_profile_get_string(profile, "Security", "EAP-Method");
	if (!joind_eap_session_check(self->session, error)) {
		wifi_eap_auth_free(self);
		return NULL;
	}
	return self;
}

void
wifi_eap_auth_free(WifiEapAuth *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->timer, g_source_remove);
	g_clear_pointer(&self->session, joind_eap_session_unref);
	g_free(self->method);
	g_free(self->ifname);
	g_free(self);
}

void
wifi_eap_auth_associated(WifiEapAuth *self)
{
	if (self->state == EAP_AUTH_IDLE)
		eap_auth_enter(self, EAP_AUTH_STARTING, "associated");
}

void
wifi_eap_auth_stop(WifiEapAuth *self, const gchar *reason)
{
	if (self->state != EAP_AUTH_FAILED)
		eap_auth_enter(self, EAP_AUTH_STOPPED, reason);
}

/* A Request that begins a conversation: the first one, or a new
 * Request/Identity once one ended (re-authentication). */
static gboolean
eap_auth_request_begins(WifiEapAuth *self, guint8 type)
{
	switch (self->state) {
	case EAP_AUTH_IDLE:
	case EAP_AUTH_STARTING:
	case EAP_AUTH_STOPPED:
		return TRUE;
	case EAP_AUTH_AUTHENTICATED:
		return type == JOIND_EAP_TYPE_IDENTITY;
	default:
		return FALSE;
	}
}

void
wifi_eap_auth_rx(WifiEapAuth *self, const guint8 *frame, gsize len)
{
	g_autoptr(JoindEapSession) session = NULL;
	g_autoptr(GError) error = NULL;
	const guint8 *eap = frame + WIFI_EAPOL_HLEN;
	gsize body = len >= WIFI_EAPOL_HLEN ? (gsize)(frame[2] << 8 | frame[3]) : 0;

	if (len < WIFI_EAPOL_HLEN + 4 || body < 4 || body > len - WIFI_EAPOL_HLEN ||
	    self->state == EAP_AUTH_FAILED) {
		joind_dev_debug(self->ifname, "EAP packet dropped (%s)",
		                self->state == EAP_AUTH_FAILED ? "failed already" : "truncated");
		return;
	}
	if (eap[0] == JOIND_EAP_CODE_REQUEST) {
		if (eap_auth_request_begins(self, body > 4 ? eap[4] : 0)) {
			if (self->state == EAP_AUTH_AUTHENTICATED ||
			    self->state == EAP_AUTH_STOPPED)
				joind_eap_session_reset(self->session);
			self->started_at = g_get_monotonic_time();
			eap_auth_enter(self, EAP_AUTH_AUTHENTICATING, "the authenticator begins");
			self->cb.started(self->user_data);
		} else if (self->state == EAP_AUTH_AUTHENTICATING) {
			/* authWhile counts the silence since the last Request. */
			g_clear_handle_id(&self->timer, g_source_remove);
			self->timer = g_timeout_add(AUTH_WHILE_MS, auth_while_expired, self);
		}
	}
	/* The callbacks may free self; the session lives on until rx returns. */
	session = joind_eap_session_ref(self->session);
	if (!joind_eap_session_rx(session, eap, body, &error))
		g_debug("EAP packet discarded: %s", error->message);
}

const gchar *
wifi_eap_auth_get_method(WifiEapAuth *self)
{
	return self->method;
}

const gchar *
wifi_eap_auth_get_identity(WifiEapAuth *self)
{
	return joind_eap_session_get_identity(self->session);
}

GVariant *
wifi_eap_auth_get_server_cert(WifiEapAuth *self)
{
	return joind_eap_session_get_server_cert(self->session);
}

gboolean
wifi_eap_auth_adopt_profile(WifiEapAuth *self, JoindProfile *profile)
{
	return joind_eap_session_adopt_profile(self->session, profile);
}
