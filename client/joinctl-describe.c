/* joinctl-describe.c - one JSON description per kind of joind object, with
 * the stable keys documented in joinctl(1). Text output is printed from the
 * same descriptions, so the two never disagree.
 */
#include "config.h"

#include <string.h>

#include "joinctl.h"

/* Empty strings and "/" paths become null: "not set". */
static void
add_optional(JsonBuilder *builder, const gchar *key, const gchar *value)
{
	json_builder_set_member_name(builder, key);
	if (value == NULL || *value == '\0' || g_strcmp0(value, "/") == 0)
		json_builder_add_null_value(builder);
	else
		json_builder_add_string_value(builder, value);
}

static gint
compare_names(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const gchar *const *)a, *(const gchar *const *)b);
}

static void
add_interfaces(JsonBuilder *builder, JoindDBusObject *object)
{
	g_autolist(GDBusInterface) ifaces = g_dbus_object_get_interfaces(G_DBUS_OBJECT(object));
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (GList *l = ifaces; l != NULL; l = l->next) {
		GDBusInterfaceInfo *info = g_dbus_interface_get_info(l->data);
		g_ptr_array_add(names, (gpointer)info->name);
	}
	g_ptr_array_sort(names, compare_names);
	json_builder_set_member_name(builder, "interfaces");
	json_builder_begin_array(builder);
	for (guint i = 0; i < names->len; i++)
		json_builder_add_string_value(builder, g_ptr_array_index(names, i));
	json_builder_end_array(builder);
}

/* /net/joind/device/<ifindex>[/...] -> ifindex, or -1. */
static gint64
ifindex_from_path(const gchar *path)
{
	const gchar *prefix = "/net/joind/device/";
	gchar *end = NULL;
	gint64 value;

	if (!g_str_has_prefix(path, prefix))
		return -1;
	value = g_ascii_strtoll(path + strlen(prefix), &end, 10);
	return end != NULL && (*end == '\0' || *end == '/') ? value : -1;
}

JsonNode *
joinctl_describe_device(JoinctlContext *ctx, JoindDBusObject *object)
{
	JoindDBusDevice1 *dev = joind_dbus_object_peek_device1(object);
	const gchar *path = g_dbus_object_get_object_path(G_DBUS_OBJECT(object));
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "path", path);
	json_builder_set_member_name(b, "ifindex");
	json_builder_add_int_value(b, ifindex_from_path(path));
	joinctl_json_add_string(b, "name", joind_dbus_device1_get_name(dev));
	joinctl_json_add_string(b, "address", joind_dbus_device1_get_address(dev));
	joinctl_json_add_string(b, "kind", joind_dbus_device1_get_kind(dev));
	joinctl_json_add_bool(b, "powered", joind_dbus_device1_get_powered(dev));
	joinctl_json_add_string(b, "state", joind_dbus_device1_get_state(dev));
	joinctl_json_add_string(b, "plugin", joind_dbus_device1_get_plugin(dev));
	joinctl_json_add_string(b, "mode", joind_dbus_device1_get_mode(dev));
	add_interfaces(b, object);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static gchar *
device_name_of(JoinctlContext *ctx, JoindDBusObject *object)
{
	JoindDBusDevice1 *dev = joind_dbus_object_peek_device1(object);

	return g_strdup(dev != NULL ? joind_dbus_device1_get_name(dev) : NULL);
}

JsonNode *
joinctl_describe_port(JoinctlContext *ctx, JoindDBusObject *object)
{
	JoindDBusPort8021x1 *port = joind_dbus_object_peek_port8021x1(object);
	g_autofree gchar *device = device_name_of(ctx, object);
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "device", device);
	joinctl_json_add_string(b, "path", g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
	joinctl_json_add_string(b, "state", joind_dbus_port8021x1_get_state(port));
	add_optional(b, "profile", joind_dbus_port8021x1_get_profile(port));
	add_optional(b, "eap_method", joind_dbus_port8021x1_get_eap_method(port));
	add_optional(b, "identity", joind_dbus_port8021x1_get_identity(port));
	add_optional(b, "last_error", joind_dbus_port8021x1_get_last_error(port));
	add_optional(b, "profile_error", joind_dbus_port8021x1_get_profile_error(port));
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

JsonNode *
joinctl_describe_station(JoinctlContext *ctx, JoindDBusObject *object)
{
	JoindDBusStation1 *station = joind_dbus_object_peek_station1(object);
	const gchar *connected = joind_dbus_station1_get_connected_network(station);
	g_autoptr(JoindDBusObject) net_obj = connected ? joinctl_object(ctx, connected) : NULL;
	JoindDBusNetwork1 *net = net_obj ? joind_dbus_object_peek_network1(net_obj) : NULL;
	g_autofree gchar *device = device_name_of(ctx, object);
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "device", device);
	joinctl_json_add_string(b, "path", g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
	joinctl_json_add_string(b, "state", joind_dbus_station1_get_state(station));
	joinctl_json_add_bool(b, "scanning", joind_dbus_station1_get_scanning(station));
	add_optional(b, "connected_network", net ? joind_dbus_network1_get_name(net) : NULL);
	add_optional(b, "connected_network_path", connected);
	add_optional(b, "connected_access_point",
	             joind_dbus_station1_get_connected_access_point(station));
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* strength: 100 * dBm from GetOrderedNetworks, or G_MININT16 to use the
 * network's own Strength property. */
JsonNode *
joinctl_describe_network(JoinctlContext *ctx, JoindDBusObject *object, gint16 strength)
{
	JoindDBusNetwork1 *net = joind_dbus_object_peek_network1(object);
	const gchar *known = joind_dbus_network1_get_known_network(net);
	g_autofree gchar *device =
	        joinctl_device_name_for_path(ctx, joind_dbus_network1_get_device(net));
	g_autoptr(JsonBuilder) b = json_builder_new();

	if (strength == G_MININT16)
		strength = joind_dbus_network1_get_strength(net);
	json_builder_begin_object(b);
	joinctl_json_add_string(b, "path", g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
	joinctl_json_add_string(b, "name", joind_dbus_network1_get_name(net));
	joinctl_json_add_string(b, "type", joind_dbus_network1_get_type_(net));
	/* What the access points offer (wpa2-wpa3, wpa3-sae, ...): Type is
	 * iwd's coarser word for it. */
	add_optional(b, "security", joind_dbus_network1_get_security(net));
	json_builder_set_member_name(b, "signal_dbm");
	json_builder_add_double_value(b, strength / 100.0);
	json_builder_set_member_name(b, "strength");
	json_builder_add_int_value(b, strength);
	joinctl_json_add_bool(b, "connected", joind_dbus_network1_get_connected(net));
	joinctl_json_add_bool(b, "known", known != NULL && g_strcmp0(known, "/") != 0);
	add_optional(b, "known_network", known);
	add_optional(b, "device", device);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

JsonNode *
joinctl_describe_known(JoinctlContext *ctx, JoindDBusObject *object)
{
	JoindDBusKnownNetwork1 *known = joind_dbus_object_peek_known_network1(object);
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	joinctl_json_add_string(b, "path", g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
	joinctl_json_add_string(b, "name", joind_dbus_known_network1_get_name(known));
	joinctl_json_add_string(b, "type", joind_dbus_known_network1_get_type_(known));
	joinctl_json_add_bool(b, "hidden", joind_dbus_known_network1_get_hidden(known));
	joinctl_json_add_bool(b, "autoconnect", joind_dbus_known_network1_get_auto_connect(known));
	add_optional(b, "last_connected_time",
	             joind_dbus_known_network1_get_last_connected_time(known));
	joinctl_json_add_string(b, "source", joind_dbus_known_network1_get_source(known));
	add_optional(b, "profile_error", joind_dbus_known_network1_get_profile_error(known));
	json_builder_end_object(b);
	return json_builder_get_root(b);
}
