/* auth-owe.c - OWE (RFC 8110) as the connector's authentication method
 * (see auth-method.h): open system authentication with the attempt's
 * Diffie-Hellman element in the association request; the access point's
 * answer keys the link (attempt.c). OWE has no credentials to blame, and
 * an attempt stays with the access point its transition element named. */
#include "auth-method.h"

/* The access point refused our group, or did not answer: the attempt
 * offers the next group, or the same again (wifi_attempt_owe_again()). */
static gboolean
owe_refused(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status)
{
	if (!wifi_attempt_owe_again(self->cur, timed_out, status))
		return FALSE;
	connector_enter(self, self->via_sme ? CONN_AUTHENTICATING : CONN_ASSOCIATING,
	                "OWE tries again");
	return TRUE;
}

/* The key step of an association failed before the link came up: a
 * fresh association with a new key pair, a few times. The access point
 * may key with a Diffie-Hellman answer we never read: one it gave to the
 * kernel's repetition of our association request (the kernel waits a
 * tenth of a second for an answer, then asks again, and takes only the
 * first answer), which an access point slower than that took for a new
 * association, its new key pair with it. */
static gboolean
owe_keying_failed(WifiConnector *self, const GError *error, ConnState next)
{
	WifiAttempt *again;

	if (self->state == CONN_CONNECTED || (again = wifi_attempt_owe_renew(self->cur)) == NULL)
		return FALSE;
	wifi_iface_info(self->iface,
	                "“%s”: %s; associating again with a new OWE key pair (%u of %u)",
	                wifi_attempt_get_name(self->cur), error->message, again->owe_renewals,
	                WIFI_ATTEMPT_OWE_MAX_RENEWALS);
	self->next = again;
	if (next != CONN_IDLE) {
		connector_enter(self, next, "OWE associates again"); /* then starts next */
		return TRUE;
	}
	connector_release(self);
	connector_start(self);
	return TRUE;
}

const WifiAuthMethod wifi_auth_owe = {
        .name = "OWE",
        .has_credentials = FALSE,
        .tries_other_bss = FALSE,
        .go = wifi_auth_open_go,
        .authenticate = wifi_auth_open_authenticate,
        .rx_authenticate = wifi_auth_nothing_to_read,
        .refused = owe_refused,
        .keying_failed = owe_keying_failed,
        .release = wifi_auth_nothing_to_release,
};
