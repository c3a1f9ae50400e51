/* autoconnect-retry.c - autoconnect's bookkeeping between tries (see
 * autoconnect-retry.h). */
#include "autoconnect-retry.h"

const WifiAutoconnectTimings wifi_autoconnect_timings = {
        .retry_initial_ms = 1000,
        .retry_max_ms = 60000,
        .max_attempts = 8,
        .link_retry_initial_ms = 500,
        .link_retry_max_ms = 2000,
        .link_loss_window_ms = 60000,
        .avoid_ms = 60000,
};

struct _WifiAutoRetry {
	WifiAutoconnectTimings timings;
	guint attempts;      /* failed tries in a row; quick rescans after a link loss */
	gint64 link_lost_at; /* 0 when not recently */
	gboolean scan_first;
	WifiAvoidList *avoid;
	GHashTable *blocked; /* profile keys */
};

WifiAutoRetry *
wifi_auto_retry_new(const WifiAutoconnectTimings *timings)
{
	WifiAutoRetry *self = g_new0(WifiAutoRetry, 1);

	self->timings = *timings;
	self->avoid = wifi_avoid_list_new();
	self->blocked = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	return self;
}

void
wifi_auto_retry_free(WifiAutoRetry *self)
{
	if (self == NULL)
		return;
	wifi_avoid_list_free(self->avoid);
	g_hash_table_unref(self->blocked);
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

void
wifi_auto_retry_block(WifiAutoRetry *self, const gchar *key)
{
	g_hash_table_add(self->blocked, g_strdup(key));
}

void
wifi_auto_retry_unblock(WifiAutoRetry *self, const gchar *key)
{
	g_hash_table_remove(self->blocked, key);
}

gboolean
wifi_auto_retry_is_blocked(WifiAutoRetry *self, const gchar *key)
{
	return g_hash_table_contains(self->blocked, key);
}
