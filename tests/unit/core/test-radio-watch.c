/* test-radio-watch.c - what the loader takes for a radio: an entry in the
 * sysfs class, a kernel uevent adding (or moving in) an ieee80211 device. */
#include <glib/gstdio.h>

#include "joind-radio-watch.h"

static void
test_uevent(void)
{
	static const gchar added[] = "add@/devices/virtual/ieee80211/phy3\0ACTION=add\0"
	                             "DEVPATH=/devices/virtual/ieee80211/phy3\0"
	                             "SUBSYSTEM=ieee80211\0SEQNUM=1234\0";
	static const gchar moved[] = "move@/devices/virtual/ieee80211/phy3\0ACTION=move\0"
	                             "SUBSYSTEM=ieee80211\0";
	static const gchar removed[] = "remove@/devices/virtual/ieee80211/phy3\0ACTION=remove\0"
	                               "SUBSYSTEM=ieee80211\0";
	static const gchar netdev[] = "add@/devices/virtual/net/wlan0\0ACTION=add\0"
	                              "SUBSYSTEM=net\0INTERFACE=wlan0\0";
	/* A prefix of a field is not the field. */
	static const gchar lookalike[] = "add@/x\0ACTION=add\0SUBSYSTEM=ieee80211x\0";

	g_assert_true(joind_radio_uevent_is_added(added, sizeof(added)));
	g_assert_true(joind_radio_uevent_is_added(moved, sizeof(moved)));
	g_assert_false(joind_radio_uevent_is_added(removed, sizeof(removed)));
	g_assert_false(joind_radio_uevent_is_added(netdev, sizeof(netdev)));
	g_assert_false(joind_radio_uevent_is_added(lookalike, sizeof(lookalike)));
	/* Cut short before the subsystem. */
	g_assert_false(joind_radio_uevent_is_added(added, 30));
}

static void
test_sysfs(void)
{
	g_autofree gchar *dir = g_dir_make_tmp("joind-ieee80211-XXXXXX", NULL);
	g_autofree gchar *phy = g_build_filename(dir, "phy0", NULL);
	g_autofree gchar *missing = g_build_filename(dir, "missing", NULL);

	g_assert_false(joind_radio_present(missing));
	g_assert_false(joind_radio_present(dir));
	g_assert_cmpint(g_mkdir(phy, 0700), ==, 0);
	g_assert_true(joind_radio_present(dir));
	g_rmdir(phy);
	g_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/radio-watch/uevent", test_uevent);
	g_test_add_func("/radio-watch/sysfs", test_sysfs);
	return g_test_run();
}
