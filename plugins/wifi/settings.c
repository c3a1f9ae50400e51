/* settings.c - the main.conf keys the wifi plugin reads, with their types,
 * ranges and defaults; the core checks main.conf against them. */
#include "settings.h"

static const gchar *const address_modes[] = {"disabled", "once", "network", NULL};
static const gchar *const address_ranges[] = {"full", "nic", NULL};

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
        /* Which MAC address stations show: the kernel's, one random address
         * per start, or one per network (iwd's values). */
        {"General", "AddressRandomization", JOIND_CONFIG_STRING, "disabled", 0, 0, address_modes},
        /* full: all of the address is random; nic: the vendor's OUI kept. */
        {"General", "AddressRandomizationRange", JOIND_CONFIG_STRING, "full", 0, 0, address_ranges},
        /* Roaming (iwd's keys and defaults): the signal (dBm) below which
         * a connected station looks for a better BSS of its network, on
         * 2.4 GHz and on 5/6 GHz, and the seconds between two searches
         * while the signal stays low and no candidate was good enough. */
        {"General", "RoamThreshold", JOIND_CONFIG_INT, "-70", -100, -1, NULL},
        {"General", "RoamThreshold5G", JOIND_CONFIG_INT, "-76", -100, -1, NULL},
        {"General", "RoamRetryInterval", JOIND_CONFIG_INT, "60", 1, 86400, NULL},
        /* The access point (ap/): seconds between group key rotations (0:
         * never; hostapd's wpa_group_rekey default), the most clients at
         * once (the next is refused with status 17, AP full; 2007 is the
         * largest association ID) and the seconds a silent client keeps
         * its place before it is deauthenticated (hostapd's
         * ap_max_inactivity). */
        {"AccessPoint", "RekeyInterval", JOIND_CONFIG_INT, "86400", 0, 604800, NULL},
        {"AccessPoint", "MaxStations", JOIND_CONFIG_INT, "32", 1, 2007, NULL},
        {"AccessPoint", "InactivityTimeout", JOIND_CONFIG_INT, "300", 10, 86400, NULL},
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};
