/* test-nl80211.c - the rooms' side of nl80211 over a fake carrier:
 * replies and completion reach the request's callbacks, a cancelled
 * request calls nothing but its destroy, and a request the carrier never
 * answers ends with -ETIMEDOUT. */
#include <errno.h>

#include "fake-nl.h"

typedef struct {
	guint n_replies;
	guint n_done;
	gint error;
	guint n_destroyed;
} Outcome;

static void
on_reply(struct nlattr **attrs, gpointer user_data)
{
	((Outcome *)user_data)->n_replies++;
}

static void
on_done(int error, gpointer user_data)
{
	Outcome *o = user_data;

	o->n_done++;
	o->error = error;
}

static void
on_destroy(gpointer user_data)
{
	((Outcome *)user_data)->n_destroyed++;
}

static guint
send_get(WifiNl *nl, Outcome *o)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_GET_INTERFACE, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, 3);
	return wifi_nl_send(nl, msg, on_reply, on_done, o, on_destroy);
}

static void
test_reply_and_done(void)
{
	FakeNl *fake;
	g_autoptr(WifiNl) nl = fake_nl_new(&fake);
	Outcome o = {0};
	FakeNlRequest *req;

	g_assert_cmpuint(send_get(nl, &o), >, 0);
	req = fake_nl_expect(fake, NL80211_CMD_GET_INTERFACE);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, 3);
	fake_nl_reply(fake, req, wifi_test_msg_new(NL80211_CMD_NEW_INTERFACE));
	fake_nl_reply(fake, req, wifi_test_msg_new(NL80211_CMD_NEW_INTERFACE));
	fake_nl_done(fake, req, -EINVAL);
	g_assert_cmpuint(o.n_replies, ==, 2);
	g_assert_cmpuint(o.n_done, ==, 1);
	g_assert_cmpint(o.error, ==, -EINVAL);
	g_assert_cmpuint(o.n_destroyed, ==, 1);
}

static void
test_cancel(void)
{
	FakeNl *fake;
	g_autoptr(WifiNl) nl = fake_nl_new(&fake);
	Outcome o = {0};

	wifi_nl_cancel(nl, send_get(nl, &o));
	g_assert_cmpuint(fake_nl_n_pending(fake), ==, 0);
	g_assert_cmpuint(o.n_done, ==, 0);
	g_assert_cmpuint(o.n_destroyed, ==, 1);
	/* Unknown and zero ids are no-ops. */
	wifi_nl_cancel(nl, 0);
	wifi_nl_cancel(nl, 4242);
}

static void
test_timeout(void)
{
	FakeNl *fake;
	g_autoptr(WifiNl) nl = fake_nl_new(&fake);
	Outcome o = {0};

	g_test_expect_message("joind-wifi", G_LOG_LEVEL_WARNING, "*got no answer*");
	send_get(nl, &o);
	while (o.n_done == 0)
		g_main_context_iteration(NULL, TRUE);
	g_test_assert_expected_messages();
	g_assert_cmpint(o.error, ==, -ETIMEDOUT);
	g_assert_cmpuint(o.n_destroyed, ==, 1);
	/* The carrier forgot it too: a late answer cannot reach it. */
	g_assert_cmpuint(fake_nl_n_pending(fake), ==, 0);
}

static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	*(guint8 *)user_data = cmd;
}

static void
test_events(void)
{
	FakeNl *fake;
	g_autoptr(WifiNl) nl = fake_nl_new(&fake);
	guint8 seen = 0;

	wifi_nl_add_listener(nl, on_event, &seen);
	fake_nl_event(nl, wifi_test_msg_new(NL80211_CMD_NEW_SCAN_RESULTS));
	g_assert_cmpuint(seen, ==, NL80211_CMD_NEW_SCAN_RESULTS);
	g_assert_cmpstr(wifi_nl_cmd_name(NL80211_CMD_NEW_SCAN_RESULTS), ==, "NEW_SCAN_RESULTS");
	g_assert_cmpstr(wifi_nl_cmd_name(NL80211_CMD_GET_MPATH), ==, "other");
}

static void
on_resync(gpointer user_data)
{
	(*(guint *)user_data)++;
}

static void
test_events_lost(void)
{
	FakeNl *fake;
	g_autoptr(WifiNl) nl = fake_nl_new(&fake);
	guint n = 0;

	wifi_nl_add_resync_listener(nl, on_resync, &n);
	wifi_nl_add_resync_listener(nl, on_resync, &n);
	g_assert_cmpuint(wifi_nl_get_n_overruns(nl), ==, 0);
	wifi_nl_events_lost(nl, "event");
	g_assert_cmpuint(n, ==, 2);
	g_assert_cmpuint(wifi_nl_get_n_overruns(nl), ==, 1);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/nl80211/reply-and-done", test_reply_and_done);
	g_test_add_func("/nl80211/cancel", test_cancel);
	g_test_add_func("/nl80211/timeout", test_timeout);
	g_test_add_func("/nl80211/events", test_events);
	g_test_add_func("/nl80211/events-lost", test_events_lost);
	return g_test_run();
}
