/* owe.h - Opportunistic Wireless Encryption (RFC 8110), the station's
 * side: an ephemeral Diffie-Hellman key pair in group 19, 20 or 21, the OWE
 * Diffie-Hellman Parameter element the association request carries (Element
 * ID Extension 32: the group, then the public key's x coordinate), the
 * access point's element read from its association response, and the PMK
 * and PMKID derived from the shared secret (RFC 8110 4.4):
 *
 *   prk   = HKDF-Extract(C | A | group, z)
 *   PMK   = HKDF-Expand(prk, "OWE Key Generation", n)
 *   PMKID = Truncate-128(Hash(C | A))
 *
 * with C our public key, A the access point's, group as two octets little
 * endian, z the x coordinate of the shared point and SHA-256, SHA-384 or
 * SHA-512 (n = 32, 48, 64 octets) for groups 19, 20, 21. The PMK then keys
 * the ordinary 4-way handshake (AKM 00-0F-AC:18).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_OWE_ERROR (wifi_owe_error_quark())
GQuark wifi_owe_error_quark(void);
typedef enum {
	WIFI_OWE_ERROR_MALFORMED, /* an element that does not parse */
	WIFI_OWE_ERROR_MISSING,   /* no OWE element in the response */
	WIFI_OWE_ERROR_GROUP,     /* a group other than ours, or one joind does not do */
	WIFI_OWE_ERROR_KEY,       /* a public key that is not a point of the group */
	WIFI_OWE_ERROR_CRYPTO,    /* OpenSSL failed */
} WifiOweError;

/* The element's extension ID (IEEE 802.11-2020 table 9-92). */
#define WIFI_OWE_DH_EXT_ID 32
/* Element ID, length, extension ID, group and a P-521 x coordinate. */
#define WIFI_OWE_ELEMENT_MAX (3 + 2 + 66)
#define WIFI_OWE_PMK_MAX     64
#define WIFI_OWE_PMKID_LEN   16
/* IEEE 802.11 status 77: the access point does not do our group. */
#define WIFI_OWE_STATUS_GROUP_REFUSED 77

/* The element's body after the extension ID: *group and the public key
 * (pointing into body). Fails with WIFI_OWE_ERROR_MALFORMED when there is
 * no group or no key. */
gboolean wifi_owe_dh_parse(const guint8 *body, gsize len, guint *group, const guint8 **key,
                           gsize *key_len, GError **error);

/* The group to offer after the access point refused group (status 77): 20
 * after 19, 21 after 20; 0 when none is left. */
guint wifi_owe_next_group(guint group);

typedef struct _WifiOwe WifiOwe;

/* A fresh key pair in group (19, 20, 21; else WIFI_OWE_ERROR_GROUP). */
WifiOwe *wifi_owe_new(guint group, GError **error);
/* The same with a given private key (big endian, below the group's
 * order): known-answer tests. */
WifiOwe *wifi_owe_new_with_private(guint group, const guint8 *priv, gsize len, GError **error);
void wifi_owe_free(WifiOwe *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiOwe, wifi_owe_free)

guint wifi_owe_get_group(const WifiOwe *self);
/* Our whole element (out holds WIFI_OWE_ELEMENT_MAX octets); its length. */
gsize wifi_owe_write_element(const WifiOwe *self, guint8 *out);

/* From the elements of the access point's association response: its OWE
 * element, which must be in our group and carry a point of the group; the
 * PMK (*pmk_len: 32, 48 or 64 octets) and PMKID. Fails with a sentence
 * (WIFI_OWE_ERROR_*) otherwise. */
gboolean wifi_owe_derive(WifiOwe *self, const guint8 *ies, gsize ies_len, guint8 *pmk,
                         gsize *pmk_len, guint8 pmkid[WIFI_OWE_PMKID_LEN], GError **error);

G_END_DECLS
