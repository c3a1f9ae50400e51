/* connect-roam.c - the connector's move of a connected link to another
 * BSS of its network (see connect.h): the roamer asks, through the
 * station. The move takes a Connect()'s steps (the attempt's
 * authentication method, the association, the key step; a cached PMKSA
 * for the new BSS offered as always), except that
 *   - the link is not released: the network stays connected and
 *     Station1 keeps its ConnectedNetwork (its State is the roamer's
 *     "roaming" meanwhile);
 *   - the association is REASSOCIATING: CMD_ASSOCIATE names the BSS left
 *     (NL80211_ATTR_PREV_BSSID), a reassociation request;
 *   - mac80211 drops the old link itself when the authentication to the
 *     new BSS starts, and reports a DEAUTHENTICATE and a DISCONNECT
 *     event without DISCONNECTED_BY_AP: they come in AUTHENTICATING,
 *     where they are no loss (connect-events.c ignores both there);
 *   - a failed move (refused, silent, its key step failed) asks the
 *     roamer for another BSS (wifi_connector_set_roam_next()) and moves
 *     there at once, still REASSOCIATING from the BSS first left.
 * Only when the roamer has none does the move fail like an attempt: the
 * observers hear it, the link is gone (the old one went when the
 * authentication started). */
#include "connect-private.h"

#include <string.h>

#include "auth-method.h"
#include "joind-mac.h"
#include "link.h"
#include "neigh-evict.h"

/* What the move may not start from. */
static gboolean
roam_check(WifiConnector *self, WifiBss *bss, GError **error)
{
	if (self->state != CONN_CONNECTED || self->cur == NULL || self->next != NULL)
		return joind_set_error(error, JOIND_ERROR_FAILED,
		                       "%s is not connected: there is nothing to roam from.",
		                       self->iface->name);
	if (!self->via_sme)
		return joind_set_error(error, JOIND_ERROR_NOT_SUPPORTED,
		                       "%s connects through the kernel's SME (CMD_CONNECT), which "
		                       "cannot reassociate to another BSS.",
		                       self->iface->name);
	if (memcmp(bss->bssid, self->cur->bss->bssid, 6) == 0)
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "%s is already connected to that BSS.", self->iface->name);
	return TRUE;
}

/* cur moves to bss: its authentication starts (the state left cancels
 * its command and timer). */
static gboolean
roam_start(WifiConnector *self, WifiBss *bss, GError **error)
{
	gchar from[JOIND_MAC_STRING_LEN], to[JOIND_MAC_STRING_LEN];
	WifiAttempt *moved;

	/* What the link's keys became since it connected (an FT-802.1X
	 * re-authentication's hierarchy) goes to the target. */
	if (self->keying != NULL)
		wifi_attempt_ft_remember(self->cur, self->keying);
	moved = wifi_attempt_move_to(
	        self->cur, self->core, bss, self->use_sme,
	        joind_device_get_address(joind_station_get_device(self->station)), error);
	if (moved == NULL)
		return FALSE;
	/* The old link's key step and method go; its network stays. mac80211
	 * leaves the old BSS when the authentication to the new one starts
	 * and brings the link back "dormant" at the association, so it is
	 * dormant here too, and the new port's authorisation makes it "up"
	 * again (systemd-networkd counts a link that stays dormant as one
	 * without carrier, and drops its addresses). */
	connector_set_oper_up(self, FALSE);
	connector_keep_neighbours(self, TRUE);
	g_clear_pointer(&self->keying, wifi_keying_free);
	self->method->release(self);
	wifi_attempt_free(self->cur);
	self->cur = moved;
	self->method = wifi_auth_method_for(moved);
	wifi_iface_info(self->iface, "“%s”: roaming from %s to %s on %u MHz",
	                wifi_attempt_get_name(moved), joind_mac_to_string(self->roam_from, from),
	                joind_mac_to_string(bss->bssid, to), bss->freq);
	if (wifi_scanner_hold(self->scanner, connector_radio_ready, self))
		self->method->go(self, "roam");
	else
		connector_enter(self, CONN_WAITING, "a scan is under way");
	return TRUE;
}

/* The kernel forgets the interface's ARP and NDP neighbours when the
 * carrier goes, which mac80211 makes it do at every reassociation: the
 * first packets after the roam then wait for a new resolution, which the
 * kernel sends again only after a second (bench/roam measured a data gap
 * of about 1.1 s, 0.3 s for iwd, which turns the eviction off while it
 * roams). */
void
connector_keep_neighbours(WifiConnector *self, gboolean keep)
{
	WifiLink *link = self->iface->link;

	if (link == NULL || keep == (self->neigh_kept != 0))
		return;
	if (keep) {
		self->neigh_kept = wifi_link_set_neigh_evict(link, self->iface->name, FALSE,
		                                             WIFI_NEIGH_EVICT_ALL);
		wifi_iface_debug(self->iface, "neighbours kept across the carrier loss (%s%s)",
		                 self->neigh_kept & WIFI_NEIGH_EVICT_IPV4 ? " ARP" : "",
		                 self->neigh_kept & WIFI_NEIGH_EVICT_IPV6 ? " NDP" : "");
		return;
	}
	wifi_link_set_neigh_evict(link, self->iface->name, TRUE, self->neigh_kept);
	self->neigh_kept = 0;
}

gboolean
wifi_connector_roam(WifiConnector *self, WifiBss *bss, GError **error)
{
	if (!roam_check(self, bss, error))
		return FALSE;
	memcpy(self->roam_from, self->cur->bss->bssid, 6);
	self->roaming = TRUE;
	self->roam_status = 0;
	if (roam_start(self, bss, error))
		return TRUE;
	self->roaming = FALSE;
	return FALSE;
}

void
wifi_connector_set_roam_next(WifiConnector *self, WifiConnectorRoamNextFunc func,
                             gpointer user_data)
{
	self->roam_next = func;
	self->roam_next_data = user_data;
}

gboolean
connector_roam_elsewhere(WifiConnector *self, const gchar *message)
{
	gchar failed[JOIND_MAC_STRING_LEN];
	g_autoptr(GError) error = NULL;
	g_autoptr(WifiBss) next = NULL;
	guint16 status = self->roam_status;

	if (self->roam_next == NULL || self->cur == NULL)
		return FALSE;
	joind_mac_to_string(self->cur->bss->bssid, failed);
	self->roam_status = 0;
	next = self->roam_next(status, self->roam_next_data);
	if (next == NULL)
		return FALSE;
	wifi_iface_info(self->iface, "“%s”: the roam to %s failed: %s",
	                wifi_attempt_get_name(self->cur), failed, message);
	if (roam_start(self, next, &error))
		return TRUE;
	wifi_iface_info(self->iface, "cannot roam on: %s", error->message);
	return FALSE;
}
