/* rsn-kde.h - the Key Data field of EAPOL-Key frames: elements (RSNE,
 * RSNXE) and Key Data Encapsulations (GTK, IGTK, PMKID, MAC address) of
 * IEEE 802.11-2020 12.7.2, table 12-10, and WPA3's Transition Disable;
 * and the comparison of an RSNE from message 3 with the one from the
 * beacon.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_ELEMENT_RSN  48
#define WIFI_ELEMENT_RSNX 244
#define WIFI_ELEMENT_MDE  54
#define WIFI_ELEMENT_FTE  55
#define WIFI_ELEMENT_KDE  0xdd

/* KDE data types under OUI 00-0F-AC, and WPA3's Transition Disable
 * under the Wi-Fi Alliance's OUI 50-6F-9A (as hostapd sends it). */
enum {
	WIFI_KDE_GTK = 1,
	WIFI_KDE_MAC_ADDRESS = 3,
	WIFI_KDE_PMKID = 4,
	WIFI_KDE_IGTK = 9,
	WIFI_KDE_TRANSITION_DISABLE = 0x20,
};

/* The Transition Disable KDE's bits (WPA3 specification, section 8): the
 * access point tells the station to stop using the transition mode's
 * weaker half for this network. */
enum {
	WIFI_TRANSITION_DISABLE_WPA3_PERSONAL = 1 << 0,
	WIFI_TRANSITION_DISABLE_SAE_PK = 1 << 1,
	WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE = 1 << 2,
	WIFI_TRANSITION_DISABLE_ENHANCED_OPEN = 1 << 3,
};

#define WIFI_GTK_MAX_LEN  32
#define WIFI_IGTK_MAX_LEN 32
#define WIFI_IPN_LEN      6

/* What a Key Data field holds. Pointers point into the parsed buffer;
 * elements include their ID and length octets. */
typedef struct {
	const guint8 *rsne;
	gsize rsne_len;
	const guint8 *rsne2; /* the optional second RSNE of message 3 */
	gsize rsne2_len;
	const guint8 *rsnxe;
	gsize rsnxe_len;
	const guint8 *mde; /* fast transition's Mobility Domain element */
	gsize mde_len;
	const guint8 *fte; /* fast transition's Fast BSS Transition element */
	gsize fte_len;

	gboolean has_gtk;
	guint gtk_key_id; /* 0..3 */
	gboolean gtk_tx;
	const guint8 *gtk;
	gsize gtk_len;

	gboolean has_igtk;
	guint igtk_key_id; /* 4 or 5 */
	const guint8 *igtk_ipn;
	const guint8 *igtk;
	gsize igtk_len;

	const guint8 *pmkid; /* 16 octets */
	const guint8 *mac_address;

	gboolean has_transition_disable;
	guint8 transition_disable; /* its bitmap (first octet) */
} WifiKeyData;

/* Parses (decrypted) Key Data. Trailing padding (0xdd then zeros) ends it;
 * unknown elements and KDEs are skipped; a truncated element, a short or
 * repeated GTK/IGTK KDE, or a third RSNE fail with MALFORMED. */
gboolean wifi_key_data_parse(const guint8 *data, gsize len, WifiKeyData *kd, GError **error);

/* Appends to Key Data being built. Buffers that hold keys are wiped by
 * wifi_key_data_free(). */
void wifi_kde_append_gtk(GByteArray *buf, guint key_id, gboolean tx, const guint8 *gtk, gsize len);
void wifi_kde_append_igtk(GByteArray *buf, guint key_id, const guint8 ipn[WIFI_IPN_LEN],
                          const guint8 *igtk, gsize len);
void wifi_kde_append_pmkid(GByteArray *buf, const guint8 pmkid[16]);
void wifi_kde_append_transition_disable(GByteArray *buf, guint8 bitmap);
/* Wipes and frees a Key Data buffer (NULL-safe). */
void wifi_key_data_free(GByteArray *buf);

/* The parts of an RSNE that decide security (IEEE 802.11-2020 9.4.2.24). */
#define WIFI_RSNE_MAX_SUITES 8
typedef struct {
	guint16 version;
	guint32 group_cipher; /* full suite selectors, e.g. 0x000fac04 */
	guint32 pairwise[WIFI_RSNE_MAX_SUITES];
	guint n_pairwise;
	guint32 akms[WIFI_RSNE_MAX_SUITES];
	guint n_akms;
	guint16 capabilities;
	guint32 group_mgmt_cipher; /* 0 when absent */
	gboolean has_pmkid;        /* the PMKID list's first entry */
	guint8 pmkid[16];
} WifiRsne;

/* Parses a whole RSN element (ID and length included). Absent trailing
 * fields take the standard's defaults. */
gboolean wifi_rsne_parse(const guint8 *ie, gsize len, WifiRsne *rsne, GError **error);

/* Writes an RSN element (ID and length included) into out, which holds
 * 257 octets, and returns its length: what a station puts in its
 * (Re)Association Request and the handshake repeats in message 2. The
 * PMKID list (at most one, pmkid may be NULL) and the group management
 * cipher are written only when there is a PMKID or a group management
 * cipher (rsne->group_mgmt_cipher != 0). Lists longer than 8 are cut. */
gsize wifi_rsne_write(const WifiRsne *rsne, const guint8 *pmkid, guint8 out[257]);

/* Whether the RSNE of message 3 says what the beacon's said: identical
 * octets, or the same version, ciphers, AKMs, capabilities and group
 * management cipher (the PMKID list may differ). Sets RSNE_MISMATCH. */
gboolean wifi_rsne_matches(const guint8 *beacon, gsize beacon_len, const guint8 *msg3,
                           gsize msg3_len, GError **error);

G_END_DECLS
