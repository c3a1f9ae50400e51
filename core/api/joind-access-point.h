/* joind-access-point.h - a WiFi interface in access point mode (ABI 3.1).
 *
 * The wifi plugin subclasses JoindAccessPoint for an interface its owner
 * put in AP mode and attaches it to the device with
 * joind_device_attach_access_point(); the core publishes
 * net.joind.AccessPoint1 on the device's object while one is attached,
 * mirrors its properties and signals, and routes Start, StartProfile and
 * Stop to the class methods once the caller has passed the authorisation
 * gate (polkit action net.joind.hotspot).
 *
 * Each method completes with a GTask whose source object is the access
 * point and whose result is a boolean: Start and StartProfile once the
 * BSS is up (beaconing) or failed, Stop once it is down. The passphrase
 * is the plugin's to keep: it is never a property and never logged.
 */
#pragma once

#include <gio/gio.h>

#include "joind-device.h"
#include "joind-export.h"

G_BEGIN_DECLS

#define JOIND_TYPE_ACCESS_POINT (joind_access_point_get_type())
JOIND_EXPORT
G_DECLARE_DERIVABLE_TYPE(JoindAccessPoint, joind_access_point, JOIND, ACCESS_POINT, GObject)

/* What a started access point offers (the "security" property). */
#define JOIND_AP_SECURITY_WPA2      "wpa2-psk"
#define JOIND_AP_SECURITY_WPA3      "wpa3-sae"
#define JOIND_AP_SECURITY_WPA2_WPA3 "wpa2-wpa3"

struct _JoindAccessPointClass {
	GObjectClass parent_class;
	/* Starts a BSS named ssid secured with passphrase; security is one of
	 * the JOIND_AP_SECURITY_* names, or NULL for the strongest the radio
	 * offers to every client (WPA2 and WPA3 together where it can). */
	void (*start)(JoindAccessPoint *self, const gchar *ssid, const gchar *passphrase,
	              const gchar *security, GCancellable *cancellable,
	              GAsyncReadyCallback callback, gpointer user_data);
	/* Starts the BSS a stored access point profile describes. */
	void (*start_profile)(JoindAccessPoint *self, const gchar *name, GCancellable *cancellable,
	                      GAsyncReadyCallback callback, gpointer user_data);
	void (*stop)(JoindAccessPoint *self, GCancellable *cancellable,
	             GAsyncReadyCallback callback, gpointer user_data);
	gpointer padding[8];
};

JOIND_EXPORT void joind_access_point_start(JoindAccessPoint *self, const gchar *ssid,
                                           const gchar *passphrase, const gchar *security,
                                           GCancellable *cancellable, GAsyncReadyCallback callback,
                                           gpointer user_data);
JOIND_EXPORT void joind_access_point_start_profile(JoindAccessPoint *self, const gchar *name,
                                                   GCancellable *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer user_data);
JOIND_EXPORT void joind_access_point_stop(JoindAccessPoint *self, GCancellable *cancellable,
                                          GAsyncReadyCallback callback, gpointer user_data);
/* The end of any of the three. */
JOIND_EXPORT gboolean joind_access_point_finish(JoindAccessPoint *self, GAsyncResult *result,
                                                GError **error);

/* "started" (b), "name" (s, the SSID as joind_ssid_to_display() spells it),
 * "frequency" (u, MHz), "security" (s): set together by the subclass as
 * the BSS comes up (name etc. given) and goes down (started FALSE: the
 * others are cleared). */
JOIND_EXPORT void joind_access_point_set_started(JoindAccessPoint *self, gboolean started,
                                                 const gchar *name, guint frequency,
                                                 const gchar *security);
JOIND_EXPORT gboolean joind_access_point_get_started(JoindAccessPoint *self);
JOIND_EXPORT const gchar *joind_access_point_get_name(JoindAccessPoint *self);
JOIND_EXPORT guint joind_access_point_get_frequency(JoindAccessPoint *self);

/* A client's port opened ("station-joined") or it left ("station-left"):
 * address "aa:bb:...", lower case. The "stations" property (GStrv) lists
 * the joined ones in the order they joined. */
JOIND_EXPORT void joind_access_point_station_joined(JoindAccessPoint *self, const gchar *address);
JOIND_EXPORT void joind_access_point_station_left(JoindAccessPoint *self, const gchar *address);
/* transfer none; NULL-terminated */
JOIND_EXPORT const gchar *const *joind_access_point_get_stations(JoindAccessPoint *self);

/* Attach (or with NULL, detach) the access point of a WiFi device in AP
 * mode; the device keeps a reference. */
JOIND_EXPORT void joind_device_attach_access_point(JoindDevice *device,
                                                   JoindAccessPoint *access_point);
JOIND_EXPORT JoindAccessPoint *joind_device_get_access_point(JoindDevice *device);

G_END_DECLS
