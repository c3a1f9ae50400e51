/* iwd-calls.c - Station, Network and Device calls under iwd's API (see
 * iwd-calls.h). Each handler runs once the core's gate let the caller in;
 * the model's operations take the core's own run (joind_call_run()), as
 * net.joind's do, so a secret is asked of the caller's own agent and
 * Network.Connect() is answered only once connected, as iwd does.
 */
#include "iwd-calls.h"

#include "iwd-device.h"
#include "iwd-names.h"

/* ---- Station ------------------------------------------------------------------ */

static void
station_scan(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_SCAN);
}

/* As iwd 2.3: succeeds on a station that is not connected too, and turns
 * autoconnect off until the next Connect() either way. */
static void
station_disconnect(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_DISCONNECT);
}

static void
station_connect_hidden(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_CONNECT_HIDDEN);
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
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_CONNECT);
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
