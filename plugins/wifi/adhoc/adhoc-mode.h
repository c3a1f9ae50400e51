/* adhoc-mode.h - the ad-hoc network as the owner of an interface in IBSS
 * mode (kernel/mode.h). The manager hands it an interface whose type
 * became NL80211_IFTYPE_ADHOC; it holds an idle WifiAdhoc there until
 * asked to start, and the IBSS is left when the interface is taken back. */
#pragma once

#include "adhoc.h"
#include "mode.h"

G_BEGIN_DECLS

extern const WifiModeOps wifi_adhoc_mode_ops;

G_END_DECLS
