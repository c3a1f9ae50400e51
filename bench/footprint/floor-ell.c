/* floor-ell.c - what iwd's stack costs before iwd does anything: floor.c's
 * counterpart on the libraries iwd links (ELL and libc), for the benches
 * that set joind beside iwd.
 *
 *   floor-ell [NAME] [--crypto]
 *
 * A minimal ELL D-Bus service: it owns NAME (net.joind.FloorEll) on the
 * session bus and exports one object with one property, then idles. With
 * --crypto it first runs what a WPA2-PSK profile costs on ELL, as iwd
 * computes it: one PBKDF2 (the passphrase to PMK) and one HMAC-SHA1, both
 * through ELL's checksums (the kernel's crypto API). The difference
 * between floor.c's figures and this one's, taken in the same boot, is
 * what joind's required stack costs more than iwd's: a daemon's own part
 * is what it costs over its floor.
 */
#include <ell/ell.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *floor_name = "net.joind.FloorEll";
static int floor_status = EXIT_SUCCESS;

/* Gives up with a sentence: the probe sees the exit. */
static void
floor_fail(const char *what)
{
	fprintf(stderr, "floor-ell: %s %s\n", what, floor_name);
	floor_status = EXIT_FAILURE;
	l_main_quit();
}

static bool
floor_get_version(struct l_dbus *dbus, struct l_dbus_message *message,
                  struct l_dbus_message_builder *builder, void *user_data)
{
	return l_dbus_message_builder_append_basic(builder, 's', "1");
}

static void
floor_setup(struct l_dbus_interface *iface)
{
	l_dbus_interface_property(iface, "Version", 0, "s", floor_get_version, NULL);
}

/* Not owning the name, the program would idle unseen, and the probe waits
 * for the name or the exit. */
static void
floor_name_acquired(struct l_dbus *dbus, bool success, bool queued, void *user_data)
{
	if (!success)
		floor_fail("cannot own");
}

static void
floor_ready(void *user_data)
{
	struct l_dbus *dbus = user_data;

	if (!l_dbus_register_interface(dbus, "net.joind.Floor1", floor_setup, NULL, false) ||
	    !l_dbus_object_add_interface(dbus, "/net/joind", "net.joind.Floor1", NULL)) {
		floor_fail("cannot export /net/joind for");
		return;
	}
	l_dbus_name_acquire(dbus, floor_name, false, false, false, floor_name_acquired, NULL);
}

/* The PMK of a WPA2-PSK network (IEEE 802.11 J.4) and one HMAC-SHA1 of it. */
static bool
floor_crypto(void)
{
	static const char passphrase[] = "correct horse battery";
	static const unsigned char ssid[] = "floor";
	unsigned char pmk[32], mac[20];
	struct l_checksum *hmac;
	bool ok;

	if (!l_cert_pkcs5_pbkdf2(L_CHECKSUM_SHA1, passphrase, ssid, sizeof(ssid) - 1, 4096, pmk,
	                         sizeof(pmk)))
		return false;
	hmac = l_checksum_new_hmac(L_CHECKSUM_SHA1, pmk, sizeof(pmk));
	ok = hmac != NULL && l_checksum_update(hmac, ssid, sizeof(ssid) - 1) &&
	     l_checksum_get_digest(hmac, mac, sizeof(mac)) == sizeof(mac);
	l_checksum_free(hmac);
	return ok;
}

static void
floor_signal(uint32_t signo, void *user_data)
{
	l_main_quit();
}

int
main(int argc, char **argv)
{
	struct l_dbus *dbus;
	if (argc > 1 && argv[1][0] != '-')
		floor_name = argv[1];
	if (!l_main_init())
		return EXIT_FAILURE;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--crypto") == 0 && !floor_crypto()) {
			fprintf(stderr, "floor-ell: PBKDF2 or HMAC failed\n");
			return EXIT_FAILURE;
		}
	}
	dbus = l_dbus_new_default(L_DBUS_SESSION_BUS);
	if (dbus == NULL) {
		fprintf(stderr, "floor-ell: no session bus\n");
		return EXIT_FAILURE;
	}
	l_dbus_set_ready_handler(dbus, floor_ready, dbus, NULL);
	l_main_run_with_signal(floor_signal, NULL);
	l_dbus_destroy(dbus);
	l_main_exit();
	return floor_status;
}
