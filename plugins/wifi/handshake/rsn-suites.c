/* rsn-suites.c - AKM and cipher suite properties (IEEE 802.11-2020 12.7.3,
 * tables 12-8 and 12-11: KCK, KEK, MIC and TK sizes). */
#include "rsn-suites.h"

G_DEFINE_QUARK(wifi - handshake - error - quark, wifi_handshake_error)

/* All supported AKMs but the 192-bit one and OWE's groups 20 and 21 have 128-bit KCK, KEK and MIC;
 * they differ in the key derivation function, the MIC algorithm and the
 * descriptor version. */
static const WifiAkmInfo akm_table[] = {
        {WIFI_AKM_SUITE_8021X, FALSE, FALSE, WIFI_KEY_DESC_VERSION_SHA1_AES, 32, 16, 16, 16, TRUE},
        {WIFI_AKM_SUITE_PSK, FALSE, FALSE, WIFI_KEY_DESC_VERSION_SHA1_AES, 32, 16, 16, 16},
        {WIFI_AKM_SUITE_8021X_SHA256, TRUE, TRUE, WIFI_KEY_DESC_VERSION_CMAC_AES, 32, 16, 16, 16,
         TRUE},
        {WIFI_AKM_SUITE_PSK_SHA256, TRUE, TRUE, WIFI_KEY_DESC_VERSION_CMAC_AES, 32, 16, 16, 16},
        {WIFI_AKM_SUITE_SAE, TRUE, TRUE, WIFI_KEY_DESC_VERSION_AKM, 32, 16, 16, 16},
        /* IEEE 802.11-2020 table 12-8: KCK 192, KEK 256, MIC 192 bits. */
        {WIFI_AKM_SUITE_8021X_SUITE_B_192, FALSE, FALSE, WIFI_KEY_DESC_VERSION_AKM, 48, 24, 32, 24,
         TRUE, "SHA384"},
        /* The FT AKMs (12.7.3, table 12-8): AES-128-CMAC MICs, but for
         * FT-802.1X-SHA384's HMAC-SHA-384 with the 192-bit AKM's sizes. */
        {WIFI_AKM_SUITE_FT_8021X, TRUE, TRUE, WIFI_KEY_DESC_VERSION_CMAC_AES, 32, 16, 16, 16, TRUE,
         NULL, TRUE},
        {WIFI_AKM_SUITE_FT_PSK, TRUE, TRUE, WIFI_KEY_DESC_VERSION_CMAC_AES, 32, 16, 16, 16, FALSE,
         NULL, TRUE},
        {WIFI_AKM_SUITE_FT_SAE, TRUE, TRUE, WIFI_KEY_DESC_VERSION_AKM, 32, 16, 16, 16, FALSE, NULL,
         TRUE},
        {WIFI_AKM_SUITE_FT_8021X_SHA384, FALSE, FALSE, WIFI_KEY_DESC_VERSION_AKM, 48, 24, 32, 24,
         TRUE, "SHA384", TRUE},
        /* OWE by group (IEEE 802.11-2020 table 12-11): 19 SHA-256, 20
         * SHA-384, 21 SHA-512, the PMK one hash long. */
        {WIFI_AKM_SUITE_OWE, FALSE, FALSE, WIFI_KEY_DESC_VERSION_AKM, 32, 16, 16, 16, FALSE,
         "SHA256"},
        {WIFI_AKM_SUITE_OWE, FALSE, FALSE, WIFI_KEY_DESC_VERSION_AKM, 48, 24, 32, 24, FALSE,
         "SHA384"},
        {WIFI_AKM_SUITE_OWE, FALSE, FALSE, WIFI_KEY_DESC_VERSION_AKM, 64, 32, 32, 32, FALSE,
         "SHA512"},
};

const WifiAkmInfo *
wifi_akm_info(guint akm)
{
	for (gsize i = 0; i < G_N_ELEMENTS(akm_table); i++) {
		if (akm_table[i].akm == akm)
			return &akm_table[i];
	}
	return NULL;
}

gboolean
wifi_akm_is_sae(guint akm)
{
	return akm == WIFI_AKM_SUITE_SAE || akm == WIFI_AKM_SUITE_FT_SAE;
}

const WifiAkmInfo *
wifi_akm_info_sized(guint akm, gsize pmk_len, gsize mic_len)
{
	for (gsize i = 0; i < G_N_ELEMENTS(akm_table); i++) {
		const WifiAkmInfo *info = &akm_table[i];

		if (info->akm == akm &&
		    (pmk_len != 0 ? info->pmk_len == pmk_len : info->mic_len == mic_len))
			return info;
	}
	return NULL;
}

gsize
wifi_cipher_key_len(guint cipher)
{
	switch (cipher) {
	case WIFI_CIPHER_SUITE_CCMP:
	case WIFI_CIPHER_SUITE_GCMP:
	case WIFI_CIPHER_SUITE_BIP_CMAC:
	case WIFI_CIPHER_SUITE_BIP_GMAC:
		return 16;
	case WIFI_CIPHER_SUITE_CCMP_256:
	case WIFI_CIPHER_SUITE_GCMP_256:
	case WIFI_CIPHER_SUITE_BIP_GMAC_256:
	case WIFI_CIPHER_SUITE_BIP_CMAC_256:
		return 32;
	default:
		/* TKIP (its Michael keys need a TKIP-specific install) and
		 * WEP are not installed by these handshakes. */
		return 0;
	}
}

gboolean
wifi_cipher_is_data(guint cipher)
{
	return cipher == WIFI_CIPHER_SUITE_CCMP || cipher == WIFI_CIPHER_SUITE_GCMP ||
	       cipher == WIFI_CIPHER_SUITE_CCMP_256 || cipher == WIFI_CIPHER_SUITE_GCMP_256;
}

gboolean
wifi_cipher_is_group_mgmt(guint cipher)
{
	return cipher == WIFI_CIPHER_SUITE_BIP_CMAC || cipher == WIFI_CIPHER_SUITE_BIP_GMAC ||
	       cipher == WIFI_CIPHER_SUITE_BIP_GMAC_256 || cipher == WIFI_CIPHER_SUITE_BIP_CMAC_256;
}

guint32
wifi_cipher_suite_selector(guint cipher)
{
	return 0x000fac00u | (cipher & 0xffu);
}

const gchar *
wifi_akm_suite_to_string(guint akm)
{
	switch (akm) {
	case WIFI_AKM_SUITE_8021X:
		return "802.1X";
	case WIFI_AKM_SUITE_PSK:
		return "PSK";
	case WIFI_AKM_SUITE_8021X_SHA256:
		return "802.1X-SHA256";
	case WIFI_AKM_SUITE_PSK_SHA256:
		return "PSK-SHA256";
	case WIFI_AKM_SUITE_SAE:
		return "SAE";
	case WIFI_AKM_SUITE_8021X_SUITE_B_192:
		return "802.1X-Suite-B-192";
	case WIFI_AKM_SUITE_OWE:
		return "OWE";
	case WIFI_AKM_SUITE_FT_8021X:
		return "FT-802.1X";
	case WIFI_AKM_SUITE_FT_PSK:
		return "FT-PSK";
	case WIFI_AKM_SUITE_FT_SAE:
		return "FT-SAE";
	case WIFI_AKM_SUITE_FT_8021X_SHA384:
		return "FT-802.1X-SHA384";
	default:
		return "unknown AKM";
	}
}

const gchar *
wifi_cipher_suite_to_string(guint cipher)
{
	switch (cipher) {
	case WIFI_CIPHER_SUITE_NONE:
		return "none";
	case WIFI_CIPHER_SUITE_TKIP:
		return "TKIP";
	case WIFI_CIPHER_SUITE_CCMP:
		return "CCMP-128";
	case WIFI_CIPHER_SUITE_BIP_CMAC:
		return "BIP-CMAC-128";
	case WIFI_CIPHER_SUITE_GCMP:
		return "GCMP-128";
	case WIFI_CIPHER_SUITE_GCMP_256:
		return "GCMP-256";
	case WIFI_CIPHER_SUITE_CCMP_256:
		return "CCMP-256";
	case WIFI_CIPHER_SUITE_BIP_GMAC:
		return "BIP-GMAC-128";
	case WIFI_CIPHER_SUITE_BIP_GMAC_256:
		return "BIP-GMAC-256";
	case WIFI_CIPHER_SUITE_BIP_CMAC_256:
		return "BIP-CMAC-256";
	default:
		return "unknown cipher";
	}
}
