/* autoconnect-retry.h - what autoconnect remembers between its tries: the
 * failed attempts in a row and the wait they earn, a recent link loss
 * (quick rescans, often), the BSSes to avoid for a while, the evidence
 * that a network's passphrase is wrong and the networks blocked for it
 * or until their profile changes. Bookkeeping only: the state
 * machine (autoconnect.c) owns the timers. Times are monotonic µs.
 */
#pragma once

#include "autochoice.h"

G_BEGIN_DECLS

/* autoconnect's waits (milliseconds) and its patience. */
typedef struct {
	guint retry_initial_ms; /* after a failed attempt; doubles per attempt */
	guint retry_max_ms;
	guint max_attempts;          /* failed attempts in a row before it rests */
	guint link_retry_initial_ms; /* between quick rescans after a link loss; doubles */
	guint link_retry_max_ms;
	guint link_loss_window_ms; /* how long after a link loss they go on */
	guint avoid_ms;            /* a BSS that refused us is left out this long */
	guint suspect_attempts;    /* keys refused this often make a wrong passphrase... */
	guint suspect_span_ms;     /* ...on two BSSes or spread over this long */
	guint block_ms;            /* how long a wrong passphrase blocks a network */
} WifiAutoconnectTimings;

/* 1 s doubling up to 60 s, 8 attempts; after a link loss 0.5 s, 1 s, then
 * every 2 s for 60 s, so joind is back within about a scan's dwell plus 2 s
 * of the access point's return; a refusing BSS is avoided for 60 s. Keys
 * refused 3 times on two BSSes or over a minute (a wrong passphrase takes
 * about a minute of retries to show: a spoofed frame or a slow access point
 * rarely lasts that long) block the network for 30 minutes. */
extern const WifiAutoconnectTimings wifi_autoconnect_timings;

typedef struct _WifiAutoRetry WifiAutoRetry;

WifiAutoRetry *wifi_auto_retry_new(const WifiAutoconnectTimings *timings);
void wifi_auto_retry_free(WifiAutoRetry *self);
const WifiAutoconnectTimings *wifi_auto_retry_get_timings(WifiAutoRetry *self);

/* A fresh start (a user's Connect(), a profile added or changed, the
 * interface up): no failed attempts. */
void wifi_auto_retry_reset(WifiAutoRetry *self);
/* Connected: no failed attempts and no link loss to recover from. */
void wifi_auto_retry_connected(WifiAutoRetry *self);
/* One more failed attempt. */
void wifi_auto_retry_failed(WifiAutoRetry *self);
guint wifi_auto_retry_get_attempts(WifiAutoRetry *self);

/* The link dropped: until the window is over, every try scans the
 * remembered frequencies first (the BSS table still shows the lost link)
 * and only those (the access point is most likely back where it was). */
void wifi_auto_retry_link_lost(WifiAutoRetry *self, gint64 now_us);
gboolean wifi_auto_retry_after_link_loss(WifiAutoRetry *self, gint64 now_us);
/* Whether the next try scans before it connects; a scan's results clear it. */
gboolean wifi_auto_retry_scan_first(WifiAutoRetry *self);
void wifi_auto_retry_scanned(WifiAutoRetry *self);

/* The wait before the next try in *ms; FALSE when tries stop until
 * something happens (the link loss is then forgotten). */
gboolean wifi_auto_retry_next_wait(WifiAutoRetry *self, gint64 now_us, guint *ms);

/* A BSS that refused us or whose handshake failed. */
void wifi_auto_retry_avoid(WifiAutoRetry *self, const guint8 *bssid, gint64 now_us);
WifiAvoidList *wifi_auto_retry_get_avoid_list(WifiAutoRetry *self);

/* Networks by profile key (autoconnect-known.h) that a retry cannot fix
 * (no agent, a profile joind cannot use): blocked until unblocked. */
void wifi_auto_retry_block(WifiAutoRetry *self, const gchar *key);

/* The access point of the network key stopped the 4-way handshake after
 * our message 2 (at bssid, NULL when not known): maybe a wrong passphrase,
 * maybe a spoofed deauthentication or a slow access point. Records it and
 * returns TRUE when the evidence now says wrong passphrase (the network is
 * blocked for timings->block_ms). Evidence is forgotten when nothing was
 * added for block_ms; once a network was blocked, a single further refusal
 * (its one try after the block) blocks it again. */
gboolean wifi_auto_retry_keys_refused(WifiAutoRetry *self, const gchar *key, const guint8 *bssid,
                                      gint64 now_us);
/* The access point said outright that the keys did not match (a MIC
 * failure): blocked for timings->block_ms. */
void wifi_auto_retry_wrong_passphrase(WifiAutoRetry *self, const gchar *key, gint64 now_us);

/* Forgets a network's block and evidence: its profile changed, a user
 * asked for it, or it connected. */
void wifi_auto_retry_unblock(WifiAutoRetry *self, const gchar *key);
gboolean wifi_auto_retry_is_blocked(WifiAutoRetry *self, const gchar *key, gint64 now_us);

G_END_DECLS
