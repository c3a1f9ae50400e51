/* ap-channel.h - which 2.4 GHz channel an access point takes when its
 * configuration names none: the least used of 1, 6 and 11 (the three that
 * do not overlap), from a scan of the surroundings. */
#pragma once

#include <glib.h>

#include "wiphy.h"

G_BEGIN_DECLS

/* bsses: WifiBss seen by the scan. A BSS counts against each of 1, 6, 11
 * whose 22 MHz it overlaps (within four channels), weighted by how close
 * it is and how loud (stronger than -70 dBm counts twice); channels the
 * radio or its regulatory domain forbids are skipped. Ties go to the
 * lowest channel. 0 when none of the three is allowed. */
guint wifi_ap_choose_channel(const GPtrArray *bsses, const WifiWiphy *wiphy);
/* The channel's frequency, if the radio may start a BSS there; else 0
 * and why ("disabled", "passive only", NULL: the radio lacks it). */
guint32 wifi_ap_channel_freq(const WifiWiphy *wiphy, guint channel, const gchar **why);

G_END_DECLS
