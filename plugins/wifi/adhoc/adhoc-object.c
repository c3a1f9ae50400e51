/* adhoc-object.c - the ad-hoc network as joind's API sees it (see
 * adhoc-object.h). */
#include "adhoc-object.h"

#include "hosted-calls.h"
#include "joind-mac.h"

struct _WifiAdhocObject {
	JoindAdHoc parent_instance;
	WifiAdhoc *adhoc;      /* NULL once shut down */
	WifiHostedCalls calls; /* start: the interface to be in the IBSS */
};

G_DEFINE_TYPE(WifiAdhocObject, wifi_adhoc_object, JOIND_TYPE_ADHOC)

static void
forget_peers(WifiAdhocObject *self)
{
	g_auto(GStrv) peers = g_strdupv((gchar **)joind_adhoc_get_peers(JOIND_ADHOC(self)));

	for (guint i = 0; peers[i] != NULL; i++)
		joind_adhoc_peer_left(JOIND_ADHOC(self), peers[i]);
}

/* The IBSS is left, for reason: what waited for it is answered. */
static void
left(WifiAdhocObject *self, JoindErrorCode code, const gchar *reason)
{
	forget_peers(self);
	joind_adhoc_set_started(JOIND_ADHOC(self), FALSE, NULL, NULL);
	wifi_hosted_calls_down(&self->calls, code, reason);
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
		wifi_hosted_calls_up(&self->calls);
		return;
	}
	if (new_state == WIFI_ADHOC_STATE_IDLE)
		left(self, JOIND_ERROR_FAILED, reason);
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
	WifiAdhocConfig config = {.secret = passphrase};
	g_autoptr(GError) error = NULL;
	GTask *task = wifi_hosted_calls_new_start(
	        &self->calls, self,
	        self->adhoc != NULL && wifi_adhoc_get_state(self->adhoc) == WIFI_ADHOC_STATE_IDLE,
	        self->adhoc != NULL ? wifi_adhoc_state_to_string(wifi_adhoc_get_state(self->adhoc))
	                            : NULL,
	        cancellable, callback, user_data);

	if (task == NULL || !wifi_hosted_take_ssid(task, ssid, config.ssid, &config.ssid_len))
		return;
	self->calls.start = task;
	if (!wifi_adhoc_start(self->adhoc, &config, &error))
		wifi_hosted_task_done(&self->calls.start,
		                      g_error_new(JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		                                  "Cannot start the ad-hoc network: %s.",
		                                  error->message));
}

static void
adhoc_stop(JoindAdHoc *object, GCancellable *cancellable, GAsyncReadyCallback callback,
           gpointer user_data)
{
	WifiAdhocObject *self = WIFI_ADHOC_OBJECT(object);
	gboolean idle =
	        self->adhoc == NULL || wifi_adhoc_get_state(self->adhoc) == WIFI_ADHOC_STATE_IDLE;

	if (wifi_hosted_calls_stop(&self->calls, self, idle, cancellable, callback, user_data))
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
	self->calls.what = "ad-hoc network";
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
	left(self, JOIND_ERROR_ABORTED, reason);
}

WifiAdhoc *
wifi_adhoc_object_get_adhoc(WifiAdhocObject *self)
{
	return self->adhoc;
}
