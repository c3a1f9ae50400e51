/* bench-connect.c - one connect request, timed the same way for joind, iwd
 * and wpa_supplicant, for bench/wifi-connect (never a test).
 *
 *   bench-connect DAEMON PID STATION NETWORK [TIMEOUT-SECONDS]
 *
 *   joind           STATION: the device's path (net.joind.Station1),
 *                   NETWORK: the network's path (net.joind.Network1.Connect)
 *   iwd             STATION: the station's path (net.connman.iwd.Station),
 *                   NETWORK: the network's path (net.connman.iwd.Network.Connect)
 *   wpa_supplicant  STATION: the interface's name (GetInterface),
 *                   NETWORK: the index of the network in its Networks
 *                   (fi.w1.wpa_supplicant1.Interface.SelectNetwork)
 *
 * Everything a client pays once (GLib and the bus connection, the owner of
 * the daemon's name, the subscription to the station's PropertiesChanged,
 * wpa_supplicant's object paths) is done before the start time is taken,
 * so no daemon's figure includes the start-up of the program that asks.
 * The interval runs from just before the request is sent to the arrival of
 * the signal that sets the station's State to connected (joind, iwd) or
 * completed (wpa_supplicant); the request's reply must be a success too.
 * Prints "T0 T1 CPU0 CPU1": the two times in seconds since the epoch, and
 * the run time of every thread of PID (schedstat, ms) at both. Status 1,
 * with a sentence on stderr, on an error or after TIMEOUT (60) seconds.
 */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "proc-cpu.h"

typedef struct {
	const gchar *bus_name;
	const gchar *station_iface;
	const gchar *connected;
	const gchar *connect_iface;
	const gchar *connect_method;
} Daemon;

static const Daemon daemons[] = {
        {"net.joind", "net.joind.Station1", "connected", "net.joind.Network1", "Connect"},
        {"net.connman.iwd", "net.connman.iwd.Station", "connected", "net.connman.iwd.Network",
         "Connect"},
        {"fi.w1.wpa_supplicant1", "fi.w1.wpa_supplicant1.Interface", "completed",
         "fi.w1.wpa_supplicant1.Interface", "SelectNetwork"},
};

typedef struct {
	const Daemon *daemon;
	GDBusConnection *bus;
	gchar *owner;
	gchar *station;
	gchar *network;
	const gchar *pid;
	gint64 t_connected; /* real time, us; 0 until the signal */
	gdouble cpu_connected;
	gboolean replied;
	gchar *error;
	GMainLoop *loop;
} Run;

/* The run time of every thread of the process, ms. */
static gdouble
sched_ms(const gchar *pid)
{
	return (gdouble)bench_proc_cpu_ns(pid) / 1e6;
}

static void
run_stop(Run *run)
{
	if (run->error != NULL || (run->replied && run->t_connected != 0))
		g_main_loop_quit(run->loop);
}

static void
on_properties_changed(GDBusConnection *bus, const gchar *sender, const gchar *path,
                      const gchar *iface, const gchar *signal, GVariant *params, gpointer data)
{
	Run *run = data;
	g_autoptr(GVariant) changed = NULL;
	const gchar *state = NULL;

	(void)bus, (void)sender, (void)path, (void)iface, (void)signal;
	if (run->t_connected != 0)
		return;
	changed = g_variant_get_child_value(params, 1);
	if (g_variant_lookup(changed, "State", "&s", &state) &&
	    g_strcmp0(state, run->daemon->connected) == 0) {
		run->t_connected = g_get_real_time();
		run->cpu_connected = sched_ms(run->pid);
		run_stop(run);
	}
}

static void
on_reply(GObject *source, GAsyncResult *res, gpointer data)
{
	Run *run = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) ret =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);

	if (ret == NULL)
		run->error = g_strdup_printf("the connect request failed: %s", error->message);
	run->replied = TRUE;
	run_stop(run);
}

static gboolean
on_timeout(gpointer data)
{
	Run *run = data;

	run->error = g_strdup(run->t_connected != 0 ? "no reply to the connect request"
	                                            : "not connected");
	g_main_loop_quit(run->loop);
	return G_SOURCE_REMOVE;
}

/* A method call on the daemon, waited for (set-up only, never timed). */
static GVariant *
call_sync(Run *run, const gchar *path, const gchar *iface, const gchar *method, GVariant *args,
          const gchar *type, GError **error)
{
	return g_dbus_connection_call_sync(run->bus, run->owner, path, iface, method, args,
	                                   G_VARIANT_TYPE(type), G_DBUS_CALL_FLAGS_NONE, 30000,
	                                   NULL, error);
}

/* wpa_supplicant's interface and network object paths, from the
 * interface's name and the network's index. */
static gboolean
wpa_resolve(Run *run, GError **error)
{
	g_autoptr(GVariant) iface = NULL;
	g_autoptr(GVariant) networks = NULL;
	g_autoptr(GVariant) list = NULL;
	guint64 index = g_ascii_strtoull(run->network, NULL, 10);

	iface = call_sync(run, "/fi/w1/wpa_supplicant1", "fi.w1.wpa_supplicant1", "GetInterface",
	                  g_variant_new("(s)", run->station), "(o)", error);
	if (iface == NULL)
		return FALSE;
	g_free(run->station);
	g_variant_get(iface, "(o)", &run->station);
	networks = call_sync(run, run->station, "org.freedesktop.DBus.Properties", "Get",
	                     g_variant_new("(ss)", "fi.w1.wpa_supplicant1.Interface", "Networks"),
	                     "(v)", error);
	if (networks == NULL)
		return FALSE;
	g_variant_get(networks, "(v)", &list);
	if (index >= g_variant_n_children(list)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no network %s on %s",
		            run->network, run->station);
		return FALSE;
	}
	g_free(run->network);
	g_variant_get_child(list, (gsize)index, "o", &run->network);
	return TRUE;
}

/* The bus, the daemon's unique name, the subscription to the station's
 * State (in place once the synchronous Get that follows returns: the bus
 * handles this connection's messages in order), and the paths. */
static gboolean
run_prepare(Run *run, GError **error)
{
	g_autoptr(GVariant) owner = NULL;
	g_autoptr(GVariant) state = NULL;

	run->bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, error);
	if (run->bus == NULL)
		return FALSE;
	run->owner = g_strdup(run->daemon->bus_name);
	owner = g_dbus_connection_call_sync(
	        run->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "GetNameOwner", g_variant_new("(s)", run->daemon->bus_name), G_VARIANT_TYPE("(s)"),
	        G_DBUS_CALL_FLAGS_NONE, 30000, NULL, error);
	if (owner == NULL)
		return FALSE;
	g_free(run->owner);
	g_variant_get(owner, "(s)", &run->owner);
	if (strcmp(run->daemon->bus_name, "fi.w1.wpa_supplicant1") == 0 && !wpa_resolve(run, error))
		return FALSE;
	g_dbus_connection_signal_subscribe(run->bus, run->owner, "org.freedesktop.DBus.Properties",
	                                   "PropertiesChanged", run->station,
	                                   run->daemon->station_iface, G_DBUS_SIGNAL_FLAGS_NONE,
	                                   on_properties_changed, run, NULL);
	state = call_sync(run, run->station, "org.freedesktop.DBus.Properties", "Get",
	                  g_variant_new("(ss)", run->daemon->station_iface, "State"), "(v)", error);
	return state != NULL;
}

static void
run_request(Run *run)
{
	const Daemon *d = run->daemon;
	const gboolean select = strcmp(d->connect_method, "SelectNetwork") == 0;

	g_dbus_connection_call(run->bus, run->owner, select ? run->station : run->network,
	                       d->connect_iface, d->connect_method,
	                       select ? g_variant_new("(o)", run->network) : NULL, NULL,
	                       G_DBUS_CALL_FLAGS_NONE, G_MAXINT, NULL, on_reply, run);
}

static const Daemon *
daemon_of(const gchar *name)
{
	if (strcmp(name, "joind") == 0)
		return &daemons[0];
	if (strcmp(name, "iwd") == 0)
		return &daemons[1];
	if (strcmp(name, "wpa_supplicant") == 0)
		return &daemons[2];
	return NULL;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	Run run = {0};
	guint64 timeout = 60;
	gint64 t0;
	gdouble cpu0;

	if (argc < 5 || argc > 6 || (run.daemon = daemon_of(argv[1])) == NULL) {
		fprintf(stderr, "usage: bench-connect joind|iwd|wpa_supplicant PID STATION NETWORK "
		                "[TIMEOUT-SECONDS]\n");
		return 2;
	}
	if (argc == 6 && !g_ascii_string_to_unsigned(argv[5], 10, 1, 3600, &timeout, &error)) {
		fprintf(stderr, "bench-connect: timeout: %s\n", error->message);
		return 2;
	}
	run.pid = argv[2];
	run.station = g_strdup(argv[3]);
	run.network = g_strdup(argv[4]);
	run.loop = g_main_loop_new(NULL, FALSE);
	if (!run_prepare(&run, &error)) {
		fprintf(stderr, "bench-connect: %s\n", error->message);
		return 1;
	}
	g_timeout_add_seconds((guint)timeout, on_timeout, &run);
	cpu0 = sched_ms(run.pid);
	t0 = g_get_real_time();
	run_request(&run);
	g_main_loop_run(run.loop);
	if (run.error != NULL) {
		fprintf(stderr, "bench-connect: %s\n", run.error);
		return 1;
	}
	printf("%.6f %.6f %.1f %.1f\n", (gdouble)t0 / 1e6, (gdouble)run.t_connected / 1e6, cpu0,
	       run.cpu_connected);
	g_main_loop_unref(run.loop);
	g_object_unref(run.bus);
	g_free(run.owner);
	g_free(run.station);
	g_free(run.network);
	return 0;
}
