/* rsn.c - nl80211 messages of a WPA2/WPA3 connection (see rsn.h). */
#include "rsn.h"

#include <netlink/attr.h>
#include <stdio.h>
#include <string.h>

#include "ft-ie.h"
#include "joind-error.h"

static guint32
selector(guint suite)
{
	return 0x000fac00u | suite;
}

static gboolean
has_suite(const guint32 *list, guint n, guint suite)
{
	for (guint i = 0; i < n; i++) {
		if (list[i] == selector(suite))
			return TRUE;
	}
	return FALSE;
}

/* Management frame protection: used when the access point is capable
 * (MFPC) and the radio has the access point's BIP cipher (BIP-CMAC-128
 * when its RSNE names none). */
static gboolean
plan_mfp(const WifiRsne *ap, const WifiWiphy *wiphy, WifiRsnPlan *plan, GError **error)
{
	guint bip = ap->group_mgmt_cipher != 0 ? ap->group_mgmt_cipher & 0xff
	                                       : WIFI_CIPHER_SUITE_BIP_CMAC;
	gboolean ap_required = (ap->capabilities & WIFI_RSN_CAP_MFPR) != 0;
	gboolean ap_capable = ap_required || (ap->capabilities & WIFI_RSN_CAP_MFPC) != 0;
	gboolean we_can = (ap->group_mgmt_cipher == 0 ||
	                   (ap->group_mgmt_cipher & 0xffffff00u) == 0x000fac00u) &&
	                  wifi_cipher_is_group_mgmt(bip) && wiphy != NULL &&
	                  wifi_wiphy_supports_cipher(wiphy, bip);

	plan->mfp = WIFI_MFP_OFF;
	plan->group_mgmt_cipher = 0;
	if (ap_capable && we_can) {
		plan->mfp = ap_required ? WIFI_MFP_REQUIRED : WIFI_MFP_OPTIONAL;
		plan->group_mgmt_cipher = bip;
		return TRUE;
	}
	if (!ap_required)
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	            "The access point requires management frame protection (IEEE 802.11w) "
	            "with %s, which this radio cannot do.",
	            wifi_cipher_suite_to_string(bip));
	return FALSE;
}

/* Our RSN element: one pairwise suite, one AKM, MFPC (and MFPR when the
 * access point requires it) and the group management cipher with MFP. */
static void
plan_own_rsne(const WifiRsne *ap, WifiRsnPlan *plan, const guint8 *pmkid)
{
	WifiRsne own = {0};

	own.version = 1;
	own.group_cipher = ap->group_cipher;
	own.pairwise[0] = selector(plan->pairwise_cipher);
	own.n_pairwise = 1;
	own.akms[0] = selector(plan->akm);
	own.n_akms = 1;
	if (plan->mfp != WIFI_MFP_OFF) {
		own.capabilities = WIFI_RSN_CAP_MFPC;
		if (plan->mfp == WIFI_MFP_REQUIRED)
			own.capabilities |= WIFI_RSN_CAP_MFPR;
		own.group_mgmt_cipher = selector(plan->group_mgmt_cipher);
	}
	plan->own_rsne_len = wifi_rsne_write(&own, pmkid, plan->own_rsne);
}

/* WPA3-Enterprise's 192-bit mode (AKM 00-0F-AC:12): GCMP-256 for data,
 * BIP-GMAC-256 for management frames, MFP required; only when the radio
 * has both ciphers. */
static gboolean
plan_suite_b(const WifiRsne *ap, const WifiWiphy *wiphy, WifiRsnPlan *plan)
{
	if (!has_suite(ap->pairwise, ap->n_pairwise, WIFI_CIPHER_SUITE_GCMP_256) ||
	    ap->group_cipher != selector(WIFI_CIPHER_SUITE_GCMP_256) ||
	    ap->group_mgmt_cipher != selector(WIFI_CIPHER_SUITE_BIP_GMAC_256) ||
	    (ap->capabilities & WIFI_RSN_CAP_MFPC) == 0 || wiphy == NULL ||
	    !wifi_wiphy_supports_cipher(wiphy, WIFI_CIPHER_SUITE_GCMP_256) ||
	    !wifi_wiphy_supports_cipher(wiphy, WIFI_CIPHER_SUITE_BIP_GMAC_256))
		return FALSE;
	plan->akm = WIFI_AKM_SUITE_8021X_SUITE_B_192;
	plan->pairwise_cipher = WIFI_CIPHER_SUITE_GCMP_256;
	plan->group_cipher = WIFI_CIPHER_SUITE_GCMP_256;
	plan->mfp = WIFI_MFP_REQUIRED;
	plan->group_mgmt_cipher = WIFI_CIPHER_SUITE_BIP_GMAC_256;
	plan_own_rsne(ap, plan, NULL);
	return TRUE;
}

/* SAE needs management frame protection (IEEE 802.11-2020 12.4.1);
 * hash-to-element when the access point advertises it in its RSNXE or
 * requires it (its basic rates' selector). */
static gboolean
plan_sae(const WifiBss *bss, WifiRsnPlan *plan)
{
	if (plan->mfp == WIFI_MFP_OFF)
		return FALSE;
	plan->akm = WIFI_AKM_SUITE_SAE;
	plan->sae_h2e = bss->ies.sae_h2e_only ||
	                (bss->ies.has_rsnx && (bss->ies.rsnx & WIFI_RSNX_SAE_H2E) != 0);
	if (plan->sae_h2e) {
		plan->own_rsnxe[0] = WIFI_IE_RSNX;
		plan->own_rsnxe[1] = 1;
		plan->own_rsnxe[2] = (guint8)WIFI_RSNX_SAE_H2E;
		plan->own_rsnxe_len = 3;
	}
	return TRUE;
}

/* OWE (an open network's protected BSS) needs management frame
 * protection: required on our side whatever the access point says. */
static gboolean
plan_owe(const WifiRsne *ap, WifiRsnPlan *plan, GError **error)
{
	if (!has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_OWE)) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    "The access point offers no AKM joind can use on an open "
		                    "network (OWE).");
		return FALSE;
	}
	if (plan->mfp == WIFI_MFP_OFF) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    "OWE needs management frame protection (IEEE 802.11w), which "
		                    "the access point or this radio cannot do.");
		return FALSE;
	}
	plan->mfp = WIFI_MFP_REQUIRED;
	plan->akm = WIFI_AKM_SUITE_OWE;
	return TRUE;
}

/* The FT AKM of an 802.1X BSS: FT-802.1X-SHA384 before FT-802.1X
 * (0: none). */
static guint
ft_8021x(const WifiRsne *ap)
{
	if (has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_FT_8021X_SHA384))
		return WIFI_AKM_SUITE_FT_8021X_SHA384;
	return has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_FT_8021X) ? WIFI_AKM_SUITE_FT_8021X
	                                                                : 0;
}

/* The FT variant of an AKM, the AP offering it (0: none): FT-PSK for
 * PSK and PSK-SHA256, FT-SAE for SAE, an FT-802.1X AKM for 802.1X and
 * 802.1X-SHA256. */
static guint
ft_variant(const WifiRsne *ap, guint akm)
{
	switch (akm) {
	case WIFI_AKM_SUITE_PSK:
	case WIFI_AKM_SUITE_PSK_SHA256:
		return has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_FT_PSK)
		               ? WIFI_AKM_SUITE_FT_PSK
		               : 0;
	case WIFI_AKM_SUITE_SAE:
		return has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_FT_SAE)
		               ? WIFI_AKM_SUITE_FT_SAE
		               : 0;
	case WIFI_AKM_SUITE_8021X:
	case WIFI_AKM_SUITE_8021X_SHA256:
		return ft_8021x(ap);
	default:
		return 0;
	}
}

/* A BSS that offers only FT AKMs: FT-802.1X(-SHA384) for an 802.1X BSS,
 * else FT-SAE where SAE can run, else FT-PSK; wifi_rsn_plan_ft() then
 * checks for joind's SME. */
static gboolean
plan_ft_only(const WifiBss *bss, const WifiRsne *ap, gboolean sae, WifiRsnPlan *plan)
{
	if (!bss->ies.has_mde)
		return FALSE;
	if (bss->type == JOIND_NETWORK_TYPE_8021X) {
		plan->akm = ft_8021x(ap);
		return plan->akm != 0;
	}
	if (sae && has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_FT_SAE) && plan_sae(bss, plan)) {
		plan->akm = WIFI_AKM_SUITE_FT_SAE;
		return TRUE;
	}
	if (!has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_FT_PSK))
		return FALSE;
	plan->akm = WIFI_AKM_SUITE_FT_PSK;
	return TRUE;
}

/* The AKM: OWE for an open network; SAE when it can; else the plain and SHA-256 pair of the BSS's
 * kind (PSK, or 802.1X for an enterprise BSS). */
static gboolean
plan_akm(const WifiBss *bss, const WifiRsne *ap, gboolean sae, WifiRsnPlan *plan, GError **error)
{
	gboolean eap = bss->type == JOIND_NETWORK_TYPE_8021X;
	guint plain_akm = eap ? WIFI_AKM_SUITE_8021X : WIFI_AKM_SUITE_PSK;
	guint sha256_akm = eap ? WIFI_AKM_SUITE_8021X_SHA256 : WIFI_AKM_SUITE_PSK_SHA256;
	gboolean plain = has_suite(ap->akms, ap->n_akms, plain_akm);
	gboolean sha256 = has_suite(ap->akms, ap->n_akms, sha256_akm);
	gboolean ap_sae = !eap && has_suite(ap->akms, ap->n_akms, WIFI_AKM_SUITE_SAE);

	if (bss->type == JOIND_NETWORK_TYPE_OPEN)
		return plan_owe(ap, plan, error);
	if (ap_sae && sae && plan_sae(bss, plan))
		return TRUE;
	if (!plain && !sha256 && plan_ft_only(bss, ap, sae, plan))
		return TRUE;
	if (!plain && !sha256) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    ap_sae ? "The access point offers only WPA3-Personal (SAE), "
		                             "which joind can run only through its own SME on a "
		                             "radio that sends SAE frames, with management frame "
		                             "protection."
		                           : "joind cannot join this access point yet (it needs an "
		                             "AKM other than PSK, SAE or 802.1X).");
		return FALSE;
	}
	/* The SHA-256 AKM is the stronger one; 802.11 pairs it with MFP. */
	plan->akm = sha256 && (plan->mfp != WIFI_MFP_OFF || !plain) ? sha256_akm : plain_akm;
	return TRUE;
}

gboolean
wifi_rsn_plan(const WifiBss *bss, const WifiWiphy *wiphy, gboolean sae, WifiRsnPlan *plan,
              GError **error)
{
	gsize len = 0, body_len = 0;
	const guint8 *ies = g_bytes_get_data(bss->ie_data, &len);
	const guint8 *body = wifi_ie_find(ies, len, WIFI_IE_RSN, &body_len);
	WifiRsne ap;
	gboolean suite_b;

	memset(plan, 0, sizeof(*plan));
	if (body == NULL || !wifi_rsne_parse(body - 2, body_len + 2, &ap, NULL)) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    "The access point has no usable RSN element.");
		return FALSE;
	}
	plan->ap_rsne = body - 2;
	plan->ap_rsne_len = body_len + 2;
	body = wifi_ie_find(ies, len, WIFI_IE_RSNX, &body_len);
	if (body != NULL) {
		plan->ap_rsnxe = body - 2;
		plan->ap_rsnxe_len = body_len + 2;
	}
	suite_b = bss->type == JOIND_NETWORK_TYPE_8021X &&
	          has_suite(ap.akms, ap.n_akms, WIFI_AKM_SUITE_8021X_SUITE_B_192);
	if (suite_b && plan_suite_b(&ap, wiphy, plan))
		return TRUE;
	if (!has_suite(ap.pairwise, ap.n_pairwise, WIFI_CIPHER_SUITE_CCMP) ||
	    (ap.group_cipher & 0xffffff00u) != 0x000fac00u ||
	    !wifi_cipher_is_data(ap.group_cipher & 0xff)) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    suite_b ? "The access point requires WPA3-Enterprise's 192-bit "
		                              "mode, whose ciphers (GCMP-256, BIP-GMAC-256) this "
		                              "radio lacks."
		                            : "joind cannot join this access point yet (it needs a "
		                              "cipher other than CCMP).");
		return FALSE;
	}
	if (!plan_mfp(&ap, wiphy, plan, error) || !plan_akm(bss, &ap, sae, plan, error))
		return FALSE;
	plan->pairwise_cipher = WIFI_CIPHER_SUITE_CCMP;
	plan->group_cipher = ap.group_cipher & 0xff;
	plan_own_rsne(&ap, plan, NULL);
	return TRUE;
}

gboolean
wifi_rsn_plan_ft(WifiRsnPlan *plan, const WifiBss *bss, gboolean sme, GError **error)
{
	gboolean ft_only = wifi_ft_akm_is_ft(plan->akm);
	guint8 mdid[2] = {(guint8)(bss->ies.mdid & 0xff), (guint8)(bss->ies.mdid >> 8)};
	WifiRsne ap;
	guint ft;

	if (!bss->ies.has_mde || !wifi_rsne_parse(plan->ap_rsne, plan->ap_rsne_len, &ap, NULL))
		return FALSE;
	ft = ft_only ? plan->akm : ft_variant(&ap, plan->akm);
	if (ft == 0)
		return FALSE;
	if (!sme) {
		if (ft_only)
			g_set_error_literal(
			        error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
			        "The access point offers only fast transition (802.11r), "
			        "which joind runs only through its own SME: this radio "
			        "connects with CMD_CONNECT, so FT is not available.");
		return FALSE;
	}
	plan->akm = ft;
	plan_own_rsne(&ap, plan, NULL);
	wifi_mde_write(plan->own_mde, mdid, bss->ies.ft_capability);
	plan->own_mde_len = WIFI_MDE_LEN;
	return TRUE;
}

void
wifi_rsn_plan_offer_pmkid(WifiRsnPlan *plan, const guint8 pmkid[16])
{
	WifiRsne ap;

	if (wifi_rsne_parse(plan->ap_rsne, plan->ap_rsne_len, &ap, NULL))
		plan_own_rsne(&ap, plan, pmkid);
}

void
wifi_rsn_put_associate(struct nl_msg *msg, const WifiRsnPlan *plan, gboolean over_nl80211)
{
	/* Our elements (RSNE, RSNXE, OWE's, FT's MDE and FTE) go in
	 * NL80211_ATTR_IE with the station's others: the SME's message puts
	 * them (sme.c). */
	nla_put_u32(msg, NL80211_ATTR_WPA_VERSIONS, NL80211_WPA_VERSION_2);
	nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITES_PAIRWISE,
	            wifi_cipher_suite_selector(plan->pairwise_cipher));
	nla_put_u32(msg, NL80211_ATTR_CIPHER_SUITE_GROUP,
	            wifi_cipher_suite_selector(plan->group_cipher));
	nla_put_u32(msg, NL80211_ATTR_AKM_SUITES, selector(plan->akm));
	/* Our RSNE decides whether MFP is used, so the kernel is told that it
	 * is (REQUIRED); NL80211_MFP_OPTIONAL would let a driver choose, which
	 * only drivers that write the RSNE themselves can. */
	if (plan->mfp != WIFI_MFP_OFF)
		nla_put_u32(msg, NL80211_ATTR_USE_MFP, NL80211_MFP_REQUIRED);
	/* The port stays closed until SET_STATION authorizes it. */
	nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, WIFI_ETH_P_PAE);
	if (over_nl80211) {
		/* EAPOL travels over this netlink socket, which owns the
		 * connection; otherwise over the interface (AF_PACKET). */
		nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_OVER_NL80211);
		nla_put_flag(msg, NL80211_ATTR_SOCKET_OWNER);
	}
}

void
wifi_rsn_put_connect(struct nl_msg *msg, const WifiRsnPlan *plan, gboolean over_nl80211)
{
	/* CMD_CONNECT picks the BSS by privacy too; ASSOCIATE names it. */
	nla_put_flag(msg, NL80211_ATTR_PRIVACY);
	wifi_rsn_put_associate(msg, plan, over_nl80211);
}

struct nl_msg *
wifi_rsn_msg_eapol(WifiNl *nl, guint32 ifindex, const guint8 *aa, const guint8 *frame, gsize len,
                   gboolean no_encrypt)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_CONTROL_PORT_FRAME, 0);

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_FRAME, (int)len, frame);
	nla_put(msg, NL80211_ATTR_MAC, 6, aa);
	nla_put_u16(msg, NL80211_ATTR_CONTROL_PORT_ETHERTYPE, WIFI_ETH_P_PAE);
	if (no_encrypt)
		nla_put_flag(msg, NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT);
	return msg;
}

void
wifi_rsn_put_new_key(struct nl_msg *msg, guint32 ifindex, const WifiHandshakeKey *key)
{
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_KEY_DATA, (int)key->key_len, key->key);
	nla_put_u8(msg, NL80211_ATTR_KEY_IDX, (guint8)key->key_id);
	nla_put_u32(msg, NL80211_ATTR_KEY_CIPHER, wifi_cipher_suite_selector(key->cipher));
	/* The GTK's RSC, the IGTK's IPN: where replay detection starts. */
	if (key->seq_len > 0)
		nla_put(msg, NL80211_ATTR_KEY_SEQ, (int)key->seq_len, key->seq);
	if (key->kind == WIFI_KEY_KIND_PAIRWISE && key->addr != NULL)
		nla_put(msg, NL80211_ATTR_MAC, 6, key->addr);
}

struct nl_msg *
wifi_rsn_msg_new_key(WifiNl *nl, guint32 ifindex, const WifiHandshakeKey *key)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_NEW_KEY, 0);

	wifi_rsn_put_new_key(msg, ifindex, key);
	return msg;
}

/* In station mode the kernel finds a received group frame's GTK, and a
 * protected group management frame's IGTK, by the key ID in the frame, and
 * a station sends no group-addressed data, so GTKs need no SET_KEY. The
 * IGTK is made the default management key, which is what BIP uses for the
 * management frames this interface protects (nl80211 accepts key IDs 4 and
 * 5 there only). */
gboolean
wifi_rsn_put_set_default_key(struct nl_msg *msg, guint32 ifindex, const WifiHandshakeKey *key)
{
	if (key->kind != WIFI_KEY_KIND_GROUP_MGMT)
		return FALSE;
	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put_u8(msg, NL80211_ATTR_KEY_IDX, (guint8)key->key_id);
	nla_put_flag(msg, NL80211_ATTR_KEY_DEFAULT_MGMT);
	return TRUE;
}

struct nl_msg *
wifi_rsn_msg_set_default_key(WifiNl *nl, guint32 ifindex, const WifiHandshakeKey *key)
{
	struct nl_msg *msg;

	if (key->kind != WIFI_KEY_KIND_GROUP_MGMT)
		return NULL;
	msg = wifi_nl_msg_new(nl, NL80211_CMD_SET_KEY, 0);
	(void)wifi_rsn_put_set_default_key(msg, ifindex, key);
	return msg;
}

struct nl_msg *
wifi_rsn_msg_authorize(WifiNl *nl, guint32 ifindex, const guint8 *aa)
{
	struct nl_msg *msg = wifi_nl_msg_new(nl, NL80211_CMD_SET_STATION, 0);
	struct nl80211_sta_flag_update flags = {
	        .mask = 1u << NL80211_STA_FLAG_AUTHORIZED,
	        .set = 1u << NL80211_STA_FLAG_AUTHORIZED,
	};

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, ifindex);
	nla_put(msg, NL80211_ATTR_MAC, 6, aa);
	nla_put(msg, NL80211_ATTR_STA_FLAGS2, sizeof(flags), &flags);
	return msg;
}
