/* ie.c - IEEE 802.11 information element parsers (IEEE 802.11-2020 9.4.2).
 *
 * Every reader checks the remaining length before it reads; a "cursor"
 * struct keeps that discipline in one place.
 */
#include "ie.h"

#include <string.h>

G_DEFINE_QUARK(wifi - ie - error - quark, wifi_ie_error)

static const guint8 oui_ieee[3] = {0x00, 0x0f, 0xac};
static const guint8 oui_msft[3] = {0x00, 0x50, 0xf2};
static const guint8 oui_wfa[3] = {0x50, 0x6f, 0x9a};

#define WFA_TYPE_OWE_TRANSITION 0x1c
#define MSFT_TYPE_WPA           0x01

/* ------------------------------------------------------------ cursor ---- */

typedef struct {
	const guint8 *p;
	gsize left;
	const gchar *what; /* element name for error messages */
} Cursor;

static gboolean
cursor_need(Cursor *c, gsize n, const gchar *field, GError **error)
{
	if (c->left >= n)
		return TRUE;
	g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED,
	            "%s element truncated in %s (%zu of %zu octets)", c->what, field, c->left, n);
	return FALSE;
}

static guint16
cursor_u16(Cursor *c)
{
	guint16 v = (guint16)(c->p[0] | (c->p[1] << 8));

	c->p += 2;
	c->left -= 2;
	return v;
}

static const guint8 *
cursor_take(Cursor *c, gsize n)
{
	const guint8 *p = c->p;

	c->p += n;
	c->left -= n;
	return p;
}

static gboolean
invalid(GError **error, const gchar *what, const gchar *reason)
{
	g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID, "%s element: %s", what, reason);
	return FALSE;
}

static gboolean
exact_length(gsize len, gsize want, const gchar *what, GError **error)
{
	if (len == want)
		return TRUE;
	g_set_error(error, WIFI_IE_ERROR,
	            len < want ? WIFI_IE_ERROR_TRUNCATED : WIFI_IE_ERROR_INVALID,
	            "%s element has %zu octets, expected %zu", what, len, want);
	return FALSE;
}

/* -------------------------------------------------------------- iter ---- */

void
wifi_ie_iter_init(WifiIeIter *iter, const guint8 *data, gsize len)
{
	iter->pos = data;
	iter->end = data != NULL ? data + len : NULL;
}

gboolean
wifi_ie_iter_next(WifiIeIter *iter, guint *id, const guint8 **body, gsize *body_len, GError **error)
{
	gsize left = (gsize)(iter->end - iter->pos);
	guint8 elen;

	if (iter->pos == NULL || left == 0)
		return FALSE;
	if (left < 2) {
		g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED,
		            "element list ends inside an element header");
		return FALSE;
	}
	elen = iter->pos[1];
	if (left - 2 < elen) {
		g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED,
		            "element %u claims %u octets but only %zu remain", iter->pos[0], elen,
		            left - 2);
		return FALSE;
	}
	*id = iter->pos[0];
	*body = iter->pos + 2;
	*body_len = elen;
	iter->pos += 2 + elen;
	if (*id == WIFI_IE_EXTENSION) {
		if (elen == 0) {
			g_set_error_literal(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID,
			                    "extension element without an extension id");
			return FALSE;
		}
		*id = WIFI_IE_EXT((*body)[0]);
		*body += 1;
		*body_len -= 1;
	}
	return TRUE;
}

const guint8 *
wifi_ie_find(const guint8 *data, gsize len, guint want, gsize *body_len)
{
	WifiIeIter iter;
	const guint8 *body;
	gsize blen;
	guint id;

	wifi_ie_iter_init(&iter, data, len);
	while (wifi_ie_iter_next(&iter, &id, &body, &blen, NULL)) {
		if (id == want) {
			*body_len = blen;
			return body;
		}
	}
	return NULL;
}

/* ------------------------------------------------------- RSN and WPA ---- */

/* Maps a 4-octet suite selector to a bit; FALSE for one we do not know. */
static gboolean
suite_to_cipher(const guint8 *s, const guint8 *oui, guint32 *bit)
{
	if (memcmp(s, oui, 3) != 0 || s[3] > 13 || s[3] == 3)
		return FALSE;
	*bit = 1u << s[3];
	return TRUE;
}

static gboolean
suite_to_akm(const guint8 *s, gboolean wpa, guint32 *bit)
{
	if (wpa) {
		if (memcmp(s, oui_msft, 3) != 0 || (s[3] != 1 && s[3] != 2))
			return FALSE;
		*bit = WIFI_AKM_BIT(s[3]);
		return TRUE;
	}
	if (memcmp(s, oui_ieee, 3) == 0 && s[3] >= 1 && s[3] <= 25) {
		*bit = WIFI_AKM_BIT(s[3]);
		return TRUE;
	}
	if (memcmp(s, oui_wfa, 3) == 0 && (s[3] == 1 || s[3] == 2)) {
		*bit = s[3] == 1 ? WIFI_AKM_OSEN : WIFI_AKM_DPP;
		return TRUE;
	}
	return FALSE;
}

/* A suite list: a 2-octet count, then count selectors. A count of zero is
 * not valid (the field is omitted instead). */
static gboolean
parse_suite_list(Cursor *c, const gchar *field, gboolean akm, gboolean wpa, guint32 *bits,
                 guint *unknown, GError **error)
{
	const guint8 *oui = wpa ? oui_msft : oui_ieee;
	guint16 count;

	if (!cursor_need(c, 2, field, error))
		return FALSE;
	count = cursor_u16(c);
	if (count == 0)
		return invalid(error, c->what,
		               akm ? "AKM suite count is 0" : "pairwise count is 0");
	if (!cursor_need(c, (gsize)count * 4, field, error))
		return FALSE;
	*bits = 0;
	for (guint i = 0; i < count; i++) {
		const guint8 *s = cursor_take(c, 4);
		guint32 bit;
		gboolean known = akm ? suite_to_akm(s, wpa, &bit) : suite_to_cipher(s, oui, &bit);

		if (known)
			*bits |= bit;
		else
			(*unknown)++;
	}
	return TRUE;
}

static gboolean
parse_group_cipher(Cursor *c, gboolean wpa, WifiRsnInfo *info, GError **error)
{
	guint32 bit;

	if (!cursor_need(c, 4, "group cipher", error))
		return FALSE;
	if (!suite_to_cipher(cursor_take(c, 4), wpa ? oui_msft : oui_ieee, &bit)) {
		/* An unknown group cipher leaves nothing to talk to the BSS with. */
		info->group_cipher = 0;
		info->unknown_ciphers++;
		return TRUE;
	}
	if (bit == WIFI_CIPHER_USE_GROUP || (bit & WIFI_CIPHERS_BIP))
		return invalid(error, c->what, "group cipher is not a data cipher");
	info->group_cipher = bit;
	return TRUE;
}

/* After the AKM list: capabilities, PMKIDs, group management cipher. Each
 * may be omitted together with everything after it. */
static gboolean
parse_rsn_tail(Cursor *c, WifiRsnInfo *info, GError **error)
{
	guint16 n;
	guint32 bit;

	if (c->left == 0)
		return TRUE;
	if (!cursor_need(c, 2, "capabilities", error))
		return FALSE;
	info->capabilities = cursor_u16(c);
	if ((info->capabilities & WIFI_RSN_CAP_MFPR) && !(info->capabilities & WIFI_RSN_CAP_MFPC))
		return invalid(error, c->what, "MFP required but not capable");
	if (c->left == 0)
		return TRUE;
	if (!cursor_need(c, 2, "PMKID count", error))
		return FALSE;
	n = cursor_u16(c);
	if (!cursor_need(c, (gsize)n * 16, "PMKID list", error))
		return FALSE;
	cursor_take(c, (gsize)n * 16);
	info->n_pmkids = n;
	if (c->left == 0)
		return TRUE;
	if (!cursor_need(c, 4, "group management cipher", error))
		return FALSE;
	if (!suite_to_cipher(cursor_take(c, 4), oui_ieee, &bit)) {
		info->unknown_ciphers++;
		return TRUE;
	}
	if (!(bit & WIFI_CIPHERS_BIP))
		return invalid(error, c->what, "group management cipher is not a BIP cipher");
	info->group_mgmt_cipher = bit;
	/* Anything after this is a later amendment's; it is skipped. */
	return TRUE;
}

static gboolean
parse_rsn_common(Cursor *c, gboolean wpa, WifiRsnInfo *info, GError **error)
{
	memset(info, 0, sizeof(*info));
	/* Defaults for fields the element omits (9.4.2.24.1). */
	info->group_cipher = wpa ? WIFI_CIPHER_TKIP : WIFI_CIPHER_CCMP;
	info->pairwise_ciphers = info->group_cipher;
	info->akms = WIFI_AKM_8021X;

	if (!cursor_need(c, 2, "version", error))
		return FALSE;
	info->version = cursor_u16(c);
	if (info->version != 1)
		return invalid(error, c->what, "unsupported version");
	if (c->left == 0)
		return TRUE;
	if (!parse_group_cipher(c, wpa, info, error))
		return FALSE;
	if (c->left == 0)
		return TRUE;
	if (!parse_suite_list(c, "pairwise ciphers", FALSE, wpa, &info->pairwise_ciphers,
	                      &info->unknown_ciphers, error))
		return FALSE;
	if (c->left == 0)
		return TRUE;
	if (!parse_suite_list(c, "AKM suites", TRUE, wpa, &info->akms, &info->unknown_akms, error))
		return FALSE;
	if (wpa) {
		/* The WPA element may carry capabilities; nothing more. */
		if (c->left >= 2)
			info->capabilities = cursor_u16(c);
		return TRUE;
	}
	return parse_rsn_tail(c, info, error);
}

gboolean
wifi_ie_parse_rsn(const guint8 *body, gsize len, WifiRsnInfo *info, GError **error)
{
	Cursor c = {body, len, "RSN"};

	return parse_rsn_common(&c, FALSE, info, error);
}

gboolean
wifi_ie_parse_wpa(const guint8 *body, gsize len, WifiRsnInfo *info, GError **error)
{
	Cursor c = {body, len, "WPA"};

	return parse_rsn_common(&c, TRUE, info, error);
}

gboolean
wifi_ie_parse_rsnx(const guint8 *body, gsize len, guint32 *bits, GError **error)
{
	gsize field_len;

	if (len < 1)
		return exact_length(len, 1, "RSNX", error);
	/* Bits 0-3 of the first octet: length of the field in octets, minus 1. */
	field_len = (body[0] & 0x0f) + 1u;
	if (field_len > len) {
		g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_TRUNCATED,
		            "RSNX element announces %zu octets but has %zu", field_len, len);
		return FALSE;
	}
	*bits = 0;
	for (gsize i = 0; i < field_len && i < 4; i++)
		*bits |= (guint32)body[i] << (8 * i);
	return TRUE;
}

/* --------------------------------------------------- rates and PHYs ---- */

gboolean
wifi_ie_parse_rates(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	guint8 max_rate = 0;
	gboolean h2e_only = FALSE;

	if (len == 0)
		return invalid(error, "Supported Rates", "empty");
	for (gsize i = 0; i < len; i++) {
		guint8 rate = body[i] & 0x7f;
		gboolean basic = (body[i] & 0x80) != 0;

		/* Membership selectors (table 9-80) ride in the basic set. */
		if (basic && rate >= 122) {
			h2e_only |= rate == 123;
			continue;
		}
		if (rate == 0)
			return invalid(error, "Supported Rates", "rate 0");
		max_rate = MAX(max_rate, rate);
	}
	/* Applied only once the whole element is known good. */
	ies->max_rate = MAX(ies->max_rate, max_rate);
	ies->sae_h2e_only |= h2e_only;
	return TRUE;
}

/* Spatial streams from an HT RX MCS bitmask: MCS 0-7 stream 1, 8-15 stream
 * 2, and so on. */
static guint8
ht_streams(const guint8 *mcs)
{
	guint8 n = 0;

	for (guint i = 0; i < 4; i++) {
		if (mcs[i] != 0)
			n = i + 1;
	}
	return n;
}

gboolean
wifi_ie_parse_ht(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (!exact_length(len, 26, "HT Capabilities", error))
		return FALSE;
	ies->ht_cap_info = (guint16)(body[0] | (body[1] << 8));
	ies->ht_streams = ht_streams(body + 3);
	ies->has_ht = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_ht_op(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	guint8 offset;

	if (!exact_length(len, 22, "HT Operation", error))
		return FALSE;
	offset = body[1] & 0x03;
	if (offset == 2)
		return invalid(error, "HT Operation", "reserved secondary channel offset");
	ies->ht_primary_channel = body[0];
	/* 40 MHz needs both a secondary channel and the STA width bit. */
	ies->ht_width = (offset != 0 && (body[1] & 0x04)) ? WIFI_CHAN_WIDTH_40 : WIFI_CHAN_WIDTH_20;
	ies->has_ht_op = TRUE;
	return TRUE;
}

/* A 16-bit MCS map holds two bits per stream; 3 means not supported. */
static guint8
mcs_map_streams(guint16 map)
{
	guint8 n = 0;

	for (guint i = 0; i < 8; i++) {
		if (((map >> (2 * i)) & 3) != 3)
			n = i + 1;
	}
	return n;
}

gboolean
wifi_ie_parse_vht(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (!exact_length(len, 12, "VHT Capabilities", error))
		return FALSE;
	ies->vht_cap_info = (guint32)body[0] | (guint32)body[1] << 8 | (guint32)body[2] << 16 |
	                    (guint32)body[3] << 24;
	ies->vht_streams = mcs_map_streams((guint16)(body[4] | (body[5] << 8)));
	ies->has_vht = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_vht_op(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (!exact_length(len, 5, "VHT Operation", error))
		return FALSE;
	switch (body[0]) {
	case 0:
		ies->vht_width = WIFI_CHAN_WIDTH_40; /* 20 or 40: the HT element says */
		break;
	case 1:
		/* 160 MHz is signalled by a second segment 8 channels away. */
		ies->vht_width = (body[2] != 0 && ABS((gint)body[2] - (gint)body[1]) == 8)
		                         ? WIFI_CHAN_WIDTH_160
		                         : WIFI_CHAN_WIDTH_80;
		break;
	case 2:
	case 3: /* deprecated 160 and 80+80 encodings */
		ies->vht_width = WIFI_CHAN_WIDTH_160;
		break;
	default:
		return invalid(error, "VHT Operation", "reserved channel width");
	}
	ies->vht_center_seg0 = body[1];
	ies->vht_center_seg1 = body[2];
	ies->has_vht_op = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_he(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	Cursor c = {body, len, "HE Capabilities"};
	const guint8 *phy;
	gsize mcs_len = 4;

	if (!cursor_need(&c, 6 + 11, "capabilities", error))
		return FALSE;
	cursor_take(&c, 6);
	phy = cursor_take(&c, 11);
	/* Channel width set bits 2 and 3 (of PHY octet 0, from bit 1) add the
	 * 160 and 80+80 MHz MCS maps. */
	if (phy[0] & (1u << 3))
		mcs_len += 4;
	if (phy[0] & (1u << 4))
		mcs_len += 4;
	if (!cursor_need(&c, mcs_len, "MCS and NSS set", error))
		return FALSE;
	ies->he_streams = mcs_map_streams((guint16)(c.p[0] | (c.p[1] << 8)));
	ies->has_he = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_he_op(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	Cursor c = {body, len, "HE Operation"};
	guint32 params;
	gsize extra = 0;

	if (!cursor_need(&c, 6, "parameters", error))
		return FALSE;
	params = (guint32)body[0] | (guint32)body[1] << 8 | (guint32)body[2] << 16;
	if (params & (1u << 14)) /* VHT Operation Information present */
		extra += 3;
	if (params & (1u << 15)) /* Co-Hosted BSS */
		extra += 1;
	if (params & (1u << 17)) /* 6 GHz Operation Information */
		extra += 5;
	if (!cursor_need(&c, 6 + extra, "optional fields", error))
		return FALSE;
	ies->has_he_op = TRUE;
	return TRUE;
}

/* ---------------------------------------------------- small elements ---- */

gboolean
wifi_ie_parse_bss_load(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (!exact_length(len, 5, "BSS Load", error))
		return FALSE;
	ies->bss_load_stations = (guint16)(body[0] | (body[1] << 8));
	ies->bss_load_utilization = body[2];
	ies->bss_load_admission_capacity = (guint16)(body[3] | (body[4] << 8));
	ies->has_bss_load = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_mde(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (!exact_length(len, 3, "Mobility Domain", error))
		return FALSE;
	ies->mdid = (guint16)(body[0] | (body[1] << 8));
	ies->ft_capability = body[2];
	ies->has_mde = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_rm(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (!exact_length(len, 5, "RM Enabled Capabilities", error))
		return FALSE;
	memcpy(ies->rm_caps, body, 5);
	ies->has_rm = TRUE;
	return TRUE;
}

gboolean
wifi_ie_parse_ext_caps(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (len == 0)
		return invalid(error, "Extended Capabilities", "empty");
	/* Bits past what we keep are capabilities we have no use for. */
	ies->ext_caps_len = (guint8)MIN(len, sizeof(ies->ext_caps));
	memset(ies->ext_caps, 0, sizeof(ies->ext_caps));
	memcpy(ies->ext_caps, body, ies->ext_caps_len);
	return TRUE;
}

gboolean
wifi_ie_parse_owe_transition(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	Cursor c = {body, len, "OWE Transition"};
	guint8 ssid_len;

	if (!cursor_need(&c, 7, "BSSID", error))
		return FALSE;
	memcpy(ies->owe_bssid, cursor_take(&c, 6), 6);
	ssid_len = *cursor_take(&c, 1);
	if (ssid_len > 32)
		return invalid(error, c.what, "SSID longer than 32 octets");
	if (!cursor_need(&c, ssid_len, "SSID", error))
		return FALSE;
	memcpy(ies->owe_ssid, cursor_take(&c, ssid_len), ssid_len);
	ies->owe_ssid_len = ssid_len;
	ies->owe_band = ies->owe_channel = 0;
	if (c.left == 2) {
		ies->owe_band = c.p[0];
		ies->owe_channel = c.p[1];
	} else if (c.left != 0) {
		return invalid(error, c.what, "band and channel must come together");
	}
	ies->has_owe_transition = TRUE;
	return TRUE;
}

gboolean
wifi_ssid_is_hidden(const guint8 *ssid, gsize len)
{
	for (gsize i = 0; i < len; i++) {
		if (ssid[i] != 0)
			return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------- lists ---- */

/* Records a single-instance element, failing on a second one: two RSN
 * elements (say) leave the BSS's security ambiguous. */
static gboolean
first_instance(gboolean *seen, const gchar *what, GError **error)
{
	if (*seen)
		return invalid(error, what, "appears twice");
	*seen = TRUE;
	return TRUE;
}

static gboolean
parse_vendor(const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	if (len < 4)
		return TRUE; /* a vendor element we cannot even name: not ours */
	if (memcmp(body, oui_msft, 3) == 0 && body[3] == MSFT_TYPE_WPA) {
		gboolean seen = ies->has_wpa;

		if (!first_instance(&seen, "WPA", error) ||
		    !wifi_ie_parse_wpa(body + 4, len - 4, &ies->wpa, error))
			return FALSE;
		ies->has_wpa = TRUE;
	} else if (memcmp(body, oui_wfa, 3) == 0 && body[3] == WFA_TYPE_OWE_TRANSITION) {
		gboolean seen = ies->has_owe_transition;

		if (!first_instance(&seen, "OWE Transition", error))
			return FALSE;
		return wifi_ie_parse_owe_transition(body + 4, len - 4, ies, error);
	}
	return TRUE;
}

/* Elements that decide identity and security: errors fail the list. */
static gboolean
parse_strict(guint id, const guint8 *body, gsize len, WifiIes *ies, gboolean *handled,
             GError **error)
{
	gboolean seen;

	*handled = TRUE;
	switch (id) {
	case WIFI_IE_SSID:
		if (!first_instance(&ies->has_ssid, "SSID", error))
			return FALSE;
		if (len > 32)
			return invalid(error, "SSID", "longer than 32 octets");
		memcpy(ies->ssid, body, len);
		ies->ssid_len = (guint8)len;
		return TRUE;
	case WIFI_IE_RSN:
		if (!first_instance(&ies->has_rsn, "RSN", error))
			return FALSE;
		return wifi_ie_parse_rsn(body, len, &ies->rsn, error);
	case WIFI_IE_RSNX:
		if (!first_instance(&ies->has_rsnx, "RSNX", error))
			return FALSE;
		return wifi_ie_parse_rsnx(body, len, &ies->rsnx, error);
	case WIFI_IE_MOBILITY_DOMAIN:
		seen = ies->has_mde;
		return first_instance(&seen, "Mobility Domain", error) &&
		       wifi_ie_parse_mde(body, len, ies, error);
	case WIFI_IE_VENDOR:
		return parse_vendor(body, len, ies, error);
	default:
		*handled = FALSE;
		return TRUE;
	}
}

/* Informational elements: an error only drops the element. */
static gboolean
parse_lenient(guint id, const guint8 *body, gsize len, WifiIes *ies, GError **error)
{
	switch (id) {
	case WIFI_IE_SUPPORTED_RATES:
	case WIFI_IE_EXT_SUPPORTED_RATES:
		return wifi_ie_parse_rates(body, len, ies, error);
	case WIFI_IE_DS_PARAMETER:
		if (!exact_length(len, 1, "DS Parameter Set", error))
			return FALSE;
		ies->ds_channel = body[0];
		return TRUE;
	case WIFI_IE_BSS_LOAD:
		return wifi_ie_parse_bss_load(body, len, ies, error);
	case WIFI_IE_HT_CAPABILITIES:
		return wifi_ie_parse_ht(body, len, ies, error);
	case WIFI_IE_HT_OPERATION:
		return wifi_ie_parse_ht_op(body, len, ies, error);
	case WIFI_IE_VHT_CAPABILITIES:
		return wifi_ie_parse_vht(body, len, ies, error);
	case WIFI_IE_VHT_OPERATION:
		return wifi_ie_parse_vht_op(body, len, ies, error);
	case WIFI_IE_HE_CAPABILITIES:
		return wifi_ie_parse_he(body, len, ies, error);
	case WIFI_IE_HE_OPERATION:
		return wifi_ie_parse_he_op(body, len, ies, error);
	case WIFI_IE_RM_ENABLED_CAPABILITIES:
		return wifi_ie_parse_rm(body, len, ies, error);
	case WIFI_IE_EXTENDED_CAPABILITIES:
		return wifi_ie_parse_ext_caps(body, len, ies, error);
	default:
		return TRUE;
	}
}

gboolean
wifi_ies_parse(const guint8 *data, gsize len, WifiIes *ies, GError **error)
{
	WifiIeIter iter;
	GError *local = NULL;
	const guint8 *body;
	gsize blen;
	guint id;

	memset(ies, 0, sizeof(*ies));
	wifi_ie_iter_init(&iter, data, len);
	while (wifi_ie_iter_next(&iter, &id, &body, &blen, &local)) {
		gboolean handled;

		if (!parse_strict(id, body, blen, ies, &handled, error))
			return FALSE;
		if (handled)
			continue;
		if (!parse_lenient(id, body, blen, ies, NULL))
			ies->n_ignored++;
	}
	if (local != NULL) {
		g_propagate_error(error, local);
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------- names ---- */

const gchar *
wifi_cipher_to_string(guint32 cipher_bit)
{
	static const gchar *const names[] = {"use-group",    "WEP-40",      "TKIP",     NULL,
	                                     "CCMP",         "WEP-104",     "BIP-CMAC", "no-group",
	                                     "GCMP",         "GCMP-256",    "CCMP-256", "BIP-GMAC",
	                                     "BIP-GMAC-256", "BIP-CMAC-256"};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		if (cipher_bit == 1u << i && names[i] != NULL)
			return names[i];
	}
	return "unknown";
}
