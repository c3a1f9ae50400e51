/* front-ends-load.c - both front ends busy at once: CLIENTS connections to
 * the system bus ($DBUS_SYSTEM_BUS_ADDRESS), each making CALLS calls one
 * after the other, all clients at the same time, mixed across net.joind
 * and net.connman.iwd: a read (no gate), gated reads (GetDiagnostics,
 * GetInfo) and, on every fourth client, agent registration churn on both
 * front ends (a user may have 16 agents: 50 clients of one user each
 * holding one would be refused by design).
 *
 *   front-ends-load CLIENTS CALLS
 *
 * Prints one line: calls, ok, refused (a PermissionDenied or polkit
 * failure: the caller, root or a member the rules allow, was entitled to
 * every call), other errors, and the latency's p50 and p99 in ms. Exits 1
 * when anything was refused or failed.
 */
#include <gio/gio.h>
#include <string.h>

#define CALL_KINDS 7

typedef struct {
	const gchar *dest;
	const gchar *path;
	const gchar *iface;
	const gchar *method;
	gboolean agent; /* takes the agent path */
} CallKind;

/* A client has one agent at a time, on either front end. */
static const CallKind kinds[CALL_KINDS] = {
        {"net.joind", "/net/joind", "org.freedesktop.DBus.Properties", "Get", FALSE},
        {"net.joind", "/net/joind", "net.joind.AgentManager1", "RegisterAgent", TRUE},
        {"net.joind", "/net/joind", "net.joind.Daemon1", "GetDiagnostics", FALSE},
        {"net.joind", "/net/joind", "net.joind.AgentManager1", "UnregisterAgent", TRUE},
        {"net.connman.iwd", "/net/connman/iwd", "net.connman.iwd.AgentManager", "RegisterAgent",
         TRUE},
        {"net.connman.iwd", "/net/connman/iwd", "net.connman.iwd.Daemon", "GetInfo", FALSE},
        {"net.connman.iwd", "/net/connman/iwd", "net.connman.iwd.AgentManager", "UnregisterAgent",
         TRUE},
};

typedef struct {
	GDBusConnection *conn;
	guint done;
	gint64 sent_at;
	gboolean agents; /* churns agent registrations */
} Client;

static guint n_calls, n_ok, n_refused, n_errors, n_running;
static GArray *latencies; /* gdouble ms */
static GMainLoop *loop;

static void client_next(Client *c);

static GVariant *
call_args(const CallKind *k)
{
	if (k->agent)
		return g_variant_new("(o)", "/load/agent");
	if (g_str_equal(k->method, "Get"))
		return g_variant_new("(ss)", "net.joind.Daemon1", "Version");
	return NULL;
}

/* Refused: the gate said no, or could not ask polkit. */
static gboolean
is_refusal(const GError *error)
{
	g_autofree gchar *name = g_dbus_error_get_remote_error(error);

	return strstr(error->message, "polkit") != NULL ||
	       strstr(error->message, "connection changed") != NULL ||
	       g_strcmp0(name, "net.joind.Error.PermissionDenied") == 0 ||
	       g_strcmp0(name, "net.connman.iwd.NotAuthorized") == 0 ||
	       g_strcmp0(name, "net.connman.iwd.PermissionDenied") == 0;
}

static void
client_answered(GObject *source, GAsyncResult *result, gpointer user_data)
{
	Client *c = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_finish(c->conn, result, &error);
	gdouble ms = (gdouble)(g_get_monotonic_time() - c->sent_at) / 1000.0;

	g_array_append_val(latencies, ms);
	if (reply != NULL) {
		n_ok++;
	} else if (is_refusal(error)) {
		n_refused++;
		if (n_refused <= 5)
			g_printerr("refused: %s\n", error->message);
	} else {
		n_errors++;
		if (n_errors <= 5)
			g_printerr("error: %s\n", error->message);
	}
	client_next(c);
}

static void
client_next(Client *c)
{
	const CallKind *k;

	if (c->done == n_calls) {
		if (--n_running == 0)
			g_main_loop_quit(loop);
		return;
	}
	k = &kinds[c->done++ % CALL_KINDS];
	if (k->agent && !c->agents)
		k = &kinds[0];
	c->sent_at = g_get_monotonic_time();
	g_dbus_connection_call(c->conn, k->dest, k->path, k->iface, k->method, call_args(k), NULL,
	                       G_DBUS_CALL_FLAGS_NO_AUTO_START, 30000, NULL, client_answered, c);
}

static gint
compare_double(gconstpointer a, gconstpointer b)
{
	gdouble x = *(const gdouble *)a, y = *(const gdouble *)b;

	return (x > y) - (x < y);
}

static gdouble
percentile(guint p)
{
	if (latencies->len == 0)
		return 0.0;
	return g_array_index(latencies, gdouble, MIN(latencies->len - 1, latencies->len * p / 100));
}

int
main(int argc, char **argv)
{
	guint64 n_clients = 0, calls = 0;
	g_autofree Client *clients = NULL;

	if (argc != 3 || !g_ascii_string_to_unsigned(argv[1], 10, 1, 1000, &n_clients, NULL) ||
	    !g_ascii_string_to_unsigned(argv[2], 10, 1, G_MAXUINT, &calls, NULL)) {
		g_printerr("usage: front-ends-load CLIENTS CALLS\n");
		return 2;
	}
	n_calls = (guint)calls;
	latencies = g_array_new(FALSE, FALSE, sizeof(gdouble));
	loop = g_main_loop_new(NULL, FALSE);
	clients = g_new0(Client, n_clients);
	for (guint i = 0; i < n_clients; i++) {
		g_autoptr(GError) error = NULL;
		g_autofree gchar *address =
		        g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, NULL, &error);

		clients[i].conn =
		        address == NULL
		                ? NULL
		                : g_dbus_connection_new_for_address_sync(
		                          address,
		                          G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
		                                  G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		                          NULL, NULL, &error);
		if (clients[i].conn == NULL) {
			g_printerr("front-ends-load: %s\n", error->message);
			return 2;
		}
	}
	n_running = n_clients;
	for (guint i = 0; i < n_clients; i += 4)
		clients[i].agents = TRUE;
	for (guint i = 0; i < n_clients; i++)
		client_next(&clients[i]);
	g_main_loop_run(loop);
	g_array_sort(latencies, compare_double);
	g_print("calls %u ok %u refused %u errors %u p50 %.2f ms p99 %.2f ms\n",
	        n_ok + n_refused + n_errors, n_ok, n_refused, n_errors, percentile(50),
	        percentile(99));
	for (guint i = 0; i < n_clients; i++)
		g_object_unref(clients[i].conn);
	g_array_unref(latencies);
	g_main_loop_unref(loop);
	return n_refused == 0 && n_errors == 0 ? 0 : 1;
}
