/* ap-channel.c - the channel an access point takes (see ap-channel.h). */
#include "ap-channel.h"

#include "bss.h"

#define STRONG_SIGNAL (-7000) /* 100 * dBm */

guint32
wifi_ap_channel_freq(const WifiWiphy *wiphy, guint channel, const gchar **why)
{
	guint32 freq = channel == 14 ? 2484 : 2407 + 5 * channel;

	*why = NULL;
	if (channel < 1 || channel > 14)
		return 0;
	for (guint i = 0; wiphy->channels != NULL && i < wiphy->channels->len; i++) {
		const WifiChannel *c = &g_array_index(wiphy->channels, WifiChannel, i);

		if (c->freq != freq)
			continue;
		if (c->disabled)
			*why = "disabled";
		else if (c->no_ir || c->radar)
			*why = "passive only";
		return *why == NULL ? freq : 0;
	}
	return 0;
}

/* How much a BSS on channel other weighs on channel mine. */
static guint
weight(guint mine, guint other, gint signal)
{
	guint distance = mine > other ? mine - other : other - mine;

	if (distance > 4)
		return 0;
	return (5 - distance) * (signal >= STRONG_SIGNAL ? 2 : 1);
}

guint
wifi_ap_choose_channel(const GPtrArray *bsses, const WifiWiphy *wiphy)
{
	static const guint candidates[] = {1, 6, 11};
	guint best = 0, best_load = G_MAXUINT;

	for (guint i = 0; i < G_N_ELEMENTS(candidates); i++) {
		const gchar *why;
		guint load = 0;

		if (wifi_ap_channel_freq(wiphy, candidates[i], &why) == 0)
			continue;
		for (guint j = 0; bsses != NULL && j < bsses->len; j++) {
			const WifiBss *bss = g_ptr_array_index(bsses, j);
			guint other = wifi_freq_to_channel(bss->freq);

			if (wifi_freq_to_band(bss->freq) == NL80211_BAND_2GHZ)
				load += weight(candidates[i], other, bss->signal);
		}
		if (load < best_load) {
			best = candidates[i];
			best_load = load;
		}
	}
	return best;
}
