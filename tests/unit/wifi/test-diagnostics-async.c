/* test-diagnostics-async.c - Daemon1.GetDiagnostics() never waits on the
 * kernel: the link's RSSI is asked with GET_STATION through the WifiNl
 * (the fake nl80211 plays the kernel: it answers, fails or stays silent),
 * and the core answers the D-Bus call once every device's part is in,
 * handling events and other calls meanwhile. */
#include <errno.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "device.h"
#include "diagnostics.h"
#include "rsn-suites.h"
#include "fake-nl.h"
#include "settings.h"
#include "test-core.h"
#include "profile-keys.h"

#define IFINDEX 7

static const WifiConnectionInfo link_info = {
        .bssid = {0x02, 0x00, 0x00, 0x00, 0x6a, 0x01},
        .freq = 2412,
        .akm = WIFI_AKM_SUITE_PSK,
        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
};

typedef struct {
	WifiNl *nl;
	FakeNl *fake;
	GCancellable *cancellable;
	GVariant *link; /* what the link query answered */
	guint n_answers;
	guint n_events;
} Fixture;

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	f->nl = fake_nl_new(&f->fake);
	f->cancellable = g_cancellable_new();
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	g_clear_pointer(&f->nl, wifi_nl_free);
	g_clear_object(&f->cancellable);
	g_clear_pointer(&f->link, g_variant_unref);
}

static void
iterate(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void
link_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Fixture *f = user_data;

	g_clear_pointer(&f->link, g_variant_unref);
	f->link = wifi_diagnostics_link_finish(result);
	g_assert_nonnull(f->link);
	f->n_answers++;
}

static void
ask_link(Fixture *f)
{
	wifi_diagnostics_link_async(f->nl, IFINDEX, &link_info, f->cancellable, link_done, f);
}

/* The link's a{sv} inside the maybe the query answered. */
static GVariant *
answered_link(Fixture *f)
{
	g_assert_cmpuint(f->n_answers, ==, 1);
	g_assert_nonnull(f->link);
	return g_variant_get_maybe(f->link);
}

static struct nl_msg *
sta_info_reply(gint8 signal)
{
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_NEW_STATION);
	struct nlattr *sta = nla_nest_start(msg, NL80211_ATTR_STA_INFO);

	nla_put_u8(msg, NL80211_STA_INFO_SIGNAL, (guint8)signal);
	nla_nest_end(msg, sta);
	return msg;
}

/* The request names the interface and the AP; the reply's signal is the
 * link's RSSI. */
static void
test_link_answered(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	g_autoptr(GVariant) link = NULL;
	gint rssi = 0;
	const gchar *bssid = NULL;

	ask_link(f);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_STATION);
	g_assert_nonnull(req->attrs[NL80211_ATTR_IFINDEX]);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_IFINDEX]), ==, IFINDEX);
	g_assert_nonnull(req->attrs[NL80211_ATTR_MAC]);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, link_info.bssid, 6);
	fake_nl_reply(f->fake, req, sta_info_reply(-42));
	fake_nl_done(f->fake, req, 0);
	iterate();
	link = answered_link(f);
	g_assert_nonnull(link);
	g_assert_true(g_variant_lookup(link, "rssi_dbm", "i", &rssi));
	g_assert_cmpint(rssi, ==, -42);
	g_assert_true(g_variant_lookup(link, "bssid", "&s", &bssid));
	g_assert_cmpstr(bssid, ==, "02:00:00:00:6a:01");
}

/* The kernel refuses (the AP just left): the link without RSSI. */
static void
test_link_error(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) link = NULL;
	guint32 freq = 0;

	ask_link(f);
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_GET_STATION, -ENOENT), ==, 1);
	iterate();
	link = answered_link(f);
	g_assert_nonnull(link);
	g_assert_false(g_variant_lookup(link, "rssi_dbm", "i", NULL));
	g_assert_true(g_variant_lookup(link, "frequency", "u", &freq));
	g_assert_cmpuint(freq, ==, 2412);
}

/* A reply whose STA_INFO does not parse gives no RSSI either. */
static void
test_link_malformed(Fixture *f, gconstpointer data)
{
	FakeNlRequest *req;
	struct nl_msg *reply = wifi_test_msg_new(NL80211_CMD_NEW_STATION);
	struct nlattr *sta = nla_nest_start(reply, NL80211_ATTR_STA_INFO);
	guint16 two = 2;
	g_autoptr(GVariant) link = NULL;

	/* A 32-bit counter in two octets. */
	nla_put(reply, NL80211_STA_INFO_CONNECTED_TIME, sizeof(two), &two);
	nla_nest_end(reply, sta);
	ask_link(f);
	req = fake_nl_expect(f->fake, NL80211_CMD_GET_STATION);
	fake_nl_reply(f->fake, req, reply);
	fake_nl_done(f->fake, req, 0);
	iterate();
	link = answered_link(f);
	g_assert_false(g_variant_lookup(link, "rssi_dbm", "i", NULL));
}

static void
on_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	Fixture *f = user_data;

	f->n_events++;
}

static gboolean
count_idle(gpointer user_data)
{
	guint *n = user_data;

	(*n)++;
	return G_SOURCE_REMOVE;
}

/* While the kernel has not answered, the main loop runs: events reach
 * their listeners and other sources dispatch; the answer comes later. */
static void
test_link_pending(Fixture *f, gconstpointer data)
{
	guint n_idle = 0;
	g_autoptr(GVariant) link = NULL;

	wifi_nl_add_listener(f->nl, on_event, f);
	ask_link(f);
	g_idle_add(count_idle, &n_idle);
	fake_nl_event(f->nl, fake_nl_iface_event_new(NL80211_CMD_NEW_SCAN_RESULTS, IFINDEX));
	iterate();
	g_assert_cmpuint(f->n_events, ==, 1);
	g_assert_cmpuint(n_idle, ==, 1);
	g_assert_cmpuint(f->n_answers, ==, 0);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 1);

	fake_nl_reply(f->fake, fake_nl_expect(f->fake, NL80211_CMD_GET_STATION),
	              sta_info_reply(-60));
	fake_nl_done_all(f->fake, NL80211_CMD_GET_STATION, 0);
	iterate();
	link = answered_link(f);
	g_assert_true(g_variant_lookup(link, "rssi_dbm", "i", NULL));
}

/* Cancelled (the station stops) while the kernel is silent: the request
 * is dropped and the answer has no RSSI. */
static void
test_link_cancelled(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) link = NULL;

	ask_link(f);
	iterate();
	g_cancellable_cancel(f->cancellable);
	iterate();
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	link = answered_link(f);
	g_assert_false(g_variant_lookup(link, "rssi_dbm", "i", NULL));

	/* Already cancelled: answered without asking. */
	fake_nl_clear_sent(f->fake);
	f->n_answers = 0;
	ask_link(f);
	iterate();
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_GET_STATION), ==, 0);
	g_assert_cmpuint(f->n_answers, ==, 1);
}

/* The plugin's WifiNl goes away with the request pending: answered. */
static void
test_link_nl_freed(Fixture *f, gconstpointer data)
{
	ask_link(f);
	g_clear_pointer(&f->nl, wifi_nl_free);
	iterate();
	g_assert_cmpuint(f->n_answers, ==, 1);
}

/* Not connected: Nothing, and nothing asked of the kernel. */
static void
test_link_not_connected(Fixture *f, gconstpointer data)
{
	wifi_diagnostics_link_async(f->nl, IFINDEX, NULL, f->cancellable, link_done, f);
	iterate();
	g_assert_cmpuint(f->n_answers, ==, 1);
	g_assert_null(g_variant_get_maybe(f->link));
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_GET_STATION), ==, 0);
}

/* ---- the core's GetDiagnostics() ----------------------------------------- */

typedef struct {
	Fixture base;
	TestCore *tc;
	WifiDevice *wifi;   /* its diagnostics: the link query above */
	JoindDevice *wired; /* no diagnostics hook */
	gchar *json;        /* the GetDiagnostics() reply */
	gchar *version;     /* a property read meanwhile */
} CoreFixture;

static void
device_link_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	g_autoptr(GVariant) link = wifi_diagnostics_link_finish(result);
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert_value(&d, "connection", link);
	g_task_return_pointer(task, g_variant_ref_sink(g_variant_dict_end(&d)),
	                      (GDestroyNotify)g_variant_unref);
}

/* What the station does: the link query, on the station's cancellable. */
static void
device_diagnostics(gpointer user_data, GTask *task)
{
	CoreFixture *cf = user_data;

	wifi_diagnostics_link_async(cf->base.nl, IFINDEX, &link_info, cf->base.cancellable,
	                            device_link_done, task);
}

static void
core_set_up(CoreFixture *cf, gconstpointer data)
{
	g_autoptr(GError) error = NULL;

	fixture_set_up(&cf->base, data);
	cf->tc = test_core_new(NULL, wifi_settings);
	joind_core_declare_profile_keys(cf->tc->core, wifi_profile_keys);
	cf->wifi = wifi_device_new(IFINDEX, "wlan0", device_diagnostics, cf);
	cf->wired = joind_device_new(3, "eth0", JOIND_DEVICE_KIND_ETHERNET, "ethernet-8021x");
	g_assert_true(joind_core_add_device(cf->tc->core, JOIND_DEVICE(cf->wifi), &error));
	g_assert_true(joind_core_add_device(cf->tc->core, cf->wired, &error));
	g_assert_no_error(error);
}

static void
core_tear_down(CoreFixture *cf, gconstpointer data)
{
	joind_core_remove_device(cf->tc->core, cf->wired);
	if (cf->wifi != NULL)
		joind_core_remove_device(cf->tc->core, JOIND_DEVICE(cf->wifi));
	g_clear_object(&cf->wired);
	g_clear_object(&cf->wifi);
	test_core_free(cf->tc);
	g_free(cf->json);
	g_free(cf->version);
	fixture_tear_down(&cf->base, data);
}

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	gchar **out = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);

	g_assert_no_error(error);
	if (g_variant_is_of_type(reply, G_VARIANT_TYPE("(v)"))) {
		g_autoptr(GVariant) v = NULL;

		g_variant_get(reply, "(v)", &v);
		*out = g_variant_dup_string(v, NULL);
	} else {
		g_variant_get(reply, "(s)", out);
	}
}

static void
core_call(CoreFixture *cf, const gchar *iface, const gchar *method, GVariant *args, gchar **out)
{
	g_dbus_connection_call(cf->tc->conn, g_dbus_connection_get_unique_name(cf->tc->conn),
	                       "/net/joind", iface, method, args, NULL, G_DBUS_CALL_FLAGS_NONE, -1,
	                       NULL, call_done, out);
}

static void
get_diagnostics(CoreFixture *cf)
{
	core_call(cf, "net.joind.Daemon1", "GetDiagnostics", NULL, &cf->json);
}

static void
wait_for(gchar **out)
{
	while (*out == NULL)
		g_main_context_iteration(NULL, TRUE);
}

/* The devices array of the reply, by name. */
static JsonObject *
reply_device(JsonNode *root, const gchar *name)
{
	JsonArray *devices = json_object_get_array_member(json_node_get_object(root), "devices");

	for (guint i = 0; i < json_array_get_length(devices); i++) {
		JsonObject *d = json_array_get_object_element(devices, i);

		if (g_strcmp0(json_object_get_string_member(d, "name"), name) == 0)
			return d;
	}
	return NULL;
}

static JsonNode *
parse_reply(CoreFixture *cf)
{
	g_autoptr(GError) error = NULL;
	JsonNode *root = json_from_string(cf->json, &error);

	g_assert_no_error(error);
	return root;
}

/* GET_STATION pending: the call waits, another D-Bus call is answered
 * meanwhile; the kernel answers, the reply has both devices, the WiFi
 * one with its RSSI, the wired one without details. */
static void
test_core_waits_without_blocking(CoreFixture *cf, gconstpointer data)
{
	g_autoptr(JsonNode) root = NULL;
	JsonObject *wifi, *connection;

	get_diagnostics(cf);
	while (fake_nl_find(cf->base.fake, NL80211_CMD_GET_STATION) == NULL)
		g_main_context_iteration(NULL, TRUE);
	core_call(cf, "org.freedesktop.DBus.Properties", "Get",
	          g_variant_new("(ss)", "net.joind.Daemon1", "Version"), &cf->version);
	wait_for(&cf->version);
	g_assert_null(cf->json);

	fake_nl_reply(cf->base.fake, fake_nl_expect(cf->base.fake, NL80211_CMD_GET_STATION),
	              sta_info_reply(-55));
	fake_nl_done_all(cf->base.fake, NL80211_CMD_GET_STATION, 0);
	wait_for(&cf->json);
	root = parse_reply(cf);
	g_assert_cmpstr(json_object_get_string_member(json_node_get_object(root), "version"), ==,
	                cf->version);
	wifi = reply_device(root, "wlan0");
	g_assert_nonnull(wifi);
	connection = json_object_get_object_member(json_object_get_object_member(wifi, "details"),
	                                           "connection");
	g_assert_cmpint(json_object_get_int_member(connection, "rssi_dbm"), ==, -55);
	g_assert_cmpstr(json_object_get_string_member(connection, "security"), ==, "psk");
	g_assert_nonnull(reply_device(root, "eth0"));
	g_assert_false(json_object_has_member(reply_device(root, "eth0"), "details"));
}

/* The kernel fails: the connection is there, its RSSI is not. */
static void
test_core_kernel_error(CoreFixture *cf, gconstpointer data)
{
	g_autoptr(JsonNode) root = NULL;
	JsonObject *connection;

	get_diagnostics(cf);
	while (fake_nl_done_all(cf->base.fake, NL80211_CMD_GET_STATION, -ENODEV) == 0)
		g_main_context_iteration(NULL, TRUE);
	wait_for(&cf->json);
	root = parse_reply(cf);
	connection = json_object_get_object_member(
	        json_object_get_object_member(reply_device(root, "wlan0"), "details"),
	        "connection");
	g_assert_false(json_object_has_member(connection, "rssi_dbm"));
	g_assert_cmpstr(json_object_get_string_member(connection, "bssid"), ==,
	                "02:00:00:00:6a:01");
}

/* The WiFi device goes away (its station stops) while the kernel is
 * silent: the call is answered, without that device. */
static void
test_core_device_removed(CoreFixture *cf, gconstpointer data)
{
	g_autoptr(JsonNode) root = NULL;

	get_diagnostics(cf);
	while (fake_nl_find(cf->base.fake, NL80211_CMD_GET_STATION) == NULL)
		g_main_context_iteration(NULL, TRUE);
	joind_core_remove_device(cf->tc->core, JOIND_DEVICE(cf->wifi));
	wifi_device_clear_diagnostics(cf->wifi);
	g_clear_object(&cf->wifi);
	g_cancellable_cancel(cf->base.cancellable);
	wait_for(&cf->json);
	g_assert_cmpuint(fake_nl_n_pending(cf->base.fake), ==, 0);
	root = parse_reply(cf);
	g_assert_null(reply_device(root, "wlan0"));
	g_assert_nonnull(reply_device(root, "eth0"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/wifi/diagnostics-async/link-answered", Fixture, NULL, fixture_set_up,
	           test_link_answered, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/link-error", Fixture, NULL, fixture_set_up,
	           test_link_error, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/link-malformed", Fixture, NULL, fixture_set_up,
	           test_link_malformed, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/link-pending", Fixture, NULL, fixture_set_up,
	           test_link_pending, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/link-cancelled", Fixture, NULL, fixture_set_up,
	           test_link_cancelled, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/link-nl-freed", Fixture, NULL, fixture_set_up,
	           test_link_nl_freed, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/link-not-connected", Fixture, NULL, fixture_set_up,
	           test_link_not_connected, fixture_tear_down);
	g_test_add("/wifi/diagnostics-async/core-waits", CoreFixture, NULL, core_set_up,
	           test_core_waits_without_blocking, core_tear_down);
	g_test_add("/wifi/diagnostics-async/core-kernel-error", CoreFixture, NULL, core_set_up,
	           test_core_kernel_error, core_tear_down);
	g_test_add("/wifi/diagnostics-async/core-device-removed", CoreFixture, NULL, core_set_up,
	           test_core_device_removed, core_tear_down);
	return g_test_run();
}
