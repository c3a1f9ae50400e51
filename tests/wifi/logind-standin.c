/* logind-standin.c - plays logind's part in a suspend on the system bus.
 *
 *   logind-standin true|false
 *       takes org.freedesktop.login1 and emits
 *       org.freedesktop.login1.Manager.PrepareForSleep(ARG) from
 *       /org/freedesktop/login1, then exits
 *
 * A plain `gdbus emit` will not do: joind only hears the signal from the
 * name's owner, as it would hear only logind. Needs root (Debian's policy
 * for org.freedesktop.login1 lets root own it) and no logind running.
 */
#include <gio/gio.h>
#include <string.h>

static gboolean
own_login1(GDBusConnection *bus, GError **error)
{
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
	        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "RequestName", g_variant_new("(su)", "org.freedesktop.login1", 4),
	        G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);
	guint32 result;

	if (reply == NULL)
		return FALSE;
	g_variant_get(reply, "(u)", &result);
	if (result != 1) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_EXISTS,
		            "org.freedesktop.login1 has another owner (RequestName: %u)", result);
		return FALSE;
	}
	return TRUE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	gboolean start;

	if (argc != 2 || (strcmp(argv[1], "true") != 0 && strcmp(argv[1], "false") != 0)) {
		g_printerr("usage: logind-standin true|false\n");
		return 2;
	}
	start = strcmp(argv[1], "true") == 0;
	bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	if (bus == NULL || !own_login1(bus, &error) ||
	    !g_dbus_connection_emit_signal(bus, NULL, "/org/freedesktop/login1",
	                                   "org.freedesktop.login1.Manager", "PrepareForSleep",
	                                   g_variant_new("(b)", start), &error) ||
	    !g_dbus_connection_flush_sync(bus, NULL, &error)) {
		g_printerr("logind-standin: %s\n", error->message);
		return 1;
	}
	return 0;
}
