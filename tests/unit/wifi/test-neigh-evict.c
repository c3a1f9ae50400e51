/* test-neigh-evict.c - the kernel's neighbour eviction on carrier loss
 * (neigh-evict.c) over a directory laid out as /proc/sys is: only a
 * setting that differs is written and counted, so that giving the result
 * back restores exactly what was changed; a missing one is left alone, and
 * a hidden sysctl tree is said once. */
#include <glib/gstdio.h>

#include "neigh-evict.h"
#include "test-dir.h"

typedef struct {
	gchar *root;
} Fixture;

static gchar *
setting_path(Fixture *f, const gchar *family, const gchar *ifname, const gchar *name)
{
	return g_build_filename(f->root, "net", family, "conf", ifname, name, NULL);
}

static void
put(Fixture *f, const gchar *family, const gchar *ifname, const gchar *name, const gchar *text)
{
	g_autofree gchar *path = setting_path(f, family, ifname, name);
	g_autofree gchar *dir = g_path_get_dirname(path);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
}

static void
assert_value(Fixture *f, const gchar *family, const gchar *name, const gchar *want)
{
	g_autofree gchar *path = setting_path(f, family, "wlan0", name);
	g_autofree gchar *text = NULL;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_cmpstr(text, ==, want);
}

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->root = g_dir_make_tmp("joind-neigh-XXXXXX", NULL);
	g_assert_nonnull(f->root);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	test_dir_remove_tree(f->root);
	g_free(f->root);
}

/* The kernel's defaults (both on): a roam turns both off, and the end of
 * it both on again. */
static void
test_both(Fixture *f, gconstpointer data)
{
	put(f, "ipv4", "wlan0", "arp_evict_nocarrier", "1\n");
	put(f, "ipv6", "wlan0", "ndisc_evict_nocarrier", "1\n");
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan0", FALSE, WIFI_NEIGH_EVICT_ALL), ==,
	                 WIFI_NEIGH_EVICT_ALL);
	assert_value(f, "ipv4", "arp_evict_nocarrier", "0\n");
	assert_value(f, "ipv6", "ndisc_evict_nocarrier", "0\n");
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan0", TRUE, WIFI_NEIGH_EVICT_ALL), ==,
	                 WIFI_NEIGH_EVICT_ALL);
	assert_value(f, "ipv4", "arp_evict_nocarrier", "1\n");
	assert_value(f, "ipv6", "ndisc_evict_nocarrier", "1\n");
}

/* An administrator's 0 for IPv6 is not counted, so the end of the roam
 * leaves it 0; IPv4 is restored. */
static void
test_admin_off(Fixture *f, gconstpointer data)
{
	guint kept;

	put(f, "ipv4", "wlan0", "arp_evict_nocarrier", "1\n");
	put(f, "ipv6", "wlan0", "ndisc_evict_nocarrier", "0\n");
	kept = wifi_neigh_evict_set(f->root, "wlan0", FALSE, WIFI_NEIGH_EVICT_ALL);
	g_assert_cmpuint(kept, ==, WIFI_NEIGH_EVICT_IPV4);
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan0", TRUE, kept), ==,
	                 WIFI_NEIGH_EVICT_IPV4);
	assert_value(f, "ipv4", "arp_evict_nocarrier", "1\n");
	assert_value(f, "ipv6", "ndisc_evict_nocarrier", "0\n");
}

/* A kernel before 5.16, or one without IPv6: nothing there, nothing
 * changed or created. */
static void
test_missing(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = setting_path(f, "ipv6", "wlan0", "ndisc_evict_nocarrier");

	put(f, "ipv4", "wlan0", "arp_evict_nocarrier", "1\n");
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan0", FALSE, WIFI_NEIGH_EVICT_ALL), ==,
	                 WIFI_NEIGH_EVICT_IPV4);
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan1", FALSE, WIFI_NEIGH_EVICT_ALL), ==,
	                 0);
}

/* A sandbox that hides /proc/sys (systemd's ProcSubset=pid): nothing
 * changed, and the cause said once, so that an admin learns why every roam
 * flushes the neighbour cache. */
static void
test_hidden(Fixture *f, gconstpointer data)
{
	g_test_expect_message("joind-wifi", G_LOG_LEVEL_MESSAGE,
	                      "cannot keep the neighbour cache over roams: *arp_evict_nocarrier: "
	                      "the sysctl tree is not visible");
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan0", FALSE, WIFI_NEIGH_EVICT_ALL), ==,
	                 0);
	g_assert_cmpuint(wifi_neigh_evict_set(f->root, "wlan0", TRUE, WIFI_NEIGH_EVICT_ALL), ==, 0);
	g_test_assert_expected_messages();
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/wifi/neigh-evict/both", Fixture, NULL, fixture_setup, test_both,
	           fixture_teardown);
	g_test_add("/wifi/neigh-evict/admin-off", Fixture, NULL, fixture_setup, test_admin_off,
	           fixture_teardown);
	g_test_add("/wifi/neigh-evict/missing", Fixture, NULL, fixture_setup, test_missing,
	           fixture_teardown);
	g_test_add("/wifi/neigh-evict/hidden", Fixture, NULL, fixture_setup, test_hidden,
	           fixture_teardown);
	return g_test_run();
}
