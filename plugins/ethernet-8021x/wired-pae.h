/* wired-pae.h - the IEEE 802.1X-2010 supplicant PAE of one port.
 *
 * The supplicant PAE and backend state machines of 802.1X-2010 clause 8,
 * folded into one explicit state machine (pae_enter() is the only
 * place the state changes, and it logs "old -> new (reason)"):
 *
 *   DISABLED       no profile matches the port: nothing is ever sent
 *   DISCONNECTED   a profile matches, but the link is down or has no carrier
 *   CONNECTING     EAPOL-Start sent; resent every startPeriod, maxStart times
 *   AUTHENTICATING an EAP conversation runs; authWhile guards silence
 *   AUTHENTICATED  EAP-Success; a new Request from the authenticator restarts
 *   FAILED         the conversation failed; after an authentication failure
 *                  the PAE moves on to HELD at once, after a local problem
 *                  (no agent, bad profile, cancelled) it stays here until the
 *                  profile changes, the link comes back or Reauthenticate()
 *   HELD           heldPeriod after a failure, then CONNECTING again
 *   LOGOFF         EAPOL-Logoff sent (Logoff(), profile gone, joind stopping)
 *
 * Unlike 802.1X's suggested supplicant behaviour of waiting for the
 * authenticator first, the PAE sends EAPOL-Start the moment the port has
 * carrier and a profile, and repeats that first one after 100 ms and 1 s
 * (an answer lost while the link settles) before startPeriod takes over. A
 * timer runs only while something is pending (CONNECTING, AUTHENTICATING,
 * HELD): none in the other states.
 *
 * The PAE owns the EAP session (the core's engine) and knows nothing of
 * sockets or D-Bus: it transmits through the send callback and reports
 * every change through the changed callback.
 */
#pragma once

#include "joind.h"
#include "wired-eapol.h"

G_BEGIN_DECLS

typedef enum {
	WIRED_PAE_DISABLED,
	WIRED_PAE_DISCONNECTED,
	WIRED_PAE_CONNECTING,
	WIRED_PAE_AUTHENTICATING,
	WIRED_PAE_AUTHENTICATED,
	WIRED_PAE_FAILED,
	WIRED_PAE_HELD,
	WIRED_PAE_LOGOFF,
	/* the last value, which name tables are checked against */
	WIRED_PAE_LAST = WIRED_PAE_LOGOFF,
} WiredPaeState;

/* 802.1X timers and counters, in milliseconds (main.conf [Wired] gives
 * seconds; tests use shorter ones). */
typedef struct {
	guint start_period_ms;
	guint max_start;
	guint held_period_ms;
	guint auth_period_ms;
} WiredPaeTimers;

typedef struct _WiredPae WiredPae;

typedef struct {
	/* Transmit an EAPOL PDU of this type; FALSE with error when it could
	 * not be sent. */
	gboolean (*send)(WiredPae *pae, guint8 type, const guint8 *body, gsize len,
	                 gpointer user_data, GError **error);
	/* The state, identity, method or last error changed. */
	void (*changed)(WiredPae *pae, gpointer user_data);
} WiredPaeCallbacks;

/* core: for the EAP engine's agent requests (may be NULL in tests). */
WiredPae *wired_pae_new(JoindCore *core, const gchar *ifname, const WiredPaeTimers *timers,
                        const WiredPaeCallbacks *callbacks, gpointer user_data);
void wired_pae_free(WiredPae *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WiredPae, wired_pae_free)

/* The profile that matches the port, or NULL. Setting one (a new profile, or
 * the same one after it was edited) starts a fresh authentication; setting
 * NULL logs off and leaves the port alone. object_path is the device's, for
 * agent requests. */
void wired_pae_set_profile(WiredPae *self, JoindProfile *profile, const gchar *object_path);
/* Leave the port alone from now on: EAPOL-Logoff if a conversation was
 * going on, then DISABLED. */
void wired_pae_disable(WiredPae *self, const gchar *reason);
/* A profile matches but the port cannot speak EAPOL (the socket could not
 * be opened): FAILED with this sentence as the last error. */
void wired_pae_fail_profile(WiredPae *self, JoindProfile *profile, const gchar *object_path,
                            const gchar *sentence);
/* profile is a newer snapshot of the one in use: TRUE when it only adds
 * what the agent supplied to the running session (EAP-RememberCredentials
 * wrote it back), and the port now uses it without restarting. */
gboolean wired_pae_adopt_profile(WiredPae *self, JoindProfile *profile);
JoindProfile *wired_pae_get_profile(WiredPae *self);
/* The interface was renamed (for log lines). */
void wired_pae_set_ifname(WiredPae *self, const gchar *ifname);
/* The link is up with carrier (portEnabled). */
void wired_pae_set_port_enabled(WiredPae *self, gboolean enabled);
/* Largest EAP packet the link carries. */
void wired_pae_set_mtu(WiredPae *self, gsize mtu);
/* A received EAPOL PDU, already parsed. */
void wired_pae_rx(WiredPae *self, const WiredEapolPdu *pdu);

/* Start again from EAPOL-Start (D-Bus Reauthenticate()). Fails with
 * JOIND_ERROR_NOT_FOUND when no profile matches. */
gboolean wired_pae_reauthenticate(WiredPae *self, GError **error);
/* An agent registered: a port that failed for want of one starts again. */
void wired_pae_agent_available(WiredPae *self);
/* Send EAPOL-Logoff and stay logged off until Reauthenticate() or a profile
 * change (D-Bus Logoff()). Fails with JOIND_ERROR_NOT_FOUND when no profile
 * matches. */
gboolean wired_pae_logoff(WiredPae *self, GError **error);
/* joind is stopping: EAPOL-Logoff if the port was talking to an
 * authenticator. */
void wired_pae_shutdown(WiredPae *self);

WiredPaeState wired_pae_get_state(WiredPae *self);
JoindPortState wired_pae_get_port_state(WiredPae *self);
/* Authenticated, and still so while a re-authentication runs: FALSE from
 * the first failure, logoff, carrier loss or profile removal on. */
gboolean wired_pae_is_authorised(WiredPae *self);
/* NULL when nothing failed since the last success. */
const gchar *wired_pae_get_last_error(WiredPae *self);
const gchar *wired_pae_get_identity(WiredPae *self);
const gchar *wired_pae_get_method(WiredPae *self);

const gchar *wired_pae_state_to_string(WiredPaeState state);

G_END_DECLS
