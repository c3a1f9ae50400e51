/* fuzz-mgmt.c - deauthentication / disassociation frame parsing. */
#include <stddef.h>
#include <stdint.h>

#include "mgmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	WifiMgmtLeave leave;

	if (wifi_mgmt_parse_leave(data, size, &leave, &error))
		g_assert_no_error(error);
	else
		g_assert_nonnull(error);
	return 0;
}
