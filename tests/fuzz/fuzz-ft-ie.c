/* fuzz-ft-ie.c - the elements of an FT authentication or reassociation
 * (Mobility Domain, Fast BSS Transition with its subelements), parsed with
 * both MIC lengths; a parsed FTE is built again and must parse to the same
 * values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ft-ie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(const guint8 *data, gsize size, gsize mic_len)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) built = NULL;
	WifiFtIes ft;
	WifiFte again;
	const guint8 *b;
	gsize n;

	if (!wifi_ft_ies_parse(data, size, mic_len, &ft, &error)) {
		g_assert_nonnull(error);
		return;
	}
	if (ft.fte < data || ft.fte + ft.fte_len > data + size || ft.mde_len != WIFI_MDE_LEN ||
	    ft.parsed.r0kh_id_len > WIFI_FTE_R0KH_ID_MAX ||
	    ft.parsed.gtk_wrapped_len > WIFI_FTE_WRAPPED_MAX)
		abort();
	built = wifi_fte_build(&ft.parsed);
	b = g_bytes_get_data(built, &n);
	if (n < 2 || b[1] != n - 2 || !wifi_fte_parse(b + 2, n - 2, mic_len, &again, NULL) ||
	    memcmp(&again, &ft.parsed, sizeof(again)) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(data, size, 16);
	check(data, size, 24);
	return 0;
}
