/* fuzz-ft-action.c - an action frame as the kernel passes it up, read the
 * way the connector reads an FT Response over the DS: the MAC header,
 * then the FT Request or Response body, then its elements as FT's (both
 * MIC lengths); what parses points inside the input. */
#include <stdint.h>
#include <stdlib.h>

#include "action.h"
#include "ft-action.h"
#include "ft-ie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_ies(const WifiFtAction *ft, const guint8 *end)
{
	g_autoptr(GError) error = NULL;
	WifiFtIes ies;

	for (gsize mic_len = 16; mic_len <= 24; mic_len += 8) {
		g_clear_error(&error);
		if (!wifi_ft_ies_parse(ft->ies, ft->ies_len, mic_len, &ies, &error)) {
			g_assert_nonnull(error);
			continue;
		}
		if (ies.fte < ft->ies || ies.fte + ies.fte_len > end)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	WifiActionFrame frame;
	WifiFtAction ft;

	if (!wifi_action_parse(data, size, &frame, &error))
		return 0;
	if (!wifi_ft_action_parse(frame.body, frame.body_len, &ft, &error)) {
		g_assert_nonnull(error);
		return 0;
	}
	if (ft.ies < frame.body || ft.ies + ft.ies_len != data + size ||
	    (ft.action == WIFI_FT_ACTION_REQUEST && ft.status != 0))
		abort();
	check_ies(&ft, data + size);
	return 0;
}
