/* joind-device-power.c - a device's link set up or down (see
 * joind-device-power.h). The core only flips IFF_UP; what powered means
 * for the device (scans, autoconnect, the station) stays the plugin's,
 * which learns of the change from the kernel like of any other.
 */
#include "joind-device-power.h"

#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "joind-error.h"

/* How long the device may take to follow its link (a TCG guest is slow). */
#define POWER_WAIT_SECONDS 10

typedef struct {
	gboolean on;
	gulong notify_id;
	guint timeout_id;
} PowerWait;

static gboolean
power_set_link(const gchar *name, gboolean on, GError **error)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return joind_set_error(error, JOIND_ERROR_FAILED, "Cannot open a socket: %s.",
		                       g_strerror(errno));
	g_strlcpy(ifr.ifr_name, name, sizeof(ifr.ifr_name));
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags = on ? (ifr.ifr_flags | IFF_UP) : (ifr.ifr_flags & ~IFF_UP);
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
			err = errno;
	} else {
		err = errno;
	}
	close(fd);
	if (err == ERFKILL)
		return joind_set_error(error, JOIND_ERROR_FAILED,
		                       "%s cannot be powered on: its radio is blocked (rfkill); "
		                       "unblock it first.",
		                       name);
	if (err != 0)
		return joind_set_error(error, JOIND_ERROR_FAILED, "Cannot set %s %s: %s.", name,
		                       on ? "up" : "down", g_strerror(err));
	return TRUE;
}

static void
power_wait_end(GTask *task)
{
	JoindDevice *device = g_task_get_source_object(task);
	PowerWait *wait = g_task_get_task_data(task);

	g_clear_signal_handler(&wait->notify_id, device);
	g_clear_handle_id(&wait->timeout_id, g_source_remove);
}

static void
power_changed(JoindDevice *device, GParamSpec *pspec, gpointer user_data)
{
	GTask *task = user_data;
	PowerWait *wait = g_task_get_task_data(task);

	if (joind_device_get_powered(device) != wait->on)
		return;
	power_wait_end(task);
	g_task_return_boolean(task, TRUE);
	g_object_unref(task);
}

static gboolean
power_timeout(gpointer user_data)
{
	GTask *task = user_data;
	JoindDevice *device = g_task_get_source_object(task);
	PowerWait *wait = g_task_get_task_data(task);

	wait->timeout_id = 0;
	power_wait_end(task);
	g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_FAILED,
	                        "%s did not power %s within %d s.", joind_device_get_name(device),
	                        wait->on ? "on" : "off", POWER_WAIT_SECONDS);
	g_object_unref(task);
	return G_SOURCE_REMOVE;
}

void
joind_device_power(JoindDevice *device, gboolean on, GCancellable *cancellable,
                   GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(device, cancellable, callback, user_data);
	g_autoptr(GError) error = NULL;
	PowerWait *wait;

	g_task_set_source_tag(task, joind_device_power);
	if (joind_device_get_powered(device) == !!on) {
		g_task_return_boolean(task, TRUE);
		g_object_unref(task);
		return;
	}
	g_info("%s: powering %s for a client", joind_device_get_name(device), on ? "on" : "off");
	if (!power_set_link(joind_device_get_name(device), on, &error)) {
		g_task_return_error(task, g_steal_pointer(&error));
		g_object_unref(task);
		return;
	}
	wait = g_new0(PowerWait, 1);
	wait->on = !!on;
	g_task_set_task_data(task, wait, g_free);
	wait->notify_id =
	        g_signal_connect(device, "notify::powered", G_CALLBACK(power_changed), task);
	wait->timeout_id = g_timeout_add_seconds(POWER_WAIT_SECONDS, power_timeout, task);
}

gboolean
joind_device_power_finish(JoindDevice *device, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, device), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}
