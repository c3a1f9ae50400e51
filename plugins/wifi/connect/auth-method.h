/* auth-method.h - how the connector's attempt authenticates: the steps
 * where the ways to join differ, as one table per way that connect.c and
 * connect-events.c call through without asking which it is.
 *
 *   wifi_auth_open  open system authentication (open, PSK, 802.1X; the
 *                   kernel's frames), the key step before the first frame
 *   wifi_auth_sae   SAE's commits and confirms (sae-auth.c), the key step
 *                   once SAE accepted; a cached PMKSA goes as open
 *                   system, and SAE runs when the access point refuses it
 *   wifi_auth_owe   open system with a Diffie-Hellman element in the
 *                   association; a refused group, a lost answer or a key
 *                   step that failed associates again
 *   wifi_auth_ft_air  a roam's fast transition over the air within the
 *                   mobility domain of the link left (auth-ft-air.c);
 *                   a target that refuses or is silent gets the open
 *                   method's full reassociation
 *   wifi_auth_ft_ds  the same over the DS, when the target advertises
 *                   it (auth-ft-ds.c): FT Action frames through the
 *                   access point left; a failed exchange goes over the air
 *
 * A new way is one more table and one more line in
 * wifi_auth_method_for(). Only the connector's files include this. */
#pragma once

#include "connect-private.h"

G_BEGIN_DECLS

struct _WifiAuthMethod {
	const gchar *name;
	/* A failed key step may blame the secret: there is one. */
	gboolean has_credentials;
	/* An access point that did not answer may be left for another of
	 * the network's (the attempt is not tied to that one BSS). */
	gboolean tries_other_bss;
	/* cur's first step: what it needs before its first frame, then
	 * AUTHENTICATING (joind's SME) or ASSOCIATING; or it failed. */
	void (*go)(WifiConnector *self, const gchar *reason);
	/* AUTHENTICATING entered: the first authentication frame goes. */
	void (*authenticate)(WifiConnector *self);
	/* An AUTHENTICATE event in AUTHENTICATING: TRUE when the method
	 * read it (its own frames), FALSE leaves it to the SME's answer. */
	gboolean (*rx_authenticate)(WifiConnector *self, struct nlattr **attrs);
	/* An action frame (FRAME event) in AUTHENTICATING: TRUE when the
	 * method read it. NULL: the method sends and awaits none. */
	gboolean (*rx_action)(WifiConnector *self, struct nlattr **attrs);
	/* cmd (AUTHENTICATE, ASSOCIATE or CONNECT) was refused with status
	 * or not answered: TRUE when the method went on (the state is its). */
	gboolean (*refused)(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status);
	/* The key step failed before the link came up (next: the teardown
	 * or IDLE): TRUE when the method went on. */
	gboolean (*keying_failed)(WifiConnector *self, const GError *error, ConnState next);
	/* cur is over: the method's own state (self->method_data) goes. */
	void (*release)(WifiConnector *self);
};

extern const WifiAuthMethod wifi_auth_open;
extern const WifiAuthMethod wifi_auth_sae;
extern const WifiAuthMethod wifi_auth_owe;
extern const WifiAuthMethod wifi_auth_ft_air;
extern const WifiAuthMethod wifi_auth_ft_ds;

/* The way attempt joins, from its plan. */
const WifiAuthMethod *wifi_auth_method_for(const WifiAttempt *attempt);

/* The entries' shared steps, for the methods that differ in others. */
void wifi_auth_open_go(WifiConnector *self, const gchar *reason);
void wifi_auth_open_authenticate(WifiConnector *self);
gboolean wifi_auth_nothing_to_read(WifiConnector *self, struct nlattr **attrs);
gboolean wifi_auth_no_retry(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status);
gboolean wifi_auth_no_second_try(WifiConnector *self, const GError *error, ConnState next);
void wifi_auth_nothing_to_release(WifiConnector *self);
/* A fast transition (over the air or the DS) failed with why: the
 * attempt's plan is a full association's again and the open method
 * reassociates to the same target. */
void wifi_auth_ft_fall_back(WifiConnector *self, const gchar *why);

G_END_DECLS
