/* ft-keys.c - the FT key hierarchy (IEEE 802.11-2020 12.7.1.7) and the
 * FTE MIC (13.8.4) on OpenSSL's HMAC, CMAC and digests. */
#include "ft-keys.h"

#include <string.h>

#include "joind-secret.h"
#include "rsn-crypto.h"
#include "rsn-suites.h"

#define SSID_MAX 32
/* PMK-R0Name-Salt (12.7.1.7.3). */
#define SALT_LEN 16

gboolean
wifi_ft_akm_is_ft(guint akm)
{
	const WifiAkmInfo *info = wifi_akm_info(akm);

	return info != NULL && info->ft;
}

gsize
wifi_ft_pmk_len(guint akm)
{
	const WifiAkmInfo *info = wifi_akm_info(akm);

	return info != NULL && info->ft ? info->pmk_len : 0;
}

static const gchar *
ft_digest(guint akm)
{
	return akm == WIFI_AKM_SUITE_FT_8021X_SHA384 ? "SHA384" : "SHA256";
}

/* Truncate-128(Hash(iov...)): PMKR0Name, PMKR1Name and PTKName. */
static gboolean
ft_name(const gchar *digest, const WifiIov *iov, guint n_iov, guint8 name[WIFI_FT_NAME_LEN],
        GError **error)
{
	guint8 hash[WIFI_FT_PMK_MAX_LEN];

	if (!wifi_digest(digest, iov, n_iov, hash, sizeof(hash), NULL, error))
		return FALSE;
	memcpy(name, hash, WIFI_FT_NAME_LEN);
	return TRUE;
}

gboolean
wifi_ft_xxkey_from_msk(guint akm, const guint8 *msk, gsize msk_len,
                       guint8 xxkey[WIFI_FT_PMK_MAX_LEN], gsize *xxkey_len, GError **error)
{
	/* FT-802.1X leaves the MSK's first 256 bits to the PMKSA's PMK. */
	gsize offset = akm == WIFI_AKM_SUITE_FT_8021X ? 32 : 0;
	gsize len = wifi_ft_pmk_len(akm);

	if (akm != WIFI_AKM_SUITE_FT_8021X && akm != WIFI_AKM_SUITE_FT_8021X_SHA384) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "AKM %s takes no XXKey from EAP", wifi_akm_suite_to_string(akm));
		return FALSE;
	}
	if (msk == NULL || msk_len < offset + len)
		return wifi_keys_invalid(error, "The EAP method exported no MSK long enough for "
		                                "fast transition's XXKey");
	memcpy(xxkey, msk + offset, len);
	*xxkey_len = len;
	return TRUE;
}

/* R0-Key-Data = KDF-Hash(XXKey, "FT-R0", SSIDlength || SSID || MDID ||
 * R0KHlength || R0KH-ID || S0KH-ID): PMK-R0, then the salt its name is
 * hashed from. */
static gboolean
derive_r0(WifiFtKeys *keys, const guint8 *xxkey, gsize xxkey_len, const guint8 *ssid,
          gsize ssid_len, const WifiFtHolders *h, GError **error)
{
	static const gchar r0n[] = "FT-R0N";
	guint8 context[1 + SSID_MAX + WIFI_FT_MDID_LEN + 1 + WIFI_FT_R0KH_ID_MAX + WIFI_ADDR_LEN];
	guint8 data[WIFI_FT_PMK_MAX_LEN + SALT_LEN];
	gsize n = 0;
	gboolean ok;

	context[n++] = (guint8)ssid_len;
	memcpy(context + n, ssid, ssid_len);
	n += ssid_len;
	memcpy(context + n, h->mdid, WIFI_FT_MDID_LEN);
	n += WIFI_FT_MDID_LEN;
	context[n++] = (guint8)h->r0kh_id_len;
	memcpy(context + n, h->r0kh_id, h->r0kh_id_len);
	n += h->r0kh_id_len;
	memcpy(context + n, h->spa, WIFI_ADDR_LEN);
	n += WIFI_ADDR_LEN;
	if (!wifi_kdf_hash(ft_digest(keys->akm), xxkey, xxkey_len, "FT-R0", context, n, data,
	                   keys->pmk_len + SALT_LEN, error))
		return FALSE;
	memcpy(keys->pmk_r0, data, keys->pmk_len);
	ok = ft_name(ft_digest(keys->akm),
	             (const WifiIov[]){{(const guint8 *)r0n, sizeof(r0n) - 1},
	                               {data + keys->pmk_len, SALT_LEN}},
	             2, keys->pmk_r0_name, error);
	joind_secret_clear(data, sizeof(data));
	return ok;
}

gboolean
wifi_ft_keys_derive(guint akm, const guint8 *xxkey, gsize xxkey_len, const guint8 *ssid,
                    gsize ssid_len, const WifiFtHolders *holders, WifiFtKeys *keys, GError **error)
{
	g_return_val_if_fail(holders != NULL && keys != NULL, FALSE);
	memset(keys, 0, sizeof(*keys));
	keys->akm = akm;
	keys->pmk_len = wifi_ft_pmk_len(akm);
	if (keys->pmk_len == 0) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "AKM %s is not a fast transition AKM", wifi_akm_suite_to_string(akm));
		return FALSE;
	}
	if (xxkey == NULL || xxkey_len < 32)
		return wifi_keys_invalid(error, "FT needs an XXKey of at least 256 bits");
	if (ssid == NULL || ssid_len == 0 || ssid_len > SSID_MAX)
		return wifi_keys_invalid(error, "An SSID has 1 to 32 octets");
	if (holders->r0kh_id_len == 0 || holders->r0kh_id_len > WIFI_FT_R0KH_ID_MAX)
		return wifi_keys_invalid(error, "An R0KH-ID has 1 to 48 octets");
	if (!derive_r0(keys, xxkey, xxkey_len, ssid, ssid_len, holders, error) ||
	    !wifi_ft_keys_for_r1kh(keys, holders->r1kh_id, holders->spa, error)) {
		wifi_ft_keys_clear(keys);
		return FALSE;
	}
	return TRUE;
}

gboolean
wifi_ft_keys_for_r1kh(WifiFtKeys *keys, const guint8 r1kh_id[WIFI_FT_R1KH_ID_LEN],
                      const guint8 spa[WIFI_ADDR_LEN], GError **error)
{
	static const gchar r1n[] = "FT-R1N";
	guint8 context[WIFI_FT_R1KH_ID_LEN + WIFI_ADDR_LEN];

	g_return_val_if_fail(keys != NULL && keys->pmk_len != 0, FALSE);
	memcpy(context, r1kh_id, WIFI_FT_R1KH_ID_LEN);
	memcpy(context + WIFI_FT_R1KH_ID_LEN, spa, WIFI_ADDR_LEN);
	if (!wifi_kdf_hash(ft_digest(keys->akm), keys->pmk_r0, keys->pmk_len, "FT-R1", context,
	                   sizeof(context), keys->pmk_r1, keys->pmk_len, error))
		return FALSE;
	return ft_name(ft_digest(keys->akm),
	               (const WifiIov[]){{(const guint8 *)r1n, sizeof(r1n) - 1},
	                                 {keys->pmk_r0_name, WIFI_FT_NAME_LEN},
	                                 {r1kh_id, WIFI_FT_R1KH_ID_LEN},
	                                 {spa, WIFI_ADDR_LEN}},
	               4, keys->pmk_r1_name, error);
}

void
wifi_ft_keys_clear(WifiFtKeys *keys)
{
	if (keys != NULL)
		joind_secret_clear(keys, sizeof(*keys));
}

gboolean
wifi_ft_ptk_derive(const WifiFtKeys *keys, guint pairwise_cipher,
                   const guint8 snonce[WIFI_NONCE_LEN], const guint8 anonce[WIFI_NONCE_LEN],
                   const guint8 bssid[WIFI_ADDR_LEN], const guint8 sta[WIFI_ADDR_LEN], WifiPtk *ptk,
                   guint8 ptk_name[WIFI_FT_NAME_LEN], GError **error)
{
	static const gchar ptkn[] = "FT-PTKN";
	const WifiAkmInfo *info = wifi_akm_info(keys->akm);
	gsize tk_len = wifi_cipher_key_len(pairwise_cipher);
	guint8 context[2 * WIFI_NONCE_LEN + 2 * WIFI_ADDR_LEN];
	guint8 buf[3 * WIFI_PTK_MAX_KEY];
	gsize total;

	if (info == NULL || !info->ft || tk_len == 0 || !wifi_cipher_is_data(pairwise_cipher)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "No FT PTK derivation for AKM %s with pairwise cipher %s",
		            wifi_akm_suite_to_string(keys->akm),
		            wifi_cipher_suite_to_string(pairwise_cipher));
		return FALSE;
	}
	memcpy(context, snonce, WIFI_NONCE_LEN);
	memcpy(context + WIFI_NONCE_LEN, anonce, WIFI_NONCE_LEN);
	memcpy(context + 2 * WIFI_NONCE_LEN, bssid, WIFI_ADDR_LEN);
	memcpy(context + 2 * WIFI_NONCE_LEN + WIFI_ADDR_LEN, sta, WIFI_ADDR_LEN);
	total = info->kck_len + info->kek_len + tk_len;
	if (!wifi_kdf_hash(ft_digest(keys->akm), keys->pmk_r1, keys->pmk_len, "FT-PTK", context,
	                   sizeof(context), buf, total, error))
		return FALSE;
	wifi_ptk_split(ptk, buf, info->kck_len, info->kek_len, tk_len);
	joind_secret_clear(buf, sizeof(buf));
	if (ptk_name == NULL)
		return TRUE;
	/* PTKName is SHA-256's for every FT AKM (12.7.1.7.5), FT-802.1X-SHA384's
	 * too (as hostapd derives it). */
	return ft_name("SHA256",
	               (const WifiIov[]){{keys->pmk_r1_name, WIFI_FT_NAME_LEN},
	                                 {(const guint8 *)ptkn, sizeof(ptkn) - 1},
	                                 {context, sizeof(context)}},
	               3, ptk_name, error);
}

gboolean
wifi_ft_mic(guint akm, const guint8 *kck, gsize kck_len, const WifiFtMicInput *in,
            guint8 mic[WIFI_FT_MIC_MAX_LEN], gsize *mic_len, GError **error)
{
	WifiIov iov[] = {
	        {in->sta, WIFI_ADDR_LEN},   {in->ap, WIFI_ADDR_LEN}, {&in->transaction, 1},
	        {in->rsne, in->rsne_len},   {in->mde, in->mde_len},  {in->fte, in->fte_len},
	        {in->rsnxe, in->rsnxe_len},
	};
	guint8 full[WIFI_FT_PMK_MAX_LEN];

	if (!wifi_ft_akm_is_ft(akm)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED,
		            "AKM %s has no FTE MIC", wifi_akm_suite_to_string(akm));
		return FALSE;
	}
	if (akm != WIFI_AKM_SUITE_FT_8021X_SHA384) {
		*mic_len = 16;
		return wifi_aes_cmac(kck, kck_len, iov, G_N_ELEMENTS(iov), mic, error);
	}
	if (!wifi_hmac("SHA384", kck, kck_len, iov, G_N_ELEMENTS(iov), full, sizeof(full), NULL,
	               error))
		return FALSE;
	*mic_len = 24;
	memcpy(mic, full, 24);
	return TRUE;
}
