/* nl-test-util.c - nl80211 messages in unit tests (see nl-test-util.h). */
#include "nl-test-util.h"

#include <glib.h>

/* Any family id will do: only the payload is read back. */
#define TEST_FAMILY 0x20

struct nl_msg *
wifi_test_msg_new(guint8 cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	g_assert_nonnull(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, TEST_FAMILY, 0, 0, cmd, 0));
	return msg;
}

void
wifi_test_msg_parse(struct nl_msg *msg, struct nlattr **tb)
{
	g_assert_cmpint(genlmsg_parse(nlmsg_hdr(msg), 0, tb, NL80211_ATTR_MAX, NULL), ==, 0);
}
