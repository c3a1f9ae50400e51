/* station-roam.c - the station's side of roaming: the roamer's ops over
 * the station's table, scanner and connector (roam.h), the connector's
 * events it hears, and Station1.State roaming while a move runs. */
#include "station-private.h"

#include <string.h>

#include "joind-mac.h"

static WifiBss *
roam_current_bss(gpointer user_data)
{
	return WIFI_STATION(user_data)->roam_bss;
}

static GBytes *
roam_current_ssid(gpointer user_data)
{
	WifiStation *self = user_data;

	return self->roam_network != NULL
	               ? joind_network_get_ssid(JOIND_NETWORK(self->roam_network))
	               : NULL;
}

static const guint8 *
roam_own_address(gpointer user_data)
{
	WifiStation *self = user_data;
	const gchar *text = joind_device_get_address(self->device);

	if (text == NULL || !joind_mac_parse(text, self->own_address))
		return NULL;
	return self->own_address;
}

static GPtrArray *
roam_network_bsses(gpointer user_data)
{
	WifiStation *self = user_data;
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	GPtrArray *bsses =
	        self->roam_network != NULL ? wifi_network_get_bsses(self->roam_network) : NULL;

	for (guint i = 0; bsses != NULL && i < bsses->len; i++)
		g_ptr_array_add(out, wifi_bss_ref(g_ptr_array_index(bsses, i)));
	return out;
}

static GArray *
roam_known_freqs(gpointer user_data)
{
	WifiStation *self = user_data;
	JoindNetwork *network = JOIND_NETWORK(self->roam_network);
	JoindProfileType type;
	GBytes *ssid;

	if (network == NULL ||
	    !joind_network_type_to_profile_type(joind_network_get_network_type(network), &type))
		return NULL;
	ssid = joind_network_get_ssid(network);
	return joind_core_get_known_frequencies(self->core, g_bytes_get_data(ssid, NULL),
	                                        g_bytes_get_size(ssid), type);
}

static void
roam_scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	gboolean ok = wifi_scanner_scan_finish(NULL, result, &error);

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	if (!ok)
		g_info("roam scan failed: %s", error->message);
	if (WIFI_STATION(user_data)->roamer != NULL)
		wifi_roamer_scan_done(WIFI_STATION(user_data)->roamer, ok);
}

static void
roam_scan(GArray *freqs, gpointer user_data)
{
	WifiStation *self = user_data;
	WifiScanParams *params = wifi_scan_params_new();

	if (freqs != NULL)
		params->freqs = g_array_ref(freqs);
	wifi_scanner_scan(self->scanner, params, "roam", self->cancellable, roam_scan_done, self);
}

/* The connector reassociates; its observers hear how it went. */
static void
roam_move(WifiBss *bss, gpointer user_data)
{
	WifiStation *self = user_data;
	g_autoptr(GError) error = NULL;

	if (!wifi_connector_roam(self->connector, bss, &error)) {
		wifi_iface_info(self->iface, "cannot roam: %s", error->message);
		wifi_roamer_move_done(self->roamer, FALSE, 0);
	}
}

/* The connector's move failed: the roamer's next candidate, if any. */
static WifiBss *
roam_next(guint16 status, gpointer user_data)
{
	WifiStation *self = user_data;

	return self->roamer != NULL ? wifi_roamer_move_failed(self->roamer, status) : NULL;
}

/* Station1.State: roaming while a move runs; once it is over, what the
 * connector says. */
static void
roam_roaming_changed(gboolean roaming, gpointer user_data)
{
	WifiStation *self = user_data;
	JoindStation *station = JOIND_STATION(self);

	if (roaming) {
		joind_station_set_state(station, JOIND_STATION_STATE_ROAMING, "roaming");
		return;
	}
	if (joind_station_get_state(station) == JOIND_STATION_STATE_ROAMING)
		joind_station_set_state(station,
		                        wifi_connector_get_connected_bss(self->connector) != NULL
		                                ? JOIND_STATION_STATE_CONNECTED
		                                : JOIND_STATION_STATE_DISCONNECTED,
		                        "roam over");
}

static const WifiRoamerOps station_roamer_ops = {
        .current_bss = roam_current_bss,
        .current_ssid = roam_current_ssid,
        .own_address = roam_own_address,
        .network_bsses = roam_network_bsses,
        .known_freqs = roam_known_freqs,
        .scan = roam_scan,
        .move = roam_move,
        .roaming_changed = roam_roaming_changed,
};

static void
roam_forget_link(WifiStation *self)
{
	g_clear_object(&self->roam_network);
	g_clear_pointer(&self->roam_bss, wifi_bss_unref);
}

/* How the link the connector just brought up came: a fast transition's
 * name, or NULL (a reassociation). */
static const gchar *
roam_method(WifiStation *self)
{
	WifiConnectionInfo info;

	return wifi_connector_get_connection_info(self->connector, &info) ? info.transition : NULL;
}

/* The connector's events: a link up is watched (or ends a move), one that
 * failed or went ends the move or the watch. */
static void
roam_observe(WifiConnectEvent event, WifiNetwork *network, const WifiBss *bss, gpointer user_data)
{
	WifiStation *self = user_data;

	if (event == WIFI_CONNECT_EVENT_CONNECTED && network != NULL && bss != NULL) {
		g_set_object(&self->roam_network, network);
		g_clear_pointer(&self->roam_bss, wifi_bss_unref);
		self->roam_bss = wifi_bss_ref((WifiBss *)bss);
		if (wifi_roamer_is_moving(self->roamer)) {
			wifi_roamer_set_move_method(self->roamer, roam_method(self));
			wifi_roamer_move_done(self->roamer, TRUE, 0);
		} else
			wifi_roamer_connected(self->roamer);
		return;
	}
	if (wifi_roamer_is_moving(self->roamer)) {
		wifi_roamer_move_done(self->roamer, FALSE, 0);
		return;
	}
	roam_forget_link(self);
	wifi_roamer_disconnected(self->roamer);
}

void
station_add_roamer(WifiStation *self)
{
	WifiRoamSettings settings = {
	        .threshold = joind_core_get_config_int(self->core, "General", "RoamThreshold"),
	        .threshold_5g = joind_core_get_config_int(self->core, "General", "RoamThreshold5G"),
	        .retry_interval_s = (guint)joind_core_get_config_int(self->core, "General",
	                                                             "RoamRetryInterval"),
	};

	self->roamer = wifi_roamer_new(self->iface, &settings, &station_roamer_ops, self);
	wifi_connector_add_observer(self->connector, roam_observe, self);
	wifi_connector_set_roam_next(self->connector, roam_next, self);
}

void
station_remove_roamer(WifiStation *self)
{
	if (self->roamer == NULL)
		return;
	if (self->connector != NULL) {
		wifi_connector_remove_observer(self->connector, roam_observe, self);
		wifi_connector_set_roam_next(self->connector, NULL, NULL);
	}
	g_clear_pointer(&self->roamer, wifi_roamer_free);
	roam_forget_link(self);
}

/* A link the station's state says is gone (a Disconnect() the connector
 * reports no event for) is not watched any more; a move's own teardown
 * is not that. */
void
station_roam_state_changed(WifiStation *self)
{
	JoindStationState state = joind_station_get_state(JOIND_STATION(self));

	if (self->roamer == NULL || wifi_roamer_is_moving(self->roamer))
		return;
	if (state == JOIND_STATION_STATE_DISCONNECTED ||
	    state == JOIND_STATION_STATE_DISCONNECTING) {
		roam_forget_link(self);
		wifi_roamer_disconnected(self->roamer);
	}
}

/* NOTIFY_CQM and FRAME: the roamer first; a beacon loss it takes on is
 * not a reason to drop the link. */
gboolean
station_roam_handle_event(WifiStation *self, guint8 cmd, struct nlattr **attrs)
{
	return self->roamer != NULL && wifi_roamer_handle_event(self->roamer, cmd, attrs);
}

/* Station1.Roam() (joinctl station DEV roam BSSID). */
gboolean
wifi_station_roam(JoindStation *station, const guint8 *bssid, GError **error)
{
	WifiStation *self = WIFI_STATION(station);

	if (self->roamer == NULL)
		return joind_set_error(error, JOIND_ERROR_FAILED, "%s is gone.", self->iface->name);
	return wifi_roamer_roam_to(self->roamer, bssid, error);
}
