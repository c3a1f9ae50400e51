/* sae-crypto.h - the constructions of SAE (IEEE 802.11-2020 12.4.4, 12.4.5)
 * over the core's EC groups (joind-crypto.h): the password element by
 * hunting and pecking or from the password token PT (hash-to-element, the
 * simplified SWU map of RFC 9380 as 802.11 specifies it), KCK, PMK and
 * PMKID, and the confirm.
 *
 * Hunting and pecking uses SHA-256 throughout; hash-to-element the hash
 * the group's prime length calls for (SHA-256, -384, -512 for groups 19,
 * 20, 21), for its keys and confirms too, as hostapd and
 * wpa_supplicant do. */
#pragma once

#include <glib.h>

#include "joind-crypto.h"

G_BEGIN_DECLS

#define WIFI_SAE_PMK_LEN      32
#define WIFI_SAE_PMKID_LEN    16
#define WIFI_SAE_MAX_HASH_LEN 64
/* Hunting and pecking runs at least this many rounds (12.4.4.2.2: k). */
#define WIFI_SAE_MIN_ROUNDS 40

/* The hash length of the group's keys and confirms: 32 without H2E. */
gsize wifi_sae_hash_len(JoindEcGroup *group, gboolean h2e);

/* The password element by hunting and pecking (12.4.4.2.2) for the two
 * MAC addresses (either order), the password and an optional password
 * identifier. */
EC_POINT *wifi_sae_pwe_hunt(JoindEcGroup *group, const guint8 addr1[6], const guint8 addr2[6],
                            const guint8 *password, gsize password_len, const gchar *identifier,
                            guint *rounds, GError **error);

/* The simplified SWU map of u (below p) to a point (12.4.4.2.3). */
EC_POINT *wifi_sae_sswu(JoindEcGroup *group, const BIGNUM *u, GError **error);
/* PT = SSWU(u1) + SSWU(u2) from the SSID, password and identifier. */
EC_POINT *wifi_sae_derive_pt(JoindEcGroup *group, const guint8 *ssid, gsize ssid_len,
                             const guint8 *password, gsize password_len, const gchar *identifier,
                             GError **error);
/* PWE = val * PT, val from the two MAC addresses (either order). */
EC_POINT *wifi_sae_pwe_from_pt(JoindEcGroup *group, const EC_POINT *pt, const guint8 addr1[6],
                               const guint8 addr2[6], GError **error);

/* KCK (hash_len octets) and PMK from k and both scalars; PMKID = the first
 * 16 octets of (scalar + peer_scalar) mod r. salt (H2E's rejected
 * groups) may be NULL: zeros then. */
gboolean wifi_sae_derive_keys(JoindEcGroup *group, gboolean h2e, const guint8 *salt, gsize salt_len,
                              const guint8 *k, const BIGNUM *scalar, const BIGNUM *peer_scalar,
                              guint8 kck[WIFI_SAE_MAX_HASH_LEN], guint8 pmk[WIFI_SAE_PMK_LEN],
                              guint8 pmkid[WIFI_SAE_PMKID_LEN], GError **error);

/* Confirm = HMAC(KCK, send-confirm | scalar1 | element1 | scalar2 |
 * element2), kck_len octets (also the confirm's length); the scalars and
 * elements are wire octets. */
gboolean wifi_sae_confirm_compute(JoindEcGroup *group, const guint8 *kck, gsize kck_len,
                                  guint16 send_confirm, const guint8 *scalar1,
                                  const guint8 *element1, const guint8 *scalar2,
                                  const guint8 *element2, guint8 *out, GError **error);

G_END_DECLS
