/* roam-frames.c - the roamer's frames: the 802.11k neighbour request and
 * its response, the access point's 802.11v BSS transition request and
 * our response (see roam.h). Formats are in ieee80211/ (neighbor.h,
 * btm.h, action.h); the kernel's side in kernel/frame.h. */
#include "roam-private.h"

#include <errno.h>
#include <string.h>

#include "action.h"
#include "frame.h"
#include "joind-mac.h"
#include "neighbor.h"

/* A TBTT is a beacon interval: 100 TU (102.4 ms) on nearly every access
 * point, and the request does not say which. */
#define TBTT_US 102400
/* A BSS that told us to leave is avoided this long (or for its
 * termination's duration, when it is longer). */
#define ROAM_AVOID_BTM_S 60

static const guint8 match_btm[] = {WIFI_ACTION_WNM, WIFI_WNM_ACTION_BTM_REQUEST};
static const guint8 match_neighbors[] = {WIFI_ACTION_RADIO_MEASUREMENT,
                                         WIFI_RM_ACTION_NEIGHBOR_RESPONSE};

static void
register_done(int error, gpointer user_data)
{
	guint *request = user_data;

	*request = 0;
	if (wifi_frame_register_status(error) < 0)
		g_warning("wifi: roaming: the kernel refused to pass up action frames (%s): no "
		          "neighbour reports or BSS transition requests",
		          g_strerror(-error));
}

void
roam_frames_register(WifiRoamer *self)
{
	if (self->frames_registered)
		return;
	self->frames_registered = TRUE;
	self->register_requests[0] = wifi_frame_register(
	        self->iface->nl, self->iface->ifindex, WIFI_FRAME_TYPE_ACTION, match_btm,
	        sizeof(match_btm), register_done, &self->register_requests[0]);
	self->register_requests[1] = wifi_frame_register(
	        self->iface->nl, self->iface->ifindex, WIFI_FRAME_TYPE_ACTION, match_neighbors,
	        sizeof(match_neighbors), register_done, &self->register_requests[1]);
}

void
roam_frames_cancel(WifiRoamer *self)
{
	for (guint i = 0; i < G_N_ELEMENTS(self->register_requests); i++) {
		if (self->register_requests[i] != 0)
			wifi_nl_cancel(self->iface->nl, self->register_requests[i]);
		self->register_requests[i] = 0;
	}
	if (self->send_request != 0)
		wifi_nl_cancel(self->iface->nl, self->send_request);
	self->send_request = 0;
}

/* What became of a frame sent: a neighbour request that did not go
 * leaves the wait for its answer; an answer to a BSS transition request
 * that went (or did not) lets the move it accepted start. */
static void
frame_sent(int error, gpointer user_data)
{
	WifiRoamer *self = user_data;

	self->send_request = 0;
	if (error < 0)
		wifi_iface_info(self->iface, "roaming: action frame not sent (%s)",
		                g_strerror(-error));
	if (error < 0 && self->state == ROAM_ASKING)
		roam_scan_next(self, "neighbour report request not sent");
	else
		roam_move_now(self);
}

/* Sends body in an action frame to the BSS being left; frame_sent() hears
 * how it went, always. */
static void
roam_send(WifiRoamer *self, GBytes *body)
{
	const guint8 *own = self->ops->own_address(self->user_data);
	g_autoptr(GBytes) frame = NULL;

	if (self->send_request != 0)
		wifi_nl_cancel(self->iface->nl, self->send_request);
	self->send_request = 0;
	if (own == NULL) {
		frame_sent(-EADDRNOTAVAIL, self);
		return;
	}
	frame = wifi_action_build(self->current, own, g_bytes_get_data(body, NULL),
	                          g_bytes_get_size(body));
	self->send_request =
	        wifi_frame_send(self->iface->nl, self->iface->ifindex, frame, frame_sent, self);
}

void
roam_neighbor_request(WifiRoamer *self)
{
	GBytes *ssid = self->ops->current_ssid(self->user_data);
	g_autoptr(GBytes) body = NULL;

	self->token = (guint8)(self->token % 255 + 1);
	body = wifi_neighbor_request_build(self->token,
	                                   ssid != NULL ? g_bytes_get_data(ssid, NULL) : NULL,
	                                   ssid != NULL ? g_bytes_get_size(ssid) : 0);
	roam_send(self, body);
}

/* The distinct frequencies of neighbors a roam could go to. */
static GArray *
neighbor_freqs(const GArray *neighbors)
{
	GArray *freqs = g_array_new(FALSE, FALSE, sizeof(guint32));

	for (guint i = 0; i < neighbors->len; i++) {
		const WifiNeighbor *n = &g_array_index(neighbors, WifiNeighbor, i);
		gboolean seen = FALSE;

		if (n->freq == 0 || (n->has_preference && n->preference == 0) ||
		    WIFI_NEIGHBOR_REACHABILITY(n->info) == WIFI_NEIGHBOR_NOT_REACHABLE)
			continue;
		for (guint j = 0; j < freqs->len && !seen; j++)
			seen = g_array_index(freqs, guint32, j) == n->freq;
		if (!seen)
			g_array_append_val(freqs, n->freq);
	}
	return freqs;
}

static void
roam_neighbors_rx(WifiRoamer *self, const WifiActionFrame *frame)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) neighbors = NULL;
	g_autofree gchar *reason = NULL;
	guint8 token;

	if (self->state != ROAM_ASKING)
		return;
	if (!wifi_neighbor_response_parse(frame->body, frame->body_len, &token, &neighbors,
	                                  &error)) {
		wifi_iface_info(self->iface, "neighbour report ignored: %s", error->message);
		return;
	}
	if (token != self->token)
		return;
	g_clear_pointer(&self->neighbor_freqs, g_array_unref);
	self->neighbor_freqs = neighbor_freqs(neighbors);
	reason = g_strdup_printf("%u neighbours reported on %u channels", neighbors->len,
	                         self->neighbor_freqs->len);
	roam_scan_next(self, reason);
}

void
roam_btm_answer(WifiRoamer *self, WifiBtmStatus status, WifiBss *then_move)
{
	g_autoptr(GBytes) body = wifi_btm_response_build(
	        self->btm.token, status, 0, then_move != NULL ? then_move->bssid : NULL);

	self->btm_owed = FALSE;
	wifi_iface_info(self->iface, "BSS transition request answered: %s",
	                wifi_btm_status_to_string(status));
	roam_send(self, body);
}

/* How long the access point's list holds, and the BSS it has us leave,
 * from its request. */
static void
roam_btm_note(WifiRoamer *self, gboolean imminent)
{
	gint64 now = g_get_monotonic_time();
	gint64 avoid_us = ROAM_AVOID_BTM_S * G_USEC_PER_SEC;

	self->btm_valid_until = now + (gint64)self->btm.validity * TBTT_US;
	if (self->btm.mode & WIFI_BTM_MODE_BSS_TERMINATION)
		avoid_us =
		        MAX(avoid_us, (gint64)self->btm.termination_minutes * 60 * G_USEC_PER_SEC);
	if (imminent)
		wifi_roam_avoid_add(self->avoid, self->current, WIFI_ROAM_AVOID_BTM_LEFT, now,
		                    avoid_us);
}

static void
roam_btm_rx(WifiRoamer *self, const WifiActionFrame *frame)
{
	g_auto(WifiBtmRequest) req = {0};
	g_autoptr(GError) error = NULL;
	const gchar *why = NULL;
	gboolean imminent;

	if (!wifi_btm_request_parse(frame->body, frame->body_len, &req, &error)) {
		wifi_iface_info(self->iface, "BSS transition request ignored: %s", error->message);
		return;
	}
	self->history.btm_requests++;
	self->search_started_ns = 0;
	wifi_btm_request_clear(&self->btm);
	self->btm = req;
	req = (WifiBtmRequest){0};
	self->btm_owed = TRUE;
	if (self->state == ROAM_MOVING) {
		roam_btm_answer(self, WIFI_BTM_REJECT_UNSPECIFIED, NULL);
		return;
	}
	imminent = (self->btm.mode &
	            (WIFI_BTM_MODE_DISASSOC_IMMINENT | WIFI_BTM_MODE_BSS_TERMINATION)) != 0;
	roam_btm_note(self, imminent);
	self->trigger = imminent ? WIFI_ROAM_TRIGGER_BTM_IMMINENT : WIFI_ROAM_TRIGGER_BTM;
	g_free(self->detail);
	self->detail =
	        g_strdup_printf("%s, %u candidates", wifi_roam_trigger_to_string(self->trigger),
	                        self->btm.candidates->len);
	wifi_iface_info(self->iface, "%s (disassociation in %u beacons)", self->detail,
	                self->btm.disassoc_timer);
	/* A candidate the table has heard lately is taken at once; else its
	 * channels are scanned, then the known ones, then all. */
	if (self->btm.candidates->len > 0 && roam_try_choose(self, &why))
		return;
	g_clear_pointer(&self->neighbor_freqs, g_array_unref);
	self->neighbor_freqs = neighbor_freqs(self->btm.candidates);
	self->phase = ROAM_PHASE_NEIGHBORS;
	self->history.searches++;
	roam_scan_next(self, self->detail);
}

void
roam_frames_rx(WifiRoamer *self, struct nlattr **attrs)
{
	WifiActionFrame frame;
	gsize len = 0;
	const guint8 *data = wifi_frame_from_event(attrs, &len);

	if (data == NULL || !wifi_action_parse(data, len, &frame, NULL) || frame.body_len < 2)
		return;
	/* Only the access point we are connected to speaks for its BSS. */
	if (memcmp(frame.bssid, self->current, 6) != 0)
		return;
	if (frame.category == WIFI_ACTION_WNM && frame.body[1] == WIFI_WNM_ACTION_BTM_REQUEST)
		roam_btm_rx(self, &frame);
	else if (frame.category == WIFI_ACTION_RADIO_MEASUREMENT &&
	         frame.body[1] == WIFI_RM_ACTION_NEIGHBOR_RESPONSE)
		roam_neighbors_rx(self, &frame);
}
