/* test-ap-sae.c - WPA3 access points (plugins/wifi/ap as SAE responder)
 * against a fake nl80211, with the security room's own SAE exchange as the
 * station's side: hunting and pecking and hash-to-element, the 4-way
 * handshake keyed with SAE's PMK (message 1 naming its PMKID), management
 * frame protection required; a WPA3 AP refuses open system, SAE without
 * MFP and a wrong password; a transition AP takes both; refusals of a
 * WPA3 configuration it cannot run. */
#include <string.h>

#include "ap-fixture.h"
#include "log-capture.h"
#include "mgmt-request.h"
#include "mgmt.h"
#include "sae.h"

#define PASSWORD "correct horse"

/* The station's SAE exchange and its outcome. */
typedef struct {
	Fixture *f;
	guint8 mac[6];
	WifiSae *sae;
	gboolean done, accepted;
	guint n_tokens; /* anti-clogging requests it received */
	gboolean deaf;  /* hears nothing: its exchange stays under way */
} Client;

/* The station's SAE frames (sequence, status, body) as authentication
 * frames to the AP. */
static void
client_send(const guint8 *data, gsize len, gpointer user_data)
{
	Client *c = user_data;
	GByteArray *frame = g_byte_array_new();
	guint8 h[24] = {WIFI_MGMT_FC_SUBTYPE_AUTH};
	static const guint8 alg[2] = {3, 0};

	memcpy(h + 4, bssid, 6);
	memcpy(h + 10, c->mac, 6);
	memcpy(h + 16, bssid, 6);
	g_byte_array_append(frame, h, sizeof(h));
	g_byte_array_append(frame, alg, 2);
	g_byte_array_append(frame, data, (guint)len);
	rx_frame(c->f, g_byte_array_free_to_bytes(frame));
}

static void
client_done(const GError *error, gpointer user_data)
{
	Client *c = user_data;

	c->done = TRUE;
	c->accepted = error == NULL;
}

/* The AP's authentication frames to the station's exchange (frames to
 * other addresses, or to a deaf station, are lost), until none is left. */
static void
sae_to_client(Fixture *f, Client *c)
{
	FakeNlRequest *req;

	while ((req = fake_nl_find(f->fake, NL80211_CMD_FRAME)) != NULL) {
		g_autoptr(GBytes) frame = g_bytes_new(nla_data(req->attrs[NL80211_ATTR_FRAME]),
		                                      nla_len(req->attrs[NL80211_ATTR_FRAME]));
		gsize len;
		const guint8 *p = g_bytes_get_data(frame, &len);

		fake_nl_done(f->fake, req, 0);
		g_assert_cmpuint(len, >=, 30);
		g_assert_cmpuint(p[0], ==, WIFI_MGMT_FC_SUBTYPE_AUTH);
		g_assert_cmpuint(wifi_mgmt_le16(p + 24), ==, 3);
		if (c->deaf || memcmp(p + 4, c->mac, 6) != 0)
			continue;
		c->n_tokens += wifi_mgmt_le16(p + 28) == WIFI_SAE_STATUS_ANTI_CLOGGING;
		wifi_sae_rx(c->sae, wifi_mgmt_le16(p + 26), wifi_mgmt_le16(p + 28), p + 30,
		            len - 30);
	}
}

static void
client_sae(Fixture *f, Client *c, const gchar *password, gboolean h2e)
{
	static const guint groups[] = {19};
	g_autoptr(GError) error = NULL;
	WifiSaeConfig sc = {
	        .password = (const guint8 *)password,
	        .password_len = strlen(password),
	        .ssid = (const guint8 *)"home",
	        .ssid_len = 4,
	        .groups = groups,
	        .n_groups = 1,
	        .h2e = h2e,
	        .send = client_send,
	        .done = client_done,
	        .user_data = c,
	};

	c->f = f;
	if (c->mac[0] == 0)
		memcpy(c->mac, sta_mac, 6);
	memcpy(sc.own_addr, c->mac, 6);
	memcpy(sc.peer_addr, bssid, 6);
	c->sae = wifi_sae_new(&sc, &error);
	g_assert_no_error(error);
	wifi_sae_start(c->sae);
	sae_to_client(f, c);
	/* The station's confirm reached the AP within wifi_sae_rx(). */
}

static const guint8 ap_rsne_wpa3[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
                                      0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
                                      0x00, 0x0f, 0xac, 0x08, 0xc0, 0x00};
static const guint8 ap_rsnxe[] = {0xf4, 0x01, 0x20};

static void
start_wpa3(Fixture *f, WifiApSecurity security)
{
	WifiApConfig c = config("home", PASSWORD);

	c.security = security;
	start(f, &c);
}

static void
sae_join(Fixture *f, gboolean h2e)
{
	Client c = {0};
	guint8 ies[sizeof(rsne_sae) + sizeof(ap_rsnxe)];
	ClientSetup cs = {
	        .akm = WIFI_AKM_SUITE_SAE,
	        .rsne = rsne_sae,
	        .rsnxe = h2e ? ap_rsnxe : NULL,
	        .ap_rsne = ap_rsne_wpa3,
	        .ap_rsnxe = ap_rsnxe,
	};

	start_wpa3(f, WIFI_AP_SECURITY_WPA3);
	client_sae(f, &c, PASSWORD, h2e);
	g_assert_true(c.done);
	g_assert_true(c.accepted);
	cs.pmk = wifi_sae_get_pmk(c.sae);
	cs.pmkid = wifi_sae_get_pmkid(c.sae);
	client_start(f, &cs);
	memcpy(ies, rsne_sae, sizeof(rsne_sae));
	memcpy(ies + sizeof(rsne_sae), ap_rsnxe, sizeof(ap_rsnxe));
	assoc(f, ies, h2e ? sizeof(ies) : sizeof(rsne_sae), TRUE);
	keys(f);
	g_assert_cmpuint(f->sta_keys, ==, 3); /* TK, GTK, IGTK */
	wifi_sae_free(c.sae);
}

static void
test_sae_hunting_and_pecking(Fixture *f, gconstpointer data)
{
	(void)data;
	sae_join(f, FALSE);
}

static void
test_sae_h2e(Fixture *f, gconstpointer data)
{
	(void)data;
	sae_join(f, TRUE);
}

/* A WPA3 AP: open system authentication is refused (status 13), a WPA2
 * association too (no SAE first: status 43), and a wrong password fails
 * the exchange (the station's confirm does not verify): no station. */
static void
test_wpa3_refusals(Fixture *f, gconstpointer data)
{
	Client c = {0};

	(void)data;
	start_wpa3(f, WIFI_AP_SECURITY_WPA3);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 13);
	log_capture_reset();
	log_capture_allow_warning("*refused*password is wrong*");
	client_sae(f, &c, "not the password", FALSE);
	g_assert_cmpuint(log_capture_count("WARNING: wlan0: station *refused*password is wrong*"),
	                 ==, 1);
	g_assert_false(c.accepted);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_NEW_STATION));
	g_assert_cmpuint(wifi_ap_get_n_stations(f->ap), ==, 0);
	wifi_sae_free(c.sae);
}

/* Five exchanges under way (stations that never confirm): the sixth
 * station's commit is answered with a token (status 76); its commit again
 * with the token is taken, and it joins. Both SAE variants. */
static void
test_anti_clogging(Fixture *f, gconstpointer data)
{
	gboolean h2e = GPOINTER_TO_INT(data);
	Client idle[5] = {0};
	Client c = {0};

	start_wpa3(f, WIFI_AP_SECURITY_WPA3);
	for (guint i = 0; i < G_N_ELEMENTS(idle); i++) {
		memcpy(idle[i].mac, sta_mac, 6);
		idle[i].mac[4] = (guint8)(0x10 + i);
		idle[i].deaf = TRUE;
		client_sae(f, &idle[i], PASSWORD, h2e);
		g_assert_false(idle[i].done);
		g_assert_cmpuint(idle[i].n_tokens, ==, 0);
	}
	client_sae(f, &c, PASSWORD, h2e);
	g_assert_cmpuint(c.n_tokens, ==, 1);
	g_assert_true(c.done);
	g_assert_true(c.accepted);
	for (guint i = 0; i < G_N_ELEMENTS(idle); i++)
		wifi_sae_free(idle[i].sae);
	wifi_sae_free(c.sae);
}

/* A transition AP takes a WPA2 client (open system, PSK) as well. */
static void
test_transition_takes_wpa2(Fixture *f, gconstpointer data)
{
	static const guint8 ap_rsne_both[] = {0x30, 0x18, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01,
	                                      0x00, 0x00, 0x0f, 0xac, 0x04, 0x02, 0x00, 0x00, 0x0f,
	                                      0xac, 0x02, 0x00, 0x0f, 0xac, 0x08, 0x80, 0x00};
	g_autoptr(GError) error = NULL;
	guint8 pmk[32];
	ClientSetup cs = {
	        .akm = WIFI_AKM_SUITE_PSK,
	        .pmk = pmk,
	        .rsne = rsne_psk,
	        .ap_rsne = ap_rsne_both,
	        .ap_rsnxe = ap_rsnxe,
	};

	(void)data;
	start_wpa3(f, WIFI_AP_SECURITY_WPA2_WPA3);
	g_assert_true(wifi_psk_from_passphrase(PASSWORD, (const guint8 *)"home", 4, pmk, &error));
	client_start(f, &cs);
	rx_frame(f, request(WIFI_MGMT_FC_SUBTYPE_AUTH, "000001000000", NULL, 0));
	expect_answer(f, FALSE, 0);
	assoc(f, rsne_psk, sizeof(rsne_psk), FALSE);
	keys(f);
}

/* WPA3 with a 64-digit key, or on a radio without BIP: refused with a
 * sentence. */
static void
test_wpa3_config_refused(Fixture *f, gconstpointer data)
{
	WifiApConfig c =
	        config("home", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	g_autoptr(GError) error = NULL;

	(void)data;
	c.security = WIFI_AP_SECURITY_WPA3;
	g_assert_false(wifi_ap_start(f->ap, &c, &error));
	g_assert_nonnull(strstr(error->message, "WPA3 needs the passphrase"));
	g_clear_error(&error);
	c = config("home", PASSWORD);
	c.security = WIFI_AP_SECURITY_WPA2_WPA3;
	f->iface->wiphy->ciphers = 1u << 4; /* CCMP only */
	g_assert_false(wifi_ap_start(f->ap, &c, &error));
	g_assert_nonnull(strstr(error->message, "no BIP-CMAC-128"));
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	log_capture_init();
#define ADD(path, fn) g_test_add(path, Fixture, NULL, set_up, fn, tear_down)
	ADD("/ap-sae/hunting-and-pecking", test_sae_hunting_and_pecking);
	ADD("/ap-sae/hash-to-element", test_sae_h2e);
	ADD("/ap-sae/wpa3-refusals", test_wpa3_refusals);
	g_test_add("/ap-sae/anti-clogging/hunting-and-pecking", Fixture, GINT_TO_POINTER(FALSE),
	           set_up, test_anti_clogging, tear_down);
	g_test_add("/ap-sae/anti-clogging/hash-to-element", Fixture, GINT_TO_POINTER(TRUE), set_up,
	           test_anti_clogging, tear_down);
	ADD("/ap-sae/transition-takes-wpa2", test_transition_takes_wpa2);
	ADD("/ap-sae/wpa3-config-refused", test_wpa3_config_refused);
	return g_test_run();
}
