/* auth-ft-air.c - fast transition over the air (IEEE 802.11-2020
 * 13.5.1) as the connector's way to roam within a mobility domain: the
 * FT authentication carries our RSNE (PMKR0Name), the MDE and our FTE
 * (SNonce, R0KH-ID); the target's answer gives the PTK; the
 * reassociation request carries the FTE's MIC and its response the group
 * keys (auth-ft.c, handshake/ft-transition.c). No 4-way handshake
 * follows: the keys go in at the association's event.
 *
 * A target that refuses or answers what does not check gets a full
 * reassociation instead (SAE's method for FT-SAE, else the open one, with
 * EAP for FT-802.1X); one that does not answer leaves the roam to the
 * roamer's next BSS, which may be the one left (the link left is gone on
 * our side already: mac80211 drops it when the authentication starts).
 * Only when that fails too does the roam end. */
#include "auth-method.h"

#include "mgmt.h"
#include "sme.h"

/* IEEE 802.11-2020 table 9-78: invalid FTE. */
#define FT_STATUS_INVALID_FTE 55

void
wifi_auth_ft_fall_back(WifiConnector *self, const gchar *why)
{
	wifi_iface_info(self->iface, "“%s”: %s failed (%s): a full reassociation instead",
	                wifi_attempt_get_name(self->cur), self->method->name, why);
	self->method->release(self);
	wifi_attempt_ft_abandon(self->cur);
	g_clear_pointer(&self->keying, wifi_keying_free);
	/* FT-SAE's full reassociation runs SAE, the others' open system. */
	self->method = wifi_auth_method_for(self->cur);
	self->method->go(self, "fast transition failed");
}

static void
ft_go(WifiConnector *self, const gchar *reason)
{
	g_autoptr(GError) error = NULL;

	if (!wifi_attempt_ft_begin(self->cur, &error)) {
		wifi_auth_ft_fall_back(self, error->message);
		return;
	}
	wifi_iface_info(self->iface, "“%s”: FT over the air", wifi_attempt_get_name(self->cur));
	wifi_auth_open_go(self, reason);
}

/* The target's FT authentication response. */
static gboolean
ft_rx_authenticate(WifiConnector *self, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	g_autoptr(GError) error = NULL;
	g_autofree gchar *refused = NULL;
	WifiMgmtAnswer answer;
	guint16 status = 0;

	switch (wifi_sme_read_answer(NL80211_CMD_AUTHENTICATE, attrs, self->cur->bss->bssid,
	                             &status, NULL)) {
	case WIFI_SME_ANSWER_NONE:
		return FALSE;
	case WIFI_SME_ANSWER_TIMED_OUT:
	case WIFI_SME_ANSWER_REFUSED:
		refused = wifi_sme_refusal_message("FT authentication", status == 0, status);
		wifi_auth_ft_fall_back(self, refused);
		return TRUE;
	case WIFI_SME_ANSWER_SUCCESS:
		break;
	}
	if (frame == NULL ||
	    !wifi_mgmt_parse_answer(nla_data(frame), (gsize)nla_len(frame), &answer, &error) ||
	    !wifi_attempt_ft_authenticated(self->cur, answer.ies, answer.ies_len, &error)) {
		wifi_auth_ft_fall_back(self, error != NULL ? error->message : "no frame");
		return TRUE;
	}
	connector_enter(self, connector_association_state(self), "FT authentication accepted");
	return TRUE;
}

/* A target slower to answer than mac80211's authentication timer gets
 * the FT authentication twice and answers each with a new ANonce; only
 * the first answer comes up, so the reassociation names an ANonce the
 * target replaced and is refused as an invalid FTE. One fresh transition
 * (a new SNonce) gets past that. */
static gboolean
ft_start_over(WifiConnector *self, guint8 cmd, guint16 status)
{
	if (cmd != NL80211_CMD_ASSOCIATE || status != FT_STATUS_INVALID_FTE || self->cur->ft_again)
		return FALSE;
	self->cur->ft_again = TRUE;
	g_clear_pointer(&self->keying, wifi_keying_free);
	ft_go(self, "FT over the air again (invalid FTE)");
	return TRUE;
}

static gboolean
ft_refused(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status)
{
	g_autofree gchar *message = wifi_sme_refusal_message(
	        cmd == NL80211_CMD_AUTHENTICATE ? "FT authentication" : "FT reassociation",
	        timed_out, status);

	if (self->cur->ft_air == NULL)
		return FALSE;
	if (!timed_out && ft_start_over(self, cmd, status))
		return TRUE;
	/* mac80211 forgets a BSS whose authentication timed out, so a full
	 * authentication to it would be refused (ENOENT): the roamer's next
	 * BSS (the one left among them) at once. */
	if (timed_out && cmd == NL80211_CMD_AUTHENTICATE && self->roaming &&
	    connector_roam_elsewhere(self, message))
		return TRUE;
	wifi_auth_ft_fall_back(self, message);
	return TRUE;
}

const WifiAuthMethod wifi_auth_ft_air = {
        .name = "FT over the air",
        .has_credentials = TRUE,
        .tries_other_bss = FALSE,
        .go = ft_go,
        .authenticate = wifi_auth_open_authenticate,
        .rx_authenticate = ft_rx_authenticate,
        .refused = ft_refused,
        .keying_failed = wifi_auth_no_second_try,
        .release = wifi_auth_nothing_to_release,
};
