/* joind-adhoc.c - the ad-hoc object plugins publish through the core (see
 * joind-adhoc.h); what it shares with the access point is joind-hosted.c's. */
#include "joind-adhoc.h"

#include "joind-hosted.h"

typedef struct {
	JoindHosted hosted; /* its members are the peers */
} JoindAdHocPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindAdHoc, joind_adhoc, G_TYPE_OBJECT)

static GParamSpec *props[JOIND_HOSTED_N_PROPS];
static guint signals[JOIND_HOSTED_N_SIGNALS];

#define GET_HOSTED(o) (&((JoindAdHocPrivate *)joind_adhoc_get_instance_private(o))->hosted)

static void
joind_adhoc_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	if (!joind_hosted_get_property(GET_HOSTED(JOIND_ADHOC(object)), id, value))
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void
joind_adhoc_finalize(GObject *object)
{
	joind_hosted_clear(GET_HOSTED(JOIND_ADHOC(object)));
	G_OBJECT_CLASS(joind_adhoc_parent_class)->finalize(object);
}

static void
default_start(JoindAdHoc *self, const gchar *ssid, const gchar *passphrase,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	joind_hosted_refuse(self, callback, user_data, "This device cannot run an ad-hoc network.");
}

static void
default_stop(JoindAdHoc *self, GCancellable *cancellable, GAsyncReadyCallback callback,
             gpointer user_data)
{
	joind_hosted_refuse(self, callback, user_data, "This device cannot run an ad-hoc network.");
}

static void
joind_adhoc_class_init(JoindAdHocClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->get_property = joind_adhoc_get_property;
	object_class->finalize = joind_adhoc_finalize;
	klass->start = default_start;
	klass->stop = default_stop;
	joind_hosted_class_install(object_class, props, JOIND_HOSTED_N_PROPS, signals, "peers",
	                           "peer-joined", "peer-left");
}

static void
joind_adhoc_init(JoindAdHoc *self)
{
	joind_hosted_init(GET_HOSTED(self));
}

void
joind_adhoc_start(JoindAdHoc *self, const gchar *ssid, const gchar *passphrase,
                  GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	g_return_if_fail(JOIND_IS_ADHOC(self));
	JOIND_ADHOC_GET_CLASS(self)->start(self, ssid, passphrase, cancellable, callback,
	                                   user_data);
}

void
joind_adhoc_stop(JoindAdHoc *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                 gpointer user_data)
{
	g_return_if_fail(JOIND_IS_ADHOC(self));
	JOIND_ADHOC_GET_CLASS(self)->stop(self, cancellable, callback, user_data);
}

gboolean
joind_adhoc_finish(JoindAdHoc *self, GAsyncResult *result, GError **error)
{
	return joind_hosted_finish(self, result, error);
}

void
joind_adhoc_set_started(JoindAdHoc *self, gboolean started, const gchar *name,
                        const gchar *security)
{
	g_return_if_fail(JOIND_IS_ADHOC(self));
	g_object_freeze_notify(G_OBJECT(self));
	joind_hosted_set_started(GET_HOSTED(self), G_OBJECT(self), props, started, name, security);
	g_object_thaw_notify(G_OBJECT(self));
}

gboolean
joind_adhoc_get_started(JoindAdHoc *self)
{
	g_return_val_if_fail(JOIND_IS_ADHOC(self), FALSE);
	return GET_HOSTED(self)->started;
}

void
joind_adhoc_peer_joined(JoindAdHoc *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ADHOC(self) && address != NULL);
	joind_hosted_member_joined(GET_HOSTED(self), G_OBJECT(self), props, signals, address);
}

void
joind_adhoc_peer_left(JoindAdHoc *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ADHOC(self) && address != NULL);
	joind_hosted_member_left(GET_HOSTED(self), G_OBJECT(self), props, signals, address);
}

const gchar *const *
joind_adhoc_get_peers(JoindAdHoc *self)
{
	g_return_val_if_fail(JOIND_IS_ADHOC(self), NULL);
	return (const gchar *const *)GET_HOSTED(self)->members->pdata;
}
