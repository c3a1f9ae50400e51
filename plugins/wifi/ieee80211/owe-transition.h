/* owe-transition.h - OWE transition mode: an open BSS whose OWE Transition
 * Mode element (vendor 50-6F-9A type 28) names an OWE BSS (its BSSID and
 * SSID, often hidden) on the same access point. joind shows the pair as one
 * open network and joins its OWE side.
 */
#pragma once

#include "bss.h"

G_BEGIN_DECLS

/* Whether bss offers OWE (AKM 00-0F-AC:18 in its RSNE). */
gboolean wifi_bss_offers_owe(const WifiBss *bss);

/* The open BSS among bsses (WifiBss) whose element names owe_bss: by
 * BSSID, and by SSID unless owe_bss hides its own; NULL for none or when
 * owe_bss offers no OWE. */
WifiBss *wifi_owe_transition_find_open(GPtrArray *bsses, const WifiBss *owe_bss);

/* The BSS an open network's Connect() joins, given the network's BSSes and
 * the one chosen: an open BSS in transition mode gives way to the OWE BSS
 * it names, when that was seen; an OWE BSS that hides its SSID comes back
 * as a copy carrying the SSID the open BSS names (the commands need it).
 * A new reference. */
WifiBss *wifi_owe_transition_target(GPtrArray *bsses, WifiBss *bss);

G_END_DECLS
