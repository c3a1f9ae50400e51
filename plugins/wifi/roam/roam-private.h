/* roam-private.h - what the roamer's files share: its fields, the
 * machine's steps the frames' file calls, and the frames' half
 * (roam-frames.c: the neighbour request and the BSS transition request
 * and response). */
#pragma once

#include "btm.h"
#include "roam-history.h"
#include "roam.h"

G_BEGIN_DECLS

typedef enum {
	ROAM_OFF,        /* not connected */
	ROAM_WATCHING,   /* connected: waiting for a trigger */
	ROAM_ASKING,     /* a neighbour report is requested */
	ROAM_SCANNING,   /* a roam scan runs */
	ROAM_MOVING,     /* the station moves the link */
	ROAM_RETRY_WAIT, /* a signal-driven search found nothing: RoamRetryInterval */
	ROAM_LAST = ROAM_RETRY_WAIT,
} RoamState;

/* Where a search looks, in order. */
typedef enum {
	ROAM_PHASE_NEIGHBORS, /* the channels the access point's neighbours are on */
	ROAM_PHASE_KNOWN,     /* the network's remembered frequencies */
	ROAM_PHASE_FULL,      /* every channel */
	ROAM_PHASE_DONE,
} RoamPhase;

/* hostapd answers a neighbour request at once; one that is silent this
 * long is taken to have none. */
#define ROAM_NEIGHBOR_WAIT_MS 500

struct _WifiRoamer {
	WifiIface *iface;
	WifiRoamSettings settings;
	const WifiRoamerOps *ops;
	gpointer user_data;
	RoamState state;
	guint timer;
	guint cqm_request;
	guint register_requests[2];
	guint send_request;
	gboolean frames_registered;
	gint threshold;      /* dBm: the current band's */
	gboolean signal_low; /* the last signal event was below the threshold */
	gint signal;         /* hundredths of a dBm: the link's latest */
	/* The search. */
	WifiRoamTrigger trigger;
	gchar *detail;     /* what set it off, for the roam's log line */
	guint8 current[6]; /* the BSS being left */
	RoamPhase phase;
	/* CLOCK_BOOTTIME when the search began: its scans choose only among
	 * the BSSes they heard (the table's older signals are no measure);
	 * 0 when the table's entries may all be chosen. */
	guint64 search_started_ns;
	GArray *neighbor_freqs; /* guint32, from a report or a BTM request */
	guint8 token;           /* our last neighbour request's */
	/* The access point's BSS transition request, answered once. */
	WifiBtmRequest btm;
	gboolean btm_owed;
	gint64 btm_valid_until;
	WifiRoamAvoid *avoid;
	/* The move. */
	WifiBss *moving_to;
	gboolean move_started; /* ops->move was called */
	gboolean refreshing;   /* a scan of the target's channel runs first */
	gint64 move_started_us;
	gint64 move_started_real;
	const gchar *move_method; /* wifi_roamer_set_move_method(); NULL: reassociation */
	WifiRoamHistory history;
};

/* A second signal threshold this far below the first, where the radio
 * takes a list: crossing it in retry-wait searches again at once (the
 * link has become much worse since the last search). */
#define ROAM_CRITICAL_DB 10

/* roam.c: the one place the state changes, and the search's steps. */
void roam_enter(WifiRoamer *self, RoamState state, const gchar *reason);
void roam_search(WifiRoamer *self, WifiRoamTrigger trigger, const gchar *reason);
void roam_scan_next(WifiRoamer *self, const gchar *reason);
gboolean roam_try_choose(WifiRoamer *self, const gchar **why);
/* After a failed move: the best candidate left, no margin (a new
 * reference), or NULL. */
WifiBss *roam_choose_next(WifiRoamer *self);
/* roam-triggers.c: a move to bss starts (the BTM answer first, when one
 * is owed). */
void roam_move(WifiRoamer *self, WifiBss *bss, const gchar *reason);

/* The kernel forgets a BSS it has not heard for 30 s, and then refuses
 * to authenticate to it: a target older than this is scanned for first
 * (roam-triggers.c; not after a beacon or packet loss, where mac80211
 * drops the link within a tenth of a second and only a move already
 * under way keeps it), and a failed move's next candidate must be
 * younger. */
#define ROAM_TARGET_MAX_AGE_S 25
guint64 roam_boottime_ns(void);
gboolean roam_bss_is_stale(const WifiBss *bss);
/* The scan of the target's channel is over (ok: it ran): the move goes
 * on to the BSS as that scan found it, or fails when it did not. */
void roam_refreshed(WifiRoamer *self, gboolean ok);

/* roam-frames.c */
void roam_frames_register(WifiRoamer *self);
void roam_frames_cancel(WifiRoamer *self);
/* Sends a neighbour report request to the current BSS (in ROAM_ASKING: a
 * request that does not go moves the search on). */
void roam_neighbor_request(WifiRoamer *self);
/* Answers the access point's BSS transition request (then_move: the
 * target of an accept, else NULL); a move that waits starts once the
 * kernel took the frame, or failed to. */
void roam_btm_answer(WifiRoamer *self, WifiBtmStatus status, WifiBss *then_move);
/* Starts ops->move to self->moving_to, once per move. */
void roam_move_now(WifiRoamer *self);
/* A FRAME event: a neighbour report response or a BSS transition
 * request. */
void roam_frames_rx(WifiRoamer *self, struct nlattr **attrs);

G_END_DECLS
