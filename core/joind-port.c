/* joind-port.c - the 802.1X port base class the wired plugin derives. */
#include "joind-port.h"

#include "joind-error.h"
#include "joind-port-private.h"
#include "joind-util.h"

typedef struct {
	JoindPortState state;
	gchar *profile;
	gchar *eap_method;
	gchar *identity;
	gchar *last_error;
	JoindPortChangedFunc changed;
	gpointer changed_data;
} JoindPort8021xPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindPort8021x, joind_port_8021x, G_TYPE_OBJECT)

enum { PROP_0, PROP_STATE, PROP_PROFILE, PROP_EAP_METHOD, PROP_IDENTITY, PROP_LAST_ERROR, N_PROPS };
static GParamSpec *props[N_PROPS];

#define GET_PRIV(o) ((JoindPort8021xPrivate *)joind_port_8021x_get_instance_private(o))

static void
joind_port_8021x_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindPort8021xPrivate *priv = GET_PRIV(JOIND_PORT_8021X(object));

	switch (id) {
	case PROP_STATE:
		g_value_set_int(value, priv->state);
		break;
	case PROP_PROFILE:
		g_value_set_string(value, priv->profile);
		break;
	case PROP_EAP_METHOD:
		g_value_set_string(value, priv->eap_method);
		break;
	case PROP_IDENTITY:
		g_value_set_string(value, priv->identity);
		break;
	case PROP_LAST_ERROR:
		g_value_set_string(value, priv->last_error);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_port_8021x_finalize(GObject *object)
{
	JoindPort8021xPrivate *priv = GET_PRIV(JOIND_PORT_8021X(object));

	g_free(priv->profile);
	g_free(priv->eap_method);
	g_free(priv->identity);
	g_free(priv->last_error);
	G_OBJECT_CLASS(joind_port_8021x_parent_class)->finalize(object);
}

static gboolean
joind_port_8021x_not_supported(JoindPort8021x *self, GError **error)
{
	g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	                    "This port does not support the operation.");
	return FALSE;
}

/* The class closure of "notify": it runs whether or not anything is
 * connected to the instance. */
static void
joind_port_8021x_notify(GObject *object, GParamSpec *pspec)
{
	JoindPort8021xPrivate *priv = GET_PRIV(JOIND_PORT_8021X(object));

	if (priv->changed != NULL)
		priv->changed(JOIND_PORT_8021X(object), pspec, priv->changed_data);
}

void
joind_port_8021x_set_changed_func(JoindPort8021x *self, JoindPortChangedFunc func, gpointer data)
{
	JoindPort8021xPrivate *priv = GET_PRIV(self);

	priv->changed = func;
	priv->changed_data = data;
}

static void
joind_port_8021x_class_init(JoindPort8021xClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

	object_class->get_property = joind_port_8021x_get_property;
	object_class->finalize = joind_port_8021x_finalize;
	object_class->notify = joind_port_8021x_notify;
	klass->reauthenticate = joind_port_8021x_not_supported;
	klass->logoff = joind_port_8021x_not_supported;

	props[PROP_STATE] =
	        g_param_spec_int("state", NULL, NULL, 0, JOIND_PORT_STATE_FAILED, 0, ro);
	props[PROP_PROFILE] = g_param_spec_string("profile", NULL, NULL, NULL, ro);
	props[PROP_EAP_METHOD] = g_param_spec_string("eap-method", NULL, NULL, NULL, ro);
	props[PROP_IDENTITY] = g_param_spec_string("identity", NULL, NULL, NULL, ro);
	props[PROP_LAST_ERROR] = g_param_spec_string("last-error", NULL, NULL, NULL, ro);
	g_object_class_install_properties(object_class, N_PROPS, props);
}

static void
joind_port_8021x_init(JoindPort8021x *self)
{
}

JoindPortState
joind_port_8021x_get_state(JoindPort8021x *self)
{
	g_return_val_if_fail(JOIND_IS_PORT_8021X(self), 0);
	return GET_PRIV(self)->state;
}

void
joind_port_8021x_set_state(JoindPort8021x *self, JoindPortState state)
{
	g_return_if_fail(JOIND_IS_PORT_8021X(self));
	if (GET_PRIV(self)->state == state)
		return;
	GET_PRIV(self)->state = state;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STATE]);
}

/* The string properties share one setter shape. */
static void
port_set_string(JoindPort8021x *self, gchar **field, const gchar *value, guint prop)
{
	if (joind_set_str(field, value))
		g_object_notify_by_pspec(G_OBJECT(self), props[prop]);
}

const gchar *
joind_port_8021x_get_profile(JoindPort8021x *self)
{
	g_return_val_if_fail(JOIND_IS_PORT_8021X(self), NULL);
	return GET_PRIV(self)->profile;
}

void
joind_port_8021x_set_profile(JoindPort8021x *self, const gchar *profile)
{
	g_return_if_fail(JOIND_IS_PORT_8021X(self));
	port_set_string(self, &GET_PRIV(self)->profile, profile, PROP_PROFILE);
}

const gchar *
joind_port_8021x_get_eap_method(JoindPort8021x *self)
{
	g_return_val_if_fail(JOIND_IS_PORT_8021X(self), NULL);
	return GET_PRIV(self)->eap_method;
}

void
joind_port_8021x_set_eap_method(JoindPort8021x *self, const gchar *method)
{
	g_return_if_fail(JOIND_IS_PORT_8021X(self));
	port_set_string(self, &GET_PRIV(self)->eap_method, method, PROP_EAP_METHOD);
}

void
joind_port_8021x_set_identity(JoindPort8021x *self, const gchar *identity)
{
	g_return_if_fail(JOIND_IS_PORT_8021X(self));
	port_set_string(self, &GET_PRIV(self)->identity, identity, PROP_IDENTITY);
}

const gchar *
joind_port_8021x_get_last_error(JoindPort8021x *self)
{
	g_return_val_if_fail(JOIND_IS_PORT_8021X(self), NULL);
	return GET_PRIV(self)->last_error;
}

void
joind_port_8021x_set_last_error(JoindPort8021x *self, const gchar *sentence)
{
	g_return_if_fail(JOIND_IS_PORT_8021X(self));
	port_set_string(self, &GET_PRIV(self)->last_error, sentence, PROP_LAST_ERROR);
}

gboolean
joind_port_8021x_reauthenticate(JoindPort8021x *self, GError **error)
{
	g_return_val_if_fail(JOIND_IS_PORT_8021X(self), FALSE);
	return JOIND_PORT_8021X_GET_CLASS(self)->reauthenticate(self, error);
}

gboolean
joind_port_8021x_logoff(JoindPort8021x *self, GError **error)
{
	g_return_val_if_fail(JOIND_IS_PORT_8021X(self), FALSE);
	return JOIND_PORT_8021X_GET_CLASS(self)->logoff(self, error);
}

const gchar *
joind_port_state_to_string(JoindPortState state)
{
	static const gchar *const names[] = {
	        [JOIND_PORT_STATE_IDLE] = "idle",
	        [JOIND_PORT_STATE_CONNECTING] = "connecting",
	        [JOIND_PORT_STATE_AUTHENTICATING] = "authenticating",
	        [JOIND_PORT_STATE_AUTHENTICATED] = "authenticated",
	        [JOIND_PORT_STATE_HELD] = "held",
	        [JOIND_PORT_STATE_FAILED] = "failed",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == JOIND_PORT_STATE_LAST + 1);

	if ((guint)state < G_N_ELEMENTS(names))
		return names[state];
	return "unknown";
}
