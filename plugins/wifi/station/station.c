/* station.c - a station interface: scans, the BSS table and networks.
 *
 * Scanning is event-driven: the only timer is the periodic scan while
 * disconnected, whose interval doubles after each scan from [Scan]
 * InitialPeriodicScanInterval up to MaximumPeriodicScanInterval. The link
 * (up or down, set up) is asked through iface->link, which a unit test
 * can play (link.h).
 */
#include "station-private.h"

#include <linux/if.h>

#include "joind-mac.h"
#include "joind-wifi-diagnostics.h"
#include "address.h"
#include "autoconnect-known.h"
#include "autoconnect.h"
#include "connect.h"
#include "device.h"
#include "diagnostics.h"
#include "hidden.h"

G_DEFINE_TYPE(WifiStation, wifi_station, JOIND_TYPE_STATION)

/* The station's side of ConnectHiddenNetwork() (hidden.c). */
static gboolean
hidden_probes_ssid(JoindStation *station, GBytes *ssid)
{
	g_autoptr(WifiScanParams) params = station_scan_params(WIFI_STATION(station));

	for (guint i = 0; i < params->ssids->len; i++) {
		if (g_bytes_equal(g_ptr_array_index(params->ssids, i), ssid))
			return TRUE;
	}
	return FALSE;
}

static void
hidden_add_probe_ssid(JoindStation *station, GBytes *ssid)
{
	g_ptr_array_add(WIFI_STATION(station)->probe_ssids, g_bytes_ref(ssid));
}

static void
hidden_remove_probe_ssid(JoindStation *station, GBytes *ssid)
{
	WifiStation *self = WIFI_STATION(station);

	for (guint i = 0; i < self->probe_ssids->len; i++) {
		if (g_bytes_equal(g_ptr_array_index(self->probe_ssids, i), ssid)) {
			g_ptr_array_remove_index(self->probe_ssids, i);
			return;
		}
	}
}

static GPtrArray *
hidden_get_bsses(JoindStation *station)
{
	WifiStation *self = WIFI_STATION(station);
	GPtrArray *out = g_ptr_array_new();
	GHashTableIter iter;
	gpointer bss;

	g_hash_table_iter_init(&iter, self->bsses);
	while (g_hash_table_iter_next(&iter, NULL, &bss))
		g_ptr_array_add(out, bss);
	return out;
}

/* ---- connecting --------------------------------------------------------- */

void
wifi_station_connect(WifiStation *self, WifiNetwork *network, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
	if (self->connector == NULL) {
		g_task_report_new_error(network, callback, user_data, wifi_station_connect,
		                        JOIND_ERROR, JOIND_ERROR_FAILED, "%s is gone.",
		                        self->iface->name);
		return;
	}
	wifi_autoconnect_user_connect(self->autoconnect, network, cancellable, callback, user_data);
}

static void
wifi_station_disconnect(JoindStation *station, GCancellable *cancellable,
                        GAsyncReadyCallback callback, gpointer user_data)
{
	WifiStation *self = WIFI_STATION(station);

	if (self->connector == NULL) {
		g_task_report_new_error(self, callback, user_data, wifi_station_disconnect,
		                        JOIND_ERROR, JOIND_ERROR_FAILED, "%s is gone.",
		                        self->iface->name);
		return;
	}
	wifi_autoconnect_user_disconnect(self->autoconnect);
	wifi_connector_disconnect(self->connector, cancellable, callback, user_data);
}

static gboolean
wifi_station_disconnect_finish(JoindStation *station, GAsyncResult *result, GError **error)
{
	return g_task_propagate_boolean(G_TASK(result), error);
}

static void
hidden_scan(JoindStation *station, GCancellable *cancellable, GAsyncReadyCallback callback,
            gpointer user_data)
{
	WifiStation *self = WIFI_STATION(station);

	if (self->scanner == NULL) {
		g_task_report_new_error(self, callback, user_data, hidden_scan, JOIND_ERROR,
		                        JOIND_ERROR_FAILED, "The interface cannot scan now.");
		return;
	}
	wifi_scanner_scan(self->scanner, station_scan_params(self), "ConnectHiddenNetwork",
	                  cancellable, callback, user_data);
}

static void
hidden_connect(JoindStation *station, WifiNetwork *network, GCancellable *cancellable,
               GAsyncReadyCallback callback, gpointer user_data)
{
	wifi_station_connect(WIFI_STATION(station), network, cancellable, callback, user_data);
}

static const WifiHiddenStationOps station_hidden_ops = {
        hidden_probes_ssid, hidden_add_probe_ssid, hidden_remove_probe_ssid,
        hidden_get_bsses,   hidden_scan,           hidden_connect,
};

static GArray *
wifi_station_get_hidden_access_points(JoindStation *station)
{
	g_autoptr(GPtrArray) bsses = hidden_get_bsses(station);

	return wifi_hidden_access_points(bsses);
}

static void
wifi_station_connect_hidden(JoindStation *station, GBytes *ssid, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
	wifi_hidden_connect(station, &station_hidden_ops, WIFI_STATION(station)->core, ssid,
	                    cancellable, callback, user_data);
}

static gboolean
wifi_station_connect_hidden_finish(JoindStation *station, GAsyncResult *result, GError **error)
{
	return g_task_propagate_boolean(G_TASK(result), error);
}

/* ---- diagnostics ---------------------------------------------------------- */

static GVariant *
bss_diagnostics(WifiBss *bss)
{
	GVariantDict d;
	gchar addr[JOIND_MAC_STRING_LEN];
	g_autofree gchar *ssid = joind_ssid_to_display(bss->ies.ssid, bss->ies.ssid_len);

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "bssid", "s", joind_mac_to_string(bss->bssid, addr));
	g_variant_dict_insert(&d, "ssid", "s", ssid);
	g_variant_dict_insert(&d, "hidden", "b", wifi_bss_is_hidden(bss));
	g_variant_dict_insert(&d, "security", "s", joind_network_type_to_string(bss->type));
	g_variant_dict_insert(&d, "frequency", "u", bss->freq);
	g_variant_dict_insert(&d, "signal_dbm", "i", bss->signal / 100);
	g_variant_dict_insert(&d, "rank_score", "i", wifi_bss_score(bss));
	return g_variant_dict_end(&d);
}

static void
station_link_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	GVariantDict *d = g_task_get_task_data(task);
	g_autoptr(GVariant) link = wifi_diagnostics_link_finish(result);

	g_variant_dict_insert_value(d, JOIND_WIFI_DIAG_CONNECTION, link);
	g_task_return_pointer(task, g_variant_ref_sink(g_variant_dict_end(d)),
	                      (GDestroyNotify)g_variant_unref);
}

/* For Daemon1.GetDiagnostics(): what the station sees, and the link's
 * facts once the kernel has told them (the wait ends when the station
 * stops). */
static void
station_diagnostics(gpointer user_data, GTask *task)
{
	WifiStation *self = user_data;
	GVariantBuilder bsses;
	GVariantDict *d = g_variant_dict_new(NULL);
	WifiConnectionInfo info;
	gboolean connected;
	GHashTableIter iter;
	gpointer bss;

	g_variant_builder_init(&bsses, G_VARIANT_TYPE("aa{sv}"));
	g_hash_table_iter_init(&iter, self->bsses);
	while (g_hash_table_iter_next(&iter, NULL, &bss))
		g_variant_builder_add_value(&bsses, bss_diagnostics(bss));
	g_variant_dict_insert(d, "wiphy", "s",
	                      self->iface->wiphy->name != NULL ? self->iface->wiphy->name : "");
	g_variant_dict_insert(d, "scanning", "b", joind_station_get_scanning(JOIND_STATION(self)));
	g_variant_dict_insert(d, "scans_triggered", "u",
	                      self->scanner != NULL ? wifi_scanner_get_n_triggered(self->scanner)
	                                            : 0);
	g_variant_dict_insert(d, "periodic_scan_interval", "u", self->periodic_interval);
	g_variant_dict_insert(d, "netlink_overruns", "u", wifi_nl_get_n_overruns(self->iface->nl));
	wifi_address_diagnostics(self->iface, joind_device_get_address(self->device), d);
	g_variant_dict_insert(d, "networks", "u", g_hash_table_size(self->networks));
	if (self->roamer != NULL)
		wifi_roamer_add_diagnostics(self->roamer, d);
	g_variant_dict_insert_value(d, "bsses", g_variant_builder_end(&bsses));
	if (self->connector != NULL && wifi_connector_get_refused_server(self->connector) != NULL)
		g_variant_dict_insert_value(d, "refused_server",
		                            wifi_connector_get_refused_server(self->connector));
	g_task_set_task_data(task, d, (GDestroyNotify)g_variant_dict_unref);
	connected = self->connector != NULL &&
	            wifi_connector_get_connection_info(self->connector, &info);
	wifi_diagnostics_link_async(self->iface->nl, self->iface->ifindex, connected ? &info : NULL,
	                            self->cancellable, station_link_done, task);
}

/* ---- life cycle ----------------------------------------------------------- */

/* Periodic scans run only while disconnected: a connect stops them, a
 * disconnect starts them again from the initial interval. */
static void
on_state_changed(WifiStation *self, GParamSpec *pspec, gpointer user_data)
{
	station_roam_state_changed(self);
	if (joind_station_get_state(JOIND_STATION(self)) != JOIND_STATION_STATE_DISCONNECTED) {
		g_clear_handle_id(&self->periodic_timer, g_source_remove);
		return;
	}
	self->periodic_interval = self->periodic_initial;
	station_periodic_schedule(self);
}

/* A PMKSA belongs to the credentials that made it: a profile that changed
 * (not merely by the credentials its own link remembered) or went takes
 * the network's cached PMKSAs with it. */
static void
station_flush_pmksa(WifiStation *self, JoindProfile *profile, gint change)
{
	GBytes *ssid = joind_profile_get_ssid(profile);
	g_autofree gchar *key = NULL;
	guint n;

	WifiKeying *keying =
	        self->connector != NULL ? wifi_connector_get_keying(self->connector) : NULL;

	if (ssid == NULL || (change != JOIND_PROFILE_CHANGE_REMOVED && keying != NULL &&
	                     wifi_keying_adopt_profile(keying, profile)))
		return;
	key = wifi_known_profile_key(ssid, joind_profile_get_profile_type(profile));
	n = wifi_pmksa_cache_flush_network(self->pmksa_cache, key);
	if (n > 0)
		wifi_iface_info(self->iface, "the profile of “%s” %s: %u cached PMKSA dropped",
		                joind_profile_get_name(profile),
		                change == JOIND_PROFILE_CHANGE_REMOVED ? "went" : "changed", n);
}

static void
on_profile_changed(JoindCore *core, JoindProfile *profile, gint change, gpointer user_data)
{
	WifiStation *self = user_data;
	GHashTableIter iter;
	gpointer network;

	station_flush_pmksa(self, profile, change);

	g_hash_table_iter_init(&iter, self->networks);
	while (g_hash_table_iter_next(&iter, NULL, &network))
		station_update_profile(self, network);
	if (self->autoconnect != NULL)
		wifi_autoconnect_profile_changed(self->autoconnect, profile, change);
}

static void
wifi_station_finalize(GObject *object)
{
	WifiStation *self = WIFI_STATION(object);

	g_clear_pointer(&self->autoconnect, wifi_autoconnect_free);
	station_remove_roamer(self);
	g_clear_pointer(&self->connector, wifi_connector_free);
	g_clear_pointer(&self->pmksa_cache, wifi_pmksa_cache_free);
	g_clear_pointer(&self->bsses, g_hash_table_unref);
	g_clear_pointer(&self->networks, g_hash_table_unref);
	g_clear_pointer(&self->probe_ssids, g_ptr_array_unref);
	g_clear_pointer(&self->iface, wifi_iface_unref);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->device);
	G_OBJECT_CLASS(wifi_station_parent_class)->finalize(object);
}

static void
wifi_station_class_init(WifiStationClass *klass)
{
	JoindStationClass *station_class = JOIND_STATION_CLASS(klass);

	G_OBJECT_CLASS(klass)->finalize = wifi_station_finalize;
	station_class->scan = wifi_station_scan;
	station_class->get_ordered_networks = wifi_station_get_ordered_networks;
	station_class->disconnect = wifi_station_disconnect;
	station_class->disconnect_finish = wifi_station_disconnect_finish;
	station_class->connect_hidden = wifi_station_connect_hidden;
	station_class->connect_hidden_finish = wifi_station_connect_hidden_finish;
	station_class->get_hidden_access_points = wifi_station_get_hidden_access_points;
	station_class->roam = wifi_station_roam;
}

static void
wifi_station_init(WifiStation *self)
{
	self->bsses = g_hash_table_new_full(wifi_bss_entry_hash, wifi_bss_entry_equal, NULL,
	                                    (GDestroyNotify)wifi_bss_unref);
	self->networks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
	self->cancellable = g_cancellable_new();
	self->probe_ssids = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
}

static void
station_add_autoconnect(WifiStation *self)
{
	WifiAutoconnectSetup setup = {
	        .core = self->core,
	        .station = JOIND_STATION(self),
	        .connector = self->connector,
	        .scanner = self->scanner,
	        .iface = self->iface,
	        .full_scan_params = station_full_scan_params,
	        .user_data = self,
	};

	self->autoconnect = wifi_autoconnect_new(&setup);
}

WifiStation *
wifi_station_new(const WifiStationSetup *setup)
{
	WifiStation *self = g_object_new(WIFI_TYPE_STATION, NULL);
	JoindCore *core = setup->core;

	self->core = core;
	self->iface = wifi_iface_ref(setup->iface);
	self->device = g_object_ref(setup->device);
	wifi_device_set_diagnostics(WIFI_DEVICE(self->device), station_diagnostics, self);
	self->periodic_initial =
	        joind_core_get_config_int(core, "Scan", "InitialPeriodicScanInterval");
	self->periodic_max =
	        MAX(self->periodic_initial,
	            (guint)joind_core_get_config_int(core, "Scan", "MaximumPeriodicScanInterval"));
	self->periodic_disabled = joind_core_get_config_bool(core, "Scan", "DisablePeriodicScan");
	self->periodic_interval = self->periodic_initial;
	self->scanner =
	        wifi_scanner_new(self->iface, station_scan_results, station_scanning_changed, self);
	self->pmksa_cache = wifi_pmksa_cache_new();
	self->connector = wifi_connector_new(core, JOIND_STATION(self), self->iface, self->scanner,
	                                     self->pmksa_cache);
	station_add_autoconnect(self);
	station_add_roamer(self);
	joind_device_attach_station(self->device, JOIND_STATION(self));
	g_signal_connect(self, "notify::state", G_CALLBACK(on_state_changed), NULL);
	return self;
}

static void
station_set_powered(WifiStation *self, gboolean powered, const gchar *why)
{
	if (self->powered == powered)
		return;
	wifi_iface_info(self->iface, "powered %s (%s)", powered ? "on" : "off", why);
	self->powered = powered;
	joind_device_set_powered(self->device, powered);
	joind_device_set_state(self->device,
	                       powered ? JOIND_DEVICE_STATE_NO_CARRIER : JOIND_DEVICE_STATE_DOWN);
	if (!powered) {
		g_clear_handle_id(&self->periodic_timer, g_source_remove);
		if (self->autoconnect != NULL)
			wifi_autoconnect_stop(self->autoconnect);
		return;
	}
	self->periodic_interval = self->periodic_initial;
	if (!self->started)
		return;
	/* Autoconnect's quick scan of the remembered frequencies goes first;
	 * the periodic scans follow. */
	if (self->autoconnect != NULL && wifi_autoconnect_start(self->autoconnect, "link up"))
		station_periodic_schedule(self);
	else
		station_scan_now(self, "link up");
}

void
wifi_station_start(WifiStation *self)
{
	g_autoptr(GError) local = NULL;
	g_autofree gchar *caps = wifi_wiphy_describe(self->iface->wiphy);

	g_signal_connect_object(self->core, "profile-changed", G_CALLBACK(on_profile_changed), self,
	                        0);
	wifi_iface_info(self->iface, "station on %s (%s)", self->iface->wiphy->name, caps);
	/* From now on link changes count: a link someone else brings up
	 * later powers the station too. */
	self->started = TRUE;
	if (self->blocked) {
		wifi_iface_info(self->iface,
		                "radio %s is blocked: powered off until it is unblocked",
		                self->iface->wiphy->name);
		return;
	}
	wifi_address_start(self->iface, self->device);
	/* A station must be up to scan; joind never deletes or recreates the
	 * interface, it only sets it up. */
	if (!wifi_link_set_up(self->iface->link, self->iface->name, &local)) {
		g_warning("%s", local->message);
		return;
	}
	/* Powering up starts the first scan. */
	self->link_up = TRUE;
	station_set_powered(self, TRUE, "link up");
}

void
wifi_station_stop(WifiStation *self)
{
	/* What is torn down below may drop every other reference to self. */
	g_autoptr(WifiStation) hold G_GNUC_UNUSED = g_object_ref(self);
	GHashTableIter iter;
	gpointer network;

	self->started = FALSE;
	g_cancellable_cancel(self->cancellable);
	g_clear_handle_id(&self->periodic_timer, g_source_remove);
	g_clear_pointer(&self->autoconnect, wifi_autoconnect_free);
	station_remove_roamer(self);
	g_clear_pointer(&self->connector, wifi_connector_free); /* releases the scanner */
	g_clear_pointer(&self->scanner, wifi_scanner_free);
	wifi_address_stop(self->iface, self->device);
	g_signal_handlers_disconnect_by_data(self->core, self);
	g_hash_table_iter_init(&iter, self->networks);
	while (g_hash_table_iter_next(&iter, NULL, &network)) {
		joind_station_remove_network(JOIND_STATION(self), network);
		g_hash_table_iter_remove(&iter);
	}
	g_hash_table_remove_all(self->bsses);
	wifi_device_clear_diagnostics(WIFI_DEVICE(self->device));
	/* The device holds the station: break the cycle. */
	joind_device_attach_station(self->device, NULL);
}

WifiPmksaCache *
wifi_station_get_pmksa_cache(WifiStation *self)
{
	return self->pmksa_cache;
}

JoindDevice *
wifi_station_get_joind_device(WifiStation *self)
{
	return self->device;
}

void
wifi_station_resync(WifiStation *self)
{
	if (self->scanner != NULL)
		wifi_scanner_resync(self->scanner);
	if (self->connector != NULL)
		wifi_connector_resync(self->connector);
}

void
wifi_station_handle_event(WifiStation *self, guint8 cmd, struct nlattr **attrs)
{
	switch (cmd) {
	case NL80211_CMD_TRIGGER_SCAN:
	case NL80211_CMD_NEW_SCAN_RESULTS:
	case NL80211_CMD_SCAN_ABORTED:
		if (self->scanner != NULL)
			wifi_scanner_handle_event(self->scanner, cmd, attrs);
		break;
	case NL80211_CMD_CONNECT:
	case NL80211_CMD_DISCONNECT:
	case NL80211_CMD_AUTHENTICATE:
	case NL80211_CMD_ASSOCIATE:
	case NL80211_CMD_DEAUTHENTICATE:
	case NL80211_CMD_DISASSOCIATE:
	case NL80211_CMD_CONTROL_PORT_FRAME:
		if (self->connector != NULL)
			wifi_connector_handle_event(self->connector, cmd, attrs);
		break;
	case NL80211_CMD_NOTIFY_CQM:
		if (!station_roam_handle_event(self, cmd, attrs) && self->autoconnect != NULL)
			wifi_autoconnect_handle_event(self->autoconnect, cmd, attrs);
		break;
	case NL80211_CMD_FRAME:
		/* The roamer's (neighbour reports, BSS transition) and the
		 * connector's (FT over the DS) are of other categories. */
		if (self->connector != NULL)
			wifi_connector_handle_event(self->connector, cmd, attrs);
		station_roam_handle_event(self, cmd, attrs);
		break;
	default:
		break;
	}
}

void
wifi_station_link_changed(WifiStation *self, const gchar *name, const gchar *address, guint flags)
{
	guint now = flags;

	if (name != NULL && g_strcmp0(name, self->iface->name) != 0) {
		wifi_iface_info(self->iface, "renamed to %s", name);
		wifi_iface_set_name(self->iface, name);
		joind_device_set_name(self->device, name);
	}
	if (address != NULL)
		joind_device_set_address(self->device, address);
	if (!self->started)
		return;
	/* Events can trail our own changes (set up just now): take the flags
	 * as they are at this moment. */
	if (!wifi_link_get_flags(self->iface->link, self->iface->name, &now, NULL))
		now = flags;
	self->link_up = (now & IFF_UP) != 0;
	station_set_powered(self, self->link_up && !self->blocked,
	                    self->link_up ? "link up" : "link down");
}

void
wifi_station_set_blocked(WifiStation *self, gboolean blocked, const gchar *reason)
{
	g_autoptr(GError) error = NULL;
	guint flags = 0;

	if (self->blocked == blocked)
		return;
	self->blocked = blocked;
	wifi_iface_info(self->iface, "radio %s %s", self->iface->wiphy->name, reason);
	if (!self->started)
		return;
	if (blocked) {
		station_set_powered(self, FALSE, reason);
		return;
	}
	if (wifi_link_get_flags(self->iface->link, self->iface->name, &flags, NULL) &&
	    (flags & IFF_UP) != 0) {
		self->link_up = TRUE;
		station_set_powered(self, TRUE, reason);
		return;
	}
	/* cfg80211 set the interface down when the radio was blocked; joind
	 * sets its stations up, so it does so again. Powered follows the
	 * link change. */
	if (!wifi_link_set_up(self->iface->link, self->iface->name, &error))
		g_warning("%s", error->message);
}

void
wifi_station_resumed(WifiStation *self)
{
	if (!self->powered ||
	    joind_station_get_state(JOIND_STATION(self)) != JOIND_STATION_STATE_DISCONNECTED)
		return;
	if (self->autoconnect != NULL && wifi_autoconnect_resumed(self->autoconnect))
		return;
	/* Nothing remembered to quick-scan: a full scan now, and the periodic
	 * scans from their initial interval. */
	g_clear_handle_id(&self->periodic_timer, g_source_remove);
	self->periodic_interval = self->periodic_initial;
	station_scan_now(self, "resumed from sleep");
}
