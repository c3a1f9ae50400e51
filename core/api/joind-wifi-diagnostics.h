/* joind-wifi-diagnostics.h - the words of a WiFi station's part of
 * Daemon1.GetDiagnostics() that other plugins read: the WiFi plugin writes
 * its a{sv} with these keys and values, and a front end (the iwd API's
 * StationDiagnostic) reads them, so a key renamed on one side fails to
 * compile on the other instead of silently vanishing.
 */
#pragma once

/* The station's a{sv} holds the link under this key (absent, or Nothing,
 * when not connected). */
#define JOIND_WIFI_DIAG_CONNECTION "connection"

/* Keys of the link's a{sv}, with their GVariant types. */
#define JOIND_WIFI_DIAG_BSSID             "bssid"             /* s, aa:bb:cc:dd:ee:ff */
#define JOIND_WIFI_DIAG_FREQUENCY         "frequency"         /* u, MHz */
#define JOIND_WIFI_DIAG_CHANNEL           "channel"           /* u */
#define JOIND_WIFI_DIAG_SECURITY          "security"          /* s, a JOIND_WIFI_AKM_* word */
#define JOIND_WIFI_DIAG_PAIRWISE_CIPHER   "pairwise_cipher"   /* s, e.g. "CCMP-128" */
#define JOIND_WIFI_DIAG_RSSI_DBM          "rssi_dbm"          /* i, when the kernel told */
#define JOIND_WIFI_DIAG_RSSI_AVG_DBM      "rssi_avg_dbm"      /* i, when the kernel told */
#define JOIND_WIFI_DIAG_TX_BITRATE_MBPS   "tx_bitrate_mbps"   /* d, when the kernel told */
#define JOIND_WIFI_DIAG_CONNECTED_SECONDS "connected_seconds" /* t */

/* The words of JOIND_WIFI_DIAG_SECURITY: the AKM in use. */
#define JOIND_WIFI_AKM_OPEN       "open"
#define JOIND_WIFI_AKM_OWE        "owe"
#define JOIND_WIFI_AKM_PSK        "psk"
#define JOIND_WIFI_AKM_PSK_SHA256 "psk-sha256"
#define JOIND_WIFI_AKM_FT_PSK     "ft-psk"
#define JOIND_WIFI_AKM_SAE        "sae"
/* SAE whose password element came from hash-to-element. */
#define JOIND_WIFI_AKM_SAE_H2E         "sae-h2e"
#define JOIND_WIFI_AKM_FT_SAE          "ft-sae"
#define JOIND_WIFI_AKM_8021X           "8021x"
#define JOIND_WIFI_AKM_8021X_SHA256    "8021x-sha256"
#define JOIND_WIFI_AKM_FT_8021X        "ft-8021x"
#define JOIND_WIFI_AKM_FT_8021X_SHA384 "ft-8021x-sha384"
#define JOIND_WIFI_AKM_SUITE_B_192     "8021x-suite-b-192"
