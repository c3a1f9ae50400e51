/* connect-fixture.c - the connector's tests' fixture and the kernel's side
 * of a connection (connect-fixture.h). */
#include "connect-fixture.h"

#include "hs-test-util.h"
#include "settings.h"
#include "profile-keys.h"

const guint8 ap_addr[6] = {0x02, 0, 0, 0, 0x0a, 0x01};
const guint8 ap2_addr[6] = {0x02, 0, 0, 0, 0x0a, 0x02};
const guint8 sta_addr[6] = {0x02, 0, 0, 0, 0x05, 0x01};

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

const Setup sme = {TRUE, NULL, 0};
const Setup kernel_sme = {FALSE, NULL, 0};
const Setup sme_suite_b = {TRUE, NULL, WIFI_CIPHER_GCMP_256 | WIFI_CIPHER_BIP_GMAC_256};
const Setup sme_mfp = {TRUE, NULL, WIFI_CIPHER_BIP_CMAC};
const Setup sme_sae = {TRUE, NULL, WIFI_CIPHER_BIP_CMAC, TRUE};

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

void
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
	joind_core_declare_profile_keys(f->tc->core, wifi_profile_keys);
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

void
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

void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

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

WifiNetwork *
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

WifiNetwork *
make_network(Fixture *f, const gchar *ssid, const gchar *rsne_hex, const gchar *profile)
{
	return make_network2(f, ssid, rsne_hex, rsne_hex, profile);
}

void
connect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_done++;
	g_clear_error(&f->error);
	f->ok = g_task_propagate_boolean(G_TASK(result), &f->error);
}

void
connect_to(Fixture *f, WifiNetwork *network)
{
	wifi_connector_connect_bss(f->connector, network, NULL, NULL, connect_done, f);
}

void
send_event(Fixture *f, struct nl_msg *msg)
{
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];
	guint8 cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->cmd;

	wifi_test_msg_parse(msg, attrs);
	wifi_connector_handle_event(f->connector, cmd, attrs);
	nlmsg_free(msg);
	iterate();
}

struct nl_msg *
event_new(guint8 cmd)
{
	struct nl_msg *msg = wifi_test_msg_new(cmd);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, 7);
	return msg;
}

void
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

void
send_timed_out(Fixture *f, guint8 cmd, const guint8 *bssid)
{
	struct nl_msg *msg = event_new(cmd);

	nla_put_flag(msg, NL80211_ATTR_TIMED_OUT);
	nla_put(msg, NL80211_ATTR_MAC, 6, bssid);
	send_event(f, msg);
}

void
send_connect_event(Fixture *f, guint16 status)
{
	struct nl_msg *msg = event_new(NL80211_CMD_CONNECT);

	nla_put(msg, NL80211_ATTR_MAC, 6, ap_addr);
	nla_put_u16(msg, NL80211_ATTR_STATUS_CODE, status);
	send_event(f, msg);
}

void
send_disconnect_event(Fixture *f, guint16 reason)
{
	struct nl_msg *msg = event_new(NL80211_CMD_DISCONNECT);

	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, reason);
	nla_put_flag(msg, NL80211_ATTR_DISCONNECTED_BY_AP);
	send_event(f, msg);
}

void
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

void
send_local_teardown(Fixture *f)
{
	struct nl_msg *msg = event_new(NL80211_CMD_DISCONNECT);

	send_deauth_event(f, FALSE, 1);
	nla_put_u16(msg, NL80211_ATTR_REASON_CODE, 1);
	send_event(f, msg);
}

void
ack(Fixture *f, guint8 cmd, const guint8 *bssid)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, cmd);

	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, 7);
	if (bssid != NULL)
		g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, bssid, 6);
	fake_nl_done(f->fake, req, 0);
	iterate();
}

gboolean
network_connected(WifiNetwork *network)
{
	gboolean connected = FALSE;

	g_object_get(network, "connected", &connected, NULL);
	return connected;
}

void
assert_state(Fixture *f, JoindStationState state)
{
	g_assert_cmpint(joind_station_get_state(f->station), ==, state);
}

void
authenticate(Fixture *f, const guint8 *bssid)
{
	ack(f, NL80211_CMD_AUTHENTICATE, bssid);
	send_answer(f, NL80211_CMD_AUTHENTICATE, bssid, 0);
	ack(f, NL80211_CMD_ASSOCIATE, bssid);
}

void
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

void
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

void
assert_failed(Fixture *f, gint code, const gchar *message_part, const gchar *events)
{
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, code);
	g_assert_nonnull(strstr(f->error->message, message_part));
	g_assert_cmpstr(f->events->str, ==, events);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	g_assert_null(joind_station_get_connected_network(f->station));
}

void
assert_failed_teardown(Fixture *f, gint code, const gchar *events)
{
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, code);
	g_assert_cmpstr(f->events->str, ==, events);
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

void
disconnect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_done++;
	g_assert_true(g_task_propagate_boolean(G_TASK(result), NULL));
}

void
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

void
disconnect_and_reset(Fixture *f)
{
	wifi_connector_disconnect(f->connector, NULL, disconnect_done, f);
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
	f->n_done = 0;
	g_string_truncate(f->events, 0);
}

void
disconnect_keep_profile(Fixture *f, WifiNetwork *network)
{
	GBytes *ssid = joind_network_get_ssid(JOIND_NETWORK(network));
	g_autoptr(JoindProfile) saved =
	        joind_core_find_network_profile(f->tc->core, g_bytes_get_data(ssid, NULL),
	                                        g_bytes_get_size(ssid), JOIND_PROFILE_TYPE_PSK);

	disconnect_and_reset(f);
	joind_network_set_profile(JOIND_NETWORK(network), saved);
}
