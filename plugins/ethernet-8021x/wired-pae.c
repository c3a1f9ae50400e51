/* wired-pae.c - the supplicant PAE state machine of one port. */
#include "wired-pae.h"

#include <string.h>

#include "joind-log.h"

struct _WiredPae {
	JoindCore *core;
	gchar *ifname;
	WiredPaeTimers timers;
	WiredPaeCallbacks callbacks;
	gpointer user_data;

	WiredPaeState state;
	JoindProfile *profile;
	gchar *object_path;
	JoindEapSession *session;
	gsize mtu;
	gboolean port_enabled;

	guint start_count;    /* EAPOL-Starts sent startPeriod apart (maxStart) */
	guint quick_restarts; /* quick repeats of the first one done */
	guint timer_id;       /* the one pending timer: startWhen, authWhile, heldWhile */
	gboolean retry;       /* in FAILED: HELD follows (authentication failure) */
	gboolean needs_agent; /* in FAILED: a secret was wanted and nobody could be asked */
	gboolean talking;     /* sent EAPOL-Start and no EAPOL-Logoff since */
	gboolean authorised;  /* authenticated, and nothing failed or ended since */

	gchar *identity;
	gchar *method;
	gchar *last_error;
	gint64 started_at; /* monotonic time of the first EAPOL-Start */
};

static void pae_start_conversation(WiredPae *self, const gchar *reason);

const gchar *
wired_pae_state_to_string(WiredPaeState state)
{
	static const gchar *const names[] = {
	        [WIRED_PAE_DISABLED] = "disabled",
	        [WIRED_PAE_DISCONNECTED] = "disconnected",
	        [WIRED_PAE_CONNECTING] = "connecting",
	        [WIRED_PAE_AUTHENTICATING] = "authenticating",
	        [WIRED_PAE_AUTHENTICATED] = "authenticated",
	        [WIRED_PAE_FAILED] = "failed",
	        [WIRED_PAE_HELD] = "held",
	        [WIRED_PAE_LOGOFF] = "logoff",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == WIRED_PAE_LAST + 1);

	g_return_val_if_fail(state < G_N_ELEMENTS(names), "?");
	return names[state];
}

/* ---- small helpers -------------------------------------------------------- */

static void
pae_changed(WiredPae *self)
{
	if (self->callbacks.changed != NULL)
		self->callbacks.changed(self, self->user_data);
}

static gboolean
pae_set_str(gchar **field, const gchar *value)
{
	if (g_strcmp0(*field, value) == 0)
		return FALSE;
	g_free(*field);
	*field = g_strdup(value);
	return TRUE;
}

static void
pae_send(WiredPae *self, guint8 type, const guint8 *body, gsize len)
{
	g_autoptr(GError) error = NULL;

	joind_dev_debug(self->ifname, "sending %s (%zu octets)", wired_eapol_type_to_string(type),
	                len);
	if (!self->callbacks.send(self, type, body, len, self->user_data, &error))
		g_warning("%s", error->message);
}

static void
pae_cancel_timer(WiredPae *self)
{
	if (self->timer_id != 0) {
		g_source_remove(self->timer_id);
		self->timer_id = 0;
	}
}

/* Whether the authenticator may believe a conversation is going on, i.e.
 * whether leaving deserves an EAPOL-Logoff. */
static gboolean
pae_is_talking(WiredPae *self)
{
	return self->port_enabled && self->talking;
}

static void
pae_send_logoff(WiredPae *self)
{
	pae_send(self, WIRED_EAPOL_LOGOFF, NULL, 0);
	self->talking = FALSE;
}

/* ---- timers --------------------------------------------------------------- */

static void pae_enter(WiredPae *self, WiredPaeState state, const gchar *reason);

/* Right after the link comes up the authenticator's first answer can be
 * lost: its end of the link may not transmit yet (measured on veth: hostapd's
 * Request/Identity dropped in 1 of 10 link-ups, tx_dropped on its side, and
 * only its own 3 s retransmission got through). So the first EAPOL-Start is
 * repeated quickly, at these times after it, before startPeriod takes over;
 * these repeats do not count against maxStart. An authenticator answers
 * EAPOL-Start by itself (no RADIUS round trip), so an answer that takes
 * longer than this is not expected. */
static const guint pae_quick_restarts_ms[] = {100, 1000};

static void
pae_send_start(WiredPae *self, gboolean counted)
{
	if (counted)
		self->start_count++;
	self->talking = TRUE;
	pae_send(self, WIRED_EAPOL_START, NULL, 0);
}

static gboolean pae_start_when_expired(gpointer user_data);

/* The next startWhen: a quick repeat while one is due before startPeriod,
 * else startPeriod. */
static void
pae_arm_start_when(WiredPae *self)
{
	guint elapsed =
	        self->quick_restarts > 0 ? pae_quick_restarts_ms[self->quick_restarts - 1] : 0;
	guint delay = self->timers.start_period_ms;

	if (self->quick_restarts < G_N_ELEMENTS(pae_quick_restarts_ms) &&
	    pae_quick_restarts_ms[self->quick_restarts] < self->timers.start_period_ms)
		delay = pae_quick_restarts_ms[self->quick_restarts] - elapsed;
	else
		self->quick_restarts = G_N_ELEMENTS(pae_quick_restarts_ms);
	self->timer_id = g_timeout_add(delay, pae_start_when_expired, self);
}

static gboolean
pae_start_when_expired(gpointer user_data)
{
	WiredPae *self = user_data;
	g_autofree gchar *why = NULL;

	self->timer_id = 0;
	if (self->quick_restarts < G_N_ELEMENTS(pae_quick_restarts_ms)) {
		joind_dev_debug(self->ifname, "no answer yet, repeating EAPOL-Start");
		self->quick_restarts++;
		pae_send_start(self, FALSE);
		pae_arm_start_when(self);
		return G_SOURCE_REMOVE;
	}
	if (self->start_count < self->timers.max_start) {
		joind_dev_debug(self->ifname, "no answer to EAPOL-Start %u of %u",
		                self->start_count, self->timers.max_start);
		pae_send_start(self, TRUE);
		pae_arm_start_when(self);
		return G_SOURCE_REMOVE;
	}
	why = g_strdup_printf("No IEEE 802.1X authenticator answered %u EAPOL-Start frames on %s.",
	                      self->start_count, self->ifname);
	pae_set_str(&self->last_error, why);
	pae_enter(self, WIRED_PAE_HELD, why);
	return G_SOURCE_REMOVE;
}

static gboolean
pae_auth_while_expired(gpointer user_data)
{
	WiredPae *self = user_data;

	/* A person typing a secret for the agent is not the authenticator
	 * going silent: wait for the answer, which sends the next response. */
	if (joind_eap_session_get_state(self->session) == JOIND_EAP_STATE_PAUSED)
		return G_SOURCE_CONTINUE;
	self->timer_id = 0;
	pae_start_conversation(self, "the authenticator went silent");
	return G_SOURCE_REMOVE;
}

static gboolean
pae_held_while_expired(gpointer user_data)
{
	WiredPae *self = user_data;

	self->timer_id = 0;
	pae_enter(self, WIRED_PAE_CONNECTING, "held period over");
	return G_SOURCE_REMOVE;
}

/* FAILED is published before HELD replaces it: D-Bus clients see
 * State=failed with the LastError, then State=held. The skeleton emits
 * PropertiesChanged from a default-priority idle, this runs after it. */
static gboolean
pae_failed_to_held(gpointer user_data)
{
	WiredPae *self = user_data;

	self->timer_id = 0;
	pae_enter(self, WIRED_PAE_HELD, "retry after the held period");
	return G_SOURCE_REMOVE;
}

static void
pae_arm_auth_while(WiredPae *self)
{
	pae_cancel_timer(self);
	self->timer_id = g_timeout_add(self->timers.auth_period_ms, pae_auth_while_expired, self);
}

/* ---- the transition function ---------------------------------------------- */

static void
pae_run_entry_actions(WiredPae *self)
{
	/* A re-authentication (CONNECTING, AUTHENTICATING) keeps the port
	 * authorised until it fails: the authenticator does the same. */
	if (self->state != WIRED_PAE_CONNECTING && self->state != WIRED_PAE_AUTHENTICATING)
		self->authorised = self->state == WIRED_PAE_AUTHENTICATED;
	switch (self->state) {
	case WIRED_PAE_DISABLED:
		g_clear_pointer(&self->session, joind_eap_session_unref);
		break;
	case WIRED_PAE_DISCONNECTED:
	case WIRED_PAE_LOGOFF:
		if (self->session != NULL)
			joind_eap_session_reset(self->session);
		break;
	case WIRED_PAE_CONNECTING:
		joind_eap_session_reset(self->session);
		self->start_count = 0;
		self->quick_restarts = 0;
		self->started_at = g_get_monotonic_time();
		pae_send_start(self, TRUE);
		pae_arm_start_when(self);
		break;
	case WIRED_PAE_AUTHENTICATING:
		pae_arm_auth_while(self);
		break;
	case WIRED_PAE_AUTHENTICATED:
		g_clear_pointer(&self->last_error, g_free);
		break;
	case WIRED_PAE_FAILED:
		if (self->retry)
			self->timer_id =
			        g_idle_add_full(G_PRIORITY_LOW, pae_failed_to_held, self, NULL);
		break;
	case WIRED_PAE_HELD:
		self->timer_id =
		        g_timeout_add(self->timers.held_period_ms, pae_held_while_expired, self);
		break;
	}
}

static void
pae_enter(WiredPae *self, WiredPaeState state, const gchar *reason)
{
	WiredPaeState old = self->state;

	joind_log_state_change(
	        G_LOG_DOMAIN, G_LOG_LEVEL_INFO,
	        state == WIRED_PAE_AUTHENTICATED ? JOIND_LOG_AUTHORIZATION
	        : state == WIRED_PAE_FAILED      ? JOIND_LOG_FAILURE
	                                         : JOIND_LOG_STATE_CHANGE,
	        &(JoindLogSubject){
	                "ethernet-8021x", self->ifname,
	                self->profile != NULL ? joind_profile_get_name(self->profile) : NULL, NULL},
	        wired_pae_state_to_string(old), wired_pae_state_to_string(state), reason);
	pae_cancel_timer(self);
	self->state = state;
	pae_run_entry_actions(self);
	pae_changed(self);
}

/* CONNECTING, unless the profile cannot work at all or the link is down. */
static void
pae_start_conversation(WiredPae *self, const gchar *reason)
{
	g_autoptr(GError) error = NULL;

	if (!self->port_enabled) {
		pae_enter(self, WIRED_PAE_DISCONNECTED, reason);
		return;
	}
	if (!joind_eap_session_check(self->session, &error)) {
		g_autofree gchar *why =
		        g_strdup_printf("the profile cannot be used: %s", error->message);

		pae_set_str(&self->last_error, error->message);
		self->retry = FALSE;
		/* Authenticated with what the profile said before, maybe. */
		if (pae_is_talking(self))
			pae_send_logoff(self);
		pae_enter(self, WIRED_PAE_FAILED, why);
		return;
	}
	pae_enter(self, WIRED_PAE_CONNECTING, reason);
}

/* ---- EAP session callbacks ------------------------------------------------ */

static void
pae_eap_send(JoindEapSession *session, const guint8 *packet, gsize len, gpointer user_data)
{
	WiredPae *self = user_data;

	pae_send(self, WIRED_EAPOL_EAP, packet, len);
	self->talking = TRUE;
	/* A response to an agent-delayed request restarts authWhile. */
	if (self->state == WIRED_PAE_AUTHENTICATING)
		pae_arm_auth_while(self);
}

static void
pae_eap_started(JoindEapSession *session, const gchar *identity, gpointer user_data)
{
	WiredPae *self = user_data;

	pae_set_str(&self->identity, identity);
	if (self->state != WIRED_PAE_AUTHENTICATING)
		pae_enter(self, WIRED_PAE_AUTHENTICATING, "identity sent");
	else
		pae_changed(self);
}

static void
pae_eap_method_selected(JoindEapSession *session, const gchar *method, gpointer user_data)
{
	WiredPae *self = user_data;

	joind_dev_info(self->ifname, "EAP method %s selected", method);
	if (pae_set_str(&self->method, method))
		pae_changed(self);
}

static void
pae_eap_succeeded(JoindEapSession *session, gpointer user_data)
{
	WiredPae *self = user_data;
	g_autofree gchar *reason = NULL;

	/* Measured from the EAPOL-Start that began it (or from the
	 * authenticator's own Request, for its re-authentications). */
	reason = g_strdup_printf("EAP-Success, %s as %s, %.1f ms", self->method,
	                         self->identity != NULL ? self->identity : "(no identity)",
	                         (g_get_monotonic_time() - self->started_at) / 1000.0);
	pae_enter(self, WIRED_PAE_AUTHENTICATED, reason);
}

static void
pae_eap_failed(JoindEapSession *session, JoindEapStage stage, const GError *error,
               gpointer user_data)
{
	WiredPae *self = user_data;
	g_autofree gchar *reason = g_strdup_printf(
	        "EAP failed at the %s stage: %s", joind_eap_stage_to_string(stage), error->message);

	pae_set_str(&self->last_error, error->message);
	/* Retrying helps when the authenticator said no (it may change its
	 * mind, 802.1X's held period exists for that); it cannot help when a
	 * secret is missing or the profile is wrong. Then tell the
	 * authenticator we are done rather than leave it waiting. */
	self->retry = g_error_matches(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED);
	self->needs_agent = g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT);
	if (!self->retry && pae_is_talking(self))
		pae_send_logoff(self);
	pae_enter(self, WIRED_PAE_FAILED, reason);
}

static void
pae_eap_notification(JoindEapSession *session, const gchar *text, gpointer user_data)
{
	WiredPae *self = user_data;

	joind_dev_info(self->ifname, "the authenticator says: %s", text);
}

static const JoindEapSessionCallbacks pae_eap_callbacks = {
        .send = pae_eap_send,
        .started = pae_eap_started,
        .method_selected = pae_eap_method_selected,
        .succeeded = pae_eap_succeeded,
        .failed = pae_eap_failed,
        .notification = pae_eap_notification,
};

/* ---- received frames ------------------------------------------------------ */

/* Does this Request begin a new conversation rather than continue the
 * current one? A Request/Identity once a method ran (or finished) does, and
 * 802.1X restarts on any Request once authenticated or held. */
static gboolean
pae_request_restarts(WiredPae *self, guint8 eap_type)
{
	JoindEapState eap_state = joind_eap_session_get_state(self->session);

	switch (self->state) {
	case WIRED_PAE_AUTHENTICATED:
	case WIRED_PAE_HELD:
	case WIRED_PAE_FAILED:
		return TRUE;
	case WIRED_PAE_CONNECTING:
	case WIRED_PAE_AUTHENTICATING:
		return eap_type == JOIND_EAP_TYPE_IDENTITY && eap_state != JOIND_EAP_STATE_IDLE &&
		       eap_state != JOIND_EAP_STATE_IDENTITY;
	default:
		return FALSE;
	}
}

static void
pae_rx_eap(WiredPae *self, const guint8 *packet, gsize len)
{
	g_autoptr(JoindEapSession) session = joind_eap_session_ref(self->session);
	g_autoptr(GError) error = NULL;
	guint8 code = packet[0];
	guint8 type = len > 4 ? packet[4] : 0;

	if (code == JOIND_EAP_CODE_REQUEST) {
		if (pae_request_restarts(self, type)) {
			joind_eap_session_reset(session);
			self->started_at = g_get_monotonic_time();
			pae_enter(self, WIRED_PAE_AUTHENTICATING, "the authenticator (re)starts");
		} else if (self->state == WIRED_PAE_CONNECTING) {
			pae_enter(self, WIRED_PAE_AUTHENTICATING, "the authenticator answered");
		} else {
			pae_arm_auth_while(self);
		}
	}
	if (!joind_eap_session_rx(session, packet, len, &error))
		joind_dev_debug(self->ifname, "discarding an EAP packet: %s", error->message);
}

void
wired_pae_rx(WiredPae *self, const WiredEapolPdu *pdu)
{
	/* FAILED without retry waits for a person (new profile, agent,
	 * Reauthenticate()), not for the authenticator, which would otherwise
	 * run us into the same wall again and again. */
	gboolean listening = self->state != WIRED_PAE_DISABLED &&
	                     self->state != WIRED_PAE_DISCONNECTED &&
	                     self->state != WIRED_PAE_LOGOFF &&
	                     !(self->state == WIRED_PAE_FAILED && !self->retry);

	if (!listening) {
		joind_dev_debug(self->ifname, "ignoring %s in state %s",
		                wired_eapol_type_to_string(pdu->type),
		                wired_pae_state_to_string(self->state));
		return;
	}
	switch (pdu->type) {
	case WIRED_EAPOL_EAP:
		pae_rx_eap(self, pdu->body, pdu->body_len);
		break;
	default:
		/* EAPOL-Key (no keys on a wired port without MACsec), MKA,
		 * announcements: nothing this supplicant acts on. */
		joind_dev_debug(self->ifname, "ignoring %s", wired_eapol_type_to_string(pdu->type));
		break;
	}
}

/* ---- events from the port ------------------------------------------------- */

WiredPae *
wired_pae_new(JoindCore *core, const gchar *ifname, const WiredPaeTimers *timers,
              const WiredPaeCallbacks *callbacks, gpointer user_data)
{
	WiredPae *self = g_new0(WiredPae, 1);

	self->core = core;
	self->ifname = g_strdup(ifname);
	self->timers = *timers;
	self->callbacks = *callbacks;
	self->user_data = user_data;
	self->state = WIRED_PAE_DISABLED;
	return self;
}

void
wired_pae_free(WiredPae *self)
{
	if (self == NULL)
		return;
	pae_cancel_timer(self);
	g_clear_pointer(&self->session, joind_eap_session_unref);
	g_clear_object(&self->profile);
	g_free(self->object_path);
	g_free(self->ifname);
	g_free(self->identity);
	g_free(self->method);
	g_free(self->last_error);
	g_free(self);
}

static void
pae_load_profile(WiredPae *self, JoindProfile *profile, const gchar *object_path)
{
	g_autofree gchar *identity = NULL;
	g_autofree gchar *method = NULL;

	g_set_object(&self->profile, profile);
	pae_set_str(&self->object_path, object_path);
	g_clear_pointer(&self->session, joind_eap_session_unref);
	self->session =
	        joind_eap_session_new(self->core, profile, object_path, &pae_eap_callbacks, self);
	if (self->mtu != 0)
		joind_eap_session_set_mtu(self->session, self->mtu);
	joind_eap_session_set_trust_command(self->session, "joinctl wired trust", self->ifname);
	/* What D-Bus shows until the conversation says otherwise. */
	identity = joind_profile_get_string(profile, "Security", "EAP-Identity");
	method = joind_profile_get_string(profile, "Security", "EAP-Method");
	pae_set_str(&self->identity, identity);
	pae_set_str(&self->method, method);
	g_clear_pointer(&self->last_error, g_free);
}

void
wired_pae_disable(WiredPae *self, const gchar *reason)
{
	if (self->state == WIRED_PAE_DISABLED)
		return;
	if (pae_is_talking(self))
		pae_send_logoff(self);
	g_clear_object(&self->profile);
	g_clear_pointer(&self->identity, g_free);
	g_clear_pointer(&self->method, g_free);
	g_clear_pointer(&self->last_error, g_free);
	pae_enter(self, WIRED_PAE_DISABLED, reason);
}

void
wired_pae_set_profile(WiredPae *self, JoindProfile *profile, const gchar *object_path)
{
	if (profile == NULL) {
		wired_pae_disable(self, "no profile matches");
		return;
	}
	g_autofree gchar *reason = NULL;

	pae_load_profile(self, profile, object_path);
	reason = g_strdup_printf("profile %s", joind_profile_get_name(profile));
	pae_start_conversation(self, reason);
}

void
wired_pae_fail_profile(WiredPae *self, JoindProfile *profile, const gchar *object_path,
                       const gchar *sentence)
{
	g_autofree gchar *why = g_strdup_printf("the port cannot be used: %s", sentence);

	pae_load_profile(self, profile, object_path);
	pae_set_str(&self->last_error, sentence);
	self->retry = FALSE;
	pae_enter(self, WIRED_PAE_FAILED, why);
}

void
wired_pae_set_ifname(WiredPae *self, const gchar *ifname)
{
	pae_set_str(&self->ifname, ifname);
	if (self->session != NULL)
		joind_eap_session_set_trust_command(self->session, "joinctl wired trust", ifname);
}

gboolean
wired_pae_adopt_profile(WiredPae *self, JoindProfile *profile)
{
	if (self->profile == NULL || self->session == NULL ||
	    !joind_eap_session_adopt_profile(self->session, profile))
		return FALSE;
	g_set_object(&self->profile, profile);
	joind_dev_info(self->ifname, "%s now holds the credentials the agent supplied; no restart",
	               joind_profile_get_path(profile));
	return TRUE;
}

JoindProfile *
wired_pae_get_profile(WiredPae *self)
{
	return self->profile;
}

void
wired_pae_set_port_enabled(WiredPae *self, gboolean enabled)
{
	if (self->port_enabled == enabled)
		return;
	self->port_enabled = enabled;
	if (self->state == WIRED_PAE_DISABLED || self->state == WIRED_PAE_LOGOFF)
		return;
	if (!enabled) {
		/* A new link means a new authenticator session. */
		self->talking = FALSE;
		pae_enter(self, WIRED_PAE_DISCONNECTED, "carrier lost");
	} else
		pae_start_conversation(self, "carrier up");
}

void
wired_pae_set_mtu(WiredPae *self, gsize mtu)
{
	self->mtu = mtu;
	if (self->session != NULL)
		joind_eap_session_set_mtu(self->session, mtu);
}

static gboolean
pae_check_profile(WiredPae *self, GError **error)
{
	if (self->state != WIRED_PAE_DISABLED)
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
	            "No IEEE 802.1X profile matches %s: add one in the state directory's "
	            "wired/ folder.",
	            self->ifname);
	return FALSE;
}

void
wired_pae_agent_available(WiredPae *self)
{
	if (self->state != WIRED_PAE_FAILED || !self->needs_agent)
		return;
	self->needs_agent = FALSE;
	pae_start_conversation(self, "an agent registered");
}

gboolean
wired_pae_reauthenticate(WiredPae *self, GError **error)
{
	if (!pae_check_profile(self, error))
		return FALSE;
	pae_start_conversation(self, "Reauthenticate() requested");
	return TRUE;
}

gboolean
wired_pae_logoff(WiredPae *self, GError **error)
{
	if (!pae_check_profile(self, error))
		return FALSE;
	if (self->state == WIRED_PAE_LOGOFF)
		return TRUE;
	if (pae_is_talking(self))
		pae_send_logoff(self);
	pae_enter(self, WIRED_PAE_LOGOFF, "Logoff() requested");
	return TRUE;
}

void
wired_pae_shutdown(WiredPae *self)
{
	if (self->state == WIRED_PAE_DISABLED || self->state == WIRED_PAE_LOGOFF)
		return;
	if (pae_is_talking(self))
		pae_send_logoff(self);
	pae_enter(self, WIRED_PAE_LOGOFF, "joind is stopping");
}

/* ---- what the port publishes ---------------------------------------------- */

WiredPaeState
wired_pae_get_state(WiredPae *self)
{
	return self->state;
}

JoindPortState
wired_pae_get_port_state(WiredPae *self)
{
	switch (self->state) {
	case WIRED_PAE_CONNECTING:
		return JOIND_PORT_STATE_CONNECTING;
	case WIRED_PAE_AUTHENTICATING:
		return JOIND_PORT_STATE_AUTHENTICATING;
	case WIRED_PAE_AUTHENTICATED:
		return JOIND_PORT_STATE_AUTHENTICATED;
	case WIRED_PAE_FAILED:
		return JOIND_PORT_STATE_FAILED;
	case WIRED_PAE_HELD:
		return JOIND_PORT_STATE_HELD;
	case WIRED_PAE_DISABLED:
	case WIRED_PAE_DISCONNECTED:
	case WIRED_PAE_LOGOFF:
		break;
	}
	return JOIND_PORT_STATE_IDLE;
}

gboolean
wired_pae_is_authorised(WiredPae *self)
{
	return self->authorised;
}

const gchar *
wired_pae_get_last_error(WiredPae *self)
{
	return self->last_error;
}

const gchar *
wired_pae_get_identity(WiredPae *self)
{
	return self->identity;
}

const gchar *
wired_pae_get_method(WiredPae *self)
{
	return self->method;
}
