/* ap-ies.c - an access point's beacon and probe response (see ap-ies.h). */
#include "ap-ies.h"

#include <string.h>

#include "ie.h"
#include "mgmt.h"

#define CAP_ESS             0x0001
#define CAP_PRIVACY         0x0010
#define CAP_SHORT_PREAMBLE  0x0020
#define CAP_SHORT_SLOT_TIME 0x0400
#define SUPPORTED_RATES_MAX 8

void
wifi_ap_ies_default_rates(WifiApIes *ies, gboolean five_ghz)
{
	/* 500 kb/s units; bit 7 marks a basic rate. */
	static const guint8 b_g[] = {0x82, 0x84, 0x8b, 0x96, 12, 18, 24, 36, 48, 72, 96, 108};
	static const guint8 a[] = {0x8c, 18, 0x98, 36, 0xb0, 72, 96, 108};

	G_STATIC_ASSERT(sizeof(b_g) <= WIFI_AP_MAX_RATES);
	memcpy(ies->rates, five_ghz ? a : b_g, five_ghz ? sizeof(a) : sizeof(b_g));
	ies->n_rates = five_ghz ? sizeof(a) : sizeof(b_g);
}

guint16
wifi_ap_capabilities(const WifiApIes *ies)
{
	return (guint16)(CAP_ESS | CAP_SHORT_PREAMBLE | CAP_SHORT_SLOT_TIME |
	                 (ies->privacy ? CAP_PRIVACY : 0));
}

static void
append_element(GByteArray *out, guint8 id, const guint8 *body, gsize len)
{
	guint8 head[2] = {id, (guint8)len};

	g_byte_array_append(out, head, 2);
	if (len > 0)
		g_byte_array_append(out, body, (guint)len);
}

static void
append_whole(GByteArray *out, const guint8 *element, gsize len)
{
	if (element != NULL && len > 0)
		g_byte_array_append(out, element, (guint)len);
}

/* MAC header, timestamp (the kernel fills it), interval, capabilities. */
static void
append_header(GByteArray *out, const WifiApIes *ies, guint8 fc, const guint8 da[6])
{
	guint8 h[WIFI_MGMT_HEADER_LEN + 12] = {0};
	guint16 cap = wifi_ap_capabilities(ies);

	h[0] = fc;
	memcpy(h + 4, da, 6);
	memcpy(h + 10, ies->bssid, 6);
	memcpy(h + 16, ies->bssid, 6);
	h[WIFI_MGMT_HEADER_LEN + 8] = WIFI_AP_BEACON_INTERVAL & 0xff;
	h[WIFI_MGMT_HEADER_LEN + 9] = WIFI_AP_BEACON_INTERVAL >> 8;
	h[WIFI_MGMT_HEADER_LEN + 10] = (guint8)(cap & 0xff);
	h[WIFI_MGMT_HEADER_LEN + 11] = (guint8)(cap >> 8);
	g_byte_array_append(out, h, sizeof(h));
}

static void
append_head_ies(GByteArray *out, const WifiApIes *ies, gboolean name_ssid)
{
	gsize n_supported = MIN(ies->n_rates, SUPPORTED_RATES_MAX);

	append_element(out, WIFI_IE_SSID, ies->ssid, name_ssid ? ies->ssid_len : 0);
	append_element(out, WIFI_IE_SUPPORTED_RATES, ies->rates, n_supported);
	append_element(out, WIFI_IE_DS_PARAMETER, &ies->channel, 1);
}

static void
append_tail_ies(GByteArray *out, const WifiApIes *ies)
{
	append_whole(out, ies->rsne, ies->rsne_len);
	if (ies->n_rates > SUPPORTED_RATES_MAX)
		append_element(out, WIFI_IE_EXT_SUPPORTED_RATES, ies->rates + SUPPORTED_RATES_MAX,
		               ies->n_rates - SUPPORTED_RATES_MAX);
	if (ies->ext_caps_len > 0)
		append_element(out, WIFI_IE_EXTENDED_CAPABILITIES, ies->ext_caps,
		               ies->ext_caps_len);
	append_whole(out, ies->rsnxe, ies->rsnxe_len);
}

GBytes *
wifi_ap_beacon_head(const WifiApIes *ies)
{
	static const guint8 broadcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	GByteArray *out = g_byte_array_sized_new(128);

	append_header(out, ies, WIFI_MGMT_FC_SUBTYPE_BEACON, broadcast);
	append_head_ies(out, ies, !ies->hidden);
	return g_byte_array_free_to_bytes(out);
}

GBytes *
wifi_ap_beacon_tail(const WifiApIes *ies)
{
	GByteArray *out = g_byte_array_sized_new(128);

	append_tail_ies(out, ies);
	return g_byte_array_free_to_bytes(out);
}

GBytes *
wifi_ap_probe_response(const WifiApIes *ies, const guint8 da[6])
{
	GByteArray *out = g_byte_array_sized_new(256);

	append_header(out, ies, WIFI_MGMT_FC_SUBTYPE_PROBE_RESP, da);
	append_head_ies(out, ies, TRUE);
	append_tail_ies(out, ies);
	return g_byte_array_free_to_bytes(out);
}

gboolean
wifi_ap_probe_matches(const WifiApIes *ies, const guint8 *ssid, gsize ssid_len)
{
	if (ssid_len == 0)
		return !ies->hidden;
	return ssid_len == ies->ssid_len && memcmp(ssid, ies->ssid, ssid_len) == 0;
}
