/* settings.c - the main.conf keys the wifi plugin reads, with their types,
 * ranges and defaults; the core checks main.conf against them. */
#include "settings.h"

const JoindConfigKey wifi_settings[] = {
        /* Interfaces joind manages (globs); empty means all. */
        {"General", "Interfaces", JOIND_CONFIG_STRV, "", 0, 0, NULL},
        /* Interfaces joind leaves alone (globs), e.g. radios used by hostapd. */
        {"General", "BlacklistInterfaces", JOIND_CONFIG_STRV, "", 0, 0, NULL},
        /* EAPOL over nl80211's control port when the radio can; false forces
         * the AF_PACKET socket on the interface (as iwd's option). */
        {"General", "ControlPortOverNL80211", JOIND_CONFIG_BOOL, "true", 0, 0, NULL},
        /* Authenticate and associate with CMD_AUTHENTICATE/CMD_ASSOCIATE
         * when the radio can; false leaves both to cfg80211 (CMD_CONNECT). */
        {"General", "UserspaceSME", JOIND_CONFIG_BOOL, "true", 0, 0, NULL},
        /* Seconds between scans while disconnected: starts at the initial value
         * and doubles up to the maximum. */
        {"Scan", "InitialPeriodicScanInterval", JOIND_CONFIG_INT, "10", 1, 3600, NULL},
        {"Scan", "MaximumPeriodicScanInterval", JOIND_CONFIG_INT, "300", 1, 86400, NULL},
        {"Scan", "DisablePeriodicScan", JOIND_CONFIG_BOOL, "false", 0, 0, NULL},
        /* Below this signal (dBm) the station looks for a better BSS. */
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};
