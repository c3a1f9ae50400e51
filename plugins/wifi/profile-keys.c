/* profile-keys.c - the WiFi plugin's profile keys (see profile-keys.h):
 * iwd.network(5)'s [Settings] and [Security] keys of WiFi profiles, and
 * joind's OKC and SAE-PT-Group<n>. AutoConnect and Hidden are the core's
 * (KnownNetwork1 shows them); the EAP keys are the methods'. */
#include "profile-keys.h"

#define WIFI_PROFILES                                    \
	(JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_OPEN) | \
	 JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_PSK) |  \
	 JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_8021X))
#define PSK_PROFILES JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_PSK)

static const gchar *const transition_modes[] = {"personal", "enterprise", "open", NULL};

const JoindProfileKey wifi_profile_keys[] = {
        {WIFI_PROFILES, "Settings", "AlwaysRandomizeAddress", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {WIFI_PROFILES, "Settings", "AddressOverride", JOIND_PROFILE_KEY_UNICAST_ADDRESS, NULL,
         NULL},
        {WIFI_PROFILES, "Settings", "TransitionDisable", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {WIFI_PROFILES, "Settings", "DisabledTransitionModes", JOIND_PROFILE_KEY_WORDS,
         "a transition mode", transition_modes},
        {WIFI_PROFILES, "Settings", "OKC", JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {PSK_PROFILES, "Security", "Passphrase", JOIND_PROFILE_KEY_PASSPHRASE, NULL, NULL},
        {PSK_PROFILES, "Security", "PreSharedKey", JOIND_PROFILE_KEY_HEX256, NULL, NULL},
        /* The password elements joind derives and keeps (sae-pt.h). */
        {PSK_PROFILES, "Security", "SAE-PT-Group*", JOIND_PROFILE_KEY_TEXT, NULL, NULL},
        {0, NULL, NULL, 0, NULL, NULL},
};
