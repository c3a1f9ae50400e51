/* ap-request.c - one access point start or stop request, sent the same
 * way to joind, iwd and hostapd, for bench/ap (never a test).
 *
 *   ap-request [--phase=US] joind|iwd OBJECT-PATH start PROFILE | stop
 *   ap-request [--phase=US] hostapd CONTROL-SOCKET start | stop
 *
 * joind: net.joind.AccessPoint1.StartProfile or Stop; iwd:
 * net.connman.iwd.AccessPoint.StartProfile or Stop, on the system bus;
 * hostapd: ENABLE or DISABLE on its control socket. Everything a client
 * pays once (GLib and the bus connection, the daemon's unique name and its
 * first answer to this client; the socket bound and connected) is done
 * before the time is taken, so no daemon's figure includes the start-up
 * of the program that asks. Prints that time, just before the request is
 * sent, in seconds since the epoch; exits 0 once the reply says the
 * request succeeded, 1 with a sentence on stderr otherwise.
 *
 * --phase=US sends the request US microseconds into the 102.4 ms beacon
 * interval, counted from the epoch, which is where mac80211_hwsim's
 * beacon slots fall (its TSF is the real-time clock): a start's first
 * beacon waits for the next slot, so the caller spreads its rounds'
 * phases evenly over the interval, and every daemon gets the same ones.
 */
#include <errno.h>
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define BEACON_INTERVAL_US 102400 /* 100 TU */

static gint64 phase_us = -1; /* none asked for */

/* Prints the time, once it is phase_us into the beacon interval when
 * a phase was asked for. */
static void
print_now(void)
{
	gint64 now = g_get_real_time();

	if (phase_us >= 0) {
		g_usleep((gulong)((phase_us - now % BEACON_INTERVAL_US + BEACON_INTERVAL_US) %
		                  BEACON_INTERVAL_US));
		now = g_get_real_time();
	}

	printf("%" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT "\n", now / G_USEC_PER_SEC,
	       now % G_USEC_PER_SEC);
	fflush(stdout);
}

static int
dbus_request(gboolean joind, const gchar *path, gboolean start, const gchar *profile)
{
	const gchar *name = joind ? "net.joind" : "net.connman.iwd";
	const gchar *iface = joind ? "net.joind.AccessPoint1" : "net.connman.iwd.AccessPoint";
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	g_autoptr(GVariant) owner = NULL;
	g_autoptr(GVariant) warm = NULL;
	g_autoptr(GVariant) reply = NULL;
	const gchar *unique = NULL;

	if (bus != NULL)
		owner = g_dbus_connection_call_sync(
		        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		        "org.freedesktop.DBus", "GetNameOwner", g_variant_new("(s)", name),
		        G_VARIANT_TYPE("(s)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	if (owner == NULL) {
		fprintf(stderr, "ap-request: %s is not on the system bus: %s\n", name,
		        error->message);
		return 1;
	}
	g_variant_get(owner, "(&s)", &unique);
	/* A client reads before it acts, as NetworkManager does; the daemon
	 * learns who the client is on its first call (joind asks the bus for
	 * its uid then), a cost paid once per client, like the connection. */
	warm = g_dbus_connection_call_sync(bus, unique, path, "org.freedesktop.DBus.Properties",
	                                   "Get", g_variant_new("(ss)", iface, "Started"), NULL,
	                                   G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
	if (warm == NULL) {
		fprintf(stderr, "ap-request: %s: %s\n", name, error->message);
		return 1;
	}
	print_now();
	reply = g_dbus_connection_call_sync(bus, unique, path, iface,
	                                    start ? "StartProfile" : "Stop",
	                                    start ? g_variant_new("(s)", profile) : NULL, NULL,
	                                    G_DBUS_CALL_FLAGS_NONE, 60 * 1000, NULL, &error);
	if (reply == NULL) {
		fprintf(stderr, "ap-request: %s: %s\n", name, error->message);
		return 1;
	}
	return 0;
}

static int
hostapd_request(const gchar *control, gboolean start)
{
	struct sockaddr_un local = {.sun_family = AF_UNIX}, remote = {.sun_family = AF_UNIX};
	const gchar *command = start ? "ENABLE" : "DISABLE";
	gchar reply[64] = "";
	ssize_t n = -1;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	/* hostapd answers the sender's address: a bound socket of our own. */
	g_snprintf(local.sun_path, sizeof(local.sun_path), "/tmp/ap-request-%d", (int)getpid());
	g_strlcpy(remote.sun_path, control, sizeof(remote.sun_path));
	unlink(local.sun_path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&local, sizeof(local)) < 0 ||
	    connect(fd, (struct sockaddr *)&remote, sizeof(remote)) < 0) {
		fprintf(stderr, "ap-request: hostapd's %s: %s\n", control, g_strerror(errno));
		unlink(local.sun_path);
		return 1;
	}
	print_now();
	if (send(fd, command, strlen(command), 0) >= 0)
		n = recv(fd, reply, sizeof(reply) - 1, 0);
	unlink(local.sun_path);
	close(fd);
	if (n < 2 || strncmp(reply, "OK", 2) != 0) {
		fprintf(stderr, "ap-request: hostapd's %s: %s\n", command,
		        n < 0 ? g_strerror(errno) : "not OK");
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	gboolean start, bad_phase = FALSE;

	if (argc > 1 && g_str_has_prefix(argv[1], "--phase=")) {
		bad_phase = !g_ascii_string_to_signed(argv[1] + 8, 10, 0, BEACON_INTERVAL_US - 1,
		                                      &phase_us, NULL);
		argv++;
		argc--;
	}
	start = argc > 3 && g_str_equal(argv[3], "start");
	if (bad_phase || argc < 4 || (start && argc != 5 && !g_str_equal(argv[1], "hostapd"))) {
		fprintf(stderr,
		        "usage: ap-request [--phase=US] joind|iwd OBJECT-PATH start PROFILE | "
		        "stop\n"
		        "       ap-request [--phase=US] hostapd CONTROL-SOCKET start | stop\n");
		return 2;
	}
	if (g_str_equal(argv[1], "hostapd"))
		return hostapd_request(argv[2], start);
	return dbus_request(g_str_equal(argv[1], "joind"), argv[2], start, argv[4]);
}
