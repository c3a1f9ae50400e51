/* connect-events.c - what nl80211's events do to the connector (see
 * connect.c for its states): the answers to authentication and
 * association, disconnections and deauthentications, EAPOL frames over
 * the control port, and the check after lost events. */
#include "connect-private.h"

#include <netlink/attr.h>

#include "joind-mac.h"
#include "joind-log.h"
#include "auth-method.h"
#include "mgmt.h"
#include "sme.h"

/* ---- events --------------------------------------------------------------- */

/* attrs: the ASSOCIATE or CONNECT event's (OWE's key is in the answer). */
static void
connector_associated(WifiConnector *self, struct nlattr **attrs)
{
	g_autoptr(GError) error = NULL;

	if (!wifi_attempt_associated(self->cur, attrs, self->keying, &error))
		connector_fail(self, WIFI_CONNECT_EVENT_HANDSHAKE_FAILED, JOIND_ERROR_FAILED,
		               error->message, CONN_DISCONNECTING);
	else if (!self->cur->secure)
		connector_enter(self, CONN_CONNECTED, "associated");
	else
		connector_enter(self, CONN_KEYING, "associated, waiting for the 4-way handshake");
}

/* The access point did not answer: the same Connect() goes on with the
 * network's next access point it has not found silent, as iwd and
 * wpa_supplicant do (the one chosen may have gone since the last scan).
 * FALSE when there is none. */
static gboolean
connector_try_next_bss(WifiConnector *self, const gchar *why)
{
	WifiBss *bss = wifi_attempt_next_bss(self->cur);
	g_autoptr(GError) error = NULL;
	gchar addr[JOIND_MAC_STRING_LEN];

	if (bss == NULL || self->next != NULL || !self->method->tries_other_bss)
		return FALSE;
	self->next = wifi_attempt_move_to(
	        self->cur, self->core, bss, self->use_sme,
	        joind_device_get_address(joind_station_get_device(self->station)), &error);
	if (self->next == NULL) {
		wifi_iface_info(self->iface, "“%s”: not trying %s: %s",
		                wifi_attempt_get_name(self->cur),
		                joind_mac_to_string(bss->bssid, addr), error->message);
		return FALSE;
	}
	wifi_iface_info(self->iface, "“%s”: %s Trying %s instead.",
	                wifi_attempt_get_name(self->cur), why,
	                joind_mac_to_string(bss->bssid, addr));
	connector_release(self);
	connector_start(self);
	return TRUE;
}

/* The access point did not answer cmd (the authentication or
 * association), or refused it with status; the method may go on. */
static void
connector_refused(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status)
{
	const gchar *stage = cmd == NL80211_CMD_AUTHENTICATE ? "authentication" : "association";
	g_autofree gchar *message = wifi_sme_refusal_message(stage, timed_out, status);

	if (self->method->refused(self, cmd, timed_out, status))
		return;
	self->roam_status = timed_out ? 0 : status;
	/* A roam's target that is silent ends the roam: the roamer chooses. */
	if (timed_out && !self->roaming && connector_try_next_bss(self, message))
		return;
	connector_fail(self, timed_out ? WIFI_CONNECT_EVENT_NO_ANSWER : WIFI_CONNECT_EVENT_REFUSED,
	               JOIND_ERROR_FAILED, message, CONN_IDLE);
}

static void
on_connect_event(WifiConnector *self, struct nlattr **attrs)
{
	guint16 status = attrs[NL80211_ATTR_STATUS_CODE] != NULL
	                         ? nla_get_u16(attrs[NL80211_ATTR_STATUS_CODE])
	                         : 1;
	gboolean timed_out = attrs[NL80211_ATTR_TIMED_OUT] != NULL;

	if (self->state != CONN_ASSOCIATING || self->via_sme) {
		/* On the SME path cfg80211 reports the association response
		 * it passed on in the ASSOCIATE event once more. */
		wifi_iface_debug(self->iface, "CONNECT event ignored (%s)",
		                 conn_state_names[self->state]);
		return;
	}
	if (status == 0 && !timed_out)
		connector_associated(self, attrs);
	else
		connector_refused(self, NL80211_CMD_CONNECT, timed_out, status);
}

/* The AUTHENTICATE or ASSOCIATE event of joind's SME. */
static void
on_sme_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs)
{
	ConnState awaited = cmd == NL80211_CMD_AUTHENTICATE ? CONN_AUTHENTICATING
	                    : self->roaming                 ? CONN_REASSOCIATING
	                                                    : CONN_ASSOCIATING;
	const gchar *stage = cmd == NL80211_CMD_AUTHENTICATE ? "authentication" : "association";
	g_autoptr(GError) error = NULL;
	WifiSmeAnswer answer;
	guint16 status = 0;

	if (self->state != awaited || !self->via_sme) {
		wifi_iface_debug(self->iface, "%s event not awaited", wifi_nl_cmd_name(cmd));
		return;
	}
	if (cmd == NL80211_CMD_AUTHENTICATE && self->method->rx_authenticate(self, attrs))
		return;
	answer = wifi_sme_read_answer(cmd, attrs, self->cur->bss->bssid, &status, &error);
	switch (answer) {
	case WIFI_SME_ANSWER_NONE:
		wifi_iface_debug(self->iface, "%s event not ours%s%s", stage,
		                 error != NULL ? ": " : "", error != NULL ? error->message : "");
		return;
	case WIFI_SME_ANSWER_SUCCESS:
		if (cmd == NL80211_CMD_AUTHENTICATE)
			connector_enter(self, connector_association_state(self), "authenticated");
		else
			connector_associated(self, attrs);
		return;
	case WIFI_SME_ANSWER_TIMED_OUT:
	case WIFI_SME_ANSWER_REFUSED:
		connector_refused(self, cmd, answer == WIFI_SME_ANSWER_TIMED_OUT, status);
		return;
	}
}

static void
on_disconnect_event(WifiConnector *self, struct nlattr **attrs)
{
	gboolean by_ap = attrs[NL80211_ATTR_DISCONNECTED_BY_AP] != NULL;
	guint16 reason = attrs[NL80211_ATTR_REASON_CODE] != NULL
	                         ? nla_get_u16(attrs[NL80211_ATTR_REASON_CODE])
	                         : 0;
	g_autofree gchar *why = NULL;
	g_autoptr(GError) error = NULL;

	switch (self->state) {
	case CONN_DISCONNECTING:
		connector_teardown_done(self, "disconnected on request");
		return;
	case CONN_KEYING:
		error = wifi_keying_abort(self->keying, WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED,
		                          reason);
		connector_keying_failed(self, error, CONN_IDLE);
		return;
	case CONN_CONNECTED:
		why = g_strdup_printf("%s (reason %u)",
		                      by_ap ? "the access point disconnected us" : "link lost",
		                      reason);
		connector_fail(self, WIFI_CONNECT_EVENT_LINK_LOST, JOIND_ERROR_FAILED, why,
		               CONN_IDLE);
		return;
	default:
		/* Not associated: the end of an earlier link. */
		wifi_iface_debug(self->iface, "DISCONNECT event ignored (%s)",
		                 conn_state_names[self->state]);
		return;
	}
}

/* The access point deauthenticated or disassociated us while joind's SME
 * associated: mac80211 abandons the association and answers nothing
 * more, so the attempt would wait out its 15 s. An access point that lost
 * our authentication (hostapd drops a station whose SAE commit came
 * twice) takes a fresh one: the attempt starts over once, then fails
 * naming the reason. */
static void
left_while_associating(WifiConnector *self, const WifiMgmtLeave *leave)
{
	g_autofree gchar *why = g_strdup_printf(
	        "The access point %s us during the association (reason %u)",
	        leave->disassoc ? "disassociated" : "deauthenticated", leave->reason);
	g_autofree gchar *message = NULL;

	if (!self->cur->left_while_associating) {
		self->cur->left_while_associating = TRUE;
		wifi_iface_info(self->iface, "%s: authenticating again", why);
		self->next = g_steal_pointer(&self->cur);
		connector_release(self);
		connector_start(self);
		return;
	}
	message = g_strdup_printf("%s, twice.", why);
	connector_fail(self, WIFI_CONNECT_EVENT_REFUSED, JOIND_ERROR_FAILED, message, CONN_IDLE);
}

/* A deauthentication or disassociation (from the AP, or mac80211's own
 * after beacon loss) normally comes with a DISCONNECT event; should that
 * not follow, the link is down all the same (the DISCONNECT event that
 * does follow finds IDLE and is ignored). */
static void
on_deauth_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	gboolean associating = self->state == CONN_ASSOCIATING && self->via_sme;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *why = NULL;
	const guint8 *bssid;
	WifiMgmtLeave leave;

	if (self->state == CONN_DEAUTHENTICATING && cmd == NL80211_CMD_DEAUTHENTICATE) {
		connector_teardown_done(self, "disconnected on request");
		return;
	}
	if ((self->state != CONN_CONNECTED && !associating) || frame == NULL)
		return;
	if (!wifi_mgmt_parse_leave(nla_data(frame), (gsize)nla_len(frame), &leave, &error)) {
		wifi_iface_debug(self->iface, "%s event: %s", wifi_nl_cmd_name(cmd),
		                 error->message);
		return;
	}
	bssid = self->cur->bss->bssid;
	if (memcmp(leave.bssid, bssid, 6) != 0)
		return;
	if (associating) {
		if (memcmp(leave.sa, bssid, 6) == 0)
			left_while_associating(self, &leave);
		return;
	}
	why = g_strdup_printf(
	        "%s by %s (reason %u)", leave.disassoc ? "disassociated" : "deauthenticated",
	        memcmp(leave.sa, bssid, 6) == 0 ? "the access point" : "the station", leave.reason);
	connector_fail(self, WIFI_CONNECT_EVENT_LINK_LOST, JOIND_ERROR_FAILED, why, CONN_IDLE);
}

static void
on_eapol_frame(WifiConnector *self, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	struct nlattr *proto = attrs[NL80211_ATTR_CONTROL_PORT_ETHERTYPE];
	struct nlattr *src = attrs[NL80211_ATTR_MAC];

	if (frame == NULL || self->keying == NULL ||
	    (proto != NULL && nla_get_u16(proto) != WIFI_ETH_P_PAE))
		return;
	if (self->state != CONN_ASSOCIATING && self->state != CONN_REASSOCIATING &&
	    self->state != CONN_KEYING && self->state != CONN_CONNECTED)
		return;
	wifi_keying_set_peer_clear(self->keying,
	                           attrs[NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT] != NULL);
	wifi_keying_rx(self->keying, src != NULL && nla_len(src) == 6 ? nla_data(src) : NULL,
	               nla_data(frame), (gsize)nla_len(frame));
}

/* An action frame the kernel passed up: the method's, while it
 * authenticates with action frames (FT over the DS). */
static void
on_action_frame(WifiConnector *self, struct nlattr **attrs)
{
	if (self->state == CONN_AUTHENTICATING && self->method->rx_action != NULL)
		(void)self->method->rx_action(self, attrs);
}

void
wifi_connector_handle_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs)
{
	switch (cmd) {
	case NL80211_CMD_CONNECT:
		on_connect_event(self, attrs);
		break;
	case NL80211_CMD_DISCONNECT:
		on_disconnect_event(self, attrs);
		break;
	case NL80211_CMD_AUTHENTICATE:
	case NL80211_CMD_ASSOCIATE:
		on_sme_event(self, cmd, attrs);
		break;
	case NL80211_CMD_DEAUTHENTICATE:
	case NL80211_CMD_DISASSOCIATE:
		on_deauth_event(self, cmd, attrs);
		break;
	case NL80211_CMD_CONTROL_PORT_FRAME:
		on_eapol_frame(self, attrs);
		break;
	case NL80211_CMD_FRAME:
		on_action_frame(self, attrs);
		break;
	default:
		break;
	}
}

/* ---- after lost events ---------------------------------------------------- */

static void
link_checked(int error, gboolean associated, gpointer user_data)
{
	WifiConnector *self = user_data;

	self->request = 0;
	if (error < 0 || associated)
		return;
	connector_fail(self, WIFI_CONNECT_EVENT_LINK_LOST, JOIND_ERROR_FAILED,
	               "the link went down while events were lost", CONN_IDLE);
}

void
wifi_connector_resync(WifiConnector *self)
{
	/* Before the association the state's timer ends a wait for a lost
	 * answer; a teardown's ends it likewise. */
	if (self->state != CONN_KEYING && self->state != CONN_CONNECTED)
		return;
	wifi_nl_cancel(self->iface->nl, self->request);
	self->request = wifi_iface_query_associated(self->iface, link_checked, self);
}
