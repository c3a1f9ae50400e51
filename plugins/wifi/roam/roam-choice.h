/* roam-choice.h - which BSS of the connected network a roam moves to: a
 * pure function of the scan's BSSes, the current link, the access point's
 * BSS transition list and the avoid list. No I/O, no main loop:
 * unit-tested on its own (tests/unit/wifi/test-roam-choice.c).
 *
 * A BSS's score is the one a connect chooses a BSS by (its signal with
 * the band bonus and the BSS Load penalty, wifi_bss_score_at() in
 * scan/network.c), so that a roam never disagrees with the choice the
 * station made when it joined, adjusted by:
 *   + 3 dB when it shares the current BSS's mobility domain (fast
 *     transition possible),
 *   + up to 10 dB for its preference in a BSS transition list whose
 *     validity has run out (advisory).
 * While the list is valid, its preference comes first and the score
 * second. A listed BSS with preference 0, and one the list leaves out
 * when it is abridged and valid, is excluded: the access point's
 * disallow list is honoured.
 *
 * Hysteresis: a signal-driven roam moves only to a BSS whose score beats
 * the current BSS's (scored alike, with the link's latest signal) by
 * WIFI_ROAM_MARGIN_DB, so that two access points of about equal signal
 * never hand the station back and forth. Beacon loss, packet loss, BSS
 * transition requests, manual roams and the next candidate after a failed
 * move (the link has left the current BSS) need no margin.
 */
#pragma once

#include <glib.h>

#include "bss.h"
#include "roam-avoid.h"

G_BEGIN_DECLS

#define WIFI_ROAM_MARGIN_DB 8

typedef enum {
	WIFI_ROAM_TRIGGER_SIGNAL,       /* CQM: the signal fell below the threshold */
	WIFI_ROAM_TRIGGER_BEACON_LOSS,  /* CQM: beacons stopped */
	WIFI_ROAM_TRIGGER_PACKET_LOSS,  /* CQM: frames to the AP went unacknowledged */
	WIFI_ROAM_TRIGGER_BTM,          /* the AP asked us to move (advisory) */
	WIFI_ROAM_TRIGGER_BTM_IMMINENT, /* ... and will disassociate us or end its BSS */
	WIFI_ROAM_TRIGGER_MANUAL,       /* a person or a test named the BSS */
	WIFI_ROAM_TRIGGER_LAST = WIFI_ROAM_TRIGGER_MANUAL,
} WifiRoamTrigger;

const gchar *wifi_roam_trigger_to_string(WifiRoamTrigger trigger);

typedef struct {
	WifiRoamTrigger trigger;
	const WifiBss *current; /* the link's BSS, or NULL when it is gone from the table */
	const guint8 *current_bssid;
	gint current_signal;    /* hundredths of a dBm: the link's latest */
	const GArray *btm_list; /* WifiNeighbor of the AP's request, or NULL */
	gboolean btm_valid;     /* its validity interval has not run out */
	gboolean btm_abridged;  /* BSSes it leaves out are excluded (while valid) */
	WifiRoamAvoid *avoid;   /* may be NULL */
	gint64 now_us;
	gboolean link_left; /* a failed move already left the current BSS: no margin */
	/* The current BSS may be chosen too: a failed move left it and no
	 * other is left; mac80211 dropped that link on our side only, the
	 * access point still knows us. */
	gboolean way_back;
} WifiRoamContext;

/* The score of bss heard at signal (hundredths of a dBm), see above;
 * its list preference excluded. */
gint wifi_roam_score(const WifiBss *bss, gint signal, const WifiRoamContext *ctx);

/* The best BSS of bsses (WifiBss of the connected network) to move to,
 * or NULL with *why saying why none is (a static string). */
WifiBss *wifi_roam_choose(const WifiRoamContext *ctx, GPtrArray *bsses, const gchar **why);

G_END_DECLS
