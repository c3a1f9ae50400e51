/* wired-settings.c - the main.conf keys the ethernet-8021x plugin reads:
 * the IEEE 802.1X-2010 supplicant PAE timers (seconds) and counts. */
#include "wired-settings.h"

const JoindConfigKey wired_settings[] = {
        {"Wired", "StartPeriod", JOIND_CONFIG_INT, "30", 1, 3600, NULL},
        {"Wired", "MaxStart", JOIND_CONFIG_INT, "3", 1, 100, NULL},
        {"Wired", "HeldPeriod", JOIND_CONFIG_INT, "60", 0, 3600, NULL},
        {"Wired", "AuthPeriod", JOIND_CONFIG_INT, "30", 1, 3600, NULL},
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};
