/* ap-sta-table.c - what the access point knows of its stations from the
 * kernel: a GET_STATION dump every WIFI_AP_STATION_CHECK_S seconds fills
 * each station's signal, transmit rate and idle time, and a station idle
 * longer than the configured limit is deauthenticated (reason 4,
 * inactivity), as hostapd's ap_max_inactivity does.
 */
#include "ap-private.h"

#include <string.h>

#include "sta-info.h"

#define REASON_INACTIVITY 4

static void
on_station_entry(struct nlattr **attrs, gpointer user_data)
{
	WifiAp *ap = user_data;
	struct nlattr *mac = attrs[NL80211_ATTR_MAC];
	struct nlattr *info = attrs[NL80211_ATTR_STA_INFO];
	ApSta *sta;

	if (mac == NULL || nla_len(mac) != 6 || info == NULL)
		return;
	sta = wifi_ap_sta_lookup(ap, nla_data(mac));
	if (sta == NULL ||
	    !wifi_sta_info_parse(nla_data(info), (gsize)nla_len(info), &sta->info, NULL))
		return;
	sta->checked = TRUE;
}

static void
on_stations_done(int err, gpointer user_data)
{
	WifiAp *ap = user_data;
	GHashTableIter it;
	gpointer value;
	GSList *idle = NULL;

	ap->check_request = 0;
	if (err < 0) {
		wifi_iface_debug(ap->iface, "reading the stations failed: %s", g_strerror(-err));
		return;
	}
	g_hash_table_iter_init(&it, ap->stations);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		ApSta *sta = value;

		if (sta->checked && sta->info.has_inactive_time &&
		    sta->info.inactive_time_ms / 1000 >= ap->max_inactivity)
			idle = g_slist_prepend(idle, sta);
		sta->checked = FALSE;
	}
	for (GSList *l = idle; l != NULL; l = l->next)
		wifi_ap_sta_remove(l->data, REASON_INACTIVITY, "inactive");
	g_slist_free(idle);
}

void
wifi_ap_check_stations(WifiAp *self)
{
	struct nl_msg *msg;

	if (self->state != WIFI_AP_STATE_STARTED || self->check_request != 0)
		return;
	msg = wifi_nl_msg_new(self->iface->nl, NL80211_CMD_GET_STATION, NLM_F_DUMP);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, self->iface->ifindex);
	self->check_request =
	        wifi_nl_send(self->iface->nl, msg, on_station_entry, on_stations_done, self, NULL);
}

GArray *
wifi_ap_get_stations(WifiAp *self)
{
	GArray *out = g_array_new(FALSE, TRUE, sizeof(WifiApStation));
	GHashTableIter it;
	gpointer value;

	g_hash_table_iter_init(&it, self->stations);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		const ApSta *sta = value;
		WifiApStation s = {0};

		if (sta->state != AP_STA_AUTHORIZED)
			continue;
		memcpy(s.address, sta->mac, 6);
		s.signal_dbm = sta->info.has_signal ? sta->info.signal_dbm : 0;
		s.tx_bitrate_100kbps = sta->info.has_tx_bitrate ? sta->info.tx_bitrate_100kbps : 0;
		s.connected_s = sta->info.has_connected_time ? sta->info.connected_time_s : 0;
		s.inactive_ms = sta->info.has_inactive_time ? sta->info.inactive_time_ms : 0;
		s.mfp = sta->mfp;
		g_array_append_val(out, s);
	}
	return out;
}
