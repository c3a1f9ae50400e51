/* iwd-introspection.c - iwd 2.3's interfaces that joind implements, as
 * iwd 2.3 introspects them (names, argument names, signatures, access and
 * property order). */
#include "iwd-introspection.h"

static const gchar iwd_xml[] =
        "<node>"
        "<interface name='net.connman.iwd.Daemon'>"
        "<method name='GetInfo'><arg name='info' type='a{sv}' direction='out'/></method>"
        "</interface>"
        "<interface name='net.connman.iwd.AgentManager'>"
        "<method name='RegisterAgent'><arg name='path' type='o' direction='in'/></method>"
        "<method name='UnregisterAgent'><arg name='path' type='o' direction='in'/></method>"
        "</interface>"
        "<interface name='net.connman.iwd.Adapter'>"
        "<property name='Powered' type='b' access='readwrite'/>"
        "<property name='Model' type='s' access='read'/>"
        "<property name='Vendor' type='s' access='read'/>"
        "<property name='Name' type='s' access='read'/>"
        "<property name='SupportedModes' type='as' access='read'/>"
        "</interface>"
        "<interface name='net.connman.iwd.Device'>"
        "<property name='Name' type='s' access='read'/>"
        "<property name='Address' type='s' access='read'/>"
        "<property name='Powered' type='b' access='readwrite'/>"
        "<property name='Adapter' type='o' access='read'/>"
        "<property name='Mode' type='s' access='readwrite'/>"
        "</interface>"
        "<interface name='net.connman.iwd.Station'>"
        "<method name='ConnectHiddenNetwork'><arg name='name' type='s' direction='in'/></method>"
        "<method name='Disconnect'/>"
        "<method name='GetOrderedNetworks'>"
        "<arg name='networks' type='a(on)' direction='out'/></method>"
        "<method name='GetHiddenAccessPoints'>"
        "<arg name='accesspoints' type='a(sns)' direction='out'/></method>"
        "<method name='Scan'/>"
        "<method name='RegisterSignalLevelAgent'>"
        "<arg name='path' type='o' direction='in'/>"
        "<arg name='levels' type='an' direction='in'/></method>"
        "<method name='UnregisterSignalLevelAgent'>"
        "<arg name='path' type='o' direction='in'/></method>"
        "<property name='ConnectedNetwork' type='o' access='read'/>"
        "<property name='Scanning' type='b' access='read'/>"
        "<property name='State' type='s' access='read'/>"
        "</interface>"
        "<interface name='net.connman.iwd.StationDiagnostic'>"
        "<method name='GetDiagnostics'>"
        "<arg name='diagnostics' type='a{sv}' direction='out'/></method>"
        "</interface>"
        "<interface name='net.connman.iwd.Network'>"
        "<method name='Connect'/>"
        "<property name='Name' type='s' access='read'/>"
        "<property name='Connected' type='b' access='read'/>"
        "<property name='Device' type='o' access='read'/>"
        "<property name='Type' type='s' access='read'/>"
        "<property name='KnownNetwork' type='o' access='read'/>"
        "</interface>"
        "<interface name='net.connman.iwd.KnownNetwork'>"
        "<method name='Forget'/>"
        "<property name='Name' type='s' access='read'/>"
        "<property name='Type' type='s' access='read'/>"
        "<property name='Hidden' type='b' access='read'/>"
        "<property name='AutoConnect' type='b' access='readwrite'/>"
        "<property name='LastConnectedTime' type='s' access='read'/>"
        "</interface>"
        "</node>";

GDBusInterfaceInfo *
iwd_introspection_lookup(const gchar *name)
{
	static GDBusNodeInfo *node;

	/* A constant that the unit tests parse: it cannot fail at run time. */
	if (node == NULL)
		node = g_dbus_node_info_new_for_xml(iwd_xml, NULL);
	return node != NULL ? g_dbus_node_info_lookup_interface(node, name) : NULL;
}
