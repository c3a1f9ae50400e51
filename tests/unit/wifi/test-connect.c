/* test-connect.c - the connector's state machine driven through a fake
 * nl80211: the test plays the kernel (answers commands, sends the
 * AUTHENTICATE / ASSOCIATE / CONNECT / DISCONNECT events) and, for
 * WPA2-PSK, the access point's authenticator (tests/unit/wifi-handshake). */
#include <errno.h>
#include <string.h>

#include "attempt.h"
#include "autoconnect-known.h"
#include "connect.h"
#include "device.h"
#include "fake-bss.h"
#include "fake-nl.h"
#include "hs-test-util.h"
#include "sae.h"
#include "test-authenticator.h"
#include "settings.h"
#include "test-core.h"

#define RSNE_PSK "30 14 0100 000fac04 0100 000fac04 0100 000fac02 0000"

static const guint8 ap_addr[6] = {0x02, 0, 0, 0, 0x0a, 0x01};
static const guint8 ap2_addr[6] = {0x02, 0, 0, 0, 0x0a, 0x02};
static const guint8 sta_addr[6] = {0x02, 0, 0, 0, 0x05, 0x01};

/* ---- a station that only holds state ------------------------------------ */

#define TEST_TYPE_STATION (test_station_get_type())
G_DECLARE_FINAL_TYPE(TestStation, test_station, TEST, STATION, JoindStation)
struct _TestStation {
	JoindStation parent_instance;
};
G_DEFINE_TYPE(TestStation, test_station, JOIND_TYPE_STATION)
static void
test_station_class_init(TestStationClass *klass)
{
}
static void
test_station_init(TestStation *self)
{
}

/* ---- fixture -------------------------------------------------------------- */

typedef struct {
	TestCore *tc;
	FakeNl *fake;
	WifiNl *nl;
	WifiIface *iface;
	JoindDevice *device;
	JoindStation *station;
	WifiScanner *scanner;
	WifiPmksaCache *pmksa_cache;
	WifiConnector *connector;
	GString *events; /* observer: one letter per WifiConnectEvent */
	guint n_done;
	gboolean ok;
	GError *error;
} Fixture;

typedef struct {
	gboolean sme;
	const gchar *main_conf;
	guint32 ciphers; /* the radio's, beyond what every test needs */
	gboolean sae;    /* the radio runs SAE through joind's SME */
} Setup;

static const Setup sme = {TRUE, NULL, 0};
static const Setup kernel_sme = {FALSE, NULL, 0};
static const Setup sme_suite_b = {TRUE, NULL, WIFI_CIPHER_GCMP_256 | WIFI_CIPHER_BIP_GMAC_256};
static const Setup sme_mfp = {TRUE, NULL, WIFI_CIPHER_BIP_CMAC};

static void
on_event(WifiConnectEvent event, WifiNetwork *network, const WifiBss *bss, gpointer user_data)
{
	g_string_append_c(((Fixture *)user_data)->events, "CFNRHKWL"[event]);
}

static void
on_scan_results(GPtrArray *bsses, const GArray *freqs, gboolean authoritative, gpointer user_data)
{
}

static void
on_scanning(gboolean scanning, gpointer user_data)
{
}

/* The kernel's scan events reach the scanner; the connector's are sent to
 * it directly (send_event()). */
static void
on_nl_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	wifi_scanner_handle_event(((Fixture *)user_data)->scanner, cmd, attrs);
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	const Setup *setup = data;
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	guint feature = NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211;

	wiphy->supports_auth_assoc = setup->sme;
	wiphy->ciphers = WIFI_CIPHER_CCMP | setup->ciphers;
	wiphy->supports_connect = TRUE;
	if (setup->sae)
		wiphy->features |= NL80211_FEATURE_SAE;
	wiphy->ext_features[feature / 8] |= 1u << (feature % 8);
	f->tc = test_core_new(setup->main_conf, wifi_settings);
	f->nl = fake_nl_new(&f->fake);
	f->iface = wifi_iface_new(f->nl, NULL, wiphy, 7, "wlan0");
	f->device = JOIND_DEVICE(wifi_device_new(7, "wlan0", NULL, NULL));
	joind_device_set_address(f->device, "02:00:00:00:05:01");
	f->station = g_object_new(TEST_TYPE_STATION, NULL);
	joind_device_attach_station(f->device, f->station);
	f->pmksa_cache = wifi_pmksa_cache_new();
	f->scanner = wifi_scanner_new(f->iface, on_scan_results, on_scanning, f);
	wifi_nl_add_listener(f->nl, on_nl_event, f);
	f->connector =
	        wifi_connector_new(f->tc->core, f->station, f->iface, f->scanner, f->pmksa_cache);
	/* It drops whatever association an earlier joind left; none here. */
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_DISCONNECT), -ENOTCONN);
	f->events = g_string_new(NULL);
	wifi_connector_add_observer(f->connector, on_event, f);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	wifi_connector_free(f->connector);
	wifi_pmksa_cache_free(f->pmksa_cache);
	wifi_scanner_free(f->scanner);
	joind_device_attach_station(f->device, NULL);
	g_object_unref(f->station);
	g_object_unref(f->device);
	wifi_iface_unref(f->iface);
	wifi_nl_free(f->nl);
	test_core_free(f->tc);
	g_string_free(f->events, TRUE);
	g_clear_error(&f->error);
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

/* ---- networks ------------------------------------------------------------- */

static WifiBss *
make_bss(const guint8 *bssid, const gchar *ssid, const gchar *rsne_hex)
{
	g_autoptr(GByteArray) ies = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	guint8 head[2] = {0, (guint8)strlen(ssid)};
	WifiBss *bss;

	g_byte_array_append(ies, head, 2);
	g_byte_array_append(ies, (const guint8 *)ssid, strlen(ssid));
	if (rsne_hex != NULL) {
		g_autoptr(GBytes) rsne = hs_test_hex(rsne_hex);

		g_byte_array_append(ies, g_bytes_get_data(rsne, NULL),
		                    (guint)g_bytes_get_size(rsne));
	}
	bss = wifi_bss_new(bssid, 2412, -4000,
	                   WIFI_CAPABILITY_ESS | (rsne_hex != NULL ? WIFI_CAPABILITY_PRIVACY : 0),
	                   ies->data, ies->len, &error);
	g_assert_no_error(error);
	return bss;
}

/* A network of two access points, ap_addr's with rsne1 and ap2_addr's with
 * rsne2 (NULL: open), and its profile when not NULL. */
static WifiNetwork *
make_network2(Fixture *f, const gchar *ssid, const gchar *rsne1, const gchar *rsne2,
              const gchar *profile)
{
	g_autoptr(GPtrArray) bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GBytes) bytes = g_bytes_new(ssid, strlen(ssid));
	WifiBss *first = make_bss(ap_addr, ssid, rsne1);
	WifiNetwork *network;

	g_ptr_array_add(bsses, first);
	g_ptr_array_add(bsses, make_bss(ap2_addr, ssid, rsne2));
	network = wifi_network_new(bytes, first->type);
	wifi_network_set_bsses(network, bsses);
	if (profile != NULL) {
		JoindProfileType type = JOIND_PROFILE_TYPE_OPEN;
		g_autofree gchar *name = NULL;
		g_autoptr(JoindProfile) p = NULL;

		g_assert_true(joind_network_type_to_profile_type(first->type, &type));
		name = g_strdup_printf("%s.%s", ssid, joind_profile_type_to_extension(type));
		test_core_add_profile(f->tc, name, profile);
		p = joind_core_find_network_profile(f->tc->core, (const guint8 *)ssid, strlen(ssid),
		                                    type);
		g_assert_nonnull(p);
		joind_network_set_profile(JOIND_NETWORK(network), p);
	}
	return network;
}

static WifiNetwork *
make_network(Fixture *f, const gchar *ssid, const gchar *rsne_hex, const gchar *profile)
{
	return make_network2(f, ssid, rsne_hex, rsne_hex, profile);
}

/* ---- calls and events ----------------------------------------------------- */

static void
connect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_done++;
	g_clear_error(&f->error);
	f->ok = g_task_propagate_boolean(G_TASK(result), &f->error);
}

static void
connect_to(Fixture *f, WifiNetwork *network)
{
	wifi_connector_connect_bss(f->connector, network, NULL, NULL, connect_done, f);
}

static void
send_event(Fixture *f, struct nl_msg *msg)
{
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];
	guint8 cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->cmd;

	wifi_test_msg_parse(msg, attrs);
	wifi_connector_handle_event(f->connector, cmd, attrs);
	nlmsg_free(msg);
	iterate();
}

static struct nl_msg *
event_new(guint8 cmd)
{
	struct nl_msg *msg = wifi_test_msg_new(cmd);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, 7);
	return msg;
}

/* An authentication frame or an association response from bssid. */
static void
send_answer(Fixture *f, guint8 cmd, const guint8 *bssid, guint16 status)
{
	struct nl_msg *msg = event_new(cmd);
	guint8 frame[30] = {cmd == NL80211_CMD_AUTHENTICATE ? 0xb0 : 0x10};

	memcpy(frame + 4, sta_addr, 6);
	memcpy(frame + 10, bssid, 6);
	memcpy(frame + 16, bssid, 6);
	if (cmd == NL80211_CMD_AUTHENTICATE) {
		frame[26] = 2; /* transaction sequence 2 */
		frame[28] = status & 0xff;
	} else {
		frame[26] = status & 0xff;
		frame[28] = 1; /* AID */
	}
	nla_put(msg, NL80211_ATTR_FRAME, sizeof(frame), frame);
	send_event(f, msg);
}

static void
send_timed_out(Fixture *f, guint8 cmd, const guint8 *bssid)
{
	struct nl_msg *msg = event_new(cmd);

	nla_put_flag(msg, NL80211_ATTR_TIMED_OUT);
	nla_put(msg, NL80211_ATTR_MAC, 6, bssid);
	send_event(f, msg);
}

static void
send_connect_event(Fixture *f, guint16 status)
{
	struct nl_msg *msg = event_new(NL80211_CMD_CONNECT);

	nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr);
	nla_put_u16(msg, NL80211_ATTR_STATUS_CODE, status);
	send_event(f, msg);
}

static void
send_disconnect_event(Fixture *f, guint16 reason)
{
	struct nl_msg *msg = event_new(NL80211_CMD_DISCONNECT);

	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
	nla_put_flag(msg, NL80211_ATTR_DISCONNECTED_BY_AP);
	send_event(f, msg);
}

/* A deauthentication frame (from the AP when from_ap, else our own). */
static void
send_deauth_event(Fixture *f, gboolean from_ap, guint16 reason)
{
	struct nl_msg *msg = event_new(NL80211_CMD_DEAUTHENTICATE);
	guint8 frame[26] = {0xc0};

	memcpy(frame + 4, from_ap ? sta_addr : ap_addr, 6);
	memcpy(frame + 10, from_ap ? ap_addr : sta_addr, 6);
	memcpy(frame + 16, ap_addr, 6);
	frame[24] = reason & 0xff;
	nla_put(msg, NL80211_ATTR_FRAME, sizeof(frame), frame);
	send_event(f, msg);
}

/* Acknowledges the pending command cmd (checking it goes to bssid). */
static void
ack(Fixture *f, guint8 cmd, const guint8 *bssid)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, cmd);

	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, 7);
	if (bssid != NULL)
		g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, bssid, 6);
	fake_nl_done(f->fake, req, 0);
	iterate();
}

static gboolean
network_connected(WifiNetwork *network)
{
	gboolean connected = FALSE;

	g_object_get(network, "connected", &connected, NULL);
	return connected;
}

static void
assert_state(Fixture *f, JoindStationState state)
{
	g_assert_cmpint(joind_station_get_state(f->station), ==, state);
}

/* bssid accepts the authentication; the association is asked for (the
 * test answers it). */
static void
authenticate(Fixture *f, const guint8 *bssid)
{
	ack(f, NL80211_CMD_AUTHENTICATE, bssid);
	send_answer(f, NL80211_CMD_AUTHENTICATE, bssid, 0);
	ack(f, NL80211_CMD_ASSOCIATE, bssid);
}

/* Joins an open network on either path, up to CONNECTED. */
static void
join_open(Fixture *f, WifiNetwork *network, gboolean sme_path)
{
	connect_to(f, network);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	if (sme_path) {
		authenticate(f, ap_addr);
		send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	} else {
		ack(f, NL80211_CMD_CONNECT, ap_addr);
		send_connect_event(f, 0);
	}
}

/* ---- open networks -------------------------------------------------------- */

static void
assert_connected(Fixture *f, WifiNetwork *network)
{
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_no_error(f->error);
	g_assert_true(f->ok);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	g_assert_true(joind_station_get_connected_network(f->station) == JOIND_NETWORK(network));
	g_assert_true(network_connected(network));
	g_assert_nonnull(wifi_connector_get_connected_bss(f->connector));
	g_assert_cmpstr(f->events->str, ==, "C");
}

static void
test_open_sme(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	g_autoptr(JoindProfile) saved = NULL;

	join_open(f, network, TRUE);
	assert_connected(f, network);
	g_assert_null(wifi_connector_get_rsn_plan(f->connector));
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONNECT), ==, 0);
	/* Like iwd: an open network once joined is known. */
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"cafe", 4,
	                                        JOIND_PROFILE_TYPE_OPEN);
	g_assert_nonnull(saved);
	/* The CONNECT event cfg80211 sends after the association is not ours. */
	send_connect_event(f, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

static void
test_open_connect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	gint64 started, up;

	join_open(f, network, FALSE);
	assert_connected(f, network);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_AUTHENTICATE), ==, 0);
	wifi_connector_get_times(f->connector, &started, &up);
	g_assert_cmpint(started, >, 0);
	g_assert_cmpint(up, >, 0);
}

/* A refusal fails the call with the status code named, and nothing stays
 * associated. */
static void
assert_failed(Fixture *f, gint code, const gchar *message_part, const gchar *events)
{
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, code);
	g_assert_nonnull(strstr(f->error->message, message_part));
	g_assert_cmpstr(f->events->str, ==, events);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_null(joind_station_get_connected_network(f->station));
}

/* A failure once associated: the call fails, joind's SME deauthenticates
 * and the DISCONNECT event ends the link. */
static void
assert_failed_teardown(Fixture *f, gint code, const gchar *events)
{
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, code);
	g_assert_cmpstr(f->events->str, ==, events);
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

static void
test_auth_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	/* Another BSS's answer is not ours. */
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	g_assert_cmpuint(f->n_done, ==, 0);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 17);
	assert_failed(f, JOIND_ERROR_FAILED, "refused the authentication (access point full)", "R");
}

static void
test_assoc_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 43);
	assert_failed(f, JOIND_ERROR_FAILED, "refused the association (invalid AKM)", "R");
}

/* No answer: the network's other access point is tried within the same
 * call; when it is silent too, the call fails. */
static void
test_auth_timed_out(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_timed_out(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	g_assert_cmpuint(f->n_done, ==, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_timed_out(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	assert_failed(f, JOIND_ERROR_FAILED, "did not answer (authentication)", "N");
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_AUTHENTICATE), ==, 2);
}

/* The first access point went away since the scan: the second one of the
 * network joins the same Connect(). */
static void
test_next_bss(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	authenticate(f, ap_addr);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	authenticate(f, ap2_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap2_addr, 0);
	assert_connected(f, network);
	g_assert_cmpmem(wifi_connector_get_connected_bss(f->connector)->bssid, 6, ap2_addr, 6);
}

static void
test_connect_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_CONNECT, ap_addr);
	send_connect_event(f, 17);
	assert_failed(f, JOIND_ERROR_FAILED, "refused the association (access point full)", "R");
}

static void
test_kernel_refuses(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_CONNECT), -EINVAL);
	iterate();
	assert_failed(f, JOIND_ERROR_FAILED, "The kernel refused to connect", "F");
}

/* cfg80211 authenticates only to a BSS in its scan table: the kernel's
 * SME takes over. */
static void
test_sme_unknown_bss(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE), -ENOENT);
	iterate();
	ack(f, NL80211_CMD_CONNECT, ap_addr);
	/* A DISCONNECT event before the association is an earlier link's. */
	send_disconnect_event(f, 3);
	send_connect_event(f, 0);
	assert_connected(f, network);
}

/* ---- WPA2-PSK ------------------------------------------------------------- */

#define PASSPHRASE "correct horse battery"

static TestAuth *
make_authenticator(const gchar *passphrase, const gchar *ssid)
{
	guint8 pmk[32];
	g_autoptr(GError) error = NULL;
	TestAuth *a;

	g_assert_true(
	        wifi_psk_from_secret(passphrase, (const guint8 *)ssid, strlen(ssid), pmk, &error));
	a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                  pmk, RSNE_PSK);
	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	return a;
}

/* The access point's EAPOL frame, over the control port; clear: the
 * kernel says it came unprotected. */
static void
send_eapol_as(Fixture *f, GBytes *frame, gboolean clear)
{
	struct nl_msg *msg = event_new(NL80211_CMD_CONTROL_PORT_FRAME);

	nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame),
	        g_bytes_get_data(frame, NULL));
	nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, 0x888e);
	if (clear)
		nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT);
	send_event(f, msg);
}

static void
send_eapol(Fixture *f, GBytes *frame)
{
	send_eapol_as(f, frame, FALSE);
}

/* The station's EAPOL frame the control port was asked to send (acked);
 * *clear, when not NULL: whether it goes unprotected. */
static GBytes *
take_eapol_as(Fixture *f, gboolean *clear)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_CONTROL_PORT_FRAME);
	struct nlattr *frame = req->attrs[NL80211_ATTR_FRAME];
	GBytes *bytes = g_bytes_new(nla_data(frame), (gsize)nla_len(frame));

	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, ap_addr, 6);
	if (clear != NULL)
		*clear = req->attrs[NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT] != NULL;
	fake_nl_done(f->fake, req, 0);
	return bytes;
}

static GBytes *
take_eapol(Fixture *f)
{
	return take_eapol_as(f, NULL);
}

/* Up to the association (joind's SME): the key step waits. */
static void
associate(Fixture *f, WifiNetwork *network)
{
	connect_to(f, network);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_assert_cmpuint(f->n_done, ==, 0);
}

/* Messages 1 to 4: the station sends message 2 and 4, installs the keys
 * and asks for the authorized port. */
static void
run_4way(Fixture *f, TestAuth *a)
{
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(GBytes) msg3 = NULL;
	g_autoptr(GBytes) msg4 = NULL;
	g_autofree gchar *why = NULL;

	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	msg3 = test_auth_msg3(a);
	send_eapol(f, msg3);
	msg4 = take_eapol(f);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	/* TK, GTK and, with MFP, the IGTK (made the default management key). */
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==,
	                 a->group_mgmt != 0 ? 3 : 2);
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_SET_KEY, 0), ==,
	                 a->group_mgmt != 0 ? 1 : 0);
}

static void
test_psk(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(JoindProfile) saved = NULL;
	g_autofree gchar *psk = NULL;

	associate(f, network);
	run_4way(f, a);
	g_assert_cmpuint(f->n_done, ==, 0); /* until the port is authorized */
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	g_assert_nonnull(wifi_connector_get_rsn_plan(f->connector));
	/* The PSK is cached in the profile; the passphrase stays. */
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"home", 4,
	                                        JOIND_PROFILE_TYPE_PSK);
	psk = joind_profile_get_string(saved, "Security", "PreSharedKey");
	g_assert_cmpuint(strlen(psk), ==, 64);
	joind_secret_wipe(g_steal_pointer(&psk));
	psk = joind_profile_get_string(saved, "Security", "Passphrase");
	g_assert_cmpstr(psk, ==, PASSPHRASE);
	/* A group rekey keeps the link. */
	test_auth_rekey_group(a);
	{
		g_autoptr(GBytes) group1 = test_auth_group_msg1(a);
		g_autoptr(GBytes) group2 = NULL;
		g_autofree gchar *why = NULL;

		send_eapol(f, group1);
		group2 = take_eapol(f);
		g_assert_true(test_auth_rx_group_msg2(a, group2, &why));
		g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 1);
	}
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

/* Message 1 may be read before the event that says the association is
 * done, when the kernel would still refuse the answer (ENOTCONN, and the
 * access point repeats only a second later): it is held, and answered
 * once that event came; on the kernel's SME (data: the CONNECT event)
 * and on joind's (the ASSOCIATE answer). */
static void
test_psk_msg1_before_association_event(Fixture *f, gconstpointer data)
{
	gboolean by_kernel = !((const Setup *)data)->sme;
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(GBytes) msg3 = NULL;
	g_autoptr(GBytes) msg4 = NULL;
	g_autofree gchar *why = NULL;

	connect_to(f, network);
	if (by_kernel) {
		ack(f, NL80211_CMD_CONNECT, ap_addr);
	} else {
		authenticate(f, ap_addr);
	}
	send_eapol(f, msg1);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	if (by_kernel)
		send_connect_event(f, 0);
	else
		send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	/* Message 1 again, as the access point repeats it: answered anew. */
	send_eapol(f, msg1);
	g_clear_pointer(&msg2, g_bytes_unref);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	msg3 = test_auth_msg3(a);
	send_eapol(f, msg3);
	msg4 = take_eapol(f);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
}

/* Deauthenticated after message 2 and before message 3 (reason 15): what a
 * wrong passphrase looks like, but a forged or late frame too: the user's
 * call fails with AuthenticationFailed, the event is only a suspicion (K);
 * nothing is saved. */
static void
test_deauth_in_handshake(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=wrong passphrase\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(JoindProfile) saved = NULL;
	g_autofree gchar *psk = NULL;

	associate(f, network);
	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	send_disconnect_event(f, 15);
	assert_failed(f, JOIND_ERROR_AUTHENTICATION_FAILED, "", "K");
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"home", 4,
	                                        JOIND_PROFILE_TYPE_PSK);
	psk = joind_profile_get_string(saved, "Security", "PreSharedKey");
	g_assert_null(psk);
}

/* The event for a deauthentication after message 2 by its reason: 3 (the
 * AP leaving; anyone can forge it) keys refused, 14 (the AP's MIC failure)
 * wrong passphrase. Both fail the user's call with AuthenticationFailed. */
static void
test_deauth_after_msg2_reason(Fixture *f, guint16 reason, const gchar *event)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *part = g_strdup_printf("reason %u", reason);

	associate(f, network);
	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	send_disconnect_event(f, reason);
	assert_failed(f, JOIND_ERROR_AUTHENTICATION_FAILED, part, event);
}

static void
test_deauth_reason3(Fixture *f, gconstpointer data)
{
	test_deauth_after_msg2_reason(f, 3, "K");
}

static void
test_deauth_reason14(Fixture *f, gconstpointer data)
{
	test_deauth_after_msg2_reason(f, 14, "W");
}

/* No EAPOL at all after the association: the handshake's timer. */
static void
test_handshake_timeout(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");

	associate(f, network);
	while (f->n_done == 0)
		g_main_context_iteration(NULL, TRUE);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_cmpstr(f->events->str, ==, "H");
	/* Associated: joind's SME deauthenticates, the DISCONNECT event ends it. */
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* ---- teardowns, aborts, refusals ------------------------------------------ */

/* A second Connect() during the first's authentication: the first is
 * Aborted, joind's SME deauthenticates (our own DEAUTHENTICATE event ends
 * it) and the second starts without passing through "disconnected". */
static void
test_second_connect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) first = make_network(f, "cafe", NULL, NULL);
	g_autoptr(WifiNetwork) second = make_network(f, "bar", NULL, NULL);
	g_autoptr(GError) first_error = NULL;

	connect_to(f, first);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	connect_to(f, second);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	first_error = g_steal_pointer(&f->error);
	f->n_done = 0;
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	send_deauth_event(f, FALSE, 3);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	authenticate(f, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_string_truncate(f->events, 0);
	g_string_append_c(f->events, 'C');
	assert_connected(f, second);
	g_assert_false(network_connected(first));
}

static void
disconnect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_done++;
	g_assert_true(g_task_propagate_boolean(G_TASK(result), NULL));
}

static void
test_disconnect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, FALSE);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTING);
	/* A second call waits for the same teardown. */
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	ack(f, NL80211_CMD_DISCONNECT, NULL);
	g_assert_cmpuint(f->n_done, ==, 1);
	send_disconnect_event(f, 3);
	g_assert_cmpuint(f->n_done, ==, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_false(network_connected(network));
	/* Disconnected already: answered at once. */
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 4);
}

static void
scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_assert_true(wifi_scanner_scan_finish(NULL, result, NULL));
	(*(guint *)user_data)++;
}

/* A scan of ours is under way (triggered, not yet ended). */
static void
start_scan(Fixture *f, guint *n_scans)
{
	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "test", NULL, scan_done, n_scans);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_TRIGGER_SCAN), 0);
	iterate();
}

/* The scan under way ends and its results are read. */
static void
end_scan(Fixture *f)
{
	fake_nl_event(f->nl, fake_nl_iface_event_new(NL80211_CMD_NEW_SCAN_RESULTS, 7));
	iterate();
	fake_bss_answer_dump(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_SCAN), NULL, 0);
	iterate();
}

/* Connect() during a scan: the attempt is shown connecting, and its first
 * frame waits for the scan's end (mac80211 would cut the scan short and
 * lose the table); a scan asked for during the attempt waits for the
 * link. */
static void
test_waits_for_scan(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	guint n_scans = 0;

	start_scan(f, &n_scans);
	connect_to(f, network);
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	g_assert_true(joind_station_get_target_network(f->station) == JOIND_NETWORK(network));
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	end_scan(f);
	g_assert_cmpuint(n_scans, ==, 1);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	wifi_scanner_scan(f->scanner, wifi_scan_params_new(), "test", NULL, scan_done, &n_scans);
	iterate();
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_TRIGGER_SCAN), ==, 1);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	assert_connected(f, network);
	fake_bss_complete_scan(f->fake, f->nl, NULL, 0);
	iterate();
	g_assert_cmpuint(n_scans, ==, 2);
}

/* Disconnect() while the attempt waits: both calls are answered at once,
 * and no frame is sent when the scan ends. */
static void
test_waiting_disconnect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	guint n_scans = 0;

	start_scan(f, &n_scans);
	connect_to(f, network);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 2);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_null(joind_station_get_target_network(f->station));
	end_scan(f);
	g_assert_cmpuint(n_scans, ==, 1);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
}

/* No event after the teardown command: its timer ends it. */
static void
test_teardown_without_event(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, TRUE);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	while (f->n_done < 2)
		g_main_context_iteration(NULL, TRUE);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* The kernel says the link was not up: no event follows. */
static void
test_teardown_not_connected(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, FALSE);
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_DISCONNECT), -ENOTCONN);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 2);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* The access point deauthenticates us: the link is lost at once, and the
 * DISCONNECT event that follows finds nothing to end. */
static void
test_link_lost(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	join_open(f, network, TRUE);
	send_deauth_event(f, TRUE, 7);
	g_assert_cmpstr(f->events->str, ==, "CL");
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	send_disconnect_event(f, 7);
	g_assert_cmpstr(f->events->str, ==, "CL");
	join_open(f, network, TRUE);
	send_disconnect_event(f, 4);
	g_assert_cmpstr(f->events->str, ==, "CLCL");
}

/* The interface goes away in the middle of a connect. */
static void
test_interface_removed(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	wifi_connector_free(g_steal_pointer(&f->connector));
	iterate();
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_ABORTED);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	f->connector =
	        wifi_connector_new(f->tc->core, f->station, f->iface, f->scanner, f->pmksa_cache);
}

/* Events were lost: the kernel is asked whether the link is still up. */
static void
test_resync(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", NULL, NULL);
	FakeNlRequest *req;
	struct nl_msg *reply;

	join_open(f, network, TRUE);
	wifi_connector_resync(f->connector);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_INTERFACE);
	reply = event_new(NL80211_CMD_NEW_INTERFACE);
	nla_put(reply, NL80211_ATTR_SSID, 4, "cafe");
	fake_nl_reply(f->fake, req, reply);
	fake_nl_done(f->fake, req, 0);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	wifi_connector_resync(f->connector);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_INTERFACE);
	fake_nl_reply(f->fake, req, event_new(NL80211_CMD_NEW_INTERFACE));
	fake_nl_done(f->fake, req, 0);
	iterate();
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_cmpstr(f->events->str, ==, "CL");
	/* Not associated: nothing to ask. */
	wifi_connector_resync(f->connector);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_GET_INTERFACE));
}

static void
assert_refused_at_once(Fixture *f, WifiNetwork *network, gint code)
{
	connect_to(f, network);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, code);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	g_clear_error(&f->error);
	f->n_done = 0;
}

static void
test_refusals(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) no_secret = make_network(f, "home", RSNE_PSK, NULL);
	g_autoptr(GBytes) corp = g_bytes_new_static("corp", 4);
	g_autoptr(WifiNetwork) enterprise = wifi_network_new(corp, JOIND_NETWORK_TYPE_8021X);
	g_autoptr(GBytes) ssid = g_bytes_new_static("gone", 4);
	g_autoptr(WifiNetwork) gone = wifi_network_new(ssid, JOIND_NETWORK_TYPE_OPEN);

	assert_refused_at_once(f, no_secret, JOIND_ERROR_NO_AGENT);
	wifi_network_set_bsses(enterprise, wifi_network_get_bsses(no_secret));
	assert_refused_at_once(f, enterprise, JOIND_ERROR_NOT_FOUND);
	assert_refused_at_once(f, gone, JOIND_ERROR_NOT_FOUND);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* ---- 802.1X --------------------------------------------------------------- */

#define RSNE_8021X    "30 14 0100 000fac04 0100 000fac04 0100 000fac01 0000"
#define EAP_PROFILE   "[Security]\nEAP-Method=TESTKEY\nEAP-Identity=alice\nEAP-Password=secret\n"
#define TEST_EAP_TYPE 200

/* A key-generating method for the tests: it answers with the password and
 * exports an MSK made from it. */
static JoindEapMethodResult
testkey_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
               GByteArray *response, GError **error)
{
	const gchar *password = NULL;
	guint8 msk[64];

	switch (joind_eap_session_get_secret(session, "Password", JOIND_SECRET_USER_PASSWORD,
	                                     &password, error)) {
	case JOIND_EAP_SECRET_PENDING:
		return JOIND_EAP_METHOD_PENDING;
	case JOIND_EAP_SECRET_FAILED:
		return JOIND_EAP_METHOD_FAIL;
	case JOIND_EAP_SECRET_AVAILABLE:
		break;
	}
	g_byte_array_append(response, (const guint8 *)password, (guint)strlen(password));
	for (guint i = 0; i < sizeof(msk); i++)
		msk[i] = (guint8)(password[i % strlen(password)] + i);
	joind_eap_session_set_keys(session, msk, sizeof(msk), NULL, 0);
	joind_eap_session_set_decision(session, JOIND_EAP_METHOD_STATE_DONE,
	                               JOIND_EAP_DECISION_COND_SUCC);
	return JOIND_EAP_METHOD_RESPOND;
}

static gpointer
testkey_state_new(JoindEapSession *session, GError **error)
{
	return g_malloc0(1);
}

static const JoindEapMethodOps testkey_ops = {
        .type = TEST_EAP_TYPE,
        .name = "TESTKEY",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_PASSWORD,
        .state_new = testkey_state_new,
        .state_free = g_free,
        .handle_request = testkey_handle,
};

/* The PMK an authenticator derives from the test method's MSK: its first
 * len octets. */
static void
testkey_pmk(const gchar *password, guint8 *pmk, gsize len)
{
	for (guint i = 0; i < len; i++)
		pmk[i] = (guint8)(password[i % strlen(password)] + i);
}

/* An EAP packet from the access point, in an EAPOL frame. */
static void
send_eap(Fixture *f, guint8 code, guint8 id, guint8 type, const gchar *data)
{
	gsize n = data != NULL ? strlen(data) : 0;
	gsize eap_len = code == JOIND_EAP_CODE_REQUEST ? 5 + n : 4;
	g_autoptr(GByteArray) frame = g_byte_array_new();
	guint8 head[9] = {2,    0,  (guint8)(eap_len >> 8), (guint8)eap_len,
	                  code, id, (guint8)(eap_len >> 8), (guint8)eap_len,
	                  type};
	g_autoptr(GBytes) bytes = NULL;

	g_byte_array_append(frame, head, code == JOIND_EAP_CODE_REQUEST ? 9 : 8);
	if (n > 0)
		g_byte_array_append(frame, (const guint8 *)data, (guint)n);
	bytes = g_byte_array_free_to_bytes(g_steal_pointer(&frame));
	send_eapol(f, bytes);
}

/* The station's EAP Response of type (EAPOL type 0), its Type-Data as a
 * string. */
static gchar *
take_eap_response(Fixture *f, guint8 type)
{
	g_autoptr(GBytes) frame = take_eapol(f);
	gsize len = 0;
	const guint8 *p = g_bytes_get_data(frame, &len);

	g_assert_cmpuint(len, >=, 9);
	g_assert_cmpuint(p[1], ==, 0);
	g_assert_cmpuint(p[4], ==, JOIND_EAP_CODE_RESPONSE);
	g_assert_cmpuint(p[8], ==, type);
	return g_strndup((const gchar *)p + 9, len - 9);
}

static TestAuth *
make_eap_authenticator(const gchar *password)
{
	guint8 pmk[32];
	TestAuth *a;

	testkey_pmk(password, pmk, sizeof(pmk));
	a = test_auth_new(WIFI_AKM_SUITE_8021X, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                  pmk, RSNE_8021X);
	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	return a;
}

/* Identity, the method's round and the server's verdict. */
static void
run_eap(Fixture *f, const gchar *expect_identity, gboolean accept)
{
	g_autofree gchar *identity = NULL;
	g_autofree gchar *answer = NULL;

	send_eap(f, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	identity = take_eap_response(f, JOIND_EAP_TYPE_IDENTITY);
	g_assert_cmpstr(identity, ==, expect_identity);
	send_eap(f, JOIND_EAP_CODE_REQUEST, 2, TEST_EAP_TYPE, "?");
	answer = take_eap_response(f, TEST_EAP_TYPE);
	send_eap(f, accept ? JOIND_EAP_CODE_SUCCESS : JOIND_EAP_CODE_FAILURE, 2, 0, NULL);
}

/* The PMKID our association request's RSNE names, or NULL. */
static const guint8 *
assoc_pmkid(FakeNlRequest *req)
{
	struct nlattr *ie = req->attrs[NL80211_ATTR_IE];
	const guint8 *p = nla_data(ie);
	gsize len = (gsize)nla_len(ie);

	g_assert_cmpuint(p[0], ==, 48);
	/* version, group, 1 pairwise, 1 AKM, capabilities: 20 octets, then
	 * the PMKID count. */
	if (len < 2 + 20 + 2 || p[22] == 0)
		return NULL;
	g_assert_cmpuint(len, >=, 2 + 20 + 2 + 16);
	return p + 24;
}

/* Up to the association on joind's SME; the PMKID the request named is
 * copied into pmkid (FALSE: none). */
static gboolean
associate_eap(Fixture *f, WifiNetwork *network, guint8 pmkid[16])
{
	FakeNlRequest *req;
	const guint8 *named;

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	named = assoc_pmkid(req);
	if (named != NULL)
		memcpy(pmkid, named, 16);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	return named != NULL;
}

static void
assert_eap_connected(Fixture *f, WifiNetwork *network, gboolean pmksa_used)
{
	WifiKeying *keying;

	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	keying = wifi_connector_get_keying(f->connector);
	g_assert_nonnull(keying);
	g_assert_cmpstr(wifi_keying_get_eap_method(keying), ==, "TESTKEY");
	g_assert_true(wifi_keying_pmksa_used(keying) == pmksa_used);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
}

/* Full EAP, the PMK from the MSK, message 1 naming its PMKID: connected,
 * the PMKSA cached. */
static void
test_eap_full(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	guint8 pmkid[16];

	g_assert_false(associate_eap(f, network, pmkid));
	run_eap(f, "alice", TRUE);
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_8021X, a->pmk, 32, ap_addr, sta_addr, pmkid, NULL));
	a->msg1_pmkid = pmkid;
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	g_assert_cmpstr(wifi_keying_get_eap_identity(wifi_connector_get_keying(f->connector)), ==,
	                "alice");
}

static void
disconnect_eap(Fixture *f)
{
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	f->n_done = 0;
	g_string_truncate(f->events, 0);
}

/* The second association names the cached PMKID; the access point that
 * takes it starts the 4-way handshake at once: no EAP. */
static void
test_eap_pmksa(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	guint8 pmkid[16], named[16];

	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_8021X, a->pmk, 32, ap_addr, sta_addr, pmkid, NULL));
	associate_eap(f, network, named);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	disconnect_eap(f);

	g_assert_true(associate_eap(f, network, named));
	g_assert_cmpmem(named, 16, pmkid, 16);
	a->msg1_pmkid = pmkid;
	run_4way(f, a);
	assert_eap_connected(f, network, TRUE);
}

/* An access point that lost the PMKSA (restarted) begins EAP instead:
 * full EAP, a new PMKSA. */
static void
test_eap_pmksa_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	guint8 named[16];

	associate_eap(f, network, named);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	disconnect_eap(f);

	g_assert_true(associate_eap(f, network, named));
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
}

/* EAP-Failure after the password went out: AuthenticationFailed, and the
 * observer hears of wrong credentials (autoconnect blocks the network). */
static void
test_eap_wrong_password(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	guint8 named[16];

	associate_eap(f, network, named);
	run_eap(f, "alice", FALSE);
	assert_failed_teardown(f, JOIND_ERROR_AUTHENTICATION_FAILED, "W");
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
}

/* EAP-Failure to the identity alone: no credentials were judged, so it is
 * an ordinary failed attempt. */
static void
test_eap_failure_at_identity(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autofree gchar *identity = NULL;
	guint8 named[16];

	associate_eap(f, network, named);
	send_eap(f, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	identity = take_eap_response(f, JOIND_EAP_TYPE_IDENTITY);
	send_eap(f, JOIND_EAP_CODE_FAILURE, 1, 0, NULL);
	assert_failed_teardown(f, JOIND_ERROR_AUTHENTICATION_FAILED, "H");
}

/* An access point that stays quiet after the association gets an
 * EAPOL-Start after 3 s; the 4-way handshake's 5 s bound does not cut the
 * authentication short. */
static void
test_eap_start(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	g_autoptr(GBytes) start = NULL;
	gint64 t0 = g_get_monotonic_time();
	guint8 named[16];

	associate_eap(f, network, named);
	while (fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME) == NULL)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpint(g_get_monotonic_time() - t0, >=, 2900000);
	start = take_eapol(f);
	g_assert_cmpuint(g_bytes_get_size(start), ==, 4);
	g_assert_cmpuint(((const guint8 *)g_bytes_get_data(start, NULL))[1], ==, 1);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
}

/* The authenticator re-authenticates a connected station: EAP again, then
 * a 4-way handshake over the new PMK; the link stays up throughout. */
static void
test_eap_reauth(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *why = NULL;
	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));
	guint8 named[16];

	associate_eap(f, network, named);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	wifi_pmksa_cache_flush_network(f->pmksa_cache, key);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
	run_eap(f, "alice", TRUE);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	/* The access point holds the new PMKSA at once: so does the cache. */
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	/* The handshake after it: message 2 verifies with the new PMK's PTK
	 * (the test method's MSK is the same, so the PMK is too). */
	msg1 = test_auth_msg1(a);
	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	g_assert_cmpuint(f->n_done, ==, 1);
}

/* WPA3-Enterprise 192-bit (AKM 12): a 48-octet PMK from the MSK, the
 * SHA-384 KDF and MIC, GCMP-256 keys and a BIP-GMAC-256 IGTK. Its PMKID
 * comes from the KCK, so nothing is cached. */
static void
test_eap_suite_b(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(
	        f, "corp192", "30 1a 0100 000fac09 0100 000fac09 0100 000fac0c c000 0000 000fac0c",
	        EAP_PROFILE);
	g_autoptr(TestAuth) a = NULL;
	guint8 pmk[48], named[16];
	const WifiRsnPlan *plan;

	testkey_pmk("secret", pmk, sizeof(pmk));
	a = test_auth_new(WIFI_AKM_SUITE_8021X_SUITE_B_192, WIFI_CIPHER_SUITE_GCMP_256,
	                  WIFI_CIPHER_SUITE_GCMP_256, WIFI_CIPHER_SUITE_BIP_GMAC_256, pmk,
	                  "30 1a 0100 000fac09 0100 000fac09 0100 000fac0c c000 0000 000fac0c");
	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	g_assert_false(associate_eap(f, network, named));
	run_eap(f, "alice", TRUE);
	/* TK, GTK, IGTK, and the IGTK made the default management key. */
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	plan = wifi_connector_get_rsn_plan(f->connector);
	g_assert_cmpuint(plan->akm, ==, WIFI_AKM_SUITE_8021X_SUITE_B_192);
	g_assert_cmpuint(plan->pairwise_cipher, ==, WIFI_CIPHER_SUITE_GCMP_256);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
}

/* A BSS of an 802.1X network without a profile cannot be joined. */
static void
test_eap_no_profile(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, NULL);

	assert_refused_at_once(f, network, JOIND_ERROR_NOT_FOUND);
}

/* An access point that took a retransmitted association request for a new
 * association drops our keys and runs the 4-way handshake again in the
 * clear: it is answered in the clear; a group rekey under the keys is not. */
static void
test_ap_restarts_in_clear(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(GBytes) msg3 = NULL;
	g_autoptr(GBytes) msg4 = NULL;
	g_autoptr(GBytes) group1 = NULL;
	g_autoptr(GBytes) group2 = NULL;
	g_autofree gchar *why = NULL;
	gboolean clear = FALSE;

	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);

	msg1 = test_auth_msg1(a);
	send_eapol_as(f, msg1, TRUE);
	msg2 = take_eapol_as(f, &clear);
	g_assert_true(clear);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	msg3 = test_auth_msg3(a);
	send_eapol_as(f, msg3, TRUE);
	msg4 = take_eapol_as(f, &clear);
	g_assert_true(clear);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0);

	test_auth_rekey_group(a);
	group1 = test_auth_group_msg1(a);
	send_eapol(f, group1);
	group2 = take_eapol_as(f, &clear);
	g_assert_false(clear);
	g_assert_true(test_auth_rx_group_msg2(a, group2, &why));
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

#define RSNE_OWE "30 14 0100 000fac04 0100 000fac04 0100 000fac12 c000"

/* Acks the pending ASSOCIATE; the group its OWE element offers, and its
 * public key into key (NULL: not wanted; 66 octets at most). */
static guint
ack_owe_associate(Fixture *f, guint8 *key)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	struct nlattr *ie = req->attrs[NL80211_ATTR_IE];
	gsize len = 0;
	const guint8 *body = wifi_ie_find(nla_data(ie), (gsize)nla_len(ie), WIFI_IE_EXT(32), &len);
	guint group;

	g_assert_nonnull(body);
	group = (guint)(body[0] | body[1] << 8);
	g_assert_cmpuint(len, ==, 2 + (group == 19 ? 32 : group == 20 ? 48 : 66));
	if (key != NULL)
		memcpy(key, body + 2, len - 2);
	/* Management frame protection required on our side. */
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_USE_MFP]), ==, NL80211_MFP_REQUIRED);
	fake_nl_done(f->fake, req, 0);
	iterate();
	return group;
}

/* Authenticated again after the access point refused a group: the next
 * association offers the next group. */
static guint
owe_authenticate_key(Fixture *f, guint8 *key)
{
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	return ack_owe_associate(f, key);
}

static guint
owe_authenticate(Fixture *f)
{
	return owe_authenticate_key(f, NULL);
}

/* The access point's association response with its OWE element (ap's
 * public key). */
static void
send_owe_answer(Fixture *f, const WifiOwe *ap)
{
	struct nl_msg *msg = event_new(NL80211_CMD_ASSOCIATE);
	guint8 frame[30 + WIFI_OWE_ELEMENT_MAX] = {0x10};
	gsize len;

	memcpy(frame + 4, sta_addr, 6);
	memcpy(frame + 10, ap_addr, 6);
	memcpy(frame + 16, ap_addr, 6);
	frame[28] = 1; /* AID */
	len = wifi_owe_write_element(ap, frame + 30);
	nla_put(msg, NL80211_ATTR_FRAME, (int)(30 + len), frame);
	send_event(f, msg);
}

/* The access point ends each association during the 4-way handshake (it
 * keys with a Diffie-Hellman answer we never read): joind associates again
 * with a new key pair, twice, without answering the call; then the call
 * fails, blaming no credentials. */
static void
test_owe_key_step_again(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);
	g_autoptr(WifiOwe) ap = wifi_owe_new(19, NULL);
	guint8 keys[WIFI_ATTEMPT_OWE_MAX_RENEWALS + 1][32];

	connect_to(f, network);
	for (guint i = 0; i <= WIFI_ATTEMPT_OWE_MAX_RENEWALS; i++) {
		g_assert_cmpuint(owe_authenticate_key(f, keys[i]), ==, 19);
		for (guint j = 0; j < i; j++)
			g_assert_true(memcmp(keys[i], keys[j], 32) != 0);
		send_owe_answer(f, ap);
		assert_state(f, JOIND_STATION_STATE_CONNECTING);
		g_assert_cmpuint(f->n_done, ==, 0);
		send_disconnect_event(f, 15);
	}
	assert_failed(f, JOIND_ERROR_FAILED, "reason 15", "H");
}

/* An OWE network is open; status 77 makes joind offer group 20; an answer
 * without the access point's element fails with a sentence. */
static void
test_owe_no_element(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);

	g_assert_cmpint(joind_network_get_network_type(JOIND_NETWORK(network)), ==,
	                JOIND_NETWORK_TYPE_OPEN);
	connect_to(f, network);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	g_assert_cmpuint(owe_authenticate(f), ==, 20);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_nonnull(strstr(f->error->message, "no OWE Diffie-Hellman element"));
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
}

static void
test_owe_groups_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);

	connect_to(f, network);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	g_assert_cmpuint(owe_authenticate(f), ==, 20);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	g_assert_cmpuint(owe_authenticate(f), ==, 21);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	assert_failed(f, JOIND_ERROR_FAILED,
	              "refused the association (finite cyclic group not supported)", "R");
}

/* No answer to an OWE association: asked again twice in the same group,
 * then the attempt fails. */
static void
test_owe_no_answer(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);

	connect_to(f, network);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	assert_failed(f, JOIND_ERROR_FAILED, "did not answer (association)", "N");
}

/* ---- WPA3-Personal (SAE) -------------------------------------------------- */

/* SAE only, MFP required; the H2E variant adds an RSNXE with SAE H2E. */
#define RSNE_SAE  "30 14 0100 000fac04 0100 000fac04 0100 000fac08 c000"
#define RSNXE_H2E " f4 01 20"

/* The access point's side of SAE: joind's own exchange in the peer role. */
typedef struct {
	WifiSae *sae;
	GQueue *out; /* GBytes: seq, status, body */
	gboolean failed;
} SaeAp;

static void
sae_ap_send(const guint8 *data, gsize len, gpointer user_data)
{
	g_queue_push_tail(((SaeAp *)user_data)->out, g_bytes_new(data, len));
}

static void
sae_ap_done(const GError *error, gpointer user_data)
{
	((SaeAp *)user_data)->failed = error != NULL;
}

static void
sae_ap_init(SaeAp *ap, const gchar *ssid, gboolean h2e)
{
	static const guint group = 19;
	WifiSaeConfig config = {
	        .password = (const guint8 *)PASSPHRASE,
	        .password_len = strlen(PASSPHRASE),
	        .ssid = (const guint8 *)ssid,
	        .ssid_len = strlen(ssid),
	        .groups = &group,
	        .n_groups = 1,
	        .h2e = h2e,
	        .send = sae_ap_send,
	        .done = sae_ap_done,
	        .user_data = ap,
	};

	memcpy(config.own_addr, ap_addr, 6);
	memcpy(config.peer_addr, sta_addr, 6);
	ap->failed = FALSE;
	ap->out = g_queue_new();
	ap->sae = wifi_sae_new(&config, NULL);
}

static void
sae_ap_clear(SaeAp *ap)
{
	g_queue_free_full(ap->out, (GDestroyNotify)g_bytes_unref);
	g_clear_pointer(&ap->sae, wifi_sae_free);
}

/* The station's SAE frame (CMD_AUTHENTICATE, NL80211_AUTHTYPE_SAE) goes
 * to the access point. */
static void
sae_to_ap(Fixture *f, SaeAp *ap)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE);
	struct nlattr *data = req->attrs[NL80211_ATTR_SAE_DATA];
	const guint8 *d;

	g_assert_nonnull(data);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_AUTH_TYPE]), ==, NL80211_AUTHTYPE_SAE);
	d = nla_data(data);
	wifi_sae_rx(ap->sae, (guint16)(d[0] | d[1] << 8), (guint16)(d[2] | d[3] << 8), d + 4,
	            (gsize)nla_len(data) - 4);
	fake_nl_done(f->fake, req, 0);
	iterate();
}

/* The access point's next SAE frame, as the kernel's AUTHENTICATE event. */
static void
sae_to_station(Fixture *f, SaeAp *ap)
{
	g_autoptr(GBytes) sae = g_queue_pop_head(ap->out);
	g_autoptr(GByteArray) frame = g_byte_array_new();
	struct nl_msg *msg = event_new(NL80211_CMD_AUTHENTICATE);
	guint8 head[26] = {0xb0};
	gsize len;
	const guint8 *d = g_bytes_get_data(sae, &len);

	memcpy(head + 4, sta_addr, 6);
	memcpy(head + 10, ap_addr, 6);
	memcpy(head + 16, ap_addr, 6);
	head[24] = 3; /* SAE */
	g_byte_array_append(frame, head, sizeof(head));
	g_byte_array_append(frame, d, (guint)len);
	nla_put(msg, NL80211_ATTR_FRAME, (int)frame->len, frame->data);
	send_event(f, msg);
}

/* Our commit, the access point's commit and confirm, our confirm: SAE
 * accepted on both sides. */
static void
sae_run(Fixture *f, SaeAp *ap)
{
	sae_to_ap(f, ap);      /* our commit; the AP answers both */
	sae_to_station(f, ap); /* its commit */
	sae_to_ap(f, ap);      /* our confirm */
	sae_to_station(f, ap); /* its confirm: accepted */
	g_assert_cmpint(wifi_sae_get_state(ap->sae), ==, WIFI_SAE_ACCEPTED);
}

static void
sae_exchange(Fixture *f, WifiNetwork *network, SaeAp *ap)
{
	connect_to(f, network);
	sae_run(f, ap);
}

/* h2e: the access point's RSNXE (its beacon's) is in message 3. */
static TestAuth *
make_sae_authenticator(const guint8 *pmk, gboolean h2e)
{
	TestAuth *a =
	        test_auth_new(WIFI_AKM_SUITE_SAE, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP,
	                      WIFI_CIPHER_SUITE_BIP_CMAC, pmk, RSNE_SAE);

	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	if (h2e)
		a->rsnxe = hs_test_hex(RSNXE_H2E);
	return a;
}

/* Association (answered with status), then, when 0, the 4-way handshake
 * over pmk up to CONNECTED; the PMKID the request named into pmkid. */
static gboolean
sae_associate(Fixture *f, guint16 status, const guint8 *pmk, gboolean h2e, guint8 pmkid[16])
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	const guint8 *named = assoc_pmkid(req);
	g_autoptr(TestAuth) a = NULL;

	if (named != NULL)
		memcpy(pmkid, named, 16);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, status);
	if (status != 0)
		return named != NULL;
	a = make_sae_authenticator(pmk, h2e);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	return named != NULL;
}

static const Setup sme_sae = {TRUE, NULL, WIFI_CIPHER_BIP_CMAC, TRUE};

/* Disconnect(); the network takes the profile the link wrote (a station
 * does so on "profile-changed"). */
static void
sae_disconnect(Fixture *f, WifiNetwork *network)
{
	GBytes *ssid = joind_network_get_ssid(JOIND_NETWORK(network));
	g_autoptr(JoindProfile) saved =
	        joind_core_find_network_profile(f->tc->core, g_bytes_get_data(ssid, NULL),
	                                        g_bytes_get_size(ssid), JOIND_PROFILE_TYPE_PSK);

	disconnect_eap(f);
	joind_network_set_profile(JOIND_NETWORK(network), saved);
}

/* SAE, then the cached PMKSA: open system authentication, the PMKID of
 * SAE's exchange in our RSNE, the 4-way handshake over its PMK. */
static void
test_sae_pmksa(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	SaeAp ap;
	guint8 pmk[32], pmkid[16];

	sae_ap_init(&ap, "wpa3", FALSE);
	sae_exchange(f, network, &ap);
	g_assert_false(sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid));
	assert_connected(f, network);
	g_assert_cmpuint(wifi_connector_get_rsn_plan(f->connector)->sae_group, ==, 19);
	g_assert_false(wifi_connector_get_rsn_plan(f->connector)->sae_pmksa);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	memcpy(pmk, wifi_sae_get_pmk(ap.sae), 32);
	sae_disconnect(f, network);

	connect_to(f, network);
	g_assert_null(
	        fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE)->attrs[NL80211_ATTR_SAE_DATA]);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	g_assert_true(sae_associate(f, 0, pmk, FALSE, pmkid));
	g_assert_cmpmem(pmkid, 16, wifi_sae_get_pmkid(ap.sae), 16);
	assert_connected(f, network);
	g_assert_true(wifi_connector_get_rsn_plan(f->connector)->sae_pmksa);
	g_assert_cmpuint(wifi_connector_get_rsn_plan(f->connector)->sae_group, ==, 19);
	sae_ap_clear(&ap);
}

/* An access point that no longer has the PMKSA refuses the association
 * (status 53, invalid PMKID): the entry goes and SAE runs after all, in
 * the same Connect(). */
static void
test_sae_pmksa_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	SaeAp ap, ap2;
	guint8 pmkid[16];

	sae_ap_init(&ap, "wpa3", FALSE);
	sae_exchange(f, network, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid);
	assert_connected(f, network);
	sae_disconnect(f, network);

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	g_assert_true(sae_associate(f, 53, NULL, FALSE, pmkid));
	g_assert_cmpuint(f->n_done, ==, 0);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
	sae_ap_init(&ap2, "wpa3", FALSE);
	sae_run(f, &ap2);
	g_assert_false(sae_associate(f, 0, wifi_sae_get_pmk(ap2.sae), FALSE, pmkid));
	assert_connected(f, network);
	g_assert_false(wifi_connector_get_rsn_plan(f->connector)->sae_pmksa);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	sae_ap_clear(&ap);
	sae_ap_clear(&ap2);
}

static gchar *
saved_string(Fixture *f, const gchar *ssid, const gchar *group, const gchar *key)
{
	g_autoptr(JoindProfile) saved = joind_core_find_network_profile(
	        f->tc->core, (const guint8 *)ssid, strlen(ssid), JOIND_PROFILE_TYPE_PSK);

	return joind_profile_get_string(saved, group, key);
}

/* P-256's generator: a point of group 19, the PT of no passphrase. */
#define P256_G                                                             \
	"6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296" \
	"4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"

/* Hash-to-element: the PT lands in the profile (iwd's SAE-PT-Group19);
 * one that does not fit the passphrase (an admin changed it) costs one
 * more exchange, with a PT derived afresh, which replaces it. */
static void
test_sae_pt(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "wpa3", RSNE_SAE RSNXE_H2E,
	                                              "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(WifiNetwork) stale = NULL;
	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));
	g_autofree gchar *pt = NULL;
	g_autofree gchar *fixed = NULL;
	SaeAp ap, ap2, ap3;
	guint8 pmkid[16];

	sae_ap_init(&ap, "wpa3", TRUE);
	sae_exchange(f, network, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), TRUE, pmkid);
	assert_connected(f, network);
	g_assert_true(wifi_connector_get_rsn_plan(f->connector)->sae_h2e);
	pt = saved_string(f, "wpa3", "Security", "SAE-PT-Group19");
	g_assert_cmpuint(strlen(pt), ==, 128);
	sae_disconnect(f, network);

	g_assert_cmpuint(wifi_pmksa_cache_flush_network(f->pmksa_cache, key), ==, 1);
	stale = make_network(f, "wpa3", RSNE_SAE RSNXE_H2E,
	                     "[Security]\nPassphrase=" PASSPHRASE "\nSAE-PT-Group19=" P256_G "\n");
	sae_ap_init(&ap2, "wpa3", TRUE);
	connect_to(f, stale);
	sae_to_ap(f, &ap2);
	sae_to_station(f, &ap2);
	sae_to_ap(f, &ap2); /* a confirm the access point cannot match */
	g_assert_true(ap2.failed);
	sae_to_station(f, &ap2); /* neither can we: again, a fresh PT */
	g_assert_cmpuint(f->n_done, ==, 0);
	sae_ap_init(&ap3, "wpa3", TRUE);
	sae_run(f, &ap3);
	sae_associate(f, 0, wifi_sae_get_pmk(ap3.sae), TRUE, pmkid);
	assert_connected(f, stale);
	fixed = saved_string(f, "wpa3", "Security", "SAE-PT-Group19");
	g_assert_cmpstr(fixed, ==, pt);
	sae_ap_clear(&ap);
	sae_ap_clear(&ap2);
	sae_ap_clear(&ap3);
}

/* Message 3's Transition Disable KDE goes into the profile (iwd's keys);
 * from then on the network's WPA2-only access points are refused before
 * anything is sent to them. */
static void
test_transition_disable(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(JoindProfile) saved = NULL;
	g_autofree gchar *modes = NULL;

	a->transition_disable = 0x01;
	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"home", 4,
	                                        JOIND_PROFILE_TYPE_PSK);
	g_assert_true(joind_profile_get_boolean(saved, "Settings", "TransitionDisable", FALSE));
	modes = joind_profile_get_string(saved, "Settings", "DisabledTransitionModes");
	g_assert_cmpstr(modes, ==, "personal");
	sae_disconnect(f, network);

	joind_network_set_profile(JOIND_NETWORK(network), saved);
	connect_to(f, network);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* An admin's profile with the keys already: the same. */
static void
test_transition_disable_profile(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(
	        f, "home", RSNE_PSK,
	        "[Security]\nPassphrase=" PASSPHRASE
	        "\n[Settings]\nTransitionDisable=true\nDisabledTransitionModes=open, personal\n");

	connect_to(f, network);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
}

/* A handshake the access point starts over on the keyed link (in the
 * clear: it dropped our keys) with a PMK we do not hold: our message 2
 * never verifies, and after the bound the link is lost (autoconnect comes
 * back), joind's SME deauthenticating. */
static void
test_restart_unfinished(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(TestAuth) other = make_authenticator("another passphrase", "home");
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *why = NULL;

	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	/* Past the first handshake's replay counters. */
	for (guint i = 0; i < 4; i++)
		g_bytes_unref(test_auth_msg1(other));
	msg1 = test_auth_msg1(other);
	send_eapol_as(f, msg1, TRUE);
	msg2 = take_eapol(f);
	g_assert_false(test_auth_rx_msg2(other, msg2, &why));
	while (strchr(f->events->str, 'L') == NULL)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpstr(f->events->str, ==, "CL");
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* ---- transition rules ------------------------------------------------------ */

#define RSNE_8021X_MFP "30 14 0100 000fac04 0100 000fac04 0100 000fac05 c000"

/* enterprise: WPA2-Enterprise is refused before anything is sent; an
 * access point of the network with management frame protection is taken
 * instead. */
static void
test_td_enterprise(Fixture *f, gconstpointer data)
{
	const gchar *profile = EAP_PROFILE "[Settings]\nDisabledTransitionModes=enterprise\n";
	g_autoptr(WifiNetwork) wpa2 = make_network(f, "corp", RSNE_8021X, profile);
	g_autoptr(WifiNetwork) mixed = NULL;

	connect_to(f, wpa2);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(f->error->message, "WPA3-Enterprise only"));
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);

	mixed = make_network2(f, "corp2", RSNE_8021X, RSNE_8021X_MFP, profile);
	wifi_connector_connect_bss(f->connector, mixed,
	                           g_ptr_array_index(wifi_network_get_bsses(mixed), 0), NULL,
	                           connect_done, f);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	g_assert_cmpuint(f->n_done, ==, 1);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 1);
	g_assert_cmpuint(f->n_done, ==, 2);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
}

/* open: a plain open access point is refused; the network's OWE access
 * point is taken instead, even when the plain one was asked for. */
static void
test_td_open(Fixture *f, gconstpointer data)
{
	const gchar *profile = "[Settings]\nDisabledTransitionModes=open\n";
	g_autoptr(WifiNetwork) plain = make_network(f, "cafe", NULL, profile);
	g_autoptr(WifiNetwork) mixed = NULL;
	WifiBss *open_bss = NULL;
	GPtrArray *bsses;

	connect_to(f, plain);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(f->error->message, "Enhanced Open (OWE) only"));
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);

	mixed = make_network2(f, "cafe2", NULL, RSNE_OWE, profile);
	bsses = wifi_network_get_bsses(mixed);
	for (guint i = 0; i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (memcmp(bss->bssid, ap_addr, 6) == 0)
			open_bss = bss;
	}
	g_assert_nonnull(open_bss);
	wifi_connector_connect_bss(f->connector, mixed, open_bss, NULL, connect_done, f);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	g_assert_cmpuint(f->n_done, ==, 1);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 1);
	g_assert_cmpuint(f->n_done, ==, 2);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* Before any profile is read: EAP-Method is checked against it. */
	g_assert_true(joind_eap_register_method(&testkey_ops, NULL));
#define ADD(path, setup, func) \
	g_test_add(path, Fixture, setup, fixture_set_up, func, fixture_tear_down)
	ADD("/connect/open/sme", &sme, test_open_sme);
	ADD("/connect/open/kernel-sme", &kernel_sme, test_open_connect);
	ADD("/connect/refused/authentication", &sme, test_auth_refused);
	ADD("/connect/refused/association", &sme, test_assoc_refused);
	ADD("/connect/refused/connect", &kernel_sme, test_connect_refused);
	ADD("/connect/refused/kernel", &kernel_sme, test_kernel_refuses);
	ADD("/connect/refused/at-once", &sme, test_refusals);
	ADD("/connect/timed-out/authentication", &sme, test_auth_timed_out);
	ADD("/connect/timed-out/next-access-point", &sme, test_next_bss);
	ADD("/connect/sme/unknown-bss", &sme, test_sme_unknown_bss);
	ADD("/connect/psk/sme", &sme, test_psk);
	ADD("/connect/psk/msg1-before-association/kernel-sme", &kernel_sme,
	    test_psk_msg1_before_association_event);
	ADD("/connect/psk/msg1-before-association/sme", &sme,
	    test_psk_msg1_before_association_event);
	ADD("/connect/psk/deauth-in-handshake", &sme, test_deauth_in_handshake);
	ADD("/connect/psk/deauth-after-msg2/reason-3", &sme, test_deauth_reason3);
	ADD("/connect/psk/deauth-after-msg2/reason-14", &sme, test_deauth_reason14);
	ADD("/connect/psk/handshake-timeout", &sme, test_handshake_timeout);
	ADD("/connect/second-connect-aborts-first", &sme, test_second_connect);
	ADD("/connect/disconnect", &kernel_sme, test_disconnect);
	ADD("/connect/disconnect/no-event", &sme, test_teardown_without_event);
	ADD("/connect/waits-for-scan", &sme, test_waits_for_scan);
	ADD("/connect/waits-for-scan/disconnect", &sme, test_waiting_disconnect);
	ADD("/connect/disconnect/not-connected", &kernel_sme, test_teardown_not_connected);
	ADD("/connect/link-lost", &sme, test_link_lost);
	ADD("/connect/interface-removed", &sme, test_interface_removed);
	ADD("/connect/resync", &sme, test_resync);
	ADD("/connect/eap/full", &sme, test_eap_full);
	ADD("/connect/eap/pmksa", &sme, test_eap_pmksa);
	ADD("/connect/eap/pmksa-refused", &sme, test_eap_pmksa_refused);
	ADD("/connect/eap/wrong-password", &sme, test_eap_wrong_password);
	ADD("/connect/eap/failure-at-identity", &sme, test_eap_failure_at_identity);
	ADD("/connect/eap/eapol-start", &sme, test_eap_start);
	ADD("/connect/eap/no-profile", &sme, test_eap_no_profile);
	ADD("/connect/eap/reauthentication", &sme, test_eap_reauth);
	ADD("/connect/eap/suite-b-192", &sme_suite_b, test_eap_suite_b);
	ADD("/connect/psk/ap-restarts-in-the-clear", &sme, test_ap_restarts_in_clear);
	ADD("/connect/owe/group-refused-then-no-element", &sme_mfp, test_owe_no_element);
	ADD("/connect/owe/every-group-refused", &sme_mfp, test_owe_groups_refused);
	ADD("/connect/owe/no-answer", &sme_mfp, test_owe_no_answer);
	ADD("/connect/owe/key-step-again", &sme_mfp, test_owe_key_step_again);
	ADD("/connect/psk/restart-unfinished", &sme, test_restart_unfinished);
	ADD("/connect/sae/pmksa", &sme_sae, test_sae_pmksa);
	ADD("/connect/sae/pmksa-refused", &sme_sae, test_sae_pmksa_refused);
	ADD("/connect/sae/pt", &sme_sae, test_sae_pt);
	ADD("/connect/transition-disable/message-3", &sme, test_transition_disable);
	ADD("/connect/transition-disable/profile", &sme, test_transition_disable_profile);
	ADD("/connect/transition-disable/enterprise", &sme_mfp, test_td_enterprise);
	ADD("/connect/transition-disable/open", &sme_mfp, test_td_open);
#undef ADD
	return g_test_run();
}
