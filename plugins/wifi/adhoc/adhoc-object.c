/* adhoc-object.c - the ad-hoc network as joind's API sees it (see
 * adhoc-object.h). */
#include "adhoc-object.h"

#include <string.h>

#include "joind-mac.h"

struct _WifiAdhocObject {
	JoindAdHoc parent_instance;
	WifiAdhoc *adhoc; /* NULL once shut down */
	GTask *start;     /* waiting for the interface to be in the IBSS */
	GTask *stop;      /* waiting for it to have left */
};

G_DEFINE_TYPE(WifiAdhocObject, wifi_adhoc_object, JOIND_TYPE_ADHOC)

/* Ends *task with error (taken, also when there is no task) or success. */
static void
task_done(GTask **task, GError *error)
{
	g_autoptr(GTask) done = g_steal_pointer(task);

	if (done == NULL) {
		g_clear_error(&error);
		return;
	}
	if (error != NULL)
		g_task_return_error(done, error);
	else
		g_task_return_boolean(done, TRUE);
}

static void
forget_peers(WifiAdhocObject *self)
{
	g_auto(GStrv) peers = g_strdupv((gchar **)joind_adhoc_get_peers(JOIND_ADHOC(self)));

	for (guint i = 0; peers[i] != NULL; i++)
		joind_adhoc_peer_left(JOIND_ADHOC(self), peers[i]);
}

static void
on_state(WifiAdhocState old_state, WifiAdhocState new_state, const gchar *reason,
         gpointer user_data)
{
	WifiAdhocObject *self = user_data;

	if (new_state == WIFI_ADHOC_STATE_JOINED) {
		g_autofree gchar *name = wifi_adhoc_get_ssid_display(self->adhoc);

		joind_adhoc_set_started(JOIND_ADHOC(self), TRUE, name,
		                        wifi_adhoc_is_open(self->adhoc) ? "open" : "wpa2-psk");
		task_done(&self->start, NULL);
		return;
	}
	if (new_state != WIFI_ADHOC_STATE_IDLE)
		return;
	forget_peers(self);
	joind_adhoc_set_started(JOIND_ADHOC(self), FALSE, NULL, NULL);
	task_done(&self->start, g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
	                                    "The ad-hoc network did not start: %s.", reason));
	task_done(&self->stop, NULL);
}

static void
on_peer(const guint8 mac[6], gboolean joined, gpointer user_data)
{
	gchar address[JOIND_MAC_STRING_LEN];

	joind_mac_to_string(mac, address);
	if (joined)
		joind_adhoc_peer_joined(user_data, address);
	else
		joind_adhoc_peer_left(user_data, address);
}

static void
adhoc_start(JoindAdHoc *object, const gchar *ssid, const gchar *passphrase,
            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	WifiAdhocObject *self = WIFI_ADHOC_OBJECT(object);
	GTask *task = g_task_new(self, cancellable, callback, user_data);
	WifiAdhocConfig config = {.secret = passphrase};
	g_autoptr(GError) error = NULL;

	g_task_set_source_tag(task, adhoc_start);
	if (self->adhoc == NULL || self->start != NULL ||
	    wifi_adhoc_get_state(self->adhoc) != WIFI_ADHOC_STATE_IDLE) {
		g_task_return_new_error(
		        task, JOIND_ERROR, JOIND_ERROR_BUSY,
		        "The ad-hoc network is %s already; stop it first.",
		        self->adhoc != NULL
		                ? wifi_adhoc_state_to_string(wifi_adhoc_get_state(self->adhoc))
		                : "closed");
		g_object_unref(task);
		return;
	}
	if (strlen(ssid) < 1 || strlen(ssid) > sizeof(config.ssid)) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                        "An SSID has 1 to 32 octets, not %zu.", strlen(ssid));
		g_object_unref(task);
		return;
	}
	config.ssid_len = strlen(ssid);
	memcpy(config.ssid, ssid, config.ssid_len);
	self->start = task;
	if (!wifi_adhoc_start(self->adhoc, &config, &error))
		task_done(&self->start,
		          g_error_new(JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                      "Cannot start the ad-hoc network: %s.", error->message));
}

static void
adhoc_stop(JoindAdHoc *object, GCancellable *cancellable, GAsyncReadyCallback callback,
           gpointer user_data)
{
	WifiAdhocObject *self = WIFI_ADHOC_OBJECT(object);
	g_autoptr(GTask) task = g_task_new(self, cancellable, callback, user_data);

	g_task_set_source_tag(task, adhoc_stop);
	if (self->adhoc == NULL || wifi_adhoc_get_state(self->adhoc) == WIFI_ADHOC_STATE_IDLE) {
		g_task_return_boolean(task, TRUE);
		return;
	}
	if (self->stop != NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_BUSY,
		                        "The ad-hoc network is stopping already.");
		return;
	}
	self->stop = g_steal_pointer(&task);
	wifi_adhoc_stop(self->adhoc, "asked to stop");
}

static void
wifi_adhoc_object_finalize(GObject *object)
{
	wifi_adhoc_object_shutdown(WIFI_ADHOC_OBJECT(object), "the ad-hoc network is gone");
	G_OBJECT_CLASS(wifi_adhoc_object_parent_class)->finalize(object);
}

static void
wifi_adhoc_object_class_init(WifiAdhocObjectClass *klass)
{
	JoindAdHocClass *adhoc_class = JOIND_ADHOC_CLASS(klass);

	G_OBJECT_CLASS(klass)->finalize = wifi_adhoc_object_finalize;
	adhoc_class->start = adhoc_start;
	adhoc_class->stop = adhoc_stop;
}

static void
wifi_adhoc_object_init(WifiAdhocObject *self)
{
}

WifiAdhocObject *
wifi_adhoc_object_new(WifiIface *iface, const guint8 address[6])
{
	static const WifiAdhocCallbacks callbacks = {on_state, on_peer};
	WifiAdhocObject *self = g_object_new(WIFI_TYPE_ADHOC_OBJECT, NULL);

	self->adhoc = wifi_adhoc_new(iface, address, &callbacks, self);
	return self;
}

void
wifi_adhoc_object_shutdown(WifiAdhocObject *self, const gchar *reason)
{
	g_autoptr(WifiAdhoc) adhoc = g_steal_pointer(&self->adhoc);

	if (adhoc == NULL)
		return;
	forget_peers(self);
	joind_adhoc_set_started(JOIND_ADHOC(self), FALSE, NULL, NULL);
	task_done(&self->start, g_error_new(JOIND_ERROR, JOIND_ERROR_ABORTED,
	                                    "The ad-hoc network did not start: %s.", reason));
	task_done(&self->stop, NULL);
}

WifiAdhoc *
wifi_adhoc_object_get_adhoc(WifiAdhocObject *self)
{
	return self->adhoc;
}
