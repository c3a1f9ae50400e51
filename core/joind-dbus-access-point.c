/* joind-dbus-access-point.c - AccessPoint1 on a WiFi device's object,
 * bound to the plugin's JoindAccessPoint.
 *
 * Properties are copied onto the skeleton by GBindings, the access
 * point's station signals are re-emitted, and Start, StartProfile and
 * Stop take the core's one call path (the run shared with front ends,
 * joind-observer.h).
 */
#include "joind-dbus-access-point.h"

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-observer.h"

struct _JoindDBusAccessPointExport {
	JoindDBusObject *device_object; /* the device export's */
	JoindDevice *device;            /* the export lives as the device's data */
	JoindAccessPoint *access_point;
	JoindDBusAccessPoint1 *iface;
	gulong notify_id;
};

static void
op_start(JoindDBusCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, target, GPOINTER_TO_INT(data));
}

static void
on_station_joined(JoindAccessPoint *access_point, const gchar *address, gpointer user_data)
{
	joind_dbus_access_point1_emit_station_joined(user_data, address);
}

static void
on_station_left(JoindAccessPoint *access_point, const gchar *address, gpointer user_data)
{
	joind_dbus_access_point1_emit_station_left(user_data, address);
}

static void
access_point_detach(JoindDBusAccessPointExport *exp)
{
	if (exp->access_point == NULL)
		return;
	g_signal_handlers_disconnect_by_data(exp->access_point, exp->iface);
	joind_dbus_object_remove(exp->device_object, G_DBUS_INTERFACE_SKELETON(exp->iface));
	g_clear_object(&exp->iface);
	g_clear_object(&exp->access_point);
}

static void
access_point_attach(JoindDBusAccessPointExport *exp, JoindAccessPoint *access_point)
{
	static const gchar *const props[] = {"started", "name", "frequency", "security",
	                                     "stations"};

	exp->access_point = g_object_ref(access_point);
	exp->iface = joind_dbus_access_point1_skeleton_new();
	for (guint i = 0; i < G_N_ELEMENTS(props); i++)
		g_object_bind_property(access_point, props[i], exp->iface, props[i],
		                       G_BINDING_SYNC_CREATE);
	joind_dbus_call_connect(exp->iface, "handle-start", access_point, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_AP_START));
	joind_dbus_call_connect(exp->iface, "handle-start-profile", access_point, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_AP_START_PROFILE));
	joind_dbus_call_connect(exp->iface, "handle-stop", access_point, op_start,
	                        GINT_TO_POINTER(JOIND_CALL_OP_AP_STOP));
	g_signal_connect(access_point, "station-joined", G_CALLBACK(on_station_joined), exp->iface);
	g_signal_connect(access_point, "station-left", G_CALLBACK(on_station_left), exp->iface);
	joind_dbus_object_add(exp->device_object, G_DBUS_INTERFACE_SKELETON(exp->iface));
}

static void
access_point_sync(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	JoindDBusAccessPointExport *exp = user_data;
	JoindAccessPoint *access_point = joind_device_get_access_point(device);

	if (access_point == exp->access_point)
		return;
	access_point_detach(exp);
	if (access_point != NULL)
		access_point_attach(exp, access_point);
}

JoindDBusAccessPointExport *
joind_dbus_access_point_export_new(JoindDBusObject *device_object, JoindDevice *device)
{
	JoindDBusAccessPointExport *exp = g_new0(JoindDBusAccessPointExport, 1);

	exp->device_object = device_object;
	exp->device = device;
	access_point_sync(device, NULL, exp);
	exp->notify_id = g_signal_connect(device, "notify::access-point",
	                                  G_CALLBACK(access_point_sync), exp);
	return exp;
}

void
joind_dbus_access_point_export_free(JoindDBusAccessPointExport *exp)
{
	if (exp == NULL)
		return;
	g_clear_signal_handler(&exp->notify_id, exp->device);
	access_point_detach(exp);
	g_free(exp);
}
