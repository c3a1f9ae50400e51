/* ap-start.c - starting and stopping the access point's BSS: the
 * configuration checked (SSID, passphrase, the channel against the radio
 * and its regulatory domain), the elements built, the start-up steps
 * (frames registered, START_AP, group keys), STOP_AP, and the group key
 * rotation.
 */
#include "ap-private.h"

#include <errno.h>
#include <string.h>

#include "ap-channel.h"
#include "ap-cmds.h"
#include "frame.h"
#include "joind-crypto.h"
#include "joind-secret.h"
#include "mgmt.h"
#include "rsn-kde.h"
#include "rsn-keys.h"
#include "rsn.h"

enum {
	STEP_SCAN,     /* the surroundings, for the channel (none configured) */
	STEP_REGISTER, /* the management frames the AP answers itself */
	STEP_START,    /* START_AP */
	STEP_ISOLATE,  /* client isolation, where the driver has it */
	STEP_KEYS,     /* the GTK (and IGTK) installed */
	STEP_DEFAULT,  /* the GTK made the default multicast key */
	STEP_DONE,
};

#define AP_DTIM_PERIOD 2

static const guint8 frame_subtypes[] = {
        WIFI_MGMT_FC_SUBTYPE_PROBE_REQ, WIFI_MGMT_FC_SUBTYPE_AUTH,
        WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, WIFI_MGMT_FC_SUBTYPE_REASSOC_REQ,
        WIFI_MGMT_FC_SUBTYPE_DISASSOC,  WIFI_MGMT_FC_SUBTYPE_DEAUTH,
};

/* The configured channel, if the radio may start a BSS there; 0 asks for
 * a scan, if one of 1, 6 and 11 is allowed. */
static gboolean
check_channel(WifiAp *self, guint channel, GError **error)
{
	const gchar *why = NULL;

	self->channel = channel;
	self->freq = channel != 0 ? wifi_ap_channel_freq(self->iface->wiphy, channel, &why) : 0;
	if (channel != 0 && self->freq != 0)
		return TRUE;
	if (channel == 0 && wifi_ap_choose_channel(NULL, self->iface->wiphy) != 0)
		return TRUE;
	if (channel == 0)
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		                    "None of channels 1, 6 and 11 is allowed by the radio's "
		                    "regulatory domain");
	else if (why != NULL)
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "Channel %u (%u MHz) is %s by the radio's regulatory domain", channel,
		            channel == 14 ? 2484 : 2407 + 5 * channel, why);
	else
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "Channel %u is not one of the radio's 2.4 GHz channels", channel);
	return FALSE;
}

/* SAE takes the passphrase itself, and needs management frame
 * protection. */
static gboolean
check_wpa3(WifiAp *self, const WifiApConfig *c, GError **error)
{
	guint8 unused[WIFI_PSK_LEN];

	if (wifi_psk_from_hex(c->secret, unused, NULL)) {
		joind_secret_clear(unused, sizeof(unused));
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		                    "WPA3 needs the passphrase: a 64-digit pre-shared key serves "
		                    "WPA2 only");
		return FALSE;
	}
	if (!wifi_ap_can_protect_frames(self)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "WPA3 needs management frame protection, and radio %s has no "
		            "BIP-CMAC-128",
		            self->iface->wiphy->name);
		return FALSE;
	}
	return TRUE;
}

/* The PSK from the secret: PBKDF2's 4096 rounds take tens of milliseconds
 * on a small CPU, so a hotspot started again with the same SSID and secret
 * keeps the one it has, known by a keyed digest rather than the secret. */
static gboolean
derive_pmk(WifiAp *self, const WifiApConfig *c, GError **error)
{
	const guint8 *parts[] = {c->ssid, (const guint8 *)c->secret};
	const gsize lens[] = {c->ssid_len, strlen(c->secret)};
	guint8 source[32];
	gboolean same;

	if (!joind_hmac("SHA256", self->token_key, sizeof(self->token_key), parts, lens,
	                G_N_ELEMENTS(parts), source, sizeof(source), error))
		return FALSE;
	same = self->pmk_valid && memcmp(source, self->pmk_source, sizeof(source)) == 0;
	self->pmk_valid = same;
	if (!same && wifi_psk_from_secret(c->secret, c->ssid, c->ssid_len, self->pmk, error)) {
		memcpy(self->pmk_source, source, sizeof(source));
		self->pmk_valid = TRUE;
	}
	joind_secret_clear(source, sizeof(source));
	return self->pmk_valid;
}

static gboolean
check_config(WifiAp *self, const WifiApConfig *c, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (c->ssid_len < 1 || c->ssid_len > 32) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		            "An SSID is 1 to 32 octets, not %" G_GSIZE_FORMAT, c->ssid_len);
		return FALSE;
	}
	if (!c->open && c->secret == NULL) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
		                    "A WPA2 access point needs a passphrase (an open one must be "
		                    "asked for explicitly)");
		return FALSE;
	}
	if (!(self->iface->wiphy->iftypes & (1u << NL80211_IFTYPE_AP))) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
		            "Radio %s cannot be an access point", self->iface->wiphy->name);
		return FALSE;
	}
	if (!c->open && !derive_pmk(self, c, &local)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s", local->message);
		return FALSE;
	}
	if (!c->open && c->security != WIFI_AP_SECURITY_WPA2 && !check_wpa3(self, c, error))
		return FALSE;
	return check_channel(self, c->channel, error);
}

/* Our RSNE: CCMP, with PSK, SAE or both; management frame protection
 * capable when the radio has BIP-CMAC-128 (optional for a WPA2 station, as
 * iwd), required with SAE alone. With SAE, an RSNXE says hash-to-element
 * is understood (a station may still hunt and peck). */
static void
build_rsne(WifiAp *self)
{
	WifiRsne rsne = {
	        .version = 1,
	        .group_cipher = 0x000fac04,
	        .pairwise = {0x000fac04},
	        .n_pairwise = 1,
	};
	static const guint8 rsnxe_h2e[] = {WIFI_ELEMENT_RSNX, 1, 0x20};

	if (wifi_ap_offers_psk(self))
		rsne.akms[rsne.n_akms++] = 0x000fac02;
	if (wifi_ap_offers_sae(self))
		rsne.akms[rsne.n_akms++] = 0x000fac08;
	self->mfpc = wifi_ap_can_protect_frames(self);
	self->mfpr = self->security == WIFI_AP_SECURITY_WPA3;
	rsne.capabilities = (self->mfpc ? 0x0080 : 0) | (self->mfpr ? 0x0040 : 0);
	self->rsne_len = wifi_rsne_write(&rsne, NULL, self->rsne);
	self->rsnxe_len = wifi_ap_offers_sae(self) ? sizeof(rsnxe_h2e) : 0;
	memcpy(self->rsnxe, rsnxe_h2e, sizeof(rsnxe_h2e));
}

static void
build_ies(WifiAp *self)
{
	WifiApIes *ies = &self->ies;

	memset(ies, 0, sizeof(*ies));
	memcpy(ies->bssid, self->bssid, 6);
	ies->ssid = self->ssid;
	ies->ssid_len = self->ssid_len;
	ies->hidden = self->hidden;
	ies->channel = (guint8)self->channel;
	ies->privacy = !self->open;
	wifi_ap_ies_default_rates(ies, FALSE);
	if (!self->open) {
		ies->rsne = self->rsne;
		ies->rsne_len = self->rsne_len;
		ies->rsnxe = self->rsnxe;
		ies->rsnxe_len = self->rsnxe_len;
	}
	g_clear_pointer(&self->beacon_head, g_bytes_unref);
	g_clear_pointer(&self->beacon_tail, g_bytes_unref);
	self->beacon_head = wifi_ap_beacon_head(ies);
	self->beacon_tail = wifi_ap_beacon_tail(ies);
}

static void step_run(WifiAp *self);

static void
step_done(int err, gpointer user_data)
{
	WifiAp *self = user_data;
	g_autofree gchar *why = NULL;

	if (self->state != WIFI_AP_STATE_STARTING)
		return;
	if (self->step == STEP_REGISTER)
		err = wifi_frame_register_status(err);
	if (err < 0 && self->step != STEP_ISOLATE) {
		why = g_strdup_printf("the kernel refused %s: %s",
		                      self->step == STEP_START ? "to start the BSS"
		                                               : "a start-up step",
		                      g_strerror(-err));
		wifi_ap_stop(self, why);
		return;
	}
	if (--self->n_pending > 0)
		return;
	if (self->step == STEP_ISOLATE && err < 0)
		wifi_iface_info(self->iface, "access point cannot keep its stations apart: %s",
		                g_strerror(-err));
	else if (self->step == STEP_ISOLATE)
		wifi_iface_info(self->iface,
		                "access point keeps its stations apart (client isolation)");
	g_ptr_array_set_size(self->requests, 0);
	self->step++;
	if (self->open && self->step == STEP_KEYS)
		self->step = STEP_DONE;
	step_run(self);
}

static void
step_send(WifiAp *self, struct nl_msg *msg)
{
	guint id;

	self->n_pending++;
	id = wifi_ap_send(self, msg, step_done, self);
	if (id != 0 && self->state == WIFI_AP_STATE_STARTING)
		g_ptr_array_add(self->requests, GUINT_TO_POINTER(id));
}

static void
send_group_keys(WifiAp *self)
{
	WifiHandshakeKey gtk = {
	        .kind = WIFI_KEY_KIND_GROUP,
	        .key_id = self->gk.gtk_id,
	        .cipher = WIFI_CIPHER_SUITE_CCMP,
	        .key = self->gk.gtk,
	        .key_len = self->gk.gtk_len,
	};
	WifiHandshakeKey igtk = {
	        .kind = WIFI_KEY_KIND_GROUP_MGMT,
	        .key_id = self->gk.igtk_id,
	        .cipher = WIFI_CIPHER_SUITE_BIP_CMAC,
	        .key = self->gk.igtk,
	        .key_len = self->gk.igtk_len,
	};
	guint32 ifindex = self->iface->ifindex;

	step_send(self, wifi_rsn_msg_new_key(self->iface->nl, ifindex, &gtk));
	if (self->mfpc)
		step_send(self, wifi_rsn_msg_new_key(self->iface->nl, ifindex, &igtk));
}

static void
send_start(WifiAp *self)
{
	WifiApStart s = {
	        .beacon_head = self->beacon_head,
	        .beacon_tail = self->beacon_tail,
	        .ssid = self->ssid,
	        .ssid_len = self->ssid_len,
	        .hidden = self->hidden,
	        .freq = self->freq,
	        .beacon_interval = WIFI_AP_BEACON_INTERVAL,
	        .dtim_period = AP_DTIM_PERIOD,
	        .privacy = !self->open,
	        .pairwise_cipher = wifi_cipher_suite_selector(WIFI_CIPHER_SUITE_CCMP),
	        .group_cipher = wifi_cipher_suite_selector(WIFI_CIPHER_SUITE_CCMP),
	        .control_port_nl80211 = TRUE,
	};

	if (wifi_ap_offers_psk(self))
		s.akms[s.n_akms++] = 0x000fac02;
	if (wifi_ap_offers_sae(self))
		s.akms[s.n_akms++] = 0x000fac08;
	step_send(self, wifi_ap_msg_start(self->iface->nl, self->iface->ifindex, &s));
}

void
wifi_ap_scan_results(GPtrArray *bsses, const GArray *scanned_freqs, gboolean authoritative,
                     gpointer user_data)
{
	WifiAp *self = user_data;

	(void)scanned_freqs;
	(void)authoritative;
	if (self->state == WIFI_AP_STATE_STARTING && self->step == STEP_SCAN)
		self->chosen = wifi_ap_choose_channel(bsses, self->iface->wiphy);
}

static void
scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	gboolean ok = wifi_scanner_scan_finish(NULL, result, &error);
	WifiAp *self;
	const gchar *why;

	(void)source;
	/* The AP went away: user_data is gone with it. */
	if (g_cancellable_is_cancelled(g_task_get_cancellable(G_TASK(result))))
		return;
	self = user_data;
	if (self->state != WIFI_AP_STATE_STARTING || self->step != STEP_SCAN)
		return;
	/* Without the surroundings, the first of 1, 6, 11 allowed. */
	if (!ok || self->chosen == 0)
		self->chosen = wifi_ap_choose_channel(NULL, self->iface->wiphy);
	self->channel = self->chosen;
	self->freq = wifi_ap_channel_freq(self->iface->wiphy, self->channel, &why);
	wifi_iface_info(self->iface, "access point takes channel %u (%s)", self->channel,
	                ok ? "the least used of 1, 6 and 11" : error->message);
	self->step = STEP_REGISTER;
	step_run(self);
}

static void
scan_surroundings(WifiAp *self)
{
	self->chosen = 0;
	/* Every frequency: the scanner takes the parameters. */
	wifi_scanner_scan(self->scanner, wifi_scan_params_new(), "access point channel",
	                  self->cancel, scan_done, self);
}

static void
step_run(WifiAp *self)
{
	WifiNl *nl = self->iface->nl;
	guint32 ifindex = self->iface->ifindex;

	switch (self->step) {
	case STEP_SCAN:
		scan_surroundings(self);
		break;
	case STEP_REGISTER:
		build_ies(self);
		for (guint i = 0; i < G_N_ELEMENTS(frame_subtypes); i++)
			step_send(self,
			          wifi_frame_msg_register(nl, ifindex, frame_subtypes[i], NULL, 0));
		break;
	case STEP_START:
		send_start(self);
		break;
	case STEP_ISOLATE:
		step_send(self, wifi_ap_msg_isolate(nl, ifindex));
		break;
	case STEP_KEYS:
		send_group_keys(self);
		break;
	case STEP_DEFAULT:
		step_send(self, wifi_ap_msg_default_group_key(nl, ifindex, self->gk.gtk_id));
		break;
	default:
		wifi_ap_enter(self, WIFI_AP_STATE_STARTED, "beaconing");
		break;
	}
}

static const gchar *
security_name(const WifiAp *self)
{
	if (self->open)
		return "open";
	if (self->security == WIFI_AP_SECURITY_WPA3)
		return "WPA3 (SAE), MFP required";
	if (self->security == WIFI_AP_SECURITY_WPA2_WPA3)
		return self->mfpc ? "WPA2/WPA3 transition, MFP optional" : "WPA2/WPA3 transition";
	return self->mfpc ? "WPA2, MFP optional" : "WPA2";
}

gboolean
wifi_ap_start(WifiAp *self, const WifiApConfig *config, GError **error)
{
	g_autofree gchar *why = NULL;

	if (self->state != WIFI_AP_STATE_IDLE) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_BUSY, "The access point is %s already",
		            wifi_ap_state_to_string(self->state));
		return FALSE;
	}
	if (!check_config(self, config, error))
		return FALSE;
	memcpy(self->ssid, config->ssid, config->ssid_len);
	self->ssid_len = config->ssid_len;
	self->open = config->open;
	self->security = config->security;
	g_clear_pointer(&self->passphrase, joind_secret_wipe);
	if (wifi_ap_offers_sae(self))
		self->passphrase = g_strdup(config->secret);
	self->hidden = config->hidden;
	self->rekey_interval = config->rekey_interval;
	self->max_stations =
	        config->max_stations != 0 ? config->max_stations : WIFI_AP_DEFAULT_MAX_STATIONS;
	self->max_inactivity = config->max_inactivity != 0 ? config->max_inactivity
	                                                   : WIFI_AP_DEFAULT_MAX_INACTIVITY_S;
	if (!self->open) {
		build_rsne(self);
		if (!wifi_group_keys_generate(&self->gk, WIFI_CIPHER_SUITE_CCMP,
		                              self->mfpc ? WIFI_CIPHER_SUITE_BIP_CMAC : 0, NULL,
		                              error))
			return FALSE;
	}
	self->step = self->channel != 0 ? STEP_REGISTER : STEP_SCAN;
	why = g_strdup_printf("%s, %s, %s", self->hidden ? "hidden" : "SSID shown",
	                      security_name(self),
	                      self->channel != 0 ? "channel configured" : "choosing a channel");
	wifi_ap_enter(self, WIFI_AP_STATE_STARTING, why);
	step_run(self);
	return TRUE;
}

static void
stopped(int err, gpointer user_data)
{
	WifiAp *self = user_data;
	g_autofree gchar *why = NULL;

	if (self->state != WIFI_AP_STATE_STOPPING)
		return;
	why = err < 0 && err != -ENOENT ? g_strdup_printf("STOP_AP: %s", g_strerror(-err))
	                                : g_strdup("BSS stopped");
	wifi_ap_enter(self, WIFI_AP_STATE_IDLE, why);
}

void
wifi_ap_stop(WifiAp *self, const gchar *reason)
{
	guint id;

	if (self->state == WIFI_AP_STATE_IDLE || self->state == WIFI_AP_STATE_STOPPING)
		return;
	wifi_ap_enter(self, WIFI_AP_STATE_STOPPING, reason);
	id = wifi_ap_send(self, wifi_ap_msg_stop(self->iface->nl, self->iface->ifindex), stopped,
	                  self);
	if (id != 0 && self->state == WIFI_AP_STATE_STOPPING)
		g_ptr_array_add(self->requests, GUINT_TO_POINTER(id));
}

static void
rekey_done(int err, gpointer user_data)
{
	WifiAp *self = user_data;

	if (err < 0) {
		g_autofree gchar *why =
		        g_strdup_printf("the new group key was refused: %s", g_strerror(-err));

		wifi_ap_stop(self, why);
	}
}

static void
rekey_send(WifiAp *self, struct nl_msg *msg)
{
	guint id = wifi_ap_send(self, msg, rekey_done, self);

	if (id != 0)
		g_ptr_array_add(self->requests, GUINT_TO_POINTER(id));
}

void
wifi_ap_rekey_group(WifiAp *self)
{
	g_autoptr(GError) error = NULL;
	WifiGroupKeys previous = self->gk;
	WifiHandshakeKey gtk = {.kind = WIFI_KEY_KIND_GROUP, .cipher = WIFI_CIPHER_SUITE_CCMP};

	if (self->state != WIFI_AP_STATE_STARTED || self->open)
		return;
	if (!wifi_group_keys_generate(&self->gk, WIFI_CIPHER_SUITE_CCMP,
	                              self->mfpc ? WIFI_CIPHER_SUITE_BIP_CMAC : 0, &previous,
	                              &error)) {
		joind_secret_clear(&previous, sizeof(previous));
		wifi_ap_stop(self, error->message);
		return;
	}
	joind_secret_clear(&previous, sizeof(previous));
	wifi_iface_info(self->iface, "access point rotates its group key (key %u)",
	                self->gk.gtk_id);
	/* Installed and made the transmit key at once, as hostapd does: a
	 * station misses group frames only until its group handshake ends. */
	gtk.key_id = self->gk.gtk_id;
	gtk.key = self->gk.gtk;
	gtk.key_len = self->gk.gtk_len;
	/* Earlier rotations' requests are long over (each has a deadline). */
	g_ptr_array_set_size(self->requests, 0);
	rekey_send(self, wifi_rsn_msg_new_key(self->iface->nl, self->iface->ifindex, &gtk));
	rekey_send(self, wifi_ap_msg_default_group_key(self->iface->nl, self->iface->ifindex,
	                                               self->gk.gtk_id));
	wifi_ap_sta_rekey_all(self);
}
