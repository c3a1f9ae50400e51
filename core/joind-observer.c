/* joind-observer.c - the call path and error maps as front ends see them
 * (joind-observer.h). The calls are the core's own (joind-dbus-call.h);
 * this only lends them to plugins.
 */
#include "joind-observer.h"

#include "joind-dbus-call.h"
#include "joind-error.h"
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

GCancellable *
joind_call_get_cancellable(JoindCall *call)
{
	return joind_dbus_call_get_cancellable(call);
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
