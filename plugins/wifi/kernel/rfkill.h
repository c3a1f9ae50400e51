/* rfkill.h - the radios' kill switches (airplane mode, a hardware switch).
 *
 * Reads /dev/rfkill without blocking, from a GLib fd watch: opening it
 * reports every switch (RFKILL_OP_ADD), then each change. cfg80211 names
 * a radio's switch after its wiphy ("phy0", in
 * /sys/class/rfkill/rfkill<idx>/name), which is how an event finds its
 * stations. Only WLAN switches count.
 *
 * The reader takes any fd and any sysfs directory, so a unit test feeds
 * it events through a pipe (short and malformed reads included) and names
 * switches in a directory of its own.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WifiRfkill WifiRfkill;

/* One event as read from /dev/rfkill. */
typedef struct {
	guint32 idx;
	guint8 type; /* RFKILL_TYPE_* */
	guint8 op;   /* RFKILL_OP_* */
	gboolean soft;
	gboolean hard;
} WifiRfkillEvent;

/* The switch of radio wiphy_name changed (or was first seen): blocked,
 * and why in words ("soft-blocked", "hard-blocked", ...). */
typedef void (*WifiRfkillFunc)(const gchar *wiphy_name, gboolean blocked, const gchar *reason,
                               gpointer user_data);

/* FALSE when buf (one read) is too short to hold an event. */
gboolean wifi_rfkill_parse_event(const guint8 *buf, gsize len, WifiRfkillEvent *event);

/* The kernel's switches: /dev/rfkill and /sys/class/rfkill. */
WifiRfkill *wifi_rfkill_new(WifiRfkillFunc func, gpointer user_data, GError **error);
/* Events read from fd (taken, non-blocking), switch names from
 * sysfs_dir/rfkill<idx>/name. */
WifiRfkill *wifi_rfkill_new_full(gint fd, const gchar *sysfs_dir, WifiRfkillFunc func,
                                 gpointer user_data);
void wifi_rfkill_free(WifiRfkill *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiRfkill, wifi_rfkill_free)

/* Whether radio wiphy_name is blocked now (as last read); *reason then
 * says why (owned by self). FALSE for a radio without a switch. */
gboolean wifi_rfkill_is_blocked(WifiRfkill *self, const gchar *wiphy_name, const gchar **reason);

G_END_DECLS
