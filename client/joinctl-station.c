/* joinctl-station.c - `joinctl station list` and `joinctl station DEV
 * scan|get-networks|show|connect SSID|connect-hidden SSID|disconnect|roam BSSID`: WiFi
 * stations (net.joind.Station1) and their networks (net.joind.Network1).
 */
#include "config.h"

#include <stdio.h>

#include "joinctl-refused.h"
#include "joinctl.h"

#define SCAN_TIMEOUT_MSEC 120000

static const JoinctlField station_fields[] = {
        {"path", N_("Path")},
        {"state", N_("State")},
        {"scanning", N_("Scanning")},
        {"connected_network", N_("Connected network")},
        {NULL, NULL},
};

static int
station_list(JoinctlContext *ctx)
{
	g_autolist(GObject) objects = joinctl_objects_sorted(ctx);
	g_autoptr(JsonArray) array = json_array_new();
	g_autoptr(JoinctlTable) table =
	        joinctl_table_new(4, _("DEVICE"), _("STATE"), _("SCANNING"), _("NETWORK"));

	for (GList *l = objects; l != NULL; l = l->next) {
		JsonNode *node;
		JsonObject *s;
		g_autofree gchar *scanning = NULL;

		if (joind_dbus_object_peek_station1(l->data) == NULL)
			continue;
		node = joinctl_describe_station(ctx, l->data);
		s = json_node_get_object(node);
		scanning = joinctl_json_member_text(s, "scanning");
		joinctl_table_add(table, json_object_get_string_member(s, "device"),
		                  json_object_get_string_member(s, "state"), scanning,
		                  json_object_get_string_member(s, "connected_network"));
		json_array_add_element(array, node);
	}
	if (ctx->json) {
		g_autoptr(JsonNode) root = json_node_init_array(json_node_alloc(), array);
		joinctl_print_json(root, TRUE);
	} else if (json_array_get_length(array) == 0) {
		printf(_("No WiFi stations.\n"));
	} else {
		joinctl_table_print(table);
	}
	return JOINCTL_EXIT_OK;
}

static JoindDBusObject *
find_station(JoinctlContext *ctx, const gchar *name, GError **error)
{
	g_autoptr(JoindDBusObject) object = joinctl_find_device(ctx, name, error);

	if (object == NULL)
		return NULL;
	if (joind_dbus_object_peek_station1(object) == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_SUPPORTED,
		            _("device %s: not a WiFi station, or WiFi not supported by this daemon "
		              "(no net.joind.Station1 on %s)"),
		            name, g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
		return NULL;
	}
	return g_steal_pointer(&object);
}

static const gchar *
signal_bars(gint16 strength)
{
	if (strength >= -6000)
		return "****";
	if (strength >= -6700)
		return "***";
	if (strength >= -7500)
		return "**";
	return "*";
}

/* GetOrderedNetworks as network descriptions, best first. */
static JsonArray *
ordered_networks(JoinctlContext *ctx, JoindDBusObject *object, GError **error)
{
	JoindDBusStation1 *station = joind_dbus_object_peek_station1(object);
	g_autoptr(GVariant) reply = NULL;
	g_autoptr(JsonArray) array = json_array_new();
	GVariantIter *iter;
	const gchar *path;
	gint16 strength;

	reply = joinctl_call(ctx, station, "GetOrderedNetworks", NULL, -1, error);
	if (reply == NULL)
		return NULL;
	g_variant_get(reply, "(a(on))", &iter);
	while (g_variant_iter_next(iter, "(&on)", &path, &strength)) {
		g_autoptr(JoindDBusObject) net = joinctl_object(ctx, path);
		if (net == NULL || joind_dbus_object_peek_network1(net) == NULL)
			continue; /* vanished since */
		json_array_add_element(array, joinctl_describe_network(ctx, net, strength));
	}
	g_variant_iter_free(iter);
	return g_steal_pointer(&array);
}

static int
station_get_networks(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) array = ordered_networks(ctx, object, &error);
	g_autoptr(JoinctlTable) table = NULL;

	if (array == NULL) {
		g_prefix_error(&error, "station %s get-networks: ", name);
		return joinctl_report(error);
	}
	if (ctx->json) {
		g_autoptr(JsonNode) root = json_node_init_array(json_node_alloc(), array);
		joinctl_print_json(root, TRUE);
		return JOINCTL_EXIT_OK;
	}
	if (json_array_get_length(array) == 0) {
		printf(_("No networks in range of %s.\n"), name);
		return JOINCTL_EXIT_OK;
	}
	table = joinctl_table_new(6, " ", _("NETWORK"), _("TYPE"), _("SECURITY"), _("SIGNAL"),
	                          _("KNOWN"));
	for (guint i = 0; i < json_array_get_length(array); i++) {
		JsonObject *n = json_array_get_object_element(array, i);
		g_autofree gchar *known = joinctl_json_member_text(n, "known");
		joinctl_table_add(table, json_object_get_boolean_member(n, "connected") ? ">" : " ",
		                  json_object_get_string_member(n, "name"),
		                  json_object_get_string_member(n, "type"),
		                  json_object_get_string_member_with_default(n, "security", NULL),
		                  signal_bars((gint16)json_object_get_int_member(n, "strength")),
		                  known);
	}
	joinctl_table_print(table);
	return JOINCTL_EXIT_OK;
}

static gboolean
diagnostics_entry_matches(JsonNode *node, const gchar *path, const gchar *name)
{
	JsonObject *o = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;

	if (o == NULL)
		return FALSE;
	/* An entry without a path or a name matches no NULL one. */
	return (path != NULL &&
	        g_strcmp0(json_object_get_string_member_with_default(o, "path", NULL), path) ==
	                0) ||
	       (name != NULL &&
	        g_strcmp0(json_object_get_string_member_with_default(o, "name", NULL), name) == 0);
}

JsonNode *
joinctl_device_diagnostics(JoinctlContext *ctx, const gchar *path, const gchar *name)
{
	g_autoptr(JsonNode) top = joinctl_diagnostics(ctx, NULL);
	JsonObject *o = top != NULL ? json_node_get_object(top) : NULL;
	JsonArray *devices;

	devices = joinctl_json_array_member(o, "devices");
	for (guint i = 0; devices != NULL && i < json_array_get_length(devices); i++) {
		JsonNode *entry = json_array_get_element(devices, i);
		if (diagnostics_entry_matches(entry, path, name))
			return json_node_copy(entry);
	}
	return NULL;
}

static void
print_diagnostics(JsonObject *diag)
{
	GList *members = json_object_get_members(diag); /* names owned by diag */

	printf(_("Diagnostics\n"));
	for (GList *l = members; l != NULL; l = l->next) {
		JsonNode *node = json_object_get_member(diag, l->data);
		g_autofree gchar *text = NULL;
		if (!JSON_NODE_HOLDS_VALUE(node))
			continue; /* nested details: see --json */
		text = joinctl_json_member_text(diag, l->data);
		joinctl_print_field(l->data, text);
	}
	g_list_free(members);
}

/* The link of a diagnostics entry ("details": {"connection": {...}}): an
 * object while connected, NULL otherwise. Borrowed from diag. */
static JsonObject *
diagnostics_connection(JsonNode *diag)
{
	JsonObject *o =
	        diag != NULL && JSON_NODE_HOLDS_OBJECT(diag) ? json_node_get_object(diag) : NULL;

	return joinctl_json_object_member(joinctl_json_object_member(o, "details"), "connection");
}

/* A TLS-based method's parameters and the server it trusted. */
static void
print_tls(JsonObject *c)
{
	static const JoinctlField fields[] = {
	        {"tls_version", N_("TLS version")},
	        {"tls_cipher", N_("TLS cipher")},
	        {"server_subject", N_("Server")},
	        {"server_pin", N_("Server key pin")},
	        {NULL, NULL},
	};

	for (guint i = 0; fields[i].key != NULL; i++) {
		if (json_object_has_member(c, fields[i].key))
			joinctl_print_field(_(fields[i].label),
			                    json_object_get_string_member(c, fields[i].key));
	}
}

/* SAE's facts: the group, how the password element was made, whether a
 * cached PMKSA stood in for the exchange. */
static void
print_sae(JsonObject *c)
{
	g_autofree gchar *group = g_strdup_printf(
	        "%d", (int)json_object_get_int_member_with_default(c, "sae_group", 0));

	joinctl_print_field(_("SAE group"), group);
	joinctl_print_field(
	        _("SAE hash-to-element"),
	        joinctl_yes_no(json_object_get_boolean_member_with_default(c, "sae_h2e", FALSE)));
	joinctl_print_field(_("PMKSA cached"),
	                    joinctl_yes_no(json_object_get_boolean_member_with_default(
	                            c, "pmksa_cached", FALSE)));
}

static void
print_connection(JsonObject *c)
{
	g_autofree gchar *freq =
	        g_strdup_printf(_("%d MHz (channel %d)"),
	                        (int)json_object_get_int_member_with_default(c, "frequency", 0),
	                        (int)json_object_get_int_member_with_default(c, "channel", 0));
	g_autofree gchar *rssi =
	        json_object_has_member(c, "rssi_dbm")
	                ? g_strdup_printf(_("%d dBm"),
	                                  (int)json_object_get_int_member(c, "rssi_dbm"))
	                : NULL;
	g_autofree gchar *owe_group = g_strdup_printf(
	        "%d", (int)json_object_get_int_member_with_default(c, "owe_group", 0));
	g_autofree gchar *since = g_strdup_printf(
	        _("%lld s (connect started %s)"),
	        (long long)json_object_get_int_member_with_default(c, "connected_seconds", 0),
	        json_object_get_string_member_with_default(c, "connect_started", "?"));

	printf(_("Connection\n"));
	joinctl_print_field(_("BSSID"),
	                    json_object_get_string_member_with_default(c, "bssid", NULL));
	joinctl_print_field(_("Frequency"), freq);
	joinctl_print_field(_("RSSI"), rssi);
	joinctl_print_field(_("Security"),
	                    json_object_get_string_member_with_default(c, "security", NULL));
	if (json_object_has_member(c, "owe_group"))
		joinctl_print_field(_("OWE group"), owe_group);
	joinctl_print_field(_("Pairwise cipher"),
	                    json_object_get_string_member_with_default(c, "pairwise_cipher", NULL));
	joinctl_print_field(_("Group cipher"),
	                    json_object_get_string_member_with_default(c, "group_cipher", NULL));
	joinctl_print_field(_("MFP"), joinctl_yes_no(json_object_get_boolean_member_with_default(
	                                      c, "mfp", FALSE)));
	if (json_object_has_member(c, "sae_group"))
		print_sae(c);
	if (json_object_has_member(c, "eap_method")) {
		joinctl_print_field(_("EAP method"), json_object_get_string_member_with_default(
		                                             c, "eap_method", NULL));
		joinctl_print_field(_("EAP identity"), json_object_get_string_member_with_default(
		                                               c, "eap_identity", NULL));
		joinctl_print_field(_("PMKSA cached"),
		                    joinctl_yes_no(json_object_get_boolean_member_with_default(
		                            c, "pmksa_cached", FALSE)));
		print_tls(c);
	}
	joinctl_print_field(_("Connected for"), since);
}

static void
set_member_or_null(JsonObject *object, const gchar *key, JsonObject *value)
{
	if (value != NULL)
		json_object_set_object_member(object, key, json_object_ref(value));
	else
		json_object_set_null_member(object, key);
}

static int
station_show(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object)
{
	g_autoptr(JsonNode) node = joinctl_describe_station(ctx, object);
	JsonObject *s = json_node_get_object(node);
	JsonNode *diag = joinctl_device_diagnostics(
	        ctx, g_dbus_object_get_object_path(G_DBUS_OBJECT(object)), name);
	JsonObject *link = diagnostics_connection(diag);
	JsonObject *refused = joinctl_refused_server(
	        diag != NULL && JSON_NODE_HOLDS_OBJECT(diag) ? json_node_get_object(diag) : NULL);

	/* The link's facts, and the server the last attempt refused, at the
	 * top so scripts need not dig: null when there is none (never stale
	 * values). */
	set_member_or_null(s, "connection", link);
	set_member_or_null(s, "refused_server", refused);
	if (diag != NULL)
		json_object_set_member(s, "diagnostics", diag);
	else
		json_object_set_null_member(s, "diagnostics");
	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return JOINCTL_EXIT_OK;
	}
	printf(_("Station %s\n"), name);
	joinctl_print_fields(s, station_fields);
	if (link != NULL)
		print_connection(link);
	if (refused != NULL) {
		g_autofree gchar *text = joinctl_refused_server_text(refused);
		fputs(text, stdout);
	}
	if (diag != NULL)
		print_diagnostics(json_node_get_object(diag));
	return JOINCTL_EXIT_OK;
}

/* After an action: the station as it is now (JSON), or a sentence. */
static int
station_done(JoinctlContext *ctx, JoindDBusObject *object, const gchar *sentence)
{
	if (ctx->json) {
		g_autoptr(JsonNode) node = joinctl_describe_station(ctx, object);
		joinctl_print_json(node, TRUE);
	} else if (sentence != NULL) {
		printf("%s\n", sentence);
	}
	return JOINCTL_EXIT_OK;
}

static int
station_simple_call(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object,
                    const gchar *action)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autofree gchar *sentence = NULL;
	gboolean scan = g_str_equal(action, "scan");

	reply = joinctl_call(ctx, joind_dbus_object_peek_station1(object),
	                     scan ? "Scan" : "Disconnect", NULL, scan ? SCAN_TIMEOUT_MSEC : -1,
	                     &error);
	if (reply == NULL) {
		g_prefix_error(&error, "station %s %s: ", name, action);
		return joinctl_report(error);
	}
	sentence = scan ? g_strdup_printf(_("Scan on %s complete."), name)
	                : g_strdup_printf(_("%s disconnected."), name);
	return station_done(ctx, object, sentence);
}

static JoindDBusObject *
match_network(JoinctlContext *ctx, JsonArray *networks, const gchar *ssid)
{
	for (guint i = 0; i < json_array_get_length(networks); i++) {
		JsonObject *n = json_array_get_object_element(networks, i);
		if (!g_str_equal(json_object_get_string_member(n, "name"), ssid))
			continue;
		if (ctx->type_filter != NULL &&
		    !g_str_equal(json_object_get_string_member(n, "type"), ctx->type_filter))
			continue;
		return joinctl_object(ctx, json_object_get_string_member(n, "path"));
	}
	return NULL;
}

/* The best-ranked network called ssid (of --type when given); scans once
 * when it is not in the list yet. */
static JoindDBusObject *
find_network(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object, const gchar *ssid,
             GError **error)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		g_autoptr(JsonArray) networks = ordered_networks(ctx, object, error);
		g_autoptr(JoindDBusObject) found = NULL;
		g_autoptr(GVariant) reply = NULL;

		if (networks == NULL)
			return NULL;
		found = match_network(ctx, networks, ssid);
		if (found != NULL)
			return g_steal_pointer(&found);
		if (attempt == 1)
			break;
		reply = joinctl_call(ctx, joind_dbus_object_peek_station1(object), "Scan", NULL,
		                     SCAN_TIMEOUT_MSEC, error);
		if (reply == NULL)
			return NULL;
	}
	if (ctx->type_filter != NULL)
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_FOUND,
		            _("no network '%s' of type %s in range of %s"), ssid, ctx->type_filter,
		            name);
	else
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_FOUND,
		            _("no network '%s' in range of %s"), ssid, name);
	return NULL;
}

static int
station_connect(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object, const gchar *ssid,
                gboolean hidden)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) network = NULL;
	g_autoptr(JoinctlAgent) agent = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autofree gchar *sentence = NULL;

	if (!hidden) {
		network = find_network(ctx, name, object, ssid, &error);
		if (network == NULL) {
			g_prefix_error(&error, "station %s connect: ", name);
			return joinctl_report(error);
		}
	}
	agent = joinctl_agent_start_for_call(ctx);
	if (hidden)
		reply = joinctl_call(ctx, joind_dbus_object_peek_station1(object),
		                     "ConnectHiddenNetwork", g_variant_new("(s)", ssid), G_MAXINT,
		                     &error);
	else
		reply = joinctl_call(ctx, joind_dbus_object_peek_network1(network), "Connect", NULL,
		                     G_MAXINT, &error);
	if (reply == NULL) {
		g_prefix_error(&error, "station %s %s '%s': ", name,
		               hidden ? "connect-hidden" : "connect", ssid);
		return joinctl_report(error);
	}
	sentence = g_strdup_printf(_("%s connected to '%s'."), name, ssid);
	return station_done(ctx, object, sentence);
}

/* Station1.Roam(): returns once the move started; the station's State is
 * roaming until it ends. */
static int
station_roam(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object, const gchar *bssid)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	g_autofree gchar *sentence = NULL;

	reply = joinctl_call(ctx, joind_dbus_object_peek_station1(object), "Roam",
	                     g_variant_new("(s)", bssid), -1, &error);
	if (reply == NULL) {
		g_prefix_error(&error, "station %s roam %s: ", name, bssid);
		return joinctl_report(error);
	}
	sentence = g_strdup_printf(_("%s is roaming to %s."), name, bssid);
	return station_done(ctx, object, sentence);
}

static int
station_device_command(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = find_station(ctx, args[0], &error);
	const gchar *action = args[1];

	if (object == NULL)
		return joinctl_report(error);
	if (g_str_equal(action, "scan") || g_str_equal(action, "disconnect"))
		return station_simple_call(ctx, args[0], object, action);
	if (g_str_equal(action, "get-networks"))
		return station_get_networks(ctx, args[0], object);
	if (g_str_equal(action, "show"))
		return station_show(ctx, args[0], object);
	if (g_str_equal(action, "roam"))
		return station_roam(ctx, args[0], object, args[2]);
	return station_connect(ctx, args[0], object, args[2],
	                       g_str_equal(action, "connect-hidden"));
}

int
joinctl_cmd_station(JoinctlContext *ctx, gchar **args)
{
	static const gchar *const no_arg[] = {"scan", "get-networks", "show", "disconnect", NULL};
	static const gchar *const ssid_arg[] = {"connect", "connect-hidden", "roam", NULL};
	g_autoptr(GError) error = NULL;
	guint n = g_strv_length(args);
	gboolean list = n == 1 && g_str_equal(args[0], "list");

	if (!list && !(n == 2 && g_strv_contains(no_arg, args[1])) &&
	    !(n == 3 && g_strv_contains(ssid_arg, args[1])))
		return joinctl_usage_error(_(
		        "usage: joinctl station list | station DEVICE "
		        "scan|get-networks|show|disconnect | station DEVICE connect|connect-hidden "
		        "SSID | station DEVICE roam BSSID"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	return list ? station_list(ctx) : station_device_command(ctx, args);
}
