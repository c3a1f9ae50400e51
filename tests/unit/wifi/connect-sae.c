/* connect-sae.c - the access point's side of SAE in the connector's tests
 * (see connect-sae.h). */
#include "connect-sae.h"

static void
sae_ap_send(const guint8 *data, gsize len, gpointer user_data)
{
	g_queue_push_tail(((SaeAp *)user_data)->out, g_bytes_new(data, len));
}

static void
sae_ap_done(const GError *error, gpointer user_data)
{
	((SaeAp *)user_data)->failed = error != NULL;
}

void
sae_ap_init(SaeAp *ap, const gchar *ssid, gboolean h2e)
{
	static const guint group = 19;
	WifiSaeConfig config = {
	        .password = (const guint8 *)PASSPHRASE,
	        .password_len = strlen(PASSPHRASE),
	        .ssid = (const guint8 *)ssid,
	        .ssid_len = strlen(ssid),
	        .groups = &group,
	        .n_groups = 1,
	        .h2e = h2e,
	        .send = sae_ap_send,
	        .done = sae_ap_done,
	        .user_data = ap,
	};

	memcpy(config.own_addr, ap_addr, 6);
	memcpy(config.peer_addr, sta_addr, 6);
	ap->failed = FALSE;
	ap->out = g_queue_new();
	ap->sae = wifi_sae_new(&config, NULL);
}

void
sae_ap_clear(SaeAp *ap)
{
	g_queue_free_full(ap->out, (GDestroyNotify)g_bytes_unref);
	g_clear_pointer(&ap->sae, wifi_sae_free);
}

/* The station's SAE frame (CMD_AUTHENTICATE, NL80211_AUTHTYPE_SAE) goes
 * to the access point. */
void
sae_to_ap(Fixture *f, SaeAp *ap)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE);
	struct nlattr *data = req->attrs[NL80211_ATTR_SAE_DATA];
	const guint8 *d;

	g_assert_nonnull(data);
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_AUTH_TYPE]), ==, NL80211_AUTHTYPE_SAE);
	d = nla_data(data);
	wifi_sae_rx(ap->sae, (guint16)(d[0] | d[1] << 8), (guint16)(d[2] | d[3] << 8), d + 4,
	            (gsize)nla_len(data) - 4);
	fake_nl_done(f->fake, req, 0);
	iterate();
}

/* The access point's next SAE frame, as the kernel's AUTHENTICATE event. */
void
sae_to_station(Fixture *f, SaeAp *ap)
{
	g_autoptr(GBytes) sae = g_queue_pop_head(ap->out);
	g_autoptr(GByteArray) frame = g_byte_array_new();
	struct nl_msg *msg = event_new(NL80211_CMD_AUTHENTICATE);
	guint8 head[26] = {0xb0};
	gsize len;
	const guint8 *d = g_bytes_get_data(sae, &len);

	memcpy(head + 4, sta_addr, 6);
	memcpy(head + 10, ap_addr, 6);
	memcpy(head + 16, ap_addr, 6);
	head[24] = 3; /* SAE */
	g_byte_array_append(frame, head, sizeof(head));
	g_byte_array_append(frame, d, (guint)len);
	nla_put(msg, NL80211_ATTR_FRAME, (int)frame->len, frame->data);
	send_event(f, msg);
}

/* Our commit, the access point's commit and confirm, our confirm: SAE
 * accepted on both sides. */
void
sae_run(Fixture *f, SaeAp *ap)
{
	sae_to_ap(f, ap);      /* our commit; the AP answers both */
	sae_to_station(f, ap); /* its commit */
	sae_to_ap(f, ap);      /* our confirm */
	sae_to_station(f, ap); /* its confirm: accepted */
	g_assert_cmpint(wifi_sae_get_state(ap->sae), ==, WIFI_SAE_ACCEPTED);
}

void
sae_exchange(Fixture *f, WifiNetwork *network, SaeAp *ap)
{
	connect_to(f, network);
	sae_run(f, ap);
}

/* h2e: the access point's RSNXE (its beacon's) is in message 3. */
static TestAuth *
make_sae_authenticator(const guint8 *pmk, gboolean h2e)
{
	TestAuth *a =
	        test_auth_new(WIFI_AKM_SUITE_SAE, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP,
	                      WIFI_CIPHER_SUITE_BIP_CMAC, pmk, RSNE_SAE);

	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	if (h2e)
		a->rsnxe = hs_test_hex(RSNXE_H2E);
	return a;
}

/* Association (answered with status), then, when 0, the 4-way handshake
 * over pmk up to CONNECTED; the PMKID the request named into pmkid. */
gboolean
sae_associate(Fixture *f, guint16 status, const guint8 *pmk, gboolean h2e, guint8 pmkid[16])
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	const guint8 *named = assoc_pmkid(req);
	g_autoptr(TestAuth) a = NULL;

	if (named != NULL)
		memcpy(pmkid, named, 16);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, status);
	if (status != 0)
		return named != NULL;
	a = make_sae_authenticator(pmk, h2e);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	return named != NULL;
}
