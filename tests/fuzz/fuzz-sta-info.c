/* fuzz-sta-info.c - NL80211_ATTR_STA_INFO payloads (GET_STATION replies).
 *
 * A failure must say why (an error, no facts half-filled into a crash);
 * a success must give facts within the types' ranges. */
#include <stdint.h>
#include <stdlib.h>

#include "sta-info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	WifiStaInfo info;
	GError *error = NULL;

	if (wifi_sta_info_parse(data, size, &info, &error)) {
		if (error != NULL)
			abort();
		if (info.has_signal && (info.signal_dbm < -128 || info.signal_dbm > 127))
			abort();
		if (info.has_signal_avg &&
		    (info.signal_avg_dbm < -128 || info.signal_avg_dbm > 127))
			abort();
	} else {
		if (error == NULL || error->domain != WIFI_STA_INFO_ERROR)
			abort();
		g_error_free(error);
	}
	return 0;
}
