/* autoconnect-retry.c - autoconnect's bookkeeping between tries (see
 * autoconnect-retry.h). */
#include "autoconnect-retry.h"

#include <string.h>

const WifiAutoconnectTimings wifi_autoconnect_timings = {
        .retry_initial_ms = 1000,
        .retry_max_ms = 60000,
        .max_attempts = 8,
        .link_retry_initial_ms = 500,
        .link_retry_max_ms = 2000,
        .link_loss_window_ms = 60000,
        .avoid_ms = 60000,
        .suspect_attempts = 3,
        .suspect_span_ms = 60000,
        .block_ms = 30 * 60000,
};

/* What is known against one network's passphrase. */
typedef struct {
	guint refused;   /* handshakes stopped after message 2 */
	gint64 first_us; /* of the first of them */
	gint64 last_us;  /* of the last */
	guint8 first_bssid[6];
	gboolean two_bsses;   /* seen on another BSS than the first */
	gint64 blocked_until; /* 0: never blocked for it */
	gboolean forever;     /* wifi_auto_retry_block(): until unblocked */
} NetEvidence;

struct _WifiAutoRetry {
	WifiAutoconnectTimings timings;
	guint attempts;      /* failed tries in a row; quick rescans after a link loss */
	gint64 link_lost_at; /* 0 when not recently */
	gboolean scan_first;
	WifiAvoidList *avoid;
	GHashTable *nets; /* profile key -> NetEvidence */
};

WifiAutoRetry *
wifi_auto_retry_new(const WifiAutoconnectTimings *timings)
{
	WifiAutoRetry *self = g_new0(WifiAutoRetry, 1);

	self->timings = *timings;
	self->avoid = wifi_avoid_list_new();
	self->nets = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return self;
}

void
wifi_auto_retry_free(WifiAutoRetry *self)
{
	if (self == NULL)
		return;
	wifi_avoid_list_free(self->avoid);
	g_hash_table_unref(self->nets);
	g_free(self);
}

const WifiAutoconnectTimings *
wifi_auto_retry_get_timings(WifiAutoRetry *self)
{
	return &self->timings;
}

void
wifi_auto_retry_reset(WifiAutoRetry *self)
{
	self->attempts = 0;
}

void
wifi_auto_retry_connected(WifiAutoRetry *self)
{
	self->attempts = 0;
	self->link_lost_at = 0;
	self->scan_first = FALSE;
}

void
wifi_auto_retry_failed(WifiAutoRetry *self)
{
	self->attempts++;
}

guint
wifi_auto_retry_get_attempts(WifiAutoRetry *self)
{
	return self->attempts;
}

void
wifi_auto_retry_link_lost(WifiAutoRetry *self, gint64 now_us)
{
	self->attempts = 0;
	/* 0 means "no link loss": a clock that starts at 0 must not hide one. */
	self->link_lost_at = MAX(now_us, 1);
	self->scan_first = TRUE;
}

gboolean
wifi_auto_retry_after_link_loss(WifiAutoRetry *self, gint64 now_us)
{
	return self->link_lost_at != 0 &&
	       now_us - self->link_lost_at < (gint64)self->timings.link_loss_window_ms * 1000;
}

gboolean
wifi_auto_retry_scan_first(WifiAutoRetry *self)
{
	return self->scan_first;
}

void
wifi_auto_retry_scanned(WifiAutoRetry *self)
{
	self->scan_first = FALSE;
}

gboolean
wifi_auto_retry_next_wait(WifiAutoRetry *self, gint64 now_us, guint *ms)
{
	const WifiAutoconnectTimings *t = &self->timings;

	if (wifi_auto_retry_after_link_loss(self, now_us)) {
		*ms = wifi_autoconnect_backoff_ms(self->attempts++, t->link_retry_initial_ms,
		                                  t->link_retry_max_ms);
		return TRUE;
	}
	if (self->attempts > 0 && self->attempts < t->max_attempts) {
		*ms = wifi_autoconnect_backoff_ms(self->attempts - 1, t->retry_initial_ms,
		                                  t->retry_max_ms);
		return TRUE;
	}
	self->link_lost_at = 0;
	self->scan_first = FALSE;
	return FALSE;
}

void
wifi_auto_retry_avoid(WifiAutoRetry *self, const guint8 *bssid, gint64 now_us)
{
	wifi_avoid_list_add(self->avoid, bssid, now_us, (gint64)self->timings.avoid_ms * 1000);
}

WifiAvoidList *
wifi_auto_retry_get_avoid_list(WifiAutoRetry *self)
{
	return self->avoid;
}

static NetEvidence *
net_evidence(WifiAutoRetry *self, const gchar *key)
{
	NetEvidence *ev = g_hash_table_lookup(self->nets, key);

	if (ev == NULL) {
		ev = g_new0(NetEvidence, 1);
		g_hash_table_insert(self->nets, g_strdup(key), ev);
	}
	return ev;
}

void
wifi_auto_retry_block(WifiAutoRetry *self, const gchar *key)
{
	net_evidence(self, key)->forever = TRUE;
}

static void
net_block(WifiAutoRetry *self, NetEvidence *ev, gint64 now_us)
{
	/* 0 means "never blocked": a clock that starts at 0 must not hide one. */
	ev->blocked_until = MAX(now_us + (gint64)self->timings.block_ms * 1000, 1);
}

/* Whether the refusals so far are evidence of a wrong passphrase. */
static gboolean
net_convinced(const WifiAutoconnectTimings *t, const NetEvidence *ev)
{
	if (ev->blocked_until != 0)
		return TRUE; /* blocked before; this was its one try after */
	return ev->refused >= t->suspect_attempts &&
	       (ev->two_bsses || ev->last_us - ev->first_us >= (gint64)t->suspect_span_ms * 1000);
}

gboolean
wifi_auto_retry_keys_refused(WifiAutoRetry *self, const gchar *key, const guint8 *bssid,
                             gint64 now_us)
{
	const WifiAutoconnectTimings *t = &self->timings;
	NetEvidence *ev = net_evidence(self, key);

	if (ev->refused > 0 && ev->blocked_until == 0 &&
	    now_us - ev->last_us >= (gint64)t->block_ms * 1000)
		ev->refused = 0; /* too old to say anything about this one */
	if (ev->refused++ == 0) {
		ev->first_us = now_us;
		ev->two_bsses = FALSE;
		if (bssid != NULL)
			memcpy(ev->first_bssid, bssid, sizeof(ev->first_bssid));
	} else if (bssid != NULL && memcmp(ev->first_bssid, bssid, sizeof(ev->first_bssid)) != 0) {
		ev->two_bsses = TRUE;
	}
	ev->last_us = now_us;
	if (!net_convinced(t, ev))
		return FALSE;
	net_block(self, ev, now_us);
	return TRUE;
}

void
wifi_auto_retry_wrong_passphrase(WifiAutoRetry *self, const gchar *key, gint64 now_us)
{
	NetEvidence *ev = net_evidence(self, key);

	ev->last_us = now_us;
	net_block(self, ev, now_us);
}

void
wifi_auto_retry_unblock(WifiAutoRetry *self, const gchar *key)
{
	g_hash_table_remove(self->nets, key);
}

gboolean
wifi_auto_retry_is_blocked(WifiAutoRetry *self, const gchar *key, gint64 now_us)
{
	const NetEvidence *ev = g_hash_table_lookup(self->nets, key);

	return ev != NULL && (ev->forever || now_us < ev->blocked_until);
}
