/* profile-keys.c - the WiFi plugin's profile keys (see profile-keys.h):
 * iwd.network(5)'s [Settings] and [Security] keys of WiFi profiles, and
 * joind's OKC and SAE-PT-Group<n>. AutoConnect and Hidden are the core's
 * (KnownNetwork1 shows them); the EAP keys are the methods'. And the keys
 * of iwd's access point profiles (ap/<ssid>.ap) that joind's access point
 * implements: any other key of such a profile is refused. */
#include "profile-keys.h"

#define WIFI_PROFILES                                    \
	(JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_OPEN) | \
	 JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_PSK) |  \
	 JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_8021X))
#define PSK_PROFILES JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_PSK)
#define AP_PROFILES  JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_AP)

static const gchar *const transition_modes[] = {"personal", "enterprise", "open", NULL};
static const gchar *const channels_24ghz[] = {"1", "2",  "3",  "4",  "5",  "6",  "7", "8",
                                              "9", "10", "11", "12", "13", "14", NULL};

const JoindProfileKey wifi_profile_keys[] = {
        {WIFI_PROFILES, "Settings", "AlwaysRandomizeAddress", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {WIFI_PROFILES, "Settings", "AddressOverride", JOIND_PROFILE_KEY_UNICAST_ADDRESS, NULL,
         NULL},
        {WIFI_PROFILES, "Settings", "TransitionDisable", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {WIFI_PROFILES, "Settings", "DisabledTransitionModes", JOIND_PROFILE_KEY_WORDS,
         "a transition mode", transition_modes},
        {WIFI_PROFILES, "Settings", "OKC", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {PSK_PROFILES | AP_PROFILES, "Security", "Passphrase", JOIND_PROFILE_KEY_PASSPHRASE, NULL,
         NULL},
        {PSK_PROFILES | AP_PROFILES, "Security", "PreSharedKey", JOIND_PROFILE_KEY_HEX256, NULL,
         NULL},
        {AP_PROFILES, "General", "Channel", JOIND_PROFILE_KEY_WORDS, "a 2.4 GHz channel",
         channels_24ghz},
        /* joind's own: iwd's access point has no hidden SSID. */
        {AP_PROFILES, "General", "Hidden", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        /* The password elements joind derives and keeps (sae-pt.h). */
        {PSK_PROFILES, "Security", "SAE-PT-Group*", JOIND_PROFILE_KEY_TEXT, NULL, NULL},
        {0, NULL, NULL, 0, NULL, NULL},
};
