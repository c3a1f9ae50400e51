/* rsn-keys.h - the IEEE 802.11 pairwise key hierarchy (IEEE 802.11-2020
 * 12.7.1): passphrase to PSK, the SHA-1 PRF and the SHA-256 KDF, PTK
 * derivation and its split into KCK, KEK and TK, and the PMKID.
 *
 * Every output here is a secret: callers wipe it with joind_secret_clear()
 * (wifi_ptk_clear() for a WifiPtk) and never log it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_PSK_LEN     32
#define WIFI_NONCE_LEN   32
#define WIFI_PMKID_LEN   16
#define WIFI_ADDR_LEN    6
#define WIFI_PTK_MAX_KEY 32

/* PSK = PBKDF2-HMAC-SHA1(passphrase, SSID, 4096, 256 bits) (J.4). The
 * passphrase is 8..63 printable ASCII characters (32..126); the SSID 1..32
 * octets. */
gboolean wifi_psk_from_passphrase(const gchar *passphrase, const guint8 *ssid, gsize ssid_len,
                                  guint8 psk[WIFI_PSK_LEN], GError **error);
/* A PSK given as 64 hexadecimal digits (what a profile's PreSharedKey
 * holds, and what a 64-character "passphrase" means). */
gboolean wifi_psk_from_hex(const gchar *hex, guint8 psk[WIFI_PSK_LEN], GError **error);
/* Either of the above: 64 hex digits are a PSK, anything else a passphrase. */
gboolean wifi_psk_from_secret(const gchar *secret, const guint8 *ssid, gsize ssid_len,
                              guint8 psk[WIFI_PSK_LEN], GError **error);

/* Sets WIFI_HANDSHAKE_ERROR_INVALID_ARGS with message; returns FALSE. */
gboolean wifi_keys_invalid(GError **error, const gchar *message);

/* PRF-n (12.7.1.2): HMAC-SHA1(K, A || 0 || B || i) for i = 0, 1, ...,
 * truncated to out_len octets. label is A without a terminating zero. */
gboolean wifi_prf_sha1(const guint8 *key, gsize key_len, const gchar *label, const guint8 *data,
                       gsize data_len, guint8 *out, gsize out_len, GError **error);
/* KDF-Hash-Length (12.7.1.6.2) with SHA-256: HMAC-SHA256(K, i || label ||
 * context || Length) for i = 1, 2, ..., with i and Length (= out_len * 8
 * bits) as 16-bit little-endian integers. */
gboolean wifi_kdf_sha256(const guint8 *key, gsize key_len, const gchar *label,
                         const guint8 *context, gsize context_len, guint8 *out, gsize out_len,
                         GError **error);
/* The same KDF with digest "SHA256", "SHA384" or "SHA512". */
gboolean wifi_kdf_hash(const gchar *digest, const guint8 *key, gsize key_len, const gchar *label,
                       const guint8 *context, gsize context_len, guint8 *out, gsize out_len,
                       GError **error);

/* Min(AA,SPA) || Max(AA,SPA) || Min(ANonce,SNonce) || Max(ANonce,SNonce):
 * the data of the pairwise key expansion (76 octets). */
#define WIFI_PTK_CONTEXT_LEN (2 * WIFI_ADDR_LEN + 2 * WIFI_NONCE_LEN)
void wifi_ptk_context(const guint8 aa[WIFI_ADDR_LEN], const guint8 spa[WIFI_ADDR_LEN],
                      const guint8 anonce[WIFI_NONCE_LEN], const guint8 snonce[WIFI_NONCE_LEN],
                      guint8 out[WIFI_PTK_CONTEXT_LEN]);

/* A PTK split into its parts (12.7.1.3). */
typedef struct {
	guint8 kck[WIFI_PTK_MAX_KEY];
	gsize kck_len;
	guint8 kek[WIFI_PTK_MAX_KEY];
	gsize kek_len;
	guint8 tk[WIFI_PTK_MAX_KEY];
	gsize tk_len;
} WifiPtk;

/* PTK = PRF or KDF (by AKM) of the PMK with "Pairwise key expansion",
 * sized for the AKM's KCK/KEK and the pairwise cipher's TK. */
gboolean wifi_ptk_derive(guint akm, guint pairwise_cipher, const guint8 *pmk, gsize pmk_len,
                         const guint8 aa[WIFI_ADDR_LEN], const guint8 spa[WIFI_ADDR_LEN],
                         const guint8 anonce[WIFI_NONCE_LEN], const guint8 snonce[WIFI_NONCE_LEN],
                         WifiPtk *ptk, GError **error);
/* Fills ptk from the KDF's output: KCK, KEK, then TK. */
void wifi_ptk_split(WifiPtk *ptk, const guint8 *buf, gsize kck_len, gsize kek_len, gsize tk_len);
/* Wipes a PTK. */
void wifi_ptk_clear(WifiPtk *ptk);

/* PMKID = Truncate-128(HMAC-Hash(PMK, "PMK Name" || AA || SPA)), SHA-1 for
 * the 802.1X and PSK AKMs, SHA-256 for their SHA-256 variants (12.7.1.3).
 * SAE's PMKID comes from the SAE exchange and the 192-bit AKM's from the
 * KCK, so both are refused here. */
gboolean wifi_pmkid(guint akm, const guint8 *pmk, gsize pmk_len, const guint8 aa[WIFI_ADDR_LEN],
                    const guint8 spa[WIFI_ADDR_LEN], guint8 pmkid[WIFI_PMKID_LEN], GError **error);

/* The PMK of an 802.1X AKM from the EAP method's MSK (12.7.1.3): its
 * first 256 bits, 384 for the SHA-384 AKMs. *pmk_len is set; pmk holds
 * WIFI_PMK_MAX_LEN octets. Fails for a non-802.1X AKM or a short MSK. */
#define WIFI_PMK_MAX_LEN 64
gboolean wifi_pmk_from_msk(guint akm, const guint8 *msk, gsize msk_len,
                           guint8 pmk[WIFI_PMK_MAX_LEN], gsize *pmk_len, GError **error);

G_END_DECLS
