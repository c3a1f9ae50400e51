/* joind-device.c - the device object plugins publish through the core. */
#include "joind-device.h"

#include "joind-device-private.h"
#include "joind-log.h"
#include "joind-util.h"
#include "joind-port.h"
#include "joind-access-point.h"
#include "joind-adhoc.h"
#include "joind-error.h"
#include "joind-station-private.h"

typedef struct {
	gint ifindex;
	gchar *name;
	gchar *address;
	JoindDeviceKind kind;
	gchar *plugin;
	gboolean powered;
	JoindDeviceState state;
	gchar *object_path;
	JoindPort8021x *port;
	JoindStation *station;
	JoindAccessPoint *access_point;
	JoindAdHoc *adhoc;
	JoindDeviceMode mode;
	guint supported_modes;
	JoindDeviceChangedFunc changed;
	gpointer changed_data;
} JoindDevicePrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindDevice, joind_device, G_TYPE_OBJECT)

enum {
	PROP_0,
	PROP_IFINDEX,
	PROP_NAME,
	PROP_ADDRESS,
	PROP_KIND,
	PROP_PLUGIN,
	PROP_POWERED,
	PROP_STATE,
	PROP_PORT,
	PROP_STATION,
	PROP_ACCESS_POINT,
	PROP_ADHOC,
	PROP_MODE,
	PROP_SUPPORTED_MODES,
	N_PROPS
};
static GParamSpec *props[N_PROPS];

#define GET_PRIV(o) ((JoindDevicePrivate *)joind_device_get_instance_private(o))

static void
joind_device_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindDevicePrivate *priv = GET_PRIV(JOIND_DEVICE(object));

	switch (id) {
	case PROP_IFINDEX:
		g_value_set_int(value, priv->ifindex);
		break;
	case PROP_NAME:
		g_value_set_string(value, priv->name);
		break;
	case PROP_ADDRESS:
		g_value_set_string(value, priv->address);
		break;
	case PROP_KIND:
		g_value_set_int(value, priv->kind);
		break;
	case PROP_PLUGIN:
		g_value_set_string(value, priv->plugin);
		break;
	case PROP_POWERED:
		g_value_set_boolean(value, priv->powered);
		break;
	case PROP_STATE:
		g_value_set_int(value, priv->state);
		break;
	case PROP_PORT:
		g_value_set_object(value, priv->port);
		break;
	case PROP_STATION:
		g_value_set_object(value, priv->station);
		break;
	case PROP_ACCESS_POINT:
		g_value_set_object(value, priv->access_point);
		break;
	case PROP_ADHOC:
		g_value_set_object(value, priv->adhoc);
		break;
	case PROP_MODE:
		g_value_set_int(value, priv->mode);
		break;
	case PROP_SUPPORTED_MODES:
		g_value_set_uint(value, priv->supported_modes);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_device_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
	JoindDevice *self = JOIND_DEVICE(object);
	JoindDevicePrivate *priv = GET_PRIV(self);

	switch (id) {
	case PROP_IFINDEX:
		priv->ifindex = g_value_get_int(value);
		break;
	case PROP_NAME:
		joind_device_set_name(self, g_value_get_string(value));
		break;
	case PROP_ADDRESS:
		joind_device_set_address(self, g_value_get_string(value));
		break;
	case PROP_KIND:
		priv->kind = g_value_get_int(value);
		break;
	case PROP_PLUGIN:
		g_free(priv->plugin);
		priv->plugin = g_value_dup_string(value);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_device_finalize(GObject *object)
{
	JoindDevicePrivate *priv = GET_PRIV(JOIND_DEVICE(object));

	g_free(priv->name);
	g_free(priv->address);
	g_free(priv->plugin);
	g_free(priv->object_path);
	g_clear_object(&priv->port);
	g_clear_object(&priv->station);
	g_clear_object(&priv->access_point);
	g_clear_object(&priv->adhoc);
	G_OBJECT_CLASS(joind_device_parent_class)->finalize(object);
}

/* The class closure of "notify": it runs whether or not anything is
 * connected to the instance. */
static void
joind_device_notify(GObject *object, GParamSpec *pspec)
{
	JoindDevicePrivate *priv = GET_PRIV(JOIND_DEVICE(object));

	if (priv->changed != NULL)
		priv->changed(JOIND_DEVICE(object), pspec, priv->changed_data);
}

void
joind_device_set_changed_func(JoindDevice *self, JoindDeviceChangedFunc func, gpointer data)
{
	JoindDevicePrivate *priv = GET_PRIV(self);

	priv->changed = func;
	priv->changed_data = data;
}

static void
joind_device_class_init(JoindDeviceClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
	const GParamFlags co = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

	object_class->get_property = joind_device_get_property;
	object_class->set_property = joind_device_set_property;
	object_class->finalize = joind_device_finalize;
	object_class->notify = joind_device_notify;

	props[PROP_IFINDEX] = g_param_spec_int("ifindex", NULL, NULL, 0, G_MAXINT, 0, co);
	props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, NULL, rw);
	props[PROP_ADDRESS] = g_param_spec_string("address", NULL, NULL, NULL, rw);
	props[PROP_KIND] = g_param_spec_int("kind", NULL, NULL, 0, JOIND_DEVICE_KIND_WIFI, 0, co);
	props[PROP_PLUGIN] = g_param_spec_string("plugin", NULL, NULL, NULL, co);
	props[PROP_POWERED] = g_param_spec_boolean("powered", NULL, NULL, FALSE, ro);
	props[PROP_STATE] = g_param_spec_int("state", NULL, NULL, 0, JOIND_DEVICE_STATE_UP,
	                                     JOIND_DEVICE_STATE_DOWN, ro);
	props[PROP_PORT] = g_param_spec_object("port", NULL, NULL, JOIND_TYPE_PORT_8021X, ro);
	props[PROP_STATION] = g_param_spec_object("station", NULL, NULL, JOIND_TYPE_STATION, ro);
	props[PROP_ACCESS_POINT] =
	        g_param_spec_object("access-point", NULL, NULL, JOIND_TYPE_ACCESS_POINT, ro);
	props[PROP_ADHOC] = g_param_spec_object("adhoc", NULL, NULL, JOIND_TYPE_ADHOC, ro);
	props[PROP_MODE] = g_param_spec_int("mode", NULL, NULL, 0, JOIND_DEVICE_MODE_LAST,
	                                    JOIND_DEVICE_MODE_STATION, ro);
	props[PROP_SUPPORTED_MODES] = g_param_spec_uint("supported-modes", NULL, NULL, 0, G_MAXUINT,
	                                                1u << JOIND_DEVICE_MODE_STATION, ro);
	g_object_class_install_properties(object_class, N_PROPS, props);
}

static void
joind_device_init(JoindDevice *self)
{
	GET_PRIV(self)->supported_modes = 1u << JOIND_DEVICE_MODE_STATION;
}

JoindDevice *
joind_device_new(gint ifindex, const gchar *name, JoindDeviceKind kind, const gchar *plugin)
{
	return g_object_new(JOIND_TYPE_DEVICE, "ifindex", ifindex, "name", name, "kind", kind,
	                    "plugin", plugin, NULL);
}

gint
joind_device_get_ifindex(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), 0);
	return GET_PRIV(self)->ifindex;
}

const gchar *
joind_device_get_name(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), NULL);
	return GET_PRIV(self)->name;
}

void
joind_device_set_name(JoindDevice *self, const gchar *name)
{
	g_return_if_fail(JOIND_IS_DEVICE(self));
	if (joind_set_str(&GET_PRIV(self)->name, name))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_NAME]);
}

const gchar *
joind_device_get_address(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), NULL);
	return GET_PRIV(self)->address;
}

void
joind_device_set_address(JoindDevice *self, const gchar *address)
{
	g_autofree gchar *lower = address != NULL ? g_ascii_strdown(address, -1) : NULL;

	g_return_if_fail(JOIND_IS_DEVICE(self));
	if (joind_set_str(&GET_PRIV(self)->address, lower))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_ADDRESS]);
}

JoindDeviceKind
joind_device_get_kind(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), 0);
	return GET_PRIV(self)->kind;
}

const gchar *
joind_device_get_plugin(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), NULL);
	return GET_PRIV(self)->plugin;
}

gboolean
joind_device_get_powered(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), FALSE);
	return GET_PRIV(self)->powered;
}

void
joind_device_set_powered(JoindDevice *self, gboolean powered)
{
	JoindDevicePrivate *priv;

	g_return_if_fail(JOIND_IS_DEVICE(self));
	priv = GET_PRIV(self);
	if (priv->powered == !!powered)
		return;
	priv->powered = !!powered;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_POWERED]);
}

JoindDeviceState
joind_device_get_state(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), 0);
	return GET_PRIV(self)->state;
}

void
joind_device_set_state(JoindDevice *self, JoindDeviceState state)
{
	JoindDevicePrivate *priv;

	g_return_if_fail(JOIND_IS_DEVICE(self));
	priv = GET_PRIV(self);
	if (priv->state == state)
		return;
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){priv->plugin, priv->name, NULL, NULL},
	                       joind_device_state_to_string(priv->state),
	                       joind_device_state_to_string(state), NULL);
	priv->state = state;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STATE]);
}

const gchar *
joind_device_get_object_path(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), NULL);
	return GET_PRIV(self)->object_path;
}

void
joind_device_set_object_path(JoindDevice *self, const gchar *path)
{
	joind_set_str(&GET_PRIV(self)->object_path, path);
}

void
joind_device_attach_port(JoindDevice *device, JoindPort8021x *port)
{
	JoindDevicePrivate *priv;

	g_return_if_fail(JOIND_IS_DEVICE(device));
	priv = GET_PRIV(device);
	if (g_set_object(&priv->port, port))
		g_object_notify_by_pspec(G_OBJECT(device), props[PROP_PORT]);
}

JoindPort8021x *
joind_device_get_port(JoindDevice *device)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(device), NULL);
	return GET_PRIV(device)->port;
}

void
joind_device_attach_station(JoindDevice *device, JoindStation *station)
{
	JoindDevicePrivate *priv;

	g_return_if_fail(JOIND_IS_DEVICE(device));
	priv = GET_PRIV(device);
	if (priv->station == station)
		return;
	if (priv->station != NULL)
		joind_station_set_device(priv->station, NULL);
	g_set_object(&priv->station, station);
	if (station != NULL)
		joind_station_set_device(station, device);
	g_object_notify_by_pspec(G_OBJECT(device), props[PROP_STATION]);
}

JoindStation *
joind_device_get_station(JoindDevice *device)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(device), NULL);
	return GET_PRIV(device)->station;
}

JoindDeviceMode
joind_device_get_mode(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), JOIND_DEVICE_MODE_STATION);
	return GET_PRIV(self)->mode;
}

void
joind_device_set_mode(JoindDevice *self, JoindDeviceMode mode)
{
	JoindDevicePrivate *priv;

	g_return_if_fail(JOIND_IS_DEVICE(self) && mode <= JOIND_DEVICE_MODE_LAST);
	priv = GET_PRIV(self);
	if (priv->mode == mode)
		return;
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){priv->plugin, priv->name, NULL, NULL},
	                       joind_device_mode_to_string(priv->mode),
	                       joind_device_mode_to_string(mode), "interface type changed");
	priv->mode = mode;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_MODE]);
}

guint
joind_device_get_supported_modes(JoindDevice *self)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(self), 0);
	return GET_PRIV(self)->supported_modes;
}

void
joind_device_set_supported_modes(JoindDevice *self, guint modes)
{
	g_return_if_fail(JOIND_IS_DEVICE(self));
	if (GET_PRIV(self)->supported_modes == modes)
		return;
	GET_PRIV(self)->supported_modes = modes;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SUPPORTED_MODES]);
}

void
joind_device_attach_access_point(JoindDevice *device, JoindAccessPoint *access_point)
{
	g_return_if_fail(JOIND_IS_DEVICE(device));
	if (g_set_object(&GET_PRIV(device)->access_point, access_point))
		g_object_notify_by_pspec(G_OBJECT(device), props[PROP_ACCESS_POINT]);
}

JoindAccessPoint *
joind_device_get_access_point(JoindDevice *device)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(device), NULL);
	return GET_PRIV(device)->access_point;
}

void
joind_device_attach_adhoc(JoindDevice *device, JoindAdHoc *adhoc)
{
	g_return_if_fail(JOIND_IS_DEVICE(device));
	if (g_set_object(&GET_PRIV(device)->adhoc, adhoc))
		g_object_notify_by_pspec(G_OBJECT(device), props[PROP_ADHOC]);
}

JoindAdHoc *
joind_device_get_adhoc(JoindDevice *device)
{
	g_return_val_if_fail(JOIND_IS_DEVICE(device), NULL);
	return GET_PRIV(device)->adhoc;
}

const gchar *
joind_device_kind_to_string(JoindDeviceKind kind)
{
	switch (kind) {
	case JOIND_DEVICE_KIND_ETHERNET:
		return "ethernet";
	case JOIND_DEVICE_KIND_WIFI:
		return "wifi";
	}
	return "unknown";
}

const gchar *
joind_device_state_to_string(JoindDeviceState state)
{
	switch (state) {
	case JOIND_DEVICE_STATE_DOWN:
		return "down";
	case JOIND_DEVICE_STATE_NO_CARRIER:
		return "no-carrier";
	case JOIND_DEVICE_STATE_UP:
		return "up";
	}
	return "unknown";
}

/* ---- diagnostics ---------------------------------------------------------- */

void
joind_device_get_diagnostics(JoindDevice *self, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
	JoindDeviceClass *klass;
	g_autoptr(GTask) task = NULL;
	GVariant *facts = NULL;

	g_return_if_fail(JOIND_IS_DEVICE(self));
	klass = JOIND_DEVICE_GET_CLASS(self);
	if (klass->get_diagnostics_async != NULL) {
		klass->get_diagnostics_async(self, cancellable, callback, user_data);
		return;
	}
	task = g_task_new(self, cancellable, callback, user_data);
	g_task_set_source_tag(task, joind_device_get_diagnostics);
	if (klass->get_diagnostics != NULL)
		facts = klass->get_diagnostics(self);
	g_task_return_pointer(task, facts != NULL ? g_variant_ref_sink(facts) : NULL,
	                      (GDestroyNotify)g_variant_unref);
}

GVariant *
joind_device_get_diagnostics_finish(JoindDevice *self, GAsyncResult *result, GError **error)
{
	JoindDeviceClass *klass;

	g_return_val_if_fail(JOIND_IS_DEVICE(self), NULL);
	klass = JOIND_DEVICE_GET_CLASS(self);
	if (g_async_result_is_tagged(result, joind_device_get_diagnostics))
		return g_task_propagate_pointer(G_TASK(result), error);
	g_return_val_if_fail(klass->get_diagnostics_finish != NULL, NULL);
	return klass->get_diagnostics_finish(self, result, error);
}
