/* roam-triggers.c - what sets a roam off (signal events, beacon and
 * packet loss, a manual roam; the access point's requests are in
 * roam-frames.c) and how a move starts and ends (see roam.h). */
#include "roam-private.h"

#include <string.h>
#include <time.h>

#include "cqm.h"
#include "joind-error.h"
#include "joind-mac.h"

/* A roam to a BSS that failed, or that refused us as busy, is not tried
 * again for this long. */
#define ROAM_AVOID_FAILED_S 60
#define ROAM_AVOID_BUSY_S   30
/* An IEEE 802.11 status: the access point has too many stations. */
#define STATUS_AP_FULL 17

static void
roam_set_detail(WifiRoamer *self, gchar *detail)
{
	g_free(self->detail);
	self->detail = detail;
}

/* A signal event: below the threshold starts a search, above it again
 * cancels a signal-driven one. With a threshold list the level decides
 * (the lower threshold's events come and go below the roam threshold). */
static void
roam_signal_event(WifiRoamer *self, WifiCqmEvent event, gint rssi)
{
	gboolean low = rssi != 0 ? rssi < self->threshold : event == WIFI_CQM_RSSI_LOW;
	gboolean much_worse = rssi != 0 && rssi * 100 <= self->signal - ROAM_CRITICAL_DB * 100;

	if (rssi != 0 &&
	    (event == WIFI_CQM_RSSI_HIGH || self->state != ROAM_RETRY_WAIT || much_worse))
		self->signal = rssi * 100;
	self->signal_low = low;
	if (low &&
	    (self->state == ROAM_WATCHING || (self->state == ROAM_RETRY_WAIT && much_worse))) {
		roam_set_detail(self, g_strdup_printf("rssi %d < %d", rssi, self->threshold));
		roam_search(self, WIFI_ROAM_TRIGGER_SIGNAL, self->detail);
		return;
	}
	if (!low && self->trigger == WIFI_ROAM_TRIGGER_SIGNAL &&
	    (self->state == ROAM_ASKING || self->state == ROAM_SCANNING ||
	     self->state == ROAM_RETRY_WAIT))
		roam_enter(self, ROAM_WATCHING, "signal good again");
}

/* Beacon or packet loss: the link is about to go (mac80211 gives up on the
 * access point within seconds), so move at once to the best BSS of the
 * network in the table, without a scan. FALSE when there is none. */
static gboolean
roam_loss_event(WifiRoamer *self, WifiRoamTrigger trigger)
{
	WifiBss *cur = self->ops->current_bss(self->user_data);
	const gchar *why = NULL;

	if (self->state == ROAM_MOVING)
		return TRUE;
	if (self->state == ROAM_OFF)
		return FALSE;
	self->trigger = trigger;
	/* No time for a scan: whatever the table knows, as it knows it. */
	self->search_started_ns = 0;
	if (cur != NULL)
		memcpy(self->current, cur->bssid, 6);
	roam_set_detail(self, g_strdup(wifi_roam_trigger_to_string(trigger)));
	if (roam_try_choose(self, &why))
		return TRUE;
	wifi_iface_info(self->iface, "%s, and no BSS to roam to: %s",
	                wifi_roam_trigger_to_string(trigger), why);
	return FALSE;
}

gboolean
wifi_roamer_handle_event(WifiRoamer *self, guint8 cmd, struct nlattr **attrs)
{
	WifiCqmEvent event;
	gint rssi = 0;

	if (cmd == NL80211_CMD_FRAME) {
		if (self->state != ROAM_OFF)
			roam_frames_rx(self, attrs);
		return FALSE;
	}
	if (cmd != NL80211_CMD_NOTIFY_CQM || self->state == ROAM_OFF)
		return FALSE;
	event = wifi_cqm_parse(attrs, &rssi);
	switch (event) {
	case WIFI_CQM_RSSI_LOW:
	case WIFI_CQM_RSSI_HIGH:
		roam_signal_event(self, event, rssi);
		return FALSE;
	case WIFI_CQM_BEACON_LOSS:
		return roam_loss_event(self, WIFI_ROAM_TRIGGER_BEACON_LOSS);
	case WIFI_CQM_PACKET_LOSS:
		return roam_loss_event(self, WIFI_ROAM_TRIGGER_PACKET_LOSS);
	case WIFI_CQM_NONE:
	default:
		return FALSE;
	}
}

/* The BSS of the connected network with bssid in the station's table. */
static WifiBss *
roam_find_bss(WifiRoamer *self, const guint8 *bssid)
{
	g_autoptr(GPtrArray) bsses = self->ops->network_bsses(self->user_data);

	for (guint i = 0; bsses != NULL && i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (memcmp(bss->bssid, bssid, 6) == 0)
			return wifi_bss_ref(bss);
	}
	return NULL;
}

gboolean
wifi_roamer_roam_to(WifiRoamer *self, const guint8 *bssid, GError **error)
{
	gchar name[JOIND_MAC_STRING_LEN];
	g_autoptr(WifiBss) bss = NULL;
	WifiBss *cur;

	if (self->state == ROAM_OFF) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "%s is not connected: there is nothing to roam from.",
		            self->iface->name);
		return FALSE;
	}
	if (self->state == ROAM_MOVING) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_BUSY, "%s is already roaming.",
		            self->iface->name);
		return FALSE;
	}
	joind_mac_to_string(bssid, name);
	cur = self->ops->current_bss(self->user_data);
	if (cur != NULL && memcmp(cur->bssid, bssid, 6) == 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "%s is already connected to %s.", self->iface->name, name);
		return FALSE;
	}
	bss = roam_find_bss(self, bssid);
	if (bss == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		            "%s is not a BSS of the connected network that %s has seen.", name,
		            self->iface->name);
		return FALSE;
	}
	self->trigger = WIFI_ROAM_TRIGGER_MANUAL;
	if (cur != NULL)
		memcpy(self->current, cur->bssid, 6);
	roam_set_detail(self, g_strdup("manual"));
	roam_move(self, bss, "manual roam");
	return TRUE;
}

/* ---- the move ---------------------------------------------------------- */

void
roam_move(WifiRoamer *self, WifiBss *bss, const gchar *reason)
{
	gchar to[JOIND_MAC_STRING_LEN];
	g_autofree gchar *why =
	        g_strdup_printf("%s: to %s", reason, joind_mac_to_string(bss->bssid, to));

	g_clear_pointer(&self->moving_to, wifi_bss_unref);
	self->moving_to = wifi_bss_ref(bss);
	self->move_started = FALSE;
	self->refreshing = FALSE;
	self->move_started_us = g_get_monotonic_time();
	self->move_started_real = g_get_real_time();
	roam_enter(self, ROAM_MOVING, why);
	/* An access point that asked us to move hears our answer before we
	 * go (on the current link: the move drops it). */
	if (self->btm_owed)
		roam_btm_answer(self, WIFI_BTM_ACCEPT, bss);
	else
		roam_move_now(self);
}

guint64
roam_boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (guint64)ts.tv_sec * G_GUINT64_CONSTANT(1000000000) + (guint64)ts.tv_nsec;
}

gboolean
roam_bss_is_stale(const WifiBss *bss)
{
	guint64 now_ns = roam_boottime_ns();

	if (bss->last_seen_ns == 0)
		return FALSE;
	return now_ns > bss->last_seen_ns &&
	       now_ns - bss->last_seen_ns > ROAM_TARGET_MAX_AGE_S * G_GUINT64_CONSTANT(1000000000);
}

void
roam_move_now(WifiRoamer *self)
{
	g_autoptr(GArray) freqs = NULL;

	if (self->state != ROAM_MOVING || self->moving_to == NULL || self->move_started ||
	    self->refreshing)
		return;
	if (roam_bss_is_stale(self->moving_to) && self->trigger != WIFI_ROAM_TRIGGER_BEACON_LOSS &&
	    self->trigger != WIFI_ROAM_TRIGGER_PACKET_LOSS) {
		freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
		g_array_append_val(freqs, self->moving_to->freq);
		self->refreshing = TRUE;
		wifi_iface_info(self->iface,
		                "roaming: the target was last heard over %d s ago: scanning %u MHz "
		                "first",
		                ROAM_TARGET_MAX_AGE_S, self->moving_to->freq);
		self->ops->scan(freqs, self->user_data);
		return;
	}
	self->move_started = TRUE;
	self->ops->move(self->moving_to, self->user_data);
}

void
roam_refreshed(WifiRoamer *self, gboolean ok)
{
	g_autoptr(WifiBss) fresh = NULL;

	self->refreshing = FALSE;
	fresh = ok ? roam_find_bss(self, self->moving_to->bssid) : NULL;
	if (fresh == NULL || roam_bss_is_stale(fresh)) {
		wifi_roamer_move_done(self, FALSE, 0);
		return;
	}
	g_clear_pointer(&self->moving_to, wifi_bss_unref);
	self->moving_to = g_steal_pointer(&fresh);
	roam_move_now(self);
}

/* The move to moving_to ended (ok, or refused with status): recorded. */
static void
roam_record(WifiRoamer *self, gboolean ok, guint16 status, gint64 ms)
{
	WifiRoamRecord record = {
	        .started_real = self->move_started_real,
	        .trigger = self->trigger,
	        .method = self->move_method != NULL ? self->move_method : "reassociation",
	        .duration_ms = (guint)MAX(ms, 0),
	        .ok = ok,
	        .status = status,
	};

	memcpy(record.from, self->current, 6);
	memcpy(record.to, self->moving_to->bssid, 6);
	wifi_roam_history_add(&self->history, &record);
}

/* The move to moving_to failed with status: logged, recorded, the BSS
 * avoided for a while (a busy one less long), moving_to cleared. */
static void
roam_move_failure(WifiRoamer *self, guint16 status)
{
	gchar from[JOIND_MAC_STRING_LEN], to[JOIND_MAC_STRING_LEN];
	WifiRoamAvoidReason reason =
	        status == STATUS_AP_FULL ? WIFI_ROAM_AVOID_BUSY : WIFI_ROAM_AVOID_FAILED;
	gint avoid_s = status == STATUS_AP_FULL ? ROAM_AVOID_BUSY_S : ROAM_AVOID_FAILED_S;
	gint64 ms = (g_get_monotonic_time() - self->move_started_us) / 1000;

	joind_mac_to_string(self->current, from);
	joind_mac_to_string(self->moving_to->bssid, to);
	roam_record(self, FALSE, status, ms);
	self->move_method = NULL;
	wifi_roam_avoid_add(self->avoid, self->moving_to->bssid, reason, g_get_monotonic_time(),
	                    avoid_s * G_USEC_PER_SEC);
	wifi_iface_message(self->iface,
	                   "roam %s -> %s failed (%s; status %u; %" G_GINT64_FORMAT
	                   " ms): %s avoided for %d s (%s)",
	                   from, to, self->detail != NULL ? self->detail : "", status, ms, to,
	                   avoid_s, wifi_roam_avoid_reason_to_string(reason));
	g_clear_pointer(&self->moving_to, wifi_bss_unref);
}

void
wifi_roamer_move_done(WifiRoamer *self, gboolean ok, guint16 status)
{
	gchar from[JOIND_MAC_STRING_LEN], to[JOIND_MAC_STRING_LEN];
	gint64 ms;

	if (self->state != ROAM_MOVING || self->moving_to == NULL)
		return;
	if (!ok) {
		roam_move_failure(self, status);
		roam_enter(self, ROAM_WATCHING, "roam failed");
		return;
	}
	joind_mac_to_string(self->current, from);
	joind_mac_to_string(self->moving_to->bssid, to);
	ms = (g_get_monotonic_time() - self->move_started_us) / 1000;
	wifi_iface_info(self->iface, "roamed %s -> %s (%s; %s; %" G_GINT64_FORMAT " ms)", from, to,
	                self->detail != NULL ? self->detail : "",
	                self->move_method != NULL ? self->move_method : "reassociation", ms);
	roam_record(self, TRUE, 0, ms);
	self->move_method = NULL;
	memcpy(self->current, self->moving_to->bssid, 6);
	g_clear_pointer(&self->moving_to, wifi_bss_unref);
	wifi_roamer_connected(self);
}

void
wifi_roamer_set_move_method(WifiRoamer *self, const gchar *method)
{
	self->move_method = method;
}

WifiBss *
wifi_roamer_move_failed(WifiRoamer *self, guint16 status)
{
	gchar to[JOIND_MAC_STRING_LEN];
	WifiBss *next;

	if (self->state != ROAM_MOVING || self->moving_to == NULL)
		return NULL;
	roam_move_failure(self, status);
	next = roam_choose_next(self);
	if (next == NULL) {
		roam_enter(self, ROAM_WATCHING, "roam failed, no other BSS to try");
		return NULL;
	}
	wifi_iface_info(self->iface, "roaming on to %s", joind_mac_to_string(next->bssid, to));
	self->moving_to = wifi_bss_ref(next);
	self->move_started = TRUE;
	self->move_started_us = g_get_monotonic_time();
	self->move_started_real = g_get_real_time();
	return next;
}

gboolean
wifi_roamer_is_moving(WifiRoamer *self)
{
	return self->state == ROAM_MOVING;
}
