/* joind-dbus-adhoc.c - AdHoc1 on a WiFi device's object, bound to the
 * plugin's JoindAdHoc: properties by GBindings, the peer signals re-emitted,
 * Start, StartOpen and Stop on the core's one call path (joind-observer.h).
 */
#include "joind-dbus-adhoc.h"

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-observer.h"

struct _JoindDBusAdHocExport {
	JoindDBusObject *device_object;
	JoindDevice *device;
	JoindAdHoc *adhoc;
	JoindDBusAdHoc1 *iface;
	gulong notify_id;
};

static void
op_run(JoindDBusCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, target, GPOINTER_TO_INT(data));
}

static void
on_peer_joined(JoindAdHoc *adhoc, const gchar *address, gpointer user_data)
{
	joind_dbus_ad_hoc1_emit_peer_joined(user_data, address);
}

static void
on_peer_left(JoindAdHoc *adhoc, const gchar *address, gpointer user_data)
{
	joind_dbus_ad_hoc1_emit_peer_left(user_data, address);
}

static void
adhoc_detach(JoindDBusAdHocExport *exp)
{
	if (exp->adhoc == NULL)
		return;
	g_signal_handlers_disconnect_by_data(exp->adhoc, exp->iface);
	joind_dbus_object_remove(exp->device_object, G_DBUS_INTERFACE_SKELETON(exp->iface));
	g_clear_object(&exp->iface);
	g_clear_object(&exp->adhoc);
}

static void
adhoc_attach(JoindDBusAdHocExport *exp, JoindAdHoc *adhoc)
{
	static const gchar *const props[] = {"started", "name", "security", "peers"};

	exp->adhoc = g_object_ref(adhoc);
	exp->iface = joind_dbus_ad_hoc1_skeleton_new();
	for (guint i = 0; i < G_N_ELEMENTS(props); i++)
		g_object_bind_property(adhoc, props[i], exp->iface, props[i],
		                       G_BINDING_SYNC_CREATE);
	joind_dbus_call_connect(exp->iface, "handle-start", adhoc, op_run,
	                        GINT_TO_POINTER(JOIND_CALL_OP_ADHOC_START));
	joind_dbus_call_connect(exp->iface, "handle-start-open", adhoc, op_run,
	                        GINT_TO_POINTER(JOIND_CALL_OP_ADHOC_START_OPEN));
	joind_dbus_call_connect(exp->iface, "handle-stop", adhoc, op_run,
	                        GINT_TO_POINTER(JOIND_CALL_OP_ADHOC_STOP));
	g_signal_connect(adhoc, "peer-joined", G_CALLBACK(on_peer_joined), exp->iface);
	g_signal_connect(adhoc, "peer-left", G_CALLBACK(on_peer_left), exp->iface);
	joind_dbus_object_add(exp->device_object, G_DBUS_INTERFACE_SKELETON(exp->iface));
}

static void
adhoc_sync(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	JoindDBusAdHocExport *exp = user_data;
	JoindAdHoc *adhoc = joind_device_get_adhoc(device);

	if (adhoc == exp->adhoc)
		return;
	adhoc_detach(exp);
	if (adhoc != NULL)
		adhoc_attach(exp, adhoc);
}

JoindDBusAdHocExport *
joind_dbus_adhoc_export_new(JoindDBusObject *device_object, JoindDevice *device)
{
	JoindDBusAdHocExport *exp = g_new0(JoindDBusAdHocExport, 1);

	exp->device_object = device_object;
	exp->device = device;
	adhoc_sync(device, NULL, exp);
	exp->notify_id = g_signal_connect(device, "notify::adhoc", G_CALLBACK(adhoc_sync), exp);
	return exp;
}

void
joind_dbus_adhoc_export_free(JoindDBusAdHocExport *exp)
{
	if (exp == NULL)
		return;
	g_clear_signal_handler(&exp->notify_id, exp->device);
	adhoc_detach(exp);
	g_free(exp);
}
