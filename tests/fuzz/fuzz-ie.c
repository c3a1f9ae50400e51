/* fuzz-ie.c - information element lists and single element bodies.
 *
 * The whole input is parsed as an element list, then handed to every
 * single-element parser as a body; invariants the station relies on are
 * checked after each success. */
#include <stdint.h>
#include <stdlib.h>

#include "ie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_list(const guint8 *data, gsize size)
{
	WifiIes ies;
	WifiIeIter iter;
	const guint8 *body;
	gsize len, total = 0;
	guint id;

	if (wifi_ies_parse(data, size, &ies, NULL)) {
		if (ies.ssid_len > 32 || ies.owe_ssid_len > 32 ||
		    ies.ext_caps_len > sizeof(ies.ext_caps))
			abort();
		/* A list that parses walks to its exact end. */
		wifi_ie_iter_init(&iter, data, size);
		while (wifi_ie_iter_next(&iter, &id, &body, &len, NULL)) {
			if (body < data || body + len > data + size)
				abort();
			total += len + (id >= 256 ? 3 : 2);
		}
		if (total != size)
			abort();
	}
}

static void
check_bodies(const guint8 *data, gsize size)
{
	WifiRsnInfo rsn;
	WifiIes ies = {0};
	guint32 bits;

	if (wifi_ie_parse_rsn(data, size, &rsn, NULL) && rsn.version != 1)
		abort();
	if (wifi_ie_parse_rsn(data, size, &rsn, NULL) && (rsn.capabilities & WIFI_RSN_CAP_MFPR) &&
	    !(rsn.capabilities & WIFI_RSN_CAP_MFPC))
		abort();
	wifi_ie_parse_wpa(data, size, &rsn, NULL);
	wifi_ie_parse_rsnx(data, size, &bits, NULL);
	wifi_ie_parse_rates(data, size, &ies, NULL);
	wifi_ie_parse_ht(data, size, &ies, NULL);
	wifi_ie_parse_ht_op(data, size, &ies, NULL);
	wifi_ie_parse_vht(data, size, &ies, NULL);
	wifi_ie_parse_vht_op(data, size, &ies, NULL);
	wifi_ie_parse_he(data, size, &ies, NULL);
	wifi_ie_parse_he_op(data, size, &ies, NULL);
	wifi_ie_parse_bss_load(data, size, &ies, NULL);
	wifi_ie_parse_mde(data, size, &ies, NULL);
	wifi_ie_parse_rm(data, size, &ies, NULL);
	wifi_ie_parse_ext_caps(data, size, &ies, NULL);
	if (wifi_ie_parse_owe_transition(data, size, &ies, NULL) && ies.owe_ssid_len > 32)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Copy so that a read past the end hits ASan's redzone. */
	g_autofree guint8 *copy = g_memdup2(data, size);

	check_list(copy, size);
	check_bodies(copy, size);
	return 0;
}
