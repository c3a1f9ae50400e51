/* joind-error.c - JOIND_ERROR, its D-Bus names, and the helpers that set
 * errors for the core and the plugins. */
#include "joind-error.h"

#include <gio/gio.h>
#include <openssl/err.h>

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

gboolean
joind_set_error(GError **error, JoindErrorCode code, const gchar *format, ...)
{
	va_list args;

	va_start(args, format);
	g_propagate_error(error, g_error_new_valist(JOIND_ERROR, code, format, args));
	va_end(args);
	return FALSE;
}

gboolean
joind_set_error_from_openssl(GError **error, GQuark domain, gint code, const gchar *format, ...)
{
	unsigned long e = ERR_peek_last_error();
	const gchar *reason = e != 0 ? ERR_reason_error_string(e) : "no reason given";
	char text[256];
	g_autofree gchar *what = NULL;
	va_list args;

	/* A code from a library that registered no strings still names itself. */
	if (reason == NULL) {
		ERR_error_string_n(e, text, sizeof(text));
		reason = text;
	}
	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, domain, code, "%s: %s", what, reason);
	ERR_clear_error();
	return FALSE;
}
