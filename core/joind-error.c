/* joind-error.c - JOIND_ERROR and its D-Bus names. */
#include "joind-error.h"

#include <gio/gio.h>

static const GDBusErrorEntry joind_dbus_errors[] = {
        {JOIND_ERROR_FAILED, "net.joind.Error.Failed"},
        {JOIND_ERROR_INVALID_ARGS, "net.joind.Error.InvalidArgs"},
        {JOIND_ERROR_NOT_FOUND, "net.joind.Error.NotFound"},
        {JOIND_ERROR_BUSY, "net.joind.Error.Busy"},
        {JOIND_ERROR_ABORTED, "net.joind.Error.Aborted"},
        {JOIND_ERROR_NOT_SUPPORTED, "net.joind.Error.NotSupported"},
        {JOIND_ERROR_NO_AGENT, "net.joind.Error.NoAgent"},
        {JOIND_ERROR_PERMISSION_DENIED, "net.joind.Error.PermissionDenied"},
        {JOIND_ERROR_AUTHENTICATION_FAILED, "net.joind.Error.AuthenticationFailed"},
};

GQuark
joind_error_quark(void)
{
	static gsize quark = 0;

	/* Registering the domain makes g_dbus_method_invocation_return_gerror()
	 * send net.joind.Error.<Name> instead of a generic GLib name. */
	g_dbus_error_register_error_domain("joind-error-quark", &quark, joind_dbus_errors,
	                                   G_N_ELEMENTS(joind_dbus_errors));
	return (GQuark)quark;
}
