/* ap-sta.c - the access point's station table: probe requests answered,
 * open system authentication, (re)association checked against what the
 * AP offers and admitted with NEW_STATION, the station's 4-way handshake
 * as the authenticator (retransmitted each second), its port opened when
 * the handshake completes, and its end (its own deauthentication, ours,
 * or the kernel's).
 *
 *   authenticated --assoc ok, NEW_STATION--> adding --done, assoc resp,
 *   msg1--> keying --msg4, TK, SET_STATION authorized--> authorized
 *
 * The keying half is ap-sta-keys.c.
 *
 * wifi_ap_sta_enter() is the one place a station's state changes.
 */
#include "ap-private.h"

#include <string.h>

#include "ap-cmds.h"
#include "codes.h"
#include "ie.h"
#include "joind-mac.h"
#include "joind-secret.h"
#include "mgmt.h"
#include "rsn.h"

/* IEEE 802.11-2020 table 9-50 and 9-49. */
enum {
	STATUS_SUCCESS = 0,
	STATUS_UNSPECIFIED = 1,
	STATUS_UNSUPPORTED_AUTH_ALG = 13,
	STATUS_AP_FULL = 17,
	STATUS_ROBUST_MGMT_POLICY = 31,
	STATUS_INVALID_IE = 40,
	STATUS_INVALID_GROUP_CIPHER = 41,
	STATUS_INVALID_PAIRWISE_CIPHER = 42,
	STATUS_INVALID_AKMP = 43,
	REASON_UNSPECIFIED = 1,
	REASON_CLASS3_NOT_ASSOCIATED = 7,
};

static const gchar *
sta_state_to_string(ApStaState state)
{
	static const gchar *const names[] = {
	        [AP_STA_AUTHENTICATED] = "authenticated",
	        [AP_STA_ADDING] = "adding",
	        [AP_STA_KEYING] = "keying",
	        [AP_STA_AUTHORIZED] = "authorized",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == AP_STA_STATE_LAST + 1);

	return names[state];
}

gint64
wifi_ap_sta_key(const guint8 mac[6])
{
	gint64 key = 0;

	for (guint i = 0; i < 6; i++)
		key = (key << 8) | mac[i];
	return key;
}

ApSta *
wifi_ap_sta_lookup(WifiAp *ap, const guint8 mac[6])
{
	gint64 key = wifi_ap_sta_key(mac);

	return g_hash_table_lookup(ap->stations, &key);
}

void
wifi_ap_sta_enter(ApSta *sta, ApStaState state, const gchar *reason)
{
	g_autofree gchar *machine = g_strconcat("station ", sta->name, NULL);

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", sta->ap->iface->name, NULL, machine},
	                       sta_state_to_string(sta->state), sta_state_to_string(state), reason);
	sta->state = state;
	if (state == AP_STA_AUTHORIZED && sta->ap->cb.station_changed != NULL)
		sta->ap->cb.station_changed(sta->mac, TRUE, sta->ap->user_data);
}

void
wifi_ap_sta_free(gpointer data)
{
	ApSta *sta = data;

	g_clear_handle_id(&sta->timer, g_source_remove);
	if (sta->request != 0)
		wifi_nl_cancel(sta->ap->iface->nl, sta->request);
	if (sta->state == AP_STA_AUTHORIZED && sta->ap->cb.station_changed != NULL)
		sta->ap->cb.station_changed(sta->mac, FALSE, sta->ap->user_data);
	wifi_authenticator_free(sta->auth);
	wifi_ap_sta_sae_clear(sta);
	/* SAE's PMK lives in the struct. */
	joind_secret_clear(sta, sizeof(*sta));
	g_free(sta);
}

void
wifi_ap_send_frame(WifiAp *ap, GBytes *frame)
{
	wifi_ap_send(ap, wifi_ap_msg_frame(ap->iface->nl, ap->iface->ifindex, frame, FALSE), NULL,
	             NULL);
	g_bytes_unref(frame);
}

/* Ends a station: the kernel deauthenticates it (when it was added) and
 * the entry goes. */
void
wifi_ap_sta_remove(ApSta *sta, guint16 reason, const gchar *why)
{
	WifiAp *ap = sta->ap;

	wifi_iface_info(ap->iface, "station %s leaves (%s)", sta->name, why);
	if (sta->state != AP_STA_AUTHENTICATED)
		wifi_ap_send(ap,
		             wifi_ap_msg_del_station(ap->iface->nl, ap->iface->ifindex, sta->mac,
		                                     reason),
		             NULL, NULL);
	else if (reason != 0)
		wifi_ap_send_frame(ap, wifi_mgmt_build_leave(ap->bssid, sta->mac, FALSE, reason));
	g_hash_table_remove(ap->stations, &sta->key);
}

static void
on_probe(WifiAp *ap, const WifiMgmtRequest *r)
{
	if (!wifi_ap_probe_matches(&ap->ies, r->ssid, r->has_ssid ? r->ssid_len : 0))
		return;
	wifi_ap_send_frame(ap, wifi_ap_probe_response(&ap->ies, r->sa));
}

ApSta *
wifi_ap_sta_new(WifiAp *ap, const guint8 mac[6])
{
	ApSta *sta = g_new0(ApSta, 1);

	sta->ap = ap;
	memcpy(sta->mac, mac, 6);
	sta->key = wifi_ap_sta_key(mac);
	joind_mac_to_string(mac, sta->name);
	sta->state = AP_STA_AUTHENTICATED;
	g_hash_table_insert(ap->stations, &sta->key, sta);
	return sta;
}

static void
on_auth(WifiAp *ap, const WifiMgmtRequest *r)
{
	ApSta *sta = wifi_ap_sta_lookup(ap, r->sa);
	gchar name[JOIND_MAC_STRING_LEN];

	if (r->auth_algorithm == 3 && wifi_ap_offers_sae(ap)) {
		wifi_ap_sta_sae_rx(ap, r);
		return;
	}
	/* Open system serves WPA2 and open APs; WPA3 needs SAE. */
	if (r->auth_algorithm != 0 || r->auth_seq != 1 || (!ap->open && !wifi_ap_offers_psk(ap))) {
		wifi_iface_info(ap->iface,
		                "station %s asks for authentication algorithm %u (seq %u): refused",
		                joind_mac_to_string(r->sa, name), r->auth_algorithm, r->auth_seq);
		wifi_ap_send_frame(ap, wifi_mgmt_build_auth(ap->bssid, r->sa, r->auth_algorithm,
		                                            (guint16)(r->auth_seq + 1),
		                                            STATUS_UNSUPPORTED_AUTH_ALG, NULL, 0));
		return;
	}
	/* A station authenticating again starts over. */
	if (sta != NULL)
		wifi_ap_sta_remove(sta, 0, "it authenticates again");
	sta = wifi_ap_sta_new(ap, r->sa);
	wifi_iface_info(ap->iface, "station %s authenticated (open system)", sta->name);
	wifi_ap_send_frame(ap,
	                   wifi_mgmt_build_auth(ap->bssid, r->sa, 0, 2, STATUS_SUCCESS, NULL, 0));
}

/* The AKM the station's RSNE names, if the AP offers it and the station
 * authenticated for it (SAE's exchange before SAE's AKM): its suite, or 0
 * with the status to refuse with. */
static guint
check_akm(WifiAp *ap, ApSta *sta, const WifiRsnInfo *info, guint16 *status)
{
	*status = STATUS_INVALID_AKMP;
	if (info->akms == WIFI_AKM_PSK && wifi_ap_offers_psk(ap) && !sta->sae_accepted)
		return WIFI_AKM_SUITE_PSK;
	if (info->akms != WIFI_AKM_SAE || !sta->sae_accepted)
		return 0;
	/* SAE goes with management frame protection. */
	if (!(info->capabilities & WIFI_RSN_CAP_MFPC)) {
		*status = STATUS_ROBUST_MGMT_POLICY;
		return 0;
	}
	return WIFI_AKM_SUITE_SAE;
}

/* What the station's RSNE asks for fits what we offer: the status to
 * answer with; the station's AKM and whether management frame protection
 * is on. */
static guint16
check_rsne(WifiAp *ap, ApSta *sta, const WifiMgmtRequest *r)
{
	WifiRsnInfo info;
	guint16 status;

	sta->mfp = FALSE;
	if (ap->open)
		return r->rsne == NULL ? STATUS_SUCCESS : STATUS_INVALID_IE;
	if (r->rsne == NULL || !wifi_ie_parse_rsn(r->rsne + 2, r->rsne_len - 2, &info, NULL))
		return STATUS_INVALID_IE;
	sta->akm = check_akm(ap, sta, &info, &status);
	if (sta->akm == 0)
		return status;
	if (info.pairwise_ciphers != WIFI_CIPHER_CCMP)
		return STATUS_INVALID_PAIRWISE_CIPHER;
	if (info.group_cipher != WIFI_CIPHER_CCMP)
		return STATUS_INVALID_GROUP_CIPHER;
	if (((info.capabilities & WIFI_RSN_CAP_MFPR) && !ap->mfpc) ||
	    (ap->mfpr && !(info.capabilities & WIFI_RSN_CAP_MFPC)))
		return STATUS_ROBUST_MGMT_POLICY;
	if (info.group_mgmt_cipher != 0 && info.group_mgmt_cipher != WIFI_CIPHER_BIP_CMAC)
		return STATUS_ROBUST_MGMT_POLICY;
	sta->mfp = ap->mfpc && (info.capabilities & WIFI_RSN_CAP_MFPC);
	return STATUS_SUCCESS;
}

static guint16
next_aid(WifiAp *ap)
{
	for (guint16 aid = 1; aid <= AP_MAX_AID; aid++) {
		GHashTableIter it;
		gpointer value;
		gboolean used = FALSE;

		g_hash_table_iter_init(&it, ap->stations);
		while (!used && g_hash_table_iter_next(&it, NULL, &value))
			used = ((ApSta *)value)->aid == aid;
		if (!used)
			return aid;
	}
	return 0;
}

static guint16
check_assoc(WifiAp *ap, ApSta *sta, const WifiMgmtRequest *r)
{
	guint n = 0;
	GHashTableIter it;
	gpointer value;

	if (!r->has_ssid || r->ssid_len != ap->ssid_len ||
	    memcmp(r->ssid, ap->ssid, ap->ssid_len) != 0)
		return STATUS_UNSPECIFIED;
	g_hash_table_iter_init(&it, ap->stations);
	while (g_hash_table_iter_next(&it, NULL, &value))
		n += value != sta && ((ApSta *)value)->state != AP_STA_AUTHENTICATED;
	if (n >= ap->max_stations)
		return STATUS_AP_FULL;
	return check_rsne(ap, sta, r);
}

static void
on_assoc(WifiAp *ap, const WifiMgmtRequest *r)
{
	ApSta *sta = wifi_ap_sta_lookup(ap, r->sa);
	gboolean reassoc = r->kind == WIFI_MGMT_REQUEST_REASSOC;
	gchar buf[16];
	guint16 status;

	if (sta == NULL || sta->state != AP_STA_AUTHENTICATED) {
		/* Class 3 frame from a station not authenticated (or
		 * associating twice): it starts over. */
		if (sta != NULL)
			wifi_ap_sta_remove(sta, REASON_UNSPECIFIED, "it associates again");
		wifi_ap_send_frame(ap, wifi_mgmt_build_leave(ap->bssid, r->sa, FALSE,
		                                             REASON_CLASS3_NOT_ASSOCIATED));
		return;
	}
	status = check_assoc(ap, sta, r);
	if (status == STATUS_SUCCESS && (sta->aid = next_aid(ap)) == 0)
		status = STATUS_AP_FULL;
	if (status != STATUS_SUCCESS) {
		wifi_iface_info(ap->iface, "station %s refused: %s", sta->name,
		                wifi_status_to_string(status, buf));
		wifi_ap_send_frame(ap, wifi_mgmt_build_assoc_resp(ap->bssid, sta->mac, reassoc,
		                                                  wifi_ap_capabilities(&ap->ies),
		                                                  status, 0, NULL, 0));
		return;
	}
	sta->reassoc = reassoc;
	sta->capabilities = r->capabilities;
	sta->listen_interval = r->listen_interval;
	memcpy(sta->rates, r->rates, r->n_rates);
	sta->n_rates = r->n_rates;
	if (r->rsne != NULL)
		memcpy(sta->rsne, r->rsne, r->rsne_len);
	sta->rsne_len = r->rsne != NULL ? r->rsne_len : 0;
	if (r->rsnxe != NULL)
		memcpy(sta->rsnxe, r->rsnxe, r->rsnxe_len);
	sta->rsnxe_len = r->rsnxe != NULL ? r->rsnxe_len : 0;
	wifi_ap_sta_enter(sta, AP_STA_ADDING, sta->mfp ? "associating, MFP" : "associating");
	wifi_ap_sta_add(sta);
}

void
wifi_ap_sta_frame(WifiAp *ap, const guint8 *frame, gsize len)
{
	g_autoptr(GError) error = NULL;
	WifiMgmtLeave leave;
	WifiMgmtRequest r;
	ApSta *sta;

	if (wifi_mgmt_parse_leave(frame, len, &leave, NULL)) {
		sta = wifi_ap_sta_lookup(ap, leave.sa);
		if (sta != NULL)
			wifi_ap_sta_remove(sta, 0, wifi_reason_to_string(leave.reason));
		return;
	}
	if (!wifi_mgmt_parse_request(frame, len, &r, &error)) {
		wifi_iface_debug(ap->iface, "management frame dropped: %s", error->message);
		return;
	}
	if (r.kind == WIFI_MGMT_REQUEST_PROBE) {
		on_probe(ap, &r);
		return;
	}
	if (memcmp(r.bssid, ap->bssid, 6) != 0)
		return;
	if (r.kind == WIFI_MGMT_REQUEST_AUTH)
		on_auth(ap, &r);
	else
		on_assoc(ap, &r);
}

void
wifi_ap_sta_deleted(WifiAp *ap, const guint8 mac[6])
{
	ApSta *sta = wifi_ap_sta_lookup(ap, mac);

	if (sta == NULL)
		return;
	wifi_iface_info(ap->iface, "station %s removed by the kernel", sta->name);
	g_hash_table_remove(ap->stations, &sta->key);
}
