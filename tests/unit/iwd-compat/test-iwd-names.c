/* test-iwd-names.c - iwd's names for joind's model: paths, types, times,
 * error names, and the introspection of every interface joind implements. */
#include "iwd-introspection.h"
#include "iwd-names.h"

static GBytes *
ssid(const gchar *text)
{
	return g_bytes_new(text, strlen(text));
}

static void
test_paths(void)
{
	g_autoptr(GBytes) wpa2 = ssid("t-wpa2");
	g_autofree gchar *adapter = iwd_adapter_path(1);
	g_autofree gchar *device = iwd_device_path(1, 3);
	g_autofree gchar *psk = iwd_network_path(device, wpa2, JOIND_NETWORK_TYPE_PSK);
	g_autofree gchar *sae = iwd_network_path(device, wpa2, JOIND_NETWORK_TYPE_SAE);
	g_autofree gchar *owe = iwd_network_path(device, wpa2, JOIND_NETWORK_TYPE_OWE);
	g_autofree gchar *known = iwd_known_path(wpa2, JOIND_PROFILE_TYPE_PSK);
	g_autofree gchar *eap = iwd_known_path(wpa2, JOIND_PROFILE_TYPE_8021X);
	const guint8 raw[] = {0xca, 0xfe, 0x00, 0xe9};
	g_autoptr(GBytes) binary = g_bytes_new(raw, sizeof(raw));
	g_autofree gchar *odd = iwd_known_path(binary, JOIND_PROFILE_TYPE_OPEN);

	/* As iwd 2.3 names them (measured in the VM). */
	g_assert_cmpstr(adapter, ==, "/net/connman/iwd/1");
	g_assert_cmpstr(device, ==, "/net/connman/iwd/1/3");
	g_assert_cmpstr(psk, ==, "/net/connman/iwd/1/3/742d77706132_psk");
	g_assert_cmpstr(sae, ==, psk);
	g_assert_cmpstr(owe, ==, "/net/connman/iwd/1/3/742d77706132_open");
	g_assert_cmpstr(known, ==, "/net/connman/iwd/742d77706132_psk");
	g_assert_cmpstr(eap, ==, "/net/connman/iwd/742d77706132_8021x");
	g_assert_cmpstr(odd, ==, "/net/connman/iwd/cafe00e9_open");
	g_assert_null(iwd_known_path(NULL, JOIND_PROFILE_TYPE_WIRED));
	g_assert_true(g_variant_is_object_path(psk));
	g_assert_true(g_variant_is_object_path(odd));
}

static void
test_types(void)
{
	g_assert_cmpstr(iwd_network_type(JOIND_NETWORK_TYPE_OPEN), ==, "open");
	g_assert_cmpstr(iwd_network_type(JOIND_NETWORK_TYPE_OWE), ==, "open");
	g_assert_cmpstr(iwd_network_type(JOIND_NETWORK_TYPE_PSK), ==, "psk");
	g_assert_cmpstr(iwd_network_type(JOIND_NETWORK_TYPE_SAE), ==, "psk");
	g_assert_cmpstr(iwd_network_type(JOIND_NETWORK_TYPE_8021X), ==, "8021x");
	g_assert_cmpstr(iwd_network_type(JOIND_NETWORK_TYPE_WEP), ==, "wep");
	g_assert_cmpstr(joind_profile_type_to_extension(JOIND_PROFILE_TYPE_OPEN), ==, "open");
	g_assert_cmpstr(joind_profile_type_to_extension(JOIND_PROFILE_TYPE_PSK), ==, "psk");
	g_assert_cmpstr(joind_profile_type_to_extension(JOIND_PROFILE_TYPE_8021X), ==, "8021x");
}

/* GetHiddenAccessPoints() names a BSS in lower-case hex, colon-separated. */
static void
test_address(void)
{
	const guint8 address[6] = {0x02, 0x00, 0xab, 0x0c, 0x6a, 0xff};
	g_autofree gchar *text = iwd_address_to_string(address);

	g_assert_cmpstr(text, ==, "02:00:ab:0c:6a:ff");
}

static void
test_time(void)
{
	g_autofree gchar *when = iwd_time_string(1733261000);

	g_assert_cmpstr(when, ==, "2024-12-03T21:23:20Z");
	g_assert_null(iwd_time_string(0));
}

static void
check_error(const gchar *method, GQuark domain, gint code, const gchar *name)
{
	g_autoptr(GError) error = g_error_new_literal(domain, code, "what happened");
	g_autoptr(GError) mapped = iwd_error_from_joind(method, error);
	g_autofree gchar *encoded = g_dbus_error_encode_gerror(mapped);

	g_assert_cmpstr(encoded, ==, name);
	g_assert_cmpstr(mapped->message, ==, "what happened");
}

static void
test_errors(void)
{
	check_error("Connect", JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
	            "net.connman.iwd.Failed");
	check_error("Connect", JOIND_ERROR, JOIND_ERROR_ABORTED, "net.connman.iwd.Aborted");
	check_error("Connect", JOIND_ERROR, JOIND_ERROR_BUSY, "net.connman.iwd.InProgress");
	check_error("RegisterAgent", JOIND_ERROR, JOIND_ERROR_BUSY,
	            "net.connman.iwd.AlreadyExists");
	check_error("Connect", JOIND_ERROR, JOIND_ERROR_NO_AGENT, "net.connman.iwd.NoAgent");
	check_error("Forget", JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "net.connman.iwd.NotFound");
	check_error("ConnectHiddenNetwork", JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
	            "net.connman.iwd.InvalidArguments");
	check_error("Scan", JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED, "net.connman.iwd.NotSupported");
	check_error("Scan", JOIND_ERROR, JOIND_ERROR_FAILED, "net.connman.iwd.Failed");
	check_error("Scan", G_IO_ERROR, G_IO_ERROR_CANCELLED, "net.connman.iwd.Failed");
	check_error("Disconnect", IWD_ERROR, IWD_ERROR_NOT_CONNECTED,
	            "net.connman.iwd.NotConnected");
}

/* name: the properties in iwd's order, writable ones marked with '+'. */
static void
check_interface(const gchar *name, const gchar *properties, const gchar *methods)
{
	GDBusInterfaceInfo *info = iwd_introspection_lookup(name);
	g_autoptr(GString) props = g_string_new(NULL);
	g_autoptr(GString) calls = g_string_new(NULL);

	g_assert_nonnull(info);
	for (guint i = 0; info->properties != NULL && info->properties[i] != NULL; i++) {
		GDBusPropertyInfo *p = info->properties[i];

		g_string_append_printf(props, "%s%s%s:%s", i > 0 ? " " : "",
		                       (p->flags & G_DBUS_PROPERTY_INFO_FLAGS_WRITABLE) ? "+" : "",
		                       p->name, p->signature);
	}
	for (guint i = 0; info->methods != NULL && info->methods[i] != NULL; i++)
		g_string_append_printf(calls, "%s%s", i > 0 ? " " : "", info->methods[i]->name);
	g_assert_cmpstr(props->str, ==, properties);
	g_assert_cmpstr(calls->str, ==, methods);
}

static void
test_introspection(void)
{
	check_interface(IWD_IFACE_DAEMON, "", "GetInfo");
	check_interface(IWD_IFACE_AGENTS, "", "RegisterAgent UnregisterAgent");
	check_interface(IWD_IFACE_ADAPTER, "+Powered:b Model:s Vendor:s Name:s SupportedModes:as",
	                "");
	check_interface(IWD_IFACE_DEVICE, "Name:s Address:s +Powered:b Adapter:o +Mode:s", "");
	check_interface(IWD_IFACE_STATION, "ConnectedNetwork:o Scanning:b State:s",
	                "ConnectHiddenNetwork Disconnect GetOrderedNetworks GetHiddenAccessPoints "
	                "Scan RegisterSignalLevelAgent UnregisterSignalLevelAgent");
	check_interface(IWD_IFACE_NETWORK, "Name:s Connected:b Device:o Type:s KnownNetwork:o",
	                "Connect");
	check_interface(IWD_IFACE_KNOWN,
	                "Name:s Type:s Hidden:b +AutoConnect:b LastConnectedTime:s", "Forget");
	g_assert_null(iwd_introspection_lookup("net.connman.iwd.SimpleConfiguration"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/iwd-compat/names/paths", test_paths);
	g_test_add_func("/iwd-compat/names/types", test_types);
	g_test_add_func("/iwd-compat/names/address", test_address);
	g_test_add_func("/iwd-compat/names/time", test_time);
	g_test_add_func("/iwd-compat/names/errors", test_errors);
	g_test_add_func("/iwd-compat/introspection", test_introspection);
	return g_test_run();
}
