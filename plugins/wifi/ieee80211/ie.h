/* ie.h - IEEE 802.11 information elements: the ones a station needs to
 * find, group, rank and later join networks.
 *
 * All parsers take the element *body* or a whole element list as (data, len)
 * and fail with WIFI_IE_ERROR on anything malformed; nothing is read beyond
 * len. wifi_ies_parse() walks a list (a beacon's or probe response's
 * elements as nl80211 reports them) and fills a WifiIes summary.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_IE_ERROR (wifi_ie_error_quark())
GQuark wifi_ie_error_quark(void);

typedef enum {
	WIFI_IE_ERROR_TRUNCATED, /* a length runs past the end of the data */
	WIFI_IE_ERROR_INVALID,   /* well-framed but not a valid element */
} WifiIeErrorCode;

/* Element IDs (IEEE 802.11-2020 table 9-92). Extended elements (ID 255)
 * are numbered WIFI_IE_EXT(extension id). */
enum {
	WIFI_IE_SSID = 0,
	WIFI_IE_SUPPORTED_RATES = 1,
	WIFI_IE_DS_PARAMETER = 3,
	WIFI_IE_BSS_LOAD = 11,
	WIFI_IE_HT_CAPABILITIES = 45,
	WIFI_IE_RSN = 48,
	WIFI_IE_EXT_SUPPORTED_RATES = 50,
	WIFI_IE_MOBILITY_DOMAIN = 54,
	WIFI_IE_HT_OPERATION = 61,
	WIFI_IE_RM_ENABLED_CAPABILITIES = 70,
	WIFI_IE_EXTENDED_CAPABILITIES = 127,
	WIFI_IE_VHT_CAPABILITIES = 191,
	WIFI_IE_VHT_OPERATION = 192,
	WIFI_IE_VENDOR = 221,
	WIFI_IE_RSNX = 244,
	WIFI_IE_EXTENSION = 255,
};
#define WIFI_IE_EXT(id)         (256u + (id))
#define WIFI_IE_HE_CAPABILITIES WIFI_IE_EXT(35)
#define WIFI_IE_HE_OPERATION    WIFI_IE_EXT(36)

/* AKM suites 00-0F-AC:n map to bit n-1; the two Wi-Fi Alliance suites that
 * matter get high bits. The WPA vendor element's two AKMs map onto the
 * RSN 802.1X and PSK bits. */
#define WIFI_AKM_BIT(n) (1u << ((n)-1))
typedef enum {
	WIFI_AKM_8021X = WIFI_AKM_BIT(1),
	WIFI_AKM_PSK = WIFI_AKM_BIT(2),
	WIFI_AKM_FT_8021X = WIFI_AKM_BIT(3),
	WIFI_AKM_FT_PSK = WIFI_AKM_BIT(4),
	WIFI_AKM_8021X_SHA256 = WIFI_AKM_BIT(5),
	WIFI_AKM_PSK_SHA256 = WIFI_AKM_BIT(6),
	WIFI_AKM_TDLS = WIFI_AKM_BIT(7),
	WIFI_AKM_SAE = WIFI_AKM_BIT(8),
	WIFI_AKM_FT_SAE = WIFI_AKM_BIT(9),
	WIFI_AKM_AP_PEERKEY = WIFI_AKM_BIT(10),
	WIFI_AKM_8021X_SUITE_B = WIFI_AKM_BIT(11),
	WIFI_AKM_8021X_SUITE_B_192 = WIFI_AKM_BIT(12),
	WIFI_AKM_FT_8021X_SHA384 = WIFI_AKM_BIT(13),
	WIFI_AKM_FILS_SHA256 = WIFI_AKM_BIT(14),
	WIFI_AKM_FILS_SHA384 = WIFI_AKM_BIT(15),
	WIFI_AKM_FT_FILS_SHA256 = WIFI_AKM_BIT(16),
	WIFI_AKM_FT_FILS_SHA384 = WIFI_AKM_BIT(17),
	WIFI_AKM_OWE = WIFI_AKM_BIT(18),
	WIFI_AKM_FT_PSK_SHA384 = WIFI_AKM_BIT(19),
	WIFI_AKM_PSK_SHA384 = WIFI_AKM_BIT(20),
	WIFI_AKM_PASN = WIFI_AKM_BIT(21),
	WIFI_AKM_FT_8021X_SHA384_2 = WIFI_AKM_BIT(22),
	WIFI_AKM_8021X_SHA384 = WIFI_AKM_BIT(23),
	WIFI_AKM_SAE_EXT_KEY = WIFI_AKM_BIT(24),
	WIFI_AKM_FT_SAE_EXT_KEY = WIFI_AKM_BIT(25),
	WIFI_AKM_OSEN = 1u << 29, /* 50-6F-9A:1 */
	WIFI_AKM_DPP = 1u << 30,  /* 50-6F-9A:2 */
} WifiAkm;

#define WIFI_AKMS_8021X                                                                        \
	(WIFI_AKM_8021X | WIFI_AKM_FT_8021X | WIFI_AKM_8021X_SHA256 | WIFI_AKM_8021X_SUITE_B | \
	 WIFI_AKM_8021X_SUITE_B_192 | WIFI_AKM_FT_8021X_SHA384 | WIFI_AKM_FILS_SHA256 |        \
	 WIFI_AKM_FILS_SHA384 | WIFI_AKM_FT_FILS_SHA256 | WIFI_AKM_FT_FILS_SHA384 |            \
	 WIFI_AKM_FT_8021X_SHA384_2 | WIFI_AKM_8021X_SHA384 | WIFI_AKM_OSEN)
#define WIFI_AKMS_PSK                                                                    \
	(WIFI_AKM_PSK | WIFI_AKM_FT_PSK | WIFI_AKM_PSK_SHA256 | WIFI_AKM_FT_PSK_SHA384 | \
	 WIFI_AKM_PSK_SHA384)
#define WIFI_AKMS_SAE \
	(WIFI_AKM_SAE | WIFI_AKM_FT_SAE | WIFI_AKM_SAE_EXT_KEY | WIFI_AKM_FT_SAE_EXT_KEY)

/* Cipher suites 00-0F-AC:n map to bit n (the WPA element's 00-50-F2:n use
 * the same numbers for the ones they share). */
typedef enum {
	WIFI_CIPHER_USE_GROUP = 1u << 0,
	WIFI_CIPHER_WEP40 = 1u << 1,
	WIFI_CIPHER_TKIP = 1u << 2,
	WIFI_CIPHER_CCMP = 1u << 4,
	WIFI_CIPHER_WEP104 = 1u << 5,
	WIFI_CIPHER_BIP_CMAC = 1u << 6,
	WIFI_CIPHER_NO_GROUP_TRAFFIC = 1u << 7,
	WIFI_CIPHER_GCMP = 1u << 8,
	WIFI_CIPHER_GCMP_256 = 1u << 9,
	WIFI_CIPHER_CCMP_256 = 1u << 10,
	WIFI_CIPHER_BIP_GMAC = 1u << 11,
	WIFI_CIPHER_BIP_GMAC_256 = 1u << 12,
	WIFI_CIPHER_BIP_CMAC_256 = 1u << 13,
} WifiCipher;

#define WIFI_CIPHERS_BIP                                                          \
	(WIFI_CIPHER_BIP_CMAC | WIFI_CIPHER_BIP_GMAC | WIFI_CIPHER_BIP_GMAC_256 | \
	 WIFI_CIPHER_BIP_CMAC_256)

/* RSN capabilities field bits. */
#define WIFI_RSN_CAP_PREAUTH       (1u << 0)
#define WIFI_RSN_CAP_MFPR          (1u << 6)
#define WIFI_RSN_CAP_MFPC          (1u << 7)
#define WIFI_RSN_CAP_SPP_AMSDU_CAP (1u << 10)
#define WIFI_RSN_CAP_EXT_KEY_ID    (1u << 13)
#define WIFI_RSN_CAP_OCVC          (1u << 14)

/* The RSN element, or the WPA vendor element in the same terms. Fields the
 * element leaves out take the standard's defaults (CCMP, 802.1X). */
typedef struct {
	guint16 version;
	guint32 group_cipher;     /* one WifiCipher bit */
	guint32 pairwise_ciphers; /* WifiCipher bits */
	guint32 akms;             /* WifiAkm bits */
	guint unknown_akms;       /* suites we do not know (kept out of akms) */
	guint unknown_ciphers;
	guint16 capabilities; /* WIFI_RSN_CAP_* */
	guint n_pmkids;
	guint32 group_mgmt_cipher; /* 0 when absent */
} WifiRsnInfo;

/* Extended RSN Capabilities (RSNXE) bits, counted from bit 0 of octet 0. */
#define WIFI_RSNX_PROTECTED_TWT (1u << 4)
#define WIFI_RSNX_SAE_H2E       (1u << 5)
#define WIFI_RSNX_SAE_PK        (1u << 6)

/* Extended Capabilities bit numbers. */
#define WIFI_EXT_CAP_BSS_TRANSITION 19
#define WIFI_EXT_CAP_INTERWORKING   31
#define WIFI_EXT_CAP_OPMODE_NOTIF   62
#define WIFI_EXT_CAP_FTM_RESPONDER  70

/* RM Enabled Capabilities bits of octet 0. */
#define WIFI_RM_NEIGHBOR_REPORT (1u << 1)
#define WIFI_RM_BEACON_PASSIVE  (1u << 4)
#define WIFI_RM_BEACON_ACTIVE   (1u << 5)
#define WIFI_RM_BEACON_TABLE    (1u << 6)

typedef enum {
	WIFI_CHAN_WIDTH_20 = 20,
	WIFI_CHAN_WIDTH_40 = 40,
	WIFI_CHAN_WIDTH_80 = 80,
	WIFI_CHAN_WIDTH_160 = 160,
} WifiChanWidth;

/* What a station learns from one BSS's elements. has_* say whether the
 * element was present *and* valid. */
typedef struct {
	gboolean has_ssid;
	guint8 ssid[32];
	guint8 ssid_len;

	guint8 max_rate;       /* highest supported rate, 500 kb/s units; 0 if none */
	gboolean sae_h2e_only; /* BSS membership selector 123 among basic rates */

	guint8 ds_channel; /* 0 when absent */

	gboolean has_rsn;
	WifiRsnInfo rsn;
	gboolean has_wpa;
	WifiRsnInfo wpa;
	gboolean has_rsnx;
	guint32 rsnx; /* first 4 octets, WIFI_RSNX_* bits */

	gboolean has_ht;
	guint16 ht_cap_info;
	guint8 ht_streams; /* spatial streams from the RX MCS bitmask */
	gboolean has_ht_op;
	guint8 ht_primary_channel;
	WifiChanWidth ht_width; /* 20 or 40 */
	gboolean has_vht;
	guint32 vht_cap_info;
	guint8 vht_streams;
	gboolean has_vht_op;
	WifiChanWidth vht_width; /* 20/40 means "see HT", 80 or 160 */
	guint8 vht_center_seg0, vht_center_seg1;
	gboolean has_he;
	guint8 he_streams;
	gboolean has_he_op;

	gboolean has_bss_load;
	guint16 bss_load_stations;
	guint8 bss_load_utilization; /* 0..255 = 0..100 % */
	guint16 bss_load_admission_capacity;

	gboolean has_mde;
	guint16 mdid;
	guint8 ft_capability; /* bit 0 FT over DS, bit 1 resource request */

	gboolean has_rm;
	guint8 rm_caps[5];

	guint8 ext_caps[16]; /* zero-filled beyond ext_caps_len */
	guint8 ext_caps_len;

	gboolean has_owe_transition;
	guint8 owe_bssid[6];
	guint8 owe_ssid[32];
	guint8 owe_ssid_len;
	guint8 owe_band, owe_channel; /* both 0 when absent */

	/* Informational elements that did not parse and were left out rather
	 * than failing the whole list (see wifi_ies_parse()). */
	guint n_ignored;
} WifiIes;

/* Walks an element list. Extended elements come out with id
 * WIFI_IE_EXT(ext) and the extension id stripped from the body. */
typedef struct {
	const guint8 *pos;
	const guint8 *end;
} WifiIeIter;

void wifi_ie_iter_init(WifiIeIter *iter, const guint8 *data, gsize len);
/* FALSE at the end (error unset) or on a malformed list (error set). */
gboolean wifi_ie_iter_next(WifiIeIter *iter, guint *id, const guint8 **body, gsize *body_len,
                           GError **error);
/* The first element with this id, or NULL (also NULL for a bad list). */
const guint8 *wifi_ie_find(const guint8 *data, gsize len, guint want, gsize *body_len);

/* Parses a list. Elements that decide identity or security (SSID, RSN, WPA,
 * RSNXE, Mobility Domain, OWE transition) must be valid and appear once,
 * otherwise the list fails: a station must not guess at them. Informational
 * elements that fail (rates, DS, HT/VHT/HE, BSS Load, RM, Extended
 * Capabilities) are left out and counted in n_ignored, so that an access
 * point with one quirky element stays usable. */
gboolean wifi_ies_parse(const guint8 *data, gsize len, WifiIes *ies, GError **error);

/* Bodies of single elements (after the ID and length octets). */
gboolean wifi_ie_parse_rsn(const guint8 *body, gsize len, WifiRsnInfo *info, GError **error);
/* Body of the vendor element after its OUI and type (00-50-F2, 1). */
gboolean wifi_ie_parse_wpa(const guint8 *body, gsize len, WifiRsnInfo *info, GError **error);
gboolean wifi_ie_parse_rsnx(const guint8 *body, gsize len, guint32 *bits, GError **error);
gboolean wifi_ie_parse_rates(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_ht(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_ht_op(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_vht(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_vht_op(const guint8 *body, gsize len, WifiIes *ies, GError **error);
/* Bodies of the extended elements after the extension id. */
gboolean wifi_ie_parse_he(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_he_op(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_bss_load(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_mde(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_rm(const guint8 *body, gsize len, WifiIes *ies, GError **error);
gboolean wifi_ie_parse_ext_caps(const guint8 *body, gsize len, WifiIes *ies, GError **error);
/* Body of the vendor element after its OUI and type (50-6F-9A, 0x1c). */
gboolean wifi_ie_parse_owe_transition(const guint8 *body, gsize len, WifiIes *ies, GError **error);

/* A hidden SSID: absent, empty or all zero octets. */
gboolean wifi_ssid_is_hidden(const guint8 *ssid, gsize len);

/* Names for logs. */
const gchar *wifi_cipher_to_string(guint32 cipher_bit);

G_END_DECLS
