/* ap-fixture.c - the access point's tests' fixture (see ap-fixture.h). */
#include "ap-fixture.h"

#include <errno.h>
#include <string.h>

#include "ie.h"
#include "mgmt.h"

const guint8 bssid[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};
const guint8 sta_mac[6] = {0x02, 0x00, 0x00, 0x00, 0x02, 0x00};
const guint8 other_mac[6] = {0x02, 0x00, 0x00, 0x00, 0x03, 0x00};
const guint8 rsne_psk[22] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
                             0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x00, 0x00};
const guint8 rsne_mfpc[22] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
                              0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x02, 0x80, 0x00};
const guint8 rsne_sae[22] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00, 0x00,
                             0x0f, 0xac, 0x04, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x08, 0x80, 0x00};

static void
on_state(WifiApState old_state, WifiApState new_state, const gchar *reason, gpointer user_data)
{
	Fixture *f = user_data;

	(void)old_state;
	(void)reason;
	g_string_append_printf(f->log, "%s ", wifi_ap_state_to_string(new_state));
}

static void
on_station(const guint8 mac[6], gboolean joined, gpointer user_data)
{
	Fixture *f = user_data;

	g_string_append_printf(f->log, "%c%02x ", joined ? '+' : '-', mac[5] | mac[4]);
}

/* Scan events reach the AP as the manager would hand them over. */
static void
on_nl_event(guint8 cmd, struct nlattr **attrs, gpointer user_data)
{
	wifi_ap_handle_event(((Fixture *)user_data)->ap, cmd, attrs);
}

void
set_up(Fixture *f, gconstpointer data)
{
	static const WifiApCallbacks cb = {on_state, on_station};
	g_autoptr(WifiWiphy) wiphy = wifi_wiphy_new(0);

	(void)data;
	wiphy->name = g_strdup("phy0");
	wiphy->iftypes = (1u << NL80211_IFTYPE_STATION) | (1u << NL80211_IFTYPE_AP);
	wiphy->ciphers = WIFI_CIPHER_CCMP | WIFI_CIPHER_BIP_CMAC;
	for (guint ch = 1; ch <= 13; ch++) {
		WifiChannel c = {.freq = 2407 + 5 * ch, .disabled = ch == 12, .no_ir = ch == 13};

		g_array_append_val(wiphy->channels, c);
	}
	f->nl = fake_nl_new(&f->fake);
	f->iface = wifi_iface_new(f->nl, NULL, wiphy, IFINDEX, "wlan0");
	f->ap = wifi_ap_new(f->iface, bssid, &cb, f);
	wifi_nl_add_listener(f->nl, on_nl_event, f);
	f->log = g_string_new(NULL);
}

void
tear_down(Fixture *f, gconstpointer data)
{
	(void)data;
	wifi_handshake_free(f->sta);
	wifi_ap_free(f->ap);
	g_queue_clear_full(&f->to_ap, (GDestroyNotify)g_bytes_unref);
	wifi_iface_unref(f->iface);
	wifi_nl_free(f->nl);
	g_string_free(f->log, TRUE);
}

WifiApConfig
config(const gchar *ssid, const gchar *secret)
{
	WifiApConfig c = {0};

	memcpy(c.ssid, ssid, strlen(ssid));
	c.ssid_len = strlen(ssid);
	c.secret = secret;
	c.open = secret == NULL;
	c.channel = 6;
	return c;
}

/* Answers every step of the start; checks START_AP's attributes. */
void
start(Fixture *f, const WifiApConfig *c)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_ap_start(f->ap, c, &error));
	g_assert_no_error(error);
	answer_start(f, c);
}

void
answer_start(Fixture *f, const WifiApConfig *c)
{
	FakeNlRequest *req;

	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_REGISTER_FRAME, 0), ==, 6);
	req = fake_nl_expect(f->fake, NL80211_CMD_START_AP);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_SSID]),
	                nla_len(req->attrs[NL80211_ATTR_SSID]), c->ssid, c->ssid_len);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_WIPHY_FREQ]), ==, 2437);
	g_assert_nonnull(req->attrs[NL80211_ATTR_BEACON_HEAD]);
	g_assert_nonnull(req->attrs[NL80211_ATTR_SOCKET_OWNER]);
	g_assert_true((req->attrs[NL80211_ATTR_PRIVACY] != NULL) == !c->open);
	if (!c->open) {
		const guint32 *akms = nla_data(req->attrs[NL80211_ATTR_AKM_SUITES]);
		guint n = (guint)nla_len(req->attrs[NL80211_ATTR_AKM_SUITES]) / 4;

		g_assert_cmpuint(n, ==, c->security == WIFI_AP_SECURITY_WPA2_WPA3 ? 2 : 1);
		g_assert_cmpuint(akms[0], ==,
		                 c->security == WIFI_AP_SECURITY_WPA3 ? 0x000fac08 : 0x000fac02);
		g_assert_nonnull(req->attrs[NL80211_ATTR_CONTROL_PORT_OVER_NL80211]);
	}
	fake_nl_done(f->fake, req, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_SET_BSS);
	g_assert_cmpuint(nla_get_u8(req->attrs[NL80211_ATTR_AP_ISOLATE]), ==, 1);
	fake_nl_done(f->fake, req, c->hidden ? -EOPNOTSUPP : 0);
	if (!c->open) {
		g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
		req = fake_nl_expect(f->fake, NL80211_CMD_SET_KEY);
		g_assert_nonnull(req->attrs[NL80211_ATTR_KEY_DEFAULT]);
		fake_nl_done(f->fake, req, 0);
	}
	g_assert_cmpint(wifi_ap_get_state(f->ap), ==, WIFI_AP_STATE_STARTED);
	g_assert_cmpuint(wifi_ap_get_frequency(f->ap), ==, 2437);
}

/* A management frame from the station, as nl80211 passes it up. */
void
rx_frame(Fixture *f, GBytes *frame)
{
	struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_FRAME);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	nla_put_u32(msg, NL80211_ATTR_IFINDEX, IFINDEX);
	nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame),
	        g_bytes_get_data(frame, NULL));
	wifi_test_msg_parse(msg, tb);
	wifi_ap_handle_event(f->ap, NL80211_CMD_FRAME, tb);
	nlmsg_free(msg);
	g_bytes_unref(frame);
}

/* A frame from sa: the fixed fields (and, for a probe, the elements) in
 * hex; an association request also names the SSID, rates and rsne. */
GBytes *
request_from(const guint8 sa[6], guint8 subtype, const gchar *fixed_hex, const guint8 *rsne,
             gsize rsne_len)
{
	GByteArray *b = g_byte_array_new();
	guint8 h[24] = {subtype};
	static const guint8 ssid[] = {0x00, 0x04, 'h', 'o', 'm', 'e'};
	static const guint8 rates[] = {0x01, 0x04, 0x82, 0x84, 0x8b, 0x96};

	memcpy(h + 4, bssid, 6);
	memcpy(h + 10, sa, 6);
	memcpy(h + 16, bssid, 6);
	g_byte_array_append(b, h, sizeof(h));
	for (gsize i = 0; fixed_hex[i] != '\0'; i += 2) {
		guint8 o = (guint8)(g_ascii_xdigit_value(fixed_hex[i]) * 16 +
		                    g_ascii_xdigit_value(fixed_hex[i + 1]));
		g_byte_array_append(b, &o, 1);
	}
	if (subtype == WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ) {
		g_byte_array_append(b, ssid, sizeof(ssid));
		g_byte_array_append(b, rates, sizeof(rates));
		if (rsne != NULL)
			g_byte_array_append(b, rsne, (guint)rsne_len);
	}
	return g_byte_array_free_to_bytes(b);
}

GBytes *
request(guint8 subtype, const gchar *fixed_hex, const guint8 *rsne, gsize rsne_len)
{
	return request_from(sta_mac, subtype, fixed_hex, rsne, rsne_len);
}

void
tx_status(Fixture *f, guint64 cookie)
{
	struct nl_msg *status = wifi_test_msg_new(NL80211_CMD_FRAME_TX_STATUS);
	struct nlattr *tb[NL80211_ATTR_MAX + 1];

	nla_put_u32(status, NL80211_ATTR_IFINDEX, IFINDEX);
	nla_put_u64(status, NL80211_ATTR_COOKIE, cookie);
	nla_put_flag(status, NL80211_ATTR_ACK);
	wifi_test_msg_parse(status, tb);
	wifi_ap_handle_event(f->ap, NL80211_CMD_FRAME_TX_STATUS, tb);
	nlmsg_free(status);
}

/* A frame sent wanting its transmission status gets a cookie, and the
 * station acknowledges it at once. */
static void
acknowledge(Fixture *f, FakeNlRequest *req)
{
	guint64 cookie = 1000u + req->id;
	struct nl_msg *reply = wifi_test_msg_new(NL80211_CMD_FRAME);

	nla_put_u64(reply, NL80211_ATTR_COOKIE, cookie);
	fake_nl_reply(f->fake, req, reply);
	fake_nl_done(f->fake, req, 0);
	tx_status(f, cookie);
}

GBytes *
tx_frame(Fixture *f)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_FRAME);
	GBytes *frame = g_bytes_new(nla_data(req->attrs[NL80211_ATTR_FRAME]),
	                            nla_len(req->attrs[NL80211_ATTR_FRAME]));

	if (req->attrs[NL80211_ATTR_DONT_WAIT_FOR_ACK] == NULL)
		acknowledge(f, req);
	else
		fake_nl_done(f->fake, req, 0);
	return frame;
}

void
expect_answer(Fixture *f, gboolean assoc, guint16 status)
{
	g_autoptr(GBytes) frame = tx_frame(f);
	g_autoptr(GError) error = NULL;
	WifiMgmtAnswer a;

	g_assert_true(wifi_mgmt_parse_answer(g_bytes_get_data(frame, NULL), g_bytes_get_size(frame),
	                                     &a, &error));
	g_assert_cmpint(a.assoc, ==, assoc);
	g_assert_cmpuint(a.status, ==, status);
	g_assert_cmpmem(a.bssid, 6, bssid, 6);
}

static void
sta_send(const guint8 *frame, gsize len, gpointer user_data)
{
	g_queue_push_tail(&((Fixture *)user_data)->to_ap, g_bytes_new(frame, len));
}

static void
sta_install(const WifiHandshakeKey *key, gpointer user_data)
{
	(void)key;
	((Fixture *)user_data)->sta_keys++;
}

void
client_start(Fixture *f, const ClientSetup *cs)
{
	static const WifiHandshakeCallbacks cb = {sta_send, sta_install, NULL};
	g_autoptr(GError) error = NULL;
	WifiHandshakeConfig c = {0};

	c.akm = cs->akm;
	c.pairwise_cipher = c.group_cipher = WIFI_CIPHER_SUITE_CCMP;
	c.group_mgmt_cipher = cs->rsne[20] & 0x80 ? WIFI_CIPHER_SUITE_BIP_CMAC : 0;
	memcpy(c.spa, sta_mac, 6);
	memcpy(c.aa, bssid, 6);
	c.pmk = cs->pmk;
	c.pmk_len = 32;
	c.pmkid = cs->pmkid;
	c.own_rsne = cs->rsne;
	c.own_rsne_len = (gsize)cs->rsne[1] + 2;
	c.own_rsnxe = cs->rsnxe;
	c.own_rsnxe_len = cs->rsnxe != NULL ? (gsize)cs->rsnxe[1] + 2 : 0;
	c.ap_rsne = cs->ap_rsne;
	c.ap_rsne_len = (gsize)cs->ap_rsne[1] + 2;
	c.ap_rsnxe = cs->ap_rsnxe;
	c.ap_rsnxe_len = cs->ap_rsnxe != NULL ? (gsize)cs->ap_rsnxe[1] + 2 : 0;
	/* A test that joins again (after a restart) starts a new client. */
	g_clear_pointer(&f->sta, wifi_handshake_free);
	f->sta = wifi_handshake_new(&c, &cb, f, &error);
	g_assert_no_error(error);
}

void
client_new(Fixture *f, const gchar *passphrase, const guint8 *rsne, gsize rsne_len)
{
	static const guint8 ap_rsne[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	                                 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
	                                 0x00, 0x0f, 0xac, 0x02, 0x80, 0x00};
	g_autoptr(GError) error = NULL;
	guint8 pmk[32];
	ClientSetup cs = {.akm = WIFI_AKM_SUITE_PSK, .pmk = pmk, .rsne = rsne, .ap_rsne = ap_rsne};

	g_assert_cmpuint(rsne_len, ==, (gsize)rsne[1] + 2);
	g_assert_true(wifi_psk_from_passphrase(passphrase, (const guint8 *)"home", 4, pmk, &error));
	client_start(f, &cs);
}

/* EAPOL the AP sent (CONTROL_PORT_FRAME), answered, to the client. */
void
eapol_to_client(Fixture *f, gboolean encrypted)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_CONTROL_PORT_FRAME);
	g_autoptr(GError) error = NULL;

	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, sta_mac, 6);
	g_assert_true((req->attrs[NL80211_ATTR_CONTROL_PORT_NO_ENCRYPT] == NULL) == encrypted);
	wifi_handshake_rx(f->sta, nla_data(req->attrs[NL80211_ATTR_FRAME]),
	                  nla_len(req->attrs[NL80211_ATTR_FRAME]), &error);
	fake_nl_done(f->fake, req, 0);
}

/* The client's EAPOL frames to the AP (CONTROL_PORT_FRAME events). */
void
eapol_to_ap(Fixture *f)
{
	GBytes *frame;

	while ((frame = g_queue_pop_head(&f->to_ap)) != NULL) {
		struct nl_msg *msg = wifi_test_msg_new(NL80211_CMD_CONTROL_PORT_FRAME);
		struct nlattr *tb[NL80211_ATTR_MAX + 1];

		nla_put_u32(msg, NL80211_ATTR_IFINDEX, IFINDEX);
		nla_put(msg, NL80211_ATTR_MAC, 6, sta_mac);
		nla_put(msg, NL80211_ATTR_FRAME, (int)g_bytes_get_size(frame),
		        g_bytes_get_data(frame, NULL));
		wifi_test_msg_parse(msg, tb);
		wifi_ap_handle_event(f->ap, NL80211_CMD_CONTROL_PORT_FRAME, tb);
		nlmsg_free(msg);
		g_bytes_unref(frame);
	}
}

/* An association request with these elements (RSNE, RSNXE) up to
 * NEW_STATION and the association response. */
void
assoc(Fixture *f, const guint8 *ies, gsize ies_len, gboolean mfp)
{
	FakeNlRequest *req;
	struct nl80211_sta_flag_update *flags;

	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_ASSOC_REQ, "31040a00", ies, ies_len));
	req = fake_nl_expect(f->fake, NL80211_CMD_NEW_STATION);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, sta_mac, 6);
	g_assert_cmpuint(nla_get_u16(req->attrs[NL80211_ATTR_STA_AID]), ==, 1);
	flags = nla_data(req->attrs[NL80211_ATTR_STA_FLAGS2]);
	g_assert_cmpuint(!!(flags->set & (1u << NL80211_STA_FLAG_MFP)), ==, mfp);
	g_assert_cmpuint(flags->set & (1u << NL80211_STA_FLAG_AUTHORIZED), ==, 0);
	fake_nl_done(f->fake, req, 0);
	expect_answer(f, TRUE, 0);
}

void
keys(Fixture *f)
{
	FakeNlRequest *req;

	eapol_to_client(f, FALSE); /* message 1 */
	eapol_to_ap(f);            /* message 2 */
	eapol_to_client(f, FALSE); /* message 3 */
	eapol_to_ap(f);            /* message 4 */
	req = fake_nl_expect(f->fake, NL80211_CMD_NEW_KEY);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, sta_mac, 6);
	fake_nl_done(f->fake, req, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_SET_STATION);
	g_assert_cmpmem(nla_data(req->attrs[NL80211_ATTR_MAC]), 6, sta_mac, 6);
	fake_nl_done(f->fake, req, 0);
	g_assert_cmpint(wifi_handshake_get_state(f->sta), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
	g_assert_cmpuint(wifi_ap_get_n_stations(f->ap), ==, 1);
}

void
join(Fixture *f, const guint8 *rsne, gsize rsne_len, gboolean mfp)
{
	client_new(f, "correct horse", rsne, rsne_len);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 0);
	assoc(f, rsne, rsne_len, mfp);
	keys(f);
}
