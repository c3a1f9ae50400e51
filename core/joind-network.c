/* joind-network.c - the network base class the wifi plugin derives. */
#include "joind-station.h"

#include "joind-error.h"
#include "joind-station-private.h"
#include "joind-util.h"

typedef struct {
	GBytes *ssid;
	gchar *name;
	JoindNetworkType type;
	gint strength;
	gchar *security;
	gboolean connected;
	JoindProfile *profile;
	gchar *object_path;
	JoindDevice *device; /* weak: the device outlives its networks' export */
} JoindNetworkPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindNetwork, joind_network, G_TYPE_OBJECT)

enum {
	PROP_0,
	PROP_SSID,
	PROP_NAME,
	PROP_NETWORK_TYPE,
	PROP_STRENGTH,
	PROP_SECURITY,
	PROP_CONNECTED,
	PROP_PROFILE,
	N_PROPS
};
static GParamSpec *props[N_PROPS];

#define GET_PRIV(o) ((JoindNetworkPrivate *)joind_network_get_instance_private(o))

static void
joind_network_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindNetworkPrivate *priv = GET_PRIV(JOIND_NETWORK(object));

	switch (id) {
	case PROP_SSID:
		g_value_set_boxed(value, priv->ssid);
		break;
	case PROP_NAME:
		g_value_set_string(value, priv->name);
		break;
	case PROP_NETWORK_TYPE:
		g_value_set_int(value, priv->type);
		break;
	case PROP_STRENGTH:
		g_value_set_int(value, priv->strength);
		break;
	case PROP_SECURITY:
		g_value_set_string(value, priv->security);
		break;
	case PROP_CONNECTED:
		g_value_set_boolean(value, priv->connected);
		break;
	case PROP_PROFILE:
		g_value_set_object(value, priv->profile);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_network_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
	JoindNetwork *self = JOIND_NETWORK(object);
	JoindNetworkPrivate *priv = GET_PRIV(self);

	switch (id) {
	case PROP_SSID:
		priv->ssid = g_value_dup_boxed(value);
		break;
	case PROP_NETWORK_TYPE:
		priv->type = g_value_get_int(value);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_network_constructed(GObject *object)
{
	JoindNetworkPrivate *priv = GET_PRIV(JOIND_NETWORK(object));
	gsize len = 0;
	const guint8 *data;

	G_OBJECT_CLASS(joind_network_parent_class)->constructed(object);
	if (priv->ssid == NULL)
		priv->ssid = g_bytes_new(NULL, 0);
	data = g_bytes_get_data(priv->ssid, &len);
	g_warn_if_fail(len >= 1 && len <= 32);
	priv->name = joind_ssid_to_display(data, len);
}

static void
joind_network_finalize(GObject *object)
{
	JoindNetworkPrivate *priv = GET_PRIV(JOIND_NETWORK(object));

	g_clear_pointer(&priv->ssid, g_bytes_unref);
	g_clear_object(&priv->profile);
	g_free(priv->name);
	g_free(priv->security);
	g_free(priv->object_path);
	g_clear_weak_pointer(&priv->device);
	G_OBJECT_CLASS(joind_network_parent_class)->finalize(object);
}

static void
joind_network_real_connect(JoindNetwork *self, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
	g_task_report_new_error(self, callback, user_data, joind_network_real_connect, JOIND_ERROR,
	                        JOIND_ERROR_NOT_SUPPORTED,
	                        "Connecting to this network is not supported.");
}

static gboolean
joind_network_real_connect_finish(JoindNetwork *self, GAsyncResult *result, GError **error)
{
	return g_task_propagate_boolean(G_TASK(result), error);
}

static void
joind_network_class_init(JoindNetworkClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
	const GParamFlags co = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

	object_class->get_property = joind_network_get_property;
	object_class->set_property = joind_network_set_property;
	object_class->constructed = joind_network_constructed;
	object_class->finalize = joind_network_finalize;
	klass->connect = joind_network_real_connect;
	klass->connect_finish = joind_network_real_connect_finish;

	props[PROP_SSID] = g_param_spec_boxed("ssid", NULL, NULL, G_TYPE_BYTES, co);
	props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, NULL, ro);
	props[PROP_NETWORK_TYPE] =
	        g_param_spec_int("network-type", NULL, NULL, 0, JOIND_NETWORK_TYPE_OWE, 0, co);
	props[PROP_STRENGTH] =
	        g_param_spec_int("strength", NULL, NULL, G_MININT16, G_MAXINT16, -10000, ro);
	props[PROP_SECURITY] = g_param_spec_string("security", NULL, NULL, "open", ro);
	props[PROP_CONNECTED] = g_param_spec_boolean("connected", NULL, NULL, FALSE, ro);
	props[PROP_PROFILE] = g_param_spec_object("profile", NULL, NULL, JOIND_TYPE_PROFILE, ro);
	g_object_class_install_properties(object_class, N_PROPS, props);
}

static void
joind_network_init(JoindNetwork *self)
{
	GET_PRIV(self)->strength = -10000;
	GET_PRIV(self)->security = g_strdup("open");
}

GBytes *
joind_network_get_ssid(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), NULL);
	return GET_PRIV(self)->ssid;
}

const gchar *
joind_network_get_name(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), NULL);
	return GET_PRIV(self)->name;
}

JoindNetworkType
joind_network_get_network_type(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), 0);
	return GET_PRIV(self)->type;
}

gint
joind_network_get_strength(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), 0);
	return GET_PRIV(self)->strength;
}

void
joind_network_set_strength(JoindNetwork *self, gint strength)
{
	JoindNetworkPrivate *priv;

	g_return_if_fail(JOIND_IS_NETWORK(self));
	priv = GET_PRIV(self);
	strength = CLAMP(strength, G_MININT16, G_MAXINT16);
	if (priv->strength == strength)
		return;
	priv->strength = strength;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STRENGTH]);
}

void
joind_network_set_security(JoindNetwork *self, const gchar *security)
{
	JoindNetworkPrivate *priv;

	g_return_if_fail(JOIND_IS_NETWORK(self) && security != NULL);
	priv = GET_PRIV(self);
	if (g_strcmp0(priv->security, security) == 0)
		return;
	g_free(priv->security);
	priv->security = g_strdup(security);
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SECURITY]);
}

void
joind_network_set_connected(JoindNetwork *self, gboolean connected)
{
	JoindNetworkPrivate *priv;

	g_return_if_fail(JOIND_IS_NETWORK(self));
	priv = GET_PRIV(self);
	if (priv->connected == !!connected)
		return;
	priv->connected = !!connected;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_CONNECTED]);
}

JoindProfile *
joind_network_get_profile(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), NULL);
	return GET_PRIV(self)->profile;
}

void
joind_network_set_profile(JoindNetwork *self, JoindProfile *profile)
{
	g_return_if_fail(JOIND_IS_NETWORK(self));
	if (g_set_object(&GET_PRIV(self)->profile, profile))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_PROFILE]);
}

const gchar *
joind_network_get_object_path(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), NULL);
	return GET_PRIV(self)->object_path;
}

void
joind_network_set_object_path(JoindNetwork *self, const gchar *path)
{
	joind_set_str(&GET_PRIV(self)->object_path, path);
}

JoindDevice *
joind_network_get_device(JoindNetwork *self)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), NULL);
	return GET_PRIV(self)->device;
}

void
joind_network_set_device(JoindNetwork *self, JoindDevice *device)
{
	g_set_weak_pointer(&GET_PRIV(self)->device, device);
}

void
joind_network_connect(JoindNetwork *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                      gpointer user_data)
{
	g_return_if_fail(JOIND_IS_NETWORK(self));
	JOIND_NETWORK_GET_CLASS(self)->connect(self, cancellable, callback, user_data);
}

gboolean
joind_network_connect_finish(JoindNetwork *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(JOIND_IS_NETWORK(self), FALSE);
	return JOIND_NETWORK_GET_CLASS(self)->connect_finish(self, result, error);
}

const gchar *
joind_network_type_to_string(JoindNetworkType type)
{
	static const gchar *const names[] = {
	        [JOIND_NETWORK_TYPE_OPEN] = "open",   [JOIND_NETWORK_TYPE_WEP] = "wep",
	        [JOIND_NETWORK_TYPE_PSK] = "psk",     [JOIND_NETWORK_TYPE_SAE] = "sae",
	        [JOIND_NETWORK_TYPE_8021X] = "8021x", [JOIND_NETWORK_TYPE_OWE] = "owe",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == JOIND_NETWORK_TYPE_LAST + 1);

	if ((guint)type < G_N_ELEMENTS(names))
		return names[type];
	return "unknown";
}

gboolean
joind_network_type_to_profile_type(JoindNetworkType type, JoindProfileType *profile_type)
{
	switch (type) {
	case JOIND_NETWORK_TYPE_OPEN:
	case JOIND_NETWORK_TYPE_OWE:
		*profile_type = JOIND_PROFILE_TYPE_OPEN;
		return TRUE;
	case JOIND_NETWORK_TYPE_PSK:
	case JOIND_NETWORK_TYPE_SAE:
		*profile_type = JOIND_PROFILE_TYPE_PSK;
		return TRUE;
	case JOIND_NETWORK_TYPE_8021X:
		*profile_type = JOIND_PROFILE_TYPE_8021X;
		return TRUE;
	case JOIND_NETWORK_TYPE_WEP:
		break;
	}
	return FALSE;
}
