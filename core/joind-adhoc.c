/* joind-adhoc.c - the ad-hoc object plugins publish through the core (see
 * joind-adhoc.h). */
#include "joind-adhoc.h"

#include "joind-error.h"
#include "joind-util.h"

typedef struct {
	gboolean started;
	gchar *name;
	gchar *security;
	GPtrArray *peers; /* gchar *, NULL-terminated */
} JoindAdHocPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindAdHoc, joind_adhoc, G_TYPE_OBJECT)

enum { PROP_0, PROP_STARTED, PROP_NAME, PROP_SECURITY, PROP_PEERS, N_PROPS };
static GParamSpec *props[N_PROPS];

enum { SIGNAL_PEER_JOINED, SIGNAL_PEER_LEFT, N_SIGNALS };
static guint signals[N_SIGNALS];

#define GET_PRIV(o) ((JoindAdHocPrivate *)joind_adhoc_get_instance_private(o))

static void
joind_adhoc_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindAdHocPrivate *priv = GET_PRIV(JOIND_ADHOC(object));

	switch (id) {
	case PROP_STARTED:
		g_value_set_boolean(value, priv->started);
		break;
	case PROP_NAME:
		g_value_set_string(value, priv->name != NULL ? priv->name : "");
		break;
	case PROP_SECURITY:
		g_value_set_string(value, priv->security != NULL ? priv->security : "");
		break;
	case PROP_PEERS:
		g_value_set_boxed(value, priv->peers->pdata);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_adhoc_finalize(GObject *object)
{
	JoindAdHocPrivate *priv = GET_PRIV(JOIND_ADHOC(object));

	g_free(priv->name);
	g_free(priv->security);
	g_ptr_array_unref(priv->peers);
	G_OBJECT_CLASS(joind_adhoc_parent_class)->finalize(object);
}

static void
refuse(JoindAdHoc *self, GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(self, NULL, callback, user_data);

	g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	                        "This device cannot run an ad-hoc network.");
}

static void
default_start(JoindAdHoc *self, const gchar *ssid, const gchar *passphrase,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	refuse(self, callback, user_data);
}

static void
default_stop(JoindAdHoc *self, GCancellable *cancellable, GAsyncReadyCallback callback,
             gpointer user_data)
{
	refuse(self, callback, user_data);
}

static void
joind_adhoc_class_init(JoindAdHocClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

	object_class->get_property = joind_adhoc_get_property;
	object_class->finalize = joind_adhoc_finalize;
	klass->start = default_start;
	klass->stop = default_stop;
	props[PROP_STARTED] = g_param_spec_boolean("started", NULL, NULL, FALSE, ro);
	props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, "", ro);
	props[PROP_SECURITY] = g_param_spec_string("security", NULL, NULL, "", ro);
	props[PROP_PEERS] = g_param_spec_boxed("peers", NULL, NULL, G_TYPE_STRV, ro);
	g_object_class_install_properties(object_class, N_PROPS, props);
	signals[SIGNAL_PEER_JOINED] =
	        g_signal_new("peer-joined", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
	signals[SIGNAL_PEER_LEFT] =
	        g_signal_new("peer-left", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
joind_adhoc_init(JoindAdHoc *self)
{
	GET_PRIV(self)->peers = g_ptr_array_new_null_terminated(4, g_free, TRUE);
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
	g_return_val_if_fail(g_task_is_valid(result, self), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}

void
joind_adhoc_set_started(JoindAdHoc *self, gboolean started, const gchar *name,
                        const gchar *security)
{
	JoindAdHocPrivate *priv;

	g_return_if_fail(JOIND_IS_ADHOC(self));
	priv = GET_PRIV(self);
	g_object_freeze_notify(G_OBJECT(self));
	if (!started) {
		name = NULL;
		security = NULL;
	}
	if (joind_set_str(&priv->name, name))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_NAME]);
	if (joind_set_str(&priv->security, security))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SECURITY]);
	if (priv->started != !!started) {
		priv->started = !!started;
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STARTED]);
	}
	g_object_thaw_notify(G_OBJECT(self));
}

gboolean
joind_adhoc_get_started(JoindAdHoc *self)
{
	g_return_val_if_fail(JOIND_IS_ADHOC(self), FALSE);
	return GET_PRIV(self)->started;
}

void
joind_adhoc_peer_joined(JoindAdHoc *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ADHOC(self) && address != NULL);
	if (!joind_addresses_add(GET_PRIV(self)->peers, address))
		return;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_PEERS]);
	g_signal_emit(self, signals[SIGNAL_PEER_JOINED], 0, address);
}

void
joind_adhoc_peer_left(JoindAdHoc *self, const gchar *address)
{
	g_return_if_fail(JOIND_IS_ADHOC(self) && address != NULL);
	if (!joind_addresses_remove(GET_PRIV(self)->peers, address))
		return;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_PEERS]);
	g_signal_emit(self, signals[SIGNAL_PEER_LEFT], 0, address);
}

const gchar *const *
joind_adhoc_get_peers(JoindAdHoc *self)
{
	g_return_val_if_fail(JOIND_IS_ADHOC(self), NULL);
	return (const gchar *const *)GET_PRIV(self)->peers->pdata;
}
