/* rsn-suites.h - the vocabulary of the RSN key handshakes: AKM and cipher
 * suites, their key sizes, and the library's error domain.
 *
 * Suites are named by their suite type in the IEEE 802.11 OUI 00-0F-AC
 * (IEEE 802.11-2020 tables 9-149 and 9-151), so a suite selector maps to
 * these numbers by its last octet, and to nl80211's cipher values with
 * wifi_cipher_suite_selector().
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_HANDSHAKE_ERROR (wifi_handshake_error_quark())
GQuark wifi_handshake_error_quark(void);

typedef enum {
	WIFI_HANDSHAKE_ERROR_INVALID_ARGS,     /* a bad passphrase, address or configuration */
	WIFI_HANDSHAKE_ERROR_UNSUPPORTED,      /* an AKM, cipher or descriptor we do not do */
	WIFI_HANDSHAKE_ERROR_MALFORMED,        /* a frame or key data that does not parse */
	WIFI_HANDSHAKE_ERROR_UNEXPECTED,       /* a well-formed frame that has no place now */
	WIFI_HANDSHAKE_ERROR_REPLAY,           /* the replay counter did not increase */
	WIFI_HANDSHAKE_ERROR_MIC,              /* the integrity check (MIC) failed */
	WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,    /* message 3 disagrees with the beacon */
	WIFI_HANDSHAKE_ERROR_KEY_DATA,         /* key data did not decrypt or lacks a key */
	WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE, /* the AP says our keys did not match */
	WIFI_HANDSHAKE_ERROR_NO_MSG3,          /* no valid message 3: maybe the PSK */
	WIFI_HANDSHAKE_ERROR_TIMEOUT,          /* the handshake did not finish in time */
	WIFI_HANDSHAKE_ERROR_DEAUTHENTICATED,  /* the access point ended the association */
	WIFI_HANDSHAKE_ERROR_CRYPTO,           /* OpenSSL failed (out of memory, no provider) */
	WIFI_HANDSHAKE_ERROR_PMKID_MISMATCH,   /* message 1 names a PMK other than ours */
} WifiHandshakeErrorCode;

/* AKM suite types (00-0F-AC:n) the handshakes support. */
typedef enum {
	WIFI_AKM_SUITE_8021X = 1,
	WIFI_AKM_SUITE_PSK = 2,
	WIFI_AKM_SUITE_FT_8021X = 3,
	WIFI_AKM_SUITE_FT_PSK = 4,
	WIFI_AKM_SUITE_8021X_SHA256 = 5,
	WIFI_AKM_SUITE_PSK_SHA256 = 6,
	WIFI_AKM_SUITE_SAE = 8,
	WIFI_AKM_SUITE_FT_SAE = 9,
	WIFI_AKM_SUITE_8021X_SUITE_B_192 = 12,
	WIFI_AKM_SUITE_FT_8021X_SHA384 = 13,
	WIFI_AKM_SUITE_OWE = 18,
} WifiAkmSuite;

/* Cipher suite types (00-0F-AC:n). TKIP and the BIP-GMAC suites are named
 * so that they can be recognised and refused or passed on. */
typedef enum {
	WIFI_CIPHER_SUITE_NONE = 0, /* "use group cipher"; here: no such key */
	WIFI_CIPHER_SUITE_TKIP = 2,
	WIFI_CIPHER_SUITE_CCMP = 4,
	WIFI_CIPHER_SUITE_BIP_CMAC = 6,
	WIFI_CIPHER_SUITE_GCMP = 8,
	WIFI_CIPHER_SUITE_GCMP_256 = 9,
	WIFI_CIPHER_SUITE_CCMP_256 = 10,
	WIFI_CIPHER_SUITE_BIP_GMAC = 11,
	WIFI_CIPHER_SUITE_BIP_GMAC_256 = 12,
	WIFI_CIPHER_SUITE_BIP_CMAC_256 = 13,
} WifiCipherSuite;

/* EAPOL-Key descriptor versions (the low three bits of Key Information). */
typedef enum {
	WIFI_KEY_DESC_VERSION_AKM = 0,      /* the AKM defines the algorithms */
	WIFI_KEY_DESC_VERSION_MD5_RC4 = 1,  /* TKIP: not supported */
	WIFI_KEY_DESC_VERSION_SHA1_AES = 2, /* HMAC-SHA1-128 MIC, AES key wrap */
	WIFI_KEY_DESC_VERSION_CMAC_AES = 3, /* AES-128-CMAC MIC, AES key wrap */
} WifiKeyDescVersion;

/* How an AKM turns a PMK into keys and protects EAPOL-Key frames. */
typedef struct {
	WifiAkmSuite akm;
	gboolean kdf_sha256;        /* SHA-256 KDF; otherwise the SHA-1 PRF */
	gboolean mic_cmac;          /* AES-128-CMAC MIC; otherwise HMAC-SHA1-128 */
	WifiKeyDescVersion version; /* the descriptor version frames must carry */
	gsize pmk_len;
	gsize kck_len;
	gsize kek_len;
	gsize mic_len;
	gboolean eap; /* an 802.1X AKM: the PMK comes from the EAP method's MSK */
	/* "SHA384" or "SHA512": the KDF and an HMAC MIC with that hash, in
	 * place of the two above (the 192-bit AKM; OWE, whose hash follows
	 * its Diffie-Hellman group); NULL otherwise. */
	const gchar *hash;
	/* A fast BSS transition AKM: its PTK comes from the FT key hierarchy
	 * (ft-keys.h), never from wifi_ptk_derive(). */
	gboolean ft;
} WifiAkmInfo;

/* NULL for an AKM the handshakes do not support. OWE's sizes depend on
 * its group: this gives group 19's. */
const WifiAkmInfo *wifi_akm_info(guint akm);
/* The AKM's variant with this PMK length or, pmk_len 0, this MIC length
 * (OWE: 32, 48, 64 octets of PMK; 16, 24, 32 of MIC); NULL for none. */
const WifiAkmInfo *wifi_akm_info_sized(guint akm, gsize pmk_len, gsize mic_len);
/* SAE or FT-SAE: the link's PMK comes from an SAE exchange. */
gboolean wifi_akm_is_sae(guint akm);

/* Key length of a pairwise/group data cipher (CCMP, GCMP, their 256-bit
 * variants) or of a group management cipher (the BIP suites); 0 for a
 * suite the handshakes cannot install. */
gsize wifi_cipher_key_len(guint cipher);
gboolean wifi_cipher_is_data(guint cipher);
gboolean wifi_cipher_is_group_mgmt(guint cipher);
/* The 32-bit selector nl80211 takes as NL80211_ATTR_KEY_CIPHER. */
guint32 wifi_cipher_suite_selector(guint cipher);

const gchar *wifi_akm_suite_to_string(guint akm);
const gchar *wifi_cipher_suite_to_string(guint cipher);

G_END_DECLS
