/* floor.c - what the required stack costs before joind does anything.
 *
 * A minimal GDBus service linked against the libraries the daemon links
 * (GLib, GObject, GIO, GModule, json-glib, libcrypto): it owns a name on the
 * bus and exports one object with one property, then idles (in one malloc
 * arena, as the daemon sets it). With --crypto
 * it first runs what a WPA2-PSK profile costs in OpenSSL: one PBKDF2
 * (the passphrase to PMK) and one HMAC, both through EVP. With --managed N
 * it also answers GetManagedObjects at /net/joind with N objects shaped as
 * joind's known networks, the reply built once beforehand: what sending
 * that reply costs GDBus alone. bench/footprint prints its figures beside
 * joind's, so that a figure of joind's reads as "floor + what joind adds".
 */
#include <gio/gio.h>
#include <glib-unix.h>
#include <gmodule.h>
#include <json-glib/json-glib.h>
#include <malloc.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdlib.h>

static const gchar introspection[] = "<node><interface name='net.joind.Floor1'>"
                                     "<property name='Version' type='s' access='read'/>"
                                     "</interface></node>";

static GVariant *
floor_get_property(GDBusConnection *conn, const gchar *sender, const gchar *path,
                   const gchar *iface, const gchar *name, GError **error, gpointer user_data)
{
	return g_variant_new_string("1");
}

static const GDBusInterfaceVTable floor_vtable = {NULL, floor_get_property, NULL, {0}};

static const gchar manager_introspection[] =
        "<node><interface name='org.freedesktop.DBus.ObjectManager'>"
        "<method name='GetManagedObjects'><arg name='objects' type='a{oa{sa{sv}}}' "
        "direction='out'/></method></interface></node>";

/* n objects as joind lists its known networks: a path from the SSID in
 * hex and the type, one interface of seven properties. */
static GVariant *
floor_managed_reply(guint n)
{
	GVariantBuilder objects;

	g_variant_builder_init(&objects, G_VARIANT_TYPE("a{oa{sa{sv}}}"));
	for (guint i = 0; i < n; i++) {
		g_autofree gchar *name = g_strdup_printf("bench-%05u", i);
		GString *path = g_string_new("/net/joind/known/");
		GVariantBuilder props, ifaces;

		for (const gchar *c = name; *c != '\0'; c++)
			g_string_append_printf(path, "%02x", (guchar)*c);
		g_string_append(path, "_psk");
		g_variant_builder_init(&props, G_VARIANT_TYPE_VARDICT);
		g_variant_builder_add(&props, "{sv}", "Name", g_variant_new_string(name));
		g_variant_builder_add(&props, "{sv}", "Type", g_variant_new_string("psk"));
		g_variant_builder_add(&props, "{sv}", "Hidden", g_variant_new_boolean(FALSE));
		g_variant_builder_add(&props, "{sv}", "AutoConnect", g_variant_new_boolean(TRUE));
		g_variant_builder_add(&props, "{sv}", "LastConnectedTime",
		                      g_variant_new_string(""));
		g_variant_builder_add(&props, "{sv}", "Source", g_variant_new_string("admin"));
		g_variant_builder_add(&props, "{sv}", "ProfileError", g_variant_new_string(""));
		g_variant_builder_init(&ifaces, G_VARIANT_TYPE("a{sa{sv}}"));
		g_variant_builder_add(&ifaces, "{sa{sv}}", "net.joind.KnownNetwork1", &props);
		g_variant_builder_add(&objects, "{oa{sa{sv}}}", path->str, &ifaces);
		g_string_free(path, TRUE);
	}
	return g_variant_ref_sink(g_variant_builder_end(&objects));
}

static void
floor_managed_call(GDBusConnection *conn, const gchar *sender, const gchar *path,
                   const gchar *iface, const gchar *method, GVariant *params,
                   GDBusMethodInvocation *invocation, gpointer user_data)
{
	GVariant *reply = user_data;

	g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&reply, 1));
}

static const GDBusInterfaceVTable manager_vtable = {floor_managed_call, NULL, NULL, {0}};

static gboolean
floor_export_managed(GDBusConnection *bus, guint n, GError **error)
{
	g_autoptr(GDBusNodeInfo) node = g_dbus_node_info_new_for_xml(manager_introspection, error);

	return node != NULL &&
	       g_dbus_connection_register_object(bus, "/net/joind", node->interfaces[0],
	                                         &manager_vtable, floor_managed_reply(n),
	                                         (GDestroyNotify)g_variant_unref, error) != 0;
}

/* The PMK of a WPA2-PSK network (IEEE 802.11 J.4) and one HMAC-SHA1 of it,
 * as the daemon computes them for a Passphrase= profile. */
static gboolean
floor_crypto(void)
{
	static const char passphrase[] = "correct horse battery";
	static const unsigned char ssid[] = "floor";
	unsigned char pmk[32];
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mac_len = 0;

	if (PKCS5_PBKDF2_HMAC(passphrase, sizeof(passphrase) - 1, ssid, sizeof(ssid) - 1, 4096,
	                      EVP_sha1(), sizeof(pmk), pmk) != 1)
		return FALSE;
	return HMAC(EVP_sha1(), pmk, sizeof(pmk), ssid, sizeof(ssid) - 1, mac, &mac_len) != NULL;
}

static gboolean
on_term(gpointer user_data)
{
	g_main_loop_quit(user_data);
	return G_SOURCE_REMOVE;
}

/* The other libraries joind links are mapped and initialised as in the
 * daemon: json-glib registers its types, GModule is asked once. */
static void
floor_touch_libraries(void)
{
	g_autoptr(JsonParser) parser = json_parser_new();

	json_parser_load_from_data(parser, "{}", -1, NULL);
	g_assert_true(g_module_supported());
}

int
main(int argc, char **argv)
{
	const gchar *name = argc > 1 ? argv[1] : "net.joind.Floor";
	gboolean crypto = FALSE;
	guint managed = 0;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusNodeInfo) node = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	g_autoptr(GMainLoop) loop = NULL;

	/* One malloc arena, as the daemon runs: otherwise GDBus's worker
	 * thread sometimes gets an arena of its own, 2 MB more RssAnon in
	 * some runs and not others, and the floor is no floor. */
	mallopt(M_ARENA_MAX, 1);
	for (gint i = 2; i < argc; i++) {
		if (g_str_equal(argv[i], "--crypto"))
			crypto = TRUE;
		else if (g_str_equal(argv[i], "--managed") && i + 1 < argc)
			managed = (guint)g_ascii_strtoull(argv[++i], NULL, 10);
	}
	node = g_dbus_node_info_new_for_xml(introspection, &error);
	bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	loop = g_main_loop_new(NULL, FALSE);
	if (bus == NULL) {
		g_printerr("floor: %s\n", error->message);
		return EXIT_FAILURE;
	}
	floor_touch_libraries();
	if (crypto && !floor_crypto()) {
		g_printerr("floor: PBKDF2 or HMAC failed\n");
		return EXIT_FAILURE;
	}
	if (g_dbus_connection_register_object(bus, "/net/joind", node->interfaces[0], &floor_vtable,
	                                      NULL, NULL, &error) == 0) {
		g_printerr("floor: %s\n", error->message);
		return EXIT_FAILURE;
	}
	if (managed > 0 && !floor_export_managed(bus, managed, &error)) {
		g_printerr("floor: %s\n", error->message);
		return EXIT_FAILURE;
	}
	g_bus_own_name_on_connection(bus, name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, NULL, NULL,
	                             NULL, NULL);
	g_unix_signal_add(SIGTERM, on_term, loop);
	g_main_loop_run(loop);
	return EXIT_SUCCESS;
}
