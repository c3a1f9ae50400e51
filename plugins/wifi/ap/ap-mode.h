/* ap-mode.h - the access point as the owner of an interface in AP mode
 * (kernel/mode.h). The manager hands it an interface whose type became
 * NL80211_IFTYPE_AP; it holds an idle WifiAp there until asked to start,
 * and the BSS stops when the interface is taken back. */
#pragma once

#include "ap.h"
#include "mode.h"

G_BEGIN_DECLS

extern const WifiModeOps wifi_ap_mode_ops;

G_END_DECLS
