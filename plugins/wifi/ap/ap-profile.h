/* ap-profile.h - iwd's access point profiles: <state dir>/ap/<SSID>.ap,
 *
 *   [General]  Channel=       a 2.4 GHz channel (else one is chosen)
 *              Hidden=        true: beacons without the SSID (joind's own
 *                             key: iwd's access point has none)
 *   [Security] Passphrase=    8 to 63 characters, or
 *              PreSharedKey=  64 hex digits
 *
 * as AccessPoint.StartProfile(ssid) reads them: WPA2-Personal, as iwd's.
 * The keys iwd's profile has beyond those (its DHCP server's [IPv4], WSC,
 * cipher choices) are refused with a sentence naming them rather than
 * ignored: addresses are for NetworkManager's shared mode or
 * systemd-networkd. */
#pragma once

#include "ap.h"

G_BEGIN_DECLS

typedef struct {
	WifiApConfig config; /* its secret points into the profile */
	gchar *secret;
} WifiApProfile;

/* JOIND_ERROR_NOT_FOUND when there is no such profile,
 * JOIND_ERROR_INVALID_ARGS (naming the file and what is wrong) when it
 * cannot be used. */
WifiApProfile *wifi_ap_profile_load(const gchar *state_dir, const gchar *ssid, GError **error);
void wifi_ap_profile_free(WifiApProfile *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiApProfile, wifi_ap_profile_free)

G_END_DECLS
