/* iwd-calls.c - Station, Network and Device calls under iwd's API (see
 * iwd-calls.h). Each handler runs once the core's gate let the caller in;
 * the model's operations take the core's own run (joind_call_run()), as
 * net.joind's do, so a secret is asked of the caller's own agent and
 * Network.Connect() is answered only once connected, as iwd does.
 * Station.Scan() answers earlier than net.joind's, as iwd's does
 * (iwd-scan.h).
 */
#include "iwd-calls.h"

#include "iwd-device.h"
#include "iwd-names.h"
#include "iwd-scan.h"

/* ---- Station ------------------------------------------------------------------ */

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

/* iwd's answer: each hidden access point of the last scan by address,
 * signal and the Network.Type its beacon would give, strongest first. */
static void
station_hidden_access_points(JoindCall *call, gpointer target, gpointer data)
{
	g_autoptr(GArray) aps = joind_station_get_hidden_access_points(iwd_iface_get_model(target));
	GVariantBuilder builder;

	g_variant_builder_init(&builder, G_VARIANT_TYPE("a(sns)"));
	for (guint i = 0; i < aps->len; i++) {
		const JoindHiddenAccessPoint *ap = &g_array_index(aps, JoindHiddenAccessPoint, i);
		g_autofree gchar *address = iwd_address_to_string(ap->address);

		g_variant_builder_add(&builder, "(sns)", address, ap->strength,
		                      iwd_network_type(ap->type));
	}
	joind_call_return(call, g_variant_new("(a(sns))", &builder));
}

/* joind does not watch the signal of the link it holds between scans
 * (no threshold events reach the model), so it cannot tell a signal level
 * agent when a level is crossed; iwd's own answer for a driver without
 * that support is NotSupported too. */
static void
station_signal_agent(JoindCall *call, gpointer target, gpointer data)
{
	g_autoptr(GError) error = g_error_new_literal(
	        IWD_ERROR, IWD_ERROR_NOT_SUPPORTED,
	        "joind has no signal level agents: read the signal from GetOrderedNetworks().");

	joind_call_return_error(call, error);
}

const IwdMethod iwd_station_methods[] = {
        {"Scan", iwd_station_scan},
        {"Disconnect", station_disconnect},
        {"GetOrderedNetworks", station_ordered_networks},
        {"GetHiddenAccessPoints", station_hidden_access_points},
        {"ConnectHiddenNetwork", station_connect_hidden},
        {"RegisterSignalLevelAgent", station_signal_agent},
        {"UnregisterSignalLevelAgent", station_signal_agent},
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

/* ---- Device and Adapter --------------------------------------------------------- */

/* Powered sets the interface up or down (iwd does the same to its
 * netdev), through the core, which answers once joind's device follows:
 * off disconnects and stops scans, on scans and autoconnects again. An
 * Adapter's write acts on the radio's station interface (joind runs one
 * per radio), where iwd would switch the radio's rfkill. Mode switches
 * the interface (station, ap, ad-hoc) and is answered once it runs in the
 * new mode, with Station, AccessPoint or AdHoc on the device's object. */
void
iwd_power_set_property(JoindCall *call, IwdIface *target, JoindDevice *device)
{
	GVariant *params = g_dbus_method_invocation_get_parameters(joind_call_get_invocation(call));
	const gchar *name = NULL;
	g_autoptr(GVariant) value = NULL;
	GVariant *now;
	g_autoptr(GError) error = NULL;

	g_variant_get(params, "(&s&sv)", NULL, &name, &value);
	now = iwd_iface_get(target, name);
	/* GDBus checked that the property is writable and the value's type. */
	if (now != NULL && g_variant_equal(now, value)) {
		joind_call_return(call, NULL);
		return;
	}
	if (g_str_equal(name, "Powered") && device != NULL) {
		joind_call_run(call, device,
		               g_variant_get_boolean(value) ? JOIND_CALL_OP_POWER_ON
		                                            : JOIND_CALL_OP_POWER_OFF);
		return;
	}
	if (g_str_equal(name, "Mode") && device != NULL) {
		joind_call_run(call, device, JOIND_CALL_OP_SET_MODE);
		return;
	}
	error = g_error_new(IWD_ERROR, IWD_ERROR_NOT_SUPPORTED, "%s cannot change here.", name);
	joind_call_return_error(call, error);
}

void
iwd_device_set_property(JoindCall *call, gpointer target, gpointer data)
{
	iwd_power_set_property(call, target, iwd_iface_get_model(target));
}
