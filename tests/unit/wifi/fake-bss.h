/* fake-bss.h - scan results as the kernel dumps them (GET_SCAN), for the
 * scanner's and the station's tests: an NL80211_ATTR_BSS nest with the
 * BSSID, frequency, signal, capability, the elements a beacon carries and
 * when the BSS was last seen. */
#pragma once

#include "fake-nl.h"

typedef struct {
	guint8 last;         /* last byte of the BSSID 02:00:00:00:hh:xx */
	guint8 high;         /* its byte before (hh, 0 unless > 256 BSSes) */
	guint32 freq;        /* MHz */
	gint signal_mbm;     /* 100 * dBm */
	const gchar *ssid;   /* "" for a hidden network's beacon */
	gboolean psk;        /* an RSN element with WPA2-PSK; else open */
	guint64 last_seen;   /* NL80211_BSS_LAST_SEEN_BOOTTIME (ns); 0: none */
	guint32 seen_ms_ago; /* NL80211_BSS_SEEN_MS_AGO, sent when last_seen is 0 */
	gboolean no_ies;     /* leave the elements out (a malformed entry) */
} FakeBss;

/* CLOCK_BOOTTIME now, in ns (the clock of LAST_SEEN_BOOTTIME). */
guint64 fake_bss_now_ns(void);
/* A dump entry (a GET_SCAN reply message) for bss. */
struct nl_msg *fake_bss_entry(const FakeBss *bss);
/* Answers the GET_SCAN dump req with n entries, then ends it (error 0). */
void fake_bss_answer_dump(FakeNl *fake, FakeNlRequest *req, const FakeBss *bsses, guint n);
/* A whole scan of interface 7 as the kernel runs it: ACKs the pending
 * TRIGGER_SCAN, sends NEW_SCAN_RESULTS to nl's listeners and answers the
 * dump that follows with n entries. */
void fake_bss_complete_scan(FakeNl *fake, WifiNl *nl, const FakeBss *bsses, guint n);
