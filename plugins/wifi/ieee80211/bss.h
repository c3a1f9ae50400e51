/* bss.h - one access point (BSS) as a scan reported it. */
#pragma once

#include <glib.h>
#include <netlink/attr.h>

#include "ie.h"
#include "joind-station.h"

G_BEGIN_DECLS

typedef struct {
	gint refcount;
	guint8 bssid[6];
	guint32 freq;         /* MHz */
	gint signal;          /* 100 * dBm */
	guint16 capability;   /* Capability Information field */
	guint64 last_seen_ns; /* CLOCK_BOOTTIME, 0 when the kernel did not say */
	guint32 seen_ms_ago;
	gboolean from_probe_response;
	GBytes *ie_data; /* the elements as received (connect needs RSN etc.) */
	guint misses;    /* joind's own scans in a row that did not see it */
	WifiIes ies;
	JoindNetworkType type;
} WifiBss;

#define WIFI_CAPABILITY_ESS     (1u << 0)
#define WIFI_CAPABILITY_PRIVACY (1u << 4)

WifiBss *wifi_bss_ref(WifiBss *self);
void wifi_bss_unref(WifiBss *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiBss, wifi_bss_unref)

/* From the nested NL80211_BSS_* attributes of a GET_SCAN dump entry. Fails
 * for entries without BSSID or frequency, with elements that do not parse,
 * or with a security setting joind cannot name. */
WifiBss *wifi_bss_new_from_nl(struct nlattr *bss_attr, GError **error);
/* From parts (tests and benchmarks). */
WifiBss *wifi_bss_new(const guint8 *bssid, guint32 freq, gint signal, guint16 capability,
                      const guint8 *ies, gsize ies_len, GError **error);

/* The network type a BSS belongs to. RSN AKMs decide first: PSK (for PSK,
 * SAE or both, as iwd's Type "psk"), 802.1X, open for OWE (as iwd);
 * then the WPA element; then the Privacy bit (WEP); else open. FALSE when
 * the BSS offers only AKMs joind does not know. */
gboolean wifi_security_classify(const WifiIes *ies, guint16 capability, JoindNetworkType *type);

/* Network1.Security of a network of type whose BSSes offer akms (WifiAkm
 * bits, RSN and WPA together) and all require MFP (mfp_required):
 * "wpa2-psk", "wpa3-sae", "wpa2-wpa3", "wpa2-enterprise",
 * "wpa3-enterprise" (802.1X-SHA256 with MFP required),
 * "wpa3-enterprise-192" (Suite B 192), "owe" for an open network whose
 * BSSes offer OWE (an OWE transition pair among them), else the type's
 * name. */
const gchar *wifi_security_name(JoindNetworkType type, guint32 akms, gboolean mfp_required);

/* One entry of a BSS table per BSSID, SSID and network type (cfg80211
 * keeps a hidden AP's beacon and its probe responses as two entries with
 * one BSSID: the SSID tells them apart): a GHashTable's hash and equal
 * functions over WifiBss, so that the BSS is its own key. */
guint wifi_bss_entry_hash(gconstpointer bss);
gboolean wifi_bss_entry_equal(gconstpointer a, gconstpointer b);

/* Whether this BSS hides its SSID (beacon with an empty or zeroed SSID). */
gboolean wifi_bss_is_hidden(const WifiBss *self);

G_END_DECLS
