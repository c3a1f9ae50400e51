/* test-address.c - which MAC address a station shows (address.c): the
 * per-network derivation against an independent HMAC-SHA256 (Python's
 * hmac module), the secret kept in the state directory, the profile's
 * AlwaysRandomizeAddress and AddressOverride, and the change through the
 * link. */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "address.h"
#include "fake-link.h"
#include "joind-error.h"
#include "settings.h"
#include "test-core.h"
#include "profile-keys.h"

static const guint8 current[6] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x00};

typedef struct {
	gchar *dir;
	FakeLink *fake;
	WifiIface iface;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->dir = g_dir_make_tmp("joind-address-XXXXXX", NULL);
	g_assert_nonnull(f->dir);
	f->iface.name = (gchar *)"wlan0";
	f->iface.link = fake_link_new(&f->fake);
	memcpy(f->fake->permanent, current, 6);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_autofree gchar *secret = g_build_filename(f->dir, "address-secret", NULL);

	g_remove(secret);
	g_rmdir(f->dir);
	g_free(f->dir);
	wifi_link_free(f->iface.link);
}

static gboolean
is_local_unicast(const guint8 addr[6])
{
	return (addr[0] & 0x03) == 0x02;
}

/* HMAC-SHA256(00..1f, 02:00:00:00:02:00 | "joind-psk") begins
 * 20 76 ca 19 78 c6 (Python: hmac.new(key, perm + ssid, sha256)). */
static void
test_derive_known_answer(void)
{
	guint8 secret[32];
	guint8 full[6];
	guint8 nic[6];
	const guint8 want_full[6] = {0x22, 0x76, 0xca, 0x19, 0x78, 0xc6};
	const guint8 want_nic[6] = {0x02, 0x00, 0x00, 0x19, 0x78, 0xc6};

	for (guint i = 0; i < sizeof(secret); i++)
		secret[i] = (guint8)i;
	wifi_address_derive(secret, current, (const guint8 *)"joind-psk", 9, FALSE, full);
	wifi_address_derive(secret, current, (const guint8 *)"joind-psk", 9, TRUE, nic);
	g_assert_cmpmem(full, 6, want_full, 6);
	g_assert_cmpmem(nic, 6, want_nic, 6);
}

static void
network_address(WifiAddress *address, Fixture *f, const gchar *ssid, JoindProfile *profile,
                guint8 out[6])
{
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_address_for_network(address, &f->iface, (const guint8 *)ssid,
	                                       strlen(ssid), profile, current, out, &error));
	g_assert_no_error(error);
}

/* Stable across restarts (a new WifiAddress over the same state
 * directory), different between networks; the secret is 32 octets, 0600. */
static void
test_network_mode(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiAddress) first = wifi_address_new(WIFI_ADDRESS_NETWORK, FALSE, f->dir);
	g_autoptr(WifiAddress) again = wifi_address_new(WIFI_ADDRESS_NETWORK, FALSE, f->dir);
	g_autofree gchar *path = g_build_filename(f->dir, "address-secret", NULL);
	guint8 a[6], b[6], c[6];
	GStatBuf st;

	network_address(first, f, "joind-psk", NULL, a);
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0600);
	g_assert_cmpint(st.st_size, ==, 32);
	network_address(again, f, "joind-psk", NULL, b);
	network_address(again, f, "joind-open", NULL, c);
	g_assert_cmpmem(a, 6, b, 6);
	g_assert_true(memcmp(a, c, 6) != 0);
	g_assert_true(memcmp(a, current, 6) != 0);
	g_assert_true(is_local_unicast(a) && is_local_unicast(c));
	/* Scans go with random addresses in this mode. */
	g_assert_true(wifi_address_randomize_scans(first));
}

/* disabled and once leave a connection's address as it is. */
static void
test_other_modes(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiAddress) disabled = wifi_address_new(WIFI_ADDRESS_DISABLED, FALSE, f->dir);
	g_autoptr(WifiAddress) once = wifi_address_new(WIFI_ADDRESS_ONCE, FALSE, f->dir);
	guint8 a[6], b[6];

	network_address(disabled, f, "joind-psk", NULL, a);
	network_address(once, f, "joind-psk", NULL, b);
	g_assert_cmpmem(a, 6, current, 6);
	g_assert_cmpmem(b, 6, current, 6);
	g_assert_false(wifi_address_randomize_scans(disabled));
	g_assert_true(wifi_address_randomize_scans(once));
	g_assert_cmpint(wifi_address_mode_from_string("network"), ==, WIFI_ADDRESS_NETWORK);
	g_assert_cmpint(wifi_address_mode_from_string("once"), ==, WIFI_ADDRESS_ONCE);
	g_assert_cmpint(wifi_address_mode_from_string("disabled"), ==, WIFI_ADDRESS_DISABLED);
}

/* The profiles come from a real core's store, as in joind. */
static JoindProfile *
profile_from(TestCore *tc, const gchar *ssid, const gchar *text)
{
	g_autofree gchar *name = g_strconcat(ssid, ".psk", NULL);

	test_core_add_profile(tc, name, text);
	return joind_core_find_network_profile(tc->core, (const guint8 *)ssid, strlen(ssid),
	                                       JOIND_PROFILE_TYPE_PSK);
}

static void
test_profile_keys(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiAddress) address = wifi_address_new(WIFI_ADDRESS_NETWORK, FALSE, f->dir);
	TestCore *tc = test_core_new(NULL, wifi_settings);
	joind_core_declare_profile_keys(tc->core, wifi_profile_keys);
	g_autoptr(JoindProfile) fixed = profile_from(tc, "fixed",
	                                             "[Security]\nPassphrase=secret123\n[Settings]"
	                                             "\nAddressOverride=02:11:22:33:44:55\n");
	g_autoptr(JoindProfile) random = profile_from(
	        tc, "random",
	        "[Security]\nPassphrase=secret123\n[Settings]\nAlwaysRandomizeAddress=true\n");
	const guint8 want[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
	guint8 a[6], b[6], derived[6];

	g_assert_nonnull(fixed);
	g_assert_nonnull(random);
	network_address(address, f, "fixed", fixed, a);
	g_assert_cmpmem(a, 6, want, 6);
	network_address(address, f, "random", random, a);
	network_address(address, f, "random", random, b);
	network_address(address, f, "random", NULL, derived);
	g_assert_true(memcmp(a, b, 6) != 0);
	g_assert_true(memcmp(a, derived, 6) != 0);
	g_assert_true(is_local_unicast(a) && is_local_unicast(b));
	g_clear_object(&fixed);
	g_clear_object(&random);
	test_core_free(tc);
}

/* A secret of the wrong size is refused with its path, not replaced. */
static void
test_bad_secret(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiAddress) address = wifi_address_new(WIFI_ADDRESS_NETWORK, FALSE, f->dir);
	g_autofree gchar *path = g_build_filename(f->dir, "address-secret", NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *kept = NULL;
	guint8 out[6];

	g_assert_true(g_file_set_contents(path, "short", 5, NULL));
	g_assert_false(wifi_address_for_network(address, &f->iface, (const guint8 *)"x", 1, NULL,
	                                        current, out, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_nonnull(strstr(error->message, path));
	g_assert_true(g_file_get_contents(path, &kept, NULL, NULL));
	g_assert_cmpstr(kept, ==, "short");
}

/* The link is asked only for a different address. */
static void
test_apply(Fixture *f, gconstpointer data)
{
	const guint8 other[6] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_address_apply(&f->iface, current, current, &error));
	g_assert_cmpuint(f->fake->n_set_address, ==, 0);
	g_assert_true(wifi_address_apply(&f->iface, other, current, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(f->fake->n_set_address, ==, 1);
	g_assert_cmpmem(f->fake->address, 6, other, 6);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/address/derive-known-answer", test_derive_known_answer);
	g_test_add("/wifi/address/network", Fixture, NULL, fixture_setup, test_network_mode,
	           fixture_teardown);
	g_test_add("/wifi/address/other-modes", Fixture, NULL, fixture_setup, test_other_modes,
	           fixture_teardown);
	g_test_add("/wifi/address/profile-keys", Fixture, NULL, fixture_setup, test_profile_keys,
	           fixture_teardown);
	g_test_add("/wifi/address/bad-secret", Fixture, NULL, fixture_setup, test_bad_secret,
	           fixture_teardown);
	g_test_add("/wifi/address/apply", Fixture, NULL, fixture_setup, test_apply,
	           fixture_teardown);
	return g_test_run();
}
