/* fuzz-ft-action.c - an action frame carrying an FT Request, Response,
 * Confirm or Ack (a transition over the DS), parsed down to its elements. */
#include <stdint.h>
#include <stdlib.h>

#include "action.h"
#include "ft-ie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	WifiActionFrame frame;
	WifiFtAction ft;
	WifiFtIes ies;

	if (!wifi_action_parse(data, size, &frame, &error)) {
		g_assert_nonnull(error);
		return 0;
	}
	if (!wifi_ft_action_parse(frame.body, frame.body_len, &ft, &error)) {
		g_assert_nonnull(error);
		return 0;
	}
	if (ft.ies < frame.body || ft.ies + ft.ies_len != frame.body + frame.body_len)
		abort();
	if (wifi_ft_ies_parse(ft.ies, ft.ies_len, 16, &ies, NULL) &&
	    (ies.fte == NULL || ies.mde == NULL))
		abort();
	return 0;
}
