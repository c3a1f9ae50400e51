/* owe-transition.c - OWE transition mode pairs (see owe-transition.h). */
#include "owe-transition.h"

#include <string.h>

gboolean
wifi_bss_offers_owe(const WifiBss *bss)
{
	return bss->ies.has_rsn && (bss->ies.rsn.akms & WIFI_AKM_OWE) != 0;
}

WifiBss *
wifi_owe_transition_find_open(GPtrArray *bsses, const WifiBss *owe_bss)
{
	gboolean hidden = wifi_bss_is_hidden(owe_bss);

	if (!wifi_bss_offers_owe(owe_bss))
		return NULL;
	for (guint i = 0; i < bsses->len; i++) {
		WifiBss *open = g_ptr_array_index(bsses, i);
		const WifiIes *ies = &open->ies;

		if (open->type != JOIND_NETWORK_TYPE_OPEN || wifi_bss_offers_owe(open) ||
		    !ies->has_owe_transition || wifi_bss_is_hidden(open) ||
		    memcmp(ies->owe_bssid, owe_bss->bssid, 6) != 0)
			continue;
		if (hidden || (ies->owe_ssid_len == owe_bss->ies.ssid_len &&
		               memcmp(ies->owe_ssid, owe_bss->ies.ssid, ies->owe_ssid_len) == 0))
			return open;
	}
	return NULL;
}

/* The OWE BSS the open BSS names, among bsses. */
static WifiBss *
find_owe(GPtrArray *bsses, const WifiBss *open)
{
	for (guint i = 0; i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (wifi_bss_offers_owe(bss) && memcmp(bss->bssid, open->ies.owe_bssid, 6) == 0)
			return bss;
	}
	return NULL;
}

/* owe_bss with the SSID open names for it. */
static WifiBss *
with_ssid(const WifiBss *owe_bss, const WifiBss *open)
{
	gsize len = 0;
	const guint8 *ies = g_bytes_get_data(owe_bss->ie_data, &len);
	WifiBss *copy = wifi_bss_new(owe_bss->bssid, owe_bss->freq, owe_bss->signal,
	                             owe_bss->capability, ies, len, NULL);

	if (copy == NULL)
		return NULL;
	copy->ies.has_ssid = TRUE;
	memcpy(copy->ies.ssid, open->ies.owe_ssid, open->ies.owe_ssid_len);
	copy->ies.ssid_len = open->ies.owe_ssid_len;
	return copy;
}

WifiBss *
wifi_owe_transition_target(GPtrArray *bsses, WifiBss *bss)
{
	WifiBss *open = NULL, *owe = bss, *copy;

	if (!wifi_bss_offers_owe(bss)) {
		owe = bss->ies.has_owe_transition ? find_owe(bsses, bss) : NULL;
		if (owe == NULL)
			return wifi_bss_ref(bss);
		open = bss;
	}
	if (!wifi_bss_is_hidden(owe))
		return wifi_bss_ref(owe);
	if (open == NULL)
		open = wifi_owe_transition_find_open(bsses, owe);
	copy = open != NULL ? with_ssid(owe, open) : NULL;
	return copy != NULL ? copy : wifi_bss_ref(bss);
}
