/* diagnostics.c - the facts of a connected link (see diagnostics.h).
 *
 * Daemon1.GetDiagnostics() is answered synchronously by the core, so the
 * current RSSI is asked of the kernel with a blocking one-shot netlink
 * socket (nl80211 answers GET_STATION from the driver's station table
 * at once; the wait is bounded by WIFI_DIAG_TIMEOUT_MS). Only a
 * diagnostics call pays for it; nothing runs in the background.
 */
#include "diagnostics.h"

#include <errno.h>
#include <linux/nl80211.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "joind.h"
#include "wiphy.h"

#define WIFI_DIAG_TIMEOUT_MS 500

const gchar *
wifi_diagnostics_security_name(guint akm)
{
	switch (akm) {
	case 0:
		return "open";
	case 1:
		return "8021x";
	case 2:
		return "psk";
	case 3:
		return "ft-8021x";
	case 4:
		return "ft-psk";
	case 5:
		return "8021x-sha256";
	case 6:
		return "psk-sha256";
	case 8:
		return "sae";
	case 9:
		return "ft-sae";
	case 18:
		return "owe";
	default:
		return "unknown";
	}
}

static void
add_sta_facts(GVariantDict *d, const WifiStaInfo *sta)
{
	if (sta->has_signal)
		g_variant_dict_insert(d, "rssi_dbm", "i", sta->signal_dbm);
	if (sta->has_signal_avg)
		g_variant_dict_insert(d, "rssi_avg_dbm", "i", sta->signal_avg_dbm);
	if (sta->has_tx_bitrate)
		g_variant_dict_insert(d, "tx_bitrate_mbps", "d", sta->tx_bitrate_100kbps / 10.0);
	if (sta->has_bytes) {
		g_variant_dict_insert(d, "rx_bytes", "t", sta->rx_bytes);
		g_variant_dict_insert(d, "tx_bytes", "t", sta->tx_bytes);
	}
}

GVariant *
wifi_diagnostics_connection(const WifiConnectionInfo *info, gint64 now_mono)
{
	GVariantDict d;
	gchar addr[18];
	g_autoptr(GDateTime) started =
	        g_date_time_new_from_unix_utc(info->connect_started_real / G_USEC_PER_SEC);
	g_autofree gchar *started_text =
	        started != NULL ? g_date_time_format_iso8601(started) : NULL;
	gint64 up = now_mono > info->connected_mono ? now_mono - info->connected_mono : 0;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "bssid", "s", wifi_bssid_to_string(info->bssid, addr));
	g_variant_dict_insert(&d, "frequency", "u", info->freq);
	g_variant_dict_insert(&d, "channel", "u", wifi_freq_to_channel(info->freq));
	if (info->has_sta)
		add_sta_facts(&d, &info->sta);
	g_variant_dict_insert(&d, "security", "s", wifi_diagnostics_security_name(info->akm));
	g_variant_dict_insert(&d, "pairwise_cipher", "s",
	                      wifi_cipher_suite_to_string(info->pairwise_cipher));
	g_variant_dict_insert(&d, "group_cipher", "s",
	                      wifi_cipher_suite_to_string(info->group_cipher));
	g_variant_dict_insert(&d, "mfp", "b", info->mfp);
	if (info->mfp)
		g_variant_dict_insert(&d, "group_mgmt_cipher", "s",
		                      wifi_cipher_suite_to_string(info->group_mgmt_cipher));
	g_variant_dict_insert(&d, "connect_started", "s", started_text != NULL ? started_text : "");
	g_variant_dict_insert(&d, "connect_started_unix", "x",
	                      info->connect_started_real / G_USEC_PER_SEC);
	g_variant_dict_insert(&d, "connected_seconds", "t", (guint64)(up / G_USEC_PER_SEC));
	return g_variant_dict_end(&d);
}

/* MFP is in use when both our association RSNE and the AP's say MFPC. */
static void
info_from_plan(const WifiRsnPlan *plan, WifiConnectionInfo *info)
{
	WifiRsne own, ap;

	info->akm = plan->akm;
	info->pairwise_cipher = plan->pairwise_cipher;
	info->group_cipher = plan->group_cipher;
	if (!wifi_rsne_parse(plan->own_rsne, plan->own_rsne_len, &own, NULL) ||
	    !wifi_rsne_parse(plan->ap_rsne, plan->ap_rsne_len, &ap, NULL))
		return;
	info->mfp = (own.capabilities & WIFI_RSN_CAP_MFPC) != 0 &&
	            (ap.capabilities & WIFI_RSN_CAP_MFPC) != 0;
	if (info->mfp) {
		guint32 mgmt =
		        own.group_mgmt_cipher != 0 ? own.group_mgmt_cipher : ap.group_mgmt_cipher;
		/* Absent means the default, BIP-CMAC-128. */
		info->group_mgmt_cipher = mgmt != 0 ? mgmt & 0xff : WIFI_CIPHER_SUITE_BIP_CMAC;
	}
}

gboolean
wifi_diagnostics_connection_info(WifiConnector *connector, WifiConnectionInfo *info)
{
	WifiBss *bss = wifi_connector_get_connected_bss(connector);
	const WifiRsnPlan *plan = wifi_connector_get_rsn_plan(connector);

	memset(info, 0, sizeof(*info));
	if (bss == NULL)
		return FALSE;
	memcpy(info->bssid, bss->bssid, 6);
	info->freq = bss->freq;
	if (plan != NULL)
		info_from_plan(plan, info);
	wifi_connector_get_times(connector, &info->connect_started_real, &info->connected_mono);
	return TRUE;
}

/* ---- NL80211_CMD_GET_STATION, answered now --------------------------------- */

typedef struct {
	WifiStaInfo *info;
	gboolean got;
	GError *error;
} StationQuery;

static int
station_reply(struct nl_msg *msg, void *arg)
{
	StationQuery *q = arg;
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];
	struct nlattr *sta;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, attrs, NL80211_ATTR_MAX, NULL) < 0)
		return NL_SKIP;
	sta = attrs[NL80211_ATTR_STA_INFO];
	if (sta == NULL || q->got)
		return NL_SKIP;
	q->got = wifi_sta_info_parse(nla_data(sta), (gsize)nla_len(sta), q->info, &q->error);
	return NL_SKIP;
}

static struct nl_sock *
query_socket(int *family, GError **error)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct timeval tv = {.tv_sec = 0, .tv_usec = WIFI_DIAG_TIMEOUT_MS * 1000};

	if (sk == NULL || genl_connect(sk) < 0 ||
	    setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    (*family = genl_ctrl_resolve(sk, "nl80211")) < 0) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "Cannot open an nl80211 socket for the station's facts.");
		if (sk != NULL)
			nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

gboolean
wifi_diagnostics_query_station(guint32 ifindex, const guint8 *mac, WifiStaInfo *info,
                               GError **error)
{
	StationQuery q = {.info = info};
	int family = 0;
	struct nl_sock *sk = query_socket(&family, error);
	struct nl_msg *msg;
	int err;

	if (sk == NULL)
		return FALSE;
	msg = nlmsg_alloc();
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0, NL80211_CMD_GET_STATION, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, mac);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, station_reply, &q);
	/* Sends, reads the reply (station_reply) and waits for the ACK. */
	err = nl_send_sync(sk, msg);
	nl_socket_free(sk);
	if (q.error != NULL) {
		g_propagate_error(error, q.error);
		return FALSE;
	}
	if (err < 0 || !q.got) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "GET_STATION: %s",
		            err < 0 ? nl_geterror(err) : "no station info in the reply");
		return FALSE;
	}
	return TRUE;
}

GVariant *
wifi_diagnostics_link(WifiConnector *connector, guint32 ifindex)
{
	WifiConnectionInfo info;
	g_autoptr(GError) error = NULL;

	if (connector == NULL || !wifi_diagnostics_connection_info(connector, &info))
		return g_variant_new_maybe(G_VARIANT_TYPE_VARDICT, NULL);
	info.has_sta = wifi_diagnostics_query_station(ifindex, info.bssid, &info.sta, &error);
	if (!info.has_sta)
		g_debug("diagnostics: %s", error->message);
	return g_variant_new_maybe(G_VARIANT_TYPE_VARDICT,
	                           wifi_diagnostics_connection(&info, g_get_monotonic_time()));
}
