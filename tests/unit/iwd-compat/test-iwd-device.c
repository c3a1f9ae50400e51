/* test-iwd-device.c - a WiFi device of the model under iwd's API: Station
 * only while powered, StationDiagnostic only while connected, Network
 * objects under it (PSK and SAE twins share one path, none for an SSID
 * that is not UTF-8), ConnectedNetwork and KnownNetwork left out
 * when they have no value, and the properties of one change sent together;
 * AdHoc in ad-hoc mode. */
#include "iwd-device.h"
#include "iwd-names.h"

#define DEVICE_PATH "/net/connman/iwd/1/3"
#define WPA2_PATH   DEVICE_PATH "/742d77706132_psk"

typedef struct {
	GDBusObjectManagerServer *manager;
	JoindDevice *device;
	JoindStation *station;
	IwdDevice *iwd;
} Fixture;

static void
fixture_set_up(Fixture *f, gconstpointer data)
{
	f->manager = g_dbus_object_manager_server_new("/");
	f->device = joind_device_new(3, "wlan9", JOIND_DEVICE_KIND_WIFI, "test");
	joind_device_set_address(f->device, "02:00:00:00:09:00");
	joind_device_set_powered(f->device, TRUE);
	f->station = g_object_new(JOIND_TYPE_STATION, NULL);
	joind_device_attach_station(f->device, f->station);
	f->iwd = iwd_device_new(f->manager, f->device, 1, NULL);
}

static void
fixture_tear_down(Fixture *f, gconstpointer data)
{
	iwd_device_free(f->iwd);
	g_object_unref(f->station);
	g_object_unref(f->device);
	g_object_unref(f->manager);
}

static JoindNetwork *
network_new(const gchar *name, JoindNetworkType type)
{
	g_autoptr(GBytes) ssid = g_bytes_new(name, strlen(name));

	return g_object_new(JOIND_TYPE_NETWORK, "ssid", ssid, "network-type", type, NULL);
}

/* The properties an interface of path exports (NULL: no such interface). */
static GVariant *
props_of(Fixture *f, const gchar *path, const gchar *iface_name)
{
	g_autoptr(GDBusInterface) iface = g_dbus_object_manager_get_interface(
	        G_DBUS_OBJECT_MANAGER(f->manager), path, iface_name);

	if (iface == NULL)
		return NULL;
	return g_dbus_interface_skeleton_get_properties(G_DBUS_INTERFACE_SKELETON(iface));
}

static gboolean
exported(Fixture *f, const gchar *path, const gchar *iface_name)
{
	g_autoptr(GVariant) props = props_of(f, path, iface_name);

	return props != NULL;
}

static void
test_device_and_station(Fixture *f, gconstpointer data)
{
	g_autoptr(GVariant) device = props_of(f, DEVICE_PATH, IWD_IFACE_DEVICE);
	g_autoptr(GVariant) station = props_of(f, DEVICE_PATH, IWD_IFACE_STATION);
	g_autoptr(GVariant) unpowered = NULL;
	const gchar *text = NULL;
	gboolean powered = TRUE;

	g_assert_nonnull(device);
	g_assert_true(g_variant_lookup(device, "Name", "&s", &text));
	g_assert_cmpstr(text, ==, "wlan9");
	g_assert_true(g_variant_lookup(device, "Adapter", "&o", &text));
	g_assert_cmpstr(text, ==, "/net/connman/iwd/1");
	g_assert_true(g_variant_lookup(device, "Mode", "&s", &text));
	g_assert_cmpstr(text, ==, "station");
	g_assert_nonnull(station);
	g_assert_true(g_variant_lookup(station, "State", "&s", &text));
	g_assert_cmpstr(text, ==, "disconnected");
	g_assert_false(g_variant_lookup(station, "ConnectedNetwork", "&o", &text));
	g_assert_false(exported(f, DEVICE_PATH, IWD_IFACE_DIAG));

	joind_device_set_powered(f->device, FALSE);
	g_assert_false(exported(f, DEVICE_PATH, IWD_IFACE_STATION));
	unpowered = props_of(f, DEVICE_PATH, IWD_IFACE_DEVICE);
	g_assert_true(g_variant_lookup(unpowered, "Powered", "b", &powered));
	g_assert_false(powered);
	joind_device_set_powered(f->device, TRUE);
	g_clear_pointer(&station, g_variant_unref);
	station = props_of(f, DEVICE_PATH, IWD_IFACE_STATION);
	g_assert_nonnull(station);
}

static void
test_networks(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) psk = network_new("t-wpa2", JOIND_NETWORK_TYPE_PSK);
	g_autoptr(JoindNetwork) sae = network_new("t-wpa2", JOIND_NETWORK_TYPE_SAE);
	g_autoptr(JoindNetwork) latin1 = network_new("caf\xe9", JOIND_NETWORK_TYPE_OPEN);
	g_autoptr(GVariant) props = NULL;
	const gchar *text = NULL;

	joind_station_add_network(f->station, psk);
	joind_station_add_network(f->station, sae);
	props = props_of(f, WPA2_PATH, IWD_IFACE_NETWORK);
	g_assert_nonnull(props);
	g_assert_true(g_variant_lookup(props, "Name", "&s", &text));
	g_assert_cmpstr(text, ==, "t-wpa2");
	g_assert_true(g_variant_lookup(props, "Type", "&s", &text));
	g_assert_cmpstr(text, ==, "psk");
	g_assert_true(g_variant_lookup(props, "Device", "&o", &text));
	g_assert_cmpstr(text, ==, DEVICE_PATH);
	g_assert_false(g_variant_lookup(props, "KnownNetwork", "&o", &text));
	g_assert_cmpstr(iwd_device_network_path(f->iwd, sae), ==, WPA2_PATH);

	/* The twin takes the path over, then nothing is left. */
	joind_station_remove_network(f->station, psk);
	g_clear_pointer(&props, g_variant_unref);
	props = props_of(f, WPA2_PATH, IWD_IFACE_NETWORK);
	g_assert_nonnull(props);
	joind_station_remove_network(f->station, sae);
	g_assert_false(exported(f, WPA2_PATH, IWD_IFACE_NETWORK));

	/* An SSID that is not UTF-8 has no Network object (iwd's rule). */
	joind_station_add_network(f->station, latin1);
	g_assert_null(iwd_device_network_path(f->iwd, latin1));
	g_assert_false(exported(f, DEVICE_PATH "/636166e9_open", IWD_IFACE_NETWORK));

	/* Unpowered: no Station, so no networks either. */
	joind_station_add_network(f->station, psk);
	g_assert_true(exported(f, WPA2_PATH, IWD_IFACE_NETWORK));
	joind_device_set_powered(f->device, FALSE);
	g_assert_false(exported(f, WPA2_PATH, IWD_IFACE_NETWORK));
}

static void
test_connected(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindNetwork) psk = network_new("t-wpa2", JOIND_NETWORK_TYPE_PSK);
	g_autoptr(GVariant) station = NULL;
	g_autoptr(GVariant) network = NULL;
	const gchar *text = NULL;
	gboolean connected = FALSE;

	joind_station_add_network(f->station, psk);
	joind_station_set_connected_network(f->station, psk);
	joind_network_set_connected(psk, TRUE);
	joind_station_set_state(f->station, JOIND_STATION_STATE_CONNECTED, "test");
	station = props_of(f, DEVICE_PATH, IWD_IFACE_STATION);
	g_assert_true(g_variant_lookup(station, "ConnectedNetwork", "&o", &text));
	g_assert_cmpstr(text, ==, WPA2_PATH);
	g_assert_true(g_variant_lookup(station, "State", "&s", &text));
	g_assert_cmpstr(text, ==, "connected");
	network = props_of(f, WPA2_PATH, IWD_IFACE_NETWORK);
	g_assert_true(g_variant_lookup(network, "Connected", "b", &connected));
	g_assert_true(connected);
	g_assert_true(exported(f, DEVICE_PATH, IWD_IFACE_DIAG));

	joind_station_set_connected_network(f->station, NULL);
	joind_station_set_state(f->station, JOIND_STATION_STATE_DISCONNECTED, "test");
	g_clear_pointer(&station, g_variant_unref);
	station = props_of(f, DEVICE_PATH, IWD_IFACE_STATION);
	g_assert_false(g_variant_lookup(station, "ConnectedNetwork", "&o", &text));
	g_assert_false(exported(f, DEVICE_PATH, IWD_IFACE_DIAG));
}

/* In ad-hoc mode the device's object carries AdHoc as iwd's
 * doc/ad-hoc-api.txt has it: Started and ConnectedPeers follow the model;
 * it goes with the model. */
static void
test_adhoc(Fixture *f, gconstpointer data)
{
	g_autoptr(JoindAdHoc) adhoc = g_object_new(JOIND_TYPE_ADHOC, NULL);
	g_autoptr(GVariant) before = NULL, started = NULL;
	g_autofree const gchar **peers = NULL;
	gboolean on = TRUE;

	g_assert_false(exported(f, DEVICE_PATH, IWD_IFACE_ADHOC));
	joind_device_attach_adhoc(f->device, adhoc);
	before = props_of(f, DEVICE_PATH, IWD_IFACE_ADHOC);
	g_assert_nonnull(before);
	g_assert_true(g_variant_lookup(before, "Started", "b", &on));
	g_assert_false(on);
	joind_adhoc_set_started(adhoc, TRUE, "mesh", "open");
	joind_adhoc_peer_joined(adhoc, "02:00:00:00:0A:00");
	started = props_of(f, DEVICE_PATH, IWD_IFACE_ADHOC);
	g_assert_true(g_variant_lookup(started, "Started", "b", &on));
	g_assert_true(on);
	g_assert_true(g_variant_lookup(started, "ConnectedPeers", "^a&s", &peers));
	g_assert_cmpuint(g_strv_length((gchar **)peers), ==, 1);
	g_assert_cmpstr(peers[0], ==, "02:00:00:00:0a:00");
	joind_device_attach_adhoc(f->device, NULL);
	g_assert_false(exported(f, DEVICE_PATH, IWD_IFACE_ADHOC));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/iwd-compat/device/station", Fixture, NULL, fixture_set_up,
	           test_device_and_station, fixture_tear_down);
	g_test_add("/iwd-compat/device/networks", Fixture, NULL, fixture_set_up, test_networks,
	           fixture_tear_down);
	g_test_add("/iwd-compat/device/adhoc", Fixture, NULL, fixture_set_up, test_adhoc,
	           fixture_tear_down);
	g_test_add("/iwd-compat/device/connected", Fixture, NULL, fixture_set_up, test_connected,
	           fixture_tear_down);
	return g_test_run();
}
