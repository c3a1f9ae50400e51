/* test-roam.c - the roamer's state machine through fake-nl (its SET_CQM,
 * REGISTER_FRAME and FRAME requests read back; CQM and FRAME events
 * injected) and a fake connector (the WifiRoamerOps table below, which
 * records scans and moves and answers when the test says). */
#include <string.h>

#include "fake-nl.h"
#include "joind-error.h"
#include "action.h"
#include "btm.h"
#include "neighbor.h"
#include "roam-history.h"
#include "roam.h"

#define IFINDEX 3

static const guint8 own[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x99};

typedef struct {
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	WifiRoamer *roamer;
	WifiBss *current;
	GPtrArray *table; /* WifiBss of the network, the current one first */
	GBytes *ssid;
	guint n_scans;
	GArray *last_scan; /* the last scan's freqs (NULL: all) */
	gboolean last_scan_all;
	WifiBss *moved_to;
	guint n_moves;
	gboolean roaming;
	guint n_roaming_changes;
} Fixture;

static WifiBss *
op_current_bss(gpointer user_data)
{
	return ((Fixture *)user_data)->current;
}

static GBytes *
op_current_ssid(gpointer user_data)
{
	return ((Fixture *)user_data)->ssid;
}

static const guint8 *
op_own_address(gpointer user_data)
{
	return own;
}

static GPtrArray *
op_network_bsses(gpointer user_data)
{
	GPtrArray *table = ((Fixture *)user_data)->table;
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);

	for (guint i = 0; i < table->len; i++)
		g_ptr_array_add(out, wifi_bss_ref(g_ptr_array_index(table, i)));
	return out;
}

static GArray *
op_known_freqs(gpointer user_data)
{
	GArray *freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
	guint32 f[] = {2412, 2437};

	g_array_append_vals(freqs, f, G_N_ELEMENTS(f));
	return freqs;
}

static void
op_scan(GArray *freqs, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_scans++;
	g_clear_pointer(&f->last_scan, g_array_unref);
	f->last_scan = freqs != NULL ? g_array_ref(freqs) : NULL;
	f->last_scan_all = freqs == NULL;
}

static void
op_move(WifiBss *bss, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_moves++;
	g_clear_pointer(&f->moved_to, wifi_bss_unref);
	f->moved_to = wifi_bss_ref(bss);
}

static void
op_roaming_changed(gboolean roaming, gpointer user_data)
{
	Fixture *f = user_data;

	f->roaming = roaming;
	f->n_roaming_changes++;
}

static const WifiRoamerOps fake_connector = {
        .current_bss = op_current_bss,
        .current_ssid = op_current_ssid,
        .own_address = op_own_address,
        .network_bsses = op_network_bsses,
        .known_freqs = op_known_freqs,
        .scan = op_scan,
        .move = op_move,
        .roaming_changed = op_roaming_changed,
};

/* A BSS of "home"; rm: it offers neighbour reports. */
static WifiBss *
make_bss(guint8 last, guint32 freq, gint signal, gboolean rm)
{
	guint8 ies[] = {0, 4, 'h', 'o', 'm', 'e', 70, 5, 0x02, 0, 0, 0, 0};
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, last, 0x00};
	g_autoptr(GError) error = NULL;
	WifiBss *bss = wifi_bss_new(bssid, freq, signal, WIFI_CAPABILITY_ESS, ies,
	                            rm ? sizeof(ies) : 6, &error);

	g_assert_no_error(error);
	return bss;
}

static void
setup_with(Fixture *f, gboolean rm, gboolean cqm_list, guint retry_s)
{
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	WifiRoamSettings settings = {-70, -76, retry_s};

	if (cqm_list)
		wiphy->ext_features[NL80211_EXT_FEATURE_CQM_RSSI_LIST / 8] |=
		        1u << (NL80211_EXT_FEATURE_CQM_RSSI_LIST % 8);
	f->nl = fake_nl_new(&f->fake);
	f->iface = wifi_iface_new(f->nl, NULL, wiphy, IFINDEX, "wlan0");
	f->current = make_bss(1, 2412, -6000, rm);
	f->table = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_ptr_array_add(f->table, wifi_bss_ref(f->current));
	f->ssid = g_bytes_new_static("home", 4);
	f->roamer = wifi_roamer_new(f->iface, &settings, &fake_connector, f);
}

static void
setup(Fixture *f, gconstpointer data)
{
	setup_with(f, FALSE, TRUE, 60);
}

static void
setup_rm(Fixture *f, gconstpointer data)
{
	setup_with(f, TRUE, TRUE, 60);
}

static void
setup_quick_retry(Fixture *f, gconstpointer data)
{
	setup_with(f, FALSE, FALSE, 1);
}

static void
teardown(Fixture *f, gconstpointer data)
{
	wifi_roamer_free(f->roamer);
	g_clear_pointer(&f->last_scan, g_array_unref);
	g_clear_pointer(&f->moved_to, wifi_bss_unref);
	g_ptr_array_unref(f->table);
	wifi_bss_unref(f->current);
	g_bytes_unref(f->ssid);
	wifi_iface_unref(f->iface);
	wifi_nl_free(f->nl);
}

/* Connected: the kernel's requests answered. */
static void
connect_link(Fixture *f)
{
	wifi_roamer_connected(f->roamer);
	fake_nl_done_all(f->fake, NL80211_CMD_REGISTER_FRAME, 0);
	fake_nl_done_all(f->fake, NL80211_CMD_SET_CQM, 0);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
}

static gboolean
cqm_event(Fixture *f, gint rssi, gint type)
{
	struct nl_msg *msg = fake_nl_iface_event_new(NL80211_CMD_NOTIFY_CQM, IFINDEX);
	struct nlattr *cqm = nla_nest_start(msg, NL80211_ATTR_CQM);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	gboolean taken;

	if (type >= 0) {
		nla_put_u32(msg, NL80211_ATTR_CQM_RSSI_THRESHOLD_EVENT, (guint32)type);
		nla_put_s32(msg, NL80211_ATTR_CQM_RSSI_LEVEL, rssi);
	} else {
		nla_put_flag(msg, NL80211_ATTR_CQM_BEACON_LOSS_EVENT);
	}
	nla_nest_end(msg, cqm);
	wifi_test_msg_parse(msg, tb);
	taken = wifi_roamer_handle_event(f->roamer, NL80211_CMD_NOTIFY_CQM, tb);
	nlmsg_free(msg);
	return taken;
}

static void
signal_low(Fixture *f, gint rssi)
{
	cqm_event(f, rssi, NL80211_CQM_RSSI_THRESHOLD_EVENT_LOW);
}

/* An action frame from bssid (body: category first) as a FRAME event. */
static void
frame_event(Fixture *f, const guint8 *bssid, const guint8 *body, gsize len)
{
	g_autoptr(GBytes) frame = wifi_action_build(own, bssid, body, len);
	struct nl_msg *msg = fake_nl_iface_event_new(NL80211_CMD_FRAME, IFINDEX);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	guint8 *d = g_memdup2(g_bytes_get_data(frame, NULL), g_bytes_get_size(frame));

	/* From the AP: addressed to us, its BSSID as sender and BSSID. */
	memcpy(d + 10, bssid, 6);
	memcpy(d + 16, bssid, 6);
	nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame), d);
	wifi_test_msg_parse(msg, tb);
	g_assert_false(wifi_roamer_handle_event(f->roamer, NL80211_CMD_FRAME, tb));
	nlmsg_free(msg);
	g_free(d);
}

/* The action frame body of the oldest pending FRAME request, answered. */
static GBytes *
sent_action(Fixture *f)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_FRAME);
	WifiActionFrame frame;
	GBytes *body;

	g_assert_nonnull(req->attrs[NL80211_ATTR_FRAME]);
	g_assert_true(wifi_action_parse(nla_data(req->attrs[NL80211_ATTR_FRAME]),
	                                (gsize)nla_len(req->attrs[NL80211_ATTR_FRAME]), &frame,
	                                NULL));
	g_assert_cmpmem(frame.sa, 6, own, 6);
	g_assert_cmpmem(frame.bssid, 6, f->current->bssid, 6);
	body = g_bytes_new(frame.body, frame.body_len);
	fake_nl_done(f->fake, req, 0);
	return body;
}

static void
test_thresholds(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	struct nlattr *cqm[NL80211_ATTR_CQM_MAX + 1];
	const gint32 *list;

	wifi_roamer_connected(f->roamer);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_REGISTER_FRAME), ==, 2);
	req = fake_nl_expect(f->fake, NL80211_CMD_SET_CQM);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, IFINDEX);
	g_assert_cmpint(
	        nla_parse_nested(cqm, NL80211_ATTR_CQM_MAX, req->attrs[NL80211_ATTR_CQM], NULL), ==,
	        0);
	/* The radio takes a list: the roam threshold and one 10 dB below. */
	g_assert_cmpint(nla_len(cqm[NL80211_ATTR_CQM_RSSI_THOLD]), ==, 8);
	list = nla_data(cqm[NL80211_ATTR_CQM_RSSI_THOLD]);
	g_assert_cmpint(list[0], ==, -80);
	g_assert_cmpint(list[1], ==, -70);
	g_assert_cmpuint(nla_get_u32(cqm[NL80211_ATTR_CQM_RSSI_HYST]), ==, 3);
	fake_nl_done(f->fake, req, 0);
	fake_nl_done_all(f->fake, NL80211_CMD_REGISTER_FRAME, -EALREADY);
	/* Frames are registered once per interface; a 5 GHz link gets
	 * RoamThreshold5G. */
	wifi_roamer_disconnected(f->roamer);
	wifi_bss_unref(g_ptr_array_index(f->table, 0));
	wifi_bss_unref(f->current);
	f->current = make_bss(1, 5180, -6000, FALSE);
	g_ptr_array_index(f->table, 0) = wifi_bss_ref(f->current);
	wifi_roamer_connected(f->roamer);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_REGISTER_FRAME), ==, 2);
	req = fake_nl_expect(f->fake, NL80211_CMD_SET_CQM);
	nla_parse_nested(cqm, NL80211_ATTR_CQM_MAX, req->attrs[NL80211_ATTR_CQM], NULL);
	list = nla_data(cqm[NL80211_ATTR_CQM_RSSI_THOLD]);
	g_assert_cmpint(list[1], ==, -76);
	fake_nl_done(f->fake, req, 0);
}

static void
test_threshold_single(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	struct nlattr *cqm[NL80211_ATTR_CQM_MAX + 1];

	wifi_roamer_connected(f->roamer);
	req = fake_nl_expect(f->fake, NL80211_CMD_SET_CQM);
	nla_parse_nested(cqm, NL80211_ATTR_CQM_MAX, req->attrs[NL80211_ATTR_CQM], NULL);
	/* Without the list: one threshold, the roam's, with hysteresis. */
	g_assert_cmpint(nla_len(cqm[NL80211_ATTR_CQM_RSSI_THOLD]), ==, 4);
	g_assert_cmpint(nla_get_s32(cqm[NL80211_ATTR_CQM_RSSI_THOLD]), ==, -70);
	g_assert_cmpuint(nla_get_u32(cqm[NL80211_ATTR_CQM_RSSI_HYST]), ==, 3);
	fake_nl_done(f->fake, req, 0);
	fake_nl_done_all(f->fake, NL80211_CMD_REGISTER_FRAME, 0);
}

/* Signal low: known frequencies first; a BSS 12 dB better is moved to;
 * the move's end sets the new link's thresholds. */
static void
test_signal_roam(Fixture *f, gconstpointer data)
{
	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -6300, FALSE));
	signal_low(f, -75);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "scanning");
	g_assert_cmpuint(f->n_scans, ==, 1);
	g_assert_nonnull(f->last_scan);
	g_assert_cmpuint(f->last_scan->len, ==, 2);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 1);
	g_assert_cmpuint(f->moved_to->bssid[4], ==, 2);
	g_assert_true(f->roaming);
	g_assert_true(wifi_roamer_is_moving(f->roamer));
	/* A beacon loss while moving is ours: the station keeps the link. */
	g_assert_true(cqm_event(f, 0, -1));
	g_assert_cmpuint(f->n_moves, ==, 1);
	wifi_roamer_move_done(f->roamer, TRUE, 0);
	g_assert_false(f->roaming);
	g_assert_cmpuint(f->n_roaming_changes, ==, 2);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
	g_assert_nonnull(fake_nl_find(f->fake, NL80211_CMD_SET_CQM));
}

/* No candidate good enough: known, then full, then retry-wait; the same
 * low signal again starts nothing, a good one ends the wait; the retry
 * interval's end searches again while the signal stays low. */
static void
test_retry_discipline(Fixture *f, gconstpointer data)
{
	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -7000, FALSE));
	signal_low(f, -75);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_scans, ==, 2);
	g_assert_true(f->last_scan_all);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 0);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "retry-wait");
	signal_low(f, -76);
	g_assert_cmpuint(f->n_scans, ==, 2);
	/* The retry interval (1 s here) ends with the signal still low. */
	while (f->n_scans == 2)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "scanning");
	/* The signal comes back: the search ends. */
	cqm_event(f, -65, NL80211_CQM_RSSI_THRESHOLD_EVENT_HIGH);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 0);
}

/* A link much worse than at the last search searches again at once. */
static void
test_retry_much_worse(Fixture *f, gconstpointer data)
{
	connect_link(f);
	signal_low(f, -72);
	wifi_roamer_scan_done(f->roamer, TRUE);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "retry-wait");
	signal_low(f, -82);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "scanning");
	g_assert_cmpuint(f->n_scans, ==, 3);
}

/* The access point offers neighbour reports: asked first, and only their
 * channels scanned; an empty report goes on to the known ones. */
static void
test_neighbor_report(Fixture *f, gconstpointer data)
{
	static const guint8 resp_head[] = {5, 5};
	static const guint8 nr[] = {52, 13, 2, 0, 0, 0, 2, 0, 0x8f, 0, 0, 0, 115, 36, 9};
	g_autoptr(GBytes) req = NULL;
	g_autoptr(GByteArray) resp = g_byte_array_new();
	const guint8 *d;

	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 5180, -5000, FALSE));
	signal_low(f, -75);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "asking-neighbors");
	req = sent_action(f);
	d = g_bytes_get_data(req, NULL);
	g_assert_cmpuint(g_bytes_get_size(req), ==, 9);
	g_assert_cmpuint(d[0], ==, 5);
	g_assert_cmpuint(d[1], ==, 4);
	g_assert_cmpmem(d + 3, 6, "\x00\x04home", 6);
	/* A response with another token is not ours. */
	g_byte_array_append(resp, resp_head, 2);
	g_byte_array_append(resp, (const guint8[]){(guint8)(d[2] + 1)}, 1);
	g_byte_array_append(resp, nr, sizeof(nr));
	frame_event(f, f->current->bssid, resp->data, resp->len);
	g_assert_cmpuint(f->n_scans, ==, 0);
	resp->data[2] = d[2];
	frame_event(f, f->current->bssid, resp->data, resp->len);
	g_assert_cmpuint(f->n_scans, ==, 1);
	g_assert_cmpuint(f->last_scan->len, ==, 1);
	g_assert_cmpuint(g_array_index(f->last_scan, guint32, 0), ==, 5180);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->moved_to->bssid[4], ==, 2);
}

/* No answer to the neighbour request: the known channels after a while. */
static void
test_neighbor_silence(Fixture *f, gconstpointer data)
{
	connect_link(f);
	signal_low(f, -75);
	g_bytes_unref(sent_action(f));
	while (f->n_scans == 0)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpuint(f->last_scan->len, ==, 2);
}

/* A BTM request with disassociation imminent at equal signal: accepted
 * with the target named, and the move waits for the answer to go. */
static void
test_btm_imminent(Fixture *f, gconstpointer data)
{
	static const guint8 req[] = {10, 7, 9,    0x05, 10, 0, 255, 52, 16, 2, 0, 0,  0,
	                             2,  0, 0x8f, 0,    0,  0, 81,  6,  7,  3, 1, 255};
	g_autoptr(GBytes) resp = NULL;
	const guint8 *d;

	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -6000, FALSE));
	frame_event(f, f->current->bssid, req, sizeof(req));
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "moving");
	g_assert_cmpuint(f->n_moves, ==, 0);
	resp = sent_action(f);
	d = g_bytes_get_data(resp, NULL);
	g_assert_cmpuint(g_bytes_get_size(resp), ==, 11);
	g_assert_cmpuint(d[1], ==, WIFI_WNM_ACTION_BTM_RESPONSE);
	g_assert_cmpuint(d[2], ==, 9);
	g_assert_cmpuint(d[3], ==, WIFI_BTM_ACCEPT);
	g_assert_cmpuint(d[10], ==, 0);
	g_assert_cmpuint(d[9], ==, 2);
	g_assert_cmpuint(f->n_moves, ==, 1);
	g_assert_cmpuint(f->moved_to->bssid[4], ==, 2);
	wifi_roamer_move_done(f->roamer, TRUE, 0);
	/* The BSS that told us to leave is avoided: a manual roam may go
	 * back, a beacon loss may not. */
	g_ptr_array_remove_index(f->table, 0);
	wifi_bss_unref(f->current);
	f->current = wifi_bss_ref(g_ptr_array_index(f->table, 0));
	g_ptr_array_add(f->table, make_bss(1, 2412, -4000, FALSE));
	g_assert_false(cqm_event(f, 0, -1));
}

/* Nothing to go to: the candidates' channel, the known ones, every
 * channel, then a rejection with "no suitable candidates". */
static void
test_btm_reject(Fixture *f, gconstpointer data)
{
	static const guint8 req[] = {10, 7, 4, 0x01, 0,    0, 10, 52, 13,  2,  0,
	                             0,  0, 3, 0,    0x8f, 0, 0,  0,  115, 40, 9};
	g_autoptr(GBytes) resp = NULL;
	const guint8 *d;

	connect_link(f);
	frame_event(f, f->current->bssid, req, sizeof(req));
	g_assert_cmpuint(g_array_index(f->last_scan, guint32, 0), ==, 5200);
	wifi_roamer_scan_done(f->roamer, TRUE);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_true(f->last_scan_all);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_scans, ==, 3);
	resp = sent_action(f);
	d = g_bytes_get_data(resp, NULL);
	g_assert_cmpuint(g_bytes_get_size(resp), ==, 5);
	g_assert_cmpuint(d[2], ==, 4);
	g_assert_cmpuint(d[3], ==, WIFI_BTM_REJECT_NO_CANDIDATES);
	g_assert_cmpuint(f->n_moves, ==, 0);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
}

/* Beacon loss: straight to the best known BSS, or not taken at all. */
static void
test_beacon_loss(Fixture *f, gconstpointer data)
{
	connect_link(f);
	g_assert_false(cqm_event(f, 0, -1));
	g_assert_cmpuint(f->n_moves, ==, 0);
	g_ptr_array_add(f->table, make_bss(2, 2437, -8000, FALSE));
	g_assert_true(cqm_event(f, 0, -1));
	g_assert_cmpuint(f->n_scans, ==, 0);
	g_assert_cmpuint(f->moved_to->bssid[4], ==, 2);
	/* Refused as busy: avoided, and the machine watches again. */
	wifi_roamer_move_done(f->roamer, FALSE, 17);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
	g_assert_false(cqm_event(f, 0, -1));
	/* Off: nothing is taken. */
	wifi_roamer_disconnected(f->roamer);
	g_assert_false(cqm_event(f, 0, -1));
}

static void
test_manual(Fixture *f, gconstpointer data)
{
	guint8 two[6] = {2, 0, 0, 0, 2, 0}, nine[6] = {2, 0, 0, 0, 9, 0};
	GError *error = NULL;

	g_assert_false(wifi_roamer_roam_to(f->roamer, two, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_clear_error(&error);
	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -8500, FALSE));
	g_assert_false(wifi_roamer_roam_to(f->roamer, nine, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_false(wifi_roamer_roam_to(f->roamer, f->current->bssid, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	/* A weaker BSS, by request: no margin. */
	g_assert_true(wifi_roamer_roam_to(f->roamer, two, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->moved_to->bssid[4], ==, 2);
	g_assert_false(wifi_roamer_roam_to(f->roamer, two, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_clear_error(&error);
}

/* A move that fails goes on to the next candidate at once, without a
 * scan and without the margin (the link has left the current BSS): the
 * roamer stays moving, Station1 roaming; the failed BSS is avoided; with
 * no other left, the BSS left is the way back; a failure with nothing
 * left ends the move (watching, roaming over). */
static void
test_next_candidate(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiBss) next = NULL;
	g_autoptr(WifiBss) back = NULL;
	g_autoptr(WifiBss) last = NULL;

	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -5000, FALSE));
	/* 6 dB below the current link: no candidate for a signal roam. */
	g_ptr_array_add(f->table, make_bss(3, 2462, -6600, FALSE));
	signal_low(f, -72);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 1);
	g_assert_cmpuint(f->moved_to->bssid[4], ==, 2);
	next = wifi_roamer_move_failed(f->roamer, 17);
	g_assert_nonnull(next);
	g_assert_cmpuint(next->bssid[4], ==, 3);
	g_assert_true(wifi_roamer_is_moving(f->roamer));
	g_assert_true(f->roaming);
	g_assert_cmpuint(f->n_roaming_changes, ==, 1);
	g_assert_cmpuint(f->n_scans, ==, 1);
	/* The station moves there itself: no second move asked. */
	g_assert_cmpuint(f->n_moves, ==, 1);
	/* Both tried are avoided: the BSS left is the way back. */
	back = wifi_roamer_move_failed(f->roamer, 0);
	g_assert_nonnull(back);
	g_assert_cmpuint(back->bssid[4], ==, 1);
	g_assert_true(wifi_roamer_is_moving(f->roamer));
	/* It failed too: nothing is left. */
	last = wifi_roamer_move_failed(f->roamer, 0);
	g_assert_null(last);
	g_assert_false(wifi_roamer_is_moving(f->roamer));
	g_assert_false(f->roaming);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
	/* Not moving: the connector's question has no answer. */
	g_assert_null(wifi_roamer_move_failed(f->roamer, 0));
}

/* The next candidate's move succeeds: the roam ends there. */
static void
test_next_candidate_done(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiBss) next = NULL;
	guint8 three[6] = {2, 0, 0, 0, 3, 0};
	g_autoptr(GError) error = NULL;

	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -5000, FALSE));
	g_ptr_array_add(f->table, make_bss(3, 2462, -5500, FALSE));
	g_assert_true(wifi_roamer_roam_to(f->roamer, three, &error));
	next = wifi_roamer_move_failed(f->roamer, 0);
	g_assert_nonnull(next);
	g_assert_cmpuint(next->bssid[4], ==, 2);
	wifi_roamer_move_done(f->roamer, TRUE, 0);
	g_assert_false(f->roaming);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
}

/* A target the kernel may have forgotten (heard long ago): its channel is
 * scanned first, and the move goes to the BSS as that scan found it; not
 * found again, the move fails before the link is touched. */
static void
test_stale_target(Fixture *f, gconstpointer data)
{
	guint8 two[6] = {2, 0, 0, 0, 2, 0};
	g_autoptr(GError) error = NULL;
	g_autoptr(WifiBss) back = NULL;
	WifiBss *old = make_bss(2, 2437, -5000, FALSE);

	connect_link(f);
	old->last_seen_ns = 1;
	g_ptr_array_add(f->table, old);
	g_assert_true(wifi_roamer_roam_to(f->roamer, two, &error));
	g_assert_cmpuint(f->n_moves, ==, 0);
	g_assert_cmpuint(f->n_scans, ==, 1);
	g_assert_cmpuint(f->last_scan->len, ==, 1);
	g_assert_cmpuint(g_array_index(f->last_scan, guint32, 0), ==, 2437);
	g_assert_true(f->roaming);
	/* The scan heard it again. */
	g_ptr_array_remove_index(f->table, 1);
	g_ptr_array_add(f->table, make_bss(2, 2437, -5000, FALSE));
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 1);
	g_assert_true(f->moved_to == g_ptr_array_index(f->table, 1));
	wifi_roamer_move_done(f->roamer, TRUE, 0);

	/* Heard long ago, and the scan does not find it: no move. */
	g_ptr_array_remove_index(f->table, 0);
	wifi_bss_unref(f->current);
	f->current = wifi_bss_ref(g_ptr_array_index(f->table, 0));
	old = make_bss(1, 2412, -5000, FALSE);
	old->last_seen_ns = 1;
	g_ptr_array_add(f->table, old);
	g_assert_true(wifi_roamer_roam_to(f->roamer, old->bssid, &error));
	g_assert_cmpuint(f->n_scans, ==, 2);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 1);
	g_assert_false(f->roaming);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "watching");
	/* A failed move's next candidate is never one the kernel may have
	 * forgotten: here only the way back to the BSS left is. */
	g_ptr_array_add(f->table, make_bss(3, 2462, -5000, FALSE));
	old = make_bss(4, 2412, -3000, FALSE);
	old->last_seen_ns = 1;
	g_ptr_array_add(f->table, old);
	g_assert_true(wifi_roamer_roam_to(f->roamer, (guint8[6]){2, 0, 0, 0, 3, 0}, &error));
	back = wifi_roamer_move_failed(f->roamer, 0);
	g_assert_nonnull(back);
	g_assert_cmpuint(back->bssid[4], ==, 2);
}

/* After a beacon loss there is no time for a scan: a target heard long
 * ago is moved to at once (mac80211 drops the link within moments). */
static void
test_loss_stale_target(Fixture *f, gconstpointer data)
{
	WifiBss *old = make_bss(2, 2437, -5000, FALSE);

	connect_link(f);
	old->last_seen_ns = 1;
	g_ptr_array_add(f->table, old);
	g_assert_true(cqm_event(f, 0, -1));
	g_assert_cmpuint(f->n_scans, ==, 0);
	g_assert_cmpuint(f->n_moves, ==, 1);
	g_assert_true(f->moved_to == old);
}

/* A search chooses among the BSSes its scans heard: a strong BSS the
 * table last heard before the search is no candidate (its signal is no
 * measure now); heard again by the next phase's scan, it is. */
static void
test_search_heard_only(Fixture *f, gconstpointer data)
{
	WifiBss *old = make_bss(2, 2437, -4000, FALSE);

	connect_link(f);
	old->last_seen_ns = 1;
	g_ptr_array_add(f->table, old);
	signal_low(f, -75);
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 0);
	g_assert_cmpstr(wifi_roamer_get_state_name(f->roamer), ==, "scanning");
	g_assert_cmpuint(f->n_scans, ==, 2);
	g_assert_true(f->last_scan_all);
	/* The full scan hears it (the kernel's clock: now). */
	old->last_seen_ns = G_MAXUINT64;
	wifi_roamer_scan_done(f->roamer, TRUE);
	g_assert_cmpuint(f->n_moves, ==, 1);
}

/* The diagnostics: the state, the counters and the last moves, newest
 * first, each with its trigger, method, ends, duration and result. */
static void
test_diagnostics(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiBss) next = NULL;
	g_autoptr(GVariant) diag = NULL;
	g_autoptr(GVariant) roams = NULL;
	g_autoptr(GVariant) last = NULL;
	g_autoptr(GVariant) newest = NULL;
	g_autoptr(GVariant) oldest = NULL;
	GVariantDict d;
	const gchar *s = NULL;
	guint u = 0;
	guint16 q = 0;

	connect_link(f);
	g_ptr_array_add(f->table, make_bss(2, 2437, -5000, FALSE));
	g_ptr_array_add(f->table, make_bss(3, 2462, -5200, FALSE));
	signal_low(f, -75);
	wifi_roamer_scan_done(f->roamer, TRUE);
	next = wifi_roamer_move_failed(f->roamer, 17);
	g_assert_nonnull(next);
	wifi_roamer_move_done(f->roamer, TRUE, 0);

	g_variant_dict_init(&d, NULL);
	wifi_roamer_add_diagnostics(f->roamer, &d);
	diag = g_variant_ref_sink(g_variant_dict_end(&d));
	g_assert_true(g_variant_lookup(diag, "roam_state", "&s", &s));
	g_assert_cmpstr(s, ==, "watching");
	roams = g_variant_lookup_value(diag, "roams", G_VARIANT_TYPE_VARDICT);
	g_assert_nonnull(roams);
	g_assert_true(g_variant_lookup(roams, "searches", "u", &u));
	g_assert_cmpuint(u, ==, 1);
	g_assert_true(g_variant_lookup(roams, "roams", "u", &u));
	g_assert_cmpuint(u, ==, 1);
	g_assert_true(g_variant_lookup(roams, "failures", "u", &u));
	g_assert_cmpuint(u, ==, 1);
	last = g_variant_lookup_value(roams, "last", G_VARIANT_TYPE("aa{sv}"));
	g_assert_cmpuint(g_variant_n_children(last), ==, 2);
	newest = g_variant_get_child_value(last, 0);
	g_assert_true(g_variant_lookup(newest, "result", "&s", &s));
	g_assert_cmpstr(s, ==, "ok");
	g_assert_true(g_variant_lookup(newest, "to", "&s", &s));
	g_assert_cmpstr(s, ==, "02:00:00:00:03:00");
	g_assert_true(g_variant_lookup(newest, "from", "&s", &s));
	g_assert_cmpstr(s, ==, "02:00:00:00:01:00");
	g_assert_true(g_variant_lookup(newest, "trigger", "&s", &s));
	g_assert_cmpstr(s, ==, "signal low");
	g_assert_true(g_variant_lookup(newest, "method", "&s", &s));
	g_assert_cmpstr(s, ==, "reassociation");
	g_assert_true(g_variant_lookup(newest, "duration_ms", "u", &u));
	g_assert_false(g_variant_lookup(newest, "status", "q", &q));
	oldest = g_variant_get_child_value(last, 1);
	g_assert_true(g_variant_lookup(oldest, "result", "&s", &s));
	g_assert_cmpstr(s, ==, "failed");
	g_assert_true(g_variant_lookup(oldest, "to", "&s", &s));
	g_assert_cmpstr(s, ==, "02:00:00:00:02:00");
	g_assert_true(g_variant_lookup(oldest, "status", "q", &q));
	g_assert_cmpuint(q, ==, 17);
}

/* The history keeps the last WIFI_ROAM_HISTORY_LEN moves, newest first. */
static void
test_history_ring(void)
{
	WifiRoamHistory history = {0};
	g_autoptr(GVariant) v = NULL;
	g_autoptr(GVariant) last = NULL;
	g_autoptr(GVariant) first = NULL;
	guint u = 0;

	for (guint i = 0; i < WIFI_ROAM_HISTORY_LEN + 3; i++) {
		WifiRoamRecord r = {.trigger = WIFI_ROAM_TRIGGER_MANUAL,
		                    .method = "reassociation",
		                    .to = {2, 0, 0, 0, (guint8)i, 0},
		                    .duration_ms = i,
		                    .ok = TRUE};

		wifi_roam_history_add(&history, &r);
	}
	v = g_variant_ref_sink(wifi_roam_history_to_variant(&history));
	g_assert_true(g_variant_lookup(v, "roams", "u", &u));
	g_assert_cmpuint(u, ==, WIFI_ROAM_HISTORY_LEN + 3);
	last = g_variant_lookup_value(v, "last", G_VARIANT_TYPE("aa{sv}"));
	g_assert_cmpuint(g_variant_n_children(last), ==, WIFI_ROAM_HISTORY_LEN);
	first = g_variant_get_child_value(last, 0);
	g_assert_true(g_variant_lookup(first, "duration_ms", "u", &u));
	g_assert_cmpuint(u, ==, WIFI_ROAM_HISTORY_LEN + 2);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, setup_fn, fn) g_test_add(path, Fixture, NULL, setup_fn, fn, teardown)
	ADD("/wifi/roam/thresholds", setup, test_thresholds);
	ADD("/wifi/roam/threshold-single", setup_quick_retry, test_threshold_single);
	ADD("/wifi/roam/signal", setup, test_signal_roam);
	ADD("/wifi/roam/retry-discipline", setup_quick_retry, test_retry_discipline);
	ADD("/wifi/roam/retry-much-worse", setup, test_retry_much_worse);
	ADD("/wifi/roam/neighbor-report", setup_rm, test_neighbor_report);
	ADD("/wifi/roam/neighbor-silence", setup_rm, test_neighbor_silence);
	ADD("/wifi/roam/btm-imminent", setup, test_btm_imminent);
	ADD("/wifi/roam/btm-reject", setup, test_btm_reject);
	ADD("/wifi/roam/beacon-loss", setup, test_beacon_loss);
	ADD("/wifi/roam/manual", setup, test_manual);
	ADD("/wifi/roam/next-candidate", setup, test_next_candidate);
	ADD("/wifi/roam/next-candidate-done", setup, test_next_candidate_done);
	ADD("/wifi/roam/stale-target", setup, test_stale_target);
	ADD("/wifi/roam/loss-stale-target", setup, test_loss_stale_target);
	ADD("/wifi/roam/search-heard-only", setup, test_search_heard_only);
	ADD("/wifi/roam/diagnostics", setup, test_diagnostics);
	g_test_add_func("/wifi/roam/history-ring", test_history_ring);
#undef ADD
	return g_test_run();
}
