/* roam.c - the roamer's state machine (see roam.h): its states, the
 * triggers that start a search, the search's phases and the move.
 * roam-frames.c holds its 802.11k and 802.11v frames. */
#include "roam-private.h"

#include <string.h>

#include "cqm.h"
#include "joind-log.h"

static const gchar *const roam_state_names[] = {
        [ROAM_OFF] = "off",
        [ROAM_WATCHING] = "watching",
        [ROAM_ASKING] = "asking-neighbors",
        [ROAM_SCANNING] = "scanning",
        [ROAM_MOVING] = "moving",
        [ROAM_RETRY_WAIT] = "retry-wait",
};
G_STATIC_ASSERT(G_N_ELEMENTS(roam_state_names) == ROAM_LAST + 1);

/* Hysteresis of the signal thresholds, and the second, lower threshold
 * where the radio takes a list: below it a search in retry-wait starts
 * again at once (the link has become much worse since). */
#define ROAM_HYSTERESIS_DB 3

static gboolean roam_timeout(gpointer user_data);

void
roam_enter(WifiRoamer *self, RoamState state, const gchar *reason)
{
	RoamState old = self->state;

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", self->iface->name, NULL, "roam"},
	                       roam_state_names[old], roam_state_names[state], reason);
	self->state = state;
	g_clear_handle_id(&self->timer, g_source_remove);
	if (old == ROAM_MOVING && state != ROAM_MOVING)
		self->ops->roaming_changed(FALSE, self->user_data);
	switch (state) {
	case ROAM_ASKING:
		self->timer = g_timeout_add(ROAM_NEIGHBOR_WAIT_MS, roam_timeout, self);
		break;
	case ROAM_RETRY_WAIT:
		self->timer =
		        g_timeout_add_seconds(self->settings.retry_interval_s, roam_timeout, self);
		break;
	case ROAM_MOVING:
		self->ops->roaming_changed(TRUE, self->user_data);
		break;
	case ROAM_OFF:
	case ROAM_WATCHING:
		self->search_started_ns = 0;
		g_clear_pointer(&self->detail, g_free);
		wifi_btm_request_clear(&self->btm);
		self->btm_owed = FALSE;
		g_clear_pointer(&self->neighbor_freqs, g_array_unref);
		break;
	case ROAM_SCANNING:
	default:
		break;
	}
}

WifiRoamer *
wifi_roamer_new(WifiIface *iface, const WifiRoamSettings *settings, const WifiRoamerOps *ops,
                gpointer user_data)
{
	WifiRoamer *self = g_new0(WifiRoamer, 1);

	self->iface = wifi_iface_ref(iface);
	self->settings = *settings;
	self->ops = ops;
	self->user_data = user_data;
	self->avoid = wifi_roam_avoid_new();
	self->state = ROAM_OFF;
	return self;
}

void
wifi_roamer_free(WifiRoamer *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->timer, g_source_remove);
	roam_frames_cancel(self);
	if (self->cqm_request != 0)
		wifi_nl_cancel(self->iface->nl, self->cqm_request);
	wifi_btm_request_clear(&self->btm);
	g_clear_pointer(&self->detail, g_free);
	g_clear_pointer(&self->neighbor_freqs, g_array_unref);
	g_clear_pointer(&self->moving_to, wifi_bss_unref);
	wifi_roam_avoid_free(self->avoid);
	wifi_iface_unref(self->iface);
	g_free(self);
}

static void
cqm_set_done(int error, gpointer user_data)
{
	WifiRoamer *self = user_data;

	self->cqm_request = 0;
	if (error < 0)
		wifi_iface_warning(
		        self->iface,
		        "roaming: the kernel refused signal thresholds (%s): no roam on a "
		        "weak signal",
		        g_strerror(-error));
}

/* Signal events around the band's threshold. */
static void
roam_set_thresholds(WifiRoamer *self, const WifiBss *bss)
{
	gint high = bss != NULL && bss->freq >= 5000 ? self->settings.threshold_5g
	                                             : self->settings.threshold;
	const gint list[] = {high - ROAM_CRITICAL_DB, high};
	gboolean with_list =
	        self->iface->wiphy != NULL &&
	        wifi_wiphy_has_ext_feature(self->iface->wiphy, NL80211_EXT_FEATURE_CQM_RSSI_LIST);

	self->threshold = high;
	if (self->cqm_request != 0)
		wifi_nl_cancel(self->iface->nl, self->cqm_request);
	self->cqm_request = wifi_cqm_set_thresholds(self->iface->nl, self->iface->ifindex, list,
	                                            G_N_ELEMENTS(list), ROAM_HYSTERESIS_DB,
	                                            with_list, cqm_set_done, self);
}

void
wifi_roamer_connected(WifiRoamer *self)
{
	WifiBss *bss = self->ops->current_bss(self->user_data);

	roam_frames_register(self);
	roam_set_thresholds(self, bss);
	if (bss != NULL)
		memcpy(self->current, bss->bssid, 6);
	self->signal_low = FALSE;
	self->signal = bss != NULL ? bss->signal : 0;
	roam_enter(self, ROAM_WATCHING, "connected");
}

void
wifi_roamer_disconnected(WifiRoamer *self)
{
	if (self->state != ROAM_OFF)
		roam_enter(self, ROAM_OFF, "disconnected");
	g_clear_pointer(&self->moving_to, wifi_bss_unref);
}

/* ---- the search ------------------------------------------------------------ */

/* The context the ranking needs for this search. */
static void
roam_context(WifiRoamer *self, WifiRoamContext *ctx)
{
	gint64 now = g_get_monotonic_time();

	*ctx = (WifiRoamContext){
	        .trigger = self->trigger,
	        .current = self->ops->current_bss(self->user_data),
	        .current_bssid = self->current,
	        .current_signal = self->signal,
	        .btm_list = self->btm.candidates,
	        .btm_valid = self->btm.candidates != NULL && now < self->btm_valid_until,
	        .btm_abridged = (self->btm.mode & WIFI_BTM_MODE_ABRIDGED) != 0,
	        .avoid = self->avoid,
	        .now_us = now,
	};
}

/* Nothing to move to after every phase: a signal-driven search waits
 * before the next, an access point's request is refused. */
static void
roam_give_up(WifiRoamer *self, const gchar *why)
{
	if (self->btm_owed)
		roam_btm_answer(self, WIFI_BTM_REJECT_NO_CANDIDATES, NULL);
	if (self->trigger == WIFI_ROAM_TRIGGER_SIGNAL && self->signal_low)
		roam_enter(self, ROAM_RETRY_WAIT, why);
	else
		roam_enter(self, ROAM_WATCHING, why);
}

/* Chooses from the station's table now (in a search, among what its
 * scans heard); TRUE when a move started. */
gboolean
roam_try_choose(WifiRoamer *self, const gchar **why)
{
	g_autoptr(GPtrArray) bsses = self->ops->network_bsses(self->user_data);
	WifiRoamContext ctx;
	WifiBss *best;

	for (guint i = bsses->len; self->search_started_ns != 0 && i > 0; i--) {
		const WifiBss *bss = g_ptr_array_index(bsses, i - 1);

		if (bss->last_seen_ns != 0 && bss->last_seen_ns < self->search_started_ns)
			g_ptr_array_remove_index(bsses, i - 1);
	}
	roam_context(self, &ctx);
	best = wifi_roam_choose(&ctx, bsses, why);
	if (best == NULL)
		return FALSE;
	roam_move(self, best, wifi_roam_trigger_to_string(self->trigger));
	return TRUE;
}

WifiBss *
roam_choose_next(WifiRoamer *self)
{
	g_autoptr(GPtrArray) bsses = self->ops->network_bsses(self->user_data);
	const gchar *why = NULL;
	WifiRoamContext ctx;
	WifiBss *next;

	/* No time for a scan now: only what the kernel still knows. */
	for (guint i = bsses->len; i > 0; i--) {
		if (roam_bss_is_stale(g_ptr_array_index(bsses, i - 1)))
			g_ptr_array_remove_index(bsses, i - 1);
	}
	roam_context(self, &ctx);
	ctx.link_left = TRUE;
	next = wifi_roam_choose(&ctx, bsses, &why);
	if (next == NULL) {
		ctx.way_back = TRUE;
		next = wifi_roam_choose(&ctx, bsses, &why);
	}
	if (next == NULL)
		wifi_iface_info(self->iface, "no other BSS to roam to: %s", why);
	return next != NULL ? wifi_bss_ref(next) : NULL;
}

/* The frequencies of the next phase: the neighbours', the network's
 * known ones, then all (NULL). FALSE when no phase is left. */
static gboolean
roam_next_phase(WifiRoamer *self, GArray **freqs)
{
	while (self->phase < ROAM_PHASE_DONE) {
		RoamPhase phase = self->phase++;

		if (phase == ROAM_PHASE_NEIGHBORS && self->neighbor_freqs != NULL &&
		    self->neighbor_freqs->len > 0) {
			*freqs = g_array_ref(self->neighbor_freqs);
			return TRUE;
		}
		if (phase == ROAM_PHASE_KNOWN) {
			*freqs = self->ops->known_freqs(self->user_data);
			if (*freqs != NULL && (*freqs)->len > 0)
				return TRUE;
			g_clear_pointer(freqs, g_array_unref);
		}
		if (phase == ROAM_PHASE_FULL) {
			*freqs = NULL;
			return TRUE;
		}
	}
	return FALSE;
}

/* Scans the next phase, or gives up when none is left. */
void
roam_scan_next(WifiRoamer *self, const gchar *reason)
{
	g_autoptr(GArray) freqs = NULL;

	if (!roam_next_phase(self, &freqs)) {
		roam_give_up(self, reason);
		return;
	}
	roam_enter(self, ROAM_SCANNING, reason);
	self->ops->scan(freqs, self->user_data);
}

/* A search begins: for trigger, from the current BSS. The access point
 * is asked for its neighbours first when it offers reports. */
void
roam_search(WifiRoamer *self, WifiRoamTrigger trigger, const gchar *reason)
{
	WifiBss *cur = self->ops->current_bss(self->user_data);

	self->trigger = trigger;
	self->phase = ROAM_PHASE_NEIGHBORS;
	self->search_started_ns = roam_boottime_ns();
	self->history.searches++;
	g_clear_pointer(&self->neighbor_freqs, g_array_unref);
	if (cur != NULL)
		memcpy(self->current, cur->bssid, 6);
	if (cur != NULL && cur->ies.has_rm && (cur->ies.rm_caps[0] & WIFI_RM_NEIGHBOR_REPORT)) {
		roam_enter(self, ROAM_ASKING, reason);
		roam_neighbor_request(self);
		return;
	}
	self->phase = ROAM_PHASE_KNOWN;
	roam_scan_next(self, reason);
}

static gboolean
roam_timeout(gpointer user_data)
{
	WifiRoamer *self = user_data;

	self->timer = 0;
	if (self->state == ROAM_ASKING) {
		roam_scan_next(self, "no neighbour report in time");
	} else if (self->state == ROAM_RETRY_WAIT) {
		if (self->signal_low)
			roam_search(self, WIFI_ROAM_TRIGGER_SIGNAL,
			            "signal still low: searching again");
		else
			roam_enter(self, ROAM_WATCHING, "retry interval over");
	}
	return G_SOURCE_REMOVE;
}

void
wifi_roamer_scan_done(WifiRoamer *self, gboolean ok)
{
	const gchar *why = "scan failed";

	if (self->state == ROAM_MOVING && self->refreshing) {
		roam_refreshed(self, ok);
		return;
	}
	if (self->state != ROAM_SCANNING)
		return;
	if (ok && roam_try_choose(self, &why))
		return;
	roam_scan_next(self, why);
}

const gchar *
wifi_roamer_get_state_name(WifiRoamer *self)
{
	return roam_state_names[self->state];
}

void
wifi_roamer_add_diagnostics(WifiRoamer *self, GVariantDict *d)
{
	g_variant_dict_insert(d, "roam_state", "s", wifi_roamer_get_state_name(self));
	g_variant_dict_insert_value(d, "roams", wifi_roam_history_to_variant(&self->history));
}
