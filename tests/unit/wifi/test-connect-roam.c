/* test-connect-roam.c - the connector's roam (connect-roam.c) on joind's
 * SME: from a connected link to the network's second access point as a
 * reassociation (CMD_ASSOCIATE naming the BSS left), mac80211's local
 * teardown of the old link on the way taken for no loss, the network
 * connected and Station1's ConnectedNetwork the same throughout; a
 * refused move goes on to the roamer's next BSS, or fails like an
 * attempt when there is none; what a roam may not start from. */
#include <errno.h>

#include "connect-fixture.h"
#include "fake-link.h"
#include "neigh-evict.h"

static WifiBss *
second_bss(WifiNetwork *network)
{
	return g_ptr_array_index(wifi_network_get_bsses(network), 1);
}

/* Every Station1.State the station takes, as letters (d, c, C, D, r). */
static void
on_state(JoindStation *station, GParamSpec *pspec, GString *states)
{
	g_string_append_c(states, "dcCDr"[joind_station_get_state(station)]);
}

static void
test_roam_open(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	g_autoptr(GString) states = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	FakeNlRequest *req;

	join_open(f, network, TRUE);
	assert_connected(f, network);
	g_signal_connect(f->station, "notify::state", G_CALLBACK(on_state), states);
	g_assert_true(wifi_connector_roam(f->connector, second_bss(network), &error));
	g_assert_no_error(error);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_local_teardown(f);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	/* A reassociation request: it names the access point left. */
	req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	g_assert_nonnull(req->attrs[NL80211_ATTR_PREV_BSSID]);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_PREV_BSSID]), 6, ap_addr, 6);
	g_assert_true(network_connected(network));
	ack(f, NL80211_CMD_ASSOCIATE, ap2_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 0);
	g_assert_cmpstr(f->events->str, ==, "CC");
	g_assert_cmpmem(wifi_connector_get_connected_bss(f->connector)->bssid, 6, ap2_addr, 6);
	g_assert_true(joind_station_get_connected_network(f->station) == JOIND_NETWORK(network));
	g_assert_true(network_connected(network));
	/* The connector never said anything but connected (the roamer's
	 * "roaming" is the station's, not the connector's). */
	g_assert_cmpstr(states->str, ==, "");
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	g_signal_handlers_disconnect_by_data(f->station, states);
}

/* The interface is "dormant" from the start of the move and "up" again
 * once the new BSS is joined: the kernel itself makes the link dormant
 * when it associates anew, and an operational state left as it was
 * would keep it so (networkd then drops the addresses). Meanwhile the
 * kernel keeps its neighbours over the carrier loss, and evicts them
 * again afterwards (only the settings the roam changed). */
static void
test_roam_oper_state(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	g_autoptr(WifiLink) link = NULL;
	g_autoptr(GError) error = NULL;
	FakeLink *fake;

	link = fake_link_new(&fake);
	f->iface->link = link;
	join_open(f, network, TRUE);
	assert_connected(f, network);
	g_assert_cmpint(fake->oper_up, ==, 1);
	g_assert_cmpint(fake->neigh_evict, ==, -1);
	g_assert_true(wifi_connector_roam(f->connector, second_bss(network), &error));
	g_assert_no_error(error);
	g_assert_cmpint(fake->oper_up, ==, 0);
	g_assert_cmpint(fake->neigh_evict, ==, 0);
	g_assert_cmpuint(fake->neigh_which, ==, WIFI_NEIGH_EVICT_ALL);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_local_teardown(f);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	ack(f, NL80211_CMD_ASSOCIATE, ap2_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	g_assert_cmpint(fake->oper_up, ==, 1);
	g_assert_cmpint(fake->neigh_evict, ==, 1);
	g_assert_cmpuint(fake->neigh_which, ==, WIFI_NEIGH_EVICT_ALL);
	f->iface->link = NULL;
}

/* A target that refuses: the observers hear it, the link is gone. */
static void
test_roam_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	g_autoptr(GError) error = NULL;

	join_open(f, network, TRUE);
	g_assert_true(wifi_connector_roam(f->connector, second_bss(network), &error));
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_local_teardown(f);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	ack(f, NL80211_CMD_ASSOCIATE, ap2_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 17);
	g_assert_cmpstr(f->events->str, ==, "CR");
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_null(joind_station_get_connected_network(f->station));
	g_assert_false(network_connected(network));
}

/* What the fake roamer answers a failed move with: the BSS of the
 * network that the test names (NULL: none), once; the status heard. */
typedef struct {
	WifiBss *next;
	guint calls;
	guint16 status;
} RoamNext;

static WifiBss *
roam_next(guint16 status, gpointer user_data)
{
	RoamNext *rn = user_data;

	rn->calls++;
	rn->status = status;
	return g_steal_pointer(&rn->next);
}

/* A target that refuses, with another BSS to go to: the connector moves
 * there at once (a reassociation still naming the BSS first left); the
 * observers hear only the link up at the end, the network never stops
 * being connected. */
static void
test_roam_refused_next(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	WifiBss *first = g_ptr_array_index(wifi_network_get_bsses(network), 0);
	g_autoptr(GError) error = NULL;
	RoamNext rn = {0};
	FakeNlRequest *req;

	join_open(f, network, TRUE);
	wifi_connector_set_roam_next(f->connector, roam_next, &rn);
	g_assert_true(wifi_connector_roam(f->connector, second_bss(network), &error));
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_local_teardown(f);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	ack(f, NL80211_CMD_ASSOCIATE, ap2_addr);
	/* The roamer's next: here the first BSS, the only other one. */
	rn.next = wifi_bss_ref(first);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 17);
	g_assert_cmpuint(rn.calls, ==, 1);
	g_assert_cmpuint(rn.status, ==, 17);
	g_assert_cmpstr(f->events->str, ==, "C");
	g_assert_true(network_connected(network));
	g_assert_true(joind_station_get_connected_network(f->station) == JOIND_NETWORK(network));
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_PREV_BSSID]), 6, ap_addr, 6);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_assert_cmpstr(f->events->str, ==, "CC");
	g_assert_cmpmem(wifi_connector_get_connected_bss(f->connector)->bssid, 6, ap_addr, 6);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	wifi_connector_set_roam_next(f->connector, NULL, NULL);
}

/* The roamer has nothing left: the move fails as before, the link lost. */
static void
test_roam_refused_none(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	g_autoptr(GError) error = NULL;
	RoamNext rn = {0};

	join_open(f, network, TRUE);
	wifi_connector_set_roam_next(f->connector, roam_next, &rn);
	g_assert_true(wifi_connector_roam(f->connector, second_bss(network), &error));
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_local_teardown(f);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	ack(f, NL80211_CMD_ASSOCIATE, ap2_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 17);
	g_assert_cmpuint(rn.calls, ==, 1);
	g_assert_cmpstr(f->events->str, ==, "CR");
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_false(network_connected(network));
	wifi_connector_set_roam_next(f->connector, NULL, NULL);
}

/* The kernel has forgotten the target (-ENOENT): no CMD_CONNECT, which
 * cannot reassociate, but the roamer's next BSS. */
static void
test_roam_target_unknown(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	WifiBss *first = g_ptr_array_index(wifi_network_get_bsses(network), 0);
	g_autoptr(GError) error = NULL;
	RoamNext rn = {.next = wifi_bss_ref(first)};
	FakeNlRequest *req;

	join_open(f, network, TRUE);
	wifi_connector_set_roam_next(f->connector, roam_next, &rn);
	g_assert_true(wifi_connector_roam(f->connector, second_bss(network), &error));
	req = fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE);
	fake_nl_done(f->fake, req, -ENOENT);
	iterate();
	g_assert_cmpuint(rn.calls, ==, 1);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_CONNECT));
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	g_assert_cmpstr(f->events->str, ==, "C");
	g_assert_true(network_connected(network));
	wifi_connector_set_roam_next(f->connector, NULL, NULL);
}

static void
test_roam_refused_at_once(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	WifiBss *first = g_ptr_array_index(wifi_network_get_bsses(network), 0);
	GError *error = NULL;

	g_assert_false(wifi_connector_roam(f->connector, second_bss(network), &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_clear_error(&error);
	join_open(f, network, TRUE);
	g_assert_false(wifi_connector_roam(f->connector, first, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	assert_connected(f, network);
}

/* The kernel's SME cannot reassociate to a BSS of our choosing. */
static void
test_roam_kernel_sme(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network2(f, "campus", NULL, NULL, NULL);
	GError *error = NULL;

	join_open(f, network, FALSE);
	g_assert_false(wifi_connector_roam(f->connector, second_bss(network), &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_clear_error(&error);
	assert_connected(f, network);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	CONNECT_TEST_ADD("/wifi/connect/roam/open", &sme, test_roam_open);
	CONNECT_TEST_ADD("/wifi/connect/roam/oper-state", &sme, test_roam_oper_state);
	CONNECT_TEST_ADD("/wifi/connect/roam/refused", &sme, test_roam_refused);
	CONNECT_TEST_ADD("/wifi/connect/roam/refused-next", &sme, test_roam_refused_next);
	CONNECT_TEST_ADD("/wifi/connect/roam/refused-none", &sme, test_roam_refused_none);
	CONNECT_TEST_ADD("/wifi/connect/roam/target-unknown", &sme, test_roam_target_unknown);
	CONNECT_TEST_ADD("/wifi/connect/roam/refused-at-once", &sme, test_roam_refused_at_once);
	CONNECT_TEST_ADD("/wifi/connect/roam/kernel-sme", &kernel_sme, test_roam_kernel_sme);
	return g_test_run();
}
