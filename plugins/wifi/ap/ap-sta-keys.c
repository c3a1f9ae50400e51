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
/* How long message 1 waits for the association response's
 * acknowledgement, at most. */
#define AP_STA_ASSOC_ACK_MS 200

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

	wifi_iface_warning(sta->ap->iface, "station %s refused: %s", sta->name, error->message);
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

/* The station has its association response (or it was lost, or the
 * kernel did not say in time): the port stays closed until its keys. */
static void
sta_associated(ApSta *sta, const gchar *how)
{
	WifiAp *ap = sta->ap;
	g_autoptr(GError) error = NULL;

	g_clear_handle_id(&sta->timer, g_source_remove);
	sta->assoc_cookie = 0;
	if (ap->open) {
		sta->request = wifi_ap_send(
		        ap, wifi_rsn_msg_authorize(ap->iface->nl, ap->iface->ifindex, sta->mac),
		        key_done, sta);
		wifi_ap_sta_enter(sta, AP_STA_AUTHORIZED, "associated, open");
		return;
	}
	wifi_ap_sta_enter(sta, AP_STA_KEYING, how);
	if (!start_handshake(sta, &error))
		sta_fail(sta, error);
}

static const gchar *
ack_text(gboolean acked)
{
	return acked ? "association response acknowledged"
	             : "association response not acknowledged";
}

void
wifi_ap_sta_tx_status(WifiAp *ap, guint64 cookie, gboolean acked)
{
	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, ap->stations);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		ApSta *sta = value;

		if (sta->state == AP_STA_ADDING && sta->assoc_cookie == cookie && cookie != 0) {
			sta_associated(sta, ack_text(acked));
			return;
		}
	}
	ap->early[ap->early_next].cookie = cookie;
	ap->early[ap->early_next].acked = acked;
	ap->early_next = (ap->early_next + 1) % G_N_ELEMENTS(ap->early);
}

static gboolean
assoc_ack_timeout(gpointer user_data)
{
	ApSta *sta = user_data;

	sta->timer = 0;
	sta_associated(sta, "associated (no transmission status)");
	return G_SOURCE_REMOVE;
}

static void
on_assoc_resp_cookie(struct nlattr **attrs, gpointer user_data)
{
	ApSta *sta = user_data;

	if (attrs[NL80211_ATTR_COOKIE] != NULL)
		sta->assoc_cookie = nla_get_u64(attrs[NL80211_ATTR_COOKIE]);
}

/* The reply is in: the status may have come before it. */
static void
assoc_resp_sent(int err, gpointer user_data)
{
	ApSta *sta = user_data;
	WifiAp *ap = sta->ap;

	sta->request = 0;
	for (guint i = 0; sta->assoc_cookie != 0 && i < G_N_ELEMENTS(ap->early); i++) {
		if (ap->early[i].cookie == sta->assoc_cookie) {
			ap->early[i].cookie = 0;
			sta_associated(sta, ack_text(ap->early[i].acked));
			return;
		}
	}
}

/* Message 1 goes out once the station acknowledged its association
 * response: sent at once, it can overtake the response (data and
 * management frames take different queues) and the station drops it, so
 * the handshake would start a second later. */
static void
send_assoc_resp(ApSta *sta)
{
	WifiAp *ap = sta->ap;
	guint8 rates[2 + 8];
	GBytes *frame;

	rates[0] = 1; /* Supported Rates, the AP's first eight */
	rates[1] = (guint8)MIN(ap->ies.n_rates, 8);
	memcpy(rates + 2, ap->ies.rates, rates[1]);
	frame = wifi_mgmt_build_assoc_resp(ap->bssid, sta->mac, sta->reassoc,
	                                   wifi_ap_capabilities(&ap->ies), 0, sta->aid, rates,
	                                   2u + rates[1]);
	sta->request = wifi_nl_send(
	        ap->iface->nl, wifi_ap_msg_frame(ap->iface->nl, ap->iface->ifindex, frame, TRUE),
	        on_assoc_resp_cookie, assoc_resp_sent, sta, NULL);
	g_bytes_unref(frame);
	sta->timer = g_timeout_add(AP_STA_ASSOC_ACK_MS, assoc_ack_timeout, sta);
}

static void
sta_added(int err, gpointer user_data)
{
	ApSta *sta = user_data;

	sta->request = 0;
	if (err < 0) {
		wifi_iface_warning(sta->ap->iface, "station %s: the kernel refused to add it: %s",
		                   sta->name, g_strerror(-err));
		sta->state = AP_STA_AUTHENTICATED; /* nothing to delete */
		wifi_ap_sta_remove(sta, REASON_UNSPECIFIED, "the kernel refused it");
		return;
	}
	send_assoc_resp(sta);
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
		wifi_iface_debug(ap->iface, "station %s: EAPOL frame dropped: %s", sta->name,
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
