/* address.h - which MAC address a station shows (iwd's semantics):
 *   disabled  the kernel's, untouched;
 *   once      one random address when the interface is first seen;
 *   network   one address per network, derived from a secret kept in the
 *             state directory, the permanent address and the SSID (stable
 *             across restarts, different between networks); a profile's
 *             AlwaysRandomizeAddress makes it random per connection and
 *             AddressOverride names it.
 * [General] AddressRandomizationRange=nic keeps the permanent address's
 * first three octets (the vendor's OUI). Scans use a random source address
 * whenever randomisation is on and the radio can.
 *
 * Changing the address takes the link down and up again, so the connector
 * does it only before authentication, never while associated. The
 * permanent address is put back when joind lets the interface go. */
#pragma once

#include "iface.h"
#include "joind-device.h"
#include "joind-profile.h"

G_BEGIN_DECLS

typedef enum {
	WIFI_ADDRESS_DISABLED,
	WIFI_ADDRESS_ONCE,
	WIFI_ADDRESS_NETWORK,
} WifiAddressMode;

typedef struct _WifiAddress WifiAddress;

/* state_dir holds the secret (created 0600 on first use); NULL keeps the
 * secret in memory only (tests). */
WifiAddress *wifi_address_new(WifiAddressMode mode, gboolean nic_range, const gchar *state_dir);
void wifi_address_free(WifiAddress *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiAddress, wifi_address_free)

/* main.conf's [General] AddressRandomization and AddressRandomizationRange. */
WifiAddressMode wifi_address_mode_from_string(const gchar *text);

/* Whether scans should ask the radio for a random source address. */
gboolean wifi_address_randomize_scans(WifiAddress *self);

/* The address a connection to the network (ssid, its profile or NULL)
 * should use; current is the interface's address now (used as is when the
 * mode does not pick one). FALSE with error when the permanent address or
 * the secret cannot be had. */
gboolean wifi_address_for_network(WifiAddress *self, WifiIface *iface, const guint8 *ssid,
                                  gsize ssid_len, JoindProfile *profile, const guint8 current[6],
                                  guint8 out[6], GError **error);

/* A station starts: mode once gives it a random address (before joind
 * brings it up). */
void wifi_address_start(WifiIface *iface, JoindDevice *device);
/* joind lets it go: the permanent address again, when joind changed it. */
void wifi_address_stop(WifiIface *iface, JoindDevice *device);

/* Sets the interface's address (down, set, up as it was); a no-op when
 * it has that address already. */
gboolean wifi_address_apply(WifiIface *iface, const guint8 addr[6], const guint8 current[6],
                            GError **error);

/* GetDiagnostics: the address in use (current), the mode, and the
 * permanent address once joind has read it. */
void wifi_address_diagnostics(WifiIface *iface, const gchar *current, GVariantDict *d);

/* The derivation, for tests: HMAC-SHA256(secret, permanent | SSID), made
 * a locally administered unicast address (nic: the OUI kept). */
void wifi_address_derive(const guint8 secret[32], const guint8 permanent[6], const guint8 *ssid,
                         gsize ssid_len, gboolean nic, guint8 out[6]);

G_END_DECLS
