/* iwd-calls.c - Station, Network and Device calls under iwd's API (see
 * iwd-calls.h). Each handler runs once the core's gate let the caller in,
 * hands the model the call's cancellable (which names the caller, so a
 * secret is asked of the caller's own agent) and answers once the model
 * has: Network.Connect() only when connected, as iwd does.
 */
#include "iwd-calls.h"

#include <string.h>

#include "iwd-device.h"
#include "iwd-names.h"

typedef enum {
	OP_SCAN,
	OP_DISCONNECT,
	OP_CONNECT_HIDDEN,
	OP_CONNECT,
} Op;

typedef struct {
	JoindCall *call;
	Op op;
} OpCall;

static gboolean
op_finish(Op op, GObject *source, GAsyncResult *result, GError **error)
{
	switch (op) {
	case OP_SCAN:
		return joind_station_scan_finish(JOIND_STATION(source), result, error);
	case OP_DISCONNECT:
		return joind_station_disconnect_finish(JOIND_STATION(source), result, error);
	case OP_CONNECT_HIDDEN:
		return joind_station_connect_hidden_finish(JOIND_STATION(source), result, error);
	case OP_CONNECT:
		return joind_network_connect_finish(JOIND_NETWORK(source), result, error);
	}
	return FALSE;
}

static void
op_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree OpCall *oc = user_data;
	g_autoptr(GError) error = NULL;
	gboolean ok = op_finish(oc->op, source, result, &error);

	joind_call_return_result(oc->call, ok, error);
}

static OpCall *
op_call_new(JoindCall *call, Op op)
{
	OpCall *oc = g_new0(OpCall, 1);

	oc->call = call;
	oc->op = op;
	return oc;
}

/* ---- Station ------------------------------------------------------------------ */

static void
station_scan(JoindCall *call, gpointer target, gpointer data)
{
	joind_station_scan(iwd_iface_get_model(target), joind_call_get_cancellable(call), op_done,
	                   op_call_new(call, OP_SCAN));
}

/* As iwd 2.3: succeeds on a station that is not connected too, and turns
 * autoconnect off until the next Connect() either way. */
static void
station_disconnect(JoindCall *call, gpointer target, gpointer data)
{
	joind_station_disconnect(iwd_iface_get_model(target), joind_call_get_cancellable(call),
	                         op_done, op_call_new(call, OP_DISCONNECT));
}

static void
station_connect_hidden(JoindCall *call, gpointer target, gpointer data)
{
	GVariant *params = g_dbus_method_invocation_get_parameters(joind_call_get_invocation(call));
	const gchar *ssid = NULL;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GError) error = NULL;

	g_variant_get(params, "(&s)", &ssid);
	if (strlen(ssid) < 1 || strlen(ssid) > 32) {
		error = g_error_new(IWD_ERROR, IWD_ERROR_INVALID_ARGUMENTS,
		                    "An SSID has 1 to 32 octets, not %zu.", strlen(ssid));
		joind_call_return_error(call, error);
		return;
	}
	bytes = g_bytes_new(ssid, strlen(ssid));
	joind_station_connect_hidden(iwd_iface_get_model(target), bytes,
	                             joind_call_get_cancellable(call), op_done,
	                             op_call_new(call, OP_CONNECT_HIDDEN));
}

static void
station_ordered_networks(JoindCall *call, gpointer target, gpointer data)
{
	IwdDevice *device = iwd_iface_get_context(target);
	g_autoptr(GPtrArray) networks =
	        joind_station_get_ordered_networks(iwd_iface_get_model(target));
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	GVariantBuilder builder;

	g_variant_builder_init(&builder, G_VARIANT_TYPE("a(on)"));
	for (guint i = 0; i < networks->len; i++) {
		JoindNetwork *network = g_ptr_array_index(networks, i);
		const gchar *path = iwd_device_network_path(device, network);
		gint strength = CLAMP(joind_network_get_strength(network), -10000, 0);

		/* Twins sharing a path (PSK and SAE) are listed once, at the
		 * better rank. */
		if (path == NULL || !g_hash_table_add(seen, (gpointer)path))
			continue;
		g_variant_builder_add(&builder, "(on)", path, (gint16)strength);
	}
	joind_call_return(call, g_variant_new("(a(on))", &builder));
}

/* joind's model does not publish the BSSes of hidden networks it saw; an
 * iwd client gets the empty list iwd gives when it has seen none. */
static void
station_hidden_access_points(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_return(call, g_variant_new_parsed("(@a(sns) [],)"));
}

static void
station_not_supported(JoindCall *call, gpointer target, gpointer data)
{
	g_autoptr(GError) error = g_error_new(
	        IWD_ERROR, IWD_ERROR_NOT_SUPPORTED, "joind does not implement %s.",
	        g_dbus_method_invocation_get_method_name(joind_call_get_invocation(call)));

	joind_call_return_error(call, error);
}

const IwdMethod iwd_station_methods[] = {
        {"Scan", station_scan},
        {"Disconnect", station_disconnect},
        {"GetOrderedNetworks", station_ordered_networks},
        {"GetHiddenAccessPoints", station_hidden_access_points},
        {"ConnectHiddenNetwork", station_connect_hidden},
        {"RegisterSignalLevelAgent", station_not_supported},
        {"UnregisterSignalLevelAgent", station_not_supported},
        {NULL, NULL},
};

/* ---- Network ------------------------------------------------------------------ */

static void
network_connect(JoindCall *call, gpointer target, gpointer data)
{
	joind_network_connect(iwd_iface_get_model(target), joind_call_get_cancellable(call),
	                      op_done, op_call_new(call, OP_CONNECT));
}

const IwdMethod iwd_network_methods[] = {
        {"Connect", network_connect},
        {NULL, NULL},
};

/* ---- Device ------------------------------------------------------------------- */

/* joind runs stations only and leaves an interface's power to the system
 * (ip link, rfkill): a write that asks for what is already so succeeds,
 * anything else is NotSupported. */
void
iwd_device_set_property(JoindCall *call, gpointer target, gpointer data)
{
	GVariant *params = g_dbus_method_invocation_get_parameters(joind_call_get_invocation(call));
	const gchar *name = NULL;
	g_autoptr(GVariant) value = NULL;
	GVariant *now;
	g_autoptr(GError) error = NULL;

	g_variant_get(params, "(&s&sv)", NULL, &name, &value);
	now = iwd_iface_get(target, name);
	if (now != NULL && g_variant_equal(now, value)) {
		joind_call_return(call, NULL);
		return;
	}
	error = g_error_new(IWD_ERROR, IWD_ERROR_NOT_SUPPORTED,
	                    "joind does not change %s over this API; it runs stations and "
	                    "follows the interface's state (ip link, rfkill).",
	                    name);
	joind_call_return_error(call, error);
}
