/* autoconnect-known.c - the known networks, as autoconnect sees them (see
 * autoconnect-known.h). */
#include "autoconnect-known.h"

gboolean
wifi_known_autoconnects(JoindProfile *profile)
{
	if (profile == NULL || !joind_profile_get_boolean(profile, "Settings", "AutoConnect", TRUE))
		return FALSE;
	if (joind_profile_get_profile_type(profile) == JOIND_PROFILE_TYPE_PSK)
		return joind_profile_has_key(profile, "Security", "PreSharedKey") ||
		       joind_profile_has_key(profile, "Security", "Passphrase");
	return TRUE;
}

/* Inserts the frequencies of one profile into lists, kept in the order of
 * order (last connected, newest first). */
static void
add_known_freqs(JoindCore *core, JoindProfile *profile, GPtrArray *lists, GArray *order)
{
	JoindProfileType type = joind_profile_get_profile_type(profile);
	GBytes *ssid = joind_profile_get_ssid(profile);
	gsize len = 0;
	const guint8 *data = g_bytes_get_data(ssid, &len);
	gint64 last = joind_core_get_last_connected(core, data, len, type);
	guint at = 0;

	while (at < order->len && g_array_index(order, gint64, at) >= last)
		at++;
	g_array_insert_val(order, at, last);
	g_ptr_array_insert(lists, (gint)at,
	                   joind_core_get_known_frequencies(core, data, len, type));
}

GArray *
wifi_known_quick_freqs(JoindCore *core)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_PSK, JOIND_PROFILE_TYPE_OPEN,
	                                         JOIND_PROFILE_TYPE_8021X};
	g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	g_autoptr(GArray) order = g_array_new(FALSE, FALSE, sizeof(gint64));

	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(core, types[t]);

		for (guint i = 0; profiles != NULL && i < profiles->len; i++) {
			JoindProfile *p = g_ptr_array_index(profiles, i);

			if (joind_profile_get_ssid(p) != NULL && wifi_known_autoconnects(p))
				add_known_freqs(core, p, lists, order);
		}
	}
	return wifi_autoconnect_quick_freqs(lists, JOIND_KNOWN_MAX_FREQUENCIES);
}

void
wifi_known_note_seen(JoindCore *core, GPtrArray *networks)
{
	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *n = g_ptr_array_index(networks, i);
		GPtrArray *bsses = wifi_network_get_bsses(WIFI_NETWORK(n));
		JoindProfileType type;
		gsize len = 0;
		const guint8 *ssid;

		if (joind_network_get_profile(n) == NULL ||
		    !joind_network_type_to_profile_type(joind_network_get_network_type(n), &type))
			continue;
		ssid = g_bytes_get_data(joind_network_get_ssid(n), &len);
		for (guint j = 0; j < bsses->len; j++) {
			WifiBss *bss = g_ptr_array_index(bsses, j);

			if (bss->misses == 0)
				joind_core_note_seen(core, ssid, len, type, bss->freq);
		}
	}
}

GArray *
wifi_known_candidates(GPtrArray *networks, WifiAutoRetry *retry)
{
	GArray *out = g_array_new(FALSE, TRUE, sizeof(WifiAutoCandidate));

	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *n = g_ptr_array_index(networks, i);
		JoindProfile *profile = joind_network_get_profile(n);
		g_autofree gchar *key = wifi_known_network_key(n);
		WifiAutoCandidate c = {
		        .network = n,
		        .rank = wifi_network_get_rank(WIFI_NETWORK(n)),
		        .known = profile != NULL,
		        .autoconnect = wifi_known_autoconnects(profile),
		        .blocked = key == NULL ||
		                   wifi_auto_retry_is_blocked(retry, key, g_get_monotonic_time()),
		        .bsses = wifi_network_get_bsses(WIFI_NETWORK(n)),
		};

		g_array_append_val(out, c);
	}
	return out;
}
