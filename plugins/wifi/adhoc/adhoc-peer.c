/* adhoc-peer.c - the IBSS's peers: each seen peer of an open IBSS is
 * linked at once (the kernel opened its port itself); with each peer of an
 * RSN IBSS joind runs two 4-way handshakes, as its supplicant and as its
 * authenticator (the handshake room's, unchanged), installs the pairwise
 * key of the one whose authenticator has the higher address and the
 * peer's group key for that peer, and opens the port once both are done.
 * A peer whose handshakes fail or take over WIFI_ADHOC_KEYING_TIMEOUT_S
 * is deleted; the kernel re-adds it when it hears it again, and the
 * handshakes start over.
 *
 *   new --open--> linked
 *   new --RSN--> keying --both handshakes--> authorizing --SET_STATION--> linked
 *   any --DEL_STATION, a failure, the IBSS left--> gone
 *
 * adhoc_peer_enter() is the one place a peer's state changes.
 */
#include "adhoc-private.h"

#include <string.h>

#include "ap-cmds.h"
#include "eapol-key.h"
#include "joind-mac.h"
#include "rsn.h"

#define ADHOC_RETRANSMIT_MS 1000
/* IEEE 802.11-2020 table 9-49: sent with DEL_STATION. */
#define REASON_4WAY_TIMEOUT 15

static const gchar *
peer_state_to_string(AdhocPeerState state)
{
	static const gchar *const names[] = {
	        [ADHOC_PEER_NEW] = "new",
	        [ADHOC_PEER_KEYING] = "keying",
	        [ADHOC_PEER_AUTHORIZING] = "authorizing",
	        [ADHOC_PEER_LINKED] = "linked",
	        [ADHOC_PEER_GONE] = "gone",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == ADHOC_PEER_STATE_LAST + 1);

	return (guint)state < G_N_ELEMENTS(names) ? names[state] : "unknown";
}

static gint64
peer_key(const guint8 mac[6])
{
	gint64 key = 0;

	for (guint i = 0; i < 6; i++)
		key = (key << 8) | mac[i];
	return key;
}

static void
adhoc_peer_enter(AdhocPeer *peer, AdhocPeerState state, const gchar *reason)
{
	WifiAdhoc *adhoc = peer->adhoc;
	g_autofree gchar *machine = g_strconcat("peer ", peer->name, NULL);
	AdhocPeerState old = peer->state;

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", adhoc->iface->name, NULL, machine},
	                       peer_state_to_string(old), peer_state_to_string(state), reason);
	peer->state = state;
	if (state != ADHOC_PEER_KEYING)
		g_clear_handle_id(&peer->deadline, g_source_remove);
	if (state == ADHOC_PEER_LINKED && adhoc->cb.peer_changed != NULL)
		adhoc->cb.peer_changed(peer->mac, TRUE, adhoc->user_data);
	if (old == ADHOC_PEER_LINKED && state == ADHOC_PEER_GONE && adhoc->cb.peer_changed != NULL)
		adhoc->cb.peer_changed(peer->mac, FALSE, adhoc->user_data);
}

void
wifi_adhoc_peer_free(gpointer data)
{
	AdhocPeer *peer = data;

	if (peer->state != ADHOC_PEER_GONE)
		adhoc_peer_enter(peer, ADHOC_PEER_GONE, "the IBSS was left");
	g_clear_handle_id(&peer->retransmit, g_source_remove);
	g_clear_handle_id(&peer->deadline, g_source_remove);
	if (peer->request != 0)
		wifi_nl_cancel(peer->adhoc->iface->nl, peer->request);
	wifi_handshake_free(peer->supp);
	wifi_authenticator_free(peer->auth);
	g_free(peer);
}

AdhocPeer *
wifi_adhoc_peer_lookup(WifiAdhoc *adhoc, const guint8 mac[6])
{
	gint64 key = peer_key(mac);

	return g_hash_table_lookup(adhoc->peers, &key);
}

/* Drops the peer: DEL_STATION (the kernel forgets its keys; it re-adds the
 * peer when it hears it again) and the table entry. */
static void
peer_drop(AdhocPeer *peer, const gchar *why)
{
	WifiAdhoc *adhoc = peer->adhoc;

	wifi_iface_warning(adhoc->iface, "ad-hoc: peer %s dropped: %s", peer->name, why);
	adhoc_peer_enter(peer, ADHOC_PEER_GONE, why);
	wifi_nl_send(adhoc->iface->nl,
	             wifi_ap_msg_del_station(adhoc->iface->nl, adhoc->iface->ifindex, peer->mac,
	                                     REASON_4WAY_TIMEOUT),
	             NULL, NULL, NULL, NULL);
	g_hash_table_remove(adhoc->peers, &peer->key);
}

static void
peer_fail(AdhocPeer *peer, const gchar *side, const GError *error)
{
	g_autofree gchar *why =
	        g_strdup_printf("its handshake as the %s failed: %s", side, error->message);

	peer_drop(peer, why);
}

static void
authorized(int err, gpointer user_data)
{
	AdhocPeer *peer = user_data;
	g_autofree gchar *why = NULL;

	peer->request = 0;
	if (err >= 0) {
		adhoc_peer_enter(peer, ADHOC_PEER_LINKED, "both 4-way handshakes complete");
		return;
	}
	why = g_strdup_printf("the kernel refused to open its port: %s", g_strerror(-err));
	peer_drop(peer, why);
}

/* Both handshakes are done: the port opens (the keys went to the kernel
 * before, on the same socket, so in order). */
static void
peer_check_done(AdhocPeer *peer)
{
	WifiAdhoc *adhoc = peer->adhoc;

	if (!peer->supp_done || !peer->auth_done || peer->state != ADHOC_PEER_KEYING)
		return;
	adhoc_peer_enter(peer, ADHOC_PEER_AUTHORIZING, "both 4-way handshakes complete");
	peer->request = wifi_nl_send(
	        adhoc->iface->nl,
	        wifi_rsn_msg_authorize(adhoc->iface->nl, adhoc->iface->ifindex, peer->mac), NULL,
	        authorized, peer, NULL);
}

/* Both handshakes' send callback. */
static void
peer_send(const guint8 *frame, gsize len, gpointer user_data)
{
	AdhocPeer *peer = user_data;
	WifiAdhoc *adhoc = peer->adhoc;

	/* Unencrypted until the port opens: the other side may not have the
	 * key we would use yet. */
	wifi_nl_send(adhoc->iface->nl,
	             wifi_rsn_msg_eapol(adhoc->iface->nl, adhoc->iface->ifindex, peer->mac, frame,
	                                len, peer->state != ADHOC_PEER_LINKED),
	             NULL, NULL, NULL, NULL);
}

/* Of the two pairwise keys, the kernel gets the one of the handshake whose
 * authenticator has the higher address (IEEE 802.11-2020 12.6.13, as
 * wpa_supplicant's IBSS does); each peer's group key is that peer's. */
static void
peer_install(AdhocPeer *peer, const WifiHandshakeKey *key, gboolean we_authenticate)
{
	WifiAdhoc *adhoc = peer->adhoc;
	WifiNl *nl = adhoc->iface->nl;
	gboolean we_are_higher = memcmp(adhoc->address, peer->mac, 6) > 0;
	struct nl_msg *msg;

	if (key->kind == WIFI_KEY_KIND_PAIRWISE) {
		if (we_authenticate != we_are_higher)
			return;
		msg = wifi_rsn_msg_new_key(nl, adhoc->iface->ifindex, key);
	} else if (key->kind == WIFI_KEY_KIND_GROUP && !we_authenticate) {
		msg = wifi_nl_msg_new(nl, NL80211_CMD_NEW_KEY, 0);
		wifi_rsn_put_new_key(msg, adhoc->iface->ifindex, key);
		nla_put(msg, NL80211_ATTR_MAC, 6, peer->mac);
		nla_put_u32(msg, NL80211_ATTR_KEY_TYPE, NL80211_KEYTYPE_GROUP);
	} else {
		return;
	}
	wifi_nl_send(nl, msg, NULL, NULL, NULL, NULL);
}

static void
supp_install(const WifiHandshakeKey *key, gpointer user_data)
{
	peer_install(user_data, key, FALSE);
}

static void
supp_state(WifiHandshakeState old_state, WifiHandshakeState new_state, gpointer user_data)
{
	AdhocPeer *peer = user_data;

	if (new_state != WIFI_HANDSHAKE_STATE_COMPLETE || peer->supp_done)
		return;
	peer->supp_done = TRUE;
	peer_check_done(peer);
}

static void
auth_install(const WifiHandshakeKey *key, gpointer user_data)
{
	peer_install(user_data, key, TRUE);
}

static gboolean
retransmit_fire(gpointer user_data)
{
	AdhocPeer *peer = user_data;
	g_autoptr(GError) error = NULL;

	if (wifi_authenticator_timeout(peer->auth, &error))
		return G_SOURCE_CONTINUE;
	peer->retransmit = 0;
	peer_fail(peer, "authenticator", error);
	return G_SOURCE_REMOVE;
}

static void
auth_state(WifiAuthenticatorState old_state, WifiAuthenticatorState new_state, gpointer user_data)
{
	AdhocPeer *peer = user_data;

	g_clear_handle_id(&peer->retransmit, g_source_remove);
	if (new_state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG2 ||
	    new_state == WIFI_AUTHENTICATOR_STATE_WAIT_MSG4 ||
	    new_state == WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2)
		peer->retransmit = g_timeout_add(ADHOC_RETRANSMIT_MS, retransmit_fire, peer);
	if (new_state != WIFI_AUTHENTICATOR_STATE_COMPLETE || peer->auth_done)
		return;
	peer->auth_done = TRUE;
	peer_check_done(peer);
}

static gboolean
deadline_fire(gpointer user_data)
{
	AdhocPeer *peer = user_data;
	g_autofree gchar *why = g_strdup_printf(
	        "its 4-way handshakes did not complete in %d s (%s)", WIFI_ADHOC_KEYING_TIMEOUT_S,
	        !peer->supp_done && !peer->auth_done ? "neither"
	        : peer->supp_done                    ? "ours as its authenticator"
	                                             : "ours as its supplicant");

	peer->deadline = 0;
	peer_drop(peer, why);
	return G_SOURCE_REMOVE;
}

/* Both handshakes made; the authenticator sends message 1 at once, the
 * supplicant waits for the peer's. */
static gboolean
peer_start_keys(AdhocPeer *peer, GError **error)
{
	static const WifiHandshakeCallbacks supp_cb = {peer_send, supp_install, supp_state};
	static const WifiAuthenticatorCallbacks auth_cb = {peer_send, auth_install, auth_state};
	WifiAdhoc *adhoc = peer->adhoc;
	WifiHandshakeConfig sc = {
	        .akm = WIFI_AKM_SUITE_PSK,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .pmk = adhoc->pmk,
	        .pmk_len = sizeof(adhoc->pmk),
	        .own_rsne = adhoc->rsne,
	        .own_rsne_len = adhoc->rsne_len,
	        .ap_rsne = adhoc->rsne,
	        .ap_rsne_len = adhoc->rsne_len,
	};
	WifiAuthenticatorConfig ac = {
	        .akm = WIFI_AKM_SUITE_PSK,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .pmk = adhoc->pmk,
	        .pmk_len = sizeof(adhoc->pmk),
	        .own_rsne = adhoc->rsne,
	        .own_rsne_len = adhoc->rsne_len,
	        .sta_rsne = adhoc->rsne,
	        .sta_rsne_len = adhoc->rsne_len,
	        .group_keys = &adhoc->gk,
	};

	memcpy(sc.spa, adhoc->address, 6);
	memcpy(sc.aa, peer->mac, 6);
	memcpy(ac.aa, adhoc->address, 6);
	memcpy(ac.spa, peer->mac, 6);
	peer->supp = wifi_handshake_new(&sc, &supp_cb, peer, error);
	if (peer->supp == NULL)
		return FALSE;
	peer->auth = wifi_authenticator_new(&ac, &auth_cb, peer, error);
	if (peer->auth == NULL)
		return FALSE;
	adhoc_peer_enter(peer, ADHOC_PEER_KEYING, "RSN IBSS: both 4-way handshakes begin");
	peer->deadline = g_timeout_add_seconds(WIFI_ADHOC_KEYING_TIMEOUT_S, deadline_fire, peer);
	return wifi_authenticator_start(peer->auth, error);
}

AdhocPeer *
wifi_adhoc_peer_seen(WifiAdhoc *adhoc, const guint8 mac[6])
{
	AdhocPeer *peer = wifi_adhoc_peer_lookup(adhoc, mac);
	g_autoptr(GError) error = NULL;

	if (peer != NULL)
		return peer;
	peer = g_new0(AdhocPeer, 1);
	peer->adhoc = adhoc;
	memcpy(peer->mac, mac, 6);
	peer->key = peer_key(mac);
	joind_mac_to_string(mac, peer->name);
	g_hash_table_insert(adhoc->peers, &peer->key, peer);
	if (adhoc->open) {
		adhoc_peer_enter(peer, ADHOC_PEER_LINKED, "open IBSS: the kernel linked it");
		return peer;
	}
	if (!peer_start_keys(peer, &error)) {
		peer_fail(peer, "authenticator", error);
		return NULL;
	}
	return peer;
}

void
wifi_adhoc_peer_deleted(WifiAdhoc *adhoc, const guint8 mac[6])
{
	AdhocPeer *peer = wifi_adhoc_peer_lookup(adhoc, mac);

	if (peer == NULL)
		return;
	adhoc_peer_enter(peer, ADHOC_PEER_GONE, "the kernel no longer hears it");
	g_hash_table_remove(adhoc->peers, &peer->key);
}

/* The peer's authenticator's frames (messages 1 and 3, group message 1)
 * have Key Ack set and go to our supplicant; its supplicant's go to our
 * authenticator. */
void
wifi_adhoc_peer_eapol(WifiAdhoc *adhoc, const guint8 mac[6], const guint8 *frame, gsize len)
{
	AdhocPeer *peer = adhoc->open ? NULL : wifi_adhoc_peer_seen(adhoc, mac);
	g_autoptr(GError) error = NULL;
	WifiEapolKey key;
	gboolean to_supp;

	if (peer == NULL || peer->supp == NULL || peer->auth == NULL)
		return;
	if (!wifi_eapol_key_parse(frame, len, 16, &key, &error)) {
		wifi_iface_debug(adhoc->iface, "ad-hoc: peer %s: EAPOL frame dropped: %s",
		                 peer->name, error->message);
		return;
	}
	to_supp = (key.key_info & WIFI_KEY_INFO_ACK) != 0;
	switch (to_supp ? wifi_handshake_rx(peer->supp, frame, len, &error)
	                : wifi_authenticator_rx(peer->auth, frame, len, &error)) {
	case WIFI_HANDSHAKE_RX_ACCEPTED:
		break;
	case WIFI_HANDSHAKE_RX_DROPPED:
		wifi_iface_debug(adhoc->iface, "ad-hoc: peer %s: EAPOL frame dropped: %s",
		                 peer->name, error != NULL ? error->message : "");
		break;
	case WIFI_HANDSHAKE_RX_FAILED:
		peer_fail(peer, to_supp ? "supplicant" : "authenticator", error);
		break;
	}
}
