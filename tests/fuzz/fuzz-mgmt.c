/* fuzz-mgmt.c - management frame parsing: deauthentication /
 * disassociation, and authentication / association responses. */
#include <stddef.h>
#include <stdint.h>

#include "mgmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) answer_error = NULL;
	WifiMgmtLeave leave;
	WifiMgmtAnswer answer;

	if (wifi_mgmt_parse_leave(data, size, &leave, &error))
		g_assert_no_error(error);
	else
		g_assert_nonnull(error);
	if (wifi_mgmt_parse_answer(data, size, &answer, &answer_error))
		g_assert_cmpuint(answer.aid, <=, 0x3fff);
	else
		g_assert_nonnull(answer_error);
	return 0;
}
