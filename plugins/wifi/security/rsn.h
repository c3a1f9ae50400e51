/* rsn.h - what a secured connect sends to nl80211 (WPA2/WPA3-Personal,
 * 802.1X, OWE): the AKM and suites chosen from the access point's RSN
 * element and the radio's ciphers (SAE where joind's SME and the access
 * point can, management frame protection when both sides can), our RSN
 * element and RSNXE, and the messages for
 * CMD_CONNECT's security attributes, EAPOL over the control port, keys
 * (NEW_KEY, SET_KEY) and the authorized port (SET_STATION).
 */
#pragma once

#include "bss.h"
#include "nl80211.h"
#include "owe.h"
#include "rsn-handshake.h"
#include "rsn-kde.h"
#include "wiphy.h"

G_BEGIN_DECLS

#define WIFI_ETH_P_PAE 0x888e

/* Management frame protection (IEEE 802.11w) for one association. */
typedef enum {
	WIFI_MFP_OFF,      /* not negotiated: one side cannot do it */
	WIFI_MFP_OPTIONAL, /* both can, the access point does not require it */
	WIFI_MFP_REQUIRED, /* the access point requires it (MFPR) */
} WifiMfp;

typedef struct {
	guint akm;             /* WifiAkmSuite */
	guint pairwise_cipher; /* WifiCipherSuite */
	guint group_cipher;
	WifiMfp mfp;
	guint group_mgmt_cipher; /* a BIP suite when mfp != WIFI_MFP_OFF, else 0 */
	guint8 own_rsne[257];    /* as sent in the association request */
	gsize own_rsne_len;
	const guint8 *ap_rsne; /* in the BSS's ie_data (keep the BSS alive) */
	gsize ap_rsne_len;
	const guint8 *ap_rsnxe; /* likewise, NULL when the BSS has none */
	gsize ap_rsnxe_len;
	gboolean sae_h2e;    /* SAE: hash-to-element, announced in our RSNXE */
	guint sae_group;     /* SAE: the group it was accepted in */
	gboolean sae_pmksa;  /* SAE: a cached PMKSA stands in for it */
	guint8 own_rsnxe[3]; /* sent after our RSNE when not empty */
	gsize own_rsnxe_len;
	/* OWE: our Diffie-Hellman element, sent after the RSNXE, and its
	 * group (0: not OWE). */
	guint8 owe_dh[WIFI_OWE_ELEMENT_MAX];
	gsize owe_dh_len;
	guint owe_group;
	/* Fast transition (an FT AKM): the BSS's Mobility Domain element,
	 * repeated in the association request (empty otherwise). */
	guint8 own_mde[5];
	gsize own_mde_len;
	/* Fast transition over the air (auth-ft-air.c): our FTE, sent after
	 * the MDE; with ft_over_air the authentication is FT's and carries
	 * our RSNE, the MDE and this FTE. */
	guint8 own_fte[257];
	gsize own_fte_len;
	gboolean ft_over_air;
} WifiRsnPlan;

/* Picks the AKM (OWE for an open network's BSS that offers it, with
 * management frame protection required; SAE when sae says joind's SME can run it, the access
 * point offers it and management frame protection is used, with
 * hash-to-element when the access point advertises it; else PSK-SHA256
 * when management frame protection is used and the access point offers
 * it, else PSK, else PSK-SHA256; 802.1X and 802.1X-SHA256 likewise for an
 * 802.1X BSS; its 192-bit mode, with GCMP-256 and BIP-GMAC-256, when it
 * offers that and the radio has both ciphers), CCMP, and
 * management frame protection when the access point is capable of it and
 * the radio has its BIP cipher. Fails with JOIND_ERROR_NOT_SUPPORTED for
 * what joind cannot do (no CCMP, no PSK or usable SAE AKM, or MFP required
 * and the radio lacks the BIP cipher). */
gboolean wifi_rsn_plan(const WifiBss *bss, const WifiWiphy *wiphy, gboolean sae, WifiRsnPlan *plan,
                       GError **error);

/* Fast transition's initial mobility domain association: where the BSS
 * has a Mobility Domain element and offers the FT variant of the plan's
 * AKM (FT-PSK for PSK and PSK-SHA256), the plan takes it,
 * with the MDE in the association request; only on joind's SME (sme),
 * which runs the FT authentication of a later roam. A plan whose AKM is
 * FT already (an FT-only BSS) fails without sme, with a sentence.
 * Returns FALSE with error unset when the plan stays as it was. */
gboolean wifi_rsn_plan_ft(WifiRsnPlan *plan, const WifiBss *bss, gboolean sme, GError **error);

/* Our RSNE names pmkid (a cached PMKSA) in the PMKID list: the access
 * point that still has it skips EAP. */
void wifi_rsn_plan_offer_pmkid(WifiRsnPlan *plan, const guint8 pmkid[16]);

/* The RSN attributes of CMD_CONNECT: suites, control port (EAPOL over
 * nl80211 when over_nl80211, else the interface's AF_PACKET path) and
 * USE_MFP. The plan's elements (own_rsne, own_rsnxe, owe_dh) are not
 * among them: the SME puts them in NL80211_ATTR_IE with the station's
 * capability elements (sme.c). */
void wifi_rsn_put_connect(struct nl_msg *msg, const WifiRsnPlan *plan, gboolean over_nl80211);
/* The same for CMD_ASSOCIATE of the userspace SME (sme.c): all but
 * PRIVACY, which only CMD_CONNECT takes. */
void wifi_rsn_put_associate(struct nl_msg *msg, const WifiRsnPlan *plan, gboolean over_nl80211);

struct nl_msg *wifi_rsn_msg_eapol(WifiNl *nl, guint32 ifindex, const guint8 *aa,
                                  const guint8 *frame, gsize len, gboolean no_encrypt);
struct nl_msg *wifi_rsn_msg_new_key(WifiNl *nl, guint32 ifindex, const WifiHandshakeKey *key);
/* SET_KEY after an IGTK's NEW_KEY: the default management key (KEY_IDX 4
 * or 5, KEY_DEFAULT_MGMT). NULL for other kinds of key, which need none
 * in station mode (see rsn.c). */
struct nl_msg *wifi_rsn_msg_set_default_key(WifiNl *nl, guint32 ifindex,
                                            const WifiHandshakeKey *key);
/* The attributes of the two above into a message of the right command
 * (for tests, which build messages without a socket). */
void wifi_rsn_put_new_key(struct nl_msg *msg, guint32 ifindex, const WifiHandshakeKey *key);
gboolean wifi_rsn_put_set_default_key(struct nl_msg *msg, guint32 ifindex,
                                      const WifiHandshakeKey *key);
struct nl_msg *wifi_rsn_msg_authorize(WifiNl *nl, guint32 ifindex, const guint8 *aa);

G_END_DECLS
