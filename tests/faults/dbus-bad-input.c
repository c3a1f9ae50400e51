/* dbus-bad-input.c - every method of joind's objects on the session bus,
 * under each name given (net.joind, net.connman.iwd), called with what a
 * careless or hostile client sends: no arguments, each wrong type, empty
 * and 64 KiB strings, "/" where an object is wanted, 64 KiB arrays, and
 * the right signature filled with the worst values of each type.
 *
 *   dbus-bad-input NAME...
 *
 * Every call must get an answer (a reply or an error: none times out) and
 * joind must still answer afterwards. Prints the counts; exits 1 on a call
 * left unanswered or a daemon gone.
 */
#include <gio/gio.h>
#include <string.h>

#define BIG (64 * 1024)

static guint n_calls, n_errors, n_replies, n_unanswered;

static GVariant *
big_bytes(void)
{
	g_autofree guint8 *data = g_malloc0(BIG);

	return g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, data, BIG, 1);
}

static GVariant *
big_string(void)
{
	g_autofree gchar *text = g_strnfill(BIG, 'x');

	return g_variant_new_string(text);
}

static GVariant *
big_strings(void)
{
	GVariantBuilder b;

	g_variant_builder_init(&b, G_VARIANT_TYPE_STRING_ARRAY);
	for (guint i = 0; i < BIG / 16; i++)
		g_variant_builder_add(&b, "s", "xxxxxxxxxxxxxxx");
	return g_variant_builder_end(&b);
}

/* The worst value of type: empty or oversized, "/" for a path. */
static GVariant *
worst(const GVariantType *type, guint round)
{
	if (g_variant_type_equal(type, G_VARIANT_TYPE_STRING))
		return round % 2 ? big_string() : g_variant_new_string("");
	if (g_variant_type_equal(type, G_VARIANT_TYPE_OBJECT_PATH))
		return g_variant_new_object_path(round % 2 ? "/" : "/net/joind/no/such/thing");
	if (g_variant_type_equal(type, G_VARIANT_TYPE_BYTESTRING))
		return round % 2 ? big_bytes() : g_variant_new_bytestring("");
	if (g_variant_type_equal(type, G_VARIANT_TYPE_STRING_ARRAY))
		return big_strings();
	if (g_variant_type_equal(type, G_VARIANT_TYPE_VARIANT))
		return g_variant_new_variant(round % 2 ? big_string() : g_variant_new_uint64(0));
	if (g_variant_type_equal(type, G_VARIANT_TYPE_BOOLEAN))
		return g_variant_new_boolean(round % 2);
	if (g_variant_type_equal(type, G_VARIANT_TYPE_UINT32))
		return g_variant_new_uint32(round % 2 ? G_MAXUINT32 : 0);
	if (g_variant_type_equal(type, G_VARIANT_TYPE_INT32))
		return g_variant_new_int32(round % 2 ? G_MININT32 : -1);
	if (g_variant_type_equal(type, G_VARIANT_TYPE("a{sv}"))) {
		GVariantBuilder b;

		g_variant_builder_init(&b, G_VARIANT_TYPE_VARDICT);
		g_variant_builder_add(&b, "{sv}", round % 2 ? "Security.Passphrase" : "",
		                      round % 2 ? big_string() : g_variant_new_int16(1));
		return g_variant_builder_end(&b);
	}
	/* Anything else: its zero value, as GVariant makes it. */
	return g_variant_new_from_data(type, NULL, 0, FALSE, NULL, NULL);
}

static GVariant *
worst_args(const GDBusMethodInfo *method, guint round)
{
	GVariantBuilder b;

	g_variant_builder_init(&b, G_VARIANT_TYPE_TUPLE);
	for (guint i = 0; method->in_args != NULL && method->in_args[i] != NULL; i++)
		g_variant_builder_add_value(
		        &b, worst(G_VARIANT_TYPE(method->in_args[i]->signature), round));
	return g_variant_builder_end(&b);
}

static void
call(GDBusConnection *bus, const gchar *name, const gchar *path, const gchar *iface,
     const gchar *method, GVariant *args)
{
	g_autoptr(GError) error = NULL;
	gint64 start = g_get_monotonic_time();
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_sync(bus, name, path, iface, method, args, NULL,
	                                    G_DBUS_CALL_FLAGS_NO_AUTO_START, 10000, NULL, &error);
	gint64 took_ms = (g_get_monotonic_time() - start) / 1000;

	n_calls++;
	if (took_ms > 1000)
		g_printerr("slow: %s %s %s.%s answered after %" G_GINT64_FORMAT " ms\n", name, path,
		           iface, method, took_ms);
	if (reply != NULL)
		n_replies++;
	else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
	         g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
	         g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	         g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)) {
		n_unanswered++;
		g_printerr("unanswered: %s %s %s.%s: %s\n", name, path, iface, method,
		           error->message);
	} else
		n_errors++;
}

static void
hammer_method(GDBusConnection *bus, const gchar *name, const gchar *path, const gchar *iface,
              const GDBusMethodInfo *m)
{
	GVariant *wrong[] = {
	        g_variant_new("()"),
	        g_variant_new("(s)", ""),
	        g_variant_new("(@s)", big_string()),
	        g_variant_new("(u)", 0),
	        g_variant_new("(@ay)", big_bytes()),
	        g_variant_new("(@as)", big_strings()),
	        g_variant_new("(o)", "/"),
	        worst_args(m, 0),
	        worst_args(m, 1),
	};

	for (guint i = 0; i < G_N_ELEMENTS(wrong); i++)
		call(bus, name, path, iface, m->name, wrong[i]);
}

/* Every method below path, depth first. */
static void
walk(GDBusConnection *bus, const gchar *name, const gchar *path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) xml = g_dbus_connection_call_sync(
	        bus, name, path, "org.freedesktop.DBus.Introspectable", "Introspect", NULL,
	        G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
	g_autoptr(GDBusNodeInfo) node = NULL;
	const gchar *text = NULL;

	if (xml == NULL)
		return;
	g_variant_get(xml, "(&s)", &text);
	node = g_dbus_node_info_new_for_xml(text, NULL);
	if (node == NULL)
		return;
	for (guint i = 0; node->interfaces != NULL && node->interfaces[i] != NULL; i++) {
		const GDBusInterfaceInfo *iface = node->interfaces[i];

		for (guint j = 0; iface->methods != NULL && iface->methods[j] != NULL; j++)
			hammer_method(bus, name, path, iface->name, iface->methods[j]);
	}
	for (guint i = 0; node->nodes != NULL && node->nodes[i] != NULL; i++) {
		g_autofree gchar *child =
		        g_str_equal(path, "/") ? g_strconcat("/", node->nodes[i]->path, NULL)
		                               : g_strconcat(path, "/", node->nodes[i]->path, NULL);

		walk(bus, name, child);
	}
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);

	if (bus == NULL || argc < 2) {
		g_printerr("usage: dbus-bad-input NAME... (%s)\n",
		           error != NULL ? error->message : "no name");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		walk(bus, argv[i], "/");
	for (int i = 1; i < argc; i++)
		call(bus, argv[i], "/", "org.freedesktop.DBus.Peer", "Ping", NULL);
	g_print("calls %u: %u errors, %u replies, %u unanswered\n", n_calls, n_errors, n_replies,
	        n_unanswered);
	return n_unanswered == 0 ? 0 : 1;
}
