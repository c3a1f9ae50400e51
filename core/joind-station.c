/* joind-station.c - the station base class the wifi plugin derives. */
#include "joind-station.h"

#include <string.h>

#include "joind-error.h"
#include "joind-log.h"
#include "joind-mac.h"
#include "joind-station-private.h"

typedef struct {
	gboolean scanning;
	JoindStationState state;
	JoindNetwork *connected_network;
	JoindNetwork *target_network;
	gchar *connected_ap;
	GPtrArray *networks; /* JoindNetwork, strong */
	JoindDevice *device; /* weak */
} JoindStationPrivate;

G_DEFINE_TYPE_WITH_PRIVATE(JoindStation, joind_station, G_TYPE_OBJECT)

enum {
	PROP_0,
	PROP_SCANNING,
	PROP_STATE,
	PROP_CONNECTED_NETWORK,
	PROP_TARGET_NETWORK,
	PROP_CONNECTED_AP,
	N_PROPS
};
static GParamSpec *props[N_PROPS];

enum { SIGNAL_NETWORK_ADDED, SIGNAL_NETWORK_REMOVED, N_SIGNALS };
static guint signals[N_SIGNALS];

#define GET_PRIV(o) ((JoindStationPrivate *)joind_station_get_instance_private(o))

static void
joind_station_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
	JoindStationPrivate *priv = GET_PRIV(JOIND_STATION(object));

	switch (id) {
	case PROP_SCANNING:
		g_value_set_boolean(value, priv->scanning);
		break;
	case PROP_STATE:
		g_value_set_int(value, priv->state);
		break;
	case PROP_CONNECTED_NETWORK:
		g_value_set_object(value, priv->connected_network);
		break;
	case PROP_TARGET_NETWORK:
		g_value_set_object(value, priv->target_network);
		break;
	case PROP_CONNECTED_AP:
		g_value_set_string(value, priv->connected_ap);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
	}
}

static void
joind_station_dispose(GObject *object)
{
	JoindStationPrivate *priv = GET_PRIV(JOIND_STATION(object));

	g_clear_object(&priv->connected_network);
	g_clear_object(&priv->target_network);
	if (priv->networks != NULL)
		g_ptr_array_set_size(priv->networks, 0);
	G_OBJECT_CLASS(joind_station_parent_class)->dispose(object);
}

static void
joind_station_finalize(GObject *object)
{
	JoindStationPrivate *priv = GET_PRIV(JOIND_STATION(object));

	g_clear_pointer(&priv->networks, g_ptr_array_unref);
	g_clear_pointer(&priv->connected_ap, g_free);
	g_clear_weak_pointer(&priv->device);
	G_OBJECT_CLASS(joind_station_parent_class)->finalize(object);
}

static void
report_not_supported(gpointer self, GAsyncReadyCallback callback, gpointer user_data, gpointer tag,
                     const gchar *what)
{
	g_task_report_new_error(self, callback, user_data, tag, JOIND_ERROR,
	                        JOIND_ERROR_NOT_SUPPORTED, "This station cannot %s.", what);
}

static void
joind_station_real_scan(JoindStation *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data)
{
	report_not_supported(self, callback, user_data, joind_station_real_scan, "scan");
}

static void
joind_station_real_disconnect(JoindStation *self, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
	report_not_supported(self, callback, user_data, joind_station_real_disconnect,
	                     "disconnect");
}

static void
joind_station_real_connect_hidden(JoindStation *self, GBytes *ssid, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data)
{
	report_not_supported(self, callback, user_data, joind_station_real_connect_hidden,
	                     "connect to hidden networks");
}

static gboolean
joind_station_real_finish(JoindStation *self, GAsyncResult *result, GError **error)
{
	return g_task_propagate_boolean(G_TASK(result), error);
}

static gint
compare_strength(gconstpointer a, gconstpointer b)
{
	JoindNetwork *na = *(JoindNetwork **)a;
	JoindNetwork *nb = *(JoindNetwork **)b;

	return joind_network_get_strength(nb) - joind_network_get_strength(na);
}

static gpointer
copy_ref(gconstpointer src, gpointer data)
{
	return g_object_ref((gpointer)src);
}

static GPtrArray *
joind_station_real_get_ordered_networks(JoindStation *self)
{
	GPtrArray *out = g_ptr_array_copy(GET_PRIV(self)->networks, copy_ref, NULL);

	g_ptr_array_set_free_func(out, g_object_unref);
	g_ptr_array_sort(out, compare_strength);
	return out;
}

static GArray *
joind_station_real_get_hidden_access_points(JoindStation *self)
{
	return g_array_new(FALSE, FALSE, sizeof(JoindHiddenAccessPoint));
}

static gboolean
joind_station_real_roam(JoindStation *self, const guint8 *bssid, GError **error)
{
	return joind_set_error(error, JOIND_ERROR_NOT_SUPPORTED, "This station cannot roam.");
}

static void
joind_station_class_init(JoindStationClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

	object_class->get_property = joind_station_get_property;
	object_class->dispose = joind_station_dispose;
	object_class->finalize = joind_station_finalize;
	klass->scan = joind_station_real_scan;
	klass->scan_finish = joind_station_real_finish;
	klass->disconnect = joind_station_real_disconnect;
	klass->disconnect_finish = joind_station_real_finish;
	klass->connect_hidden = joind_station_real_connect_hidden;
	klass->connect_hidden_finish = joind_station_real_finish;
	klass->get_ordered_networks = joind_station_real_get_ordered_networks;
	klass->get_hidden_access_points = joind_station_real_get_hidden_access_points;
	klass->roam = joind_station_real_roam;

	props[PROP_SCANNING] = g_param_spec_boolean("scanning", NULL, NULL, FALSE, ro);
	props[PROP_STATE] =
	        g_param_spec_int("state", NULL, NULL, 0, JOIND_STATION_STATE_LAST, 0, ro);
	props[PROP_CONNECTED_NETWORK] =
	        g_param_spec_object("connected-network", NULL, NULL, JOIND_TYPE_NETWORK, ro);
	props[PROP_TARGET_NETWORK] =
	        g_param_spec_object("target-network", NULL, NULL, JOIND_TYPE_NETWORK, ro);
	props[PROP_CONNECTED_AP] =
	        g_param_spec_string("connected-access-point", NULL, NULL, NULL, ro);
	g_object_class_install_properties(object_class, N_PROPS, props);

	signals[SIGNAL_NETWORK_ADDED] =
	        g_signal_new("network-added", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
	                     NULL, NULL, G_TYPE_NONE, 1, JOIND_TYPE_NETWORK);
	signals[SIGNAL_NETWORK_REMOVED] =
	        g_signal_new("network-removed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
	                     NULL, NULL, NULL, G_TYPE_NONE, 1, JOIND_TYPE_NETWORK);
}

static void
joind_station_init(JoindStation *self)
{
	GET_PRIV(self)->networks = g_ptr_array_new_with_free_func(g_object_unref);
}

gboolean
joind_station_get_scanning(JoindStation *self)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), FALSE);
	return GET_PRIV(self)->scanning;
}

void
joind_station_set_scanning(JoindStation *self, gboolean scanning)
{
	JoindStationPrivate *priv;

	g_return_if_fail(JOIND_IS_STATION(self));
	priv = GET_PRIV(self);
	if (priv->scanning == !!scanning)
		return;
	priv->scanning = !!scanning;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_SCANNING]);
}

JoindStationState
joind_station_get_state(JoindStation *self)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), 0);
	return GET_PRIV(self)->state;
}

void
joind_station_set_state(JoindStation *self, JoindStationState state, const gchar *reason)
{
	JoindStationPrivate *priv;

	g_return_if_fail(JOIND_IS_STATION(self));
	priv = GET_PRIV(self);
	if (priv->state == state)
		return;
	joind_log_state_change(
	        G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE,
	        &(JoindLogSubject){
	                priv->device != NULL ? joind_device_get_plugin(priv->device) : NULL,
	                priv->device != NULL ? joind_device_get_name(priv->device) : NULL,
	                priv->connected_network != NULL
	                        ? joind_network_get_name(priv->connected_network)
	                        : NULL,
	                NULL},
	        joind_station_state_to_string(priv->state), joind_station_state_to_string(state),
	        reason != NULL ? reason : "no reason given");
	priv->state = state;
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_STATE]);
}

JoindNetwork *
joind_station_get_connected_network(JoindStation *self)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), NULL);
	return GET_PRIV(self)->connected_network;
}

void
joind_station_set_connected_network(JoindStation *self, JoindNetwork *network)
{
	g_return_if_fail(JOIND_IS_STATION(self));
	if (g_set_object(&GET_PRIV(self)->connected_network, network))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_CONNECTED_NETWORK]);
}

void
joind_station_set_connected_access_point(JoindStation *self, const gchar *bssid)
{
	JoindStationPrivate *priv;

	g_return_if_fail(JOIND_IS_STATION(self));
	priv = GET_PRIV(self);
	if (g_strcmp0(priv->connected_ap, bssid) == 0)
		return;
	g_free(priv->connected_ap);
	priv->connected_ap = g_strdup(bssid);
	g_object_notify_by_pspec(G_OBJECT(self), props[PROP_CONNECTED_AP]);
}

gboolean
joind_station_roam(JoindStation *self, const gchar *bssid, GError **error)
{
	guint8 mac[JOIND_MAC_LEN];

	g_return_val_if_fail(JOIND_IS_STATION(self), FALSE);
	if (bssid == NULL || !joind_mac_parse(bssid, mac))
		return joind_set_error(error, JOIND_ERROR_INVALID_ARGS,
		                       "“%s” is not a BSSID (aa:bb:cc:dd:ee:ff).",
		                       bssid != NULL ? bssid : "");
	return JOIND_STATION_GET_CLASS(self)->roam(self, mac, error);
}

JoindNetwork *
joind_station_get_target_network(JoindStation *self)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), NULL);
	return GET_PRIV(self)->target_network;
}

void
joind_station_set_target_network(JoindStation *self, JoindNetwork *network)
{
	g_return_if_fail(JOIND_IS_STATION(self));
	if (g_set_object(&GET_PRIV(self)->target_network, network))
		g_object_notify_by_pspec(G_OBJECT(self), props[PROP_TARGET_NETWORK]);
}

JoindDevice *
joind_station_get_device(JoindStation *self)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), NULL);
	return GET_PRIV(self)->device;
}

void
joind_station_set_device(JoindStation *self, JoindDevice *device)
{
	JoindStationPrivate *priv = GET_PRIV(self);

	g_set_weak_pointer(&priv->device, device);
	for (guint i = 0; i < priv->networks->len; i++)
		joind_network_set_device(g_ptr_array_index(priv->networks, i), device);
}

void
joind_station_add_network(JoindStation *self, JoindNetwork *network)
{
	JoindStationPrivate *priv;

	g_return_if_fail(JOIND_IS_STATION(self));
	g_return_if_fail(JOIND_IS_NETWORK(network));
	priv = GET_PRIV(self);
	if (g_ptr_array_find(priv->networks, network, NULL))
		return;
	g_ptr_array_add(priv->networks, g_object_ref(network));
	joind_network_set_device(network, priv->device);
	g_signal_emit(self, signals[SIGNAL_NETWORK_ADDED], 0, network);
}

void
joind_station_remove_network(JoindStation *self, JoindNetwork *network)
{
	JoindStationPrivate *priv;
	g_autoptr(JoindNetwork) hold = NULL;
	guint index;

	g_return_if_fail(JOIND_IS_STATION(self));
	g_return_if_fail(JOIND_IS_NETWORK(network));
	priv = GET_PRIV(self);
	if (!g_ptr_array_find(priv->networks, network, &index))
		return;
	hold = g_object_ref(network);
	g_ptr_array_remove_index(priv->networks, index);
	if (priv->connected_network == network)
		joind_station_set_connected_network(self, NULL);
	if (priv->target_network == network)
		joind_station_set_target_network(self, NULL);
	g_signal_emit(self, signals[SIGNAL_NETWORK_REMOVED], 0, network);
}

GPtrArray *
joind_station_get_networks(JoindStation *self)
{
	GPtrArray *copy;

	g_return_val_if_fail(JOIND_IS_STATION(self), NULL);
	copy = g_ptr_array_copy(GET_PRIV(self)->networks, NULL, NULL);
	/* Transfer container: the copy inherits the free function (unref),
	 * which must not run on networks the caller does not own. */
	g_ptr_array_set_free_func(copy, NULL);
	return copy;
}

void
joind_station_scan(JoindStation *self, GCancellable *cancellable, GAsyncReadyCallback callback,
                   gpointer user_data)
{
	g_return_if_fail(JOIND_IS_STATION(self));
	JOIND_STATION_GET_CLASS(self)->scan(self, cancellable, callback, user_data);
}

gboolean
joind_station_scan_finish(JoindStation *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), FALSE);
	return JOIND_STATION_GET_CLASS(self)->scan_finish(self, result, error);
}

void
joind_station_disconnect(JoindStation *self, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
	g_return_if_fail(JOIND_IS_STATION(self));
	JOIND_STATION_GET_CLASS(self)->disconnect(self, cancellable, callback, user_data);
}

gboolean
joind_station_disconnect_finish(JoindStation *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), FALSE);
	return JOIND_STATION_GET_CLASS(self)->disconnect_finish(self, result, error);
}

void
joind_station_connect_hidden(JoindStation *self, GBytes *ssid, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
	g_return_if_fail(JOIND_IS_STATION(self));
	JOIND_STATION_GET_CLASS(self)->connect_hidden(self, ssid, cancellable, callback, user_data);
}

gboolean
joind_station_connect_hidden_finish(JoindStation *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), FALSE);
	return JOIND_STATION_GET_CLASS(self)->connect_hidden_finish(self, result, error);
}

GPtrArray *
joind_station_get_ordered_networks(JoindStation *self)
{
	g_return_val_if_fail(JOIND_IS_STATION(self), NULL);
	return JOIND_STATION_GET_CLASS(self)->get_ordered_networks(self);
}

static gint
compare_hidden(gconstpointer a, gconstpointer b)
{
	const JoindHiddenAccessPoint *ha = a;
	const JoindHiddenAccessPoint *hb = b;

	if (ha->strength != hb->strength)
		return hb->strength - ha->strength;
	return memcmp(ha->address, hb->address, sizeof(ha->address));
}

GArray *
joind_station_get_hidden_access_points(JoindStation *self)
{
	GArray *out;

	g_return_val_if_fail(JOIND_IS_STATION(self), NULL);
	out = JOIND_STATION_GET_CLASS(self)->get_hidden_access_points(self);
	g_array_sort(out, compare_hidden);
	return out;
}

const gchar *
joind_station_state_to_string(JoindStationState state)
{
	static const gchar *const names[] = {
	        [JOIND_STATION_STATE_DISCONNECTED] = "disconnected",
	        [JOIND_STATION_STATE_CONNECTING] = "connecting",
	        [JOIND_STATION_STATE_CONNECTED] = "connected",
	        [JOIND_STATION_STATE_DISCONNECTING] = "disconnecting",
	        [JOIND_STATION_STATE_ROAMING] = "roaming",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == JOIND_STATION_STATE_LAST + 1);

	if ((guint)state < G_N_ELEMENTS(names))
		return names[state];
	return "unknown";
}
