/* diagnostics.c - the facts of a connected link (see diagnostics.h).
 *
 * The current RSSI is asked of the kernel with GET_STATION through the
 * plugin's WifiNl, on the main loop: the core answers GetDiagnostics()
 * when every device's part is in, and meanwhile EAPOL, events and other
 * D-Bus calls go on. Only a diagnostics call pays for it; nothing runs in
 * the background.
 */
#include "diagnostics.h"

#include <linux/nl80211.h>
#include <netlink/attr.h>
#include <string.h>

#include "joind.h"
#include "joind-wifi-diagnostics.h"
#include "rsn-suites.h"
#include "wiphy.h"

const gchar *
wifi_diagnostics_security_name(guint akm)
{
	switch (akm) {
	case 0:
		return JOIND_WIFI_AKM_OPEN;
	case 1:
		return JOIND_WIFI_AKM_8021X;
	case 2:
		return JOIND_WIFI_AKM_PSK;
	case 3:
		return JOIND_WIFI_AKM_FT_8021X;
	case 4:
		return JOIND_WIFI_AKM_FT_PSK;
	case 5:
		return JOIND_WIFI_AKM_8021X_SHA256;
	case 6:
		return JOIND_WIFI_AKM_PSK_SHA256;
	case 8:
		return JOIND_WIFI_AKM_SAE;
	case 9:
		return JOIND_WIFI_AKM_FT_SAE;
	case 12:
		return JOIND_WIFI_AKM_SUITE_B_192;
	case 13:
		return JOIND_WIFI_AKM_FT_8021X_SHA384;
	case 18:
		return JOIND_WIFI_AKM_OWE;
	default:
		return "unknown";
	}
}

static void
add_sta_facts(GVariantDict *d, const WifiStaInfo *sta)
{
	if (sta->has_signal)
		g_variant_dict_insert(d, JOIND_WIFI_DIAG_RSSI_DBM, "i", sta->signal_dbm);
	if (sta->has_signal_avg)
		g_variant_dict_insert(d, JOIND_WIFI_DIAG_RSSI_AVG_DBM, "i", sta->signal_avg_dbm);
	if (sta->has_tx_bitrate)
		g_variant_dict_insert(d, JOIND_WIFI_DIAG_TX_BITRATE_MBPS, "d",
		                      sta->tx_bitrate_100kbps / 10.0);
	if (sta->has_bytes) {
		g_variant_dict_insert(d, "rx_bytes", "t", sta->rx_bytes);
		g_variant_dict_insert(d, "tx_bytes", "t", sta->tx_bytes);
	}
}

static void
add_tls_facts(GVariantDict *d, const WifiConnectionInfo *info)
{
	if (info->tls_version[0] != '\0')
		g_variant_dict_insert(d, "tls_version", "s", info->tls_version);
	if (info->tls_cipher[0] != '\0')
		g_variant_dict_insert(d, "tls_cipher", "s", info->tls_cipher);
	if (info->server_subject[0] != '\0')
		g_variant_dict_insert(d, "server_subject", "s", info->server_subject);
	if (info->server_pin[0] != '\0')
		g_variant_dict_insert(d, "server_pin", "s", info->server_pin);
}

GVariant *
wifi_diagnostics_connection(const WifiConnectionInfo *info, gint64 now_mono)
{
	GVariantDict d;
	gchar addr[JOIND_MAC_STRING_LEN];
	g_autoptr(GDateTime) started =
	        g_date_time_new_from_unix_utc(info->connect_started_real / G_USEC_PER_SEC);
	g_autofree gchar *started_text =
	        started != NULL ? g_date_time_format_iso8601(started) : NULL;
	gint64 up = now_mono > info->connected_mono ? now_mono - info->connected_mono : 0;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, JOIND_WIFI_DIAG_BSSID, "s",
	                      joind_mac_to_string(info->bssid, addr));
	g_variant_dict_insert(&d, JOIND_WIFI_DIAG_FREQUENCY, "u", info->freq);
	g_variant_dict_insert(&d, JOIND_WIFI_DIAG_CHANNEL, "u", wifi_freq_to_channel(info->freq));
	if (info->has_sta)
		add_sta_facts(&d, &info->sta);
	/* SAE says how its password element was made: "sae" or "sae-h2e". */
	g_variant_dict_insert(&d, JOIND_WIFI_DIAG_SECURITY, "s",
	                      info->sae_group != 0 && info->sae_h2e
	                              ? JOIND_WIFI_AKM_SAE_H2E
	                              : wifi_diagnostics_security_name(info->akm));
	if (info->sae_group != 0) {
		g_variant_dict_insert(&d, "sae_group", "u", info->sae_group);
		g_variant_dict_insert(&d, "sae_h2e", "b", info->sae_h2e);
		g_variant_dict_insert(&d, "pmksa_cached", "b", info->pmksa_used);
	}
	if (info->owe_group != 0)
		g_variant_dict_insert(&d, "owe_group", "u", info->owe_group);
	/* The mobility domain as hostapd's mobility_domain writes it. */
	if (info->ft)
		g_variant_dict_insert_value(&d, "mobility_domain",
		                            g_variant_new_take_string(g_strdup_printf(
		                                    "%02x%02x", info->mdid[0], info->mdid[1])));
	if (info->transition != NULL)
		g_variant_dict_insert(&d, "transition", "s", info->transition);
	g_variant_dict_insert(&d, JOIND_WIFI_DIAG_PAIRWISE_CIPHER, "s",
	                      wifi_cipher_suite_to_string(info->pairwise_cipher));
	g_variant_dict_insert(&d, "group_cipher", "s",
	                      wifi_cipher_suite_to_string(info->group_cipher));
	g_variant_dict_insert(&d, "mfp", "b", info->mfp);
	if (info->mfp)
		g_variant_dict_insert(&d, "group_mgmt_cipher", "s",
		                      wifi_cipher_suite_to_string(info->group_mgmt_cipher));
	if (info->eap_method[0] != '\0') {
		g_variant_dict_insert(&d, "eap_method", "s", info->eap_method);
		if (info->eap_identity[0] != '\0')
			g_variant_dict_insert(&d, "eap_identity", "s", info->eap_identity);
		g_variant_dict_insert(&d, "pmksa_cached", "b", info->pmksa_used);
		add_tls_facts(&d, info);
	}
	g_variant_dict_insert(&d, "connect_started", "s", started_text != NULL ? started_text : "");
	g_variant_dict_insert(&d, "connect_started_unix", "x",
	                      info->connect_started_real / G_USEC_PER_SEC);
	g_variant_dict_insert(&d, JOIND_WIFI_DIAG_CONNECTED_SECONDS, "t",
	                      (guint64)(up / G_USEC_PER_SEC));
	return g_variant_dict_end(&d);
}

GVariant *
wifi_diagnostics_refused_server(GVariant *report, const gchar *network)
{
	static const gchar *const keys[][2] = {
	        {"subject", "subject"},
	        {"issuer", "issuer"},
	        {"not-before", "not_before"},
	        {"not-after", "not_after"},
	        {"pin", "pin"},
	        {"pin-setting", "pin_setting"},
	        {"names", "names"},
	        {"domain-mask-setting", "domain_mask_setting"},
	};
	gboolean trusted = TRUE;
	GVariantDict d;

	if (report == NULL || network == NULL ||
	    !g_variant_lookup(report, "trusted", "b", &trusted) || trusted)
		return NULL;
	g_variant_dict_init(&d, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		const gchar *value = NULL;
		if (g_variant_lookup(report, keys[i][0], "&s", &value))
			g_variant_dict_insert(&d, keys[i][1], "s", value);
	}
	g_variant_dict_insert(&d, "network", "s", network);
	return g_variant_dict_end(&d);
}

/* ---- NL80211_CMD_GET_STATION, asked on the main loop ------------------------ */

/* One link's facts on their way: the record is a copy, so the station may
 * go away meanwhile. The task returns exactly once: with the kernel's
 * facts when it answered, without them when it failed, did not answer in
 * time (WifiNl's deadline), or the wait was cancelled. */
typedef struct {
	GTask *task;
	WifiNl *nl;
	guint request;
	GSource *cancel_watch;
	WifiConnectionInfo info;
} LinkQuery;

static void
link_query_return(LinkQuery *q)
{
	GVariant *link = wifi_diagnostics_connection(&q->info, g_get_monotonic_time());

	g_task_return_pointer(q->task,
	                      g_variant_ref_sink(g_variant_new_maybe(G_VARIANT_TYPE_VARDICT, link)),
	                      (GDestroyNotify)g_variant_unref);
	g_clear_object(&q->task);
}

/* Runs last, whether the request ended, was cancelled or the WifiNl
 * went away with it. */
static void
link_query_free(gpointer data)
{
	LinkQuery *q = data;

	if (q->task != NULL)
		link_query_return(q);
	if (q->cancel_watch != NULL) {
		g_source_destroy(q->cancel_watch);
		g_source_unref(q->cancel_watch);
	}
	g_free(q);
}

static void
link_query_reply(struct nlattr **attrs, gpointer user_data)
{
	LinkQuery *q = user_data;
	struct nlattr *sta = attrs[NL80211_ATTR_STA_INFO];
	g_autoptr(GError) error = NULL;

	if (sta == NULL || q->info.has_sta)
		return;
	q->info.has_sta =
	        wifi_sta_info_parse(nla_data(sta), (gsize)nla_len(sta), &q->info.sta, &error);
	if (!q->info.has_sta)
		g_debug("diagnostics: %s", error->message);
}

static void
link_query_done(int error, gpointer user_data)
{
	LinkQuery *q = user_data;

	q->request = 0;
	if (error < 0)
		q->info.has_sta = FALSE;
	if (error < 0 || !q->info.has_sta)
		g_debug("diagnostics: GET_STATION: %s",
		        error < 0 ? g_strerror(-error) : "no station info in the reply");
}

static gboolean
link_query_cancelled(GCancellable *cancellable, gpointer user_data)
{
	LinkQuery *q = user_data;

	/* Runs link_query_free(), which answers without the kernel's facts. */
	wifi_nl_cancel(q->nl, q->request);
	return G_SOURCE_REMOVE;
}

void
wifi_diagnostics_link_async(WifiNl *nl, guint32 ifindex, const WifiConnectionInfo *info,
                            GCancellable *cancellable, GAsyncReadyCallback callback,
                            gpointer user_data)
{
	GTask *task = g_task_new(NULL, NULL, callback, user_data);
	LinkQuery *q;
	struct nl_msg *msg;
	guint request;

	g_task_set_source_tag(task, wifi_diagnostics_link_async);
	if (info == NULL) {
		g_task_return_pointer(
		        task, g_variant_ref_sink(g_variant_new_maybe(G_VARIANT_TYPE_VARDICT, NULL)),
		        (GDestroyNotify)g_variant_unref);
		g_object_unref(task);
		return;
	}
	q = g_new0(LinkQuery, 1);
	q->task = task;
	q->nl = nl;
	q->info = *info;
	q->info.has_sta = FALSE;
	if (g_cancellable_is_cancelled(cancellable)) {
		link_query_free(q);
		return;
	}
	msg = wifi_nl_msg_new(nl, NL80211_CMD_GET_STATION, 0);
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, info->bssid);
	/* On a failed send, done and free have already run. */
	request = wifi_nl_send(nl, msg, link_query_reply, link_query_done, q, link_query_free);
	if (request == 0)
		return;
	q->request = request;
	if (cancellable == NULL)
		return;
	q->cancel_watch = g_cancellable_source_new(cancellable);
	g_source_set_callback(q->cancel_watch, G_SOURCE_FUNC(link_query_cancelled), q, NULL);
	g_source_attach(q->cancel_watch, g_main_context_get_thread_default());
}

GVariant *
wifi_diagnostics_link_finish(GAsyncResult *result)
{
	g_return_val_if_fail(g_async_result_is_tagged(result, wifi_diagnostics_link_async), NULL);
	return g_task_propagate_pointer(G_TASK(result), NULL);
}
