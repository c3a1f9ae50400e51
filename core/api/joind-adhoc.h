/* joind-adhoc.h - a WiFi interface in ad-hoc (IBSS) mode (ABI 3.2).
 *
 * The wifi plugin subclasses JoindAdHoc for an interface its owner put in
 * ad-hoc mode and attaches it with joind_device_attach_adhoc(); the core
 * publishes net.joind.AdHoc1 on the device's object while one is
 * attached, mirrors its properties and signals, and routes Start,
 * StartOpen and Stop to the class methods once the caller has passed the
 * authorisation gate (polkit action net.joind.hotspot, as for an access
 * point).
 *
 * Each method completes with a GTask whose source object is the ad-hoc
 * object and whose result is a boolean: Start and StartOpen once the
 * kernel took the join (it then looks for the IBSS and starts it when
 * none answers), Stop once it has left. The
 * passphrase is the plugin's to keep: never a property, never logged.
 */
#pragma once

#include <gio/gio.h>

#include "joind-device.h"
#include "joind-export.h"

G_BEGIN_DECLS

#define JOIND_TYPE_ADHOC (joind_adhoc_get_type())
JOIND_EXPORT
G_DECLARE_DERIVABLE_TYPE(JoindAdHoc, joind_adhoc, JOIND, ADHOC, GObject)

struct _JoindAdHocClass {
	GObjectClass parent_class;
	/* Joins (or starts) the IBSS named ssid, secured with WPA2-PSK (RSN
	 * IBSS, CCMP) from passphrase, or open when passphrase is NULL. */
	void (*start)(JoindAdHoc *self, const gchar *ssid, const gchar *passphrase,
	              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
	void (*stop)(JoindAdHoc *self, GCancellable *cancellable, GAsyncReadyCallback callback,
	             gpointer user_data);
	gpointer padding[8];
};

JOIND_EXPORT void joind_adhoc_start(JoindAdHoc *self, const gchar *ssid, const gchar *passphrase,
                                    GCancellable *cancellable, GAsyncReadyCallback callback,
                                    gpointer user_data);
JOIND_EXPORT void joind_adhoc_stop(JoindAdHoc *self, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
/* The end of either. */
JOIND_EXPORT gboolean joind_adhoc_finish(JoindAdHoc *self, GAsyncResult *result, GError **error);

/* "started" (b), "name" (s, the SSID as joind_ssid_to_display() spells
 * it, "" when stopped) and "security" (s: "open" or "wpa2-psk", "" when
 * stopped), set together by the subclass. */
JOIND_EXPORT void joind_adhoc_set_started(JoindAdHoc *self, gboolean started, const gchar *name,
                                          const gchar *security);
JOIND_EXPORT gboolean joind_adhoc_get_started(JoindAdHoc *self);

/* A peer's link opened ("peer-joined": for RSN once both of its 4-way
 * handshakes completed) or it left ("peer-left"): address "aa:bb:...",
 * lower case. The "peers" property (GStrv) lists the joined ones in the
 * order they joined. */
JOIND_EXPORT void joind_adhoc_peer_joined(JoindAdHoc *self, const gchar *address);
JOIND_EXPORT void joind_adhoc_peer_left(JoindAdHoc *self, const gchar *address);
/* transfer none; NULL-terminated */
JOIND_EXPORT const gchar *const *joind_adhoc_get_peers(JoindAdHoc *self);

/* Attach (or with NULL, detach) the ad-hoc object of a WiFi device in
 * ad-hoc mode; the device keeps a reference. */
JOIND_EXPORT void joind_device_attach_adhoc(JoindDevice *device, JoindAdHoc *adhoc);
JOIND_EXPORT JoindAdHoc *joind_device_get_adhoc(JoindDevice *device);

G_END_DECLS
