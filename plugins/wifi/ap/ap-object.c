/* ap-object.c - the access point as joind's API sees it (see
 * ap-object.h). */
#include "ap-object.h"

#include "ap-profile.h"
#include "hosted-calls.h"
#include "joind-mac.h"
#include "rsn-keys.h"

struct _WifiAccessPoint {
	JoindAccessPoint parent_instance;
	JoindCore *core;
	WifiAp *ap;            /* NULL once shut down */
	WifiHostedCalls calls; /* start: the BSS to beacon */
};

G_DEFINE_TYPE(WifiAccessPoint, wifi_access_point, JOIND_TYPE_ACCESS_POINT)

static const gchar *
security_name(WifiApSecurity security)
{
	switch (security) {
	case WIFI_AP_SECURITY_WPA3:
		return JOIND_AP_SECURITY_WPA3;
	case WIFI_AP_SECURITY_WPA2_WPA3:
		return JOIND_AP_SECURITY_WPA2_WPA3;
	case WIFI_AP_SECURITY_WPA2:
	default:
		return JOIND_AP_SECURITY_WPA2;
	}
}

/* Every client left with the BSS. */
static void
forget_stations(WifiAccessPoint *self)
{
	g_auto(GStrv) stations =
	        g_strdupv((gchar **)joind_access_point_get_stations(JOIND_ACCESS_POINT(self)));

	for (guint i = 0; stations[i] != NULL; i++)
		joind_access_point_station_left(JOIND_ACCESS_POINT(self), stations[i]);
}

/* The BSS is down, for reason: what waited for it is answered. */
static void
went_down(WifiAccessPoint *self, JoindErrorCode code, const gchar *reason)
{
	forget_stations(self);
	joind_access_point_set_started(JOIND_ACCESS_POINT(self), FALSE, NULL, 0, NULL);
	wifi_hosted_calls_down(&self->calls, code, reason);
}

static void
on_state(WifiApState old_state, WifiApState new_state, const gchar *reason, gpointer user_data)
{
	WifiAccessPoint *self = user_data;
	JoindAccessPoint *ap = JOIND_ACCESS_POINT(self);

	if (new_state == WIFI_AP_STATE_STARTED) {
		g_autofree gchar *name = wifi_ap_get_ssid_display(self->ap);

		joind_access_point_set_started(ap, TRUE, name, wifi_ap_get_frequency(self->ap),
		                               security_name(wifi_ap_get_security(self->ap)));
		wifi_hosted_calls_up(&self->calls);
		return;
	}
	if (new_state == WIFI_AP_STATE_IDLE)
		went_down(self, JOIND_ERROR_FAILED, reason);
}

static void
on_station(const guint8 mac[6], gboolean joined, gpointer user_data)
{
	gchar address[JOIND_MAC_STRING_LEN];

	joind_mac_to_string(mac, address);
	if (joined)
		joind_access_point_station_joined(user_data, address);
	else
		joind_access_point_station_left(user_data, address);
}

/* A new Start or StartProfile: the BSS must be idle. */
static GTask *
start_task(WifiAccessPoint *self, GCancellable *cancellable, GAsyncReadyCallback callback,
           gpointer user_data)
{
	gboolean idle = self->ap != NULL && wifi_ap_get_state(self->ap) == WIFI_AP_STATE_IDLE;

	return wifi_hosted_calls_new_start(
	        &self->calls, self, idle,
	        self->ap != NULL ? wifi_ap_state_to_string(wifi_ap_get_state(self->ap)) : NULL,
	        cancellable, callback, user_data);
}

/* Starts the BSS config describes (its checks refuse with a sentence),
 * with main.conf's [AccessPoint] limits. */
static void
start_config(WifiAccessPoint *self, GTask *task, const WifiApConfig *config)
{
	g_autoptr(GError) error = NULL;
	WifiApConfig c = *config;

	c.rekey_interval =
	        (guint)joind_core_get_config_int(self->core, "AccessPoint", "RekeyInterval");
	c.max_stations = (guint)joind_core_get_config_int(self->core, "AccessPoint", "MaxStations");
	c.max_inactivity =
	        (guint)joind_core_get_config_int(self->core, "AccessPoint", "InactivityTimeout");
	self->calls.start = task;
	if (!wifi_ap_start(self->ap, &c, &error))
		wifi_hosted_task_done(
		        &self->calls.start,
		        g_error_new(JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s.", error->message));
}

/* With no security named: WPA2 and WPA3 together when the radio can
 * protect management frames (which WPA3 needs) and the secret is a
 * passphrase (SAE has no use for a 64-digit key), WPA2 alone otherwise. */
static WifiApSecurity
security_for(WifiAccessPoint *self, const gchar *security, const gchar *secret)
{
	guint8 psk[WIFI_PSK_LEN];
	gboolean hex = wifi_psk_from_hex(secret, psk, NULL);

	joind_secret_clear(psk, sizeof(psk));
	if (g_strcmp0(security, JOIND_AP_SECURITY_WPA3) == 0)
		return WIFI_AP_SECURITY_WPA3;
	if (g_strcmp0(security, JOIND_AP_SECURITY_WPA2_WPA3) == 0)
		return WIFI_AP_SECURITY_WPA2_WPA3;
	if (security != NULL || hex || !wifi_ap_can_protect_frames(self->ap))
		return WIFI_AP_SECURITY_WPA2;
	return WIFI_AP_SECURITY_WPA2_WPA3;
}

static void
ap_start(JoindAccessPoint *object, const gchar *ssid, const gchar *passphrase,
         const gchar *security, GCancellable *cancellable, GAsyncReadyCallback callback,
         gpointer user_data)
{
	WifiAccessPoint *self = WIFI_ACCESS_POINT(object);
	GTask *task = start_task(self, cancellable, callback, user_data);
	WifiApConfig config = {0};

	if (task == NULL || !wifi_hosted_take_ssid(task, ssid, config.ssid, &config.ssid_len))
		return;
	config.secret = passphrase;
	config.security = security_for(self, security, passphrase);
	start_config(self, task, &config);
}

static void
ap_start_profile(JoindAccessPoint *object, const gchar *name, GCancellable *cancellable,
                 GAsyncReadyCallback callback, gpointer user_data)
{
	WifiAccessPoint *self = WIFI_ACCESS_POINT(object);
	GTask *task = start_task(self, cancellable, callback, user_data);
	g_autoptr(WifiApProfile) profile = NULL;
	GError *error = NULL;

	if (task == NULL)
		return;
	profile = wifi_ap_profile_load(joind_core_get_state_dir(self->core), name, &error);
	if (profile == NULL) {
		g_task_return_error(task, error);
		g_object_unref(task);
		return;
	}
	start_config(self, task, &profile->config);
}

static void
ap_stop(JoindAccessPoint *object, GCancellable *cancellable, GAsyncReadyCallback callback,
        gpointer user_data)
{
	WifiAccessPoint *self = WIFI_ACCESS_POINT(object);
	gboolean idle = self->ap == NULL || wifi_ap_get_state(self->ap) == WIFI_AP_STATE_IDLE;

	if (wifi_hosted_calls_stop(&self->calls, self, idle, cancellable, callback, user_data))
		wifi_ap_stop(self->ap, "asked to stop");
}

static void
wifi_access_point_finalize(GObject *object)
{
	WifiAccessPoint *self = WIFI_ACCESS_POINT(object);

	wifi_access_point_shutdown(self, "the access point is gone");
	G_OBJECT_CLASS(wifi_access_point_parent_class)->finalize(object);
}

static void
wifi_access_point_class_init(WifiAccessPointClass *klass)
{
	JoindAccessPointClass *ap_class = JOIND_ACCESS_POINT_CLASS(klass);

	G_OBJECT_CLASS(klass)->finalize = wifi_access_point_finalize;
	ap_class->start = ap_start;
	ap_class->start_profile = ap_start_profile;
	ap_class->stop = ap_stop;
}

static void
wifi_access_point_init(WifiAccessPoint *self)
{
	self->calls.what = "access point";
}

WifiAccessPoint *
wifi_access_point_new(JoindCore *core, WifiIface *iface, const guint8 address[6])
{
	static const WifiApCallbacks callbacks = {on_state, on_station};
	WifiAccessPoint *self = g_object_new(WIFI_TYPE_ACCESS_POINT, NULL);

	self->core = core;
	self->ap = wifi_ap_new(iface, address, &callbacks, self);
	return self;
}

void
wifi_access_point_shutdown(WifiAccessPoint *self, const gchar *reason)
{
	g_autoptr(WifiAp) ap = g_steal_pointer(&self->ap);

	if (ap == NULL)
		return;
	went_down(self, JOIND_ERROR_ABORTED, reason);
}

WifiAp *
wifi_access_point_get_ap(WifiAccessPoint *self)
{
	return self->ap;
}
