/* test-scan.c - the scanner's state machine driven through a fake nl80211. */
#include <errno.h>

#include "fake-nl.h"
#include "joind.h"
#include "scan.h"

typedef struct {
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	WifiScanner *scanner;
	guint n_results;
	guint n_bsses;
	gboolean scanning;
	guint n_done;
	GError *error;
} Fixture;

static void
on_results(GPtrArray *bsses, const GArray *freqs, gboolean authoritative, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_results++;
	f->n_bsses = bsses->len;
}

static void
on_scanning(gboolean scanning, gpointer user_data)
{
	((Fixture *)user_data)->scanning = scanning;
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);

	wiphy->max_scan_ssids = 4;
	f->nl = fake_nl_new(&f->fake);
	f->iface = wifi_iface_new(f->nl, NULL, wiphy, 7, "wlan0");
	f->scanner = wifi_scanner_new(f->iface, on_results, on_scanning, f);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	wifi_scanner_free(f->scanner);
	wifi_iface_unref(f->iface);
	wifi_nl_free(f->nl);
	g_clear_error(&f->error);
}

static void
scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_done++;
	g_clear_error(&f->error);
	wifi_scanner_scan_finish(NULL, result, &f->error);
}

static void
scanner_event(Fixture *f, guint8 cmd)
{
	struct nl_msg *msg = wifi_test_msg_new(cmd);
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, 7);
	wifi_test_msg_parse(msg, attrs);
	wifi_scanner_handle_event(f->scanner, cmd, attrs);
	nlmsg_free(msg);
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

/* A request triggers a scan; its results are dumped after NEW_SCAN_RESULTS
 * and the caller completes after the results callback. */
static void
test_scan_one(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;

	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "test", NULL, scan_done, f);
	req = fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, 7);
	g_assert_true(f->scanning);
	fake_nl_done(f->fake, req, 0);
	scanner_event(f, NL80211_CMD_NEW_SCAN_RESULTS);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN);
	fake_nl_done(f->fake, req, 0);
	iterate();
	g_assert_cmpuint(f->n_results, ==, 1);
	g_assert_cmpuint(f->n_bsses, ==, 0);
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_no_error(f->error);
	g_assert_false(f->scanning);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/scan/one", Fixture, NULL, fixture_set_up, test_scan_one, fixture_tear_down);
	return g_test_run();
}
