/* ap-sta-sae.c - SAE authentication as the access point (the responder):
 * the station's commit starts an exchange of the security room's SAE
 * (security/sae.c, which answers a commit received in Nothing), with
 * hash-to-element when the station's commit says so (status 126) and
 * hunting and pecking otherwise; once accepted, its PMK and PMKID key the
 * station's 4-way handshake. An exchange that fails removes the station.
 */
#include "ap-private.h"

#include <string.h>

#include "mgmt.h"

#define AUTH_ALG_SAE 3

static const guint sae_groups[] = {19, 20, 21};

gboolean
wifi_ap_offers_psk(const WifiAp *self)
{
	return !self->open && self->security != WIFI_AP_SECURITY_WPA3;
}

gboolean
wifi_ap_offers_sae(const WifiAp *self)
{
	return !self->open && self->security != WIFI_AP_SECURITY_WPA2;
}

void
wifi_ap_sta_sae_clear(ApSta *sta)
{
	g_clear_pointer(&sta->sae, wifi_sae_free);
}

/* The exchange's frames (sequence, status, body) as authentication frames. */
static void
sae_send(const guint8 *data, gsize len, gpointer user_data)
{
	ApSta *sta = user_data;

	if (len < 4)
		return;
	wifi_ap_send_frame(sta->ap,
	                   wifi_mgmt_build_auth(sta->ap->bssid, sta->mac, AUTH_ALG_SAE,
	                                        wifi_mgmt_le16(data), wifi_mgmt_le16(data + 2),
	                                        data + 4, len - 4));
}

static void
sae_done(const GError *error, gpointer user_data)
{
	ApSta *sta = user_data;
	g_autofree gchar *why = NULL;

	if (error != NULL) {
		why = g_strdup_printf("SAE failed: %s", error->message);
		g_warning("%s: station %s refused: %s", sta->ap->iface->name, sta->name,
		          error->message);
		wifi_ap_sta_remove(sta, 0, why);
		return;
	}
	memcpy(sta->pmk, wifi_sae_get_pmk(sta->sae), sizeof(sta->pmk));
	memcpy(sta->pmkid, wifi_sae_get_pmkid(sta->sae), sizeof(sta->pmkid));
	sta->sae_accepted = TRUE;
	g_info("%s: station %s authenticated (SAE, group %u, %s)", sta->ap->iface->name, sta->name,
	       wifi_sae_get_group(sta->sae),
	       sta->sae_h2e ? "hash-to-element" : "hunting and pecking");
}

static WifiSae *
sae_new(ApSta *sta, gboolean h2e, GError **error)
{
	WifiAp *ap = sta->ap;
	WifiSaeConfig c = {
	        .password = (const guint8 *)ap->passphrase,
	        .password_len = strlen(ap->passphrase),
	        .ssid = ap->ssid,
	        .ssid_len = ap->ssid_len,
	        .groups = sae_groups,
	        .n_groups = G_N_ELEMENTS(sae_groups),
	        .h2e = h2e,
	        .send = sae_send,
	        .done = sae_done,
	        .user_data = sta,
	};

	memcpy(c.own_addr, ap->bssid, 6);
	memcpy(c.peer_addr, sta->mac, 6);
	return wifi_sae_new(&c, error);
}

void
wifi_ap_sta_sae_rx(WifiAp *ap, const WifiMgmtRequest *r)
{
	ApSta *sta = wifi_ap_sta_lookup(ap, r->sa);
	g_autoptr(GError) error = NULL;
	gboolean commit = r->auth_seq == 1;

	if (!wifi_ap_offers_sae(ap))
		return;
	/* A new commit from a station that is associated, or whose exchange
	 * is over, starts over; one under way takes its frames (the exchange
	 * answers a repeated commit itself). */
	if (sta != NULL && commit && (sta->sae == NULL || sta->sae_accepted)) {
		wifi_ap_sta_remove(sta, 0, "it authenticates again");
		sta = NULL;
	}
	if (sta == NULL) {
		if (!commit)
			return;
		sta = wifi_ap_sta_new(ap, r->sa);
		sta->sae_h2e = r->status == WIFI_SAE_STATUS_HASH_TO_ELEMENT;
		sta->sae = sae_new(sta, sta->sae_h2e, &error);
		if (sta->sae == NULL) {
			wifi_ap_sta_remove(sta, 0, error->message);
			return;
		}
	}
	if (sta->sae != NULL && !sta->sae_accepted)
		wifi_sae_rx(sta->sae, r->auth_seq, r->status, r->body, r->body_len);
}
