/* ap.c - the access point's BSS: its configuration checked, its start in
 * steps (management frames registered, START_AP, the group keys installed
 * and made the default), its stop, the group key rotation, and the
 * dispatch of the interface's events to the station table (ap-sta.c).
 */
#include "ap-private.h"

#include <string.h>

#include "ap-cmds.h"
#include "rsn-crypto.h"
#include "joind-secret.h"

const gchar *
wifi_ap_state_to_string(WifiApState state)
{
	static const gchar *const names[] = {
	        [WIFI_AP_STATE_IDLE] = "idle",
	        [WIFI_AP_STATE_STARTING] = "starting",
	        [WIFI_AP_STATE_STARTED] = "started",
	        [WIFI_AP_STATE_STOPPING] = "stopping",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == WIFI_AP_STATE_LAST + 1);

	if ((guint)state < G_N_ELEMENTS(names))
		return names[state];
	return "unknown";
}

static void
ap_cancel_requests(WifiAp *self)
{
	for (guint i = 0; i < self->requests->len; i++)
		wifi_nl_cancel(self->iface->nl,
		               GPOINTER_TO_UINT(g_ptr_array_index(self->requests, i)));
	g_ptr_array_set_size(self->requests, 0);
	self->n_pending = 0;
}

static gboolean
rekey_fire(gpointer user_data)
{
	wifi_ap_rekey_group(user_data);
	return G_SOURCE_CONTINUE;
}

static gboolean
check_fire(gpointer user_data)
{
	wifi_ap_check_stations(user_data);
	return G_SOURCE_CONTINUE;
}

void
wifi_ap_enter(WifiAp *self, WifiApState state, const gchar *reason)
{
	WifiApState old = self->state;

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->iface->name, NULL, "access point"},
	                       wifi_ap_state_to_string(old), wifi_ap_state_to_string(state),
	                       reason);
	self->state = state;
	g_clear_handle_id(&self->rekey_timer, g_source_remove);
	g_clear_handle_id(&self->check_timer, g_source_remove);
	if (self->check_request != 0)
		wifi_nl_cancel(self->iface->nl, self->check_request);
	self->check_request = 0;
	if (state != WIFI_AP_STATE_STARTING)
		ap_cancel_requests(self);
	if (state == WIFI_AP_STATE_IDLE || state == WIFI_AP_STATE_STOPPING)
		g_hash_table_remove_all(self->stations);
	if (state == WIFI_AP_STATE_STARTED && self->rekey_interval > 0 && !self->open)
		self->rekey_timer = g_timeout_add_seconds(self->rekey_interval, rekey_fire, self);
	if (state == WIFI_AP_STATE_STARTED)
		self->check_timer =
		        g_timeout_add_seconds(WIFI_AP_STATION_CHECK_S, check_fire, self);
	if (self->cb.state_changed != NULL)
		self->cb.state_changed(old, state, reason, self->user_data);
}

guint
wifi_ap_send(WifiAp *self, struct nl_msg *msg, WifiNlDoneFunc done, gpointer user_data)
{
	return wifi_nl_send(self->iface->nl, msg, NULL, done, user_data, NULL);
}

/* The scanner's "scanning" notice: nothing shows it in AP mode. */
static void
scanning_changed(gboolean scanning, gpointer user_data)
{
	(void)scanning;
	(void)user_data;
}

WifiAp *
wifi_ap_new(WifiIface *iface, const guint8 address[6], const WifiApCallbacks *callbacks,
            gpointer user_data)
{
	WifiAp *self = g_new0(WifiAp, 1);

	self->iface = wifi_iface_ref(iface);
	memcpy(self->bssid, address, 6);
	if (callbacks != NULL)
		self->cb = *callbacks;
	self->user_data = user_data;
	self->stations = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, wifi_ap_sta_free);
	self->requests = g_ptr_array_new();
	self->scanner = wifi_scanner_new(iface, wifi_ap_scan_results, scanning_changed, self);
	self->cancel = g_cancellable_new();
	/* Without the kernel's random octets the tokens are still unique per
	 * address; they only become guessable. */
	if (!wifi_random_bytes(self->token_key, sizeof(self->token_key), NULL))
		wifi_iface_warning(iface, "no random key for SAE's anti-clogging tokens");
	return self;
}

void
wifi_ap_free(WifiAp *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->rekey_timer, g_source_remove);
	g_clear_handle_id(&self->check_timer, g_source_remove);
	if (self->check_request != 0)
		wifi_nl_cancel(self->iface->nl, self->check_request);
	g_cancellable_cancel(self->cancel);
	g_object_unref(self->cancel);
	wifi_scanner_free(self->scanner);
	ap_cancel_requests(self);
	g_hash_table_destroy(self->stations);
	if (self->state == WIFI_AP_STATE_STARTING || self->state == WIFI_AP_STATE_STARTED)
		wifi_ap_send(self, wifi_ap_msg_stop(self->iface->nl, self->iface->ifindex), NULL,
		             NULL);
	g_ptr_array_unref(self->requests);
	g_clear_pointer(&self->beacon_head, g_bytes_unref);
	g_clear_pointer(&self->beacon_tail, g_bytes_unref);
	g_clear_pointer(&self->passphrase, joind_secret_wipe);
	wifi_iface_unref(self->iface);
	/* The PSK and group keys live in the struct. */
	joind_secret_clear(self, sizeof(*self));
	g_free(self);
}

WifiApState
wifi_ap_get_state(const WifiAp *self)
{
	return self->state;
}

guint32
wifi_ap_get_frequency(const WifiAp *self)
{
	return self->state == WIFI_AP_STATE_IDLE ? 0 : self->freq;
}

gchar *
wifi_ap_get_ssid_display(const WifiAp *self)
{
	return joind_ssid_to_display(self->ssid, self->ssid_len);
}

WifiApSecurity
wifi_ap_get_security(const WifiAp *self)
{
	return self->security;
}

gboolean
wifi_ap_can_protect_frames(const WifiAp *self)
{
	return wifi_wiphy_supports_cipher(self->iface->wiphy, WIFI_CIPHER_SUITE_BIP_CMAC);
}

guint
wifi_ap_get_n_stations(const WifiAp *self)
{
	GHashTableIter it;
	gpointer value;
	guint n = 0;

	g_hash_table_iter_init(&it, self->stations);
	while (g_hash_table_iter_next(&it, NULL, &value))
		n += ((ApSta *)value)->state == AP_STA_AUTHORIZED;
	return n;
}

void
wifi_ap_handle_event(WifiAp *self, guint8 cmd, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	struct nlattr *mac = attrs[NL80211_ATTR_MAC];

	switch (cmd) {
	case NL80211_CMD_TRIGGER_SCAN:
	case NL80211_CMD_NEW_SCAN_RESULTS:
	case NL80211_CMD_SCAN_ABORTED:
		wifi_scanner_handle_event(self->scanner, cmd, attrs);
		return;
	default:
		break;
	}
	if (self->state != WIFI_AP_STATE_STARTED)
		return;
	switch (cmd) {
	case NL80211_CMD_FRAME:
		if (frame != NULL)
			wifi_ap_sta_frame(self, nla_data(frame), (gsize)nla_len(frame));
		break;
	case NL80211_CMD_CONTROL_PORT_FRAME:
		if (frame != NULL && mac != NULL && nla_len(mac) == 6)
			wifi_ap_sta_eapol(self, nla_data(mac), nla_data(frame),
			                  (gsize)nla_len(frame));
		break;
	case NL80211_CMD_FRAME_TX_STATUS:
		if (attrs[NL80211_ATTR_COOKIE] != NULL)
			wifi_ap_sta_tx_status(self, nla_get_u64(attrs[NL80211_ATTR_COOKIE]),
			                      attrs[NL80211_ATTR_ACK] != NULL);
		break;
	case NL80211_CMD_DEL_STATION:
		if (mac != NULL && nla_len(mac) == 6)
			wifi_ap_sta_deleted(self, nla_data(mac));
		break;
	case NL80211_CMD_STOP_AP:
		wifi_ap_enter(self, WIFI_AP_STATE_IDLE, "the kernel stopped the BSS");
		break;
	default:
		break;
	}
}
