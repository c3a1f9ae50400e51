/* ap-sta-sae.c - SAE authentication as the access point (the responder):
 * the station's commit starts an exchange of the security room's SAE
 * (security/sae.c, which answers a commit received in Nothing), with
 * hash-to-element when the station's commit says so (status 126) and
 * hunting and pecking otherwise; once accepted, its PMK and PMKID key the
 * station's 4-way handshake. An exchange that fails removes the station.
 *
 * Anti-clogging (12.4.6): with ANTI_CLOGGING_THRESHOLD exchanges under
 * way, a new commit is answered with status 76 and a token, HMAC-SHA256 of
 * the station's address under a key of this AP's, and only a commit that
 * carries it starts an exchange: the costly part of SAE then waits until
 * the sender has shown that it receives at its address.
 */
#include "ap-private.h"

#include <string.h>

#include "joind-mac.h"
#include "mgmt.h"
#include "rsn-crypto.h"

#define AUTH_ALG_SAE 3
/* Exchanges under way beyond which a new one must first show a token
 * (hostapd's sae_anti_clogging_threshold). */
#define ANTI_CLOGGING_THRESHOLD 5
#define TOKEN_LEN               32
#define EID_EXTENSION           255

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
		wifi_iface_warning(sta->ap->iface, "station %s refused: %s", sta->name,
		                   error->message);
		wifi_ap_sta_remove(sta, 0, why);
		return;
	}
	memcpy(sta->pmk, wifi_sae_get_pmk(sta->sae), sizeof(sta->pmk));
	memcpy(sta->pmkid, wifi_sae_get_pmkid(sta->sae), sizeof(sta->pmkid));
	sta->sae_accepted = TRUE;
	wifi_iface_info(sta->ap->iface, "station %s authenticated (SAE, group %u, %s)", sta->name,
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

static guint
exchanges_under_way(WifiAp *ap)
{
	GHashTableIter it;
	gpointer value;
	guint n = 0;

	g_hash_table_iter_init(&it, ap->stations);
	while (g_hash_table_iter_next(&it, NULL, &value))
		n += ((ApSta *)value)->sae != NULL && !((ApSta *)value)->sae_accepted;
	return n;
}

static gboolean
token_for(WifiAp *ap, const guint8 mac[6], guint8 token[TOKEN_LEN])
{
	WifiIov iov = {mac, 6};

	return wifi_hmac("SHA256", ap->token_key, sizeof(ap->token_key), &iov, 1, token, TOKEN_LEN,
	                 NULL, NULL);
}

static void
ask_for_token(WifiAp *ap, const WifiMgmtRequest *r, gboolean h2e, guint16 group,
              const guint8 token[TOKEN_LEN])
{
	g_autoptr(GByteArray) body = g_byte_array_new();
	guint8 head[5] = {(guint8)group, (guint8)(group >> 8), EID_EXTENSION, TOKEN_LEN + 1,
	                  WIFI_SAE_EXT_TOKEN_CONTAINER};

	/* With H2E the token comes in its container element. */
	g_byte_array_append(body, head, h2e ? 5 : 2);
	g_byte_array_append(body, token, TOKEN_LEN);
	wifi_ap_send_frame(ap, wifi_mgmt_build_auth(ap->bssid, r->sa, AUTH_ALG_SAE, 1,
	                                            WIFI_SAE_STATUS_ANTI_CLOGGING, body->data,
	                                            body->len));
}

/* Under load, a commit without this station's token is answered with one
 * (FALSE); with it, *body is the commit as the exchange reads it (without
 * hunting and pecking's token, which comes before the scalar). */
static gboolean
token_checked(WifiAp *ap, const WifiMgmtRequest *r, gboolean h2e, GByteArray *body)
{
	WifiSaeCommit commit;
	guint8 token[TOKEN_LEN];
	gchar name[JOIND_MAC_STRING_LEN];
	gsize prime_len;

	g_byte_array_append(body, r->body, (guint)r->body_len);
	if (exchanges_under_way(ap) < ANTI_CLOGGING_THRESHOLD || !token_for(ap, r->sa, token))
		return TRUE;
	if (wifi_sae_commit_parse(r->body, r->body_len, h2e, TOKEN_LEN, &commit, NULL) &&
	    commit.token_len == TOKEN_LEN &&
	    wifi_equal_const_time(commit.token, token, TOKEN_LEN)) {
		prime_len = wifi_sae_group_prime_len(commit.group);
		g_byte_array_set_size(body, 0);
		commit.token = NULL;
		wifi_sae_commit_build(body, &commit, h2e, prime_len, 2 * prime_len);
		return TRUE;
	}
	wifi_iface_info(ap->iface, "station %s: SAE commit under load, a token asked for",
	                joind_mac_to_string(r->sa, name));
	ask_for_token(ap, r, h2e, r->body_len >= 2 ? wifi_mgmt_le16(r->body) : 19, token);
	return FALSE;
}

void
wifi_ap_sta_sae_rx(WifiAp *ap, const WifiMgmtRequest *r)
{
	g_autoptr(GByteArray) body = g_byte_array_new();
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
		gboolean h2e = r->status == WIFI_SAE_STATUS_HASH_TO_ELEMENT;

		if (!commit || !token_checked(ap, r, h2e, body))
			return;
		sta = wifi_ap_sta_new(ap, r->sa);
		sta->sae_h2e = h2e;
		sta->sae = sae_new(sta, h2e, &error);
		if (sta->sae == NULL) {
			wifi_ap_sta_remove(sta, 0, error->message);
			return;
		}
	} else {
		g_byte_array_append(body, r->body, (guint)r->body_len);
	}
	if (sta->sae != NULL && !sta->sae_accepted)
		wifi_sae_rx(sta->sae, r->auth_seq, r->status, body->data, body->len);
}
