/* autochoice.h - the pure decisions of autoconnect: which known network and
 * which of its BSSes, how long to wait before the next try, which
 * frequencies a quick scan covers. No I/O, no main loop: unit-tested on
 * their own (tests/unit/wifi/test-autochoice.c).
 */
#pragma once

#include <glib.h>

#include "bss.h"

G_BEGIN_DECLS

/* BSSes that failed recently (refused us, handshake failed): left out of
 * choices until their time is up. Times are monotonic microseconds. */
typedef struct _WifiAvoidList WifiAvoidList;

WifiAvoidList *wifi_avoid_list_new(void);
void wifi_avoid_list_free(WifiAvoidList *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiAvoidList, wifi_avoid_list_free)
void wifi_avoid_list_add(WifiAvoidList *self, const guint8 *bssid, gint64 now_us,
                         gint64 duration_us);
gboolean wifi_avoid_list_contains(WifiAvoidList *self, const guint8 *bssid, gint64 now_us);
/* Entries still in force at now_us (expired ones are dropped). */
guint wifi_avoid_list_size(WifiAvoidList *self, gint64 now_us);

/* One network as autoconnect sees it. */
typedef struct {
	gpointer network;     /* opaque to the chooser */
	gint rank;            /* wifi_network_rank() */
	gboolean known;       /* a profile exists */
	gboolean autoconnect; /* the profile does not say AutoConnect=false */
	gboolean blocked;     /* e.g. a wrong passphrase (autoconnect-retry.h) */
	GPtrArray *bsses;     /* WifiBss, best first (borrowed) */
} WifiAutoCandidate;

/* A BSS younger than this (by last_seen_ns) that the last scan over its
 * frequency saw (misses == 0) is taken to be in range. */
#define WIFI_AUTOCONNECT_MAX_BSS_AGE_NS (20 * G_GINT64_CONSTANT(1000000000))

/* Whether a BSS may be chosen now: in range (see above; last_seen_ns 0
 * counts as fresh) and not avoided. now_ns is CLOCK_BOOTTIME. */
gboolean wifi_autoconnect_bss_usable(const WifiBss *bss, WifiAvoidList *avoid, gint64 now_us,
                                     guint64 now_ns);
/* The best-ranked candidate that is known, has AutoConnect on, is not
 * blocked and has a usable BSS; ties go to the earlier one. Returns its
 * index and its best usable BSS in *bss (borrowed), or -1. */
gint wifi_autoconnect_choose(const WifiAutoCandidate *candidates, guint n, WifiAvoidList *avoid,
                             gint64 now_us, guint64 now_ns, WifiBss **bss);

/* The wait before try number attempt (0-based): initial_ms doubled per
 * attempt, never more than max_ms. */
guint wifi_autoconnect_backoff_ms(guint attempt, guint initial_ms, guint max_ms);

/* The frequencies a quick scan covers: the union of freq_lists (GArray of
 * guint32 each, most relevant first), in order of first appearance, at
 * most max of them; NULL when there are none. */
GArray *wifi_autoconnect_quick_freqs(GPtrArray *freq_lists, guint max);

G_END_DECLS
