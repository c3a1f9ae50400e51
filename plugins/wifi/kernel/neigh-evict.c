/* neigh-evict.c - the kernel's neighbour eviction on carrier loss, per
 * interface (see neigh-evict.h). */
#include "neigh-evict.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* Under the sysctl root: net/FAMILY/conf/IFNAME/NAME. */
static const struct {
	guint bit;
	const gchar *family;
	const gchar *name;
} neigh_settings[] = {
        {WIFI_NEIGH_EVICT_IPV4, "ipv4", "arp_evict_nocarrier"},
        {WIFI_NEIGH_EVICT_IPV6, "ipv6", "ndisc_evict_nocarrier"},
};

/* A setting the kernel has but joind cannot change (a read-only or hidden
 * /proc/sys: a service sandbox) costs every roam the neighbour cache; said
 * once, naming the file and the cause, so an admin can find why. A missing
 * file under a visible net/ is an older kernel or no IPv6: nothing to say. */
static void
neigh_setting_failed(const gchar *sysctl_root, const gchar *path, const gchar *cause)
{
	static gboolean said;
	g_autofree gchar *net = g_build_filename(sysctl_root, "net", NULL);

	if (cause == NULL && g_file_test(net, G_FILE_TEST_IS_DIR))
		return;
	if (said)
		return;
	said = TRUE;
	g_message("cannot keep the neighbour cache over roams: %s: %s", path,
	          cause != NULL ? cause : "the sysctl tree is not visible");
}

/* path holds a number; sets it to value unless it is so already. TRUE
 * when it changed. A sysctl file takes a plain write (no temporary file
 * renamed over it, as g_file_set_contents() would do). */
static gboolean
neigh_setting_change(const gchar *sysctl_root, const gchar *path, gboolean value)
{
	g_autofree gchar *text = NULL;
	const gchar *want = value ? "1\n" : "0\n";
	gboolean ok;
	int fd;

	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		neigh_setting_failed(sysctl_root, path, NULL);
		return FALSE;
	}
	if ((g_ascii_strtoll(text, NULL, 10) != 0) == value)
		return FALSE;
	fd = g_open(path, O_WRONLY | O_TRUNC | O_CLOEXEC, 0);
	ok = fd >= 0 && write(fd, want, 2) == 2;
	if (!ok)
		neigh_setting_failed(sysctl_root, path, g_strerror(errno));
	if (fd >= 0 && close(fd) != 0)
		ok = FALSE;
	return ok;
}

guint
wifi_neigh_evict_set(const gchar *sysctl_root, const gchar *ifname, gboolean evict, guint which)
{
	guint changed = 0;

	g_return_val_if_fail(ifname != NULL && strchr(ifname, '/') == NULL, 0);
	for (gsize i = 0; i < G_N_ELEMENTS(neigh_settings); i++) {
		g_autofree gchar *path = NULL;

		if ((which & neigh_settings[i].bit) == 0)
			continue;
		path = g_build_filename(sysctl_root, "net", neigh_settings[i].family, "conf",
		                        ifname, neigh_settings[i].name, NULL);
		if (neigh_setting_change(sysctl_root, path, evict))
			changed |= neigh_settings[i].bit;
	}
	return changed;
}
