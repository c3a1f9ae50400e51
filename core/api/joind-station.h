/* joind-station.h - a WiFi station and the networks it sees.
 *
 * The wifi plugin subclasses JoindStation (one per station interface) and
 * JoindNetwork (one per SSID + security seen in scans), attaches the
 * station to its device with joind_device_attach_station() and adds and
 * removes networks as scans change. The core publishes net.joind.Station1
 * on the device's object and net.joind.Network1 at
 * /net/joind/device/<ifindex>/network/<ssid-hex>_<type>, mirrors every
 * property change, and routes method calls to the class methods below once
 * the caller has passed the authorisation gate.
 *
 * The asynchronous methods follow GIO's pattern: a GAsyncReadyCallback and
 * a _finish(). Errors are JOIND_ERROR codes; they reach D-Bus clients as
 * net.joind.Error.<Name> with the GError's message.
 */
#pragma once

#include <gio/gio.h>

#include "joind-device.h"
#include "joind-export.h"
#include "joind-profile.h"

G_BEGIN_DECLS

typedef enum {
	JOIND_STATION_STATE_DISCONNECTED,
	JOIND_STATION_STATE_CONNECTING,
	JOIND_STATION_STATE_CONNECTED,
	JOIND_STATION_STATE_DISCONNECTING,
	/* connected, moving to another BSS of the network (ABI 3.0) */
	JOIND_STATION_STATE_ROAMING,
	/* the last value, which name tables are checked against */
	JOIND_STATION_STATE_LAST = JOIND_STATION_STATE_ROAMING,
} JoindStationState;

typedef enum {
	JOIND_NETWORK_TYPE_OPEN,
	JOIND_NETWORK_TYPE_WEP,
	JOIND_NETWORK_TYPE_PSK,
	JOIND_NETWORK_TYPE_SAE,
	JOIND_NETWORK_TYPE_8021X,
	JOIND_NETWORK_TYPE_OWE,
	/* the last value, which name tables are checked against */
	JOIND_NETWORK_TYPE_LAST = JOIND_NETWORK_TYPE_OWE,
} JoindNetworkType;

/* ---- networks ------------------------------------------------------------ */

#define JOIND_TYPE_NETWORK (joind_network_get_type())
JOIND_EXPORT
G_DECLARE_DERIVABLE_TYPE(JoindNetwork, joind_network, JOIND, NETWORK, GObject)

struct _JoindNetworkClass {
	GObjectClass parent_class;
	/* Network1.Connect(): completes once connected or failed. The default
	 * fails with JOIND_ERROR_NOT_SUPPORTED. */
	void (*connect)(JoindNetwork *self, GCancellable *cancellable, GAsyncReadyCallback callback,
	                gpointer user_data);
	gboolean (*connect_finish)(JoindNetwork *self, GAsyncResult *result, GError **error);
	gpointer padding[8];
};

/* Construct properties of a subclass: "ssid" (GBytes, 1..32 octets) and
 * "network-type" (JoindNetworkType). */
JOIND_EXPORT GBytes *joind_network_get_ssid(JoindNetwork *self);
/* The SSID for people: UTF-8 as it is; other octets, control characters
 * and NUL as \xNN. */
JOIND_EXPORT const gchar *joind_network_get_name(JoindNetwork *self);
JOIND_EXPORT JoindNetworkType joind_network_get_network_type(JoindNetwork *self);
/* Best BSS signal in 100 * dBm. */
JOIND_EXPORT gint joind_network_get_strength(JoindNetwork *self);
JOIND_EXPORT void joind_network_set_strength(JoindNetwork *self, gint strength);
JOIND_EXPORT void joind_network_set_connected(JoindNetwork *self, gboolean connected);
/* What the network's access points offer, for people (the "security"
 * property, Network1.Security, ABI 1.6): "open", "owe", "wep", "wpa2-psk",
 * "wpa3-sae", "wpa2-wpa3", "wpa2-enterprise", "wpa3-enterprise",
 * "wpa3-enterprise-192"; "open" until set. */
JOIND_EXPORT void joind_network_set_security(JoindNetwork *self, const gchar *security);
/* The known-network profile this network matches, or NULL. */
JOIND_EXPORT JoindProfile *joind_network_get_profile(JoindNetwork *self);
JOIND_EXPORT void joind_network_set_profile(JoindNetwork *self, JoindProfile *profile);
/* NULL until the core has published the network. */
JOIND_EXPORT const gchar *joind_network_get_object_path(JoindNetwork *self);
/* The device the network was seen on, NULL before it was added. */
JOIND_EXPORT JoindDevice *joind_network_get_device(JoindNetwork *self);

JOIND_EXPORT void joind_network_connect(JoindNetwork *self, GCancellable *cancellable,
                                        GAsyncReadyCallback callback, gpointer user_data);
JOIND_EXPORT gboolean joind_network_connect_finish(JoindNetwork *self, GAsyncResult *result,
                                                   GError **error);

/* "open", "wep", "psk", "sae", "8021x", "owe" */
JOIND_EXPORT const gchar *joind_network_type_to_string(JoindNetworkType type);
/* The profile file a network of this type is known by (iwd's rules: sae
 * shares .psk, owe shares .open); FALSE for WEP, which joind does not join. */
JOIND_EXPORT gboolean joind_network_type_to_profile_type(JoindNetworkType type,
                                                         JoindProfileType *profile_type);
/* The SSID as a person reads it: the one spelling of Network1.Name,
 * KnownNetwork1.Name, profile names and log lines. Valid UTF-8 is kept as
 * is except for
 *   \\      a backslash,
 *   \xNN    one octet: C0 controls, DEL, NUL and octets that are not UTF-8,
 *   \uNNNN  a code point (four lower-case hex digits): C1 controls and the
 *           bidi marks, embeddings, overrides and isolates (U+061C, U+200E,
 *           U+200F, U+202A-U+202E, U+2066-U+2069).
 * The result is valid UTF-8 without controls and names exactly one SSID.
 * Free with g_free(). */
JOIND_EXPORT gchar *joind_ssid_to_display(const guint8 *ssid, gsize ssid_len);

/* ---- stations ------------------------------------------------------------ */

/* An access point of the last scan whose beacon hides its SSID (empty or
 * all zeros), as joind_station_get_hidden_access_points() lists it (ABI
 * 2.3). */
typedef struct {
	guint8 address[6];     /* the BSSID */
	gint16 strength;       /* signal in 100 * dBm */
	JoindNetworkType type; /* what its beacon offers */
} JoindHiddenAccessPoint;

#define JOIND_TYPE_STATION (joind_station_get_type())
JOIND_EXPORT
G_DECLARE_DERIVABLE_TYPE(JoindStation, joind_station, JOIND, STATION, GObject)

struct _JoindStationClass {
	GObjectClass parent_class;
	/* Station1.Scan(): completes when the results are in; a scan already
	 * running is joined rather than a second one started. */
	void (*scan)(JoindStation *self, GCancellable *cancellable, GAsyncReadyCallback callback,
	             gpointer user_data);
	gboolean (*scan_finish)(JoindStation *self, GAsyncResult *result, GError **error);
	void (*disconnect)(JoindStation *self, GCancellable *cancellable,
	                   GAsyncReadyCallback callback, gpointer user_data);
	gboolean (*disconnect_finish)(JoindStation *self, GAsyncResult *result, GError **error);
	void (*connect_hidden)(JoindStation *self, GBytes *ssid, GCancellable *cancellable,
	                       GAsyncReadyCallback callback, gpointer user_data);
	gboolean (*connect_hidden_finish)(JoindStation *self, GAsyncResult *result, GError **error);
	/* Networks best first (element type JoindNetwork, transfer full). The
	 * default returns them sorted by strength. */
	GPtrArray *(*get_ordered_networks)(JoindStation *self);
	/* ABI 2.3: the hidden access points the last scan saw, in any order
	 * (element type JoindHiddenAccessPoint, transfer full). The default
	 * returns none. */
	GArray *(*get_hidden_access_points)(JoindStation *self);
	/* ABI 3.0: Station1.Roam(): moves the link to bssid, another access point of
	 * the connected network; returns once the move started (how it
	 * ended shows in State and ConnectedAccessPoint). The default
	 * refuses (NotSupported). */
	gboolean (*roam)(JoindStation *self, const guint8 *bssid, GError **error);
	gpointer padding[6];
};

JOIND_EXPORT gboolean joind_station_get_scanning(JoindStation *self);
JOIND_EXPORT void joind_station_set_scanning(JoindStation *self, gboolean scanning);
JOIND_EXPORT JoindStationState joind_station_get_state(JoindStation *self);
/* Logs "<device>: old -> new (reason)". */
JOIND_EXPORT void joind_station_set_state(JoindStation *self, JoindStationState state,
                                          const gchar *reason);
JOIND_EXPORT JoindNetwork *joind_station_get_connected_network(JoindStation *self);
JOIND_EXPORT void joind_station_set_connected_network(JoindStation *self, JoindNetwork *network);
/* The network the station is connecting or connected to (the
 * "target-network" property, ABI 2.2): set from the moment an attempt
 * starts, before the state turns to connecting, until the link is gone;
 * NULL otherwise. iwd's API names it from "connecting" on, where
 * "connected-network" waits for the link. */
JOIND_EXPORT JoindNetwork *joind_station_get_target_network(JoindStation *self);
/* Station1.ConnectedAccessPoint (the "connected-access-point" property):
 * the BSSID of the link ("aa:bb:..."), NULL when not connected. */
JOIND_EXPORT void joind_station_set_connected_access_point(JoindStation *self, const gchar *bssid);
/* Station1.Roam(bssid): see JoindStationClass.roam; bssid as text. */
JOIND_EXPORT gboolean joind_station_roam(JoindStation *self, const gchar *bssid, GError **error);
JOIND_EXPORT void joind_station_set_target_network(JoindStation *self, JoindNetwork *network);
/* The device the station is attached to, NULL before. */
JOIND_EXPORT JoindDevice *joind_station_get_device(JoindStation *self);

/* The station keeps a reference to each network it holds; adding one that
 * is already there, or removing one that is not, does nothing. Signals
 * "network-added" and "network-removed" (JoindNetwork *) follow. */
JOIND_EXPORT void joind_station_add_network(JoindStation *self, JoindNetwork *network);
JOIND_EXPORT void joind_station_remove_network(JoindStation *self, JoindNetwork *network);
/* Element type JoindNetwork, transfer container (the station holds them). */
JOIND_EXPORT GPtrArray *joind_station_get_networks(JoindStation *self);

JOIND_EXPORT void joind_station_scan(JoindStation *self, GCancellable *cancellable,
                                     GAsyncReadyCallback callback, gpointer user_data);
JOIND_EXPORT gboolean joind_station_scan_finish(JoindStation *self, GAsyncResult *result,
                                                GError **error);
JOIND_EXPORT void joind_station_disconnect(JoindStation *self, GCancellable *cancellable,
                                           GAsyncReadyCallback callback, gpointer user_data);
JOIND_EXPORT gboolean joind_station_disconnect_finish(JoindStation *self, GAsyncResult *result,
                                                      GError **error);
JOIND_EXPORT void joind_station_connect_hidden(JoindStation *self, GBytes *ssid,
                                               GCancellable *cancellable,
                                               GAsyncReadyCallback callback, gpointer user_data);
JOIND_EXPORT gboolean joind_station_connect_hidden_finish(JoindStation *self, GAsyncResult *result,
                                                          GError **error);
JOIND_EXPORT GPtrArray *joind_station_get_ordered_networks(JoindStation *self);
/* The hidden access points of the last scan, strongest first, equal
 * strengths by address (element type JoindHiddenAccessPoint, transfer
 * full; ABI 2.3). Computed on each call. */
JOIND_EXPORT GArray *joind_station_get_hidden_access_points(JoindStation *self);

/* "disconnected", "connecting", "connected", "disconnecting" */
JOIND_EXPORT const gchar *joind_station_state_to_string(JoindStationState state);

/* Attach (or with NULL, detach) the station of a WiFi device; the device
 * keeps a reference. Attach before or after joind_core_add_device(). */
JOIND_EXPORT void joind_device_attach_station(JoindDevice *device, JoindStation *station);
JOIND_EXPORT JoindStation *joind_device_get_station(JoindDevice *device);

G_END_DECLS
