/* adhoc.c - the IBSS: its configuration checked, JOIN_IBSS and our group
 * key, LEAVE_IBSS, and the dispatch of the interface's events to the peer
 * table (adhoc-peer.c).
 */
#include "adhoc-private.h"

#include <errno.h>
#include <string.h>

#include "ap-cmds.h"
#include "ibss-cmds.h"
#include "joind-mac.h"
#include "joind-secret.h"
#include "rsn-kde.h"
#include "rsn.h"

const gchar *
wifi_adhoc_state_to_string(WifiAdhocState state)
{
	static const gchar *const names[] = {
	        [WIFI_ADHOC_STATE_IDLE] = "idle",
	        [WIFI_ADHOC_STATE_JOINING] = "joining",
	        [WIFI_ADHOC_STATE_JOINED] = "joined",
	        [WIFI_ADHOC_STATE_LEAVING] = "leaving",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == WIFI_ADHOC_STATE_LAST + 1);

	if ((guint)state < G_N_ELEMENTS(names))
		return names[state];
	return "unknown";
}

void
wifi_adhoc_enter(WifiAdhoc *self, WifiAdhocState state, const gchar *reason)
{
	WifiAdhocState old = self->state;

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->iface->name, NULL, "ad-hoc"},
	                       wifi_adhoc_state_to_string(old), wifi_adhoc_state_to_string(state),
	                       reason);
	self->state = state;
	if (state == WIFI_ADHOC_STATE_IDLE || state == WIFI_ADHOC_STATE_LEAVING)
		g_hash_table_remove_all(self->peers);
	if (self->cb.state_changed != NULL)
		self->cb.state_changed(old, state, reason, self->user_data);
}

WifiAdhoc *
wifi_adhoc_new(WifiIface *iface, const guint8 address[6], const WifiAdhocCallbacks *callbacks,
               gpointer user_data)
{
	WifiAdhoc *self = g_new0(WifiAdhoc, 1);

	self->iface = wifi_iface_ref(iface);
	memcpy(self->address, address, 6);
	if (callbacks != NULL)
		self->cb = *callbacks;
	self->user_data = user_data;
	self->peers =
	        g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, wifi_adhoc_peer_free);
	return self;
}

void
wifi_adhoc_free(WifiAdhoc *self)
{
	if (self == NULL)
		return;
	if (self->request != 0)
		wifi_nl_cancel(self->iface->nl, self->request);
	g_hash_table_destroy(self->peers);
	if (self->state == WIFI_ADHOC_STATE_JOINING || self->state == WIFI_ADHOC_STATE_JOINED)
		wifi_nl_send(self->iface->nl,
		             wifi_ibss_msg_leave(self->iface->nl, self->iface->ifindex), NULL, NULL,
		             NULL, NULL);
	wifi_iface_unref(self->iface);
	/* The PSK and our group key live in the struct. */
	joind_secret_clear(self, sizeof(*self));
	g_free(self);
}

/* A key of ours the kernel refused: our broadcasts cannot be read, which
 * the log says; the unicast links stand. */
static void
group_key_done(int err, gpointer user_data)
{
	if (err < 0)
		wifi_iface_warning((WifiIface *)user_data,
		                   "ad-hoc: the kernel refused our group key: %s",
		                   g_strerror(-err));
}

static void
send_group_key_msg(WifiAdhoc *self, struct nl_msg *msg)
{
	wifi_nl_send(self->iface->nl, msg, NULL, group_key_done, wifi_iface_ref(self->iface),
	             (GDestroyNotify)wifi_iface_unref);
}

static void
install_group_key(WifiAdhoc *self)
{
	WifiHandshakeKey gtk = {
	        .kind = WIFI_KEY_KIND_GROUP,
	        .key_id = self->gk.gtk_id,
	        .cipher = WIFI_CIPHER_SUITE_CCMP,
	        .key = self->gk.gtk,
	        .key_len = self->gk.gtk_len,
	};
	WifiNl *nl = self->iface->nl;
	guint32 ifindex = self->iface->ifindex;

	send_group_key_msg(self, wifi_rsn_msg_new_key(nl, ifindex, &gtk));
	send_group_key_msg(self, wifi_ap_msg_default_group_key(nl, ifindex, self->gk.gtk_id));
}

/* The kernel is in the IBSS now (or merged into another BSSID): it takes
 * keys only from then on, so our group key goes to it here. */
static void
ibss_joined(WifiAdhoc *self, const guint8 *bssid)
{
	gchar name[JOIND_MAC_STRING_LEN];

	wifi_iface_info(self->iface, "ad-hoc: in the IBSS of BSSID %s",
	                bssid != NULL ? joind_mac_to_string(bssid, name) : "(none)");
	if (!self->open)
		install_group_key(self);
}

static void
join_done(int err, gpointer user_data)
{
	WifiAdhoc *self = user_data;
	g_autofree gchar *why = NULL;

	self->request = 0;
	if (err < 0) {
		why = g_strdup_printf("the kernel refused to join the IBSS: %s", g_strerror(-err));
		wifi_adhoc_enter(self, WIFI_ADHOC_STATE_IDLE, why);
		return;
	}
	wifi_adhoc_enter(self, WIFI_ADHOC_STATE_JOINED,
	                 self->open ? "in the open IBSS" : "in the RSN IBSS");
}

static void
leave_done(int err, gpointer user_data)
{
	WifiAdhoc *self = user_data;

	self->request = 0;
	wifi_adhoc_enter(self, WIFI_ADHOC_STATE_IDLE,
	                 err < 0 && err != -ENOTCONN ? "LEAVE_IBSS failed; left anyway"
	                                             : "left the IBSS");
}

/* The frequency must be one the radio may start an IBSS on. */
static gboolean
check_freq(WifiAdhoc *self, guint32 freq, GError **error)
{
	const GArray *channels = self->iface->wiphy->channels;

	for (guint i = 0; i < channels->len; i++) {
		const WifiChannel *c = &g_array_index(channels, WifiChannel, i);

		if (c->freq != freq)
			continue;
		if (c->disabled || c->no_ir) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			            "the regulatory domain forbids starting an IBSS on %u MHz",
			            freq);
			return FALSE;
		}
		return TRUE;
	}
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
	            "the radio has no channel at %u MHz", freq);
	return FALSE;
}

/* RSN IBSS: WPA2-PSK with CCMP both ways, no management frame protection;
 * every peer's RSNE is this one, which each handshake checks. */
static gboolean
prepare_rsn(WifiAdhoc *self, const gchar *secret, GError **error)
{
	WifiRsne rsne = {
	        .version = 1,
	        .group_cipher = 0x000fac04,
	        .pairwise = {0x000fac04},
	        .n_pairwise = 1,
	        .akms = {0x000fac02},
	        .n_akms = 1,
	};

	if (!wifi_psk_from_secret(secret, self->ssid, self->ssid_len, self->pmk, error))
		return FALSE;
	self->rsne_len = wifi_rsne_write(&rsne, NULL, self->rsne);
	return wifi_group_keys_generate(&self->gk, WIFI_CIPHER_SUITE_CCMP, 0, NULL, error);
}

gboolean
wifi_adhoc_start(WifiAdhoc *self, const WifiAdhocConfig *config, GError **error)
{
	WifiIbssJoin join = {0};

	if (self->state != WIFI_ADHOC_STATE_IDLE) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, "the IBSS is %s already",
		            wifi_adhoc_state_to_string(self->state));
		return FALSE;
	}
	if (config->ssid_len < 1 || config->ssid_len > sizeof(self->ssid)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		            "an SSID has 1 to 32 octets, not %zu", config->ssid_len);
		return FALSE;
	}
	self->freq = config->freq != 0 ? config->freq : WIFI_ADHOC_DEFAULT_FREQ;
	if (!check_freq(self, self->freq, error))
		return FALSE;
	memcpy(self->ssid, config->ssid, config->ssid_len);
	self->ssid_len = config->ssid_len;
	self->open = config->secret == NULL;
	if (!self->open && !prepare_rsn(self, config->secret, error))
		return FALSE;
	join.ssid = self->ssid;
	join.ssid_len = self->ssid_len;
	join.freq = self->freq;
	join.rsne = self->open ? NULL : self->rsne;
	join.rsne_len = self->rsne_len;
	self->request = wifi_nl_send(
	        self->iface->nl, wifi_ibss_msg_join(self->iface->nl, self->iface->ifindex, &join),
	        NULL, join_done, self, NULL);
	wifi_adhoc_enter(self, WIFI_ADHOC_STATE_JOINING, "asked to start");
	return TRUE;
}

void
wifi_adhoc_stop(WifiAdhoc *self, const gchar *reason)
{
	if (self->state != WIFI_ADHOC_STATE_JOINING && self->state != WIFI_ADHOC_STATE_JOINED)
		return;
	if (self->request != 0)
		wifi_nl_cancel(self->iface->nl, self->request);
	self->request = wifi_nl_send(self->iface->nl,
	                             wifi_ibss_msg_leave(self->iface->nl, self->iface->ifindex),
	                             NULL, leave_done, self, NULL);
	wifi_adhoc_enter(self, WIFI_ADHOC_STATE_LEAVING, reason);
}

void
wifi_adhoc_handle_event(WifiAdhoc *self, guint8 cmd, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	struct nlattr *mac = attrs[NL80211_ATTR_MAC];
	gboolean has_mac = mac != NULL && nla_len(mac) == 6;

	if (self->state != WIFI_ADHOC_STATE_JOINED)
		return;
	switch (cmd) {
	case NL80211_CMD_JOIN_IBSS:
		ibss_joined(self, has_mac ? nla_data(mac) : NULL);
		break;
	case NL80211_CMD_NEW_STATION:
		if (has_mac)
			wifi_adhoc_peer_seen(self, nla_data(mac));
		break;
	case NL80211_CMD_DEL_STATION:
		if (has_mac)
			wifi_adhoc_peer_deleted(self, nla_data(mac));
		break;
	case NL80211_CMD_CONTROL_PORT_FRAME:
		if (frame != NULL && has_mac)
			wifi_adhoc_peer_eapol(self, nla_data(mac), nla_data(frame),
			                      (gsize)nla_len(frame));
		break;
	default:
		break;
	}
}

WifiAdhocState
wifi_adhoc_get_state(const WifiAdhoc *self)
{
	return self->state;
}

gboolean
wifi_adhoc_is_open(const WifiAdhoc *self)
{
	return self->open;
}

gchar *
wifi_adhoc_get_ssid_display(const WifiAdhoc *self)
{
	return joind_ssid_to_display(self->ssid, self->ssid_len);
}

guint
wifi_adhoc_get_n_peers(const WifiAdhoc *self)
{
	GHashTableIter it;
	gpointer value;
	guint n = 0;

	g_hash_table_iter_init(&it, self->peers);
	while (g_hash_table_iter_next(&it, NULL, &value))
		n += ((AdhocPeer *)value)->state == ADHOC_PEER_LINKED;
	return n;
}
