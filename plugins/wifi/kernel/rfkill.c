/* rfkill.c - the radios' kill switches from /dev/rfkill (see rfkill.h). */
#include "rfkill.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <linux/rfkill.h>
#include <string.h>
#include <unistd.h>

#include "joind-error.h"

typedef struct {
	gchar *name; /* the wiphy's, NULL until sysfs named it */
	gboolean soft;
	gboolean hard;
} Switch;

struct _WifiRfkill {
	gint fd;
	guint watch;
	gchar *sysfs_dir;
	GHashTable *switches; /* idx -> Switch */
	WifiRfkillFunc func;
	gpointer user_data;
};

static void
switch_free(Switch *sw)
{
	g_free(sw->name);
	g_free(sw);
}

static const gchar *
switch_reason(const Switch *sw)
{
	if (sw->soft && sw->hard)
		return "hard- and soft-blocked (a switch, and airplane mode or rfkill)";
	if (sw->hard)
		return "hard-blocked (a switch or the firmware)";
	if (sw->soft)
		return "soft-blocked (airplane mode or rfkill)";
	return "unblocked";
}

gboolean
wifi_rfkill_parse_event(const guint8 *buf, gsize len, WifiRfkillEvent *event)
{
	/* Newer kernels may append fields (struct rfkill_event_ext); the
	 * first RFKILL_EVENT_SIZE_V1 bytes keep their meaning. */
	if (len < RFKILL_EVENT_SIZE_V1)
		return FALSE;
	memcpy(&event->idx, buf, sizeof(event->idx));
	event->type = buf[4];
	event->op = buf[5];
	event->soft = buf[6] != 0;
	event->hard = buf[7] != 0;
	return TRUE;
}

/* The switch's name now: cfg80211 gives a radio's switch its wiphy's
 * name, and renames follow it. */
static gchar *
rfkill_read_name(WifiRfkill *self, guint32 idx)
{
	g_autofree gchar *file = g_strdup_printf("%s/rfkill%u/name", self->sysfs_dir, idx);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	if (!g_file_get_contents(file, &text, NULL, &error)) {
		g_debug("rfkill %u: %s", idx, error->message);
		return NULL;
	}
	/* A copy: sysfs files read into a page-sized buffer, kept per radio. */
	g_strstrip(text);
	return text[0] != '\0' ? g_strdup(text) : NULL;
}

static void
rfkill_switch_update(WifiRfkill *self, const WifiRfkillEvent *ev)
{
	Switch *sw = g_hash_table_lookup(self->switches, GUINT_TO_POINTER(ev->idx));
	gboolean was_blocked = sw != NULL && (sw->soft || sw->hard);
	gboolean news = sw == NULL || ev->op == RFKILL_OP_ADD;
	gchar *name = rfkill_read_name(self, ev->idx);

	if (sw == NULL) {
		sw = g_new0(Switch, 1);
		g_hash_table_insert(self->switches, GUINT_TO_POINTER(ev->idx), sw);
	}
	if (name != NULL) {
		g_free(sw->name);
		sw->name = name;
	}
	sw->soft = ev->soft;
	sw->hard = ev->hard;
	g_debug("rfkill %u (%s): %s", ev->idx, sw->name != NULL ? sw->name : "unnamed",
	        switch_reason(sw));
	if (sw->name == NULL || (!news && was_blocked == (sw->soft || sw->hard)))
		return;
	self->func(sw->name, sw->soft || sw->hard, switch_reason(sw), self->user_data);
}

static void
rfkill_handle(WifiRfkill *self, const WifiRfkillEvent *ev)
{
	if (ev->type != RFKILL_TYPE_WLAN)
		return;
	switch (ev->op) {
	case RFKILL_OP_ADD:
	case RFKILL_OP_CHANGE:
		rfkill_switch_update(self, ev);
		break;
	case RFKILL_OP_DEL:
		g_hash_table_remove(self->switches, GUINT_TO_POINTER(ev->idx));
		break;
	default:
		g_debug("rfkill %u: operation %u ignored", ev->idx, ev->op);
		break;
	}
}

/* One read is one event: the buffer holds exactly the part joind reads,
 * so a pipe (a test) hands them over one at a time too. */
static gboolean
rfkill_readable(gint fd, GIOCondition condition, gpointer user_data)
{
	WifiRfkill *self = user_data;
	guint8 buf[RFKILL_EVENT_SIZE_V1];
	WifiRfkillEvent ev;
	gssize n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (!wifi_rfkill_parse_event(buf, (gsize)n, &ev)) {
			g_warning("rfkill: a short event (%zd bytes) ignored", n);
			continue;
		}
		rfkill_handle(self, &ev);
	}
	if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
		if (n < 0)
			g_warning("rfkill: reading events failed: %s", g_strerror(errno));
		self->watch = 0;
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

WifiRfkill *
wifi_rfkill_new_full(gint fd, const gchar *sysfs_dir, WifiRfkillFunc func, gpointer user_data)
{
	WifiRfkill *self = g_new0(WifiRfkill, 1);

	self->fd = fd;
	self->sysfs_dir = g_strdup(sysfs_dir);
	self->func = func;
	self->user_data = user_data;
	self->switches = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	                                       (GDestroyNotify)switch_free);
	/* Opening /dev/rfkill queued an event for every switch: reading them
	 * now lets the stations start knowing whether they are blocked. */
	if (rfkill_readable(fd, G_IO_IN, self))
		self->watch =
		        g_unix_fd_add(fd, G_IO_IN | G_IO_HUP | G_IO_ERR, rfkill_readable, self);
	return self;
}

WifiRfkill *
wifi_rfkill_new(WifiRfkillFunc func, gpointer user_data, GError **error)
{
	gint fd = open("/dev/rfkill", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		gint err = errno;

		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot open /dev/rfkill: %s",
		            g_strerror(err));
		return NULL;
	}
	return wifi_rfkill_new_full(fd, "/sys/class/rfkill", func, user_data);
}

void
wifi_rfkill_free(WifiRfkill *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->watch, g_source_remove);
	close(self->fd);
	g_hash_table_unref(self->switches);
	g_free(self->sysfs_dir);
	g_free(self);
}

gboolean
wifi_rfkill_is_blocked(WifiRfkill *self, const gchar *wiphy_name, const gchar **reason)
{
	GHashTableIter iter;
	Switch *sw;

	g_hash_table_iter_init(&iter, self->switches);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&sw)) {
		if (g_strcmp0(sw->name, wiphy_name) == 0 && (sw->soft || sw->hard)) {
			*reason = switch_reason(sw);
			return TRUE;
		}
	}
	return FALSE;
}
