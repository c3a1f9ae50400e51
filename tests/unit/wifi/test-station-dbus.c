/* test-station-dbus.c - the core's Station1/Network1 export, on a private
 * session bus: objects appear and vanish with the station's networks,
 * properties follow, and method calls reach the class methods through the
 * authorisation gate. */
#include <gio/gio.h>

#include "joind-dbus-device.h"
#include "joind-error.h"
#include "joind-station.h"
#include "test-bus.h"

/* ---- a station that records what it is asked ------------------------------ */

#define TEST_TYPE_STATION (test_station_get_type())
G_DECLARE_FINAL_TYPE(TestStation, test_station, TEST, STATION, JoindStation)

struct _TestStation {
	JoindStation parent_instance;
	guint n_scans;
	GBytes *hidden_ssid;
};

G_DEFINE_TYPE(TestStation, test_station, JOIND_TYPE_STATION)

static void
test_station_scan(JoindStation *station, GCancellable *cancellable, GAsyncReadyCallback callback,
                  gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(station, cancellable, callback, user_data);

	TEST_STATION(station)->n_scans++;
	joind_station_set_scanning(station, TRUE);
	g_task_return_boolean(task, TRUE);
}

static void
test_station_connect_hidden(JoindStation *station, GBytes *ssid, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(station, cancellable, callback, user_data);

	TEST_STATION(station)->hidden_ssid = g_bytes_ref(ssid);
	g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "No such network.");
}

static void
test_station_finalize(GObject *object)
{
	g_clear_pointer(&TEST_STATION(object)->hidden_ssid, g_bytes_unref);
	G_OBJECT_CLASS(test_station_parent_class)->finalize(object);
}

static void
test_station_class_init(TestStationClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = test_station_finalize;
	JOIND_STATION_CLASS(klass)->scan = test_station_scan;
	JOIND_STATION_CLASS(klass)->connect_hidden = test_station_connect_hidden;
}

static void
test_station_init(TestStation *self)
{
}

/* ---- fixture ---------------------------------------------------------------- */

typedef struct {
	GTestDBus *bus;
	GDBusConnection *conn;
	GDBusObjectManagerServer *manager;
	JoindDBusManaged *managed;
	JoindDevice *device;
	JoindProfileStore *profiles; /* never loaded: no profile errors */
	TestStation *station;
} Fixture;

/* As the core does: the device's object is not the manager's. */
static void
fixture_add_device(JoindVariantWriter *w, JoindVariantFrame *objects, gpointer user_data)
{
	joind_dbus_device_write_managed(((Fixture *)user_data)->device, w, objects);
}

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->bus);
	f->conn = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
	g_assert_nonnull(f->conn);
	f->manager = g_dbus_object_manager_server_new("/net/joind");
	g_dbus_object_manager_server_set_connection(f->manager, f->conn);
	f->managed = joind_dbus_managed_new(f->manager);
	joind_dbus_managed_add_source(f->managed, fixture_add_device, f);
	f->device = joind_device_new(7, "wlan7", JOIND_DEVICE_KIND_WIFI, "wifi");
	f->profiles = joind_profile_store_new(g_get_tmp_dir());
	joind_dbus_device_export(f->managed, f->manager, f->device, f->profiles);
	f->station = g_object_new(TEST_TYPE_STATION, NULL);
	joind_device_attach_station(f->device, JOIND_STATION(f->station));
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	joind_device_attach_station(f->device, NULL);
	joind_dbus_device_unexport(f->device);
	g_clear_object(&f->station);
	g_clear_object(&f->device);
	g_clear_object(&f->profiles);
	g_clear_pointer(&f->managed, joind_dbus_managed_free);
	g_clear_object(&f->manager);
	g_clear_object(&f->conn);
	g_test_dbus_down(f->bus);
	g_clear_object(&f->bus);
}

static GVariant *
call(Fixture *f, const gchar *path, const gchar *iface, const gchar *method, GVariant *args,
     GError **error)
{
	return test_bus_call_self(f->conn, path, iface, method, args, error);
}

static void
assert_remote_error(GError *error, const gchar *name)
{
	g_autofree gchar *remote = NULL;

	g_assert_nonnull(error);
	g_assert_true(g_dbus_error_is_remote_error(error));
	remote = g_dbus_error_get_remote_error(error);
	g_assert_cmpstr(remote, ==, name);
}

static GVariant *
get_property(Fixture *f, const gchar *path, const gchar *iface, const gchar *name)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = call(f, path, "org.freedesktop.DBus.Properties", "Get",
	                                 g_variant_new("(ss)", iface, name), &error);
	GVariant *value;

	g_assert_no_error(error);
	g_variant_get(reply, "(v)", &value);
	return value;
}

static JoindNetwork *
network_new(const gchar *ssid, gsize len, JoindNetworkType type, gint strength)
{
	g_autoptr(GBytes) bytes = g_bytes_new(ssid, len);
	JoindNetwork *n =
	        g_object_new(JOIND_TYPE_NETWORK, "ssid", bytes, "network-type", type, NULL);

	joind_network_set_strength(n, strength);
	return n;
}

/* ---- tests ------------------------------------------------------------------ */

static void
test_station_properties(Fixture *f, gconstpointer data)
{
	const gchar *path = "/net/joind/device/7";
	g_autoptr(GVariant) state = NULL;
	g_autoptr(GVariant) scanning = NULL;
	g_autoptr(GVariant) connected = NULL;

	state = get_property(f, path, "net.joind.Station1", "State");
	g_assert_cmpstr(g_variant_get_string(state, NULL), ==, "disconnected");
	connected = get_property(f, path, "net.joind.Station1", "ConnectedNetwork");
	g_assert_cmpstr(g_variant_get_string(connected, NULL), ==, "/");

	joind_station_set_state(JOIND_STATION(f->station), JOIND_STATION_STATE_CONNECTING, "test");
	g_clear_pointer(&state, g_variant_unref);
	state = get_property(f, path, "net.joind.Station1", "State");
	g_assert_cmpstr(g_variant_get_string(state, NULL), ==, "connecting");
	scanning = get_property(f, path, "net.joind.Station1", "Scanning");
	g_assert_false(g_variant_get_boolean(scanning));
}

static void
test_networks_appear_and_vanish(Fixture *f, gconstpointer data)
{
	static const gchar latin1[] = {'c', 'a', 'f', (gchar)0xe9};
	g_autoptr(JoindNetwork) home = network_new("home", 4, JOIND_NETWORK_TYPE_PSK, -5000);
	g_autoptr(JoindNetwork) cafe = network_new(latin1, 4, JOIND_NETWORK_TYPE_OPEN, -7000);
	const gchar *home_path = "/net/joind/device/7/network/686f6d65_psk";
	g_autoptr(GVariant) name = NULL;
	g_autoptr(GVariant) type = NULL;
	g_autoptr(GVariant) device = NULL;
	g_autoptr(GVariant) strength = NULL;
	g_autoptr(GVariant) security = NULL;
	g_autoptr(GVariant) known = NULL;
	g_autoptr(GDBusObject) gone = NULL;
	g_autoptr(GPtrArray) networks = NULL;

	joind_station_add_network(JOIND_STATION(f->station), home);
	joind_station_add_network(JOIND_STATION(f->station), cafe);
	g_assert_cmpstr(joind_network_get_object_path(home), ==, home_path);
	g_assert_cmpstr(joind_network_get_object_path(cafe), ==,
	                "/net/joind/device/7/network/636166e9_open");
	g_assert_true(joind_network_get_device(home) == f->device);

	name = get_property(f, home_path, "net.joind.Network1", "Name");
	g_assert_cmpstr(g_variant_get_string(name, NULL), ==, "home");
	type = get_property(f, home_path, "net.joind.Network1", "Type");
	g_assert_cmpstr(g_variant_get_string(type, NULL), ==, "psk");
	device = get_property(f, home_path, "net.joind.Network1", "Device");
	g_assert_cmpstr(g_variant_get_string(device, NULL), ==, "/net/joind/device/7");
	known = get_property(f, home_path, "net.joind.Network1", "KnownNetwork");
	g_assert_cmpstr(g_variant_get_string(known, NULL), ==, "/");

	joind_network_set_strength(home, -4200);
	strength = get_property(f, home_path, "net.joind.Network1", "Strength");
	g_assert_cmpint(g_variant_get_int16(strength), ==, -4200);
	/* "open" until the plugin says; then what it says. */
	security = get_property(f, home_path, "net.joind.Network1", "Security");
	g_assert_cmpstr(g_variant_get_string(security, NULL), ==, "open");
	g_clear_pointer(&security, g_variant_unref);
	joind_network_set_security(home, "wpa2-wpa3");
	security = get_property(f, home_path, "net.joind.Network1", "Security");
	g_assert_cmpstr(g_variant_get_string(security, NULL), ==, "wpa2-wpa3");

	joind_station_set_connected_network(JOIND_STATION(f->station), home);
	g_clear_pointer(&name, g_variant_unref);
	name = get_property(f, "/net/joind/device/7", "net.joind.Station1", "ConnectedNetwork");
	g_assert_cmpstr(g_variant_get_string(name, NULL), ==, home_path);

	joind_station_remove_network(JOIND_STATION(f->station), home);
	g_assert_null(joind_network_get_object_path(home));
	g_assert_null(joind_station_get_connected_network(JOIND_STATION(f->station)));
	gone = g_dbus_object_manager_get_object(G_DBUS_OBJECT_MANAGER(f->manager), home_path);
	g_assert_null(gone);
	networks = joind_station_get_networks(JOIND_STATION(f->station));
	g_assert_cmpuint(networks->len, ==, 1);
	g_assert_true(g_ptr_array_index(networks, 0) == cafe);
}

static void
test_methods(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) weak = network_new("weak", 4, JOIND_NETWORK_TYPE_OPEN, -8000);
	g_autoptr(JoindNetwork) strong = network_new("strong", 6, JOIND_NETWORK_TYPE_SAE, -4000);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariantIter) iter = NULL;
	const gchar *path;
	gint16 strength;

	joind_station_add_network(JOIND_STATION(f->station), weak);
	joind_station_add_network(JOIND_STATION(f->station), strong);

	reply = call(f, "/net/joind/device/7", "net.joind.Station1", "Scan", NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(f->station->n_scans, ==, 1);
	g_assert_true(joind_station_get_scanning(JOIND_STATION(f->station)));
	g_clear_pointer(&reply, g_variant_unref);

	/* The default order: strongest first. */
	reply = call(f, "/net/joind/device/7", "net.joind.Station1", "GetOrderedNetworks", NULL,
	             &error);
	g_assert_no_error(error);
	g_variant_get(reply, "(a(on))", &iter);
	g_assert_true(g_variant_iter_next(iter, "(&on)", &path, &strength));
	g_assert_cmpstr(path, ==, "/net/joind/device/7/network/7374726f6e67_sae");
	g_assert_cmpint(strength, ==, -4000);
	g_assert_true(g_variant_iter_next(iter, "(&on)", &path, &strength));
	g_assert_cmpint(strength, ==, -8000);
	g_assert_false(g_variant_iter_next(iter, "(&on)", &path, &strength));
	g_clear_pointer(&reply, g_variant_unref);

	/* Arguments are checked before the station sees them. */
	reply = call(f, "/net/joind/device/7", "net.joind.Station1", "ConnectHiddenNetwork",
	             g_variant_new("(s)", "0123456789012345678901234567890123"), &error);
	g_assert_null(reply);
	assert_remote_error(error, "net.joind.Error.InvalidArgs");
	g_assert_null(f->station->hidden_ssid);
	g_clear_error(&error);

	reply = call(f, "/net/joind/device/7", "net.joind.Station1", "ConnectHiddenNetwork",
	             g_variant_new("(s)", "secret"), &error);
	assert_remote_error(error, "net.joind.Error.NotFound");
	g_assert_cmpmem(g_bytes_get_data(f->station->hidden_ssid, NULL),
	                g_bytes_get_size(f->station->hidden_ssid), "secret", 6);
	g_clear_error(&error);

	/* Not implemented by this station or network: a clear error, not a hang. */
	reply = call(f, "/net/joind/device/7", "net.joind.Station1", "Disconnect", NULL, &error);
	assert_remote_error(error, "net.joind.Error.NotSupported");
	g_clear_error(&error);
	reply = call(f, joind_network_get_object_path(weak), "net.joind.Network1", "Connect", NULL,
	             &error);
	assert_remote_error(error, "net.joind.Error.NotSupported");
}

static void
test_detach(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) n = network_new("n", 1, JOIND_NETWORK_TYPE_OPEN, -5000);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(GVariant) objects = NULL;
	g_autoptr(GVariant) ifaces = NULL;
	g_autoptr(GVariant) station = NULL;

	joind_station_add_network(JOIND_STATION(f->station), n);
	g_assert_nonnull(joind_network_get_object_path(n));
	joind_device_attach_station(f->device, NULL);
	g_assert_null(joind_network_get_object_path(n));
	reply = call(f, "/net/joind", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
	             NULL, &error);
	g_assert_no_error(error);
	objects = g_variant_get_child_value(reply, 0);
	ifaces =
	        g_variant_lookup_value(objects, "/net/joind/device/7", G_VARIANT_TYPE("a{sa{sv}}"));
	g_assert_nonnull(ifaces);
	g_assert_true(g_variant_lookup(ifaces, "net.joind.Device1", "@a{sv}", NULL));
	station = g_variant_lookup_value(ifaces, "net.joind.Station1", NULL);
	g_assert_null(station);
	g_assert_null(joind_station_get_device(JOIND_STATION(f->station)));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/wifi/station-dbus/properties", Fixture, NULL, fixture_setup,
	           test_station_properties, fixture_teardown);
	g_test_add("/wifi/station-dbus/networks", Fixture, NULL, fixture_setup,
	           test_networks_appear_and_vanish, fixture_teardown);
	g_test_add("/wifi/station-dbus/methods", Fixture, NULL, fixture_setup, test_methods,
	           fixture_teardown);
	g_test_add("/wifi/station-dbus/detach", Fixture, NULL, fixture_setup, test_detach,
	           fixture_teardown);
	return g_test_run();
}
