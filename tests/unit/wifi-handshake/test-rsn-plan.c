/* test-rsn-plan.c - what a WPA2/WPA3-PSK connect asks of nl80211: the plan
 * from the access point's RSN element and the radio's ciphers (management
 * frame protection required, optional or off; PSK, PSK-SHA256 or SAE; a clear
 * NotSupported when the AP requires MFP the radio cannot do), CMD_CONNECT's
 * attributes, and the key messages (NEW_KEY of an IGTK with its IPN, the
 * SET_KEY that makes it the default management key). */
#include <netlink/genl/genl.h>
#include <string.h>

#include "bss.h"
#include "hs-test-util.h"
#include "joind-error.h"
#include "nl-test-util.h"
#include "rsn.h"

#define RSNE_PSK "30 14 0100 000fac04 0100 000fac04 0100 000fac02 0000"
/* PSK-SHA256, MFP capable and required. */
#define RSNE_SHA256_MFPR "30 14 0100 000fac04 0100 000fac04 0100 000fac06 c000"
/* PSK and PSK-SHA256, MFP capable only. */
#define RSNE_MIXED_MFPC "30 18 0100 000fac04 0100 000fac04 0200 000fac02 000fac06 8000"
/* WPA3 transition: PSK and SAE, MFP capable. */
#define RSNE_TRANSITION "30 18 0100 000fac04 0100 000fac04 0200 000fac02 000fac08 8000"
/* SAE only, MFP required. */
#define RSNE_SAE "30 14 0100 000fac04 0100 000fac04 0100 000fac08 c000"
/* An RSNXE with the SAE hash-to-element bit. */
#define RSNXE_H2E " f4 01 20"
/* MFP required with BIP-GMAC-256. */
#define RSNE_MFPR_GMAC256 "30 1a 0100 000fac04 0100 000fac04 0100 000fac06 c000 0000 000fac0c"

static WifiBss *
bss_with_rsne(const gchar *rsne_hex)
{
	g_autofree gchar *hex = g_strconcat("00 08 6a6f696e642d7365 ", rsne_hex, NULL);
	g_autoptr(GBytes) ies = hs_test_hex(hex);
	const guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x05, 0x00};
	g_autoptr(GError) error = NULL;
	WifiBss *bss =
	        wifi_bss_new(bssid, 2422, -3000, WIFI_CAPABILITY_ESS | WIFI_CAPABILITY_PRIVACY,
	                     g_bytes_get_data(ies, NULL), g_bytes_get_size(ies), &error);

	g_assert_no_error(error);
	g_assert_nonnull(bss);
	return bss;
}

/* A radio with CCMP and, when bip, BIP-CMAC-128. */
static WifiWiphy *
radio(gboolean bip)
{
	WifiWiphy *wiphy = wifi_wiphy_new(0);

	wiphy->ciphers = WIFI_CIPHER_CCMP | (bip ? WIFI_CIPHER_BIP_CMAC : 0);
	return wiphy;
}

static void
plan_ok(const gchar *rsne_hex, gboolean bip, WifiRsnPlan *plan, WifiRsne *own)
{
	g_autoptr(WifiBss) bss = bss_with_rsne(rsne_hex);
	g_autoptr(WifiWiphy) wiphy = radio(bip);
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_rsn_plan(bss, wiphy, FALSE, plan, &error));
	g_assert_no_error(error);
	g_assert_true(wifi_rsne_parse(plan->own_rsne, plan->own_rsne_len, own, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(own->n_akms, ==, 1);
	g_assert_cmphex(own->akms[0], ==, 0x000fac00u | plan->akm);
	g_assert_cmpuint(plan->pairwise_cipher, ==, WIFI_CIPHER_SUITE_CCMP);
}

static void
test_plan_mfp(void)
{
	WifiRsnPlan plan;
	WifiRsne own;

	/* Required by the AP: MFPC and MFPR in ours, BIP-CMAC-128 named. */
	plan_ok(RSNE_SHA256_MFPR, TRUE, &plan, &own);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_REQUIRED);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK_SHA256);
	g_assert_cmpuint(plan.group_mgmt_cipher, ==, WIFI_CIPHER_SUITE_BIP_CMAC);
	g_assert_cmphex(own.capabilities, ==, WIFI_RSN_CAP_MFPC | WIFI_RSN_CAP_MFPR);
	g_assert_cmphex(own.group_mgmt_cipher, ==, 0x000fac06);

	/* Capable: optional, and the SHA-256 AKM is preferred with it. */
	plan_ok(RSNE_MIXED_MFPC, TRUE, &plan, &own);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_OPTIONAL);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK_SHA256);
	g_assert_cmphex(own.capabilities, ==, WIFI_RSN_CAP_MFPC);

	/* Capable, but the radio has no BIP: no MFP, plain PSK. */
	plan_ok(RSNE_MIXED_MFPC, FALSE, &plan, &own);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_OFF);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK);
	g_assert_cmpuint(plan.group_mgmt_cipher, ==, 0);
	g_assert_cmphex(own.capabilities, ==, 0);
	g_assert_cmphex(own.group_mgmt_cipher, ==, 0);

	/* An AP without MFP. */
	plan_ok(RSNE_PSK, TRUE, &plan, &own);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_OFF);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK);
	g_assert_cmphex(own.group_mgmt_cipher, ==, 0);
}

static void
plan_refused(const gchar *rsne_hex, gboolean bip, const gchar *cipher)
{
	g_autoptr(WifiBss) bss = bss_with_rsne(rsne_hex);
	g_autoptr(WifiWiphy) wiphy = radio(bip);
	g_autoptr(GError) error = NULL;
	WifiRsnPlan plan;

	g_assert_false(wifi_rsn_plan(bss, wiphy, FALSE, &plan, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_nonnull(strstr(error->message, "requires management frame protection"));
	g_assert_nonnull(strstr(error->message, cipher));
}

static void
test_plan_mfp_required_unsupported(void)
{
	plan_refused(RSNE_SHA256_MFPR, FALSE, "BIP-CMAC-128");
	plan_refused(RSNE_MFPR_GMAC256, TRUE, "BIP-GMAC-256");
}

/* WPA3-Enterprise 192-bit (AKM 12) with WPA3-Enterprise (AKM 5) beside it. */
#define RSNE_SUITE_B      "30 1e 0100 000fac09 0100 000fac09 0200 000fac0c 000fac05 c000 0000 000fac0c"
#define RSNE_SUITE_B_ONLY "30 1a 0100 000fac09 0100 000fac09 0100 000fac0c c000 0000 000fac0c"

/* The 192-bit AKM when the radio has GCMP-256 and BIP-GMAC-256, with MFP
 * required on our side; without them a sentence naming what is missing. */
static void
test_plan_suite_b(void)
{
	g_autoptr(WifiBss) bss = bss_with_rsne(RSNE_SUITE_B);
	g_autoptr(WifiBss) only = bss_with_rsne(RSNE_SUITE_B_ONLY);
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	g_autoptr(GError) error = NULL;
	WifiRsnPlan plan;
	WifiRsne own;

	g_assert_cmpint(bss->type, ==, JOIND_NETWORK_TYPE_8021X);
	wiphy->ciphers = WIFI_CIPHER_CCMP | WIFI_CIPHER_GCMP_256 | WIFI_CIPHER_BIP_CMAC |
	                 WIFI_CIPHER_BIP_GMAC_256;
	g_assert_true(wifi_rsn_plan(bss, wiphy, FALSE, &plan, &error));
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_8021X_SUITE_B_192);
	g_assert_cmpuint(plan.pairwise_cipher, ==, WIFI_CIPHER_SUITE_GCMP_256);
	g_assert_cmpuint(plan.group_cipher, ==, WIFI_CIPHER_SUITE_GCMP_256);
	g_assert_cmpuint(plan.group_mgmt_cipher, ==, WIFI_CIPHER_SUITE_BIP_GMAC_256);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_REQUIRED);
	g_assert_true(wifi_rsne_parse(plan.own_rsne, plan.own_rsne_len, &own, &error));
	g_assert_cmphex(own.akms[0], ==, 0x000fac0c);
	g_assert_cmphex(own.pairwise[0], ==, 0x000fac09);
	g_assert_cmphex(own.group_mgmt_cipher, ==, 0x000fac0c);
	g_assert_cmphex(own.capabilities & 0xc0, ==, 0xc0);
	/* A radio without GCMP-256 cannot join a 192-bit-only access point;
	 * the sentence says why. */
	wiphy->ciphers = WIFI_CIPHER_CCMP | WIFI_CIPHER_BIP_GMAC_256;
	g_assert_false(wifi_rsn_plan(only, wiphy, FALSE, &plan, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_nonnull(strstr(error->message, "192-bit"));
}

static void
sae_plan(const gchar *ies_hex, gboolean sae, gboolean bip, WifiRsnPlan *plan, GError **error)
{
	g_autoptr(WifiBss) bss = bss_with_rsne(ies_hex);
	g_autoptr(WifiWiphy) wiphy = radio(bip);

	if (wifi_rsn_plan(bss, wiphy, sae, plan, error))
		g_assert_no_error(*error);
}

/* SAE where joind's SME can run it and MFP is used: with H2E and our
 * RSNXE after the RSNE when the access point advertises H2E; else PSK
 * for a transition network; an SAE-only network cannot do without. */
static void
test_plan_sae(void)
{
	static const guint8 rsnxe[] = {0xf4, 0x01, 0x20};
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	g_autoptr(GError) error = NULL;
	struct nl_msg *msg;
	WifiRsnPlan plan;

	sae_plan(RSNE_TRANSITION, TRUE, TRUE, &plan, &error);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_SAE);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_OPTIONAL);
	g_assert_false(plan.sae_h2e);
	g_assert_cmpuint(plan.own_rsnxe_len, ==, 0);
	sae_plan(RSNE_SAE RSNXE_H2E, TRUE, TRUE, &plan, &error);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_SAE);
	g_assert_cmpint(plan.mfp, ==, WIFI_MFP_REQUIRED);
	g_assert_true(plan.sae_h2e);
	g_assert_cmpmem(plan.own_rsnxe, plan.own_rsnxe_len, rsnxe, sizeof(rsnxe));
	msg = wifi_test_msg_new(NL80211_CMD_ASSOCIATE);
	wifi_rsn_put_associate(msg, &plan, TRUE);
	wifi_test_msg_parse(msg, tb);
	g_assert_cmphex(nla_get_u32(tb[NL80211_ATTR_AKM_SUITES]), ==, 0x000fac08);
	/* The elements are the SME's to put (test-sme). */
	g_assert_null(tb[NL80211_ATTR_IE]);
	nlmsg_free(msg);
	/* No SAE through joind's SME, or no BIP for MFP: WPA2's side. */
	sae_plan(RSNE_TRANSITION, FALSE, TRUE, &plan, &error);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK);
	sae_plan(RSNE_TRANSITION, TRUE, FALSE, &plan, &error);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK);
	sae_plan(RSNE_SAE, FALSE, TRUE, &plan, &error);
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_nonnull(strstr(error->message, "only WPA3-Personal (SAE)"));
}

/* PSK and FT-PSK, with a Mobility Domain element (a1b2, over the DS). */
#define RSNE_PSK_FT  "30 18 0100 000fac04 0100 000fac04 0200 000fac02 000fac04 0000 3603a1b201"
#define RSNE_FT_ONLY "30 14 0100 000fac04 0100 000fac04 0100 000fac04 0000 3603a1b200"

/* FT-PSK is taken on joind's SME (initial mobility domain association,
 * the MDE sent); without it the plain AKM stays, and an FT-only BSS is
 * refused with a sentence. A BSS without an MDE is never FT. */
static void
test_plan_ft(void)
{
	g_autoptr(WifiBss) mixed = bss_with_rsne(RSNE_PSK_FT);
	g_autoptr(WifiBss) only = bss_with_rsne(RSNE_FT_ONLY);
	g_autoptr(WifiBss) no_mde =
	        bss_with_rsne("30 18 0100 000fac04 0100 000fac04 0200 000fac02 000fac04 0000");
	g_autoptr(WifiWiphy) wiphy = radio(FALSE);
	g_autoptr(GError) error = NULL;
	WifiRsnPlan plan;
	WifiRsne own;

	g_assert_true(wifi_rsn_plan(mixed, wiphy, FALSE, &plan, &error));
	g_assert_false(wifi_rsn_plan_ft(&plan, mixed, FALSE, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK);
	g_assert_cmpuint(plan.own_mde_len, ==, 0);
	g_assert_true(wifi_rsn_plan_ft(&plan, mixed, TRUE, &error));
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_FT_PSK);
	hs_assert_hex(plan.own_mde, plan.own_mde_len, "3603a1b201");
	g_assert_true(wifi_rsne_parse(plan.own_rsne, plan.own_rsne_len, &own, NULL));
	g_assert_cmpuint(own.akms[0], ==, 0x000fac04);
	g_assert_false(own.has_pmkid);

	g_assert_true(wifi_rsn_plan(only, wiphy, FALSE, &plan, &error));
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_FT_PSK);
	g_assert_false(wifi_rsn_plan_ft(&plan, only, FALSE, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_nonnull(strstr(error->message, "FT is not available"));
	g_clear_error(&error);
	g_assert_true(wifi_rsn_plan_ft(&plan, only, TRUE, &error));
	hs_assert_hex(plan.own_mde, plan.own_mde_len, "3603a1b200");

	g_assert_true(wifi_rsn_plan(no_mde, wiphy, FALSE, &plan, &error));
	g_assert_false(wifi_rsn_plan_ft(&plan, no_mde, TRUE, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(plan.akm, ==, WIFI_AKM_SUITE_PSK);
}

/* SAE and FT-SAE (MFP required), and FT-SAE alone. */
#define RSNE_SAE_FT      "30 18 0100 000fac04 0100 000fac04 0200 000fac08 000fac09 c000 3603a1b201"
#define RSNE_FT_SAE_ONLY "30 14 0100 000fac04 0100 000fac04 0100 000fac09 c000 3603a1b200"
/* 802.1X beside FT-802.1X, and FT-802.1X-SHA384 beside FT-802.1X. */
#define RSNE_EAP_FT  "30 18 0100 000fac04 0100 000fac04 0200 000fac01 000fac03 0000 3603a1b201"
#define RSNE_FT_EAPS "30 18 0100 000fac04 0100 000fac04 0200 000fac03 000fac0d 0000 3603a1b200"

/* The plan of rsne_hex (sae: SAE can run) made FT's by wifi_rsn_plan_ft():
 * its AKM is akm, in our RSNE too, with the BSS's MDE. */
static void
plan_ft_ok(const gchar *rsne_hex, gboolean sae, guint akm)
{
	g_autoptr(WifiBss) bss = bss_with_rsne(rsne_hex);
	g_autoptr(WifiWiphy) wiphy = radio(TRUE);
	g_autoptr(GError) error = NULL;
	WifiRsnPlan plan;
	WifiRsne own;

	g_assert_true(wifi_rsn_plan(bss, wiphy, sae, &plan, &error));
	g_assert_no_error(error);
	g_assert_true(wifi_rsn_plan_ft(&plan, bss, TRUE, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(plan.akm, ==, akm);
	g_assert_true(wifi_rsne_parse(plan.own_rsne, plan.own_rsne_len, &own, NULL));
	g_assert_cmphex(own.akms[0], ==, 0x000fac00u | akm);
	g_assert_cmpuint(plan.own_mde_len, ==, 5);
	g_assert_cmpuint(plan.own_mde[2], ==, 0xa1);
}

/* FT-SAE where SAE runs (H2E's RSNXE kept), FT-802.1X and
 * FT-802.1X-SHA384 (the stronger where both are offered); FT-only SAE
 * and 802.1X BSSes join; without SAE, an FT-SAE-only BSS has no AKM. */
static void
test_plan_ft_akms(void)
{
	g_autoptr(WifiBss) sae_only = bss_with_rsne(RSNE_FT_SAE_ONLY RSNXE_H2E);
	g_autoptr(WifiWiphy) wiphy = radio(TRUE);
	g_autoptr(GError) error = NULL;
	WifiRsnPlan plan;

	plan_ft_ok(RSNE_SAE_FT, TRUE, WIFI_AKM_SUITE_FT_SAE);
	plan_ft_ok(RSNE_FT_SAE_ONLY, TRUE, WIFI_AKM_SUITE_FT_SAE);
	plan_ft_ok(RSNE_EAP_FT, FALSE, WIFI_AKM_SUITE_FT_8021X);
	plan_ft_ok(RSNE_FT_EAPS, FALSE, WIFI_AKM_SUITE_FT_8021X_SHA384);
	g_assert_true(wifi_rsn_plan(sae_only, wiphy, TRUE, &plan, &error));
	g_assert_true(plan.sae_h2e);
	hs_assert_hex(plan.own_rsnxe, plan.own_rsnxe_len, "f40120");
	g_assert_false(wifi_rsn_plan(sae_only, wiphy, FALSE, &plan, &error));
	g_assert_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
}

static void
test_connect_attrs(void)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	WifiRsnPlan plan;
	WifiRsne own;
	struct nl_msg *msg;

	plan_ok(RSNE_SHA256_MFPR, TRUE, &plan, &own);
	msg = wifi_test_msg_new(NL80211_CMD_CONNECT);
	wifi_rsn_put_connect(msg, &plan, TRUE);
	wifi_test_msg_parse(msg, tb);
	g_assert_nonnull(tb[NL80211_ATTR_USE_MFP]);
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_USE_MFP]), ==, NL80211_MFP_REQUIRED);
	g_assert_cmphex(nla_get_u32(tb[NL80211_ATTR_AKM_SUITES]), ==, 0x000fac06);
	g_assert_nonnull(tb[NL80211_ATTR_CONTROL_PORT]);
	g_assert_nonnull(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	g_assert_nonnull(tb[NL80211_ATTR_SOCKET_OWNER]);
	nlmsg_free(msg);

	/* No MFP, and EAPOL over AF_PACKET: neither attribute. */
	plan_ok(RSNE_PSK, TRUE, &plan, &own);
	msg = wifi_test_msg_new(NL80211_CMD_CONNECT);
	wifi_rsn_put_connect(msg, &plan, FALSE);
	wifi_test_msg_parse(msg, tb);
	g_assert_null(tb[NL80211_ATTR_USE_MFP]);
	g_assert_nonnull(tb[NL80211_ATTR_CONTROL_PORT]);
	g_assert_cmpuint(nla_get_u16(tb[NL80211_ATTR_CONTROL_PORT_ETHERTYPE]), ==, 0x888e);
	g_assert_null(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	g_assert_null(tb[NL80211_ATTR_SOCKET_OWNER]);
	nlmsg_free(msg);
}

static void
test_key_messages(void)
{
	const guint8 igtk[16] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	                         0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};
	const guint8 ipn[6] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06};
	const guint8 aa[6] = {0x02, 0x00, 0x00, 0x00, 0x05, 0x00};
	WifiHandshakeKey k = {
	        .kind = WIFI_KEY_KIND_GROUP_MGMT,
	        .key_id = 5,
	        .cipher = WIFI_CIPHER_SUITE_BIP_CMAC,
	        .key = igtk,
	        .key_len = sizeof(igtk),
	        .seq = ipn,
	        .seq_len = sizeof(ipn),
	};
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_NEW_KEY);

	/* NEW_KEY of the IGTK: key ID 5, BIP-CMAC-128, the IPN as KEY_SEQ, no
	 * peer address (a group key). */
	wifi_rsn_put_new_key(msg, 7, &k);
	wifi_test_msg_parse(msg, tb);
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_IFINDEX]), ==, 7);
	g_assert_cmpuint(nla_get_u8(tb[NL80211_ATTR_KEY_IDX]), ==, 5);
	g_assert_cmphex(nla_get_u32(tb[NL80211_ATTR_KEY_CIPHER]), ==, 0x000fac06);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_KEY_DATA]), nla_len(tb[NL80211_ATTR_KEY_DATA]),
	                igtk, sizeof(igtk));
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_KEY_SEQ]), nla_len(tb[NL80211_ATTR_KEY_SEQ]), ipn,
	                sizeof(ipn));
	g_assert_null(tb[NL80211_ATTR_MAC]);
	nlmsg_free(msg);

	/* SET_KEY: the default management key. */
	msg = wifi_test_msg_new(NL80211_CMD_SET_KEY);
	g_assert_true(wifi_rsn_put_set_default_key(msg, 7, &k));
	wifi_test_msg_parse(msg, tb);
	g_assert_cmpuint(nla_get_u8(tb[NL80211_ATTR_KEY_IDX]), ==, 5);
	g_assert_nonnull(tb[NL80211_ATTR_KEY_DEFAULT_MGMT]);
	g_assert_null(tb[NL80211_ATTR_KEY_DEFAULT]);
	nlmsg_free(msg);

	/* A GTK needs no SET_KEY in station mode; the TK names its peer. */
	k.kind = WIFI_KEY_KIND_GROUP;
	k.key_id = 1;
	k.cipher = WIFI_CIPHER_SUITE_CCMP;
	msg = wifi_test_msg_new(NL80211_CMD_SET_KEY);
	g_assert_false(wifi_rsn_put_set_default_key(msg, 7, &k));
	nlmsg_free(msg);
	k.kind = WIFI_KEY_KIND_PAIRWISE;
	k.key_id = 0;
	k.seq = NULL;
	k.seq_len = 0;
	k.addr = aa;
	msg = wifi_test_msg_new(NL80211_CMD_NEW_KEY);
	wifi_rsn_put_new_key(msg, 7, &k);
	wifi_test_msg_parse(msg, tb);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_MAC]), nla_len(tb[NL80211_ATTR_MAC]), aa, 6);
	g_assert_null(tb[NL80211_ATTR_KEY_SEQ]);
	nlmsg_free(msg);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi-rsn/plan/mfp", test_plan_mfp);
	g_test_add_func("/wifi-rsn/plan/mfp-required-unsupported",
	                test_plan_mfp_required_unsupported);
	g_test_add_func("/wifi-rsn/plan/sae", test_plan_sae);
	g_test_add_func("/wifi-rsn/plan/ft", test_plan_ft);
	g_test_add_func("/wifi-rsn/plan/ft-akms", test_plan_ft_akms);
	g_test_add_func("/wifi-rsn/connect-attributes", test_connect_attrs);
	g_test_add_func("/wifi-rsn/plan/suite-b-192", test_plan_suite_b);
	g_test_add_func("/wifi-rsn/key-messages", test_key_messages);
	return g_test_run();
}
