/* joinctl-call.c - method calls on joind and what their errors mean to a
 * script: each D-Bus error name maps to one documented exit code.
 */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

static const struct {
	const gchar *name;
	JoinctlExit code;
} error_names[] = {
        {"net.joind.Error.Failed", JOINCTL_EXIT_FAILED},
        {"net.joind.Error.InvalidArgs", JOINCTL_EXIT_USAGE},
        {"net.joind.Error.NotFound", JOINCTL_EXIT_NOT_FOUND},
        {"net.joind.Error.Busy", JOINCTL_EXIT_BUSY},
        {"net.joind.Error.Aborted", JOINCTL_EXIT_ABORTED},
        {"net.joind.Error.NotSupported", JOINCTL_EXIT_NOT_SUPPORTED},
        {"net.joind.Error.NoAgent", JOINCTL_EXIT_NO_AGENT},
        {"net.joind.Error.PermissionDenied", JOINCTL_EXIT_PERMISSION},
        {"net.joind.Error.AuthenticationFailed", JOINCTL_EXIT_AUTH_FAILED},
        {"org.freedesktop.DBus.Error.AccessDenied", JOINCTL_EXIT_PERMISSION},
        {"org.freedesktop.DBus.Error.ServiceUnknown", JOINCTL_EXIT_NOT_RUNNING},
        {"org.freedesktop.DBus.Error.NameHasNoOwner", JOINCTL_EXIT_NOT_RUNNING},
        {"org.freedesktop.DBus.Error.UnknownMethod", JOINCTL_EXIT_NOT_SUPPORTED},
        {"org.freedesktop.DBus.Error.UnknownInterface", JOINCTL_EXIT_NOT_SUPPORTED},
        {"org.freedesktop.DBus.Error.UnknownProperty", JOINCTL_EXIT_NOT_SUPPORTED},
        {"org.freedesktop.DBus.Error.PropertyReadOnly", JOINCTL_EXIT_NOT_SUPPORTED},
        {"org.freedesktop.DBus.Error.UnknownObject", JOINCTL_EXIT_NOT_FOUND},
        {"org.freedesktop.DBus.Error.InvalidArgs", JOINCTL_EXIT_USAGE},
};

static JoinctlExit
exit_code_for_name(const gchar *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(error_names); i++) {
		if (g_strcmp0(error_names[i].name, name) == 0)
			return error_names[i].code;
	}
	return JOINCTL_EXIT_FAILED;
}

int
joinctl_exit_code(const GError *error)
{
	g_autofree gchar *name = NULL;

	if (error == NULL)
		return JOINCTL_EXIT_OK;
	if (error->domain == JOINCTL_ERROR)
		return error->code;
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return JOINCTL_EXIT_ABORTED;
	name = g_dbus_error_get_remote_error(error);
	if (name != NULL)
		return exit_code_for_name(name);
	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
		return JOINCTL_EXIT_NOT_RUNNING;
	return JOINCTL_EXIT_FAILED;
}

/* Turn a D-Bus error into a JOINCTL_ERROR carrying its exit code, with the
 * daemon's sentence first and the error name after it in brackets. */
static GError *
error_from_call(JoinctlContext *ctx, GError *error)
{
	g_autofree gchar *name = g_dbus_error_get_remote_error(error);
	int code = joinctl_exit_code(error);
	GError *result;

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		result = g_error_new_literal(JOINCTL_ERROR, code, _("interrupted"));
	else if (name != NULL) {
		g_dbus_error_strip_remote_error(error);
		result = g_error_new(JOINCTL_ERROR, code, "%s [%s]", error->message, name);
	} else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
		result =
		        g_error_new_literal(JOINCTL_ERROR, code, _("joind did not answer in time"));
	else
		result = g_error_new_literal(JOINCTL_ERROR, code, error->message);
	if (code == JOINCTL_EXIT_FAILED && !joinctl_daemon_running(ctx))
		result->code = JOINCTL_EXIT_NOT_RUNNING;
	g_error_free(error);
	return result;
}

typedef struct {
	gboolean done;
	GVariant *reply;
	GError *error;
} CallData;

static void
call_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	CallData *data = user_data;

	data->reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &data->error);
	data->done = TRUE;
}

GVariant *
joinctl_call_path(JoinctlContext *ctx, const gchar *path, const gchar *iface, const gchar *method,
                  GVariant *params, gint timeout_msec, GError **error)
{
	g_autofree gchar *owner = g_dbus_object_manager_client_get_name_owner(
	        G_DBUS_OBJECT_MANAGER_CLIENT(ctx->manager));
	CallData data = {0};

	g_dbus_connection_call(ctx->bus, owner ? owner : JOINCTL_BUS_NAME, path, iface, method,
	                       params, NULL, G_DBUS_CALL_FLAGS_NONE, timeout_msec, ctx->cancellable,
	                       call_done, &data);
	joinctl_wait_until(ctx, &data.done);
	if (data.error != NULL) {
		g_propagate_error(error, error_from_call(ctx, data.error));
		return NULL;
	}
	return data.reply;
}

/* Call interface.method on the object behind proxy (an interface proxy from
 * the object manager) and wait, keeping the main loop running; SIGINT or
 * SIGTERM cancel the call. timeout_msec: -1 for D-Bus' default (25 s),
 * G_MAXINT for calls that may wait for a person (connect with a prompt). */
GVariant *
joinctl_call(JoinctlContext *ctx, gpointer proxy, const gchar *method, GVariant *params,
             gint timeout_msec, GError **error)
{
	GDBusProxy *p = G_DBUS_PROXY(proxy);

	return joinctl_call_path(ctx, g_dbus_proxy_get_object_path(p),
	                         g_dbus_proxy_get_interface_name(p), method, params, timeout_msec,
	                         error);
}

GVariant *
joinctl_set_property(JoinctlContext *ctx, gpointer proxy, const gchar *property, GVariant *value,
                     GError **error)
{
	GDBusProxy *p = G_DBUS_PROXY(proxy);

	return joinctl_call_path(
	        ctx, g_dbus_proxy_get_object_path(p), "org.freedesktop.DBus.Properties", "Set",
	        g_variant_new("(ssv)", g_dbus_proxy_get_interface_name(p), property, value), -1,
	        error);
}

int
joinctl_report(const GError *error)
{
	g_printerr("joinctl: %s\n", error->message);
	return joinctl_exit_code(error);
}

int
joinctl_usage_error(const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_printerr("joinctl: %s\n", message);
	g_printerr(_("Try 'joinctl --help' for more information.\n"));
	return JOINCTL_EXIT_USAGE;
}
