/* joind-radio-watch.c - radios in sysfs and in the kernel's uevents. */
#include "joind-radio-watch.h"

#include <errno.h>
#include <glib-unix.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "joind-error.h"

/* The kernel's uevent multicast group (udev's rebroadcast is group 2). */
#define UEVENT_KERNEL_GROUP 1

struct _JoindRadioWatch {
	int fd;
	guint watch_id;
	GSourceFunc func;
	gpointer data;
};

gboolean
joind_radio_present(const gchar *sysfs_class)
{
	g_autoptr(GDir) dir = NULL;

	/* g_dir_open() words its error (strerror() converted to UTF-8) even
	 * when no error is asked for, which in a daemon's C locale maps
	 * iconv's modules; a machine with no radio has no such directory. */
	if (!g_file_test(sysfs_class, G_FILE_TEST_IS_DIR))
		return FALSE;
	dir = g_dir_open(sysfs_class, 0, NULL);
	return dir != NULL && g_dir_read_name(dir) != NULL;
}

static gboolean
field_is(const gchar *field, gsize n, const gchar *text)
{
	return n == strlen(text) && memcmp(field, text, n) == 0;
}

gboolean
joind_radio_uevent_is_added(const gchar *msg, gsize len)
{
	gboolean added = FALSE, radio = FALSE;

	/* NUL-separated fields; the first is "ACTION@DEVPATH". A radio moved
	 * into this namespace is "move" here. */
	for (gsize at = 0; at < len;) {
		const gchar *field = msg + at;
		gsize n = strnlen(field, len - at);

		if (field_is(field, n, "ACTION=add") || field_is(field, n, "ACTION=move"))
			added = TRUE;
		else if (field_is(field, n, "SUBSYSTEM=ieee80211"))
			radio = TRUE;
		at += n + 1;
	}
	return added && radio;
}

static gboolean
radio_watch_readable(gint fd, GIOCondition cond, gpointer user_data)
{
	JoindRadioWatch *self = user_data;
	gchar buf[8192];
	ssize_t len;

	/* Every uevent of the machine arrives here; a cut one is not ours. */
	while ((len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) >= 0 || errno == EINTR ||
	       errno == ENOBUFS) {
		if (len > 0 && joind_radio_uevent_is_added(buf, len)) {
			self->watch_id = 0;
			self->func(self->data);
			return G_SOURCE_REMOVE;
		}
	}
	return G_SOURCE_CONTINUE;
}

JoindRadioWatch *
joind_radio_watch_new(GSourceFunc func, gpointer data, GError **error)
{
	g_autoptr(JoindRadioWatch) self = g_new0(JoindRadioWatch, 1);
	struct sockaddr_nl addr = {.nl_family = AF_NETLINK, .nl_groups = UEVENT_KERNEL_GROUP};

	self->func = func;
	self->data = data;
	self->fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (self->fd < 0 || bind(self->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int err = errno;

		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot watch for radios added later (uevent socket): %s",
		            g_strerror(err));
		return NULL;
	}
	self->watch_id = g_unix_fd_add(self->fd, G_IO_IN, radio_watch_readable, self);
	return g_steal_pointer(&self);
}

void
joind_radio_watch_free(JoindRadioWatch *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->watch_id, g_source_remove);
	if (self->fd >= 0)
		close(self->fd);
	g_free(self);
}
