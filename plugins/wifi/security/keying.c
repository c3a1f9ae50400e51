/* keying.c - the key step of a connection (see keying.h). */
#include "keying.h"

#include <string.h>

#include "codes.h"
#include "eap-auth.h"
#include "eapol-socket.h"
#include "joind.h"

/* After 802.1X gave the PMK: hostapd sends message 1 four times a second
 * apart before it gives up (the connector's bound for the PSK case). */
#define KEYING_HANDSHAKE_TIMEOUT_S 5
/* A handshake the access point starts over once the link is up (a PTK
 * rekey, or its restart after it dropped our keys) takes milliseconds;
 * hostapd gives up after about three seconds of message 1s. */
#define KEYING_REKEY_TIMEOUT_S 3

struct _WifiKeying {
	WifiIface *iface;
	WifiHandshake *hs; /* NULL until the PMK is known (802.1X) */
	WifiHandshakeConfig hs_config;
	WifiEapolSocket *eapol_socket; /* the AF_PACKET path */
	guint8 aa[6];
	guint8 spa[6];
	WifiKeyingFunc func;
	gpointer user_data;
	guint authorize_request;
	gboolean authorized; /* the port is open: later group keys are rekeys */
	gboolean ft_keyed;   /* a fast transition's reassociation keyed the link */

	/* 802.1X */
	WifiEapAuth *eap;
	gchar *network;               /* the PMKSA cache's key of the network */
	WifiPmksaCache *pmksa_cache;  /* the station's (borrowed) */
	guint8 pmk[WIFI_PMK_MAX_LEN]; /* from EAP or the cached PMKSA */
	gsize pmk_len;
	gboolean pmksa_offered; /* our RSNE names a cached PMKID, not yet refused */
	gboolean pmksa_used;    /* that PMKSA keyed the link: EAP was skipped */
	gboolean pmksa_pending; /* a fresh PMK from EAP, cached once it keyed */
	gboolean rejected;      /* EAP refused the credentials */
	guint handshake_timer;
	/* FT-802.1X: what the hierarchy is bound to until EAP's MSK comes,
	 * then the hierarchy (ft_keys.pmk_len 0: none yet). */
	gboolean ft;
	WifiFtHolders ft_holders;
	GBytes *ft_ssid, *ft_mde, *ft_fte;
	WifiFtKeys ft_keys;
	/* A re-authentication's hierarchy, the link's once a 4-way handshake
	 * keyed with it (hostapd 2.10 runs none: its PMK-R0 stays the old). */
	WifiFtKeys ft_next;

	/* An EAPOL frame that came before the association's event: the
	 * kernel may pass the access point's first frame up before it sends
	 * our replies (ENOTCONN), OWE's PMK comes with that event, and the
	 * access point retransmits only after a second. */
	GBytes *held;
	guint held_replay;   /* the idle that takes it once associated */
	gboolean associated; /* the association's event came */
	gboolean peer_clear; /* the access point's last EAPOL frame came unprotected */
};

static void
keying_report(WifiKeying *self, const GError *error)
{
	if (error == NULL)
		self->authorized = TRUE;
	self->func(error, self->user_data);
}

static void
log_failure(int error, gpointer user_data)
{
	if (error < 0)
		joind_dev_warning((const gchar *)user_data, "%s", g_strerror(-error));
}

static void
keying_send(const guint8 *frame, gsize len, gpointer user_data)
{
	WifiKeying *self = user_data;
	WifiIface *iface = self->iface;
	g_autoptr(GError) error = NULL;
	struct nl_msg *msg;

	if (self->eapol_socket != NULL) {
		/* The kernel encrypts once a pairwise key is in; the handshake
		 * sends message 4 before it installs the first one. */
		if (!wifi_eapol_socket_send(self->eapol_socket, self->aa, frame, len, &error))
			wifi_iface_warning(iface, "%s", error->message);
		return;
	}
	/* Before the first pairwise key, frames go out in the clear; so do
	 * answers to a frame the access point sent in the clear. */
	msg = wifi_rsn_msg_eapol(iface->nl, iface->ifindex, self->aa, frame, len,
	                         self->hs == NULL || !wifi_handshake_has_ptk(self->hs) ||
	                                 self->peer_clear);
	wifi_nl_send(iface->nl, msg, NULL, log_failure,
	             g_strdup_printf("%s: sending EAPOL", iface->name), g_free);
}

static const gchar *
key_kind_name(WifiKeyKind kind)
{
	switch (kind) {
	case WIFI_KEY_KIND_PAIRWISE:
		return "pairwise key (TK)";
	case WIFI_KEY_KIND_GROUP:
		return "group key (GTK)";
	case WIFI_KEY_KIND_GROUP_MGMT:
		return "group management key (IGTK)";
	default:
		return "key";
	}
}

static void
keying_install_key(const WifiHandshakeKey *key, gpointer user_data)
{
	WifiKeying *self = user_data;
	WifiIface *iface = self->iface;
	struct nl_msg *set_default;

	/* Once the port is open, a new group key is a rekey: said at info
	 * level so that a log shows the link living through them. */
	if (self->authorized && key->kind != WIFI_KEY_KIND_PAIRWISE)
		wifi_iface_info(iface, "rekey: new %s, key ID %u (%s)", key_kind_name(key->kind),
		                key->key_id, wifi_cipher_suite_to_string(key->cipher));
	else
		wifi_iface_debug(iface, "installing the %s, key ID %u (%s)",
		                 key_kind_name(key->kind), key->key_id,
		                 wifi_cipher_suite_to_string(key->cipher));
	wifi_nl_send(iface->nl, wifi_rsn_msg_new_key(iface->nl, iface->ifindex, key), NULL,
	             log_failure, g_strdup_printf("%s: NEW_KEY", iface->name), g_free);
	/* Requests run in order: SET_KEY finds the key NEW_KEY added. */
	set_default = wifi_rsn_msg_set_default_key(iface->nl, iface->ifindex, key);
	if (set_default != NULL)
		wifi_nl_send(iface->nl, set_default, NULL, log_failure,
		             g_strdup_printf("%s: SET_KEY", iface->name), g_free);
}

static void
authorized(int error, gpointer user_data)
{
	WifiKeying *self = user_data;
	g_autoptr(GError) local = NULL;

	self->authorize_request = 0;
	if (error < 0)
		local = g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "Cannot authorize the port: %s", g_strerror(-error));
	keying_report(self, local);
}

/* A PMK from a full EAP authentication keyed the link: the next
 * association to this access point may skip EAP. */
static void
keying_cache_pmksa(WifiKeying *self)
{
	g_autoptr(GError) error = NULL;
	gchar aa_text[JOIND_MAC_STRING_LEN];
	WifiPmksa *pmksa;

	if (!self->pmksa_pending)
		return;
	self->pmksa_pending = FALSE;
	pmksa = wifi_pmksa_new(self->hs_config.akm, self->pmk, self->pmk_len, self->aa, self->spa,
	                       self->network, WIFI_PMKSA_DEFAULT_LIFETIME_S, g_get_monotonic_time(),
	                       &error);
	if (pmksa == NULL) {
		wifi_iface_debug(self->iface, "no PMKSA to cache: %s", error->message);
		return;
	}
	wifi_pmksa_cache_add(self->pmksa_cache, pmksa);
	wifi_iface_info(self->iface, "PMKSA cached for %s for %u s (%u in the cache)",
	                joind_mac_to_string(self->aa, aa_text), WIFI_PMKSA_DEFAULT_LIFETIME_S,
	                wifi_pmksa_cache_size(self->pmksa_cache));
}

static gboolean handshake_timeout(gpointer user_data);

static void
keying_state_changed(WifiHandshakeState old_state, WifiHandshakeState new_state, gpointer user_data)
{
	WifiKeying *self = user_data;
	WifiIface *iface = self->iface;

	/* Started over on a keyed link: when it cannot finish (the access
	 * point keys with a PMK we do not hold), the link is dead although
	 * the kernel keeps it (the access point's deauthentication comes
	 * unprotected and is dropped): bounded, the connector then ends it. */
	if (old_state == WIFI_HANDSHAKE_STATE_COMPLETE &&
	    new_state == WIFI_HANDSHAKE_STATE_WAIT_MSG3) {
		g_clear_handle_id(&self->handshake_timer, g_source_remove);
		self->handshake_timer =
		        g_timeout_add_seconds(KEYING_REKEY_TIMEOUT_S, handshake_timeout, self);
		return;
	}
	if (new_state != WIFI_HANDSHAKE_STATE_COMPLETE)
		return;
	g_clear_handle_id(&self->handshake_timer, g_source_remove);
	keying_cache_pmksa(self);
	if (self->ft_next.pmk_len != 0 && old_state != WIFI_HANDSHAKE_STATE_COMPLETE) {
		self->ft_keys = self->ft_next;
		wifi_ft_keys_clear(&self->ft_next);
	}
	if (old_state == WIFI_HANDSHAKE_STATE_COMPLETE) {
		wifi_iface_info(iface, "group key renewed");
		return;
	}
	wifi_iface_info(iface, "%s, authorizing the port",
	                self->ft_keyed ? "keys from the fast transition (no 4-way handshake)"
	                               : "4-way handshake complete");
	self->authorize_request =
	        wifi_nl_send(iface->nl, wifi_rsn_msg_authorize(iface->nl, iface->ifindex, self->aa),
	                     NULL, authorized, self, NULL);
}

static const WifiHandshakeCallbacks keying_callbacks = {keying_send, keying_install_key,
                                                        keying_state_changed};

static void
on_socket_frame(const guint8 *src, const guint8 *frame, gsize len, gpointer user_data)
{
	wifi_keying_rx(user_data, src, frame, len);
}

static gboolean
keying_open_eapol(WifiKeying *self, gboolean control_port_nl, GError **error)
{
	WifiIface *iface = self->iface;

	if (control_port_nl) {
		wifi_iface_info(iface, "EAPOL over the nl80211 control port");
		return TRUE;
	}
	self->eapol_socket = wifi_eapol_socket_new(iface->ifindex, on_socket_frame, self, error);
	if (self->eapol_socket == NULL)
		return FALSE;
	wifi_iface_info(iface, "EAPOL over AF_PACKET (%s)",
	                wifi_wiphy_can_control_port_nl80211(iface->wiphy)
	                        ? "main.conf: ControlPortOverNL80211=false"
	                        : "the radio cannot carry EAPOL over nl80211");
	return TRUE;
}

/* ---- the handshake over a PMK -------------------------------------------- */

/* The 4-way handshake over the PMK in self->pmk (802.1X), told the PMKID
 * the access point's message 1 should name. */
static gboolean
keying_start_handshake(WifiKeying *self, GError **error)
{
	guint8 pmkid[WIFI_PMKID_LEN];
	gboolean have_pmkid = wifi_pmkid(self->hs_config.akm, self->pmk, self->pmk_len, self->aa,
	                                 self->spa, pmkid, NULL);

	if (self->hs != NULL)
		return wifi_handshake_set_pmk(self->hs, self->pmk, self->pmk_len,
		                              have_pmkid ? pmkid : NULL, error);
	self->hs_config.pmk = self->pmk;
	self->hs_config.pmk_len = self->pmk_len;
	self->hs_config.pmkid = have_pmkid ? pmkid : NULL;
	self->hs = wifi_handshake_new(&self->hs_config, &keying_callbacks, self, error);
	self->hs_config.pmk = NULL;
	self->hs_config.pmkid = NULL;
	return self->hs != NULL;
}

static gboolean
handshake_timeout(gpointer user_data)
{
	WifiKeying *self = user_data;
	g_autoptr(GError) error = NULL;

	self->handshake_timer = 0;
	error = wifi_keying_abort(self, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0);
	keying_report(self, error);
	return G_SOURCE_REMOVE;
}

static void
keying_arm_handshake_timer(WifiKeying *self)
{
	g_clear_handle_id(&self->handshake_timer, g_source_remove);
	if (!self->authorized)
		self->handshake_timer =
		        g_timeout_add_seconds(KEYING_HANDSHAKE_TIMEOUT_S, handshake_timeout, self);
}

/* ---- 802.1X --------------------------------------------------------------- */

/* The access point began EAP although our RSNE named a cached PMKSA: it
 * no longer has it. Full EAP follows, and a new PMK. */
static void
eap_started(gpointer user_data)
{
	WifiKeying *self = user_data;

	if (!self->pmksa_offered)
		return;
	self->pmksa_offered = FALSE;
	wifi_iface_info(
	        self->iface,
	        "the access point did not take the cached PMKSA: full 802.1X authentication");
	wifi_pmksa_cache_remove(self->pmksa_cache, self->aa, self->spa, self->network);
	g_clear_handle_id(&self->handshake_timer, g_source_remove);
	g_clear_pointer(&self->hs, wifi_handshake_free);
}

/* FT-802.1X: the hierarchy from the MSK's XXKey, and the 4-way
 * handshake over its PMK-R1 by the FT rules. */
static gboolean
keying_start_ft(WifiKeying *self, const guint8 *msk, gsize msk_len, GError **error)
{
	guint8 xxkey[WIFI_FT_PMK_MAX_LEN];
	gsize xxkey_len = 0, mde_len, fte_len;
	const guint8 *mde = g_bytes_get_data(self->ft_mde, &mde_len);
	const guint8 *fte = g_bytes_get_data(self->ft_fte, &fte_len);
	gchar r1kh[JOIND_MAC_STRING_LEN];
	gboolean ok;

	WifiFtKeys *keys = self->hs != NULL ? &self->ft_next : &self->ft_keys;

	wifi_ft_keys_clear(keys);
	ok = wifi_ft_xxkey_from_msk(self->hs_config.akm, msk, msk_len, xxkey, &xxkey_len, error) &&
	     wifi_ft_keys_derive(self->hs_config.akm, xxkey, xxkey_len,
	                         g_bytes_get_data(self->ft_ssid, NULL),
	                         g_bytes_get_size(self->ft_ssid), &self->ft_holders, keys, error);
	joind_secret_clear(xxkey, sizeof(xxkey));
	if (!ok)
		return FALSE;
	/* A re-authentication of the link (at the access point of the
	 * mobility domain association, or one a transition led to): the
	 * access point's next 4-way handshake keys from the new PMK-R1. */
	if (self->hs != NULL) {
		wifi_iface_info(self->iface,
		                "EAP re-authentication: a new PMK-R0 and PMK-R1 (R1KH-ID %s) "
		                "from the new MSK",
		                joind_mac_to_string(self->ft_holders.r1kh_id, r1kh));
		return wifi_handshake_set_ft_keys(self->hs, keys, error);
	}
	return wifi_keying_set_ft(self, &self->ft_keys, mde, mde_len, fte, fte_len, error);
}

static void
eap_succeeded(const guint8 *msk, gsize msk_len, gpointer user_data)
{
	WifiKeying *self = user_data;
	g_autoptr(GError) error = NULL;

	if (self->ft) {
		if (!keying_start_ft(self, msk, msk_len, &error))
			keying_report(self, error);
		else
			keying_arm_handshake_timer(self);
		return;
	}
	joind_secret_clear(self->pmk, sizeof(self->pmk));
	if (!wifi_pmk_from_msk(self->hs_config.akm, msk, msk_len, self->pmk, &self->pmk_len,
	                       &error) ||
	    !keying_start_handshake(self, &error)) {
		keying_report(self, error);
		return;
	}
	self->pmksa_pending = TRUE;
	self->pmksa_used = FALSE;
	/* A re-authentication of a keyed link: the access point holds the
	 * new PMKSA from now on, whether or not it rekeys with it. */
	if (self->authorized)
		keying_cache_pmksa(self);
	keying_arm_handshake_timer(self);
}

static void
eap_failed(const GError *error, gboolean rejected, gpointer user_data)
{
	WifiKeying *self = user_data;

	self->rejected = rejected;
	keying_report(self, error);
}

static const WifiEapAuthCallbacks keying_eap_callbacks = {
        .send = keying_send,
        .started = eap_started,
        .succeeded = eap_succeeded,
        .failed = eap_failed,
};

/* 802.1X: the EAP conversation, and the handshake over the cached PMKSA
 * our RSNE names, if any. */
static gboolean
keying_setup_8021x(WifiKeying *self, const WifiKeyingConfig *config, GError **error)
{
	self->network = g_strdup(config->network);
	self->eap = wifi_eap_auth_new(config->core, config->profile, config->object_path,
	                              config->requester, self->iface->name, &keying_eap_callbacks,
	                              self, error);
	if (self->eap == NULL)
		return FALSE;
	if (config->pmksa == NULL)
		return TRUE;
	memcpy(self->pmk, config->pmksa->pmk, config->pmksa->pmk_len);
	self->pmk_len = config->pmksa->pmk_len;
	self->pmksa_offered = TRUE;
	return keying_start_handshake(self, error);
}

/* ---- life cycle ----------------------------------------------------------- */

WifiKeying *
wifi_keying_new(WifiIface *iface, const WifiKeyingConfig *config, WifiKeyingFunc func,
                gpointer user_data, GError **error)
{
	const WifiRsnPlan *plan = config->plan;
	WifiKeying *self = g_new0(WifiKeying, 1);
	gboolean ok;

	self->iface = wifi_iface_ref(iface);
	self->pmksa_cache = config->pmksa_cache;
	self->func = func;
	self->user_data = user_data;
	memcpy(self->aa, config->aa, 6);
	memcpy(self->spa, config->spa, 6);
	self->hs_config = (WifiHandshakeConfig){
	        .akm = plan->akm,
	        .pairwise_cipher = plan->pairwise_cipher,
	        .group_cipher = plan->group_cipher,
	        .group_mgmt_cipher = plan->group_mgmt_cipher,
	        .own_rsne = plan->own_rsne,
	        .own_rsne_len = plan->own_rsne_len,
	        .own_rsnxe = plan->own_rsnxe_len > 0 ? plan->own_rsnxe : NULL,
	        .own_rsnxe_len = plan->own_rsnxe_len,
	        .ap_rsne = plan->ap_rsne,
	        .ap_rsne_len = plan->ap_rsne_len,
	        .ap_rsnxe = plan->ap_rsnxe,
	        .ap_rsnxe_len = plan->ap_rsnxe_len,
	};
	memcpy(self->hs_config.spa, config->spa, 6);
	memcpy(self->hs_config.aa, config->aa, 6);
	if (config->pmk == NULL && config->profile != NULL) {
		ok = keying_setup_8021x(self, config, error);
	} else if (config->pmk == NULL) {
		ok = TRUE; /* OWE: wifi_keying_set_pmk() */
	} else {
		self->hs_config.pmk = config->pmk;
		self->hs_config.pmk_len = config->pmk_len;
		self->hs = wifi_handshake_new(&self->hs_config, &keying_callbacks, self, error);
		self->hs_config.pmk = NULL;
		ok = self->hs != NULL;
	}
	if (!ok || !keying_open_eapol(self, config->control_port_nl, error)) {
		wifi_keying_free(self);
		return NULL;
	}
	return self;
}

void
wifi_keying_free(WifiKeying *self)
{
	if (self == NULL)
		return;
	wifi_nl_cancel(self->iface->nl, self->authorize_request);
	g_clear_handle_id(&self->handshake_timer, g_source_remove);
	g_clear_handle_id(&self->held_replay, g_source_remove);
	g_clear_pointer(&self->eapol_socket, wifi_eapol_socket_free);
	g_clear_pointer(&self->hs, wifi_handshake_free);
	g_clear_pointer(&self->eap, wifi_eap_auth_free);
	g_clear_pointer(&self->held, g_bytes_unref);
	g_clear_pointer(&self->ft_ssid, g_bytes_unref);
	g_clear_pointer(&self->ft_mde, g_bytes_unref);
	g_clear_pointer(&self->ft_fte, g_bytes_unref);
	joind_secret_clear(&self->ft_holders, sizeof(self->ft_holders));
	wifi_ft_keys_clear(&self->ft_keys);
	wifi_ft_keys_clear(&self->ft_next);
	g_free(self->network);
	joind_secret_clear(self->pmk, sizeof(self->pmk));
	wifi_iface_unref(self->iface);
	g_free(self);
}

gboolean
wifi_keying_set_pmk(WifiKeying *self, const guint8 *pmk, gsize pmk_len, const guint8 *pmkid,
                    GError **error)
{
	/* Inside the association's event: a message 1 held until now is
	 * taken once wifi_keying_associated() follows. */
	self->hs_config.pmk = pmk;
	self->hs_config.pmk_len = pmk_len;
	self->hs_config.pmkid = pmkid;
	self->hs = wifi_handshake_new(&self->hs_config, &keying_callbacks, self, error);
	self->hs_config.pmk = NULL;
	self->hs_config.pmkid = NULL;
	return self->hs != NULL;
}

gboolean
wifi_keying_set_ft(WifiKeying *self, const WifiFtKeys *keys, const guint8 *mde, gsize mde_len,
                   const guint8 *fte, gsize fte_len, GError **error)
{
	gboolean ok;

	self->hs_config.ft = keys;
	self->hs_config.ft_mde = mde;
	self->hs_config.ft_mde_len = mde_len;
	self->hs_config.ft_fte = fte;
	self->hs_config.ft_fte_len = fte_len;
	ok = wifi_keying_set_pmk(self, keys->pmk_r1, keys->pmk_len, NULL, error);
	self->hs_config.ft = NULL;
	self->hs_config.ft_mde = self->hs_config.ft_fte = NULL;
	return ok;
}

gboolean
wifi_keying_set_ft_holders(WifiKeying *self, const WifiFtHolders *holders, const guint8 *ssid,
                           gsize ssid_len, const guint8 *mde, gsize mde_len, const guint8 *fte,
                           gsize fte_len, GError **error)
{
	if (self->eap == NULL || !wifi_ft_akm_is_ft(self->hs_config.akm))
		return joind_set_error(error, JOIND_ERROR_FAILED,
		                       "Fast transition's key holders came to a key step that "
		                       "runs no 802.1X.");
	self->ft = TRUE;
	self->ft_holders = *holders;
	g_clear_pointer(&self->ft_ssid, g_bytes_unref);
	g_clear_pointer(&self->ft_mde, g_bytes_unref);
	g_clear_pointer(&self->ft_fte, g_bytes_unref);
	self->ft_ssid = g_bytes_new(ssid, ssid_len);
	self->ft_mde = g_bytes_new(mde, mde_len);
	self->ft_fte = g_bytes_new(fte, fte_len);
	return TRUE;
}

const WifiFtKeys *
wifi_keying_get_ft_keys(WifiKeying *self)
{
	return self->ft_keys.pmk_len != 0 ? &self->ft_keys : NULL;
}

gboolean
wifi_keying_ft_transition(WifiKeying *self, const WifiFtTransition *ft, const guint8 *mde,
                          gsize mde_len, const guint8 *fte, gsize fte_len,
                          const WifiFtGroupKeys *group, GError **error)
{
	self->ft_keyed = TRUE;
	/* FT-802.1X: no EAP on the target; one the access point starts
	 * later is a re-authentication. */
	if (self->eap != NULL)
		wifi_eap_auth_stop(self->eap, "keys from the fast transition");
	return wifi_keying_set_ft(self, wifi_ft_transition_get_keys(ft), mde, mde_len, fte, fte_len,
	                          error) &&
	       wifi_handshake_ft_keyed(self->hs, wifi_ft_transition_get_ptk(ft), group, error);
}

/* Out of the association's event, so that what the frame leads to (a
 * failure ending the attempt) does not run inside the connector's
 * change of state. */
static gboolean
keying_replay_held(gpointer user_data)
{
	WifiKeying *self = user_data;
	g_autoptr(GBytes) held = g_steal_pointer(&self->held);
	gsize len = 0;
	const guint8 *frame = g_bytes_get_data(held, &len);

	self->held_replay = 0;
	wifi_keying_rx(self, NULL, frame, len);
	return G_SOURCE_REMOVE;
}

void
wifi_keying_associated(WifiKeying *self)
{
	self->associated = TRUE;
	if (self->eap != NULL)
		wifi_eap_auth_associated(self->eap);
	if (self->held != NULL)
		self->held_replay = g_idle_add(keying_replay_held, self);
}

/* ---- received frames ------------------------------------------------------ */

/* A message 1 the handshake over the cached PMKSA accepted: the access
 * point took it, EAP is skipped. */
static void
keying_pmksa_taken(WifiKeying *self)
{
	if (!self->pmksa_offered)
		return;
	self->pmksa_offered = FALSE;
	self->pmksa_used = TRUE;
	wifi_eap_auth_stop(self->eap, "the access point took the cached PMKSA");
	keying_arm_handshake_timer(self);
}

static void
keying_rx_key(WifiKeying *self, const guint8 *frame, gsize len)
{
	g_autoptr(GError) error = NULL;

	if (self->hs == NULL) {
		wifi_iface_debug(self->iface, "EAPOL-Key frame dropped: no PMK yet");
		return;
	}
	switch (wifi_handshake_rx(self->hs, frame, len, &error)) {
	case WIFI_HANDSHAKE_RX_ACCEPTED:
		if (self->pmksa_offered)
			keying_pmksa_taken(self);
		break;
	case WIFI_HANDSHAKE_RX_DROPPED:
		wifi_iface_debug(self->iface, "EAPOL frame dropped: %s", error->message);
		break;
	case WIFI_HANDSHAKE_RX_FAILED:
		keying_report(self, error);
		break;
	}
}

void
wifi_keying_set_peer_clear(WifiKeying *self, gboolean clear)
{
	if (clear && !self->peer_clear && self->hs != NULL && wifi_handshake_has_ptk(self->hs))
		wifi_iface_info(
		        self->iface,
		        "the access point sends EAPOL in the clear although keys are in: it "
		        "dropped them, and is answered in the clear");
	self->peer_clear = clear;
}

void
wifi_keying_rx(WifiKeying *self, const guint8 *src, const guint8 *frame, gsize len)
{
	if (src != NULL && memcmp(src, self->aa, 6) != 0)
		return;
	if (!self->associated) {
		/* The latest frame only: one the access point repeated
		 * replaces it. */
		wifi_iface_debug(self->iface, "EAPOL frame held until the association's event");
		g_clear_pointer(&self->held, g_bytes_unref);
		self->held = g_bytes_new(frame, len);
		return;
	}
	if (len >= WIFI_EAPOL_HLEN && frame[1] == WIFI_EAPOL_EAP_PACKET) {
		if (self->eap != NULL)
			wifi_eap_auth_rx(self->eap, frame, len);
		else
			wifi_iface_debug(self->iface, "EAP packet dropped: not an 802.1X network");
		return;
	}
	keying_rx_key(self, frame, len);
}

/* ---- outcome -------------------------------------------------------------- */

GError *
wifi_keying_abort(WifiKeying *self, WifiHandshakeAbort cause, guint16 reason)
{
	GError *error = NULL;

	if (self->hs == NULL || self->pmksa_offered) {
		/* Still in 802.1X: the authentication, not a key, is what failed. */
		if (cause == WIFI_HANDSHAKE_ABORT_TIMEOUT)
			return g_error_new_literal(
			        JOIND_ERROR, JOIND_ERROR_FAILED,
			        "The 802.1X authentication did not finish in time.");
		return g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
		                   "The access point ended the association during the 802.1X "
		                   "authentication (reason %u: %s).",
		                   reason, wifi_reason_to_string(reason));
	}
	wifi_handshake_abort(self->hs, cause, reason, &error);
	if (error == NULL)
		error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED,
		                            "The key handshake failed.");
	return error;
}

gint
wifi_keying_error_code(const GError *error)
{
	if (g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE) ||
	    g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3))
		return JOIND_ERROR_AUTHENTICATION_FAILED;
	return error->domain == JOIND_ERROR ? error->code : JOIND_ERROR_FAILED;
}

gboolean
wifi_keying_is_8021x(WifiKeying *self)
{
	return self->eap != NULL;
}

gboolean
wifi_keying_blames_credentials(WifiKeying *self, const GError *error)
{
	if (self->eap != NULL)
		return self->rejected;
	return g_error_matches(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE);
}

const gchar *
wifi_keying_get_eap_method(WifiKeying *self)
{
	return self->eap != NULL ? wifi_eap_auth_get_method(self->eap) : NULL;
}

const gchar *
wifi_keying_get_eap_identity(WifiKeying *self)
{
	return self->eap != NULL ? wifi_eap_auth_get_identity(self->eap) : NULL;
}

GVariant *
wifi_keying_get_eap_server_cert(WifiKeying *self)
{
	return self->eap != NULL ? wifi_eap_auth_get_server_cert(self->eap) : NULL;
}

gboolean
wifi_keying_pmksa_used(WifiKeying *self)
{
	return self->pmksa_used;
}

guint8
wifi_keying_get_transition_disable(WifiKeying *self)
{
	return self->hs != NULL ? wifi_handshake_get_transition_disable(self->hs) : 0;
}

gboolean
wifi_keying_adopt_profile(WifiKeying *self, JoindProfile *profile)
{
	return self->eap != NULL && wifi_eap_auth_adopt_profile(self->eap, profile);
}
