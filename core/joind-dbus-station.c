/* joind-dbus-station.c - Station1 on a WiFi device's object and Network1
 * objects under it, bound to the plugin's JoindStation and JoindNetworks.
 *
 * Properties are copied onto the skeletons by GBindings on the station and
 * by one "notify" handler per network (a GBinding per property cost a
 * network about 2 KiB more; bench/footprint), so every change is
 * signalled; method calls take the core's one call path (joind-dbus-call.h)
 * to the station or network.
 */
#include "joind-dbus-station.h"

#include "joind-dbus-bind.h"
#include "joind-dbus-call.h"
#include "joind-dbus-known.h"
#include "joind-error.h"
#include "joind-observer.h"
#include "joind-profile-private.h"
#include "joind-station-private.h"

struct _JoindDBusStationExport {
	GDBusObjectManagerServer *manager;
	JoindDBusObject *device_object; /* the device export's */
	JoindDevice *device;            /* the export lives as the device's data */
	JoindStation *station;
	JoindDBusStation1 *iface;
	GHashTable *networks; /* JoindNetwork -> GDBusObjectSkeleton */
	gulong notify_id;
};

/* ---- paths ---------------------------------------------------------------- */

JOIND_DBUS_ENUM_TRANSFORM(transform_station_state, joind_station_state_to_string)

static gboolean
transform_network_path(GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
	JoindNetwork *network = g_value_get_object(from);
	const gchar *path = network != NULL ? joind_network_get_object_path(network) : NULL;

	g_value_set_string(to, path != NULL ? path : "/");
	return TRUE;
}

/* ---- method calls --------------------------------------------------------- */

/* Scan, Disconnect, ConnectHiddenNetwork and Connect: the run shared with
 * front ends (joind-observer.h). */
static void
op_start(JoindDBusCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, target, GPOINTER_TO_INT(data));
}

static void
roam_start(JoindDBusCall *call, gpointer station, gpointer data)
{
	GVariant *params =
	        g_dbus_method_invocation_get_parameters(joind_dbus_call_get_invocation(call));
	const gchar *bssid = NULL;
	g_autoptr(GError) error = NULL;

	g_variant_get(params, "(&s)", &bssid);
	if (!joind_station_roam(station, bssid, &error))
		joind_dbus_call_return_error(call, error);
	else
		joind_dbus_call_return(call, NULL);
}

static gboolean
transform_access_point(GBinding *binding, const GValue *from, GValue *to, gpointer user_data)
{
	const gchar *bssid = g_value_get_string(from);

	g_value_set_string(to, bssid != NULL ? bssid : "");
	return TRUE;
}

static void
ordered_networks_start(JoindDBusCall *call, gpointer station, gpointer data)
{
	g_autoptr(GPtrArray) networks = joind_station_get_ordered_networks(station);
	GVariantBuilder builder;

	g_variant_builder_init(&builder, G_VARIANT_TYPE("a(on)"));
	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *network = g_ptr_array_index(networks, i);
		const gchar *path = joind_network_get_object_path(network);

		if (path != NULL)
			g_variant_builder_add(&builder, "(on)", path,
			                      (gint16)joind_network_get_strength(network));
	}
	joind_dbus_call_return(call, g_variant_new("(a(on))", &builder));
}

/* ---- networks ------------------------------------------------------------- */

/* Network1 follows its network; pspec NULL: every property. */
static void
network_sync(JoindNetwork *network, GParamSpec *pspec, gpointer user_data)
{
	JoindDBusNetwork1 *iface = user_data;
	const gchar *what = pspec != NULL ? pspec->name : NULL;

	if (what == NULL || g_str_equal(what, "name"))
		joind_dbus_network1_set_name(iface, joind_network_get_name(network));
	if (what == NULL || g_str_equal(what, "strength"))
		joind_dbus_network1_set_strength(iface, joind_network_get_strength(network));
	if (what == NULL || g_str_equal(what, "security")) {
		g_autofree gchar *security = NULL;

		g_object_get(network, "security", &security, NULL);
		joind_dbus_network1_set_security(iface, security);
	}
	if (what == NULL || g_str_equal(what, "connected")) {
		gboolean connected = FALSE;

		g_object_get(network, "connected", &connected, NULL);
		joind_dbus_network1_set_connected(iface, connected);
	}
	if (what == NULL || g_str_equal(what, "profile")) {
		JoindProfile *profile = joind_network_get_profile(network);
		g_autofree gchar *known = profile != NULL ? joind_dbus_known_path(profile) : NULL;

		joind_dbus_network1_set_known_network(iface, known != NULL ? known : "/");
	}
}

static void
network_export(JoindDBusStationExport *exp, JoindNetwork *network)
{
	const gchar *device_path = joind_dbus_object_get_path(exp->device_object);
	JoindNetworkType type = joind_network_get_network_type(network);
	g_autofree gchar *hex = NULL;
	const guint8 *ssid;
	gsize ssid_len = 0;
	g_autofree gchar *path = NULL;
	g_autoptr(JoindDBusNetwork1) iface = NULL;
	GDBusObjectSkeleton *object;

	if (g_hash_table_contains(exp->networks, network))
		return;
	ssid = g_bytes_get_data(joind_network_get_ssid(network), &ssid_len);
	hex = joind_ssid_hex(ssid, ssid_len);
	path = g_strdup_printf("%s/network/%s_%s", device_path, hex,
	                       joind_network_type_to_string(type));
	object = g_dbus_object_skeleton_new(path);
	iface = joind_dbus_network1_skeleton_new();
	joind_dbus_network1_set_type_(iface, joind_network_type_to_string(type));
	joind_dbus_network1_set_device(iface, device_path);
	network_sync(network, NULL, iface);
	g_signal_connect(network, "notify", G_CALLBACK(network_sync), iface);
	joind_dbus_call_connect(iface, "handle-connect", network, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_CONNECT));
	g_dbus_object_skeleton_add_interface(object, G_DBUS_INTERFACE_SKELETON(iface));
	joind_network_set_object_path(network, path);
	g_hash_table_insert(exp->networks, g_object_ref(network), object);
	g_dbus_object_manager_server_export(exp->manager, object);
}

static void
network_unexport(JoindDBusStationExport *exp, JoindNetwork *network)
{
	GDBusObjectSkeleton *object = g_hash_table_lookup(exp->networks, network);

	if (object == NULL)
		return;
	g_signal_handlers_disconnect_matched(network, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, network_sync,
	                                     NULL);
	g_dbus_object_manager_server_unexport(exp->manager,
	                                      g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
	joind_network_set_object_path(network, NULL);
	g_hash_table_remove(exp->networks, network);
}

static void
on_network_added(JoindStation *station, JoindNetwork *network, gpointer user_data)
{
	network_export(user_data, network);
}

static void
on_network_removed(JoindStation *station, JoindNetwork *network, gpointer user_data)
{
	network_unexport(user_data, network);
}

/* ---- the station ---------------------------------------------------------- */

static void
station_detach(JoindDBusStationExport *exp)
{
	g_autoptr(GList) networks = NULL;

	if (exp->station == NULL)
		return;
	g_signal_handlers_disconnect_by_data(exp->station, exp);
	networks = g_hash_table_get_keys(exp->networks);
	for (GList *l = networks; l != NULL; l = l->next)
		network_unexport(exp, l->data);
	joind_dbus_object_remove(exp->device_object, G_DBUS_INTERFACE_SKELETON(exp->iface));
	g_clear_object(&exp->iface);
	g_clear_object(&exp->station);
}

static void
station_attach(JoindDBusStationExport *exp, JoindStation *station)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(station);

	exp->station = g_object_ref(station);
	exp->iface = joind_dbus_station1_skeleton_new();
	g_object_bind_property(station, "scanning", exp->iface, "scanning", G_BINDING_SYNC_CREATE);
	g_object_bind_property_full(station, "state", exp->iface, "state", G_BINDING_SYNC_CREATE,
	                            transform_station_state, NULL, NULL, NULL);
	joind_dbus_call_connect(exp->iface, "handle-scan", station, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_SCAN));
	joind_dbus_call_connect(exp->iface, "handle-disconnect", station, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_DISCONNECT));
	joind_dbus_call_connect(exp->iface, "handle-connect-hidden-network", station, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_CONNECT_HIDDEN));
	joind_dbus_call_connect(exp->iface, "handle-get-ordered-networks", station,
	                        ordered_networks_start, NULL);
	joind_dbus_call_connect(exp->iface, "handle-roam", station, roam_start, NULL);
	g_object_bind_property_full(station, "connected-access-point", exp->iface,
	                            "connected-access-point", G_BINDING_SYNC_CREATE,
	                            transform_access_point, NULL, NULL, NULL);
	g_signal_connect(station, "network-added", G_CALLBACK(on_network_added), exp);
	g_signal_connect(station, "network-removed", G_CALLBACK(on_network_removed), exp);
	for (guint i = 0; i < networks->len; i++)
		network_export(exp, g_ptr_array_index(networks, i));
	/* After the networks, so the connected one already has its path. */
	g_object_bind_property_full(station, "connected-network", exp->iface, "connected-network",
	                            G_BINDING_SYNC_CREATE, transform_network_path, NULL, NULL,
	                            NULL);
	joind_dbus_object_add(exp->device_object, G_DBUS_INTERFACE_SKELETON(exp->iface));
}

static void
station_sync(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	JoindDBusStationExport *exp = user_data;
	JoindStation *station = joind_device_get_station(device);

	if (station == exp->station)
		return;
	station_detach(exp);
	if (station != NULL)
		station_attach(exp, station);
}

JoindDBusStationExport *
joind_dbus_station_export_new(GDBusObjectManagerServer *manager, JoindDBusObject *device_object,
                              JoindDevice *device)
{
	JoindDBusStationExport *exp = g_new0(JoindDBusStationExport, 1);

	exp->manager = manager;
	exp->device_object = device_object;
	exp->device = device;
	exp->networks = g_hash_table_new_full(g_direct_hash, g_direct_equal, g_object_unref,
	                                      g_object_unref);
	station_sync(device, NULL, exp);
	exp->notify_id = g_signal_connect(device, "notify::station", G_CALLBACK(station_sync), exp);
	return exp;
}

void
joind_dbus_station_export_free(JoindDBusStationExport *exp)
{
	if (exp == NULL)
		return;
	g_clear_signal_handler(&exp->notify_id, exp->device);
	station_detach(exp);
	g_hash_table_unref(exp->networks);
	g_free(exp);
}
