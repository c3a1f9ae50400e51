/* joind-radio-watch.h - whether the machine has a radio, and when one
 * appears, without nl80211.
 *
 * A plugin that only serves radios (Load=with-radio, plugins/README.md)
 * stays closed until then. Radios are the kernel's wiphys: the entries of
 * /sys/class/ieee80211 (which a network namespace sees only its own of),
 * and a uevent of that subsystem when one is added or moved into this
 * namespace. The uevent socket is all that is kept open meanwhile: no
 * generic netlink family, no library.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _JoindRadioWatch JoindRadioWatch;

/* Whether sysfs_class (normally "/sys/class/ieee80211") has an entry. */
gboolean joind_radio_present(const gchar *sysfs_class);

/* Calls func once, from the main loop, when the kernel announces a radio;
 * NULL (and a warning logged by the caller) when no uevent socket can be
 * had. Open it before looking at sysfs, so that a radio added in between
 * is not missed. */
JoindRadioWatch *joind_radio_watch_new(GSourceFunc func, gpointer data, GError **error);
void joind_radio_watch_free(JoindRadioWatch *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindRadioWatch, joind_radio_watch_free)

/* Whether one kernel uevent message ("add@/devices/...\0ACTION=add\0...")
 * adds a radio to this namespace (exposed for unit tests). */
gboolean joind_radio_uevent_is_added(const gchar *msg, gsize len);

G_END_DECLS
