/* nl-test-util.h - nl80211 messages in unit tests: build one as the
 * plugin would send it, then read its attributes back. */
#pragma once

#include <netlink/genl/genl.h>

#include "nl80211.h"

/* A generic netlink message of cmd, as joind's builders receive it. */
struct nl_msg *wifi_test_msg_new(guint8 cmd);
/* Parses msg's attributes into tb (NL80211_ATTR_MAX + 1 entries); fails
 * the test when they do not parse. */
void wifi_test_msg_parse(struct nl_msg *msg, struct nlattr **tb);
