/* iwd-bus.c - the front end's bus connection and name (see iwd-bus.h). */
#include "iwd-bus.h"

#include <gio/gunixsocketaddress.h>

#include "joind.h"

#define DBUS_NAME_FLAG_DO_NOT_QUEUE     4
#define DBUS_REQUEST_NAME_REPLY_PRIMARY 1
#define DBUS_REQUEST_NAME_REPLY_EXISTS  3
#define DBUS_REQUEST_NAME_REPLY_ALREADY 4

/* The core's connection is a message bus connection over a Unix socket
 * (the system bus, or a session bus in tests); its peer address is the
 * bus's. */
static gchar *
bus_address_of(GDBusConnection *core_bus, GError **error)
{
	GIOStream *stream = g_dbus_connection_get_stream(core_bus);
	g_autoptr(GSocketAddress) peer = NULL;
	g_autofree gchar *escaped = NULL;
	GUnixSocketAddress *unix_peer;

	if (!G_IS_SOCKET_CONNECTION(stream)) {
		joind_set_error(error, JOIND_ERROR_NOT_SUPPORTED,
		                "The daemon's bus connection is not a socket.");
		return NULL;
	}
	peer = g_socket_connection_get_remote_address(G_SOCKET_CONNECTION(stream), error);
	if (peer == NULL)
		return NULL;
	if (!G_IS_UNIX_SOCKET_ADDRESS(peer)) {
		joind_set_error(error, JOIND_ERROR_NOT_SUPPORTED,
		                "The daemon's bus is not on a Unix socket.");
		return NULL;
	}
	unix_peer = G_UNIX_SOCKET_ADDRESS(peer);
	escaped = g_dbus_address_escape_value(g_unix_socket_address_get_path(unix_peer));
	if (g_unix_socket_address_get_address_type(unix_peer) == G_UNIX_SOCKET_ADDRESS_PATH)
		return g_strconcat("unix:path=", escaped, NULL);
	return g_strconcat("unix:abstract=", escaped, NULL);
}

GDBusConnection *
iwd_bus_connect(GDBusConnection *core_bus, GError **error)
{
	g_autofree gchar *address = bus_address_of(core_bus, error);

	if (address == NULL)
		return NULL;
	return g_dbus_connection_new_for_address_sync(
	        address,
	        G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
	                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
	        NULL, NULL, error);
}

static gboolean
bus_name_taken(GDBusConnection *bus, const gchar *name, GError **error)
{
	g_autoptr(GVariant) owner = NULL;
	g_autoptr(GVariant) pid = NULL;
	const gchar *unique = NULL;
	guint32 process = 0;

	owner = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
	                                    "org.freedesktop.DBus", "GetNameOwner",
	                                    g_variant_new("(s)", name), G_VARIANT_TYPE("(s)"),
	                                    G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
	if (owner != NULL) {
		g_variant_get(owner, "(&s)", &unique);
		pid = g_dbus_connection_call_sync(
		        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		        "org.freedesktop.DBus", "GetConnectionUnixProcessID",
		        g_variant_new("(s)", unique), G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE,
		        -1, NULL, NULL);
	}
	if (pid != NULL)
		g_variant_get(pid, "(u)", &process);
	return joind_set_error(error, JOIND_ERROR_BUSY,
	                       "%s is owned by another process (pid %u, probably iwd): stop and "
	                       "mask iwd.service (systemctl mask --now iwd) to let joind answer "
	                       "for it.",
	                       name, process);
}

gboolean
iwd_bus_own_name(GDBusConnection *bus, const gchar *name, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GVariant) reply = NULL;
	guint32 result = 0;

	reply = g_dbus_connection_call_sync(
	        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "RequestName", g_variant_new("(su)", name, (guint32)DBUS_NAME_FLAG_DO_NOT_QUEUE),
	        G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &local);
	if (reply == NULL) {
		g_dbus_error_strip_remote_error(local);
		return joind_set_error(error, JOIND_ERROR_PERMISSION_DENIED,
		                       "The bus refused %s to joind (%s): is the policy "
		                       "net.connman.iwd.conf installed in /etc/dbus-1/system.d?",
		                       name, local->message);
	}
	g_variant_get(reply, "(u)", &result);
	if (result == DBUS_REQUEST_NAME_REPLY_PRIMARY || result == DBUS_REQUEST_NAME_REPLY_ALREADY)
		return TRUE;
	return bus_name_taken(bus, name, error);
}
