/* iwd-diagnostics.c - StationDiagnostic under iwd's API (see
 * iwd-diagnostics.h). Facts iwd has and joind does not (RxMode, MCS
 * indices, ExpectedThroughput) are left out, as iwd leaves out those its
 * driver does not give.
 */
#include "iwd-diagnostics.h"

#include "iwd-names.h"
#include "joind-wifi-diagnostics.h"

/* iwd's names for the AKM joind's diagnostics name; NULL: iwd has none. */
static const gchar *
security_name(const gchar *akm)
{
	static const struct {
		const gchar *joind;
		const gchar *iwd;
	} names[] = {
	        {JOIND_WIFI_AKM_OPEN, "Open"},
	        {JOIND_WIFI_AKM_OWE, "OWE"},
	        {JOIND_WIFI_AKM_PSK, "WPA2-Personal"},
	        {JOIND_WIFI_AKM_PSK_SHA256, "WPA2-Personal"},
	        {JOIND_WIFI_AKM_FT_PSK, "WPA2-Personal + FT"},
	        {JOIND_WIFI_AKM_SAE, "WPA3-Personal"},
	        {JOIND_WIFI_AKM_SAE_H2E, "WPA3-Personal"},
	        {JOIND_WIFI_AKM_FT_SAE, "WPA3-Personal + FT"},
	        {JOIND_WIFI_AKM_8021X, "WPA2-Enterprise"},
	        {JOIND_WIFI_AKM_8021X_SHA256, "WPA2-Enterprise"},
	        {JOIND_WIFI_AKM_FT_8021X, "WPA2-Enterprise + FT"},
	        {JOIND_WIFI_AKM_FT_8021X_SHA384, "WPA2-Enterprise + FT"},
	};

	for (gsize i = 0; akm != NULL && i < G_N_ELEMENTS(names); i++)
		if (g_str_equal(akm, names[i].joind))
			return names[i].iwd;
	return NULL;
}

static gboolean
iwd_cipher(const gchar *cipher)
{
	static const gchar *const ciphers[] = {"CCMP-128", "TKIP",     "GCMP-128",
	                                       "GCMP-256", "CCMP-256", NULL};

	return cipher != NULL && g_strv_contains(ciphers, cipher);
}

/* The connection's dictionary of joind's diagnostics (a maybe while the
 * link is being asked for), or NULL. */
static GVariant *
connection_of(GVariant *diagnostics)
{
	g_autoptr(GVariant) value = NULL;

	if (diagnostics == NULL || !g_variant_is_of_type(diagnostics, G_VARIANT_TYPE_VARDICT))
		return NULL;
	value = g_variant_lookup_value(diagnostics, JOIND_WIFI_DIAG_CONNECTION, NULL);
	if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE("ma{sv}")))
		return g_variant_get_maybe(value);
	if (value != NULL && g_variant_is_of_type(value, G_VARIANT_TYPE_VARDICT))
		return g_steal_pointer(&value);
	return NULL;
}

static void
add_link_facts(GVariantBuilder *b, GVariant *link)
{
	gint32 dbm = 0;
	gdouble mbps = 0;
	guint64 seconds = 0;
	const gchar *cipher = NULL;

	if (g_variant_lookup(link, JOIND_WIFI_DIAG_RSSI_DBM, "i", &dbm))
		g_variant_builder_add(b, "{sv}", "RSSI", g_variant_new_int16((gint16)dbm));
	if (g_variant_lookup(link, JOIND_WIFI_DIAG_RSSI_AVG_DBM, "i", &dbm))
		g_variant_builder_add(b, "{sv}", "AverageRSSI", g_variant_new_int16((gint16)dbm));
	if (g_variant_lookup(link, JOIND_WIFI_DIAG_TX_BITRATE_MBPS, "d", &mbps) && mbps >= 0)
		g_variant_builder_add(b, "{sv}", "TxBitrate",
		                      g_variant_new_uint32((guint32)(mbps * 10 + 0.5)));
	if (g_variant_lookup(link, JOIND_WIFI_DIAG_PAIRWISE_CIPHER, "&s", &cipher) &&
	    iwd_cipher(cipher))
		g_variant_builder_add(b, "{sv}", "PairwiseCipher", g_variant_new_string(cipher));
	if (g_variant_lookup(link, JOIND_WIFI_DIAG_CONNECTED_SECONDS, "t", &seconds))
		g_variant_builder_add(b, "{sv}", "ConnectedTime",
		                      g_variant_new_uint32((guint32)MIN(seconds, G_MAXUINT32)));
}

GVariant *
iwd_diagnostics_from_joind(GVariant *diagnostics)
{
	g_autoptr(GVariant) link = connection_of(diagnostics);
	const gchar *bssid = NULL;
	const gchar *security = NULL;
	guint32 frequency = 0, channel = 0;
	GVariantBuilder b;

	if (link == NULL || !g_variant_lookup(link, JOIND_WIFI_DIAG_BSSID, "&s", &bssid) ||
	    !g_variant_lookup(link, JOIND_WIFI_DIAG_FREQUENCY, "u", &frequency))
		return NULL;
	g_variant_builder_init(&b, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(&b, "{sv}", "ConnectedBss", g_variant_new_string(bssid));
	g_variant_builder_add(&b, "{sv}", "Frequency", g_variant_new_uint32(frequency));
	if (g_variant_lookup(link, JOIND_WIFI_DIAG_CHANNEL, "u", &channel))
		g_variant_builder_add(&b, "{sv}", "Channel",
		                      g_variant_new_uint16((guint16)MIN(channel, G_MAXUINT16)));
	if (g_variant_lookup(link, JOIND_WIFI_DIAG_SECURITY, "&s", &security) &&
	    security_name(security) != NULL)
		g_variant_builder_add(&b, "{sv}", "Security",
		                      g_variant_new_string(security_name(security)));
	add_link_facts(&b, link);
	return g_variant_builder_end(&b);
}

/* ---- the method --------------------------------------------------------------- */

static void
diagnostics_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	JoindCall *call = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) diagnostics =
	        joind_device_get_diagnostics_finish(JOIND_DEVICE(source), result, &error);
	GVariant *dict = iwd_diagnostics_from_joind(diagnostics);

	if (dict != NULL) {
		joind_call_return(call, g_variant_new_tuple(&dict, 1));
		return;
	}
	if (error == NULL)
		error = g_error_new_literal(IWD_ERROR, IWD_ERROR_NOT_CONNECTED,
		                            "The station is not connected.");
	joind_call_return_error(call, error);
}

/* iwd answers NotConnected unless connected; so does this, also when the
 * link went before the kernel answered. */
static void
diagnostics_get(JoindCall *call, gpointer target, gpointer data)
{
	JoindDevice *device = iwd_iface_get_model(target);
	JoindStation *station = joind_device_get_station(device);
	g_autoptr(GError) error = NULL;

	if (station == NULL || (joind_station_get_state(station) != JOIND_STATION_STATE_CONNECTED &&
	                        joind_station_get_state(station) != JOIND_STATION_STATE_ROAMING)) {
		error = g_error_new_literal(IWD_ERROR, IWD_ERROR_NOT_CONNECTED,
		                            "The station is not connected.");
		joind_call_return_error(call, error);
		return;
	}
	joind_device_get_diagnostics(device, NULL, diagnostics_done, call);
}

const IwdMethod iwd_diagnostic_methods[] = {
        {"GetDiagnostics", diagnostics_get},
        {NULL, NULL},
};
