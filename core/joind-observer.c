/* joind-observer.c - the call path and error maps as front ends see them
 * (joind-observer.h). The calls are the core's own (joind-dbus-call.h);
 * this only lends them to plugins.
 */
#include "joind-observer.h"

#include <string.h>

#include "joind-dbus-call.h"
#include "joind-access-point.h"
#include "joind-adhoc.h"
#include "joind-device-power.h"
#include "joind-error.h"
#include "joind-station.h"
#include "joind-observer-private.h"

/* GDBusConnection -> JoindErrorMapFunc; a handful at most, main thread. */
static GHashTable *error_maps;

void
joind_core_set_error_map(JoindCore *self, GDBusConnection *connection, JoindErrorMapFunc map)
{
	g_return_if_fail(JOIND_IS_CORE(self));
	if (error_maps == NULL)
		error_maps = g_hash_table_new(g_direct_hash, g_direct_equal);
	if (map != NULL)
		g_hash_table_insert(error_maps, connection, (gpointer)map);
	else
		g_hash_table_remove(error_maps, connection);
}

void
joind_dbus_return_gerror(GDBusMethodInvocation *invocation, const GError *error)
{
	GDBusConnection *connection = g_dbus_method_invocation_get_connection(invocation);
	JoindErrorMapFunc map =
	        error_maps != NULL ? g_hash_table_lookup(error_maps, connection) : NULL;

	if (map != NULL) {
		g_autoptr(GError) mapped = map(invocation, error);

		g_dbus_method_invocation_return_gerror(invocation, mapped);
	} else if (error->domain == JOIND_ERROR) {
		g_dbus_method_invocation_return_gerror(invocation, error);
	} else {
		g_dbus_method_invocation_return_error_literal(invocation, JOIND_ERROR,
		                                              JOIND_ERROR_FAILED, error->message);
	}
}

void
joind_call_start(GDBusInterfaceSkeleton *iface, GDBusMethodInvocation *invocation, gpointer target,
                 JoindCallFunc func, gpointer data, GDestroyNotify destroy)
{
	joind_dbus_call_start(iface, invocation, target, func, data, destroy);
}

GDBusMethodInvocation *
joind_call_get_invocation(JoindCall *call)
{
	return joind_dbus_call_get_invocation(call);
}

void
joind_call_return(JoindCall *call, GVariant *value)
{
	joind_dbus_call_return(call, value);
}

void
joind_call_return_error(JoindCall *call, const GError *error)
{
	joind_dbus_call_return_error(call, error);
}

void
joind_call_return_result(JoindCall *call, gboolean ok, const GError *error)
{
	joind_dbus_call_return_result(call, ok, error);
}

/* ---- the model's operations --------------------------------------------------- */

typedef struct {
	JoindDBusCall *call;
	JoindCallOp op;
} OpRun;

static gboolean
op_finish(JoindCallOp op, GObject *source, GAsyncResult *result, GError **error)
{
	switch (op) {
	case JOIND_CALL_OP_SCAN:
		return joind_station_scan_finish(JOIND_STATION(source), result, error);
	case JOIND_CALL_OP_DISCONNECT:
		return joind_station_disconnect_finish(JOIND_STATION(source), result, error);
	case JOIND_CALL_OP_CONNECT_HIDDEN:
		return joind_station_connect_hidden_finish(JOIND_STATION(source), result, error);
	case JOIND_CALL_OP_CONNECT:
		return joind_network_connect_finish(JOIND_NETWORK(source), result, error);
	case JOIND_CALL_OP_POWER_ON:
	case JOIND_CALL_OP_POWER_OFF:
		return joind_device_power_finish(JOIND_DEVICE(source), result, error);
	case JOIND_CALL_OP_SET_MODE:
		return joind_device_change_mode_finish(JOIND_DEVICE(source), result, error);
	case JOIND_CALL_OP_AP_START:
	case JOIND_CALL_OP_AP_START_WPA2:
	case JOIND_CALL_OP_AP_START_PROFILE:
	case JOIND_CALL_OP_AP_STOP:
		return joind_access_point_finish(JOIND_ACCESS_POINT(source), result, error);
	case JOIND_CALL_OP_ADHOC_START:
	case JOIND_CALL_OP_ADHOC_START_OPEN:
	case JOIND_CALL_OP_ADHOC_STOP:
		return joind_adhoc_finish(JOIND_ADHOC(source), result, error);
	}
	return joind_set_error(error, JOIND_ERROR_NOT_SUPPORTED, "No such operation.");
}

static void
op_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree OpRun *run = user_data;
	g_autoptr(GError) error = NULL;
	gboolean ok = op_finish(run->op, source, result, &error);

	joind_dbus_call_return_result(run->call, ok, error);
}

static void
op_connect_hidden(OpRun *run, JoindStation *station)
{
	GVariant *params =
	        g_dbus_method_invocation_get_parameters(joind_dbus_call_get_invocation(run->call));
	const gchar *ssid = NULL;
	g_autoptr(GBytes) bytes = NULL;

	g_variant_get(params, "(&s)", &ssid);
	if (strlen(ssid) < 1 || strlen(ssid) > 32) {
		joind_dbus_call_return_new_error(run->call, JOIND_ERROR_INVALID_ARGS,
		                                 "An SSID has 1 to 32 octets, not %zu.",
		                                 strlen(ssid));
		g_free(run);
		return;
	}
	bytes = g_bytes_new(ssid, strlen(ssid));
	joind_station_connect_hidden(station, bytes, joind_dbus_call_get_cancellable(run->call),
	                             op_done, run);
}

static GVariant *
op_params(OpRun *run)
{
	return g_dbus_method_invocation_get_parameters(joind_dbus_call_get_invocation(run->call));
}

/* A Properties.Set of Mode: GDBus checked that the value is a string. */
static void
op_set_mode(OpRun *run, JoindDevice *device)
{
	g_autoptr(GVariant) value = NULL;
	JoindDeviceMode mode;

	g_variant_get(op_params(run), "(&s&sv)", NULL, NULL, &value);
	if (!joind_device_mode_from_string(g_variant_get_string(value, NULL), &mode)) {
		joind_dbus_call_return_new_error(run->call, JOIND_ERROR_INVALID_ARGS,
		                                 "“%s” is not a mode: station, ap or ad-hoc.",
		                                 g_variant_get_string(value, NULL));
		g_free(run);
		return;
	}
	joind_device_change_mode(device, mode, joind_dbus_call_get_cancellable(run->call), op_done,
	                         run);
}

static void
op_ap_start(OpRun *run, JoindAccessPoint *access_point)
{
	const gchar *ssid = NULL, *passphrase = NULL;

	g_variant_get(op_params(run), "(&s&s)", &ssid, &passphrase);
	joind_access_point_start(access_point, ssid, passphrase,
	                         run->op == JOIND_CALL_OP_AP_START_WPA2 ? JOIND_AP_SECURITY_WPA2
	                                                                : NULL,
	                         joind_dbus_call_get_cancellable(run->call), op_done, run);
}

static void
op_ap_start_profile(OpRun *run, JoindAccessPoint *access_point)
{
	const gchar *name = NULL;

	g_variant_get(op_params(run), "(&s)", &name);
	joind_access_point_start_profile(access_point, name,
	                                 joind_dbus_call_get_cancellable(run->call), op_done, run);
}

/* Ad-hoc networks (ABI 3.2): Start's "(ss)", StartOpen's "(s)". */
static void
op_adhoc_start(OpRun *run, JoindAdHoc *adhoc)
{
	const gchar *ssid = NULL, *passphrase = NULL;

	if (run->op == JOIND_CALL_OP_ADHOC_START)
		g_variant_get(op_params(run), "(&s&s)", &ssid, &passphrase);
	else
		g_variant_get(op_params(run), "(&s)", &ssid);
	joind_adhoc_start(adhoc, ssid, passphrase, joind_dbus_call_get_cancellable(run->call),
	                  op_done, run);
}

/* Modes, access points and ad-hoc networks (ABI 3.1, 3.2). */
static gboolean
op_run_ap(OpRun *run, gpointer model)
{
	switch (run->op) {
	case JOIND_CALL_OP_SET_MODE:
		op_set_mode(run, model);
		return TRUE;
	case JOIND_CALL_OP_AP_START:
	case JOIND_CALL_OP_AP_START_WPA2:
		op_ap_start(run, model);
		return TRUE;
	case JOIND_CALL_OP_AP_START_PROFILE:
		op_ap_start_profile(run, model);
		return TRUE;
	case JOIND_CALL_OP_AP_STOP:
		joind_access_point_stop(model, joind_dbus_call_get_cancellable(run->call), op_done,
		                        run);
		return TRUE;
	case JOIND_CALL_OP_ADHOC_START:
	case JOIND_CALL_OP_ADHOC_START_OPEN:
		op_adhoc_start(run, model);
		return TRUE;
	case JOIND_CALL_OP_ADHOC_STOP:
		joind_adhoc_stop(model, joind_dbus_call_get_cancellable(run->call), op_done, run);
		return TRUE;
	default:
		return FALSE;
	}
}

void
joind_call_run(JoindCall *call, gpointer model, JoindCallOp op)
{
	GCancellable *cancellable = joind_dbus_call_get_cancellable(call);
	OpRun *run = g_new0(OpRun, 1);

	run->call = call;
	run->op = op;
	switch (op) {
	case JOIND_CALL_OP_SCAN:
		joind_station_scan(model, cancellable, op_done, run);
		return;
	case JOIND_CALL_OP_DISCONNECT:
		joind_station_disconnect(model, cancellable, op_done, run);
		return;
	case JOIND_CALL_OP_CONNECT_HIDDEN:
		op_connect_hidden(run, model);
		return;
	case JOIND_CALL_OP_CONNECT:
		joind_network_connect(model, cancellable, op_done, run);
		return;
	case JOIND_CALL_OP_POWER_ON:
	case JOIND_CALL_OP_POWER_OFF:
		joind_device_power(model, op == JOIND_CALL_OP_POWER_ON, cancellable, op_done, run);
		return;
	default:
		break;
	}
	if (op_run_ap(run, model))
		return;
	g_free(run);
	joind_dbus_call_return_new_error(call, JOIND_ERROR_NOT_SUPPORTED, "No such operation.");
}
