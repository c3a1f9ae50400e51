/* test-adhoc.c - the ad-hoc room (adhoc/) over fake nl80211s: JOIN_IBSS's
 * attributes for an open and an RSN IBSS, an open IBSS's peers linked as
 * the kernel reports them, two joind peers of an RSN IBSS running their
 * four handshakes in one process (each side the supplicant and the
 * authenticator of the other, the handshake room's code on both) until
 * both open the other's port, with the same pairwise key on both sides
 * (the handshake whose authenticator has the higher address) and each
 * side's group key installed for it at the other; a wrong passphrase ends
 * in DEL_STATION and no peer; configurations the radio forbids refused;
 * the API object (AdHoc1's model) started, its Peers and signals, stopped. */
#include <errno.h>
#include <string.h>

#include "adhoc-object.h"
#include "ie.h"
#include "wiphy.h"
#include "adhoc.h"
#include "fake-nl.h"
#include "joind-error.h"
#include "log-capture.h"

#define IFINDEX_A 7
#define IFINDEX_B 8

static const guint8 mac_a[6] = {0x02, 0x00, 0x00, 0x00, 0x0a, 0x00};
static const guint8 mac_b[6] = {0x02, 0x00, 0x00, 0x00, 0x0b, 0x00};

typedef struct {
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	WifiAdhoc *adhoc;
	const guint8 *mac;
	GString *log; /* state names, "+peer" / "-peer" */
	GByteArray *tk, *own_gtk, *peer_gtk;
	guint n_authorized;
} Side;

typedef struct {
	Side a, b;
} Fixture;

static void
on_state(WifiAdhocState old_state, WifiAdhocState new_state, const gchar *reason,
         gpointer user_data)
{
	g_string_append_printf(((Side *)user_data)->log, "%s ",
	                       wifi_adhoc_state_to_string(new_state));
}

static void
on_peer(const guint8 mac[6], gboolean joined, gpointer user_data)
{
	g_string_append_printf(((Side *)user_data)->log, "%c%02x ", joined ? '+' : '-', mac[4]);
}

static void
side_set_up(Side *s, const guint8 *mac, guint32 ifindex, gboolean no_ir)
{
	static const WifiAdhocCallbacks cb = {on_state, on_peer};
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);

	wiphy->name = g_strdup("phy0");
	wiphy->iftypes = (1u << NL80211_IFTYPE_STATION) | (1u << NL80211_IFTYPE_ADHOC);
	wiphy->ciphers = WIFI_CIPHER_CCMP;
	for (guint ch = 1; ch <= 13; ch++) {
		WifiChannel c = {.freq = 2407 + 5 * ch, .no_ir = no_ir && ch == 13};

		g_array_append_val(wiphy->channels, c);
	}
	s->mac = mac;
	s->nl = fake_nl_new(&s->fake);
	s->iface = wifi_iface_new(s->nl, NULL, wiphy, ifindex,
	                          ifindex == IFINDEX_A ? "wlan0" : "wlan1");
	s->adhoc = wifi_adhoc_new(s->iface, mac, &cb, s);
	s->log = g_string_new(NULL);
	s->tk = g_byte_array_new();
	s->own_gtk = g_byte_array_new();
	s->peer_gtk = g_byte_array_new();
}

static void
side_tear_down(Side *s)
{
	wifi_adhoc_free(s->adhoc);
	wifi_iface_unref(s->iface);
	wifi_nl_free(s->nl);
	g_string_free(s->log, TRUE);
	g_byte_array_unref(s->tk);
	g_byte_array_unref(s->own_gtk);
	g_byte_array_unref(s->peer_gtk);
}

static void
set_up(Fixture *f, gconstpointer data)
{
	side_set_up(&f->a, mac_a, IFINDEX_A, TRUE);
	side_set_up(&f->b, mac_b, IFINDEX_B, TRUE);
}

static void
tear_down(Fixture *f, gconstpointer data)
{
	side_tear_down(&f->a);
	side_tear_down(&f->b);
}

static WifiAdhocConfig
config(const gchar *ssid, const gchar *secret)
{
	WifiAdhocConfig c = {.secret = secret};

	memcpy(c.ssid, ssid, strlen(ssid));
	c.ssid_len = strlen(ssid);
	return c;
}

/* An event of the kernel about mac (with an EAPOL frame) to adhoc. */
static void
room_event(WifiAdhoc *adhoc, guint8 cmd, const guint8 *mac, const guint8 *frame, gsize len)
{
	struct nl_msg *msg = wifi_test_msg_new(cmd);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	nla_put(msg, NL80211_ATTR_MAC, 6, mac);
	if (frame != NULL)
		nla_put(msg, NL80211_ATTR_FRAME, (int)len, frame);
	wifi_test_msg_parse(msg, tb);
	wifi_adhoc_handle_event(adhoc, cmd, tb);
	nlmsg_free(msg);
}

static void
event(Side *s, guint8 cmd, const guint8 *mac, const guint8 *frame, gsize len)
{
	room_event(s->adhoc, cmd, mac, frame, len);
}

/* Starts s's IBSS and answers JOIN_IBSS, checking its attributes. */
static void
join(Side *s, const gchar *secret)
{
	WifiAdhocConfig c = config("mesh", secret);
	g_autoptr(GError) error = NULL;
	FakeNlRequest *req;

	g_assert_true(wifi_adhoc_start(s->adhoc, &c, &error));
	g_assert_no_error(error);
	g_assert_cmpint(wifi_adhoc_get_state(s->adhoc), ==, WIFI_ADHOC_STATE_JOINING);
	req = fake_nl_expect(s->fake, NL80211_CMD_JOIN_IBSS);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_SSID]),
	                nla_len(req->attrs[NL80211_ATTR_SSID]), "mesh", 4);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_WIPHY_FREQ]), ==, 2437);
	g_assert_nonnull(req->attrs[NL80211_ATTR_SOCKET_OWNER]);
	g_assert_true((req->attrs[NL80211_ATTR_PRIVACY] != NULL) == (secret != NULL));
	g_assert_true((req->attrs[NL80211_ATTR_CONTROL_PORT] != NULL) == (secret != NULL));
	g_assert_true((req->attrs[NL80211_ATTR_CONTROL_PORT_OVER_NL80211] != NULL) ==
	              (secret != NULL));
	if (secret != NULL) {
		/* WPA2-PSK, CCMP both ways, no MFP: what wpa_supplicant's IBSS
		 * expects in message 3. */
		static const guint8 rsne[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
		                              0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
		                              0x00, 0x0f, 0xac, 0x02, 0x00, 0x00};

		g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_IE]),
		                nla_len(req->attrs[NL80211_ATTR_IE]), rsne, sizeof(rsne));
	}
	fake_nl_done(s->fake, req, 0);
	g_assert_cmpint(wifi_adhoc_get_state(s->adhoc), ==, WIFI_ADHOC_STATE_JOINED);
	/* Keys only once the kernel says it is in the IBSS (before, it
	 * refuses them: ENOLINK). */
	g_assert_cmpuint(fake_nl_n_pending(s->fake), ==, 0);
	event(s, NL80211_CMD_JOIN_IBSS, mac_b, NULL, 0);
	g_assert_cmpuint(fake_nl_n_pending(s->fake), ==, secret != NULL ? 2 : 0);
}

/* The keys and ports s asked for, answered and recorded. */
static void
answer_keys(Side *s)
{
	FakeNlRequest *req;

	while ((req = fake_nl_find(s->fake, NL80211_CMD_NEW_KEY)) != NULL) {
		struct nlattr **a = req->attrs;
		GByteArray *into = a[NL80211_ATTR_MAC] == NULL        ? s->own_gtk
		                   : a[NL80211_ATTR_KEY_TYPE] != NULL ? s->peer_gtk
		                                                      : s->tk;

		if (a[NL80211_ATTR_KEY_TYPE] != NULL)
			g_assert_cmpuint(nla_get_u32(a[NL80211_ATTR_KEY_TYPE]), ==,
			                 NL80211_KEYTYPE_GROUP);
		g_byte_array_set_size(into, 0);
		g_byte_array_append(into, nla_data(a[NL80211_ATTR_KEY_DATA]),
		                    (guint)nla_len(a[NL80211_ATTR_KEY_DATA]));
		fake_nl_done(s->fake, req, 0);
	}
	fake_nl_done_all(s->fake, NL80211_CMD_SET_KEY, 0);
	while ((req = fake_nl_find(s->fake, NL80211_CMD_SET_STATION)) != NULL) {
		s->n_authorized++;
		fake_nl_done(s->fake, req, 0);
	}
}

/* EAPOL from one side's CONTROL_PORT_FRAME requests to the other's events,
 * until neither sends more. */
static void
relay(Fixture *f)
{
	gboolean moved = TRUE;

	while (moved) {
		Side *sides[2] = {&f->a, &f->b};

		moved = FALSE;
		for (guint i = 0; i < 2; i++) {
			Side *from = sides[i], *to = sides[1 - i];
			FakeNlRequest *req =
			        fake_nl_find(from->fake, NL80211_CMD_CONTROL_PORT_FRAME);

			answer_keys(from);
			if (req == NULL)
				continue;
			g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, to->mac, 6);
			event(to, NL80211_CMD_CONTROL_PORT_FRAME, from->mac,
			      nla_data(req->attrs[NL80211_ATTR_FRAME]),
			      (gsize)nla_len(req->attrs[NL80211_ATTR_FRAME]));
			fake_nl_done(from->fake, req, 0);
			moved = TRUE;
		}
	}
}

static void
test_open(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;

	join(&f->a, NULL);
	event(&f->a, NL80211_CMD_NEW_STATION, mac_b, NULL, 0);
	g_assert_cmpuint(wifi_adhoc_get_n_peers(f->a.adhoc), ==, 1);
	event(&f->a, NL80211_CMD_NEW_STATION, mac_b, NULL, 0); /* seen again */
	event(&f->a, NL80211_CMD_DEL_STATION, mac_b, NULL, 0);
	g_assert_cmpuint(wifi_adhoc_get_n_peers(f->a.adhoc), ==, 0);
	event(&f->a, NL80211_CMD_NEW_STATION, mac_b, NULL, 0);
	wifi_adhoc_stop(f->a.adhoc, "asked to stop");
	req = fake_nl_expect(f->a.fake, NL80211_CMD_LEAVE_IBSS);
	fake_nl_done(f->a.fake, req, 0);
	g_assert_cmpstr(f->a.log->str, ==, "joining joined +0b -0b +0b -0b leaving idle ");
	g_assert_cmpuint(fake_nl_n_sent(f->a.fake, NL80211_CMD_SET_STATION), ==, 0);
}

static void
test_rsn(Fixture *f, gconstpointer data)
{
	join(&f->a, "correct horse");
	join(&f->b, "correct horse");
	answer_keys(&f->a);
	answer_keys(&f->b);
	g_assert_cmpuint(f->a.own_gtk->len, ==, 16);
	/* Each kernel reports the other; both authenticators send message 1. */
	event(&f->a, NL80211_CMD_NEW_STATION, mac_b, NULL, 0);
	event(&f->b, NL80211_CMD_NEW_STATION, mac_a, NULL, 0);
	relay(f);
	g_assert_cmpuint(f->a.n_authorized, ==, 1);
	g_assert_cmpuint(f->b.n_authorized, ==, 1);
	g_assert_cmpstr(f->a.log->str, ==, "joining joined +0b ");
	g_assert_cmpstr(f->b.log->str, ==, "joining joined +0a ");
	/* One pairwise key, the same on both sides. */
	g_assert_cmpuint(fake_nl_n_sent(f->a.fake, NL80211_CMD_NEW_KEY), ==, 3);
	g_assert_cmpuint(f->a.tk->len, ==, 16);
	g_assert_cmpmem(f->a.tk->data, f->a.tk->len, f->b.tk->data, f->b.tk->len);
	/* Each side's broadcasts are read with its own group key. */
	g_assert_cmpmem(f->a.peer_gtk->data, f->a.peer_gtk->len, f->b.own_gtk->data,
	                f->b.own_gtk->len);
	g_assert_cmpmem(f->b.peer_gtk->data, f->b.peer_gtk->len, f->a.own_gtk->data,
	                f->a.own_gtk->len);
	g_assert_cmpuint(wifi_adhoc_get_n_peers(f->a.adhoc), ==, 1);
	/* The kernel expires the peer. */
	event(&f->a, NL80211_CMD_DEL_STATION, mac_b, NULL, 0);
	g_assert_cmpstr(f->a.log->str, ==, "joining joined +0b -0b ");
}

static void
test_rsn_wrong_passphrase(Fixture *f, gconstpointer data)
{
	log_capture_reset();
	log_capture_allow_warning("*ad-hoc: peer * dropped*another passphrase*");
	join(&f->a, "correct horse");
	join(&f->b, "incorrect horse");
	answer_keys(&f->a);
	answer_keys(&f->b);
	event(&f->a, NL80211_CMD_NEW_STATION, mac_b, NULL, 0);
	event(&f->b, NL80211_CMD_NEW_STATION, mac_a, NULL, 0);
	relay(f);
	/* Each message 2 fails its MIC and is dropped; the authenticators
	 * resend message 1 each second and give up after the fourth: the peer
	 * is deleted (real timers, about 4 s). */
	while (fake_nl_n_sent(f->a.fake, NL80211_CMD_DEL_STATION) == 0) {
		g_main_context_iteration(NULL, TRUE);
		relay(f);
	}
	g_assert_cmpuint(f->a.n_authorized + f->b.n_authorized, ==, 0);
	g_assert_cmpuint(wifi_adhoc_get_n_peers(f->a.adhoc), ==, 0);
	g_assert_cmpmem(nla_data(fake_nl_expect(f->a.fake, NL80211_CMD_DEL_STATION)
	                                 ->attrs[NL80211_ATTR_MAC]),
	                6, mac_b, 6);
	g_assert_cmpstr(f->a.log->str, ==, "joining joined ");
	g_assert_cmpuint(
	        log_capture_count("WARNING: wlan0: ad-hoc: peer 02:00:00:00:0b:00 dropped: "
	                          "*message 2 failed its MIC check*"),
	        ==, 1);
}

static void
test_refused(Fixture *f, gconstpointer data)
{
	WifiAdhocConfig c = config("mesh", "short");
	g_autoptr(GError) error = NULL;
	FakeNlRequest *req;

	g_assert_false(wifi_adhoc_start(f->a.adhoc, &c, &error));
	g_assert_nonnull(error);
	g_clear_error(&error);
	c = config("mesh", NULL);
	c.freq = 2472; /* channel 13: no initiating radiation */
	g_assert_false(wifi_adhoc_start(f->a.adhoc, &c, &error));
	g_assert_nonnull(strstr(error->message, "2472 MHz"));
	g_clear_error(&error);
	c.freq = 5180;
	g_assert_false(wifi_adhoc_start(f->a.adhoc, &c, &error));
	g_assert_nonnull(strstr(error->message, "no channel"));
	g_clear_error(&error);
	g_assert_cmpuint(fake_nl_n_sent(f->a.fake, NL80211_CMD_JOIN_IBSS), ==, 0);
	/* The kernel refuses the join. */
	c.freq = 0;
	g_assert_true(wifi_adhoc_start(f->a.adhoc, &c, &error));
	req = fake_nl_expect(f->a.fake, NL80211_CMD_JOIN_IBSS);
	fake_nl_done(f->a.fake, req, -EBUSY);
	g_assert_cmpint(wifi_adhoc_get_state(f->a.adhoc), ==, WIFI_ADHOC_STATE_IDLE);
}

typedef struct {
	gboolean done, ok;
	GError *error;
} Result;

static void
finished(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Result *r = user_data;

	r->done = TRUE;
	r->ok = joind_adhoc_finish(JOIND_ADHOC(source), result, &r->error);
}

static void
wait_for(Result *r)
{
	while (!r->done)
		g_main_context_iteration(NULL, TRUE);
}

static void
on_signal(JoindAdHoc *adhoc, const gchar *address, gpointer user_data)
{
	g_string_append_printf(user_data, "%s ", address);
}

static void
test_object(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiAdhocObject) object = wifi_adhoc_object_new(f->b.iface, mac_b);
	JoindAdHoc *adhoc = JOIND_ADHOC(object);
	WifiAdhoc *room = wifi_adhoc_object_get_adhoc(object);
	g_autoptr(GString) signals = g_string_new(NULL);
	Result r = {0}, busy = {0}, stop = {0};
	g_autofree gchar *name = NULL, *security = NULL;
	FakeNlRequest *req;

	g_signal_connect(adhoc, "peer-joined", G_CALLBACK(on_signal), signals);
	g_signal_connect(adhoc, "peer-left", G_CALLBACK(on_signal), signals);
	joind_adhoc_start(adhoc, "mesh", NULL, NULL, finished, &r);
	joind_adhoc_start(adhoc, "mesh", NULL, NULL, finished, &busy);
	wait_for(&busy);
	g_assert_error(busy.error, JOIND_ERROR, JOIND_ERROR_BUSY);
	g_clear_error(&busy.error);
	req = fake_nl_expect(f->b.fake, NL80211_CMD_JOIN_IBSS);
	fake_nl_done(f->b.fake, req, 0);
	wait_for(&r);
	g_assert_true(r.ok);
	g_assert_true(joind_adhoc_get_started(adhoc));
	g_object_get(adhoc, "name", &name, "security", &security, NULL);
	g_assert_cmpstr(name, ==, "mesh");
	g_assert_cmpstr(security, ==, "open");
	room_event(room, NL80211_CMD_NEW_STATION, mac_a, NULL, 0);
	g_assert_cmpstr(joind_adhoc_get_peers(adhoc)[0], ==, "02:00:00:00:0a:00");
	joind_adhoc_stop(adhoc, NULL, finished, &stop);
	req = fake_nl_expect(f->b.fake, NL80211_CMD_LEAVE_IBSS);
	fake_nl_done(f->b.fake, req, 0);
	wait_for(&stop);
	g_assert_true(stop.ok);
	g_assert_false(joind_adhoc_get_started(adhoc));
	g_assert_null(joind_adhoc_get_peers(adhoc)[0]);
	g_assert_cmpstr(signals->str, ==, "02:00:00:00:0a:00 02:00:00:00:0a:00 ");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
	g_test_add("/adhoc/open", Fixture, NULL, set_up, test_open, tear_down);
	g_test_add("/adhoc/rsn", Fixture, NULL, set_up, test_rsn, tear_down);
	g_test_add("/adhoc/rsn-wrong-passphrase", Fixture, NULL, set_up, test_rsn_wrong_passphrase,
	           tear_down);
	g_test_add("/adhoc/refused", Fixture, NULL, set_up, test_refused, tear_down);
	g_test_add("/adhoc/object", Fixture, NULL, set_up, test_object, tear_down);
	return g_test_run();
}
