/* ft-keys.h - the fast BSS transition (802.11r) key hierarchy (IEEE
 * 802.11-2020 12.7.1.7): PMK-R0 and PMKR0Name from the XXKey, PMK-R1 and
 * PMKR1Name for one R1 key holder, the PTK and PTKName, and the MIC of the
 * Fast BSS Transition element (13.8.4).
 *
 * The hash is SHA-256 for FT-802.1X, FT-PSK and FT-SAE (00-0F-AC:3, 4, 9)
 * and SHA-384 for FT-802.1X-SHA384 (:13), whose PMK-R0 and PMK-R1 are 48
 * octets. Every key here is a secret (wifi_ft_keys_clear() wipes them); the
 * names are not.
 */
#pragma once

#include <glib.h>

#include "rsn-keys.h"

G_BEGIN_DECLS

#define WIFI_FT_NAME_LEN    16
#define WIFI_FT_MDID_LEN    2
#define WIFI_FT_R0KH_ID_MAX 48
#define WIFI_FT_R1KH_ID_LEN 6
#define WIFI_FT_PMK_MAX_LEN 48
#define WIFI_FT_MIC_MAX_LEN 24

/* TRUE for the four FT AKMs above. */
gboolean wifi_ft_akm_is_ft(guint akm);
/* 48 for FT-802.1X-SHA384, 32 for the others, 0 for a non-FT AKM. */
gsize wifi_ft_pmk_len(guint akm);

/* The key holders the hierarchy is bound to. */
typedef struct {
	guint8 mdid[WIFI_FT_MDID_LEN];
	guint8 r0kh_id[WIFI_FT_R0KH_ID_MAX];
	gsize r0kh_id_len; /* 1..48 */
	guint8 r1kh_id[WIFI_FT_R1KH_ID_LEN];
	guint8 spa[WIFI_ADDR_LEN]; /* S0KH-ID and S1KH-ID: the station's address */
} WifiFtHolders;

typedef struct {
	guint akm;
	gsize pmk_len;
	guint8 pmk_r0[WIFI_FT_PMK_MAX_LEN];
	guint8 pmk_r0_name[WIFI_FT_NAME_LEN];
	guint8 pmk_r1[WIFI_FT_PMK_MAX_LEN];
	guint8 pmk_r1_name[WIFI_FT_NAME_LEN];
} WifiFtKeys;

/* The XXKey of an FT-802.1X AKM from the EAP method's MSK (12.7.1.7.3):
 * its second 256 bits for FT-802.1X, its first 384 for
 * FT-802.1X-SHA384; *xxkey_len is set. Fails for other AKMs and an MSK
 * too short. */
gboolean wifi_ft_xxkey_from_msk(guint akm, const guint8 *msk, gsize msk_len,
                                guint8 xxkey[WIFI_FT_PMK_MAX_LEN], gsize *xxkey_len,
                                GError **error);

/* PMK-R0 and PMKR0Name (12.7.1.7.3), then PMK-R1 and PMKR1Name for
 * holders->r1kh_id (12.7.1.7.4). The XXKey is the PSK (FT-PSK), SAE's PMK
 * (FT-SAE), the second 256 bits of the MSK (FT-802.1X) or its first 384
 * (FT-802.1X-SHA384). */
gboolean wifi_ft_keys_derive(guint akm, const guint8 *xxkey, gsize xxkey_len, const guint8 *ssid,
                             gsize ssid_len, const WifiFtHolders *holders, WifiFtKeys *keys,
                             GError **error);
/* PMK-R1 and PMKR1Name again for another R1 key holder (the target of a
 * transition), from the PMK-R0 keys already hold. */
gboolean wifi_ft_keys_for_r1kh(WifiFtKeys *keys, const guint8 r1kh_id[WIFI_FT_R1KH_ID_LEN],
                               const guint8 spa[WIFI_ADDR_LEN], GError **error);
void wifi_ft_keys_clear(WifiFtKeys *keys);

/* PTK = KDF-Hash(PMK-R1, "FT-PTK", SNonce || ANonce || BSSID || STA-ADDR)
 * sized for the AKM and the pairwise cipher, and PTKName (12.7.1.7.5;
 * SHA-256's for every FT AKM).
 * ptk_name may be NULL. */
gboolean wifi_ft_ptk_derive(const WifiFtKeys *keys, guint pairwise_cipher,
                            const guint8 snonce[WIFI_NONCE_LEN],
                            const guint8 anonce[WIFI_NONCE_LEN], const guint8 bssid[WIFI_ADDR_LEN],
                            const guint8 sta[WIFI_ADDR_LEN], WifiPtk *ptk,
                            guint8 ptk_name[WIFI_FT_NAME_LEN], GError **error);

/* What the FTE's MIC covers (13.8.4), each a whole element or absent
 * (NULL, 0); the FTE with its MIC field zeroed. The RIC is left out:
 * joind makes no resource requests. */
typedef struct {
	const guint8 *sta;
	const guint8 *ap;
	guint8 transaction; /* 5 for the (re)association request, 6 for the response */
	const guint8 *rsne;
	gsize rsne_len;
	const guint8 *mde;
	gsize mde_len;
	const guint8 *fte;
	gsize fte_len;
	const guint8 *rsnxe;
	gsize rsnxe_len;
} WifiFtMicInput;

/* AES-128-CMAC with the KCK (16 octets of MIC), or HMAC-SHA-384 cut to 24
 * octets for FT-802.1X-SHA384; *mic_len is set. */
gboolean wifi_ft_mic(guint akm, const guint8 *kck, gsize kck_len, const WifiFtMicInput *in,
                     guint8 mic[WIFI_FT_MIC_MAX_LEN], gsize *mic_len, GError **error);

G_END_DECLS
