/* test-hidden.c - ConnectHiddenNetwork()'s pure parts: the SSID argument
 * and whether a network counts as visible (broadcasting its SSID). */
#include <string.h>

#include "hidden.h"

static void
test_ssid_argument(void)
{
	static const guint8 ssid32[32] = {'a'};
	static const guint8 ssid33[33] = {'a'};
	g_autoptr(GBytes) empty = g_bytes_new(NULL, 0);
	g_autoptr(GBytes) one = g_bytes_new("x", 1);
	g_autoptr(GBytes) max = g_bytes_new(ssid32, sizeof(ssid32));
	g_autoptr(GBytes) over = g_bytes_new(ssid33, sizeof(ssid33));
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_hidden_check_ssid(one, &error));
	g_assert_no_error(error);
	g_assert_true(wifi_hidden_check_ssid(max, &error));
	g_assert_no_error(error);

	g_assert_false(wifi_hidden_check_ssid(empty, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_hidden_check_ssid(NULL, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_hidden_check_ssid(over, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "33"));
}

/* An open BSS: SSID element (ssid_len octets of ssid, or zeros) only. */
static WifiBss *
make_bss(guint8 last, const gchar *ssid, gsize ssid_len)
{
	guint8 ies[2 + 32] = {0, (guint8)ssid_len};
	guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x6a, last};
	g_autoptr(GError) error = NULL;
	WifiBss *bss;

	if (ssid != NULL)
		memcpy(ies + 2, ssid, ssid_len);
	bss = wifi_bss_new(bssid, 2452, -3000, WIFI_CAPABILITY_ESS, ies, 2 + ssid_len, FALSE,
	                   &error);
	g_assert_no_error(error);
	g_assert_nonnull(bss);
	return bss;
}

static void
test_visible(void)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GPtrArray) net = g_ptr_array_new();
	WifiBss *shown = make_bss(1, "jh-visible", 10);
	WifiBss *probed = make_bss(2, "jh-secret", 9);
	WifiBss *beacon_empty = make_bss(2, NULL, 0);
	WifiBss *beacon_zeros = make_bss(3, NULL, 9);
	WifiBss *probed3 = make_bss(3, "jh-secret", 9);

	g_ptr_array_add(all, shown);
	g_ptr_array_add(all, probed);
	g_ptr_array_add(all, beacon_empty);
	g_ptr_array_add(all, beacon_zeros);
	g_ptr_array_add(all, probed3);
	g_assert_true(wifi_bss_is_hidden(beacon_empty));
	g_assert_true(wifi_bss_is_hidden(beacon_zeros));

	/* A BSS broadcasting its SSID: visible, unless joind probes for it. */
	g_ptr_array_add(net, shown);
	g_assert_true(wifi_hidden_network_is_visible(net, all, FALSE));
	g_assert_false(wifi_hidden_network_is_visible(net, all, TRUE));

	/* Probe responses of APs whose beacons hide the SSID (empty or zeroed). */
	g_ptr_array_set_size(net, 0);
	g_ptr_array_add(net, probed);
	g_ptr_array_add(net, probed3);
	g_assert_false(wifi_hidden_network_is_visible(net, all, FALSE));

	/* One BSS of the network shows its SSID: the network is visible. */
	g_ptr_array_add(net, shown);
	g_assert_true(wifi_hidden_network_is_visible(net, all, FALSE));

	/* No network at all, or none of its BSSes left. */
	g_assert_false(wifi_hidden_network_is_visible(NULL, all, FALSE));
	g_ptr_array_set_size(net, 0);
	g_assert_false(wifi_hidden_network_is_visible(net, all, FALSE));

	/* The twin must be another entry: a hidden BSS is no twin of itself. */
	g_ptr_array_add(net, probed);
	g_ptr_array_remove(all, beacon_empty);
	g_assert_true(wifi_hidden_network_is_visible(net, all, FALSE));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/hidden/ssid-argument", test_ssid_argument);
	g_test_add_func("/wifi/hidden/visible", test_visible);
	return g_test_run();
}
