/* joind-dbus-hosted.c - AccessPoint1 and AdHoc1 on a WiFi device's object,
 * bound to the plugin's JoindAccessPoint or JoindAdHoc.
 *
 * Properties are copied onto the skeleton by GBindings, the model's member
 * signals (station-joined, peer-left, ...) are re-emitted as the D-Bus
 * signals of the same name, and the methods take the core's one call path
 * (the run shared with front ends, joind-observer.h).
 */
#include "joind-dbus-hosted.h"

#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-observer.h"

struct _JoindDBusHostedKind {
	const gchar *device_property; /* the device's property holding the model */
	GType (*skeleton_type)(void);
	const gchar *const *props; /* the model's and the skeleton's alike */
	struct {
		const gchar *handler; /* the skeleton's "handle-..." signal */
		JoindCallOp op;
	} methods[3];
	/* The member signals, of the model and of the skeleton alike. */
	const gchar *joined, *left;
};

static const gchar *const access_point_props[] = {"started",  "name",     "frequency",
                                                  "security", "stations", NULL};

const JoindDBusHostedKind joind_dbus_hosted_access_point = {
        .device_property = "access-point",
        .skeleton_type = joind_dbus_access_point1_skeleton_get_type,
        .props = access_point_props,
        .methods = {{"handle-start", JOIND_CALL_OP_AP_START},
                    {"handle-start-profile", JOIND_CALL_OP_AP_START_PROFILE},
                    {"handle-stop", JOIND_CALL_OP_AP_STOP}},
        .joined = "station-joined",
        .left = "station-left",
};

static const gchar *const adhoc_props[] = {"started", "name", "security", "peers", NULL};

const JoindDBusHostedKind joind_dbus_hosted_adhoc = {
        .device_property = "adhoc",
        .skeleton_type = joind_dbus_ad_hoc1_skeleton_get_type,
        .props = adhoc_props,
        .methods = {{"handle-start", JOIND_CALL_OP_ADHOC_START},
                    {"handle-start-open", JOIND_CALL_OP_ADHOC_START_OPEN},
                    {"handle-stop", JOIND_CALL_OP_ADHOC_STOP}},
        .joined = "peer-joined",
        .left = "peer-left",
};

struct _JoindDBusHostedExport {
	const JoindDBusHostedKind *kind;
	JoindDBusObject *device_object; /* the device export's */
	JoindDevice *device;            /* the export lives as the device's data */
	GObject *model;
	GDBusInterfaceSkeleton *iface;
	gulong notify_id;
};

static void
op_run(JoindDBusCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, target, GPOINTER_TO_INT(data));
}

static void
on_joined(GObject *model, const gchar *address, gpointer user_data)
{
	JoindDBusHostedExport *exp = user_data;

	g_signal_emit_by_name(exp->iface, exp->kind->joined, address);
}

static void
on_left(GObject *model, const gchar *address, gpointer user_data)
{
	JoindDBusHostedExport *exp = user_data;

	g_signal_emit_by_name(exp->iface, exp->kind->left, address);
}

static void
hosted_detach(JoindDBusHostedExport *exp)
{
	if (exp->model == NULL)
		return;
	g_signal_handlers_disconnect_by_data(exp->model, exp);
	joind_dbus_object_remove(exp->device_object, exp->iface);
	g_clear_object(&exp->iface);
	g_clear_object(&exp->model);
}

static void
hosted_attach(JoindDBusHostedExport *exp, GObject *model)
{
	const JoindDBusHostedKind *kind = exp->kind;

	exp->model = g_object_ref(model);
	exp->iface = g_object_new(kind->skeleton_type(), NULL);
	for (guint i = 0; kind->props[i] != NULL; i++)
		g_object_bind_property(model, kind->props[i], exp->iface, kind->props[i],
		                       G_BINDING_SYNC_CREATE);
	for (guint i = 0; i < G_N_ELEMENTS(kind->methods); i++)
		joind_dbus_call_connect(exp->iface, kind->methods[i].handler, model, op_run,
		                        GINT_TO_POINTER(kind->methods[i].op));
	g_signal_connect(model, kind->joined, G_CALLBACK(on_joined), exp);
	g_signal_connect(model, kind->left, G_CALLBACK(on_left), exp);
	joind_dbus_object_add(exp->device_object, exp->iface);
}

static void
hosted_sync(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	JoindDBusHostedExport *exp = user_data;
	g_autoptr(GObject) model = NULL;

	g_object_get(device, exp->kind->device_property, &model, NULL);
	if (model == exp->model)
		return;
	hosted_detach(exp);
	if (model != NULL)
		hosted_attach(exp, model);
}

JoindDBusHostedExport *
joind_dbus_hosted_export_new(const JoindDBusHostedKind *kind, JoindDBusObject *device_object,
                             JoindDevice *device)
{
	JoindDBusHostedExport *exp = g_new0(JoindDBusHostedExport, 1);
	g_autofree gchar *notify = g_strconcat("notify::", kind->device_property, NULL);

	exp->kind = kind;
	exp->device_object = device_object;
	exp->device = device;
	hosted_sync(device, NULL, exp);
	exp->notify_id = g_signal_connect(device, notify, G_CALLBACK(hosted_sync), exp);
	return exp;
}

void
joind_dbus_hosted_export_free(JoindDBusHostedExport *exp)
{
	if (exp == NULL)
		return;
	g_clear_signal_handler(&exp->notify_id, exp->device);
	hosted_detach(exp);
	g_free(exp);
}
