/* connect-rescan.c - an authentication the kernel refused with -ENOENT:
 * cfg80211 authenticates only to a BSS in its scan table, and expires one
 * not seen for 30 s (e.g. while the interface was connected on another
 * channel) or whose authentication timed out. Methods whose frames go
 * through joind's SME (SAE) cannot hand the attempt to the kernel's
 * CMD_CONNECT as open system does: a directed scan of the BSS's frequency
 * for the network's SSID puts it back, and the authentication goes once
 * more. A one-channel active scan can end within 50 ms, less than a
 * beacon interval, and an access point busy starting up may not answer
 * its probe in time: WIFI_RESCAN_TRIES scans before the attempt fails,
 * the second passive (it dwells for a beacon, which the radio sends
 * without the access point's daemon), the others probing for the SSID (a
 * hidden network answers nothing else). The expiry is the kernel's, not
 * the access point's: nothing is held against the BSS. */
#include "connect-private.h"

#include "joind-mac.h"

static void
rescan_ready(gpointer user_data)
{
	WifiConnector *self = user_data;

	if (self->state != CONN_AUTHENTICATING || self->cur == NULL) {
		wifi_scanner_release(self->scanner);
		return;
	}
	connector_enter(self, CONN_AUTHENTICATING, "the BSS was scanned again");
}

static void
on_rescanned(GObject *source, GAsyncResult *result, gpointer user_data)
{
	WifiConnector *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *message = NULL;

	(void)source;
	/* Cancelled: the attempt is over, self may be gone. */
	if (g_cancellable_is_cancelled(g_task_get_cancellable(G_TASK(result))))
		return;
	g_clear_object(&self->rescan);
	if (!wifi_scanner_scan_finish(self->scanner, result, &error)) {
		message = g_strdup_printf("The kernel no longer knows the access point, and the "
		                          "scan of its channel failed: %s",
		                          error->message);
		connector_fail(self, WIFI_CONNECT_EVENT_FAILED, JOIND_ERROR_FAILED, message,
		               CONN_IDLE);
		return;
	}
	/* The hold keeps the next scan from cutting the authentication short. */
	if (wifi_scanner_hold(self->scanner, rescan_ready, self))
		rescan_ready(self);
}

gboolean
connector_rescan_bss(WifiConnector *self)
{
	const WifiBss *bss = self->cur->bss;
	g_autoptr(WifiScanParams) params = wifi_scan_params_new();
	g_autoptr(GBytes) ssid = g_bytes_new(bss->ies.ssid, bss->ies.ssid_len);
	guint32 freq = bss->freq;
	gchar addr[JOIND_MAC_STRING_LEN];

	if (self->rescans >= WIFI_RESCAN_TRIES || self->rescan != NULL)
		return FALSE;
	self->rescans++;
	wifi_iface_info(self->iface,
	                "the kernel no longer knows %s: scanning %u MHz for it (%u of %u), "
	                "then authenticating again",
	                joind_mac_to_string(bss->bssid, addr), freq, self->rescans,
	                WIFI_RESCAN_TRIES);
	params->freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_array_append_val(params->freqs, freq);
	params->passive = self->rescans == 2;
	if (!params->passive)
		wifi_scan_params_add_ssid(params, ssid);
	self->rescan = g_cancellable_new();
	/* The attempt's own hold would keep its scan waiting. */
	wifi_scanner_release(self->scanner);
	wifi_scanner_scan(self->scanner, g_steal_pointer(&params), "the BSS expired", self->rescan,
	                  on_rescanned, self);
	return TRUE;
}

void
connector_rescan_cancel(WifiConnector *self)
{
	if (self->rescan != NULL)
		g_cancellable_cancel(self->rescan);
	g_clear_object(&self->rescan);
}
