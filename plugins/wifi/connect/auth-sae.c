/* auth-sae.c - SAE as the connector's authentication method (see
 * auth-method.h): the exchange (sae-auth.c) is the method's state; its
 * PMK keys the link once accepted. An attempt offering a cached SAE PMKSA
 * authenticates as open system, and SAE runs when the access point
 * refuses it (see sae_refused()). */
#include "auth-method.h"

#include "sae-attempt.h"

static void
sae_not_in_scan_table(WifiConnector *self)
{
	g_autofree gchar *message = g_strdup_printf(
	        "The kernel refused the SAE authentication: the access point is not in its "
	        "scan table, and %u scans of its channel (%u MHz) did not see it again.",
	        self->rescans, self->cur->bss->freq);

	connector_fail(self, WIFI_CONNECT_EVENT_FAILED, JOIND_ERROR_FAILED, message, CONN_IDLE);
}

static void
on_sae_done(const GError *error, gpointer user_data)
{
	WifiConnector *self = user_data;

	if (self->state != CONN_AUTHENTICATING)
		return; /* failed already (the kernel refused a frame) */
	/* The kernel expired the BSS: scanned and tried again; a failure
	 * after the last scan is not the access point's refusal (the BSS is
	 * not avoided), and nothing is authenticated to tear down. */
	if (g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND)) {
		if (!connector_rescan_bss(self))
			sae_not_in_scan_table(self);
		return;
	}
	if (error != NULL) {
		connector_keying_failed(self, error, CONN_DEAUTHENTICATING);
		return;
	}
	wifi_attempt_sae_accepted(self->cur, self->method_data);
	if (connector_key_step(self))
		connector_enter(self, connector_association_state(self), "SAE accepted");
}

/* The key step waits for SAE's PMK. */
static void
sae_go(WifiConnector *self, const gchar *reason)
{
	self->method_data = wifi_attempt_sae_auth_new(self->cur, on_sae_done, self);
	if (self->method_data == NULL) {
		wifi_auth_open_go(self, reason); /* a cached PMKSA */
		return;
	}
	connector_enter(self, CONN_AUTHENTICATING, reason);
}

static void
sae_authenticate(WifiConnector *self)
{
	if (self->method_data != NULL)
		wifi_sae_auth_start(self->method_data);
	else
		wifi_auth_open_authenticate(self);
}

static gboolean
sae_rx_authenticate(WifiConnector *self, struct nlattr **attrs)
{
	if (self->method_data == NULL)
		return FALSE;
	wifi_sae_auth_handle_event(self->method_data, attrs);
	return TRUE;
}

/* A refused cached PMKSA: the same attempt again, with SAE. Refused in
 * any step that carried it, as wpa_supplicant falls back: the association
 * (status 53, invalid PMKID, as the standard has the access point answer),
 * the open system authentication an access point may refuse on an SAE
 * network, or the kernel's CMD_CONNECT that took the attempt over when
 * cfg80211 had expired the BSS. Unanswered, too, on the network's last
 * BSS (another one goes first, and a roam's silent target is the
 * roamer's): mac80211 gives open system authentication three tries of
 * 100 ms, SAE's frames 2 s each, and an access point busy or just
 * restarted (which has lost the PMKSA anyway) answers SAE in time.
 * mac80211 unlinks a BSS whose authentication timed out, so SAE's first
 * frame scans it back first (connector_rescan_bss()). */
static gboolean
sae_refused(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status)
{
	if (timed_out && (self->roaming || wifi_attempt_next_bss(self->cur) != NULL))
		return FALSE;
	if (self->next != NULL || !wifi_attempt_sae_pmksa_refused(self->cur, timed_out))
		return FALSE;
	g_clear_pointer(&self->keying, wifi_keying_free);
	self->next = g_steal_pointer(&self->cur);
	connector_start(self);
	return TRUE;
}

static void
sae_release(WifiConnector *self)
{
	g_clear_pointer((WifiSaeAuth **)&self->method_data, wifi_sae_auth_free);
}

const WifiAuthMethod wifi_auth_sae = {
        .name = "SAE",
        .has_credentials = TRUE,
        .tries_other_bss = TRUE,
        .go = sae_go,
        .authenticate = sae_authenticate,
        .rx_authenticate = sae_rx_authenticate,
        .refused = sae_refused,
        .keying_failed = wifi_auth_no_second_try,
        .release = sae_release,
};
