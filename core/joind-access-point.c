/* joind-access-point.c - the access point object plugins publish through
 * the core (see joind-access-point.h). */
#include "joind-access-point.h"

#include "joind-error.h"
#include "joind-util.h"

typedef struct {
	gboolean started;
	gchar *name;
	guint frequency;
	gchar *security;
	GPtrArray *stations; /* gchar *, NULL-terminated */
} JoindAccessPointPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindAccessPoint, joind_access_point, G_TYPE_OBJECT)

enum { PROP_0, PROP_STARTED, PROP_NAME, PROP_FREQUENCY, PROP_SECURITY, PROP_STATIONS, N_PROPS };
static GParamSpec *props[N_PROPS];

enum { SIGNAL_STATION_JOINED, SIGNAL_STATION_LEFT, N_SIGNALS };
static guint signals[N_SIGNALS];

#define GET_PRIV(o) ((JoindAccessPointPrivate *)joind_access_point_get_instance_private(o))

static void
joind_access_point_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindAccessPointPrivate *priv = GET_PRIV(JOIND_ACCESS_POINT(object));

	switch (id) {
	case PROP_STARTED:
		g_value_set_boolean(value, priv->started);
		break;
	case PROP_NAME:
		g_value_set_string(value, priv->name != NULL ? priv->name : "");
		break;
	case PROP_FREQUENCY:
		g_value_set_uint(value, priv->frequency);
		break;
	case PROP_SECURITY:
		g_value_set_string(value, priv->security != NULL ? priv->security : "");
		break;
	case PROP_STATIONS:
		g_value_set_boxed(value, priv->stations->pdata);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_access_point_finalize(GObject *object)
{
	JoindAccessPointPrivate *priv = GET_PRIV(JOIND_ACCESS_POINT(object));

	g_free(priv->name);
	g_free(priv->security);
	g_ptr_array_unref(priv->stations);
	G_OBJECT_CLASS(joind_access_point_parent_class)->finalize(object);
}

/* A subclass that cannot do something says so. */
static void
refuse(JoindAccessPoint *self, GAsyncReadyCallback callback, gpointer user_data, const gchar *what)
{
	g_autoptr(GTask) task = g_task_new(self, NULL, callback, user_data);

	g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	                        "This access point cannot %s.", what);
}

static void
default_start(JoindAccessPoint *self, const gchar *ssid, const gchar *passphrase,
              const gchar *security, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data)
{
	refuse(self, callback, user_data, "start");
}

static void
default_start_profile(JoindAccessPoint *self, const gchar *name, GCancellable *cancellable,
                      GAsyncReadyCallback callback, gpointer user_data)
{
	refuse(self, callback, user_data, "start from a profile");
}

static void
default_stop(JoindAccessPoint *self, GCancellable *cancellable, GAsyncReadyCallback callback,
             gpointer user_data)
{
	refuse(self, callback, user_data, "stop");
}

static void
joind_access_point_class_init(JoindAccessPointClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

	object_class->get_property = joind_access_point_get_property;
	object_class->finalize = joind_access_point_finalize;
	klass->start = default_start;
	klass->start_profile = default_start_profile;
	klass->stop = default_stop;
	props[PROP_STARTED] = g_param_spec_boolean("started", NULL, NULL, FALSE, ro);
	props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, "", ro);
	props[PROP_FREQUENCY] = g_param_spec_uint("frequency", NULL, NULL, 0, G_MAXUINT, 0, ro);
	props[PROP_SECURITY] = g_param_spec_string("security", NULL, NULL, "", ro);
	props[PROP_STATIONS] = g_param_spec_boxed("stations", NULL, NULL, G_TYPE_STRV, ro);
	g_object_class_install_properties(object_class, N_PROPS, props);
	signals[SIGNAL_STATION_JOINED] =
	        g_signal_new("station-joined", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
	signals[SIGNAL_STATION_LEFT] =
	        g_signal_new("station-left", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
joind_access_point_init(JoindAccessPoint *self)
{
	GET_PRIV(self)->stations = g_ptr_array_new_null_terminated(4, g_free, TRUE);
}

void
joind_access_point_start(JoindAccessPoint *self, const gchar *ssid, const gchar *passphrase,
                         const gchar *security, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
	g_return_if_fail(JOIND_IS_ACCESS_POINT(self));
	JOIND_ACCESS_POINT_GET_CLASS(self)->start(self, ssid, passphrase, security, cancellable,
	                                          callback, user_data);
}

void
joind_access_point_start_profile(JoindAccessPoint *self, const gchar *name,
                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data)
{
	g_return_if_fail(JOIND_IS_ACCESS_POINT(self));
	JOIND_ACCESS_POINT_GET_CLASS(self)->start_profile(self, name, cancellable, callback,
	                                                  user_data);
}

void
joind_access_point_stop(JoindAccessPoint *self, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
	g_return_if_fail(JOIND_IS_ACCESS_POINT(self));
	JOIND_ACCESS_POINT_GET_CLASS(self)->stop(self, cancellable, callback, user_data);
}

gboolean
joind_access_point_finish(JoindAccessPoint *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}

void
joind_access_point_set_started(JoindAccessPoint *self, gboolean started, const gchar *name,
                               guint frequency, const gchar *security)
{
	JoindAccessPointPrivate *priv;

	g_return_if_fail(JOIND_IS_ACCESS_POINT(self));
	priv = GET_PRIV(self);
	g_object_freeze_notify(G_OBJECT(self));
	if (!started) {
		name = NULL;
		frequency = 0;
		security = NULL;
	}
	if (joind_set_str(&priv->name, name))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_NAME]);
	if (joind_set_str(&priv->security, security))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SECURITY]);
	if (priv->frequency != frequency) {
		priv->frequency = frequency;
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_FREQUENCY]);
	}
	if (priv->started != !!started) {
		priv->started = !!started;
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STARTED]);
	}
	g_object_thaw_notify(G_OBJECT(self));
}

gboolean
joind_access_point_get_started(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), FALSE);
	return GET_PRIV(self)->started;
}

const gchar *
joind_access_point_get_name(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), NULL);
	return GET_PRIV(self)->name != NULL ? GET_PRIV(self)->name : "";
}

guint
joind_access_point_get_frequency(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), 0);
	return GET_PRIV(self)->frequency;
}

void
joind_access_point_station_joined(JoindAccessPoint *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ACCESS_POINT(self) && address != NULL);
	if (!joind_addresses_add(GET_PRIV(self)->stations, address))
		return;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STATIONS]);
	g_signal_emit(self, signals[SIGNAL_STATION_JOINED], 0, address);
}

void
joind_access_point_station_left(JoindAccessPoint *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ACCESS_POINT(self) && address != NULL);
	if (!joind_addresses_remove(GET_PRIV(self)->stations, address))
		return;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STATIONS]);
	g_signal_emit(self, signals[SIGNAL_STATION_LEFT], 0, address);
}

const gchar *const *
joind_access_point_get_stations(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), NULL);
	return (const gchar *const *)GET_PRIV(self)->stations->pdata;
}
