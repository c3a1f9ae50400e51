/* test-devices.c - Ethernet links as Device objects, on the real daemon.
 *
 * The test moves into a network namespace of its own, creates veth pairs
 * with ip(8), and watches the daemon's object tree with an ObjectManager
 * client, as a desktop panel would.
 */
#include <string.h>

#include "test-daemon.h"

typedef struct {
	TestDaemon *daemon;
	GDBusObjectManager *manager;
	GPtrArray *states; /* State values seen in PropertiesChanged, per signal */
	gchar *watch_path;
	guint signal_id;
} Fixture;

static GDBusObjectManager *
manager_new(TestDaemon *d)
{
	g_autoptr(GError) error = NULL;
	GDBusObjectManager *m = g_dbus_object_manager_client_new_sync(
	        d->conn, G_DBUS_OBJECT_MANAGER_CLIENT_FLAGS_NONE, "net.joind", "/net/joind", NULL,
	        NULL, NULL, NULL, &error);

	g_assert_no_error(error);
	return m;
}

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->daemon = test_daemon_start(g_getenv("JOIND_PLUGIN_DIR"), NULL);
	f->manager = manager_new(f->daemon);
	f->states = g_ptr_array_new_with_free_func(g_free);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	if (f->signal_id != 0)
		g_dbus_connection_signal_unsubscribe(f->daemon->conn, f->signal_id);
	g_clear_object(&f->manager);
	g_assert_cmpint(test_daemon_stop(f->daemon), ==, 0);
	g_ptr_array_unref(f->states);
	g_free(f->watch_path);
	g_spawn_command_line_sync("ip link del jt0", NULL, NULL, NULL, NULL);
}

/* The Device1 proxy of the device called name, or NULL. */
static GDBusProxy *
find_device(GDBusObjectManager *m, const gchar *name)
{
	g_autolist(GDBusObject) objects = g_dbus_object_manager_get_objects(m);

	for (GList *l = objects; l != NULL; l = l->next) {
		g_autoptr(GDBusInterface) iface =
		        g_dbus_object_get_interface(l->data, "net.joind.Device1");
		g_autoptr(GVariant) v = NULL;

		if (iface == NULL)
			continue;
		v = g_dbus_proxy_get_cached_property(G_DBUS_PROXY(iface), "Name");
		if (v != NULL && g_str_equal(g_variant_get_string(v, NULL), name))
			return G_DBUS_PROXY(g_steal_pointer(&iface));
	}
	return NULL;
}

typedef struct {
	GDBusObjectManager *m;
	const gchar *name;
	const gchar *prop;
	const gchar *value; /* NULL: wait for the device to exist / vanish */
	gboolean gone;
} DeviceWait;

static gboolean
device_condition(gpointer data)
{
	DeviceWait *w = data;
	g_autoptr(GDBusProxy) p = find_device(w->m, w->name);
	g_autoptr(GVariant) v = NULL;

	if (w->gone)
		return p == NULL;
	if (p == NULL)
		return FALSE;
	if (w->prop == NULL)
		return TRUE;
	v = g_dbus_proxy_get_cached_property(p, w->prop);
	return v != NULL && g_str_equal(g_variant_get_string(v, NULL), w->value);
}

static void
wait_device(Fixture *f, const gchar *name, const gchar *prop, const gchar *value, gboolean gone)
{
	DeviceWait w = {f->manager, name, prop, value, gone};

	if (!test_wait_until(device_condition, &w, 5000)) {
		g_autofree gchar *log = test_daemon_get_log(f->daemon);
		g_error("timed out waiting for %s %s=%s%s; daemon log:\n%s", name, prop ? prop : "",
		        value ? value : "", gone ? " to vanish" : "", log);
	}
}

static gchar *
device_string(GDBusProxy *p, const gchar *prop)
{
	g_autoptr(GVariant) v = g_dbus_proxy_get_cached_property(p, prop);

	g_assert_nonnull(v);
	return g_variant_dup_string(v, NULL);
}

static void
test_cold_plug(Fixture *f, gconstpointer data)
{
	g_autoptr(GDBusProxy) lo = NULL;

	/* jt0/jt1 were made before this daemon started (see main). */
	wait_device(f, "jc0", NULL, NULL, FALSE);
	wait_device(f, "jc1", NULL, NULL, FALSE);
	lo = find_device(f->manager, "lo");
	g_assert_null(lo);
}

static void
test_veth_appears(Fixture *f, gconstpointer data)
{
	g_autoptr(GDBusProxy) p = NULL;
	g_autoptr(GVariant) powered = NULL;
	g_autofree gchar *address = NULL;
	g_autofree gchar *kind = NULL;
	g_autofree gchar *plugin = NULL;
	g_autofree gchar *state = NULL;
	g_autofree gchar *path = NULL;

	test_run("ip link add jt0 address 02:00:00:00:10:01 type veth peer name jt1 "
	         "address 02:00:00:00:10:02");
	wait_device(f, "jt0", NULL, NULL, FALSE);
	wait_device(f, "jt1", NULL, NULL, FALSE);
	p = find_device(f->manager, "jt0");
	address = device_string(p, "Address");
	kind = device_string(p, "Kind");
	plugin = device_string(p, "Plugin");
	state = device_string(p, "State");
	powered = g_dbus_proxy_get_cached_property(p, "Powered");
	g_assert_cmpstr(address, ==, "02:00:00:00:10:01");
	g_assert_cmpstr(kind, ==, "ethernet");
	g_assert_cmpstr(plugin, ==, "ethernet-8021x");
	g_assert_cmpstr(state, ==, "down");
	g_assert_false(g_variant_get_boolean(powered));
	/* The object path is /net/joind/device/<ifindex>. */
	path = g_strdup(g_dbus_proxy_get_object_path(p));
	g_assert_true(g_str_has_prefix(path, "/net/joind/device/"));
}

static void
on_properties_changed(GDBusConnection *c, const gchar *sender, const gchar *path,
                      const gchar *iface, const gchar *signal, GVariant *params, gpointer data)
{
	Fixture *f = data;
	const gchar *interface;
	g_autoptr(GVariant) changed = NULL;
	const gchar *state = NULL;

	g_variant_get(params, "(&s@a{sv}@as)", &interface, &changed, NULL);
	if (g_str_equal(interface, "net.joind.Device1") &&
	    g_variant_lookup(changed, "State", "&s", &state))
		g_ptr_array_add(f->states, g_strdup(state));
}

static gboolean
states_seen(gpointer data)
{
	Fixture *f = data;

	return f->states->len > 0 &&
	       g_str_equal(g_ptr_array_index(f->states, f->states->len - 1), f->watch_path);
}

static void
test_state_signals(Fixture *f, gconstpointer data)
{
	g_autoptr(GDBusProxy) p = NULL;

	test_run("ip link add jt0 type veth peer name jt1");
	wait_device(f, "jt0", NULL, NULL, FALSE);
	p = find_device(f->manager, "jt0");
	f->signal_id = g_dbus_connection_signal_subscribe(
	        f->daemon->conn, "net.joind", "org.freedesktop.DBus.Properties",
	        "PropertiesChanged", g_dbus_proxy_get_object_path(p), NULL,
	        G_DBUS_SIGNAL_FLAGS_NONE, on_properties_changed, f, NULL);

	/* Up on both ends: carrier. (watch_path holds the awaited state.) */
	test_run("ip link set jt1 up");
	test_run("ip link set jt0 up");
	f->watch_path = g_strdup("up");
	g_assert_true(test_wait_until(states_seen, f, 5000));
	/* Peer down: no carrier, still powered. */
	test_run("ip link set jt1 down");
	g_free(f->watch_path);
	f->watch_path = g_strdup("no-carrier");
	g_assert_true(test_wait_until(states_seen, f, 5000));
	test_run("ip link set jt0 down");
	g_free(f->watch_path);
	f->watch_path = g_strdup("down");
	g_assert_true(test_wait_until(states_seen, f, 5000));
	wait_device(f, "jt0", "State", "down", FALSE);
}

static void
test_link_removed(Fixture *f, gconstpointer data)
{
	test_run("ip link add jt0 type veth peer name jt1");
	wait_device(f, "jt1", NULL, NULL, FALSE);
	test_run("ip link del jt0");
	wait_device(f, "jt0", NULL, NULL, TRUE);
	wait_device(f, "jt1", NULL, NULL, TRUE);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (!test_enter_private_netns()) {
		g_test_skip("needs root for a private network namespace");
		return g_test_run();
	}
	test_run("ip link add jc0 type veth peer name jc1");
	g_test_add("/dbus/devices/cold-plug", Fixture, NULL, fixture_setup, test_cold_plug,
	           fixture_teardown);
	g_test_add("/dbus/devices/veth-appears", Fixture, NULL, fixture_setup, test_veth_appears,
	           fixture_teardown);
	g_test_add("/dbus/devices/state-signals", Fixture, NULL, fixture_setup, test_state_signals,
	           fixture_teardown);
	g_test_add("/dbus/devices/link-removed", Fixture, NULL, fixture_setup, test_link_removed,
	           fixture_teardown);
	return g_test_run();
}
