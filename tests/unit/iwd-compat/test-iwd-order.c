/* test-iwd-order.c - the order in which a client on the bus learns of an
 * attempt under iwd's API: Station.ConnectedNetwork arrives before or
 * with the State "connecting" that needs it (iwd names the network from
 * the start of an attempt, and NetworkManager follows an attempt the
 * daemon started only through it), and it never names a Network object
 * the client has not been told of (InterfacesAdded) yet. */
#include "iwd-device.h"
#include "iwd-names.h"

#define DEVICE_PATH "/net/connman/iwd/1/3"
#define WPA2_PATH   DEVICE_PATH "/742d77706132_psk"

typedef struct {
	GTestDBus *bus;
	GDBusConnection *server;
	GDBusConnection *client;
	GDBusObjectManagerServer *manager;
	JoindDevice *device;
	JoindStation *station;
	IwdDevice *iwd;
	guint subscription;
	/* What the client saw, in order: "added <path>" or
	 * "changed State=<s> ConnectedNetwork=<o or ->". */
	GPtrArray *seen;
} Fixture;

static void
on_signal(GDBusConnection *conn, const gchar *sender, const gchar *path, const gchar *iface,
          const gchar *member, GVariant *params, gpointer user_data)
{
	Fixture *f = user_data;
	g_autoptr(GVariant) props = NULL;
	const gchar *name = NULL, *state = NULL, *network = NULL;

	if (g_str_equal(member, "InterfacesAdded")) {
		g_variant_get(params, "(&o@a{sa{sv}})", &name, NULL);
		g_ptr_array_add(f->seen, g_strdup_printf("added %s", name));
		return;
	}
	if (!g_str_equal(member, "PropertiesChanged"))
		return;
	g_variant_get(params, "(&s@a{sv}@as)", &name, &props, NULL);
	if (!g_str_equal(name, IWD_IFACE_STATION))
		return;
	if (!g_variant_lookup(props, "State", "&s", &state))
		state = "-";
	if (!g_variant_lookup(props, "ConnectedNetwork", "&o", &network))
		network = "-";
	g_ptr_array_add(f->seen,
	                g_strdup_printf("changed State=%s ConnectedNetwork=%s", state, network));
}

/* Every signal the server sent so far has reached on_signal(): its idle
 * flushes run, then a round trip to it (its reply comes after them). */
static void
settle(Fixture *f)
{
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GError) error = NULL;

	while (g_main_context_pending(NULL))
		g_main_context_iteration(NULL, FALSE);
	reply = g_dbus_connection_call_sync(f->client, g_dbus_connection_get_unique_name(f->server),
	                                    "/", "org.freedesktop.DBus.Peer", "Ping", NULL, NULL,
	                                    G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	g_assert_no_error(error);
	while (g_main_context_pending(NULL))
		g_main_context_iteration(NULL, FALSE);
}

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	GDBusConnectionFlags flags = G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                             G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION;

	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->bus);
	f->server = g_dbus_connection_new_for_address_sync(g_test_dbus_get_bus_address(f->bus),
	                                                   flags, NULL, NULL, &error);
	g_assert_no_error(error);
	f->client = g_dbus_connection_new_for_address_sync(g_test_dbus_get_bus_address(f->bus),
	                                                   flags, NULL, NULL, &error);
	g_assert_no_error(error);
	f->seen = g_ptr_array_new_with_free_func(g_free);
	f->subscription = g_dbus_connection_signal_subscribe(
	        f->client, g_dbus_connection_get_unique_name(f->server), NULL, NULL, NULL, NULL,
	        G_DBUS_SIGNAL_FLAGS_NONE, on_signal, f, NULL);
	f->manager = g_dbus_object_manager_server_new("/");
	g_dbus_object_manager_server_set_connection(f->manager, f->server);
	f->device = joind_device_new(3, "wlan9", JOIND_DEVICE_KIND_WIFI, "test");
	joind_device_set_powered(f->device, TRUE);
	f->station = g_object_new(JOIND_TYPE_STATION, NULL);
	joind_device_attach_station(f->device, f->station);
	f->iwd = iwd_device_new(f->manager, f->device, 1, NULL);
	/* The device's own objects are not under test. */
	settle(f);
	g_ptr_array_set_size(f->seen, 0);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	iwd_device_free(f->iwd);
	g_object_unref(f->station);
	g_object_unref(f->device);
	g_object_unref(f->manager);
	g_dbus_connection_signal_unsubscribe(f->client, f->subscription);
	g_object_unref(f->client);
	g_object_unref(f->server);
	g_test_dbus_down(f->bus);
	g_object_unref(f->bus);
	g_ptr_array_unref(f->seen);
}

static JoindNetwork *
network_new(const gchar *name)
{
	g_autoptr(GBytes) ssid = g_bytes_new(name, strlen(name));

	return g_object_new(JOIND_TYPE_NETWORK, "ssid", ssid, "network-type",
	                    JOIND_NETWORK_TYPE_PSK, NULL);
}

/* Runs the loop until the client has seen a line equal to last (the
 * signals of one connection arrive in the order they were sent). */
static void
wait_for(Fixture *f, const gchar *last)
{
	gint64 end = g_get_monotonic_time() + 10 * G_USEC_PER_SEC;

	for (;;) {
		for (guint i = 0; i < f->seen->len; i++)
			if (g_str_equal(g_ptr_array_index(f->seen, i), last))
				return;
		g_assert_cmpint(g_get_monotonic_time(), <, end);
		g_main_context_iteration(NULL, TRUE);
	}
}

static gchar *
seen_text(Fixture *f)
{
	g_ptr_array_add(f->seen, NULL);
	return g_strjoinv("\n", (gchar **)f->seen->pdata);
}

/* The daemon starts an attempt on a network the client knows of: the
 * State "connecting" arrives with the ConnectedNetwork. */
static void
test_connecting_names_network(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) psk = network_new("t-wpa2");
	g_autofree gchar *text = NULL;

	joind_station_add_network(f->station, psk);
	wait_for(f, "added " WPA2_PATH);
	joind_station_set_target_network(f->station, psk);
	joind_station_set_state(f->station, JOIND_STATION_STATE_CONNECTING, "test");
	wait_for(f, "changed State=connecting ConnectedNetwork=" WPA2_PATH);
	joind_station_set_connected_network(f->station, psk);
	joind_station_set_state(f->station, JOIND_STATION_STATE_CONNECTED, "test");
	wait_for(f, "changed State=connected ConnectedNetwork=-");
	text = seen_text(f);
	/* StationDiagnostic comes with the link (the device's object). */
	g_assert_cmpstr(text, ==,
	                "added " WPA2_PATH "\n"
	                "changed State=connecting ConnectedNetwork=" WPA2_PATH "\n"
	                "added " DEVICE_PATH "\n"
	                "changed State=connected ConnectedNetwork=-");
}

/* The attempt's network has no object yet (the first frames of a hidden
 * network's): State goes alone, ConnectedNetwork follows the object. */
static void
test_unexported_network_waits(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) psk = network_new("t-wpa2");
	g_autofree gchar *text = NULL;

	joind_station_set_target_network(f->station, psk);
	joind_station_set_state(f->station, JOIND_STATION_STATE_CONNECTING, "test");
	wait_for(f, "changed State=connecting ConnectedNetwork=-");
	joind_station_add_network(f->station, psk);
	wait_for(f, "changed State=- ConnectedNetwork=" WPA2_PATH);
	text = seen_text(f);
	g_assert_cmpstr(text, ==,
	                "changed State=connecting ConnectedNetwork=-\n"
	                "added " WPA2_PATH "\n"
	                "changed State=- ConnectedNetwork=" WPA2_PATH);
}

/* The attempt is over: ConnectedNetwork goes with the State that ends it,
 * and Network.Connected followed it from the start. */
static void
test_network_connected_follows(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) psk = network_new("t-wpa2");
	g_autoptr(GDBusInterface) iface = NULL;
	g_autoptr(GVariant) props = NULL;
	gboolean connected = FALSE;

	joind_station_add_network(f->station, psk);
	joind_station_set_target_network(f->station, psk);
	joind_station_set_state(f->station, JOIND_STATION_STATE_CONNECTING, "test");
	iface = g_dbus_object_manager_get_interface(G_DBUS_OBJECT_MANAGER(f->manager), WPA2_PATH,
	                                            IWD_IFACE_NETWORK);
	props = g_dbus_interface_skeleton_get_properties(G_DBUS_INTERFACE_SKELETON(iface));
	g_assert_true(g_variant_lookup(props, "Connected", "b", &connected));
	g_assert_true(connected);
	wait_for(f, "changed State=connecting ConnectedNetwork=" WPA2_PATH);
	joind_station_set_target_network(f->station, NULL);
	joind_station_set_state(f->station, JOIND_STATION_STATE_DISCONNECTED, "test");
	wait_for(f, "changed State=disconnected ConnectedNetwork=-");
	g_clear_pointer(&props, g_variant_unref);
	props = g_dbus_interface_skeleton_get_properties(G_DBUS_INTERFACE_SKELETON(iface));
	g_assert_true(g_variant_lookup(props, "Connected", "b", &connected));
	g_assert_false(connected);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/iwd-compat/order/connecting", Fixture, NULL, fixture_set_up,
	           test_connecting_names_network, fixture_tear_down);
	g_test_add("/iwd-compat/order/unexported", Fixture, NULL, fixture_set_up,
	           test_unexported_network_waits, fixture_tear_down);
	g_test_add("/iwd-compat/order/network-connected", Fixture, NULL, fixture_set_up,
	           test_network_connected_follows, fixture_tear_down);
	return g_test_run();
}
