/* joinctl-wired.c - `joinctl wired list|show DEV|reauth DEV|logoff DEV|
 * trust DEV`: the 802.1X ports (net.joind.Port8021x1 on wired devices;
 * trust: joinctl-trust.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "joinctl.h"

#define REAUTH_TIMEOUT_SECONDS 90

static const JoinctlField port_fields[] = {
        {"path", N_("Path")},
        {"state", N_("State")},
        {"profile", N_("Profile")},
        {"eap_method", N_("EAP method")},
        {"identity", N_("Identity")},
        {"last_error", N_("Last error")},
        {"profile_error", N_("Profile error")},
        {"client_key", N_("Client key")},
        {NULL, NULL},
};

static int
wired_list(JoinctlContext *ctx)
{
	g_autolist(GObject) objects = joinctl_objects_sorted(ctx);
	g_autoptr(JsonArray) array = json_array_new();
	g_autoptr(JoinctlTable) table = joinctl_table_new(
	        5, _("DEVICE"), _("STATE"), _("EAP METHOD"), _("IDENTITY"), _("LAST ERROR"));

	for (GList *l = objects; l != NULL; l = l->next) {
		JsonNode *node;
		JsonObject *p;

		if (joind_dbus_object_peek_port8021x1(l->data) == NULL)
			continue;
		node = joinctl_describe_port(ctx, l->data);
		p = json_node_get_object(node);
		joinctl_table_add(table, json_object_get_string_member(p, "device"),
		                  json_object_get_string_member(p, "state"),
		                  json_object_get_string_member(p, "eap_method"),
		                  json_object_get_string_member(p, "identity"),
		                  json_object_get_string_member(p, "last_error"));
		json_array_add_element(array, node);
	}
	if (ctx->json) {
		g_autoptr(JsonNode) root = json_node_init_array(json_node_alloc(), array);
		joinctl_print_json(root, TRUE);
	} else if (json_array_get_length(array) == 0) {
		printf(_("No 802.1X ports.\n"));
	} else {
		joinctl_table_print(table);
	}
	return JOINCTL_EXIT_OK;
}

static JoindDBusObject *
find_port(JoinctlContext *ctx, const gchar *name, GError **error)
{
	g_autoptr(JoindDBusObject) object = joinctl_find_device(ctx, name, error);

	if (object == NULL)
		return NULL;
	if (joind_dbus_object_peek_port8021x1(object) == NULL) {
		g_set_error(error, JOINCTL_ERROR, JOINCTL_EXIT_NOT_SUPPORTED,
		            _("device %s: 802.1X not supported by this daemon on this device "
		              "(no net.joind.Port8021x1 on %s)"),
		            name, g_dbus_object_get_object_path(G_DBUS_OBJECT(object)));
		return NULL;
	}
	return g_steal_pointer(&object);
}

static void
print_port(JoinctlContext *ctx, JoindDBusObject *object)
{
	g_autoptr(JsonNode) node = joinctl_describe_port(ctx, object);
	JsonObject *p = json_node_get_object(node);
	const gchar *file = json_object_get_string_member_with_default(p, "profile", NULL);
	g_autofree gchar *base = file != NULL ? g_path_get_basename(file) : NULL;
	g_autofree gchar *name = base != NULL ? g_strndup(base, strcspn(base, ".")) : NULL;
	/* A wired profile is named by its file name without the extension. */
	g_autofree gchar *key =
	        name != NULL ? joinctl_client_key_text(ctx, NULL, "wired", name) : NULL;

	if (key != NULL)
		json_object_set_string_member(p, "client_key", key);
	if (ctx->json) {
		joinctl_print_json(node, TRUE);
		return;
	}
	printf(_("802.1X port %s\n"), json_object_get_string_member(p, "device"));
	joinctl_print_fields(p, port_fields);
}

static gboolean
port_settled(JoindDBusPort8021x1 *port)
{
	const gchar *state = joind_dbus_port8021x1_get_state(port);

	return g_strcmp0(state, "connecting") != 0 && g_strcmp0(state, "authenticating") != 0;
}

typedef struct {
	gboolean done;
	guint timer;
} Wait;

static void
on_port_changed(GObject *port, GParamSpec *pspec, gpointer user_data)
{
	Wait *w = user_data;

	w->done = port_settled(JOIND_DBUS_PORT8021X1(port));
}

static gboolean
on_timeout(gpointer user_data)
{
	Wait *w = user_data;

	w->done = TRUE;
	w->timer = 0;
	return G_SOURCE_REMOVE;
}

/* Wait (on signals) until the port leaves connecting/authenticating, then
 * tell the outcome: authenticated or idle is success; failed and held are an
 * authentication failure with the daemon's LastError. */
static int
wait_outcome(JoinctlContext *ctx, const gchar *name, JoindDBusPort8021x1 *port)
{
	Wait w = {.done = port_settled(port)};
	gulong id = g_signal_connect(port, "notify::state", G_CALLBACK(on_port_changed), &w);
	const gchar *state;

	w.timer = g_timeout_add_seconds(REAUTH_TIMEOUT_SECONDS, on_timeout, &w);
	while (!w.done && !g_cancellable_is_cancelled(ctx->cancellable))
		g_main_context_iteration(NULL, TRUE);
	g_signal_handler_disconnect(port, id);
	if (w.timer != 0)
		g_source_remove(w.timer);
	state = joind_dbus_port8021x1_get_state(port);
	if (!port_settled(port)) {
		g_printerr(_("joinctl: wired %s: still %s after the wait\n"), name, state);
		return g_cancellable_is_cancelled(ctx->cancellable) ? JOINCTL_EXIT_ABORTED
		                                                    : JOINCTL_EXIT_FAILED;
	}
	if (g_strcmp0(state, "failed") == 0 || g_strcmp0(state, "held") == 0) {
		g_printerr(_("joinctl: wired %s: authentication failed: %s\n"), name,
		           joind_dbus_port8021x1_get_last_error(port));
		return JOINCTL_EXIT_AUTH_FAILED;
	}
	return JOINCTL_EXIT_OK;
}

static int
wired_action(JoinctlContext *ctx, const gchar *action, const gchar *name)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = find_port(ctx, name, &error);
	g_autoptr(JoinctlAgent) agent = NULL;
	g_autoptr(GVariant) reply = NULL;
	gboolean reauth = g_str_equal(action, "reauth");
	JoindDBusPort8021x1 *port;
	int code = JOINCTL_EXIT_OK;

	if (object == NULL)
		return joinctl_report(error);
	port = joind_dbus_object_peek_port8021x1(object);
	if (reauth)
		agent = joinctl_agent_start_for_call(ctx);
	reply = joinctl_call(ctx, port, reauth ? "Reauthenticate" : "Logoff", NULL,
	                     reauth ? G_MAXINT : -1, &error);
	if (reply == NULL) {
		g_prefix_error(&error, "wired %s %s: ", name, action);
		return joinctl_report(error);
	}
	if (reauth)
		code = wait_outcome(ctx, name, port);
	if (code == JOINCTL_EXIT_OK)
		print_port(ctx, object);
	return code;
}

/* The server certificate the port's profile was last shown: the
 * diagnostics' entry of the device (by object path), port8021x. */
static int
wired_trust(JoinctlContext *ctx, const gchar *name, JoindDBusObject *object)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) diag = joinctl_diagnostics(ctx, &error);
	JoindDBusDevice1 *device = joind_dbus_object_peek_device1(object);
	const gchar *ifname = device != NULL ? joind_dbus_device1_get_name(device) : name;
	g_autofree gchar *what = g_strdup_printf(_("802.1X port %s"), ifname);
	JsonArray *devices;

	if (diag == NULL)
		return joinctl_report(error);
	devices = joinctl_json_array_member(json_node_get_object(diag), "devices");
	for (guint i = 0; devices != NULL && i < json_array_get_length(devices); i++) {
		JsonObject *d = json_array_get_object_element(devices, i);
		if (g_strcmp0(json_object_get_string_member_with_default(d, "name", NULL),
		              ifname) == 0)
			return joinctl_trust(ctx, what,
			                     joinctl_json_object_member(
			                             joinctl_json_object_member(d, "port8021x"),
			                             "server_certificate"));
	}
	return joinctl_trust(ctx, what, NULL);
}

int
joinctl_cmd_wired(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindDBusObject) object = NULL;
	guint n = g_strv_length(args);
	gboolean list = n == 1 && g_str_equal(args[0], "list");
	gboolean with_dev =
	        n == 2 &&
	        g_strv_contains((const gchar *const[]){"show", "reauth", "logoff", "trust", NULL},
	                        args[0]);

	if (!list && !with_dev)
		return joinctl_usage_error(
		        _("usage: joinctl wired list | wired show|reauth|logoff|trust DEVICE"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	if (list)
		return wired_list(ctx);
	if (g_str_equal(args[0], "trust")) {
		object = find_port(ctx, args[1], &error);
		return object != NULL ? wired_trust(ctx, args[1], object) : joinctl_report(error);
	}
	if (!g_str_equal(args[0], "show"))
		return wired_action(ctx, args[0], args[1]);
	object = find_port(ctx, args[1], &error);
	if (object == NULL)
		return joinctl_report(error);
	print_port(ctx, object);
	return JOINCTL_EXIT_OK;
}
