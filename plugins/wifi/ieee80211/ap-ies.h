/* ap-ies.h - what an access point says about itself (IEEE 802.11-2020
 * 9.3.3.2 and 9.3.3.10): its beacon, split where the kernel inserts the
 * TIM (nl80211's BEACON_HEAD and BEACON_TAIL), and its probe responses,
 * which carry the same elements without the TIM. Pure octets: the RSNE
 * and RSNXE are written by the caller (the handshake room's
 * wifi_rsne_write()) and passed in whole.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_AP_BEACON_INTERVAL 100 /* TUs, as hostapd and iwd */
#define WIFI_AP_MAX_RATES       12

typedef struct {
	guint8 bssid[6];
	const guint8 *ssid;
	gsize ssid_len;   /* 1..32 */
	gboolean hidden;  /* beacons carry an empty SSID; probes must name it */
	guint8 channel;   /* the DS Parameter Set's */
	gboolean privacy; /* RSN: the Privacy capability bit */
	/* Supported rates in 500 kb/s units, basic ones with bit 7 set; the
	 * first 8 go into Supported Rates, the rest into Extended. */
	guint8 rates[WIFI_AP_MAX_RATES];
	guint n_rates;
	/* Whole elements, or NULL/0. */
	const guint8 *rsne;
	gsize rsne_len;
	const guint8 *rsnxe;
	gsize rsnxe_len;
	/* The Extended Capabilities body (octets), or 0 long. */
	const guint8 *ext_caps;
	gsize ext_caps_len;
} WifiApIes;

/* The 802.11b/g rates of a 2.4 GHz AP with 1, 2, 5.5 and 11 Mb/s basic
 * (every client joins), or the OFDM rates with 6, 12, 24 basic (5 GHz). */
void wifi_ap_ies_default_rates(WifiApIes *ies, gboolean five_ghz);

/* The capability information field (ESS, short preamble and slot time,
 * Privacy when RSN). */
guint16 wifi_ap_capabilities(const WifiApIes *ies);

/* The beacon's MAC header, fixed fields, SSID, Supported Rates and DS
 * Parameter Set: NL80211_ATTR_BEACON_HEAD. */
GBytes *wifi_ap_beacon_head(const WifiApIes *ies);
/* The elements after the TIM: RSNE, Extended Supported Rates, Extended
 * Capabilities, RSNXE: NL80211_ATTR_BEACON_TAIL. */
GBytes *wifi_ap_beacon_tail(const WifiApIes *ies);
/* A probe response to the station da: the whole frame, SSID named even
 * when hidden. */
GBytes *wifi_ap_probe_response(const WifiApIes *ies, const guint8 da[6]);

/* Whether a probe request's SSID element (body, len 0 for the wildcard)
 * asks for this AP: the wildcard (not when hidden) or the SSID itself. */
gboolean wifi_ap_probe_matches(const WifiApIes *ies, const guint8 *ssid, gsize ssid_len);

G_END_DECLS
