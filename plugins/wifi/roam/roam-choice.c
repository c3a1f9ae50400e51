/* roam-choice.c - ranking roam candidates (see roam-choice.h). */
#include "roam-choice.h"

#include <string.h>

#include "neighbor.h"
#include "network.h"

#define DB                   100 /* scores are hundredths of a dB */
#define MOBILITY_BONUS_DB    3
#define ADVISORY_PREF_MAX_DB 10

static const gchar *const trigger_names[] = {
        [WIFI_ROAM_TRIGGER_SIGNAL] = "signal low",
        [WIFI_ROAM_TRIGGER_BEACON_LOSS] = "beacon loss",
        [WIFI_ROAM_TRIGGER_PACKET_LOSS] = "packet loss",
        [WIFI_ROAM_TRIGGER_BTM] = "BSS transition request",
        [WIFI_ROAM_TRIGGER_BTM_IMMINENT] = "BSS transition request, disassociation imminent",
        [WIFI_ROAM_TRIGGER_MANUAL] = "manual",
};
G_STATIC_ASSERT(G_N_ELEMENTS(trigger_names) == WIFI_ROAM_TRIGGER_LAST + 1);

const gchar *
wifi_roam_trigger_to_string(WifiRoamTrigger trigger)
{
	if ((guint)trigger > WIFI_ROAM_TRIGGER_LAST)
		return "unknown";
	return trigger_names[trigger];
}

gint
wifi_roam_score(const WifiBss *bss, gint signal, const WifiRoamContext *ctx)
{
	gint score = wifi_bss_score_at(bss, signal);

	if (ctx->current != NULL && ctx->current->ies.has_mde && bss->ies.has_mde &&
	    ctx->current->ies.mdid == bss->ies.mdid)
		score += MOBILITY_BONUS_DB * DB;
	return score;
}

/* The AP's list entry for bssid, or NULL. */
static const WifiNeighbor *
btm_entry(const WifiRoamContext *ctx, const guint8 *bssid)
{
	if (ctx->btm_list == NULL)
		return NULL;
	for (guint i = 0; i < ctx->btm_list->len; i++) {
		const WifiNeighbor *n = &g_array_index(ctx->btm_list, WifiNeighbor, i);

		if (memcmp(n->bssid, bssid, 6) == 0)
			return n;
	}
	return NULL;
}

/* The list's say over bssid: -1 excluded, else its preference (0 when
 * unlisted or listed without one). */
static gint
btm_preference(const WifiRoamContext *ctx, const guint8 *bssid)
{
	const WifiNeighbor *n = btm_entry(ctx, bssid);

	if (n == NULL)
		return ctx->btm_list != NULL && ctx->btm_valid && ctx->btm_abridged ? -1 : 0;
	if (n->has_preference && n->preference == 0)
		return -1;
	return n->has_preference ? n->preference : 1;
}

static gboolean
roam_signal_driven(const WifiRoamContext *ctx)
{
	return ctx->trigger == WIFI_ROAM_TRIGGER_SIGNAL;
}

/* Whether a (preference, score) beats b. */
static gboolean
candidate_better(gint pref_a, gint score_a, gint pref_b, gint score_b)
{
	return pref_a != pref_b ? pref_a > pref_b : score_a > score_b;
}

/* A BSS a roam may consider at all: not the current one (unless the way
 * back is asked for), not avoided, not excluded by the AP; *pref and
 * *score filled. */
static gboolean
roam_eligible(const WifiRoamContext *ctx, const WifiBss *bss, gint *pref, gint *score)
{
	if (!ctx->way_back && ctx->current_bssid != NULL &&
	    memcmp(bss->bssid, ctx->current_bssid, 6) == 0)
		return FALSE;
	if (ctx->avoid != NULL &&
	    wifi_roam_avoid_lookup(ctx->avoid, bss->bssid, ctx->now_us) != WIFI_ROAM_AVOID_NONE)
		return FALSE;
	*pref = btm_preference(ctx, bss->bssid);
	if (*pref < 0)
		return FALSE;
	*score = wifi_roam_score(bss, bss->signal, ctx);
	if (!ctx->btm_valid) {
		*score += *pref * ADVISORY_PREF_MAX_DB * DB / 255;
		*pref = 0;
	}
	return TRUE;
}

/* The current link scored alike; its signal alone when its BSS is no
 * longer in the table. */
static gint
current_score(const WifiRoamContext *ctx)
{
	if (ctx->current == NULL)
		return ctx->current_signal;
	return wifi_roam_score(ctx->current, ctx->current_signal, ctx);
}

WifiBss *
wifi_roam_choose(const WifiRoamContext *ctx, GPtrArray *bsses, const gchar **why)
{
	WifiBss *best = NULL;
	gint best_pref = 0, best_score = G_MININT;

	for (guint i = 0; bsses != NULL && i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);
		gint pref, score;

		if (!roam_eligible(ctx, bss, &pref, &score))
			continue;
		if (best == NULL || candidate_better(pref, score, best_pref, best_score)) {
			best = bss;
			best_pref = pref;
			best_score = score;
		}
	}
	if (best == NULL) {
		*why = "no other BSS of the network that may be joined";
		return NULL;
	}
	if (!ctx->link_left && roam_signal_driven(ctx) &&
	    best_score < current_score(ctx) + WIFI_ROAM_MARGIN_DB * DB) {
		*why = "no BSS beats the current one by the roam margin";
		return NULL;
	}
	*why = NULL;
	return best;
}
