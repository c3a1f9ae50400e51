/* auth-method.c - the choice of an attempt's authentication method, and
 * the plain one, open system authentication (see auth-method.h). */
#include "auth-method.h"

const WifiAuthMethod *
wifi_auth_method_for(const WifiAttempt *attempt)
{
	if (attempt->owe != NULL)
		return &wifi_auth_owe;
	if (wifi_attempt_ft_can_transition(attempt))
		return wifi_attempt_ft_over_ds(attempt) ? &wifi_auth_ft_ds : &wifi_auth_ft_air;
	if (attempt->secure && wifi_akm_is_sae(attempt->plan.akm))
		return &wifi_auth_sae;
	return &wifi_auth_open;
}

/* The key step first: message 1 may be read before the association's
 * event, and is held. */
void
wifi_auth_open_go(WifiConnector *self, const gchar *reason)
{
	if (!self->cur->secure || connector_key_step(self))
		connector_enter(self, self->via_sme ? CONN_AUTHENTICATING : CONN_ASSOCIATING,
		                reason);
}

void
wifi_auth_open_authenticate(WifiConnector *self)
{
	connector_send_command(self, NL80211_CMD_AUTHENTICATE);
}

gboolean
wifi_auth_nothing_to_read(WifiConnector *self, struct nlattr **attrs)
{
	return FALSE;
}

gboolean
wifi_auth_no_retry(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status)
{
	return FALSE;
}

gboolean
wifi_auth_no_second_try(WifiConnector *self, const GError *error, ConnState next)
{
	return FALSE;
}

void
wifi_auth_nothing_to_release(WifiConnector *self)
{
}

const WifiAuthMethod wifi_auth_open = {
        .name = "open system",
        .has_credentials = TRUE,
        .tries_other_bss = TRUE,
        .go = wifi_auth_open_go,
        .authenticate = wifi_auth_open_authenticate,
        .rx_authenticate = wifi_auth_nothing_to_read,
        .refused = wifi_auth_no_retry,
        .keying_failed = wifi_auth_no_second_try,
        .release = wifi_auth_nothing_to_release,
};
