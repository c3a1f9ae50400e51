/* test-connect-ft.c - fast transition in the connector (auth-ft.c,
 * auth-ft-air.c) against a fake lower layer, the access point's side
 * played from the FT key hierarchy: an FT-PSK network joined with an
 * initial mobility domain association (the MDE in the association
 * request, the 4-way handshake on the PMK-R1), then a roam to the other
 * access point over the air: FT authentication frames out
 * (NL80211_AUTHTYPE_FT, PMKR0Name, our SNonce), the target's answer in,
 * CMD_ASSOCIATE naming the BSS left with the FTE's MIC, and the keys of
 * the reassociation response installed without a 4-way handshake. A
 * target that refuses, is silent, or answers with another PMKR0Name or
 * no R1KH-ID gets a full reassociation instead (open authentication, the
 * MDE without an FTE), and the network never stops being connected. Over
 * the DS (the target's MDE advertises it): the FT Request in an action
 * frame to the access point we are on, the FT Response from it, the
 * reassociation without an authentication; no answer there means FT over
 * the air. FT-802.1X (TESTKEY's MSK): the access point's EAP
 * re-authentication, before and after a roam, keys the link anew from the
 * new MSK with a 4-way handshake while it stays connected, and a roam
 * keeps EAP's method and identity in the diagnostics. */
#include "action.h"
#include "connect-keys.h"
#include "ft-action.h"
#include "ft-ie.h"
#include "ft-keys.h"
#include "hs-test-util.h"
#include "rsn-kde.h"
#include "rsn-crypto.h"
#include "rsn-suites.h"

#define SSID    "ft-net"
#define RSNE_FT "30 14 0100 000fac04 0100 000fac04 0100 000fac04 0000"
#define MDE     "3603a1b200"
/* The same mobility domain with "FT over the DS" advertised. */
#define MDE_DS        "3603a1b201"
#define RSNE_FT_8021X "30 14 0100 000fac04 0100 000fac04 0100 000fac03 0000"
#define R0KH_ID       "ap1.test"
#define PROFILE       "[Security]\nPassphrase=" PASSPHRASE "\n"
/* IEEE 802.11-2020 table 9-78: invalid PMKID (the target has no PMK-R1). */
#define STATUS_INVALID_PMKID 53

/* The mobility domain's side: the hierarchy of the passphrase, bound to
 * the access point that answers now, and that one's view of the link. */
typedef struct {
	const gchar *mde; /* the access points' MDE, in hex */
	guint akm;
	const gchar *rsne; /* the access points' RSNE, in hex */
	WifiFtKeys keys;
	guint8 anonce[WIFI_NONCE_LEN];
	guint8 snonce[WIFI_NONCE_LEN];
	WifiPtk ptk;
	guint8 gtk[16];
} FtAp;

static void
ft_ap_init_xxkey(FtAp *ap, guint akm, const gchar *rsne, const guint8 *xxkey)
{
	WifiFtHolders holders = {.mdid = {0xa1, 0xb2}, .r0kh_id_len = strlen(R0KH_ID)};
	g_autoptr(GError) error = NULL;

	memset(ap, 0, sizeof(*ap));
	memcpy(holders.r0kh_id, R0KH_ID, strlen(R0KH_ID));
	memcpy(holders.r1kh_id, ap_addr, 6);
	memcpy(holders.spa, sta_addr, 6);
	g_assert_true(wifi_ft_keys_derive(akm, xxkey, 32, (const guint8 *)SSID, strlen(SSID),
	                                  &holders, &ap->keys, &error));
	g_assert_no_error(error);
	memset(ap->gtk, 0x5a, sizeof(ap->gtk));
	ap->akm = akm;
	ap->rsne = rsne;
	ap->mde = MDE;
}

static void
ft_ap_init(FtAp *ap, const gchar *mde)
{
	g_autoptr(GError) error = NULL;
	guint8 psk[32];

	g_assert_true(
	        wifi_psk_from_secret(PASSPHRASE, (const guint8 *)SSID, strlen(SSID), psk, &error));
	ft_ap_init_xxkey(ap, WIFI_AKM_SUITE_FT_PSK, RSNE_FT, psk);
	ap->mde = mde;
}

/* Our RSNE naming pmkid, as an access point repeats it. */
static void
append_rsne(GByteArray *a, const FtAp *ap, const guint8 *pmkid)
{
	g_autoptr(GBytes) rsne = hs_test_hex(ap->rsne);
	const guint8 count[2] = {1, 0};
	guint at = a->len;

	g_byte_array_append(a, g_bytes_get_data(rsne, NULL), (guint)g_bytes_get_size(rsne));
	g_byte_array_append(a, count, 2);
	g_byte_array_append(a, pmkid, WIFI_FT_NAME_LEN);
	a->data[at + 1] = (guint8)(a->data[at + 1] + 2 + WIFI_FT_NAME_LEN);
}

static void
append_hex(GByteArray *a, const gchar *hex)
{
	g_autoptr(GBytes) b = hs_test_hex(hex);

	g_byte_array_append(a, g_bytes_get_data(b, NULL), (guint)g_bytes_get_size(b));
}

/* An FTE naming r1kh and our R0KH-ID, with the nonces when with_nonces. */
static void
fill_fte(const FtAp *ap, const guint8 *r1kh, gboolean with_nonces, WifiFte *fte)
{
	memset(fte, 0, sizeof(*fte));
	fte->mic_len = 16;
	if (r1kh != NULL) {
		fte->has_r1kh_id = TRUE;
		memcpy(fte->r1kh_id, r1kh, 6);
	}
	memcpy(fte->r0kh_id, R0KH_ID, strlen(R0KH_ID));
	fte->r0kh_id_len = strlen(R0KH_ID);
	if (with_nonces) {
		memcpy(fte->anonce, ap->anonce, WIFI_NONCE_LEN);
		memcpy(fte->snonce, ap->snonce, WIFI_NONCE_LEN);
	}
}

static void
append_fte(GByteArray *a, const WifiFte *fte)
{
	g_autoptr(GBytes) b = wifi_fte_build(fte);

	g_byte_array_append(a, g_bytes_get_data(b, NULL), (guint)g_bytes_get_size(b));
}

/* An authentication (algorithm FT) or (re)association response from
 * bssid carrying ies. */
static void
send_answer_ies(Fixture *f, guint8 cmd, const guint8 *bssid, guint16 status, GByteArray *ies)
{
	struct nl_msg *msg = event_new(cmd);
	g_autoptr(GByteArray) frame = g_byte_array_new();
	guint8 head[30] = {cmd == NL80211_CMD_AUTHENTICATE ? 0xb0 : 0x30};

	memcpy(head + 4, sta_addr, 6);
	memcpy(head + 10, bssid, 6);
	memcpy(head + 16, bssid, 6);
	if (cmd == NL80211_CMD_AUTHENTICATE) {
		head[24] = 2; /* algorithm: fast BSS transition */
		head[26] = 2; /* transaction sequence 2 */
		head[28] = status & 0xff;
	} else {
		head[26] = status & 0xff;
		head[28] = 1; /* AID */
	}
	g_byte_array_append(frame, head, sizeof(head));
	if (ies != NULL)
		g_byte_array_append(frame, ies->data, ies->len);
	nla_put(msg, NL80211_ATTR_FRAME, (int)frame->len, frame->data);
	send_event(f, msg);
}

/* The elements a request carries, parsed as FT's. */
static void
request_ies(FakeNlRequest *req, WifiFtIes *ies)
{
	struct nlattr *ie = req->attrs[NL80211_ATTR_IE];
	g_autoptr(GError) error = NULL;

	g_assert_nonnull(ie);
	g_assert_true(wifi_ft_ies_parse(nla_data(ie), (gsize)nla_len(ie), 16, ies, &error));
	g_assert_no_error(error);
}

static const guint8 *
rsne_pmkid(const WifiFtIes *ies)
{
	static WifiRsne rsne;

	g_assert_true(wifi_rsne_parse(ies->rsne, ies->rsne_len, &rsne, NULL));
	g_assert_true(rsne.has_pmkid);
	return rsne.pmkid;
}

/* The association: our MDE in the request, the response's key holders
 * bssid (R1KH-ID) and R0KH_ID; the response's MDE and FTE, which message
 * 3 repeats, are returned. */
static GBytes *
answer_association(Fixture *f, const FtAp *ap, const guint8 *bssid)
{
	GByteArray *ies = g_byte_array_new();
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	struct nlattr *ie = req->attrs[NL80211_ATTR_IE];
	gsize body_len;
	WifiFte fte;

	/* Our MDE, and no FTE: no transition, a first association. */
	g_assert_nonnull(
	        wifi_ie_find(nla_data(ie), (gsize)nla_len(ie), WIFI_IE_MOBILITY_DOMAIN, &body_len));
	g_assert_null(wifi_ie_find(nla_data(ie), (gsize)nla_len(ie), WIFI_IE_FAST_BSS_TRANSITION,
	                           &body_len));
	ack(f, NL80211_CMD_ASSOCIATE, bssid);
	append_hex(ies, ap->mde);
	fill_fte(ap, bssid, FALSE, &fte);
	append_fte(ies, &fte);
	send_answer_ies(f, NL80211_CMD_ASSOCIATE, bssid, 0, ies);
	return g_byte_array_free_to_bytes(ies);
}

/* bssid's side of the 4-way handshake on the PMK-R1 of the keys ap holds
 * for it: message 3 names PMKR1Name and repeats ies (MDE and FTE). */
static TestAuth *
ft_authenticator(const FtAp *ap, const guint8 *bssid, GBytes *ies)
{
	g_autoptr(GByteArray) rsne = g_byte_array_new();
	TestAuth *a = test_auth_new(ap->akm, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                            ap->keys.pmk_r1, ap->rsne);

	memcpy(a->aa, bssid, 6);
	memcpy(a->spa, sta_addr, 6);
	a->ft = &ap->keys;
	a->ft_ies = g_bytes_ref(ies);
	append_rsne(rsne, ap, ap->keys.pmk_r1_name);
	a->msg3_rsne = g_bytes_new(rsne->data, rsne->len);
	return a;
}

/* The association and the 4-way handshake on the PMK-R1. */
static void
associate_ft(Fixture *f, FtAp *ap, const guint8 *bssid)
{
	g_autoptr(GBytes) ies = answer_association(f, ap, bssid);
	g_autoptr(TestAuth) a = ft_authenticator(ap, bssid, ies);

	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, bssid);
}

/* network (FT-PSK only, both access points in mobility domain a1b2 with
 * the MDE mde) joined through ap_addr. */
static WifiNetwork *
join_ft(Fixture *f, FtAp *ap, const gchar *mde)
{
	g_autofree gchar *elements = g_strconcat(RSNE_FT, mde, NULL);
	WifiNetwork *network = make_network(f, SSID, elements, PROFILE);
	g_autoptr(JoindProfile) saved = NULL;

	ft_ap_init(ap, mde);
	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	associate_ft(f, ap, ap_addr);
	assert_connected(f, network);
	/* The link wrote the PSK to the profile; the network takes the
	 * profile as written (a station does so on "profile-changed"). */
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)SSID, strlen(SSID),
	                                        JOIND_PROFILE_TYPE_PSK);
	joind_network_set_profile(JOIND_NETWORK(network), saved);
	return network;
}

/* The roam to ap2_addr starts with FT authentication: our RSNE names
 * PMKR0Name, the MDE is the domain's, the FTE carries our SNonce (kept
 * in ap) and the R0KH-ID. The old link goes as mac80211 drops it. */
static void
roam_ft_authenticate(Fixture *f, FtAp *ap, WifiNetwork *network)
{
	WifiBss *target = g_ptr_array_index(wifi_network_get_bsses(network), 1);
	g_autoptr(GError) error = NULL;
	FakeNlRequest *req;
	WifiFtIes ies;

	g_assert_true(wifi_connector_roam(f->connector, target, &error));
	g_assert_no_error(error);
	req = fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, ap2_addr, 6);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_AUTH_TYPE]), ==, NL80211_AUTHTYPE_FT);
	request_ies(req, &ies);
	g_assert_cmpmem(rsne_pmkid(&ies), WIFI_FT_NAME_LEN, ap->keys.pmk_r0_name, WIFI_FT_NAME_LEN);
	g_assert_cmpmem(ies.mde + 2, 2, "\xa1\xb2", 2);
	g_assert_cmpmem(ies.parsed.r0kh_id, ies.parsed.r0kh_id_len, R0KH_ID, strlen(R0KH_ID));
	g_assert_false(ies.parsed.has_r1kh_id);
	memcpy(ap->snonce, ies.parsed.snonce, WIFI_NONCE_LEN);
	fake_nl_done(f->fake, req, 0);
	iterate();
	send_local_teardown(f);
}

/* The target's view: PMK-R1 for its R1KH-ID, a fresh ANonce, the PTK. */
static void
target_keys(FtAp *ap)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_ft_keys_for_r1kh(&ap->keys, ap2_addr, sta_addr, &error));
	for (guint i = 0; i < WIFI_NONCE_LEN; i++)
		ap->anonce[i] = (guint8)(0xa0 + i);
	g_assert_true(wifi_ft_ptk_derive(&ap->keys, WIFI_CIPHER_SUITE_CCMP, ap->snonce, ap->anonce,
	                                 ap2_addr, sta_addr, &ap->ptk, NULL, &error));
	g_assert_no_error(error);
}

/* The target's FT authentication response: pmkid in the RSNE, the MDE,
 * the FTE with both nonces, R1KH-ID r1kh and our R0KH-ID. */
static void
send_ft_auth_response(Fixture *f, FtAp *ap, const guint8 *pmkid, const guint8 *r1kh)
{
	g_autoptr(GByteArray) ies = g_byte_array_new();
	WifiFte fte;

	target_keys(ap);
	append_rsne(ies, ap, pmkid);
	append_hex(ies, ap->mde);
	fill_fte(ap, r1kh, TRUE, &fte);
	append_fte(ies, &fte);
	send_answer_ies(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0, ies);
}

/* The reassociation request to the target names the BSS left and carries
 * PMKR1Name and the FTE's MIC (the KCK over RSNE, MDE and FTE). */
static void
expect_ft_reassociation(Fixture *f, const FtAp *ap)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	g_autoptr(GError) error = NULL;
	guint8 fte[257], mic[WIFI_FT_MIC_MAX_LEN];
	gsize mic_len = 0;
	WifiFtIes ies;
	WifiFtMicInput in = {.sta = sta_addr, .ap = ap2_addr, .transaction = 5};

	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_PREV_BSSID]), 6, ap_addr, 6);
	request_ies(req, &ies);
	g_assert_cmpmem(rsne_pmkid(&ies), WIFI_FT_NAME_LEN, ap->keys.pmk_r1_name, WIFI_FT_NAME_LEN);
	g_assert_cmpmem(ies.parsed.anonce, WIFI_NONCE_LEN, ap->anonce, WIFI_NONCE_LEN);
	g_assert_cmpuint(ies.parsed.element_count, ==, 3);
	memcpy(fte, ies.fte, ies.fte_len);
	memset(fte + WIFI_FTE_MIC_OFFSET, 0, 16);
	in.rsne = ies.rsne;
	in.rsne_len = ies.rsne_len;
	in.mde = ies.mde;
	in.mde_len = ies.mde_len;
	in.fte = fte;
	in.fte_len = ies.fte_len;
	g_assert_true(
	        wifi_ft_mic(ap->akm, ap->ptk.kck, ap->ptk.kck_len, &in, mic, &mic_len, &error));
	g_assert_cmpmem(ies.parsed.mic, 16, mic, mic_len);
	ack(f, NL80211_CMD_ASSOCIATE, ap2_addr);
}

/* The target's reassociation response: RSNE, MDE and the FTE with its
 * MIC over the three and the GTK wrapped with the KEK. */
static void
send_ft_reassoc_response(Fixture *f, const FtAp *ap, GBytes **mde_fte)
{
	g_autoptr(GByteArray) ies = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	guint8 mic[WIFI_FT_MIC_MAX_LEN];
	gsize mic_len = 0, rsne_len, fte_at;
	WifiFtMicInput in = {.sta = sta_addr, .ap = ap2_addr, .transaction = 6};
	WifiFte fte;

	append_rsne(ies, ap, ap->keys.pmk_r1_name);
	rsne_len = ies->len;
	append_hex(ies, ap->mde);
	fill_fte(ap, ap2_addr, TRUE, &fte);
	fte.element_count = 3;
	fte.has_gtk = TRUE;
	fte.gtk_key_id = 1;
	fte.gtk_len = sizeof(ap->gtk);
	fte.gtk_wrapped_len = sizeof(ap->gtk) + 8;
	g_assert_true(wifi_aes_key_wrap(ap->ptk.kek, ap->ptk.kek_len, ap->gtk, sizeof(ap->gtk),
	                                fte.gtk_wrapped, &error));
	fte_at = ies->len;
	append_fte(ies, &fte);
	in.rsne = ies->data;
	in.rsne_len = rsne_len;
	in.mde = ies->data + rsne_len;
	in.mde_len = WIFI_MDE_LEN;
	in.fte = ies->data + fte_at;
	in.fte_len = ies->len - fte_at;
	g_assert_true(
	        wifi_ft_mic(ap->akm, ap->ptk.kck, ap->ptk.kck_len, &in, mic, &mic_len, &error));
	memcpy(ies->data + fte_at + WIFI_FTE_MIC_OFFSET, mic, mic_len);
	send_answer_ies(f, NL80211_CMD_ASSOCIATE, ap2_addr, 0, ies);
	if (mde_fte != NULL)
		*mde_fte = g_bytes_new(ies->data + rsne_len, ies->len - rsne_len);
}

/* The roam is over on ap2_addr: the observers heard the link up twice and
 * nothing between, the station never left the network. */
static void
assert_roamed(Fixture *f, WifiNetwork *network)
{
	g_assert_cmpstr(f->events->str, ==, "CC");
	g_assert_cmpmem(wifi_connector_get_connected_bss(f->connector)->bssid, 6, ap2_addr, 6);
	g_assert_true(joind_station_get_connected_network(f->station) == JOIND_NETWORK(network));
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

static const gchar *
transition(Fixture *f)
{
	WifiConnectionInfo info;

	g_assert_true(wifi_connector_get_connection_info(f->connector, &info));
	return info.transition;
}

/* FT over the air end to end: the TK and the GTK go in at the
 * reassociation's event, the port is authorized, and no EAPOL frame
 * (no 4-way handshake) is sent or needed. */
static void
test_ft_air(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE);

	g_assert_null(transition(f));
	fake_nl_clear_sent(f->fake);
	roam_ft_authenticate(f, &ap, network);
	send_ft_auth_response(f, &ap, ap.keys.pmk_r0_name, ap2_addr);
	expect_ft_reassociation(f, &ap);
	send_ft_reassoc_response(f, &ap, NULL);
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
	ack(f, NL80211_CMD_SET_STATION, ap2_addr);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONTROL_PORT_FRAME), ==, 0);
	assert_roamed(f, network);
	g_assert_cmpstr(transition(f), ==, "FT over the air");
}

/* What every failed transition leads to: the full reassociation's open
 * authentication to the same target, without FT's elements. */
static void
expect_full_authentication(Fixture *f, WifiNetwork *network)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE);

	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, ap2_addr, 6);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_AUTH_TYPE]), ==,
	                 NL80211_AUTHTYPE_OPEN_SYSTEM);
	g_assert_null(req->attrs[NL80211_ATTR_IE]);
	g_assert_cmpstr(f->events->str, ==, "C");
	g_assert_true(network_connected(network));
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

/* The target cannot get the PMK-R1 (status 53): a full reassociation to
 * it, an initial mobility domain association (the MDE, no FTE) naming
 * the BSS left; the network stays connected meanwhile. */
static void
test_ft_refused(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE);
	FakeNlRequest *req;
	struct nlattr *ie;
	gsize body_len;

	roam_ft_authenticate(f, &ap, network);
	send_answer_ies(f, NL80211_CMD_AUTHENTICATE, ap2_addr, STATUS_INVALID_PMKID, NULL);
	expect_full_authentication(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_PREV_BSSID]), 6, ap_addr, 6);
	ie = req->attrs[NL80211_ATTR_IE];
	g_assert_nonnull(
	        wifi_ie_find(nla_data(ie), (gsize)nla_len(ie), WIFI_IE_MOBILITY_DOMAIN, &body_len));
	g_assert_null(wifi_ie_find(nla_data(ie), (gsize)nla_len(ie), WIFI_IE_FAST_BSS_TRANSITION,
	                           &body_len));
	g_assert_cmpstr(f->events->str, ==, "C");
	g_assert_true(network_connected(network));
}

/* A target that does not answer the FT authentication. */
static void
test_ft_silent(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE);

	roam_ft_authenticate(f, &ap, network);
	send_timed_out(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	expect_full_authentication(f, network);
}

/* An answer for another PMK-R0 (PMKR0Name): no keys of ours. */
static void
test_ft_other_pmkr0name(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE);
	guint8 other[WIFI_FT_NAME_LEN];

	roam_ft_authenticate(f, &ap, network);
	memcpy(other, ap.keys.pmk_r0_name, sizeof(other));
	other[0] ^= 0x01;
	send_ft_auth_response(f, &ap, other, ap2_addr);
	expect_full_authentication(f, network);
}

/* An answer that names no R1 key holder: no PMK-R1 to derive. */
static void
test_ft_no_r1kh(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE);

	roam_ft_authenticate(f, &ap, network);
	send_ft_auth_response(f, &ap, ap.keys.pmk_r0_name, NULL);
	expect_full_authentication(f, network);
}

/* The target's FT Response over the DS, as the current access point
 * passes it on: an action frame from ap_addr carrying the elements of an
 * FT authentication response. */
static void
send_ft_action_response(Fixture *f, FtAp *ap)
{
	g_autoptr(GByteArray) frame = g_byte_array_new();
	struct nl_msg *msg = event_new(NL80211_CMD_FRAME);
	guint8 head[24] = {0xd0};
	const guint8 body[2] = {WIFI_ACTION_FT, WIFI_FT_ACTION_RESPONSE}, status[2] = {0, 0};
	WifiFte fte;

	memcpy(head + 4, sta_addr, 6);
	memcpy(head + 10, ap_addr, 6);
	memcpy(head + 16, ap_addr, 6);
	g_byte_array_append(frame, head, sizeof(head));
	g_byte_array_append(frame, body, 2);
	g_byte_array_append(frame, sta_addr, 6);
	g_byte_array_append(frame, ap2_addr, 6);
	g_byte_array_append(frame, status, 2);
	target_keys(ap);
	append_rsne(frame, ap, ap->keys.pmk_r0_name);
	append_hex(frame, ap->mde);
	fill_fte(ap, ap2_addr, TRUE, &fte);
	append_fte(frame, &fte);
	nla_put(msg, NL80211_ATTR_FRAME, (int)frame->len, frame->data);
	send_event(f, msg);
}

/* The roam to ap2_addr over the DS starts: the kernel is asked to pass
 * FT Responses up, then the FT Request goes to the access point we are
 * on, naming the target, PMKR0Name and our SNonce (kept in ap). */
static void
roam_ft_ds_request(Fixture *f, FtAp *ap, WifiNetwork *network)
{
	WifiBss *target = g_ptr_array_index(wifi_network_get_bsses(network), 1);
	g_autoptr(GError) error = NULL;
	FakeNlRequest *req;
	WifiActionFrame action;
	WifiFtAction ft;
	WifiFtIes ies;

	fake_nl_clear_sent(f->fake);
	g_assert_true(wifi_connector_roam(f->connector, target, &error));
	req = fake_nl_expect(f->fake, NL80211_CMD_REGISTER_FRAME);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_FRAME_MATCH]), 2, "\x06\x02", 2);
	fake_nl_done(f->fake, req, 0);
	iterate();
	req = fake_nl_expect(f->fake, NL80211_CMD_FRAME);
	g_assert_true(wifi_action_parse(nla_data(req->attrs[NL80211_ATTR_FRAME]),
	                                (gsize)nla_len(req->attrs[NL80211_ATTR_FRAME]), &action,
	                                &error));
	g_assert_cmpmem(action.da, 6, ap_addr, 6);
	g_assert_true(wifi_ft_action_parse(action.body, action.body_len, &ft, &error));
	g_assert_cmpuint(ft.action, ==, WIFI_FT_ACTION_REQUEST);
	g_assert_cmpmem(ft.sta, 6, sta_addr, 6);
	g_assert_cmpmem(ft.target, 6, ap2_addr, 6);
	g_assert_true(wifi_ft_ies_parse(ft.ies, ft.ies_len, 16, &ies, &error));
	g_assert_cmpmem(rsne_pmkid(&ies), WIFI_FT_NAME_LEN, ap->keys.pmk_r0_name, WIFI_FT_NAME_LEN);
	memcpy(ap->snonce, ies.parsed.snonce, WIFI_NONCE_LEN);
	fake_nl_done(f->fake, req, 0);
	iterate();
	/* The old link carries the exchange: nothing goes to the target. */
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_AUTHENTICATE), ==, 0);
	g_assert_cmpstr(f->events->str, ==, "C");
}

/* FT over the DS end to end: no authentication frame to the target, the
 * reassociation straight after the FT Response, keys as over the air. */
static void
test_ft_ds(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE_DS);

	roam_ft_ds_request(f, &ap, network);
	send_ft_action_response(f, &ap);
	expect_ft_reassociation(f, &ap);
	send_local_teardown(f);
	send_ft_reassoc_response(f, &ap, NULL);
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
	ack(f, NL80211_CMD_SET_STATION, ap2_addr);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_AUTHENTICATE), ==, 0);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONTROL_PORT_FRAME), ==, 0);
	assert_roamed(f, network);
	g_assert_cmpstr(transition(f), ==, "FT over the DS");
}

/* No FT Response comes: after the wait, FT over the air to the target. */
static void
test_ft_ds_silent(Fixture *f, gconstpointer data)
{
	FtAp ap;
	g_autoptr(WifiNetwork) network = join_ft(f, &ap, MDE_DS);
	gint64 until;
	FakeNlRequest *req;

	roam_ft_ds_request(f, &ap, network);
	until = g_get_monotonic_time() + 3 * G_USEC_PER_SEC;
	while (fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE) == NULL &&
	       g_get_monotonic_time() < until)
		g_main_context_iteration(NULL, TRUE);
	req = fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, ap2_addr, 6);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_AUTH_TYPE]), ==, NL80211_AUTHTYPE_FT);
	g_assert_cmpstr(f->events->str, ==, "C");
	g_assert_true(network_connected(network));
}

/* network (FT-802.1X with TESTKEY) joined through ap_addr: the
 * association, EAP, then the 4-way handshake on the PMK-R1 of the MSK's
 * XXKey. ap_addr's side of it is returned: its replay counter goes on. */
static TestAuth *
join_ft_8021x(Fixture *f, FtAp *ap, WifiNetwork **network)
{
	g_autoptr(GBytes) ies = NULL;
	guint8 msk[64];
	TestAuth *a;

	testkey_pmk("secret", msk, sizeof(msk));
	ft_ap_init_xxkey(ap, WIFI_AKM_SUITE_FT_8021X, RSNE_FT_8021X, msk + 32);
	*network = make_network(f, SSID, RSNE_FT_8021X MDE, EAP_PROFILE);
	connect_to(f, *network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	ies = answer_association(f, ap, ap_addr);
	run_eap(f, "alice", TRUE);
	a = ft_authenticator(ap, ap_addr, ies);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, *network);
	return a;
}

/* The access point (a's) runs EAP again, then the 4-way handshake:
 * message 2 verifies with the PTK of the PMK-R1 derived from the new MSK
 * for the link's key holders, and the link stays up throughout. */
static void
reauthenticate(Fixture *f, TestAuth *a)
{
	run_eap(f, "alice", TRUE);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	/* A new GTK with it, so that both keys go in again. */
	test_auth_rekey_group(a);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, a->aa);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

static void
test_ft_8021x_reauth(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = NULL;
	g_autoptr(TestAuth) a = NULL;
	FtAp ap;

	a = join_ft_8021x(f, &ap, &network);
	reauthenticate(f, a);
	g_assert_cmpstr(f->events->str, ==, "C");
	g_assert_true(network_connected(network));
}

/* After a transition over the air, where no EAP ran (none is started:
 * no EAPOL frame goes out), the diagnostics keep EAP's method and
 * identity, and the target's re-authentication keys the link for the
 * target's R1KH-ID with the reassociation response's MDE and FTE. */
static void
test_ft_8021x_roam_reauth(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = NULL;
	WifiConnectionInfo info;
	FtAp ap;
	g_autoptr(TestAuth) a = join_ft_8021x(f, &ap, &network);
	g_autoptr(GBytes) ies = NULL;
	g_autoptr(TestAuth) a2 = NULL;

	fake_nl_clear_sent(f->fake);
	roam_ft_authenticate(f, &ap, network);
	send_ft_auth_response(f, &ap, ap.keys.pmk_r0_name, ap2_addr);
	expect_ft_reassociation(f, &ap);
	send_ft_reassoc_response(f, &ap, &ies);
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
	ack(f, NL80211_CMD_SET_STATION, ap2_addr);
	g_assert_cmpuint(fake_nl_n_sent(f->fake, NL80211_CMD_CONTROL_PORT_FRAME), ==, 0);
	assert_roamed(f, network);
	g_assert_true(wifi_connector_get_connection_info(f->connector, &info));
	g_assert_cmpstr(info.eap_method, ==, "TESTKEY");
	g_assert_cmpstr(info.eap_identity, ==, "alice");
	a2 = ft_authenticator(&ap, ap2_addr, ies);
	f->peer = ap2_addr;
	reauthenticate(f, a2);
	g_assert_cmpstr(f->events->str, ==, "CC");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_assert_true(joind_eap_register_method(&testkey_ops, NULL));
	CONNECT_TEST_ADD("/wifi/connect/ft/air", &sme, test_ft_air);
	CONNECT_TEST_ADD("/wifi/connect/ft/refused", &sme, test_ft_refused);
	CONNECT_TEST_ADD("/wifi/connect/ft/silent", &sme, test_ft_silent);
	CONNECT_TEST_ADD("/wifi/connect/ft/other-pmkr0name", &sme, test_ft_other_pmkr0name);
	CONNECT_TEST_ADD("/wifi/connect/ft/no-r1kh", &sme, test_ft_no_r1kh);
	CONNECT_TEST_ADD("/wifi/connect/ft/ds", &sme, test_ft_ds);
	CONNECT_TEST_ADD("/wifi/connect/ft/ds-silent", &sme, test_ft_ds_silent);
	CONNECT_TEST_ADD("/wifi/connect/ft/8021x-reauth", &sme, test_ft_8021x_reauth);
	CONNECT_TEST_ADD("/wifi/connect/ft/8021x-roam-reauth", &sme, test_ft_8021x_roam_reauth);
	return g_test_run();
}
