/* joinctl-standin.c - see joinctl-standin.h. */
#include <string.h>

#include "joinctl-standin.h"
#include "test-daemon.h"

static gboolean
flag_set(gpointer data)
{
	return *(gboolean *)data;
}

static void
on_acquired(GDBusConnection *c, const gchar *name, gpointer data)
{
	((Standin *)data)->name_acquired = TRUE;
}

static gboolean
on_register(JoindDBusAgentManager1 *skel, GDBusMethodInvocation *inv, const gchar *path, Standin *s)
{
	g_free(s->agent_sender);
	g_free(s->agent_path);
	s->agent_sender = g_strdup(g_dbus_method_invocation_get_sender(inv));
	s->agent_path = g_strdup(path);
	s->unregistered = FALSE;
	joind_dbus_agent_manager1_complete_register_agent(skel, inv);
	return TRUE;
}

static gboolean
on_unregister(JoindDBusAgentManager1 *skel, GDBusMethodInvocation *inv, const gchar *path,
              Standin *s)
{
	if (g_strcmp0(path, s->agent_path) == 0) {
		s->unregistered = TRUE;
		g_clear_pointer(&s->agent_sender, g_free);
	}
	joind_dbus_agent_manager1_complete_unregister_agent(skel, inv);
	return TRUE;
}

static gboolean
on_diagnostics(JoindDBusDaemon1 *skel, GDBusMethodInvocation *inv, Standin *s)
{
	joind_dbus_daemon1_complete_get_diagnostics(
	        skel, inv,
	        "{\"version\": \"0-standin\", \"devices\": [{\"name\": \"wlt0\", "
	        "\"bssid\": \"02:00:00:00:00:aa\", \"frequency\": 2412}]}");
	return TRUE;
}

static void
export_root(Standin *s)
{
	g_autoptr(GError) error = NULL;
	GVariantBuilder plugins;

	s->agent_manager = joind_dbus_agent_manager1_skeleton_new();
	g_signal_connect(s->agent_manager, "handle-register-agent", G_CALLBACK(on_register), s);
	g_signal_connect(s->agent_manager, "handle-unregister-agent", G_CALLBACK(on_unregister), s);
	g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(s->agent_manager), s->owner,
	                                 "/net/joind", &error);
	g_assert_no_error(error);
	s->daemon = joind_dbus_daemon1_skeleton_new();
	joind_dbus_daemon1_set_version(s->daemon, "0-standin");
	g_variant_builder_init(&plugins, G_VARIANT_TYPE("a(ssss)"));
	g_variant_builder_add(&plugins, "(ssss)", "standin", "A stand-in", "loaded", "");
	joind_dbus_daemon1_set_plugins(s->daemon, g_variant_builder_end(&plugins));
	g_signal_connect(s->daemon, "handle-get-diagnostics", G_CALLBACK(on_diagnostics), s);
	g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(s->daemon), s->owner,
	                                 "/net/joind", &error);
	g_assert_no_error(error);
}

Standin *
standin_new(void)
{
	Standin *s = g_new0(Standin, 1);
	g_autoptr(GError) error = NULL;

	s->bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(s->bus);
	s->owner = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	g_assert_no_error(error);
	s->manager = g_dbus_object_manager_server_new("/net/joind");
	g_dbus_object_manager_server_set_connection(s->manager, s->owner);
	export_root(s);
	g_bus_own_name_on_connection(s->owner, "net.joind", G_BUS_NAME_OWNER_FLAGS_NONE,
	                             on_acquired, NULL, s, NULL);
	g_assert_true(test_wait_until(flag_set, &s->name_acquired, 5000));
	return s;
}

void
standin_free(Standin *s)
{
	g_dbus_object_manager_server_set_connection(s->manager, NULL);
	g_clear_object(&s->manager);
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(s->agent_manager));
	g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(s->daemon));
	g_clear_object(&s->agent_manager);
	g_clear_object(&s->daemon);
	g_dbus_connection_close_sync(s->owner, NULL, NULL);
	g_clear_object(&s->owner);
	g_test_dbus_down(s->bus);
	g_clear_object(&s->bus);
	g_free(s->agent_sender);
	g_free(s->agent_path);
	g_free(s->expected_secret);
	g_free(s);
}

/* ---- asking the agent ---------------------------------------------------- */

typedef void (*AnswerFunc)(Standin *s, GDBusMethodInvocation *inv, JoindDBusObject *object,
                           const gchar *secret, const GError *error);

typedef struct {
	Standin *s;
	GDBusMethodInvocation *inv; /* NULL when the call was already answered */
	JoindDBusObject *object;
	AnswerFunc func;
} Ask;

static void
ask_done(GObject *source, GAsyncResult *result, gpointer data)
{
	Ask *a = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	const gchar *secret = NULL;

	if (reply != NULL)
		g_variant_get(reply, "(&s)", &secret);
	a->func(a->s, a->inv, a->object, secret, error);
	g_object_unref(a->object);
	g_free(a);
}

/* Asks the registered agent method(object path); func gets the answer. */
static void
ask_agent(Standin *s, GDBusMethodInvocation *inv, JoindDBusObject *object, const gchar *method,
          AnswerFunc func)
{
	Ask *a = g_new0(Ask, 1);

	a->s = s;
	a->inv = inv;
	a->object = g_object_ref(object);
	a->func = func;
	s->agent_requests++;
	g_dbus_connection_call(
	        s->owner, s->agent_sender, s->agent_path, "net.joind.Agent1", method,
	        g_variant_new("(o)", g_dbus_object_get_object_path(G_DBUS_OBJECT(object))),
	        G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, 10000, NULL, ask_done, a);
}

/* ---- stations and networks ----------------------------------------------- */

static JoindDBusObject *
object_at(Standin *s, const gchar *path)
{
	return JOIND_DBUS_OBJECT(
	        g_dbus_object_manager_get_object(G_DBUS_OBJECT_MANAGER(s->manager), path));
}

/* Property changes go out before the reply that reports them. */
static void
flush(gpointer iface)
{
	g_dbus_interface_skeleton_flush(G_DBUS_INTERFACE_SKELETON(iface));
}

static void
set_connected(Standin *s, JoindDBusObject *net_obj, gboolean connected)
{
	JoindDBusNetwork1 *net = joind_dbus_object_peek_network1(net_obj);
	g_autoptr(JoindDBusObject) dev = object_at(s, joind_dbus_network1_get_device(net));
	JoindDBusStation1 *station = joind_dbus_object_peek_station1(dev);

	joind_dbus_network1_set_connected(net, connected);
	joind_dbus_station1_set_state(station, connected ? "connected" : "disconnected");
	joind_dbus_station1_set_connected_network(
	        station, connected ? g_dbus_object_get_object_path(G_DBUS_OBJECT(net_obj)) : "/");
	flush(net);
	flush(station);
}

static void
connect_answered(Standin *s, GDBusMethodInvocation *inv, JoindDBusObject *object,
                 const gchar *secret, const GError *error)
{
	if (error != NULL) {
		g_dbus_method_invocation_return_dbus_error(
		        inv, "net.joind.Error.Aborted",
		        "The request for a secret was cancelled by the agent.");
		return;
	}
	if (g_strcmp0(secret, s->expected_secret) != 0) {
		g_dbus_method_invocation_return_dbus_error(
		        inv, "net.joind.Error.AuthenticationFailed",
		        "The 4-way handshake failed: wrong passphrase?");
		return;
	}
	set_connected(s, object, TRUE);
	g_dbus_method_invocation_return_value(inv, NULL);
}

static gboolean
on_connect(JoindDBusNetwork1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	g_autoptr(JoindDBusObject) object =
	        JOIND_DBUS_OBJECT(g_dbus_interface_dup_object(G_DBUS_INTERFACE(iface)));

	if (g_str_equal(joind_dbus_network1_get_type_(iface), "open")) {
		set_connected(s, object, TRUE);
		joind_dbus_network1_complete_connect(iface, inv);
	} else if (s->agent_sender == NULL) {
		g_dbus_method_invocation_return_dbus_error(
		        inv, "net.joind.Error.NoAgent",
		        "A secret is needed but no agent is registered to ask for it.");
	} else {
		ask_agent(s, inv, object, "RequestPassphrase", connect_answered);
	}
	return TRUE;
}

static gboolean
on_scan(JoindDBusStation1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	s->scans++;
	joind_dbus_station1_complete_scan(iface, inv);
	return TRUE;
}

static gint
by_strength(gconstpointer a, gconstpointer b)
{
	JoindDBusNetwork1 *na = joind_dbus_object_peek_network1(*(JoindDBusObject **)a);
	JoindDBusNetwork1 *nb = joind_dbus_object_peek_network1(*(JoindDBusObject **)b);

	return joind_dbus_network1_get_strength(nb) - joind_dbus_network1_get_strength(na);
}

static gboolean
on_get_networks(JoindDBusStation1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	g_autolist(GObject) objects =
	        g_dbus_object_manager_get_objects(G_DBUS_OBJECT_MANAGER(s->manager));
	g_autoptr(GPtrArray) nets = g_ptr_array_new();
	g_autoptr(GDBusObject) station = g_dbus_interface_dup_object(G_DBUS_INTERFACE(iface));
	GVariantBuilder b;

	for (GList *l = objects; l != NULL; l = l->next) {
		JoindDBusNetwork1 *net = joind_dbus_object_peek_network1(l->data);
		if (net != NULL && g_str_equal(joind_dbus_network1_get_device(net),
		                               g_dbus_object_get_object_path(station)))
			g_ptr_array_add(nets, l->data);
	}
	g_ptr_array_sort(nets, by_strength);
	g_variant_builder_init(&b, G_VARIANT_TYPE("a(on)"));
	for (guint i = 0; i < nets->len; i++) {
		JoindDBusObject *o = g_ptr_array_index(nets, i);
		g_variant_builder_add(
		        &b, "(on)", g_dbus_object_get_object_path(G_DBUS_OBJECT(o)),
		        joind_dbus_network1_get_strength(joind_dbus_object_peek_network1(o)));
	}
	joind_dbus_station1_complete_get_ordered_networks(iface, inv, g_variant_builder_end(&b));
	return TRUE;
}

static gboolean
on_disconnect(JoindDBusStation1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	const gchar *path = joind_dbus_station1_get_connected_network(iface);
	g_autoptr(JoindDBusObject) net = object_at(s, path);

	if (net != NULL)
		set_connected(s, net, FALSE);
	joind_dbus_station1_complete_disconnect(iface, inv);
	return TRUE;
}

static gboolean
on_connect_hidden(JoindDBusStation1 *iface, GDBusMethodInvocation *inv, const gchar *ssid,
                  Standin *s)
{
	g_dbus_method_invocation_return_dbus_error(inv, "net.joind.Error.NotFound",
	                                           "No hidden network of that name answered.");
	return TRUE;
}

static JoindDBusObjectSkeleton *
add_device(Standin *s, guint ifindex, const gchar *name, const gchar *kind)
{
	g_autofree gchar *path = g_strdup_printf("/net/joind/device/%u", ifindex);
	JoindDBusObjectSkeleton *object = joind_dbus_object_skeleton_new(path);
	g_autoptr(JoindDBusDevice1) dev = joind_dbus_device1_skeleton_new();

	joind_dbus_device1_set_name(dev, name);
	joind_dbus_device1_set_kind(dev, kind);
	joind_dbus_device1_set_address(dev, "02:00:00:00:00:01");
	joind_dbus_device1_set_state(dev, "up");
	joind_dbus_device1_set_powered(dev, TRUE);
	joind_dbus_device1_set_plugin(dev, "standin");
	joind_dbus_object_skeleton_set_device1(object, dev);
	return object;
}

JoindDBusObjectSkeleton *
standin_add_station(Standin *s, guint ifindex, const gchar *name)
{
	JoindDBusObjectSkeleton *object = add_device(s, ifindex, name, "wifi");
	g_autoptr(JoindDBusStation1) station = joind_dbus_station1_skeleton_new();

	joind_dbus_station1_set_state(station, "disconnected");
	joind_dbus_station1_set_connected_network(station, "/");
	g_signal_connect(station, "handle-scan", G_CALLBACK(on_scan), s);
	g_signal_connect(station, "handle-get-ordered-networks", G_CALLBACK(on_get_networks), s);
	g_signal_connect(station, "handle-disconnect", G_CALLBACK(on_disconnect), s);
	g_signal_connect(station, "handle-connect-hidden-network", G_CALLBACK(on_connect_hidden),
	                 s);
	joind_dbus_object_skeleton_set_station1(object, station);
	g_dbus_object_manager_server_export(s->manager, G_DBUS_OBJECT_SKELETON(object));
	return object;
}

static gchar *
ssid_hex(const gchar *ssid)
{
	GString *hex = g_string_new(NULL);

	for (const guchar *p = (const guchar *)ssid; *p != '\0'; p++)
		g_string_append_printf(hex, "%02x", *p);
	return g_string_free(hex, FALSE);
}

JoindDBusObjectSkeleton *
standin_add_network(Standin *s, JoindDBusObjectSkeleton *station, const gchar *ssid,
                    const gchar *type, gint16 strength)
{
	const gchar *dev_path = g_dbus_object_get_object_path(G_DBUS_OBJECT(station));
	g_autofree gchar *hex = ssid_hex(ssid);
	g_autofree gchar *path = g_strdup_printf("%s/network/%s_%s", dev_path, hex, type);
	JoindDBusObjectSkeleton *object = joind_dbus_object_skeleton_new(path);
	g_autoptr(JoindDBusNetwork1) net = joind_dbus_network1_skeleton_new();

	joind_dbus_network1_set_name(net, ssid);
	joind_dbus_network1_set_type_(net, type);
	joind_dbus_network1_set_security(net, g_strcmp0(type, "psk") == 0 ? "wpa2-wpa3" : type);
	joind_dbus_network1_set_strength(net, strength);
	joind_dbus_network1_set_device(net, dev_path);
	joind_dbus_network1_set_known_network(net, "/");
	g_signal_connect(net, "handle-connect", G_CALLBACK(on_connect), s);
	joind_dbus_object_skeleton_set_network1(object, net);
	g_dbus_object_manager_server_export(s->manager, G_DBUS_OBJECT_SKELETON(object));
	return object;
}

/* ---- known networks ------------------------------------------------------ */

static gboolean
on_forget(JoindDBusKnownNetwork1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	g_autoptr(GDBusObject) object = g_dbus_interface_dup_object(G_DBUS_INTERFACE(iface));

	g_dbus_object_manager_server_unexport(s->manager, g_dbus_object_get_object_path(object));
	joind_dbus_known_network1_complete_forget(iface, inv);
	return TRUE;
}

JoindDBusObjectSkeleton *
standin_add_known(Standin *s, const gchar *ssid, const gchar *type)
{
	g_autofree gchar *hex = ssid_hex(ssid);
	g_autofree gchar *path = g_strdup_printf("/net/joind/known/%s_%s", hex, type);
	JoindDBusObjectSkeleton *object = joind_dbus_object_skeleton_new(path);
	g_autoptr(JoindDBusKnownNetwork1) known = joind_dbus_known_network1_skeleton_new();

	joind_dbus_known_network1_set_name(known, ssid);
	joind_dbus_known_network1_set_type_(known, type);
	joind_dbus_known_network1_set_auto_connect(known, TRUE);
	joind_dbus_known_network1_set_last_connected_time(known, "");
	joind_dbus_known_network1_set_source(known, "user");
	g_signal_connect(known, "handle-forget", G_CALLBACK(on_forget), s);
	joind_dbus_object_skeleton_set_known_network1(object, known);
	g_dbus_object_manager_server_export(s->manager, G_DBUS_OBJECT_SKELETON(object));
	return object;
}

/* ---- 802.1X ports -------------------------------------------------------- */

static void
port_answered(Standin *s, GDBusMethodInvocation *inv, JoindDBusObject *object, const gchar *secret,
              const GError *error)
{
	JoindDBusPort8021x1 *port = joind_dbus_object_peek_port8021x1(object);
	gboolean ok = error == NULL && g_strcmp0(secret, s->expected_secret) == 0;

	joind_dbus_port8021x1_set_state(port, ok ? "authenticated" : "failed");
	joind_dbus_port8021x1_set_last_error(
	        port, ok ? "" : "EAP-TLS: the private key passphrase is wrong.");
	flush(port);
}

/* Returns once the authentication has started (State already says so);
 * the outcome follows as a State change. */
static gboolean
on_reauthenticate(JoindDBusPort8021x1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	g_autoptr(JoindDBusObject) object =
	        JOIND_DBUS_OBJECT(g_dbus_interface_dup_object(G_DBUS_INTERFACE(iface)));

	joind_dbus_port8021x1_set_state(iface, "authenticating");
	flush(iface);
	joind_dbus_port8021x1_complete_reauthenticate(iface, inv);
	if (s->agent_sender == NULL) {
		joind_dbus_port8021x1_set_state(iface, "failed");
		joind_dbus_port8021x1_set_last_error(iface, "No agent to ask for the key "
		                                            "passphrase.");
		flush(iface);
		return TRUE;
	}
	ask_agent(s, NULL, object, "RequestPrivateKeyPassphrase", port_answered);
	return TRUE;
}

static gboolean
on_logoff(JoindDBusPort8021x1 *iface, GDBusMethodInvocation *inv, Standin *s)
{
	joind_dbus_port8021x1_set_state(iface, "idle");
	flush(iface);
	joind_dbus_port8021x1_complete_logoff(iface, inv);
	return TRUE;
}

JoindDBusObjectSkeleton *
standin_add_port(Standin *s, guint ifindex, const gchar *name)
{
	JoindDBusObjectSkeleton *object = add_device(s, ifindex, name, "ethernet");
	g_autoptr(JoindDBusPort8021x1) port = joind_dbus_port8021x1_skeleton_new();

	joind_dbus_port8021x1_set_state(port, "authenticated");
	joind_dbus_port8021x1_set_profile(port, "/var/lib/joind/wired/office.8021x");
	joind_dbus_port8021x1_set_eap_method(port, "TLS");
	joind_dbus_port8021x1_set_identity(port, "host/pc1");
	joind_dbus_port8021x1_set_last_error(port, "");
	g_signal_connect(port, "handle-reauthenticate", G_CALLBACK(on_reauthenticate), s);
	g_signal_connect(port, "handle-logoff", G_CALLBACK(on_logoff), s);
	joind_dbus_object_skeleton_set_port8021x1(object, port);
	g_dbus_object_manager_server_export(s->manager, G_DBUS_OBJECT_SKELETON(object));
	return object;
}
