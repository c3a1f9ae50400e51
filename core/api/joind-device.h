/* joind-device.h - a network interface that a plugin manages.
 *
 * A device plugin creates one JoindDevice (or a subclass) per interface it
 * manages and hands it to joind_core_add_device(); the core publishes it at
 * /net/joind/device/<ifindex> with net.joind.Device1. Property changes made
 * with the setters below are signalled to D-Bus clients at once.
 */
#pragma once

#include <gio/gio.h>

#include "joind-export.h"

G_BEGIN_DECLS

typedef enum {
	JOIND_DEVICE_KIND_ETHERNET,
	JOIND_DEVICE_KIND_WIFI,
} JoindDeviceKind;

typedef enum {
	JOIND_DEVICE_STATE_DOWN,       /* administratively down */
	JOIND_DEVICE_STATE_NO_CARRIER, /* up, but no carrier / not associated */
	JOIND_DEVICE_STATE_UP,         /* up with carrier */
} JoindDeviceState;

/* What a WiFi interface is (ABI 3.1): a station that joins networks, an
 * access point others join, or a peer of an ad hoc network. */
typedef enum {
	JOIND_DEVICE_MODE_STATION,
	JOIND_DEVICE_MODE_AP,
	JOIND_DEVICE_MODE_ADHOC,
	/* the last value, which name tables are checked against */
	JOIND_DEVICE_MODE_LAST = JOIND_DEVICE_MODE_ADHOC,
} JoindDeviceMode;

#define JOIND_TYPE_DEVICE (joind_device_get_type())
JOIND_EXPORT
G_DECLARE_DERIVABLE_TYPE(JoindDevice, joind_device, JOIND, DEVICE, GObject)

struct _JoindDeviceClass {
	GObjectClass parent_class;
	/* Optional: extra facts for Daemon1.GetDiagnostics() that are known
	 * at once, as a floating a{sv} (BSSID, frequency, cipher, ...); the
	 * core turns it into JSON. Must not block. */
	GVariant *(*get_diagnostics)(JoindDevice *self);
	/* Optional (ABI 1.4), in place of get_diagnostics when a fact has to be asked
	 * for (of the kernel, ...): the core answers GetDiagnostics() once
	 * every device's part is in, so a device never makes the daemon wait.
	 * finish returns the a{sv} (a full reference) or NULL for none. */
	void (*get_diagnostics_async)(JoindDevice *self, GCancellable *cancellable,
	                              GAsyncReadyCallback callback, gpointer user_data);
	GVariant *(*get_diagnostics_finish)(JoindDevice *self, GAsyncResult *result,
	                                    GError **error);
	/* Optional (ABI 3.1): Device1.Mode written. Completes once the
	 * interface runs in mode (its owner attached: the station, or the
	 * access point) or failed, with a GTask whose source object is self
	 * (a boolean result). Called only for a supported mode other than the
	 * current one. */
	void (*set_mode)(JoindDevice *self, JoindDeviceMode mode, GCancellable *cancellable,
	                 GAsyncReadyCallback callback, gpointer user_data);
	gpointer padding[5];
};

JOIND_EXPORT JoindDevice *joind_device_new(gint ifindex, const gchar *name, JoindDeviceKind kind,
                                           const gchar *plugin);
JOIND_EXPORT gint joind_device_get_ifindex(JoindDevice *self);
JOIND_EXPORT const gchar *joind_device_get_name(JoindDevice *self);
JOIND_EXPORT void joind_device_set_name(JoindDevice *self, const gchar *name);
/* "aa:bb:cc:dd:ee:ff", lower case */
JOIND_EXPORT const gchar *joind_device_get_address(JoindDevice *self);
JOIND_EXPORT void joind_device_set_address(JoindDevice *self, const gchar *address);
JOIND_EXPORT JoindDeviceKind joind_device_get_kind(JoindDevice *self);
JOIND_EXPORT const gchar *joind_device_get_plugin(JoindDevice *self);
JOIND_EXPORT gboolean joind_device_get_powered(JoindDevice *self);
JOIND_EXPORT void joind_device_set_powered(JoindDevice *self, gboolean powered);
JOIND_EXPORT JoindDeviceState joind_device_get_state(JoindDevice *self);
JOIND_EXPORT void joind_device_set_state(JoindDevice *self, JoindDeviceState state);
/* The mode the interface runs in ("mode"; station until set) and the
 * modes its radio can run ("supported-modes": a mask of 1 << mode; station
 * until set), both set by the plugin (ABI 3.1). */
JOIND_EXPORT JoindDeviceMode joind_device_get_mode(JoindDevice *self);
JOIND_EXPORT void joind_device_set_mode(JoindDevice *self, JoindDeviceMode mode);
JOIND_EXPORT guint joind_device_get_supported_modes(JoindDevice *self);
JOIND_EXPORT void joind_device_set_supported_modes(JoindDevice *self, guint modes);
/* Switches the interface to mode through the class's set_mode: at once
 * when it runs in mode already; JOIND_ERROR_NOT_SUPPORTED, naming the
 * device and the mode, when its radio cannot (ABI 3.1). */
JOIND_EXPORT void joind_device_change_mode(JoindDevice *self, JoindDeviceMode mode,
                                           GCancellable *cancellable, GAsyncReadyCallback callback,
                                           gpointer user_data);
JOIND_EXPORT gboolean joind_device_change_mode_finish(JoindDevice *self, GAsyncResult *result,
                                                      GError **error);
/* The D-Bus object path, NULL until the core has published the device. */
JOIND_EXPORT const gchar *joind_device_get_object_path(JoindDevice *self);

/* The device's part of Daemon1.GetDiagnostics(), from whichever hook the
 * class has (neither: NULL). finish returns a full reference or NULL
 * (ABI 1.4). */
JOIND_EXPORT void joind_device_get_diagnostics(JoindDevice *self, GCancellable *cancellable,
                                               GAsyncReadyCallback callback, gpointer user_data);
JOIND_EXPORT GVariant *joind_device_get_diagnostics_finish(JoindDevice *self, GAsyncResult *result,
                                                           GError **error);

JOIND_EXPORT const gchar *joind_device_kind_to_string(JoindDeviceKind kind);
JOIND_EXPORT const gchar *joind_device_state_to_string(JoindDeviceState state);
/* "station", "ap", "ad-hoc" (iwd's names; ABI 3.1) */
JOIND_EXPORT const gchar *joind_device_mode_to_string(JoindDeviceMode mode);
/* The names of the modes of a mask of 1 << mode, in the enum's order
 * (ABI 3.1). Free with g_strfreev(). */
JOIND_EXPORT gchar **joind_device_modes_to_strv(guint modes);
/* FALSE for a name that is none of those. */
JOIND_EXPORT gboolean joind_device_mode_from_string(const gchar *name, JoindDeviceMode *mode);

G_END_DECLS
