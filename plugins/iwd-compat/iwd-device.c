/* iwd-device.c - a WiFi device under iwd's API (see iwd-device.h).
 *
 * iwd shows Station only on a powered device in station mode and Network
 * objects only under a Station, so both come and go with the device's
 * power and its station; a device that appears powered carries its
 * Station in the same InterfacesAdded.
 */
#include "iwd-device.h"

#include "iwd-adhoc.h"
#include "iwd-ap.h"
#include "iwd-calls.h"
#include "iwd-diagnostics.h"
#include "iwd-iface.h"
#include "iwd-introspection.h"
#include "iwd-names.h"

typedef struct {
	GDBusObjectSkeleton *object;
	IwdIface *iface;
	gchar *path;
	gulong notify_id;
} IwdNetwork;

struct _IwdDevice {
	GDBusObjectManagerServer *manager;
	IwdKnown *known;
	JoindDevice *device;
	gchar *path;
	gchar *adapter_path;
	GDBusObjectSkeleton *object;
	IwdIface *device_iface;
	gulong device_notify_id;
	/* While a Station is shown: */
	JoindStation *station;
	IwdIface *station_iface;
	IwdIface *diagnostic_iface;
	gboolean diagnostic_shown;
	gulong station_ids[3]; /* notify, network-added, network-removed */
	GHashTable *networks;  /* JoindNetwork -> IwdNetwork */
	IwdAp *ap;             /* while the device is in AP mode */
	IwdAdHoc *adhoc;       /* while the device is in ad-hoc mode */
};

/* ---- networks ---------------------------------------------------------------- */

/* As iwd: the network being connected to counts from the start of the
 * attempt, like Station.ConnectedNetwork. */
static gboolean
network_is_target(JoindStation *station, JoindNetwork *network)
{
	gboolean connected = FALSE;

	if (station != NULL && joind_station_get_target_network(station) != NULL)
		return joind_station_get_target_network(station) == network;
	g_object_get(network, "connected", &connected, NULL);
	return connected;
}

static void
network_sync(IwdDevice *self, JoindNetwork *network, IwdIface *iface)
{
	JoindProfile *profile = joind_network_get_profile(network);
	g_autofree gchar *known = profile != NULL
	                                  ? iwd_known_path(joind_profile_get_ssid(profile),
	                                                   joind_profile_get_profile_type(profile))
	                                  : NULL;

	iwd_iface_set(iface, "Name", g_variant_new_string(joind_network_get_name(network)));
	iwd_iface_set(iface, "Connected",
	              g_variant_new_boolean(network_is_target(self->station, network)));
	iwd_iface_set(iface, "Device", g_variant_new_object_path(self->path));
	iwd_iface_set(
	        iface, "Type",
	        g_variant_new_string(iwd_network_type(joind_network_get_network_type(network))));
	iwd_iface_set(iface, "KnownNetwork",
	              known != NULL ? g_variant_new_object_path(known) : NULL);
}

static void
network_changed(JoindNetwork *network, GParamSpec *pspec, gpointer user_data)
{
	IwdDevice *self = user_data;
	IwdNetwork *n = g_hash_table_lookup(self->networks, network);

	if (n != NULL)
		network_sync(self, network, n->iface);
}

static void
network_free(gpointer data)
{
	IwdNetwork *n = data;

	g_object_unref(n->object);
	g_object_unref(n->iface);
	g_free(n->path);
	g_free(n);
}

/* Two networks of one SSID and iwd type (SAE beside PSK) share a path: the
 * first one seen is shown, another one when it goes. */
static void
network_export_if_free(IwdDevice *self, IwdNetwork *n)
{
	g_autoptr(GDBusObject) there =
	        g_dbus_object_manager_get_object(G_DBUS_OBJECT_MANAGER(self->manager), n->path);

	if (there == NULL)
		g_dbus_object_manager_server_export(self->manager, n->object);
}

static void
network_add(IwdDevice *self, JoindNetwork *network)
{
	GBytes *ssid = joind_network_get_ssid(network);
	IwdNetwork *n;

	/* iwd shows only networks whose SSID is UTF-8 (its Name is the SSID
	 * as it is); clients of its API never meet the others. */
	if (g_hash_table_contains(self->networks, network) ||
	    !g_utf8_validate(g_bytes_get_data(ssid, NULL), (gssize)g_bytes_get_size(ssid), NULL))
		return;
	n = g_new0(IwdNetwork, 1);
	n->path = iwd_network_path(self->path, joind_network_get_ssid(network),
	                           joind_network_get_network_type(network));
	n->iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_NETWORK), iwd_network_methods,
	                         NULL, network);
	iwd_iface_set_context(n->iface, self);
	network_sync(self, network, n->iface);
	n->object = g_dbus_object_skeleton_new(n->path);
	g_dbus_object_skeleton_add_interface(n->object, G_DBUS_INTERFACE_SKELETON(n->iface));
	n->notify_id = g_signal_connect(network, "notify", G_CALLBACK(network_changed), self);
	g_hash_table_insert(self->networks, g_object_ref(network), n);
	network_export_if_free(self, n);
}

static void
network_remove(IwdDevice *self, JoindNetwork *network)
{
	IwdNetwork *n = g_hash_table_lookup(self->networks, network);

	if (n == NULL)
		return;
	g_signal_handler_disconnect(network, n->notify_id);
	if (g_dbus_object_manager_server_is_exported(self->manager, n->object)) {
		GHashTableIter iter;
		gpointer other;

		g_dbus_object_manager_server_unexport(self->manager, n->path);
		g_hash_table_iter_init(&iter, self->networks);
		while (g_hash_table_iter_next(&iter, NULL, &other))
			if (other != n && g_str_equal(((IwdNetwork *)other)->path, n->path))
				network_export_if_free(self, other);
	}
	g_hash_table_remove(self->networks, network);
}

const gchar *
iwd_device_network_path(IwdDevice *self, JoindNetwork *network)
{
	IwdNetwork *n = network != NULL ? g_hash_table_lookup(self->networks, network) : NULL;

	return n != NULL ? n->path : NULL;
}

/* ---- the station ------------------------------------------------------------- */

/* iwd has StationDiagnostic on the station's object only while connected
 * (iwctl's station show asks for diagnostics whenever it is there). */
static void
diagnostic_show(IwdDevice *self, gboolean show)
{
	GDBusInterfaceSkeleton *iface = G_DBUS_INTERFACE_SKELETON(self->diagnostic_iface);

	if (show == self->diagnostic_shown)
		return;
	self->diagnostic_shown = show;
	if (show)
		g_dbus_object_skeleton_add_interface(self->object, iface);
	else
		g_dbus_object_skeleton_remove_interface(self->object, iface);
}

/* iwd names the network from the start of the attempt ("connecting"),
 * and NetworkManager follows an attempt the daemon started (autoconnect)
 * only through it; a network not exported (yet) is not named. */
static const gchar *
station_connected_path(IwdDevice *self)
{
	JoindNetwork *target = joind_station_get_target_network(self->station);

	return iwd_device_network_path(
	        self, target != NULL ? target : joind_station_get_connected_network(self->station));
}

static void
networks_sync(IwdDevice *self)
{
	GHashTableIter iter;
	gpointer network, n;

	g_hash_table_iter_init(&iter, self->networks);
	while (g_hash_table_iter_next(&iter, &network, &n))
		network_sync(self, network, ((IwdNetwork *)n)->iface);
}

static void
station_sync(IwdDevice *self)
{
	JoindStation *station = self->station;
	const gchar *connected = station_connected_path(self);

	/* One PropertiesChanged carries ConnectedNetwork with the State that
	 * needs it (the interface sends its changes together). */
	iwd_iface_set(self->station_iface, "ConnectedNetwork",
	              connected != NULL ? g_variant_new_object_path(connected) : NULL);
	iwd_iface_set(self->station_iface, "State",
	              g_variant_new_string(
	                      joind_station_state_to_string(joind_station_get_state(station))));
	iwd_iface_set(self->station_iface, "Scanning",
	              g_variant_new_boolean(joind_station_get_scanning(station)));
	/* iwd's "roaming" is still connected (NetworkManager takes it so):
	 * the diagnostics stay. */
	diagnostic_show(self,
	                joind_station_get_state(station) == JOIND_STATION_STATE_CONNECTED ||
	                        joind_station_get_state(station) == JOIND_STATION_STATE_ROAMING);
}

static void
station_changed(JoindStation *station, GParamSpec *pspec, gpointer user_data)
{
	IwdDevice *self = user_data;

	station_sync(self);
	if (g_str_equal(pspec->name, "target-network"))
		networks_sync(self);
	if (self->known != NULL && g_str_equal(pspec->name, "state") &&
	    joind_station_get_state(station) == JOIND_STATION_STATE_CONNECTED)
		iwd_known_refresh(self->known);
}

static void
station_network_added(JoindStation *station, JoindNetwork *network, gpointer user_data)
{
	network_add(user_data, network);
	/* The target may have been waiting for its object. */
	station_sync(user_data);
}

static void
station_network_removed(JoindStation *station, JoindNetwork *network, gpointer user_data)
{
	IwdDevice *self = user_data;

	network_remove(self, network);
	station_sync(self);
}

static void
station_show(IwdDevice *self, JoindStation *station)
{
	g_autoptr(GPtrArray) networks = joind_station_get_networks(station);

	self->station = g_object_ref(station);
	self->station_iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_STATION),
	                                    iwd_station_methods, NULL, station);
	iwd_iface_set_context(self->station_iface, self);
	self->diagnostic_iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_DIAG),
	                                       iwd_diagnostic_methods, NULL, self->device);
	self->station_ids[0] =
	        g_signal_connect(station, "notify", G_CALLBACK(station_changed), self);
	self->station_ids[1] =
	        g_signal_connect(station, "network-added", G_CALLBACK(station_network_added), self);
	self->station_ids[2] = g_signal_connect(station, "network-removed",
	                                        G_CALLBACK(station_network_removed), self);
	station_sync(self);
	g_dbus_object_skeleton_add_interface(self->object,
	                                     G_DBUS_INTERFACE_SKELETON(self->station_iface));
	for (guint i = 0; i < networks->len; i++)
		network_add(self, g_ptr_array_index(networks, i));
	station_sync(self);
}

static void
station_hide(IwdDevice *self)
{
	g_autoptr(GList) networks = NULL;

	if (self->station == NULL)
		return;
	for (guint i = 0; i < G_N_ELEMENTS(self->station_ids); i++)
		g_clear_signal_handler(&self->station_ids[i], self->station);
	networks = g_hash_table_get_keys(self->networks);
	for (GList *l = networks; l != NULL; l = l->next)
		network_remove(self, l->data);
	diagnostic_show(self, FALSE);
	g_dbus_object_skeleton_remove_interface(self->object,
	                                        G_DBUS_INTERFACE_SKELETON(self->station_iface));
	g_clear_object(&self->diagnostic_iface);
	g_clear_object(&self->station_iface);
	g_clear_object(&self->station);
}

/* ---- the device -------------------------------------------------------------- */

/* AccessPoint comes with the device's access point, before the device is
 * powered in AP mode (NetworkManager looks for it when Powered turns
 * true), and goes with it. */
static void
device_sync_ap(IwdDevice *self)
{
	JoindAccessPoint *access_point = joind_device_get_access_point(self->device);

	if (self->ap != NULL && iwd_ap_get_model(self->ap) == access_point)
		return;
	g_clear_pointer(&self->ap, iwd_ap_free);
	if (access_point != NULL)
		self->ap = iwd_ap_new(self->object, access_point);
}

/* AdHoc likewise, in ad-hoc mode. */
static void
device_sync_adhoc(IwdDevice *self)
{
	JoindAdHoc *adhoc = joind_device_get_adhoc(self->device);

	if (self->adhoc != NULL && iwd_adhoc_get_model(self->adhoc) == adhoc)
		return;
	g_clear_pointer(&self->adhoc, iwd_adhoc_free);
	if (adhoc != NULL)
		self->adhoc = iwd_adhoc_new(self->object, adhoc);
}

static void
device_sync(IwdDevice *self)
{
	JoindDevice *device = self->device;
	JoindStation *station = joind_device_get_station(device);
	const gchar *address = joind_device_get_address(device);

	iwd_iface_set(self->device_iface, "Name",
	              g_variant_new_string(joind_device_get_name(device)));
	iwd_iface_set(self->device_iface, "Address",
	              g_variant_new_string(address != NULL ? address : ""));
	iwd_iface_set(self->device_iface, "Powered",
	              g_variant_new_boolean(joind_device_get_powered(device)));
	iwd_iface_set(self->device_iface, "Adapter", g_variant_new_object_path(self->adapter_path));
	iwd_iface_set(
	        self->device_iface, "Mode",
	        g_variant_new_string(joind_device_mode_to_string(joind_device_get_mode(device))));
	device_sync_ap(self);
	device_sync_adhoc(self);
	if (!joind_device_get_powered(device))
		station = NULL;
	if (station != self->station) {
		station_hide(self);
		if (station != NULL)
			station_show(self, station);
	}
}

static void
device_changed(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	device_sync(user_data);
}

IwdDevice *
iwd_device_new(GDBusObjectManagerServer *manager, JoindDevice *device, guint phy, IwdKnown *known)
{
	IwdDevice *self = g_new0(IwdDevice, 1);

	self->manager = g_object_ref(manager);
	self->known = known;
	self->device = g_object_ref(device);
	self->path = iwd_device_path(phy, joind_device_get_ifindex(device));
	self->adapter_path = iwd_adapter_path(phy);
	self->networks =
	        g_hash_table_new_full(g_direct_hash, g_direct_equal, g_object_unref, network_free);
	self->object = g_dbus_object_skeleton_new(self->path);
	self->device_iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_DEVICE), NULL,
	                                   iwd_device_set_property, device);
	iwd_iface_set_context(self->device_iface, self);
	g_dbus_object_skeleton_add_interface(self->object,
	                                     G_DBUS_INTERFACE_SKELETON(self->device_iface));
	/* Station (when powered) before the object goes out, so that both are
	 * in one InterfacesAdded; its networks follow. */
	device_sync(self);
	g_dbus_object_manager_server_export(manager, self->object);
	self->device_notify_id =
	        g_signal_connect(device, "notify", G_CALLBACK(device_changed), self);
	return self;
}

void
iwd_device_free(IwdDevice *self)
{
	if (self == NULL)
		return;
	g_signal_handler_disconnect(self->device, self->device_notify_id);
	station_hide(self);
	g_clear_pointer(&self->ap, iwd_ap_free);
	g_clear_pointer(&self->adhoc, iwd_adhoc_free);
	g_dbus_object_manager_server_unexport(self->manager, self->path);
	g_object_unref(self->object);
	g_object_unref(self->device_iface);
	g_hash_table_unref(self->networks);
	g_object_unref(self->device);
	g_object_unref(self->manager);
	g_free(self->path);
	g_free(self->adapter_path);
	g_free(self);
}

gchar *
iwd_device_map_path(IwdDevice *self, const gchar *joind_path)
{
	GHashTableIter iter;
	gpointer network, n;

	if (g_strcmp0(joind_device_get_object_path(self->device), joind_path) == 0)
		return g_strdup(self->path);
	g_hash_table_iter_init(&iter, self->networks);
	while (g_hash_table_iter_next(&iter, &network, &n))
		if (g_strcmp0(joind_network_get_object_path(network), joind_path) == 0)
			return g_strdup(((IwdNetwork *)n)->path);
	return NULL;
}
