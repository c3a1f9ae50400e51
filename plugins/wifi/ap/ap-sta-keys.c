/* ap-sta-keys.c - a station's admission and keys: NEW_STATION, the
 * association response, the 4-way handshake as the authenticator over the
 * control port (retransmitted each second), the TK installed and the port
 * opened, group rekeys; the station removed when its handshake fails.
 */
#include "ap-private.h"

#include <string.h>

#include "ap-cmds.h"
#include "rsn.h"

#define AP_STA_RETRANSMIT_MS 1000

/* IEEE 802.11-2020 table 9-49. */
enum {
	REASON_UNSPECIFIED = 1,
	REASON_MIC_FAILURE = 14, /* sent for a wrong passphrase, as hostapd */
	REASON_4WAY_TIMEOUT = 15,
};

static guint16
failure_reason(const GError *error)
{
	return g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE)
	               ? REASON_MIC_FAILURE
	       : g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_TIMEOUT)
	               ? REASON_4WAY_TIMEOUT
	               : REASON_UNSPECIFIED;
}

static void
sta_fail(ApSta *sta, const GError *error)
{
	g_autofree gchar *why = g_strdup_printf("its handshake failed: %s", error->message);

	g_warning("%s: station %s refused: %s", sta->ap->iface->name, sta->name, error->message);
	wifi_ap_sta_remove(sta, failure_reason(error), why);
}

static void
auth_send(const guint8 *frame, gsize len, gpointer user_data)
{
	ApSta *sta = user_data;
	WifiAp *ap = sta->ap;

	wifi_ap_send(ap,
	             wifi_rsn_msg_eapol(ap->iface->nl, ap->iface->ifindex, sta->mac, frame, len,
	                                !wifi_authenticator_has_ptk(sta->auth)),
	             NULL, NULL);
}

static void
key_done(int err, gpointer user_data)
{
	ApSta *sta = user_data;
	g_autoptr(GError) error = NULL;

	sta->request = 0;
	if (err < 0) {
		error = g_error_new(WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_CRYPTO,
		                    "the kernel refused its key or port: %s", g_strerror(-err));
		sta_fail(sta, error);
	}
}

static void
auth_install(const WifiHandshakeKey *key, gpointer user_data)
{
	ApSta *sta = user_data;
	WifiAp *ap = sta->ap;

	wifi_ap_send(ap, wifi_rsn_msg_new_key(ap->iface->nl, ap->iface->ifindex, key), NULL, NULL);
}

static gboolean
retransmit_fire(gpointer user_data)
{
	ApSta *sta = user_data;
	g_autoptr(GError) error = NULL;

	if (wifi_authenticator_timeout(sta->auth, &error))
		return G_SOURCE_CONTINUE;
	sta->timer = 0;
	sta_fail(sta, error);
	return G_SOURCE_REMOVE;
}

static void
auth_state(WifiAuthenticatorState old_state, WifiAuthenticatorState new_state, gpointer user_data)
{
	ApSta *sta = user_data;
	WifiAp *ap = sta->ap;
	gboolean waiting = new_state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG2 ||
	                   new_state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG4 ||
	                   new_state == WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2;

	/* Each message waited on has its second before the next send. */
	g_clear_handle_id(&sta->timer, g_source_remove);
	if (waiting)
		sta->timer = g_timeout_add(AP_STA_RETRANSMIT_MS, retransmit_fire, sta);
	if (new_state != WIFI_AUTHENTICATOR_STATE_COMPLETE ||
	    old_state != WIFI_AUTHENTICATOR_STATE_WAIT_MSG4)
		return;
	/* The TK went to the kernel in install_key, just before: the port
	 * opens after it, on the same socket, so in order. */
	sta->request = wifi_ap_send(
	        ap, wifi_rsn_msg_authorize(ap->iface->nl, ap->iface->ifindex, sta->mac), key_done,
	        sta);
	wifi_ap_sta_enter(sta, AP_STA_AUTHORIZED, "4-way handshake complete");
}

static gboolean
start_handshake(ApSta *sta, GError **error)
{
	static const WifiAuthenticatorCallbacks cb = {auth_send, auth_install, auth_state};
	WifiAp *ap = sta->ap;
	gboolean sae = sta->akm == WIFI_AKM_SUITE_SAE;
	WifiAuthenticatorConfig c = {
	        .akm = sta->akm,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_mgmt_cipher = sta->mfp ? WIFI_CIPHER_SUITE_BIP_CMAC : 0,
	        .pmk = sae ? sta->pmk : ap->pmk,
	        .pmk_len = sizeof(ap->pmk),
	        .pmkid = sae ? sta->pmkid : NULL,
	        .own_rsne = ap->rsne,
	        .own_rsne_len = ap->rsne_len,
	        .own_rsnxe = ap->rsnxe,
	        .own_rsnxe_len = ap->rsnxe_len,
	        .sta_rsne = sta->rsne,
	        .sta_rsne_len = sta->rsne_len,
	        .sta_rsnxe = sta->rsnxe,
	        .sta_rsnxe_len = sta->rsnxe_len,
	        .group_keys = &ap->gk,
	};

	memcpy(c.aa, ap->bssid, 6);
	memcpy(c.spa, sta->mac, 6);
	sta->auth = wifi_authenticator_new(&c, &cb, sta, error);
	return sta->auth != NULL && wifi_authenticator_start(sta->auth, error);
}

static void
sta_added(int err, gpointer user_data)
{
	ApSta *sta = user_data;
	WifiAp *ap = sta->ap;
	g_autoptr(GError) error = NULL;
	guint8 rates[2 + 8];

	sta->request = 0;
	if (err < 0) {
		g_warning("%s: station %s: the kernel refused to add it: %s", ap->iface->name,
		          sta->name, g_strerror(-err));
		sta->state = AP_STA_AUTHENTICATED; /* nothing to delete */
		wifi_ap_sta_remove(sta, REASON_UNSPECIFIED, "the kernel refused it");
		return;
	}
	rates[0] = 1; /* Supported Rates, the AP's first eight */
	rates[1] = (guint8)MIN(ap->ies.n_rates, 8);
	memcpy(rates + 2, ap->ies.rates, rates[1]);
	wifi_ap_send_frame(ap, wifi_mgmt_build_assoc_resp(ap->bssid, sta->mac, sta->reassoc,
	                                                  wifi_ap_capabilities(&ap->ies), 0,
	                                                  sta->aid, rates, 2u + rates[1]));
	if (ap->open) {
		sta->request = wifi_ap_send(
		        ap, wifi_rsn_msg_authorize(ap->iface->nl, ap->iface->ifindex, sta->mac),
		        key_done, sta);
		wifi_ap_sta_enter(sta, AP_STA_AUTHORIZED, "associated, open");
		return;
	}
	wifi_ap_sta_enter(sta, AP_STA_KEYING, "associated");
	if (!start_handshake(sta, &error))
		sta_fail(sta, error);
}

void
wifi_ap_sta_add(ApSta *sta)
{
	WifiAp *ap = sta->ap;

	sta->request = wifi_ap_send(ap,
	                            wifi_ap_msg_new_station(ap->iface->nl, ap->iface->ifindex,
	                                                    sta->mac, sta->aid,
	                                                    sta->listen_interval, sta->capabilities,
	                                                    sta->rates, sta->n_rates, sta->mfp),
	                            sta_added, sta);
}

void
wifi_ap_sta_eapol(WifiAp *ap, const guint8 mac[6], const guint8 *frame, gsize len)
{
	ApSta *sta = wifi_ap_sta_lookup(ap, mac);
	g_autoptr(GError) error = NULL;

	if (sta == NULL || sta->auth == NULL)
		return;
	switch (wifi_authenticator_rx(sta->auth, frame, len, &error)) {
	case WIFI_HANDSHAKE_RX_ACCEPTED:
		break;
	case WIFI_HANDSHAKE_RX_DROPPED:
		g_debug("%s: station %s: EAPOL frame dropped: %s", ap->iface->name, sta->name,
		        error != NULL ? error->message : "");
		break;
	case WIFI_HANDSHAKE_RX_FAILED:
		sta_fail(sta, error);
		break;
	}
}

void
wifi_ap_sta_rekey_all(WifiAp *ap)
{
	GHashTableIter it;
	gpointer value;
	GSList *failed = NULL;

	g_hash_table_iter_init(&it, ap->stations);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		ApSta *sta = value;
		g_autoptr(GError) error = NULL;

		if (sta->auth != NULL && !wifi_authenticator_rekey_group(sta->auth, &error))
			failed = g_slist_prepend(failed, sta);
	}
	for (GSList *l = failed; l != NULL; l = l->next)
		wifi_ap_sta_remove(l->data, REASON_UNSPECIFIED, "its group key could not be sent");
	g_slist_free(failed);
}
