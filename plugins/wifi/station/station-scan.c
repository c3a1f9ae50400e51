/* station-scan.c - a station's scanning half: scan results into the BSS
 * table and networks, the periodic scan while disconnected, Station1.Scan()
 * and GetOrderedNetworks() (see station-private.h). */
#include "station-private.h"

#include "joind-mac.h"

/* ---- networks from scan results ------------------------------------------- */

void
station_update_profile(WifiStation *self, WifiNetwork *network)
{
	JoindNetwork *n = JOIND_NETWORK(network);
	g_autoptr(JoindProfile) profile = NULL;
	JoindProfileType type;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(n), &len);

	if (joind_network_type_to_profile_type(joind_network_get_network_type(n), &type))
		profile = joind_core_find_network_profile(self->core, ssid, len, type);
	joind_network_set_profile(n, profile);
	/* What the core remembers across restarts ranks too. */
	if (profile != NULL && joind_core_get_last_connected(self->core, ssid, len, type) > 0)
		wifi_network_set_last_connected(
		        network, joind_core_get_last_connected(self->core, ssid, len, type));
	wifi_network_update_rank(network);
}

/* The network being connected or connected to stays, seen or not: a scan
 * that missed its access point (restarting, or a lost probe response)
 * would otherwise leave the link with no network object, and
 * ConnectedNetwork naming a path that is gone. It goes with the next
 * scans' misses once the link is. */
static guint
station_remove_gone_networks(WifiStation *self, GHashTable *groups)
{
	JoindNetwork *in_use = joind_station_get_target_network(JOIND_STATION(self));
	guint n = 0;

	GHashTableIter iter;
	const gchar *key;
	WifiNetwork *network;

	g_hash_table_iter_init(&iter, self->networks);
	while (g_hash_table_iter_next(&iter, (gpointer *)&key, (gpointer *)&network)) {
		if (g_hash_table_contains(groups, key) || JOIND_NETWORK(network) == in_use)
			continue;
		wifi_iface_debug(self->iface, "network “%s” (%s) is gone",
		                 joind_network_get_name(JOIND_NETWORK(network)),
		                 joind_network_type_to_string(
		                         joind_network_get_network_type(JOIND_NETWORK(network))));
		joind_station_remove_network(JOIND_STATION(self), JOIND_NETWORK(network));
		g_hash_table_iter_remove(&iter);
		n++;
	}
	return n;
}

/* Network1.Connect() of a network this station lists. */
static void
network_connect(GObject *owner, WifiNetwork *network, GCancellable *cancellable,
                GAsyncReadyCallback callback, gpointer user_data)
{
	wifi_station_connect(WIFI_STATION(owner), network, cancellable, callback, user_data);
}

static const WifiNetworkOwnerOps station_network_ops = {network_connect};

static void
station_update_networks(WifiStation *self)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new();
	g_autoptr(GHashTable) groups = NULL;
	GHashTableIter iter;
	const gchar *key;
	GPtrArray *group;
	gpointer bss;
	guint gone, added = 0;

	g_hash_table_iter_init(&iter, self->bsses);
	while (g_hash_table_iter_next(&iter, NULL, &bss))
		g_ptr_array_add(all, bss);
	groups = wifi_group_bsses(all);

	gone = station_remove_gone_networks(self, groups);
	g_hash_table_iter_init(&iter, groups);
	while (g_hash_table_iter_next(&iter, (gpointer *)&key, (gpointer *)&group)) {
		WifiNetwork *network = g_hash_table_lookup(self->networks, key);
		WifiBss *first = g_ptr_array_index(group, 0);
		g_autoptr(GBytes) ssid = NULL;

		if (network != NULL) {
			guint before = wifi_network_get_bsses(network)->len;

			wifi_network_set_bsses(network, group);
			if (before != group->len)
				wifi_iface_debug(self->iface, "network “%s” (%s) now has %u BSS",
				                 joind_network_get_name(JOIND_NETWORK(network)),
				                 joind_network_type_to_string(first->type),
				                 group->len);
			continue;
		}
		ssid = g_bytes_new(first->ies.ssid, first->ies.ssid_len);
		network = wifi_network_new(ssid, first->type);
		wifi_network_set_owner(network, &station_network_ops, G_OBJECT(self));
		wifi_network_set_bsses(network, group);
		station_update_profile(self, network);
		g_hash_table_insert(self->networks, g_strdup(key), network);
		wifi_iface_debug(self->iface, "network “%s” (%s) appears, %u BSS, %d dBm",
		                 joind_network_get_name(JOIND_NETWORK(network)),
		                 joind_network_type_to_string(first->type), group->len,
		                 joind_network_get_strength(JOIND_NETWORK(network)) / 100);
		joind_station_add_network(JOIND_STATION(self), JOIND_NETWORK(network));
		added++;
	}
	if (added > 0 || gone > 0)
		wifi_iface_info(self->iface, "%u networks (%u new, %u gone)",
		                g_hash_table_size(self->networks), added, gone);
}

static gboolean
freq_in(const GArray *freqs, guint32 freq)
{
	if (freqs == NULL)
		return TRUE;
	for (guint i = 0; i < freqs->len; i++) {
		if (g_array_index(freqs, guint32, i) == freq)
			return TRUE;
	}
	return FALSE;
}

void
station_scan_results(GPtrArray *bsses, const GArray *scanned_freqs, gboolean authoritative,
                     gpointer user_data)
{
	WifiStation *self = user_data;
	GHashTableIter iter;
	WifiBss *bss;

	/* After our own scan, whatever it did not see on the frequencies it
	 * covered is out of range or switched off; but a single scan can miss
	 * a BSS (a lost probe response), so it goes only after
	 * WIFI_BSS_MAX_MISSES scans in a row missed it. */
	if (authoritative) {
		g_hash_table_iter_init(&iter, self->bsses);
		while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&bss)) {
			if (freq_in(scanned_freqs, bss->freq) &&
			    ++bss->misses >= WIFI_BSS_MAX_MISSES)
				g_hash_table_iter_remove(&iter);
		}
	}
	for (guint i = 0; i < bsses->len; i++) {
		bss = g_ptr_array_index(bsses, i);
		/* The new entry replaces the old as key and value. */
		g_hash_table_replace(self->bsses, bss, wifi_bss_ref(bss));
	}
	station_update_networks(self);
	if (self->autoconnect != NULL)
		wifi_autoconnect_scan_results(self->autoconnect);
}

void
station_scanning_changed(gboolean scanning, gpointer user_data)
{
	joind_station_set_scanning(JOIND_STATION(user_data), scanning);
}

/* ---- scanning ------------------------------------------------------------- */

/* A full scan that also probes for every hidden network joind knows. */
WifiScanParams *
station_scan_params(WifiStation *self)
{
	static const JoindProfileType types[] = {JOIND_PROFILE_TYPE_OPEN, JOIND_PROFILE_TYPE_PSK,
	                                         JOIND_PROFILE_TYPE_8021X};
	WifiScanParams *params = wifi_scan_params_new();

	for (guint t = 0; t < G_N_ELEMENTS(types); t++) {
		g_autoptr(GPtrArray) profiles = joind_core_list_profiles(self->core, types[t]);

		for (guint i = 0; profiles != NULL && i < profiles->len; i++) {
			JoindProfile *p = g_ptr_array_index(profiles, i);
			GBytes *ssid = joind_profile_get_ssid(p);

			if (ssid != NULL &&
			    joind_profile_get_boolean(p, "Settings", "Hidden", FALSE))
				wifi_scan_params_add_ssid(params, ssid);
		}
	}
	for (guint i = 0; i < self->probe_ssids->len; i++)
		wifi_scan_params_add_ssid(params, g_ptr_array_index(self->probe_ssids, i));
	return params;
}

WifiScanParams *
station_full_scan_params(gpointer user_data)
{
	return station_scan_params(user_data);
}

static void
periodic_scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	WifiStation *self = user_data;
	g_autoptr(GError) error = NULL;

	if (!wifi_scanner_scan_finish(NULL, result, &error)) {
		if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
			g_object_unref(self);
			return;
		}
		wifi_iface_info(self->iface, "periodic scan: %s", error->message);
	}
	station_periodic_schedule(self);
	/* Back off: each scan that found nothing to join doubles the wait. */
	self->periodic_interval = MIN(self->periodic_interval * 2, self->periodic_max);
	g_object_unref(self);
}

void
station_scan_now(WifiStation *self, const gchar *why)
{
	wifi_scanner_scan(self->scanner, station_scan_params(self), why, self->cancellable,
	                  periodic_scan_done, g_object_ref(self));
}

static gboolean
periodic_fire(gpointer user_data)
{
	WifiStation *self = user_data;

	self->periodic_timer = 0;
	if (self->autoconnect != NULL && wifi_autoconnect_is_retrying(self->autoconnect)) {
		station_periodic_schedule(self);
		return G_SOURCE_REMOVE;
	}
	station_scan_now(self, "periodic");
	return G_SOURCE_REMOVE;
}

void
station_periodic_schedule(WifiStation *self)
{
	if (self->periodic_disabled || !self->powered || !self->started ||
	    self->periodic_timer != 0 ||
	    joind_station_get_state(JOIND_STATION(self)) != JOIND_STATION_STATE_DISCONNECTED)
		return;
	wifi_iface_info(self->iface, "next periodic scan in %u s", self->periodic_interval);
	self->periodic_timer = g_timeout_add_seconds(self->periodic_interval, periodic_fire, self);
}

static void
station_dbus_scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	g_autoptr(GError) error = NULL;

	if (!wifi_scanner_scan_finish(NULL, result, &error))
		g_task_return_error(task, g_steal_pointer(&error));
	else
		g_task_return_boolean(task, TRUE);
}

void
wifi_station_scan(JoindStation *station, GCancellable *cancellable, GAsyncReadyCallback callback,
                  gpointer user_data)
{
	WifiStation *self = WIFI_STATION(station);
	GTask *task = g_task_new(self, cancellable, callback, user_data);

	if (!self->powered || self->scanner == NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_FAILED,
		                        "%s is down; it cannot scan.", self->iface->name);
		g_object_unref(task);
		return;
	}
	wifi_scanner_scan(self->scanner, station_scan_params(self), "D-Bus", cancellable,
	                  station_dbus_scan_done, task);
}

static gint
compare_networks(gconstpointer a, gconstpointer b)
{
	return wifi_network_compare(*(WifiNetwork **)a, *(WifiNetwork **)b);
}

GPtrArray *
wifi_station_get_ordered_networks(JoindStation *station)
{
	WifiStation *self = WIFI_STATION(station);
	GPtrArray *out = g_ptr_array_new_with_free_func(g_object_unref);
	GHashTableIter iter;
	gpointer network;

	g_hash_table_iter_init(&iter, self->networks);
	while (g_hash_table_iter_next(&iter, NULL, &network))
		g_ptr_array_add(out, g_object_ref(network));
	g_ptr_array_sort(out, compare_networks);
	return out;
}
