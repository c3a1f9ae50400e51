/* joind-access-point.c - the access point object plugins publish through
 * the core (see joind-access-point.h); what it shares with the ad-hoc
 * network is joind-hosted.c's. */
#include "joind-access-point.h"

#include "joind-hosted.h"

typedef struct {
	JoindHosted hosted; /* its members are the stations */
	guint frequency;
} JoindAccessPointPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindAccessPoint, joind_access_point, G_TYPE_OBJECT)

enum { PROP_FREQUENCY = JOIND_HOSTED_N_PROPS, N_PROPS };
static GParamSpec *props[N_PROPS];
static guint signals[JOIND_HOSTED_N_SIGNALS];

#define GET_PRIV(o) ((JoindAccessPointPrivate *)joind_access_point_get_instance_private(o))

static void
joind_access_point_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindAccessPointPrivate *priv = GET_PRIV(JOIND_ACCESS_POINT(object));

	if (id == PROP_FREQUENCY)
		g_value_set_uint(value, priv->frequency);
	else if (!joind_hosted_get_property(&priv->hosted, id, value))
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void
joind_access_point_finalize(GObject *object)
{
	joind_hosted_clear(&GET_PRIV(JOIND_ACCESS_POINT(object))->hosted);
	G_OBJECT_CLASS(joind_access_point_parent_class)->finalize(object);
}

static void
default_start(JoindAccessPoint *self, const gchar *ssid, const gchar *passphrase,
              const gchar *security, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data)
{
	joind_hosted_refuse(self, callback, user_data, "This access point cannot start.");
}

static void
default_start_profile(JoindAccessPoint *self, const gchar *name, GCancellable *cancellable,
                      GAsyncReadyCallback callback, gpointer user_data)
{
	joind_hosted_refuse(self, callback, user_data,
	                    "This access point cannot start from a profile.");
}

static void
default_stop(JoindAccessPoint *self, GCancellable *cancellable, GAsyncReadyCallback callback,
             gpointer user_data)
{
	joind_hosted_refuse(self, callback, user_data, "This access point cannot stop.");
}

static void
joind_access_point_class_init(JoindAccessPointClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->get_property = joind_access_point_get_property;
	object_class->finalize = joind_access_point_finalize;
	klass->start = default_start;
	klass->start_profile = default_start_profile;
	klass->stop = default_stop;
	props[PROP_FREQUENCY] = g_param_spec_uint("frequency", NULL, NULL, 0, G_MAXUINT, 0,
	                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
	joind_hosted_class_install(object_class, props, N_PROPS, signals, "stations",
	                           "station-joined", "station-left");
}

static void
joind_access_point_init(JoindAccessPoint *self)
{
	joind_hosted_init(&GET_PRIV(self)->hosted);
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
	return joind_hosted_finish(self, result, error);
}

void
joind_access_point_set_started(JoindAccessPoint *self, gboolean started, const gchar *name,
                               guint frequency, const gchar *security)
{
	JoindAccessPointPrivate *priv;

	g_return_if_fail(JOIND_IS_ACCESS_POINT(self));
	priv = GET_PRIV(self);
	g_object_freeze_notify(G_OBJECT(self));
	if (!started)
		frequency = 0;
	if (priv->frequency != frequency) {
		priv->frequency = frequency;
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_FREQUENCY]);
	}
	joind_hosted_set_started(&priv->hosted, G_OBJECT(self), props, started, name, security);
	g_object_thaw_notify(G_OBJECT(self));
}

gboolean
joind_access_point_get_started(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), FALSE);
	return GET_PRIV(self)->hosted.started;
}

const gchar *
joind_access_point_get_name(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), NULL);
	return GET_PRIV(self)->hosted.name != NULL ? GET_PRIV(self)->hosted.name : "";
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
	joind_hosted_member_joined(&GET_PRIV(self)->hosted, G_OBJECT(self), props, signals,
	                           address);
}

void
joind_access_point_station_left(JoindAccessPoint *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ACCESS_POINT(self) && address != NULL);
	joind_hosted_member_left(&GET_PRIV(self)->hosted, G_OBJECT(self), props, signals, address);
}

const gchar *const *
joind_access_point_get_stations(JoindAccessPoint *self)
{
	g_return_val_if_fail(JOIND_IS_ACCESS_POINT(self), NULL);
	return (const gchar *const *)GET_PRIV(self)->hosted.members->pdata;
}
