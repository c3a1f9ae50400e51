/* scan.h - the one owner of scanning on a station interface.
 *
 * Every scan of the interface goes through its WifiScanner: a request that
 * a running scan already covers joins it (both callers get the same
 * results); any other waits and is merged with the other waiting requests
 * into the next scan. A scan some other program started is waited out
 * (its results are used) instead of colliding with it (EBUSY). A scan the
 * kernel never reports the end of (a lost event) fails after a bound set
 * from the number of channels it covers, and the next request scans anew.
 */
#pragma once

#include <gio/gio.h>

#include "bss.h"
#include "iface.h"

G_BEGIN_DECLS

typedef struct _WifiScanner WifiScanner;

typedef struct {
	GPtrArray *ssids; /* GBytes: SSIDs to probe for (hidden networks); may be empty */
	GArray *freqs;    /* guint32 MHz; NULL scans every usable frequency */
	/* No probe requests: the radio dwells on each channel for beacons,
	 * which it sends itself even while the access point's daemon is too
	 * busy to answer a probe (an active scan's dwell is shorter than a
	 * beacon interval). Merged with an active request, the scan probes. */
	gboolean passive;
} WifiScanParams;

WifiScanParams *wifi_scan_params_new(void);
void wifi_scan_params_free(WifiScanParams *params);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiScanParams, wifi_scan_params_free)
void wifi_scan_params_add_ssid(WifiScanParams *params, GBytes *ssid);
/* Does a scan with params a find everything one with b would? */
gboolean wifi_scan_params_covers(const WifiScanParams *a, const WifiScanParams *b);

/* Results after a scan. bsses: WifiBss seen by it. scanned_freqs: what it
 * covered (NULL: every frequency). authoritative: TRUE when it was joind's
 * own scan, so a BSS on a scanned frequency that is missing is gone. */
typedef void (*WifiScanResultsFunc)(GPtrArray *bsses, const GArray *scanned_freqs,
                                    gboolean authoritative, gpointer user_data);
typedef void (*WifiScanningFunc)(gboolean scanning, gpointer user_data);

WifiScanner *wifi_scanner_new(WifiIface *iface, WifiScanResultsFunc results,
                              WifiScanningFunc scanning, gpointer user_data);
/* Fails the waiting requests with JOIND_ERROR_ABORTED. */
void wifi_scanner_free(WifiScanner *self);

/* Completes when a scan covering params has delivered its results (after
 * the results callback ran), or fails (JOIND_ERROR_ABORTED: the kernel
 * aborted it; JOIND_ERROR_BUSY: the radio stayed busy; JOIND_ERROR_FAILED:
 * refused, or no end within the bound). why is for logs ("periodic",
 * "D-Bus"). */
void wifi_scanner_scan(WifiScanner *self, WifiScanParams *params, const gchar *why,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean wifi_scanner_scan_finish(WifiScanner *self, GAsyncResult *result, GError **error);

/* The radio is wanted for a connection attempt: mac80211 cuts a scan short
 * for an authentication, and the attempt then finds neither the scan's
 * table nor, often, the access point's answer. Returns TRUE when no scan
 * is under way (the hold is granted at once); otherwise ready runs once
 * the scan under way has ended, ahead of any scan waiting to start. While
 * held or waiting, scan requests wait (they join the next scan). Asking
 * again while waiting replaces ready. */
typedef void (*WifiScannerReadyFunc)(gpointer user_data);
gboolean wifi_scanner_hold(WifiScanner *self, WifiScannerReadyFunc ready, gpointer user_data);
/* Ends a hold (granted or waiting); waiting scan requests start. */
void wifi_scanner_release(WifiScanner *self);
/* Feed nl80211 scan events (TRIGGER_SCAN, NEW_SCAN_RESULTS, SCAN_ABORTED)
 * for this interface. */
void wifi_scanner_handle_event(WifiScanner *self, guint8 cmd, struct nlattr **attrs);

/* Events may have been lost: a scan waiting for its end reads the
 * results the kernel holds now. */
void wifi_scanner_resync(WifiScanner *self);

/* Number of scans this scanner triggered (for tests and benchmarks). */
guint wifi_scanner_get_n_triggered(WifiScanner *self);

G_END_DECLS
