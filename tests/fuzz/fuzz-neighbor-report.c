/* fuzz-neighbor-report.c - 802.11k: an action frame carrying a Neighbor
 * Report Response, and the same octets as a bare element list. */
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "neighbor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_neighbors(GArray *neighbors)
{
	for (guint i = 0; i < neighbors->len; i++) {
		const WifiNeighbor *n = &g_array_index(neighbors, WifiNeighbor, i);

		g_assert_cmpuint(n->freq, ==,
		                 wifi_op_class_channel_to_freq(n->op_class, n->channel));
		g_assert_true(n->has_preference || n->preference == 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) list_error = NULL;
	g_autoptr(GArray) neighbors = NULL;
	g_autoptr(GArray) list = NULL;
	WifiActionFrame frame;
	guint8 token;

	if (wifi_action_parse(data, size, &frame, &error)) {
		if (wifi_neighbor_response_parse(frame.body, frame.body_len, &token, &neighbors,
		                                 &error))
			check_neighbors(neighbors);
		else
			g_assert_nonnull(error);
	} else {
		g_assert_nonnull(error);
	}
	list = wifi_neighbor_list_parse(data, size, &list_error);
	if (list != NULL)
		check_neighbors(list);
	else
		g_assert_nonnull(list_error);
	return 0;
}
