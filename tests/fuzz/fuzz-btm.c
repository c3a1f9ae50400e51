/* fuzz-btm.c - 802.11v: an action frame carrying a BSS Transition
 * Management Request, parsed, and the response it would be answered with. */
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "btm.h"
#include "neighbor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_auto(WifiBtmRequest) req = {0};
	g_autoptr(GBytes) resp = NULL;
	WifiActionFrame frame;

	if (!wifi_action_parse(data, size, &frame, &error)) {
		g_assert_nonnull(error);
		return 0;
	}
	if (!wifi_btm_request_parse(frame.body, frame.body_len, &req, &error)) {
		g_assert_nonnull(error);
		g_assert_null(req.candidates);
		return 0;
	}
	g_assert_nonnull(req.candidates);
	g_assert_true(req.url == NULL || (req.mode & WIFI_BTM_MODE_ESS_DISASSOC));
	resp = wifi_btm_response_build(
	        req.token,
	        req.candidates->len > 0 ? WIFI_BTM_ACCEPT : WIFI_BTM_REJECT_NO_CANDIDATES, 0,
	        req.candidates->len > 0 ? g_array_index(req.candidates, WifiNeighbor, 0).bssid
	                                : NULL);
	g_assert_cmpuint(g_bytes_get_size(resp), ==, req.candidates->len > 0 ? 11 : 5);
	return 0;
}
