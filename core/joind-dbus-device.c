/* joind-dbus-device.c - Device1 and Port8021x1 skeletons that follow their
 * objects.
 *
 * Each exported device carries a DeviceExport (object data) that owns its
 * skeletons. One "notify" handler per object copies its properties onto the
 * skeleton, which emits PropertiesChanged for those that changed, so
 * clients never have to poll. (A GBinding per property cost about 6 KiB of
 * heap per device: bench/footprint.)
 */
#include "joind-dbus-device.h"

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-dbus-hosted.h"
#include "joind-dbus-object.h"
#include "joind-device-private.h"
#include "joind-observer.h"
#include "joind-port-private.h"
#include "joind-dbus-station.h"

#define EXPORT_KEY "joind-dbus-export"

typedef struct {
	JoindDBusObject *object;
	JoindDBusDevice1 *device_iface;
	JoindDBusPort8021x1 *port_iface;
	JoindPort8021x *port;
	JoindProfileStore *store;
	JoindDBusStationExport *station;     /* WiFi devices only */
	JoindDBusHostedExport *access_point; /* WiFi devices only */
	JoindDBusHostedExport *adhoc;        /* WiFi devices only */
} DeviceExport;

/* The exports with a port, for the store's one "profile-error" handler:
 * a handler per device cost about 220 bytes of heap each. */
#define EXPORTS_KEY "joind-dbus-device-exports"

/* D-Bus strings cannot be NULL. */
static const gchar *
nonnull(const gchar *s)
{
	return s != NULL ? s : "";
}

/* ---- Port8021x1 ---------------------------------------------------------- */

typedef enum {
	PORT_REAUTHENTICATE,
	PORT_LOGOFF,
} PortAction;

static void
port_run(JoindDBusCall *call, gpointer port, gpointer data)
{
	g_autoptr(GError) error = NULL;
	gboolean ok = GPOINTER_TO_INT(data) == PORT_REAUTHENTICATE
	                      ? joind_port_8021x_reauthenticate(port, &error)
	                      : joind_port_8021x_logoff(port, &error);

	/* The state the action entered goes out before the reply (the call
	 * path flushes the interface), so a client that reads State on the
	 * reply sees the new one, not the old. */
	joind_dbus_call_return_result(call, ok, error);
}

/* The skeleton of one port, answering its methods in class handlers: a
 * "handle-*" handler per method and port cost about 200 bytes of heap
 * each. */
typedef struct {
	JoindDBusPort8021x1Skeleton parent;
	JoindPort8021x *port;
} JoindPortSkeleton;
typedef JoindDBusPort8021x1SkeletonClass JoindPortSkeletonClass;

GType joind_port_skeleton_get_type(void);
static void joind_port_skeleton_iface_init(JoindDBusPort8021x1Iface *iface);
G_DEFINE_TYPE_WITH_CODE(JoindPortSkeleton, joind_port_skeleton, JOIND_DBUS_TYPE_PORT8021X1_SKELETON,
                        G_IMPLEMENT_INTERFACE(JOIND_DBUS_TYPE_PORT8021X1,
                                              joind_port_skeleton_iface_init))

static void
joind_port_skeleton_finalize(GObject *object)
{
	g_clear_object(&((JoindPortSkeleton *)object)->port);
	G_OBJECT_CLASS(joind_port_skeleton_parent_class)->finalize(object);
}

static void
joind_port_skeleton_class_init(JoindPortSkeletonClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_port_skeleton_finalize;
}

static void
joind_port_skeleton_init(JoindPortSkeleton *self)
{
}

static gboolean
joind_port_skeleton_handle(JoindDBusPort8021x1 *iface, GDBusMethodInvocation *invocation,
                           PortAction action)
{
	joind_dbus_call_start(G_DBUS_INTERFACE_SKELETON(iface), invocation,
	                      ((JoindPortSkeleton *)iface)->port, port_run, GINT_TO_POINTER(action),
	                      NULL);
	return TRUE;
}

static gboolean
joind_port_skeleton_reauthenticate(JoindDBusPort8021x1 *iface, GDBusMethodInvocation *invocation)
{
	return joind_port_skeleton_handle(iface, invocation, PORT_REAUTHENTICATE);
}

static gboolean
joind_port_skeleton_logoff(JoindDBusPort8021x1 *iface, GDBusMethodInvocation *invocation)
{
	return joind_port_skeleton_handle(iface, invocation, PORT_LOGOFF);
}

/* The skeleton's own implementation is copied in first: only the method
 * handlers change. */
static void
joind_port_skeleton_iface_init(JoindDBusPort8021x1Iface *iface)
{
	iface->handle_reauthenticate = joind_port_skeleton_reauthenticate;
	iface->handle_logoff = joind_port_skeleton_logoff;
}

/* The port's profile file is broken (the port keeps the version read
 * before) or fine again, or the port took another profile. */
static void
export_sync_profile_error(DeviceExport *exp)
{
	const gchar *error = NULL;

	if (exp->port_iface == NULL)
		return;
	error = joind_profile_store_get_error(exp->store, joind_port_8021x_get_profile(exp->port));
	joind_dbus_port8021x1_set_profile_error(exp->port_iface, error != NULL ? error : "");
}

static void
store_profile_error(JoindProfileStore *store, const gchar *path, gpointer user_data)
{
	GPtrArray *exports = user_data;

	for (guint i = 0; i < exports->len; i++)
		export_sync_profile_error(g_ptr_array_index(exports, i));
}

static GPtrArray *
store_exports(JoindProfileStore *store)
{
	GPtrArray *exports = g_object_get_data(G_OBJECT(store), EXPORTS_KEY);

	if (exports != NULL)
		return exports;
	exports = g_ptr_array_new();
	g_object_set_data_full(G_OBJECT(store), EXPORTS_KEY, exports,
	                       (GDestroyNotify)g_ptr_array_unref);
	g_signal_connect(store, "profile-error", G_CALLBACK(store_profile_error), exports);
	return exports;
}

static void
export_detach_port(DeviceExport *exp)
{
	if (exp->port_iface == NULL)
		return;
	g_ptr_array_remove_fast(store_exports(exp->store), exp);
	joind_port_8021x_set_changed_func(exp->port, NULL, NULL);
	joind_dbus_object_remove(exp->object, G_DBUS_INTERFACE_SKELETON(exp->port_iface));
	g_clear_object(&exp->port_iface);
	g_clear_object(&exp->port);
}

static void
export_sync_port_props(JoindPort8021x *port, GParamSpec *pspec, gpointer user_data)
{
	DeviceExport *exp = user_data;
	JoindDBusPort8021x1 *iface = exp->port_iface;
	g_autofree gchar *identity = NULL;

	g_object_get(port, "identity", &identity, NULL);
	joind_dbus_port8021x1_set_state(
	        iface, joind_port_state_to_string(joind_port_8021x_get_state(port)));
	joind_dbus_port8021x1_set_profile(iface, nonnull(joind_port_8021x_get_profile(port)));
	joind_dbus_port8021x1_set_eap_method(iface, nonnull(joind_port_8021x_get_eap_method(port)));
	joind_dbus_port8021x1_set_identity(iface, nonnull(identity));
	joind_dbus_port8021x1_set_last_error(iface, nonnull(joind_port_8021x_get_last_error(port)));
	if (pspec == NULL || g_str_equal(pspec->name, "profile"))
		export_sync_profile_error(exp);
}

static void
export_attach_port(DeviceExport *exp, JoindPort8021x *port)
{
	JoindPortSkeleton *skeleton = g_object_new(joind_port_skeleton_get_type(), NULL);
	JoindDBusPort8021x1 *iface = JOIND_DBUS_PORT8021X1(skeleton);

	skeleton->port = g_object_ref(port);
	exp->port = g_object_ref(port);
	exp->port_iface = iface;
	export_sync_port_props(port, NULL, exp);
	joind_port_8021x_set_changed_func(port, export_sync_port_props, exp);
	joind_dbus_object_add(exp->object, G_DBUS_INTERFACE_SKELETON(iface));
	g_ptr_array_add(store_exports(exp->store), exp);
}

static void
export_sync_port(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	DeviceExport *exp = user_data;
	JoindPort8021x *port = joind_device_get_port(device);

	if (port == exp->port)
		return;
	export_detach_port(exp);
	if (port != NULL)
		export_attach_port(exp, port);
}

/* ---- Device1 ------------------------------------------------------------- */

/* Device1's skeleton with writes of Mode, its one writable property,
 * taken through the call path (the device is the target) instead of
 * GDBus setting the skeleton's property. */
typedef struct {
	JoindDBusDevice1Skeleton parent;
	JoindDevice *device; /* the export lives as the device's data */
} JoindDeviceSkeleton;
typedef JoindDBusDevice1SkeletonClass JoindDeviceSkeletonClass;

GType joind_device_skeleton_get_type(void);
G_DEFINE_TYPE(JoindDeviceSkeleton, joind_device_skeleton, JOIND_DBUS_TYPE_DEVICE1_SKELETON)

#define PROPERTIES_IFACE "org.freedesktop.DBus.Properties"

static GDBusInterfaceVTable device_vtable;
static const GDBusInterfaceVTable *device_parent_vtable;

static void
mode_run(JoindDBusCall *call, gpointer device, gpointer data)
{
	joind_call_run(call, device, JOIND_CALL_OP_SET_MODE);
}

static void
device_method_call(GDBusConnection *connection, const gchar *sender, const gchar *object_path,
                   const gchar *interface_name, const gchar *method_name, GVariant *parameters,
                   GDBusMethodInvocation *invocation, gpointer user_data)
{
	JoindDeviceSkeleton *self = user_data;

	if (g_str_equal(interface_name, PROPERTIES_IFACE) && g_str_equal(method_name, "Set")) {
		joind_dbus_call_start(G_DBUS_INTERFACE_SKELETON(self), invocation, self->device,
		                      mode_run, NULL, NULL);
		return;
	}
	device_parent_vtable->method_call(connection, sender, object_path, interface_name,
	                                  method_name, parameters, invocation, user_data);
}

/* No set_property: GDBus checks that the property is writable and the
 * value's type, then hands the Set to method_call. */
static GDBusInterfaceVTable *
device_get_vtable(GDBusInterfaceSkeleton *skeleton)
{
	if (device_parent_vtable == NULL) {
		device_parent_vtable =
		        G_DBUS_INTERFACE_SKELETON_CLASS(joind_device_skeleton_parent_class)
		                ->get_vtable(skeleton);
		device_vtable = *device_parent_vtable;
		device_vtable.method_call = device_method_call;
		device_vtable.set_property = NULL;
	}
	return &device_vtable;
}

static void
joind_device_skeleton_class_init(JoindDeviceSkeletonClass *klass)
{
	G_DBUS_INTERFACE_SKELETON_CLASS(klass)->get_vtable = device_get_vtable;
}

static void
joind_device_skeleton_init(JoindDeviceSkeleton *self)
{
}

static void
export_sync_modes(JoindDBusDevice1 *iface, JoindDevice *device)
{
	g_auto(GStrv) names = NULL;

	if (joind_device_get_kind(device) != JOIND_DEVICE_KIND_WIFI) {
		joind_dbus_device1_set_mode(iface, "");
		return;
	}
	names = joind_device_modes_to_strv(joind_device_get_supported_modes(device));
	joind_dbus_device1_set_supported_modes(iface, (const gchar *const *)names);
	joind_dbus_device1_set_mode(iface,
	                            joind_device_mode_to_string(joind_device_get_mode(device)));
}

/* After every property change: a "notify::port" handler of its own cost
 * about 220 bytes of heap. */
static void
export_sync_device(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	JoindDBusDevice1 *iface = ((DeviceExport *)user_data)->device_iface;

	if (pspec != NULL && g_str_equal(pspec->name, "port")) {
		export_sync_port(device, pspec, user_data);
		return;
	}
	joind_dbus_device1_set_name(iface, nonnull(joind_device_get_name(device)));
	joind_dbus_device1_set_address(iface, nonnull(joind_device_get_address(device)));
	joind_dbus_device1_set_plugin(iface, nonnull(joind_device_get_plugin(device)));
	joind_dbus_device1_set_powered(iface, joind_device_get_powered(device));
	joind_dbus_device1_set_kind(iface,
	                            joind_device_kind_to_string(joind_device_get_kind(device)));
	joind_dbus_device1_set_state(iface,
	                             joind_device_state_to_string(joind_device_get_state(device)));
	export_sync_modes(iface, device);
}

/* The object goes first, in one InterfacesRemoved, as the manager would
 * send it; the interfaces' own removal then says nothing more. */
static void
device_export_free(DeviceExport *exp)
{
	joind_dbus_object_withdraw(exp->object);
	export_detach_port(exp);
	g_clear_object(&exp->store);
	g_clear_pointer(&exp->station, joind_dbus_station_export_free);
	g_clear_pointer(&exp->access_point, joind_dbus_hosted_export_free);
	g_clear_pointer(&exp->adhoc, joind_dbus_hosted_export_free);
	g_clear_object(&exp->device_iface);
	joind_dbus_object_free(exp->object);
	g_free(exp);
}

void
joind_dbus_device_export(JoindDBusManaged *managed, GDBusObjectManagerServer *manager,
                         JoindDevice *device, JoindProfileStore *store)
{
	DeviceExport *exp = g_new0(DeviceExport, 1);
	g_autofree gchar *path =
	        g_strdup_printf("/net/joind/device/%d", joind_device_get_ifindex(device));

	exp->store = g_object_ref(store);
	exp->object = joind_dbus_object_new(managed, path);
	exp->device_iface = g_object_new(joind_device_skeleton_get_type(), NULL);
	((JoindDeviceSkeleton *)exp->device_iface)->device = device;
	export_sync_device(device, NULL, exp);
	joind_device_set_changed_func(device, export_sync_device, exp);
	joind_dbus_object_add(exp->object, G_DBUS_INTERFACE_SKELETON(exp->device_iface));

	/* Interfaces that depend on what the device can do. */
	export_sync_port(device, NULL, exp);
	/* Station1 and the Network1 objects below the device: only a WiFi
	 * device ever gets a station. */
	if (joind_device_get_kind(device) == JOIND_DEVICE_KIND_WIFI) {
		exp->station = joind_dbus_station_export_new(manager, exp->object, device);
		exp->access_point = joind_dbus_hosted_export_new(&joind_dbus_hosted_access_point,
		                                                 exp->object, device);
		exp->adhoc =
		        joind_dbus_hosted_export_new(&joind_dbus_hosted_adhoc, exp->object, device);
	}

	g_object_set_data_full(G_OBJECT(device), EXPORT_KEY, exp,
	                       (GDestroyNotify)device_export_free);
	joind_dbus_object_announce(exp->object);
	joind_device_set_object_path(device, path);
}

void
joind_dbus_device_unexport(JoindDevice *device)
{
	if (g_object_get_data(G_OBJECT(device), EXPORT_KEY) == NULL)
		return;
	joind_device_set_changed_func(device, NULL, NULL);
	joind_device_set_object_path(device, NULL);
	g_object_set_data(G_OBJECT(device), EXPORT_KEY, NULL);
}

void
joind_dbus_device_write_managed(JoindDevice *device, JoindVariantWriter *w,
                                JoindVariantFrame *objects)
{
	DeviceExport *exp = g_object_get_data(G_OBJECT(device), EXPORT_KEY);

	if (exp != NULL)
		joind_dbus_object_write(exp->object, w, objects);
}
