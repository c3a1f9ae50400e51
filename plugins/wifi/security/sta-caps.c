/* sta-caps.c - the station's capability elements of an association
 * request (see sta-caps.h). */
#include "sta-caps.h"

#include <string.h>

#include "ie.h"

static void
plan_ext_caps(const WifiWiphy *wiphy, WifiStaCaps *caps)
{
	guint8 *body = caps->ext + 2;
	gsize len = WIFI_EXT_CAP_BSS_TRANSITION / 8 + 1;

	if (wiphy != NULL && wiphy->ext_capa_len > 0) {
		memcpy(body, wiphy->ext_capa, wiphy->ext_capa_len);
		len = MAX(len, wiphy->ext_capa_len);
	}
	body[WIFI_EXT_CAP_BSS_TRANSITION / 8] |= 1u << (WIFI_EXT_CAP_BSS_TRANSITION % 8);
	caps->ext[0] = WIFI_IE_EXTENDED_CAPABILITIES;
	caps->ext[1] = (guint8)len;
	caps->ext_len = 2 + len;
}

void
wifi_sta_caps_plan(const WifiWiphy *wiphy, const WifiBss *bss, WifiStaCaps *caps)
{
	memset(caps, 0, sizeof(*caps));
	plan_ext_caps(wiphy, caps);
	/* Radio measurement is agreed in the association (the capability
	 * bit mac80211 sets for USE_RRM, and this element): only with an
	 * access point that offers it. Of its measurements joind answers
	 * none; it asks for neighbour reports (the roamer). */
	if (wiphy == NULL || !wifi_wiphy_can_rrm(wiphy) || bss == NULL || !bss->ies.has_rm)
		return;
	caps->rm[0] = WIFI_IE_RM_ENABLED_CAPABILITIES;
	caps->rm[1] = 5;
	caps->rm[2] = WIFI_RM_NEIGHBOR_REPORT;
	caps->rm_len = sizeof(caps->rm);
	caps->use_rrm = TRUE;
}
