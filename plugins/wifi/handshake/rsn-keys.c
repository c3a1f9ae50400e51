/* rsn-keys.c - passphrase to PSK, PRF/KDF, PTK and PMKID (IEEE 802.11-2020
 * 12.7.1 and J.4) on top of OpenSSL's PBKDF2 and HMAC. */
#include "rsn-keys.h"

#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "joind-secret.h"
#include "rsn-crypto.h"
#include "rsn-suites.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_KDF, EVP_KDF_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EVP_KDF_CTX, EVP_KDF_CTX_free)

#define PBKDF2_ITERATIONS 4096
#define SHA1_LEN          20
#define SHA256_LEN        32
#define SHA384_LEN        48
#define SHA512_LEN        64
/* Longest output any caller asks for: a 512-bit PTK plus a KDK. */
#define KDF_MAX_OUT 256

gboolean
wifi_keys_invalid(GError **error, const gchar *message)
{
	g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS,
	                    message);
	return FALSE;
}

static gboolean
passphrase_is_valid(const gchar *passphrase, GError **error)
{
	gsize len = strlen(passphrase);

	if (len < 8 || len > 63)
		return wifi_keys_invalid(
		        error, "A WPA passphrase has 8 to 63 characters (or is a PSK of 64 "
		               "hexadecimal digits)");
	for (gsize i = 0; i < len; i++) {
		guchar c = (guchar)passphrase[i];

		if (c < 32 || c > 126)
			return wifi_keys_invalid(
			        error, "A WPA passphrase may contain only printable ASCII "
			               "characters (space to tilde)");
	}
	return TRUE;
}

gboolean
wifi_psk_from_passphrase(const gchar *passphrase, const guint8 *ssid, gsize ssid_len,
                         guint8 psk[WIFI_PSK_LEN], GError **error)
{
	g_autoptr(EVP_KDF) kdf = NULL;
	g_autoptr(EVP_KDF_CTX) ctx = NULL;
	unsigned int iterations = PBKDF2_ITERATIONS;
	/* 1 turns off the SP 800-132 lower bounds (a 128-bit salt), which an
	 * SSID as salt does not meet; IEEE 802.11 fixes these parameters. */
	int pkcs5 = 1;
	OSSL_PARAM params[6];

	g_return_val_if_fail(passphrase != NULL, FALSE);
	if (!passphrase_is_valid(passphrase, error))
		return FALSE;
	if (ssid == NULL || ssid_len == 0 || ssid_len > 32)
		return wifi_keys_invalid(error, "An SSID has 1 to 32 octets");
	params[0] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)passphrase,
	                                              strlen(passphrase));
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)ssid, ssid_len);
	params[2] = OSSL_PARAM_construct_uint(OSSL_KDF_PARAM_ITER, &iterations);
	params[3] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA1", 0);
	params[4] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_PKCS5, &pkcs5);
	params[5] = OSSL_PARAM_construct_end();
	kdf = EVP_KDF_fetch(NULL, "PBKDF2", NULL);
	ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
	if (ctx == NULL || EVP_KDF_derive(ctx, psk, WIFI_PSK_LEN, params) != 1) {
		ERR_clear_error();
		joind_secret_clear(psk, WIFI_PSK_LEN);
		g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_CRYPTO,
		                    "OpenSSL could not compute PBKDF2-SHA1 for the PSK");
		return FALSE;
	}
	return TRUE;
}

gboolean
wifi_psk_from_hex(const gchar *hex, guint8 psk[WIFI_PSK_LEN], GError **error)
{
	g_return_val_if_fail(hex != NULL, FALSE);
	if (strlen(hex) != 2 * WIFI_PSK_LEN)
		return wifi_keys_invalid(error, "A PSK has exactly 64 hexadecimal digits");
	for (gsize i = 0; i < WIFI_PSK_LEN; i++) {
		int hi = g_ascii_xdigit_value(hex[2 * i]);
		int lo = g_ascii_xdigit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			joind_secret_clear(psk, WIFI_PSK_LEN);
			return wifi_keys_invalid(
			        error, "A PSK has exactly 64 hexadecimal digits (0-9, a-f)");
		}
		psk[i] = (guint8)(hi << 4 | lo);
	}
	return TRUE;
}

gboolean
wifi_psk_from_secret(const gchar *secret, const guint8 *ssid, gsize ssid_len,
                     guint8 psk[WIFI_PSK_LEN], GError **error)
{
	g_return_val_if_fail(secret != NULL, FALSE);
	if (strlen(secret) == 2 * WIFI_PSK_LEN)
		return wifi_psk_from_hex(secret, psk, error);
	return wifi_psk_from_passphrase(secret, ssid, ssid_len, psk, error);
}

gboolean
wifi_prf_sha1(const guint8 *key, gsize key_len, const gchar *label, const guint8 *data,
              gsize data_len, guint8 *out, gsize out_len, GError **error)
{
	const guint8 zero = 0;
	guint8 block[SHA1_LEN];
	gsize done = 0;

	if (out_len == 0 || out_len > KDF_MAX_OUT)
		return wifi_keys_invalid(error, "PRF output length out of range");
	for (guint8 i = 0; done < out_len; i++) {
		WifiIov iov[] = {
		        {(const guint8 *)label, strlen(label)},
		        {&zero, 1},
		        {data, data_len},
		        {&i, 1},
		};
		gsize n = MIN(out_len - done, (gsize)SHA1_LEN);

		if (!wifi_hmac("SHA1", key, key_len, iov, G_N_ELEMENTS(iov), block, sizeof(block),
		               NULL, error)) {
			joind_secret_clear(out, out_len);
			return FALSE;
		}
		memcpy(out + done, block, n);
		done += n;
	}
	joind_secret_clear(block, sizeof(block));
	return TRUE;
}

/* KDF-Hash-Length with SHA-256, SHA-384 or SHA-512 (hash_len 32, 48, 64). */
static gboolean
kdf_hash(const gchar *digest, gsize hash_len, const guint8 *key, gsize key_len, const gchar *label,
         const guint8 *context, gsize context_len, guint8 *out, gsize out_len, GError **error)
{
	guint8 block[SHA512_LEN];
	guint8 length_le[2];
	gsize done = 0;

	if (out_len == 0 || out_len > KDF_MAX_OUT)
		return wifi_keys_invalid(error, "KDF output length out of range");
	length_le[0] = (guint8)((out_len * 8) & 0xff);
	length_le[1] = (guint8)((out_len * 8) >> 8);
	for (guint16 i = 1; done < out_len; i++) {
		guint8 i_le[2] = {(guint8)(i & 0xff), (guint8)(i >> 8)};
		WifiIov iov[] = {
		        {i_le, 2},
		        {(const guint8 *)label, strlen(label)},
		        {context, context_len},
		        {length_le, 2},
		};
		gsize n = MIN(out_len - done, hash_len);

		if (!wifi_hmac(digest, key, key_len, iov, G_N_ELEMENTS(iov), block, sizeof(block),
		               NULL, error)) {
			joind_secret_clear(out, out_len);
			return FALSE;
		}
		memcpy(out + done, block, n);
		done += n;
	}
	joind_secret_clear(block, sizeof(block));
	return TRUE;
}

gboolean
wifi_kdf_sha256(const guint8 *key, gsize key_len, const gchar *label, const guint8 *context,
                gsize context_len, guint8 *out, gsize out_len, GError **error)
{
	return kdf_hash("SHA256", SHA256_LEN, key, key_len, label, context, context_len, out,
	                out_len, error);
}

gboolean
wifi_kdf_hash(const gchar *digest, const guint8 *key, gsize key_len, const gchar *label,
              const guint8 *context, gsize context_len, guint8 *out, gsize out_len, GError **error)
{
	gsize hash_len = g_str_equal(digest, "SHA256")   ? SHA256_LEN
	                 : g_str_equal(digest, "SHA384") ? SHA384_LEN
	                 : g_str_equal(digest, "SHA512") ? SHA512_LEN
	                                                 : 0;

	if (hash_len == 0)
		return wifi_keys_invalid(error, "The KDF takes SHA-256, SHA-384 or SHA-512");
	return kdf_hash(digest, hash_len, key, key_len, label, context, context_len, out, out_len,
	                error);
}

void
wifi_ptk_context(const guint8 aa[WIFI_ADDR_LEN], const guint8 spa[WIFI_ADDR_LEN],
                 const guint8 anonce[WIFI_NONCE_LEN], const guint8 snonce[WIFI_NONCE_LEN],
                 guint8 out[WIFI_PTK_CONTEXT_LEN])
{
	gboolean aa_first = memcmp(aa, spa, WIFI_ADDR_LEN) < 0;
	gboolean anonce_first = memcmp(anonce, snonce, WIFI_NONCE_LEN) < 0;

	memcpy(out, aa_first ? aa : spa, WIFI_ADDR_LEN);
	memcpy(out + WIFI_ADDR_LEN, aa_first ? spa : aa, WIFI_ADDR_LEN);
	memcpy(out + 2 * WIFI_ADDR_LEN, anonce_first ? anonce : snonce, WIFI_NONCE_LEN);
	memcpy(out + 2 * WIFI_ADDR_LEN + WIFI_NONCE_LEN, anonce_first ? snonce : anonce,
	       WIFI_NONCE_LEN);
}

gboolean
wifi_ptk_derive(guint akm, guint pairwise_cipher, const guint8 *pmk, gsize pmk_len,
                const guint8 aa[WIFI_ADDR_LEN], const guint8 spa[WIFI_ADDR_LEN],
                const guint8 anonce[WIFI_NONCE_LEN], const guint8 snonce[WIFI_NONCE_LEN],
                WifiPtk *ptk, GError **error)
{
	const WifiAkmInfo *info = wifi_akm_info_sized(akm, pmk_len, 0);
	gsize tk_len = wifi_cipher_key_len(pairwise_cipher);
	guint8 context[WIFI_PTK_CONTEXT_LEN];
	guint8 buf[3 * WIFI_PTK_MAX_KEY];
	gsize total;
	gboolean ok;

	if (info == NULL && wifi_akm_info(akm) != NULL)
		return wifi_keys_invalid(error, "The PMK has the wrong length for this AKM");
	if (info == NULL || info->ft || tk_len == 0 || !wifi_cipher_is_data(pairwise_cipher)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "No PTK derivation for AKM %s with pairwise cipher %s",
		            wifi_akm_suite_to_string(akm),
		            wifi_cipher_suite_to_string(pairwise_cipher));
		return FALSE;
	}
	total = info->kck_len + info->kek_len + tk_len;
	wifi_ptk_context(aa, spa, anonce, snonce, context);
	/* Where the AKM names a hash, the PMK is one hash long. */
	if (info->hash != NULL)
		ok = kdf_hash(info->hash, info->pmk_len, pmk, pmk_len, "Pairwise key expansion",
		              context, sizeof(context), buf, total, error);
	else if (info->kdf_sha256)
		ok = wifi_kdf_sha256(pmk, pmk_len, "Pairwise key expansion", context,
		                     sizeof(context), buf, total, error);
	else
		ok = wifi_prf_sha1(pmk, pmk_len, "Pairwise key expansion", context, sizeof(context),
		                   buf, total, error);
	if (!ok)
		return FALSE;
	wifi_ptk_split(ptk, buf, info->kck_len, info->kek_len, tk_len);
	joind_secret_clear(buf, sizeof(buf));
	return TRUE;
}

void
wifi_ptk_split(WifiPtk *ptk, const guint8 *buf, gsize kck_len, gsize kek_len, gsize tk_len)
{
	memset(ptk, 0, sizeof(*ptk));
	ptk->kck_len = kck_len;
	ptk->kek_len = kek_len;
	ptk->tk_len = tk_len;
	memcpy(ptk->kck, buf, kck_len);
	memcpy(ptk->kek, buf + kck_len, kek_len);
	memcpy(ptk->tk, buf + kck_len + kek_len, tk_len);
}

void
wifi_ptk_clear(WifiPtk *ptk)
{
	if (ptk != NULL)
		joind_secret_clear(ptk, sizeof(*ptk));
}

gboolean
wifi_pmkid(guint akm, const guint8 *pmk, gsize pmk_len, const guint8 aa[WIFI_ADDR_LEN],
           const guint8 spa[WIFI_ADDR_LEN], guint8 pmkid[WIFI_PMKID_LEN], GError **error)
{
	static const gchar name[] = "PMK Name";
	WifiIov iov[] = {
	        {(const guint8 *)name, sizeof(name) - 1},
	        {aa, WIFI_ADDR_LEN},
	        {spa, WIFI_ADDR_LEN},
	};
	guint8 mac[SHA256_LEN];
	const gchar *digest;

	switch (akm) {
	case WIFI_AKM_SUITE_8021X:
	case WIFI_AKM_SUITE_PSK:
		digest = "SHA1";
		break;
	case WIFI_AKM_SUITE_8021X_SHA256:
	case WIFI_AKM_SUITE_PSK_SHA256:
		digest = "SHA256";
		break;
	default:
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "No PMKID derivation from a PMK for AKM %s",
		            wifi_akm_suite_to_string(akm));
		return FALSE;
	}
	if (!wifi_hmac(digest, pmk, pmk_len, iov, G_N_ELEMENTS(iov), mac, sizeof(mac), NULL, error))
		return FALSE;
	memcpy(pmkid, mac, WIFI_PMKID_LEN);
	return TRUE;
}

gboolean
wifi_pmk_from_msk(guint akm, const guint8 *msk, gsize msk_len, guint8 pmk[WIFI_PMK_MAX_LEN],
                  gsize *pmk_len, GError **error)
{
	const WifiAkmInfo *info = wifi_akm_info(akm);

	if (info == NULL || !info->eap) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "AKM %s takes no PMK from EAP", wifi_akm_suite_to_string(akm));
		return FALSE;
	}
	if (msk == NULL || msk_len < info->pmk_len)
		return wifi_keys_invalid(error,
		                         "The EAP method exported no MSK long enough for a PMK");
	memcpy(pmk, msk, info->pmk_len);
	*pmk_len = info->pmk_len;
	return TRUE;
}
