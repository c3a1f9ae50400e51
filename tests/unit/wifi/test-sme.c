/* test-sme.c - the userspace SME's pure parts: the status code of an
 * authentication frame or (re)association response as nl80211's
 * AUTHENTICATE / ASSOCIATE events carry them (IEEE 802.11-2020 9.3.3.7,
 * 9.3.3.8, 9.3.3.12), malformed frames refused; the attributes of
 * CMD_AUTHENTICATE, CMD_ASSOCIATE (open, WPA2-PSK and FT over the air) and
 * CMD_DEAUTHENTICATE; the station's capability elements (BSS Transition,
 * RM Enabled Capabilities, USE_RRM) and their order; the status code
 * names. */
#include <netlink/genl/genl.h>
#include <string.h>

#include "mgmt.h"
#include "nl-test-util.h"
#include "rsn.h"
#include "codes.h"
#include "sme.h"

static const guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x07, 0x00};

/* Authentication, seq 2, open system, status 0: FC b0 00, duration,
 * DA, SA, BSSID, sequence control, then algorithm, sequence, status. */
static const guint8 auth_ok[] = {
        0xb0, 0x00, 0x3a, 0x01, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00, 0x00, 0x00, 0x07,
        0x00, 0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
};
/* Association response: capabilities 0x0411, status 17 (AP full), AID 0,
 * then a Supported Rates element. */
static const guint8 assoc_full[] = {
        0x10, 0x00, 0x3a, 0x01, 0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x02, 0x00,
        0x00, 0x00, 0x07, 0x00, 0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x20, 0x00,
        0x11, 0x04, 0x11, 0x00, 0x00, 0x00, 0x01, 0x04, 0x82, 0x84, 0x8b, 0x96,
};

static void
test_parse_auth(void)
{
	g_autoptr(GError) error = NULL;
	guint8 frame[sizeof(auth_ok)];
	WifiMgmtAnswer answer;

	g_assert_true(wifi_mgmt_parse_answer(auth_ok, sizeof(auth_ok), &answer, &error));
	g_assert_no_error(error);
	g_assert_false(answer.assoc);
	g_assert_cmpmem(answer.bssid, 6, bssid, 6);
	g_assert_cmpuint(answer.auth_algorithm, ==, 0);
	g_assert_cmpuint(answer.auth_seq, ==, 2);
	g_assert_cmpuint(answer.status, ==, 0);

	/* Status 13 (algorithm not supported), little-endian 0x000d; and
	 * 0x0100 to catch a byte-order slip. */
	memcpy(frame, auth_ok, sizeof(frame));
	frame[28] = 13;
	g_assert_true(wifi_mgmt_parse_answer(frame, sizeof(frame), &answer, NULL));
	g_assert_cmpuint(answer.status, ==, 13);
	frame[28] = 0;
	frame[29] = 1;
	g_assert_true(wifi_mgmt_parse_answer(frame, sizeof(frame), &answer, NULL));
	g_assert_cmpuint(answer.status, ==, 256);
}

static void
test_parse_assoc(void)
{
	g_autoptr(GError) error = NULL;
	guint8 frame[sizeof(assoc_full)];
	WifiMgmtAnswer answer;

	g_assert_true(wifi_mgmt_parse_answer(assoc_full, sizeof(assoc_full), &answer, &error));
	g_assert_no_error(error);
	g_assert_true(answer.assoc);
	g_assert_cmpuint(answer.status, ==, 17);
	g_assert_cmpmem(answer.bssid, 6, bssid, 6);

	/* Success, AID 1 with the two top bits set as 802.11 sends it; a
	 * reassociation response (subtype 3) reads the same way. */
	memcpy(frame, assoc_full, sizeof(frame));
	frame[26] = 0;
	frame[28] = 0x01;
	frame[29] = 0xc0;
	frame[0] = 0x30;
	g_assert_true(wifi_mgmt_parse_answer(frame, sizeof(frame), &answer, NULL));
	g_assert_true(answer.assoc);
	g_assert_cmpuint(answer.status, ==, 0);
	g_assert_cmpuint(answer.aid, ==, 1);
}

static void
assert_malformed(const guint8 *frame, gsize len)
{
	g_autoptr(GError) error = NULL;
	WifiMgmtAnswer answer;

	g_assert_false(wifi_mgmt_parse_answer(frame, len, &answer, &error));
	g_assert_error(error, WIFI_MGMT_ERROR, WIFI_MGMT_ERROR_MALFORMED);
}

static void
test_parse_malformed(void)
{
	guint8 frame[sizeof(auth_ok)];

	/* Every truncation short of the status code. */
	for (gsize len = 0; len < sizeof(auth_ok); len++)
		assert_malformed(auth_ok, len);
	for (gsize len = 0; len < 30; len++)
		assert_malformed(assoc_full, len);
	assert_malformed(NULL, 0);
	/* A deauthentication, an association request, a data frame. */
	memcpy(frame, auth_ok, sizeof(frame));
	frame[0] = 0xc0;
	assert_malformed(frame, sizeof(frame));
	frame[0] = 0x00;
	assert_malformed(frame, sizeof(frame));
	frame[0] = 0xb8; /* type 2 (data), subtype 11 */
	assert_malformed(frame, sizeof(frame));
}

/* SSID "joind-sme" and, when rsn, a WPA2-PSK RSN element. */
static WifiBss *
test_bss(gboolean rsn)
{
	static const guint8 ies[] = {
	        0x00, 0x09, 'j',  'o',  'i',  'n',  'd',  '-',  's',  'm',  'e',
	        0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
	        0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x00, 0x00,
	};
	g_autoptr(GError) error = NULL;
	WifiBss *bss = wifi_bss_new(bssid, 2472, -3000,
	                            WIFI_CAPABILITY_ESS | (rsn ? WIFI_CAPABILITY_PRIVACY : 0), ies,
	                            rsn ? sizeof(ies) : 11, &error);

	g_assert_no_error(error);
	g_assert_nonnull(bss);
	return bss;
}

static void
assert_target(struct nlattr **tb)
{
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_IFINDEX]), ==, 7);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_MAC]), nla_len(tb[NL80211_ATTR_MAC]), bssid, 6);
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_WIPHY_FREQ]), ==, 2472);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_SSID]), nla_len(tb[NL80211_ATTR_SSID]),
	                "joind-sme", 9);
}

static void
test_authenticate_attrs(void)
{
	g_autoptr(WifiBss) bss = test_bss(TRUE);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_AUTHENTICATE);

	wifi_sme_put_authenticate(msg, 7, bss);
	wifi_test_msg_parse(msg, tb);
	assert_target(tb);
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_AUTH_TYPE]), ==, NL80211_AUTHTYPE_OPEN_SYSTEM);
	g_assert_null(tb[NL80211_ATTR_IE]);
	nlmsg_free(msg);
}

/* FT over the air: the plan's RSNE, MDE and FTE go in FT's
 * authentication, and the FTE follows the MDE in the reassociation. */
static void
test_ft_attrs(void)
{
	g_autoptr(WifiBss) bss = test_bss(TRUE);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	WifiRsnPlan plan = {.own_rsne = {48, 2, 1, 0},
	                    .own_rsne_len = 4,
	                    .own_mde = {54, 3, 0xa1, 0xb2, 0},
	                    .own_mde_len = 5,
	                    .own_fte = {55, 1, 9},
	                    .own_fte_len = 3,
	                    .ft_over_air = TRUE};
	const guint8 ies[] = {48, 2, 1, 0, 54, 3, 0xa1, 0xb2, 0, 55, 1, 9};
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_AUTHENTICATE);

	wifi_sme_put_ft_authenticate(msg, 7, bss, &plan);
	wifi_test_msg_parse(msg, tb);
	assert_target(tb);
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_AUTH_TYPE]), ==, NL80211_AUTHTYPE_FT);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_IE]), nla_len(tb[NL80211_ATTR_IE]), ies,
	                sizeof(ies));
	nlmsg_free(msg);
	plan.ft_over_air = FALSE;
	msg = wifi_test_msg_new(NL80211_CMD_ASSOCIATE);
	wifi_sme_put_associate(msg, 7, bss, &plan, &(WifiStaCaps){0}, TRUE);
	wifi_test_msg_parse(msg, tb);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_IE]), nla_len(tb[NL80211_ATTR_IE]), ies,
	                sizeof(ies));
	nlmsg_free(msg);
}

/* Extended Capabilities with BSS Transition alone (bit 19: octet 2, 0x08),
 * what a radio that offers none of its own sends. */
static const guint8 ext_bss_transition[] = {0x7f, 0x03, 0x00, 0x00, 0x08};

static void
test_associate_attrs(void)
{
	g_autoptr(WifiBss) bss = test_bss(TRUE);
	g_autoptr(WifiBss) open = test_bss(FALSE);
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	g_autoptr(GError) error = NULL;
	g_autoptr(GByteArray) ies = g_byte_array_new();
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	WifiRsnPlan plan;
	WifiStaCaps caps;
	struct nl_msg *msg;

	wiphy->ciphers = WIFI_CIPHER_CCMP;
	g_assert_true(wifi_rsn_plan(bss, wiphy, FALSE, &plan, &error));
	g_assert_no_error(error);
	wifi_sta_caps_plan(wiphy, bss, &caps);
	msg = wifi_test_msg_new(NL80211_CMD_ASSOCIATE);
	wifi_sme_put_associate(msg, 7, bss, &plan, &caps, TRUE);
	wifi_test_msg_parse(msg, tb);
	assert_target(tb);
	g_byte_array_append(ies, plan.own_rsne, (guint)plan.own_rsne_len);
	g_byte_array_append(ies, ext_bss_transition, sizeof(ext_bss_transition));
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_IE]), nla_len(tb[NL80211_ATTR_IE]), ies->data,
	                ies->len);
	g_assert_cmphex(nla_get_u32(tb[NL80211_ATTR_AKM_SUITES]), ==, 0x000fac02);
	g_assert_cmphex(nla_get_u32(tb[NL80211_ATTR_CIPHER_SUITES_PAIRWISE]), ==, 0x000fac04);
	g_assert_nonnull(tb[NL80211_ATTR_CONTROL_PORT]);
	g_assert_nonnull(tb[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	g_assert_nonnull(tb[NL80211_ATTR_SOCKET_OWNER]);
	/* PRIVACY is CMD_CONNECT's alone; no MFP with this access point; no
	 * radio measurement with a radio that cannot. */
	g_assert_null(tb[NL80211_ATTR_PRIVACY]);
	g_assert_null(tb[NL80211_ATTR_USE_MFP]);
	g_assert_null(tb[NL80211_ATTR_USE_RRM]);
	nlmsg_free(msg);

	/* An open network's association carries the capabilities alone. */
	wifi_sta_caps_plan(wiphy, open, &caps);
	msg = wifi_test_msg_new(NL80211_CMD_ASSOCIATE);
	wifi_sme_put_associate(msg, 7, open, NULL, &caps, TRUE);
	wifi_test_msg_parse(msg, tb);
	assert_target(tb);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_IE]), nla_len(tb[NL80211_ATTR_IE]),
	                ext_bss_transition, sizeof(ext_bss_transition));
	g_assert_null(tb[NL80211_ATTR_CONTROL_PORT]);
	g_assert_null(tb[NL80211_ATTR_AKM_SUITES]);
	nlmsg_free(msg);

	/* CMD_CONNECT (the kernel's SME) carries the same elements. */
	msg = wifi_test_msg_new(NL80211_CMD_CONNECT);
	wifi_sme_put_connect(msg, 7, open, NULL, &caps, TRUE);
	wifi_test_msg_parse(msg, tb);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_IE]), nla_len(tb[NL80211_ATTR_IE]),
	                ext_bss_transition, sizeof(ext_bss_transition));
	nlmsg_free(msg);
}

/* A WPA2-PSK BSS "joind-sme" whose access point offers radio
 * measurement (RM Enabled Capabilities: neighbour reports). */
static WifiBss *
rm_bss(void)
{
	static const guint8 ies[] = {
	        0x00, 0x09, 'j',  'o',  'i',  'n',  'd',  '-',  's',  'm',  'e',  0x30, 0x14, 0x01,
	        0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
	        0x0f, 0xac, 0x02, 0x00, 0x00, 0x46, 0x05, 0x72, 0x00, 0x00, 0x00, 0x00,
	};
	g_autoptr(GError) error = NULL;
	WifiBss *bss =
	        wifi_bss_new(bssid, 2472, -3000, WIFI_CAPABILITY_ESS | WIFI_CAPABILITY_PRIVACY, ies,
	                     sizeof(ies), &error);

	g_assert_no_error(error);
	g_assert_true(bss->ies.has_rm);
	return bss;
}

/* The radio's own Extended Capabilities (mac80211's operating mode
 * notification, bit 62) keep, BSS Transition is added; RM Enabled
 * Capabilities say neighbour reports (octet 0, bit 1) and USE_RRM goes
 * with them, where the radio can (the two feature flags, or
 * EXT_FEATURE_RRM) and the access point offers radio measurement. The
 * elements in IEEE 802.11's order: RSNE, RM, Extended Capabilities,
 * RSNXE. */
static void
test_station_caps(void)
{
	static const guint8 radio_ext[] = {0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40};
	static const guint8 ext[] = {0x7f, 0x08, 0x04, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x40};
	static const guint8 rm[] = {0x46, 0x05, 0x02, 0x00, 0x00, 0x00, 0x00};
	static const guint8 rsnxe[] = {0xf4, 0x01, 0x20};
	g_autoptr(WifiBss) bss = rm_bss();
	g_autoptr(WifiBss) plain = test_bss(TRUE);
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);
	g_autoptr(GByteArray) ies = g_byte_array_new();
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	WifiRsnPlan plan;
	WifiStaCaps caps;
	struct nl_msg *msg;

	wiphy->ciphers = WIFI_CIPHER_CCMP;
	memcpy(wiphy->ext_capa, radio_ext, sizeof(radio_ext));
	wiphy->ext_capa_len = sizeof(radio_ext);
	wiphy->features = NL80211_FEATURE_DS_PARAM_SET_IE_IN_PROBES | NL80211_FEATURE_QUIET;
	wifi_sta_caps_plan(wiphy, bss, &caps);
	g_assert_cmpmem(caps.ext, caps.ext_len, ext, sizeof(ext));
	g_assert_cmpmem(caps.rm, caps.rm_len, rm, sizeof(rm));
	g_assert_true(caps.use_rrm);

	g_assert_true(wifi_rsn_plan(bss, wiphy, FALSE, &plan, NULL));
	memcpy(plan.own_rsnxe, rsnxe, sizeof(rsnxe));
	plan.own_rsnxe_len = sizeof(rsnxe);
	msg = wifi_test_msg_new(NL80211_CMD_ASSOCIATE);
	wifi_sme_put_associate(msg, 7, bss, &plan, &caps, TRUE);
	wifi_test_msg_parse(msg, tb);
	g_byte_array_append(ies, plan.own_rsne, (guint)plan.own_rsne_len);
	g_byte_array_append(ies, rm, sizeof(rm));
	g_byte_array_append(ies, ext, sizeof(ext));
	g_byte_array_append(ies, rsnxe, sizeof(rsnxe));
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_IE]), nla_len(tb[NL80211_ATTR_IE]), ies->data,
	                ies->len);
	g_assert_nonnull(tb[NL80211_ATTR_USE_RRM]);
	nlmsg_free(msg);

	/* One of the two flags is not enough; EXT_FEATURE_RRM alone is. */
	wiphy->features = NL80211_FEATURE_QUIET;
	wifi_sta_caps_plan(wiphy, bss, &caps);
	g_assert_cmpuint(caps.rm_len, ==, 0);
	g_assert_false(caps.use_rrm);
	g_assert_cmpmem(caps.ext, caps.ext_len, ext, sizeof(ext));
	wiphy->ext_features[NL80211_EXT_FEATURE_RRM / 8] |= 1u << (NL80211_EXT_FEATURE_RRM % 8);
	wifi_sta_caps_plan(wiphy, bss, &caps);
	g_assert_cmpmem(caps.rm, caps.rm_len, rm, sizeof(rm));
	g_assert_true(caps.use_rrm);
	/* An access point without radio measurement: no RM, no USE_RRM. */
	wifi_sta_caps_plan(wiphy, plain, &caps);
	g_assert_cmpuint(caps.rm_len, ==, 0);
	g_assert_false(caps.use_rrm);
	/* No radio known: BSS Transition alone. */
	wifi_sta_caps_plan(NULL, bss, &caps);
	g_assert_cmpmem(caps.ext, caps.ext_len, ext_bss_transition, sizeof(ext_bss_transition));
	g_assert_false(caps.use_rrm);
}

static void
test_deauthenticate_attrs(void)
{
	struct nlattr *tb[NL80211_ATTR_MAX + 1];
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_DEAUTHENTICATE);

	wifi_sme_put_deauthenticate(msg, 7, bssid, 3);
	wifi_test_msg_parse(msg, tb);
	g_assert_cmpuint(nla_get_u32(tb[NL80211_ATTR_IFINDEX]), ==, 7);
	g_assert_cmpmem(nla_data(tb[NL80211_ATTR_MAC]), nla_len(tb[NL80211_ATTR_MAC]), bssid, 6);
	g_assert_cmpuint(nla_get_u16(tb[NL80211_ATTR_REASON_CODE]), ==, 3);
	nlmsg_free(msg);
}

static void
test_status_names(void)
{
	gchar buf[16];

	g_assert_cmpstr(wifi_status_to_string(0, buf), ==, "success");
	g_assert_cmpstr(wifi_status_to_string(17, buf), ==, "access point full");
	g_assert_cmpstr(wifi_status_to_string(65535, buf), ==, "status 65535");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/sme/parse-auth", test_parse_auth);
	g_test_add_func("/wifi/sme/parse-assoc", test_parse_assoc);
	g_test_add_func("/wifi/sme/parse-malformed", test_parse_malformed);
	g_test_add_func("/wifi/sme/authenticate-attrs", test_authenticate_attrs);
	g_test_add_func("/wifi/sme/associate-attrs", test_associate_attrs);
	g_test_add_func("/wifi/sme/station-caps", test_station_caps);
	g_test_add_func("/wifi/sme/ft-attrs", test_ft_attrs);
	g_test_add_func("/wifi/sme/deauthenticate-attrs", test_deauthenticate_attrs);
	g_test_add_func("/wifi/sme/status-names", test_status_names);
	return g_test_run();
}
