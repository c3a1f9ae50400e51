/* fuzz-ft-ie.c - the elements of an FT authentication or reassociation
 * (Mobility Domain, Fast BSS Transition with its subelements), parsed with
 * both MIC lengths; what parses points inside the input and within the
 * fields' bounds. */
#include <stdint.h>
#include <stdlib.h>

#include "ft-ie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const guint8 *data, gsize size, gsize mic_len)
{
	g_autoptr(GError) error = NULL;
	WifiFtIes ft;

	if (!wifi_ft_ies_parse(data, size, mic_len, &ft, &error)) {
		g_assert_nonnull(error);
		return;
	}
	if (ft.fte < data || ft.fte + ft.fte_len > data + size || ft.mde_len != WIFI_MDE_LEN ||
	    ft.parsed.r0kh_id_len > WIFI_FTE_R0KH_ID_MAX ||
	    ft.parsed.gtk_wrapped_len > WIFI_FTE_WRAPPED_MAX)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size, 16);
	check(data, size, 24);
	return 0;
}
