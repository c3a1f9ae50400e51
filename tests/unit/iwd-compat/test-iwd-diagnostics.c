/* test-iwd-diagnostics.c - iwd's GetDiagnostics() dictionary from joind's
 * device diagnostics: iwd's keys and signatures, iwd's security names,
 * facts joind lacks left out, nothing while not connected. */
#include "iwd-diagnostics.h"

static GVariant *
joind_diagnostics(const gchar *connection)
{
	g_autofree gchar *text =
	        g_strdup_printf("{'wiphy': <'phy3'>, 'connection': <%s>}", connection);

	return g_variant_ref_sink(g_variant_new_parsed(text));
}

static void
test_connected(void)
{
	g_autoptr(GVariant) joind = joind_diagnostics(
	        "@ma{sv} {'bssid': <'02:00:00:00:00:01'>, 'frequency': <uint32 2412>, "
	        "'channel': <uint32 1>, 'security': <'psk'>, 'rssi_dbm': <-38>, "
	        "'rssi_avg_dbm': <-40>, 'tx_bitrate_mbps': <54.0>, "
	        "'pairwise_cipher': <'CCMP-128'>, 'connected_seconds': <uint64 7>}");
	g_autoptr(GVariant) iwd = g_variant_ref_sink(iwd_diagnostics_from_joind(joind));
	g_autoptr(GVariant) expected = g_variant_ref_sink(g_variant_new_parsed(
	        "{'ConnectedBss': <'02:00:00:00:00:01'>, 'Frequency': <uint32 2412>, "
	        "'Channel': <uint16 1>, 'Security': <'WPA2-Personal'>, 'RSSI': <int16 -38>, "
	        "'AverageRSSI': <int16 -40>, 'TxBitrate': <uint32 540>, "
	        "'PairwiseCipher': <'CCMP-128'>, 'ConnectedTime': <uint32 7>}"));

	g_assert_true(g_variant_equal(iwd, expected));
}

static void
test_sparse(void)
{
	/* An open network, the kernel's station facts not in. */
	g_autoptr(GVariant) joind = joind_diagnostics(
	        "@ma{sv} {'bssid': <'02:00:00:00:00:02'>, 'frequency': <uint32 5180>, "
	        "'channel': <uint32 36>, 'security': <'open'>, 'pairwise_cipher': <'none'>}");
	g_autoptr(GVariant) iwd = g_variant_ref_sink(iwd_diagnostics_from_joind(joind));
	g_autoptr(GVariant) expected = g_variant_ref_sink(g_variant_new_parsed(
	        "{'ConnectedBss': <'02:00:00:00:00:02'>, 'Frequency': <uint32 5180>, "
	        "'Channel': <uint16 36>, 'Security': <'Open'>}"));

	g_assert_true(g_variant_equal(iwd, expected));
}

static void
test_security_names(void)
{
	static const gchar *const cases[][2] = {
	        {"sae", "WPA3-Personal"},
	        {"sae-h2e", "WPA3-Personal"},
	        {"owe", "OWE"},
	        {"8021x", "WPA2-Enterprise"},
	        {"ft-psk", "WPA2-Personal + FT"},
	        {"8021x-suite-b-192", NULL},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *conn = g_strdup_printf(
		        "@ma{sv} {'bssid': <'02:00:00:00:00:03'>, 'frequency': <uint32 2437>, "
		        "'security': <'%s'>}",
		        cases[i][0]);
		g_autoptr(GVariant) joind = joind_diagnostics(conn);
		g_autoptr(GVariant) iwd = g_variant_ref_sink(iwd_diagnostics_from_joind(joind));
		const gchar *security = NULL;

		g_assert_cmpint(g_variant_lookup(iwd, "Security", "&s", &security), ==,
		                cases[i][1] != NULL);
		g_assert_cmpstr(security, ==, cases[i][1]);
	}
}

static void
test_not_connected(void)
{
	g_autoptr(GVariant) none = joind_diagnostics("@ma{sv} nothing");
	g_autoptr(GVariant) absent =
	        g_variant_ref_sink(g_variant_new_parsed("{'wiphy': <'phy3'>}"));

	g_assert_null(iwd_diagnostics_from_joind(none));
	g_assert_null(iwd_diagnostics_from_joind(absent));
	g_assert_null(iwd_diagnostics_from_joind(NULL));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/iwd-compat/diagnostics/connected", test_connected);
	g_test_add_func("/iwd-compat/diagnostics/sparse", test_sparse);
	g_test_add_func("/iwd-compat/diagnostics/security-names", test_security_names);
	g_test_add_func("/iwd-compat/diagnostics/not-connected", test_not_connected);
	return g_test_run();
}
