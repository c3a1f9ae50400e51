/* hidden.c - connecting to a network that hides its SSID (see hidden.h).
 *
 * The SSID stays on the station's probe list while the call runs, so that
 * any scan meanwhile (periodic, D-Bus) keeps the network it found; once
 * connected, the profile's Hidden=true takes over that role.
 */
#include "hidden.h"

#include <string.h>

gboolean
wifi_hidden_check_ssid(GBytes *ssid, GError **error)
{
	gsize len = ssid != NULL ? g_bytes_get_size(ssid) : 0;

	if (len == 0) {
		g_set_error_literal(
		        error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		        "A hidden network needs its SSID; an empty one cannot be probed.");
		return FALSE;
	}
	if (len > 32) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
		            "An SSID has at most 32 octets; this one has %zu.", len);
		return FALSE;
	}
	return TRUE;
}

static gboolean
has_hidden_twin(const WifiBss *bss, GPtrArray *all_bsses)
{
	for (guint i = 0; i < all_bsses->len; i++) {
		const WifiBss *other = g_ptr_array_index(all_bsses, i);

		if (other != bss && memcmp(other->bssid, bss->bssid, 6) == 0 &&
		    wifi_bss_is_hidden(other))
			return TRUE;
	}
	return FALSE;
}

gboolean
wifi_hidden_network_is_visible(GPtrArray *network_bsses, GPtrArray *all_bsses, gboolean probed)
{
	if (probed || network_bsses == NULL)
		return FALSE;
	for (guint i = 0; i < network_bsses->len; i++) {
		if (!has_hidden_twin(g_ptr_array_index(network_bsses, i), all_bsses))
			return TRUE;
	}
	return FALSE;
}

GArray *
wifi_hidden_access_points(GPtrArray *all_bsses)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(JoindHiddenAccessPoint));

	for (guint i = 0; i < all_bsses->len; i++) {
		const WifiBss *bss = g_ptr_array_index(all_bsses, i);
		JoindHiddenAccessPoint ap;

		/* A BSS one scan missed is still listed, as networks keep it:
		 * a hidden beacon is caught only when one falls in the scan's
		 * dwell on its channel (no probe response to a wildcard
		 * probe), so single misses are common; the station drops it
		 * after WIFI_BSS_MAX_MISSES scans in a row. */
		if (!wifi_bss_is_hidden(bss))
			continue;
		memcpy(ap.address, bss->bssid, sizeof(ap.address));
		ap.strength = (gint16)CLAMP(bss->signal, G_MININT16, G_MAXINT16);
		ap.type = bss->type;
		g_array_append_val(out, ap);
	}
	return out;
}

/* ---- the call ------------------------------------------------------------- */

typedef struct {
	JoindStation *station;
	const WifiHiddenStationOps *ops;
	JoindCore *core;
	GBytes *ssid;
	gchar *name;
	gboolean probing; /* the SSID is on the station's probe list */
	gint64 started;
	WifiNetwork *network;
} HiddenCall;

static void
hidden_call_free(HiddenCall *call)
{
	if (call->probing)
		call->ops->remove_probe_ssid(call->station, call->ssid);
	g_clear_object(&call->network);
	g_bytes_unref(call->ssid);
	g_free(call->name);
	g_object_unref(call->station);
	g_free(call);
}

/* The station's networks with this SSID (any security), best first. */
static GPtrArray *
hidden_find_networks(JoindStation *station, GBytes *ssid)
{
	g_autoptr(GPtrArray) all = joind_station_get_networks(station);
	GPtrArray *found = g_ptr_array_new_with_free_func(g_object_unref);

	/* Borrowed elements, whatever free function the copy came with. */
	if (all != NULL)
		g_ptr_array_set_free_func(all, NULL);
	for (guint i = 0; all != NULL && i < all->len; i++) {
		JoindNetwork *n = g_ptr_array_index(all, i);

		if (WIFI_IS_NETWORK(n) && g_bytes_equal(joind_network_get_ssid(n), ssid))
			g_ptr_array_add(found, g_object_ref(n));
	}
	for (guint i = 1; i < found->len; i++) {
		/* Insertion sort: a handful at most (one per security type). */
		for (guint j = i;
		     j > 0 && wifi_network_compare(found->pdata[j], found->pdata[j - 1]) < 0; j--) {
			gpointer t = found->pdata[j];

			found->pdata[j] = found->pdata[j - 1];
			found->pdata[j - 1] = t;
		}
	}
	return found;
}

/* Writes [Settings] Hidden=true into the network's profile, making one (an
 * open network has none yet) when there is none. */
static void
hidden_remember(HiddenCall *call, WifiNetwork *network)
{
	static const gchar *const keys[] = {"Hidden", NULL};
	static const gchar *const values[] = {"true", NULL};
	JoindNetwork *n = JOIND_NETWORK(network);
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(GKeyFile) kf = NULL;
	g_autoptr(GError) error = NULL;
	JoindProfileType type;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(call->ssid, &len);
	gboolean ok;

	if (!joind_network_type_to_profile_type(joind_network_get_network_type(n), &type))
		return;
	profile = joind_core_find_network_profile(call->core, ssid, len, type);
	if (profile != NULL && joind_profile_get_boolean(profile, "Settings", "Hidden", FALSE))
		return;
	if (profile != NULL) {
		ok = joind_core_update_profile_keys(call->core, profile, "Settings", keys, values,
		                                    &error);
	} else {
		kf = g_key_file_new();
		g_key_file_set_boolean(kf, "Settings", "Hidden", TRUE);
		ok = joind_core_save_network_profile(call->core, ssid, len, type, kf, &error);
	}
	if (!ok)
		g_warning("cannot mark “%s” as hidden in its profile: %s", call->name,
		          error->message);
	else
		g_info("“%s” is known as a hidden network now", call->name);
}

static void
hidden_connect_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	HiddenCall *call = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;

	if (!g_task_propagate_boolean(G_TASK(result), &error)) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	hidden_remember(call, WIFI_NETWORK(source));
	g_task_return_boolean(task, TRUE);
}

/* Connects the best network with the SSID; NOT_FOUND when there is none. */
static void
hidden_connect_found(GTask *task)
{
	HiddenCall *call = g_task_get_task_data(task);
	g_autoptr(GPtrArray) networks = hidden_find_networks(call->station, call->ssid);

	if (networks->len == 0) {
		g_info("hidden network “%s”: no answer after %.1f s", call->name,
		       (g_get_monotonic_time() - call->started) / (double)G_USEC_PER_SEC);
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "No hidden network “%s” answered.", call->name);
		g_object_unref(task);
		return;
	}
	call->network = g_object_ref(g_ptr_array_index(networks, 0));
	g_info("hidden network “%s” (%s) found, connecting", call->name,
	       joind_network_type_to_string(
	               joind_network_get_network_type(JOIND_NETWORK(call->network))));
	call->ops->connect(call->station, call->network, g_task_get_cancellable(task),
	                   hidden_connect_done, task);
}

static void
hidden_scan_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GTask *task = user_data;
	g_autoptr(GError) error = NULL;

	if (!g_task_propagate_boolean(G_TASK(result), &error)) {
		g_task_return_error(task, g_steal_pointer(&error));
		g_object_unref(task);
		return;
	}
	hidden_connect_found(task);
}

/* INVALID_ARGS when a network with the SSID was seen broadcasting it. */
static gboolean
hidden_refuse_visible(HiddenCall *call, GPtrArray *networks, GError **error)
{
	g_autoptr(GPtrArray) all = call->ops->get_bsses(call->station);
	gboolean probed = call->ops->probes_ssid(call->station, call->ssid);

	for (guint i = 0; i < networks->len; i++) {
		if (wifi_hidden_network_is_visible(
		            wifi_network_get_bsses(g_ptr_array_index(networks, i)), all, probed)) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "“%s” is not hidden: it is in the scan results. Connect to it "
			            "with Network1.Connect().",
			            call->name);
			return TRUE;
		}
	}
	return FALSE;
}

void
wifi_hidden_connect(JoindStation *station, const WifiHiddenStationOps *ops, JoindCore *core,
                    GBytes *ssid, GCancellable *cancellable, GAsyncReadyCallback callback,
                    gpointer user_data)
{
	GTask *task = g_task_new(station, cancellable, callback, user_data);
	g_autoptr(GPtrArray) networks = NULL;
	g_autoptr(GError) error = NULL;
	HiddenCall *call;

	g_task_set_source_tag(task, wifi_hidden_connect);
	if (!wifi_hidden_check_ssid(ssid, &error)) {
		g_task_return_error(task, g_steal_pointer(&error));
		g_object_unref(task);
		return;
	}
	call = g_new0(HiddenCall, 1);
	call->station = g_object_ref(station);
	call->ops = ops;
	call->core = core;
	call->ssid = g_bytes_ref(ssid);
	call->name = joind_ssid_to_display(g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid));
	call->started = g_get_monotonic_time();
	g_task_set_task_data(task, call, (GDestroyNotify)hidden_call_free);
	networks = hidden_find_networks(station, ssid);
	if (hidden_refuse_visible(call, networks, &error)) {
		g_task_return_error(task, g_steal_pointer(&error));
		g_object_unref(task);
		return;
	}
	if (networks->len > 0) {
		/* Found already by probing (a Hidden=true profile): no scan needed. */
		hidden_connect_found(task);
		return;
	}
	g_info("probing for hidden network “%s”", call->name);
	ops->add_probe_ssid(station, ssid);
	call->probing = TRUE;
	ops->scan(station, cancellable, hidden_scan_done, task);
}
