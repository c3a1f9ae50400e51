/* test-connect-wpa3.c - the connector's WPA3-Personal (SAE, the access
 * point's side played by joind's own exchange) and Enhanced Open (OWE)
 * connections through a fake nl80211: the PMKSA after SAE, hash-to-element,
 * and the OWE groups an access point refuses. */
#include "autoconnect-known.h"
#include "connect-sae.h"
#include "fake-bss.h"

/* Acks the pending ASSOCIATE; the group its OWE element offers, and its
 * public key into key (NULL: not wanted; 66 octets at most). */
static guint
ack_owe_associate(Fixture *f, guint8 *key)
{
	FakeNlRequest *req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	struct nlattr *ie = req->attrs[NL80211_ATTR_IE];
	gsize len = 0;
	const guint8 *body = wifi_ie_find(nla_data(ie), (gsize)nla_len(ie), WIFI_IE_EXT(32), &len);
	guint group;

	g_assert_nonnull(body);
	group = (guint)(body[0] | body[1] << 8);
	g_assert_cmpuint(len, ==, 2 + (group == 19 ? 32 : group == 20 ? 48 : 66));
	if (key != NULL)
		memcpy(key, body + 2, len - 2);
	/* Management frame protection required on our side. */
	g_assert_cmpuint(nla_get_u32(req->attrs[NL80211_ATTR_USE_MFP]), ==, NL80211_MFP_REQUIRED);
	fake_nl_done(f->fake, req, 0);
	iterate();
	return group;
}

/* Authenticated again after the access point refused a group: the next
 * association offers the next group. */
static guint
owe_authenticate_key(Fixture *f, guint8 *key)
{
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	return ack_owe_associate(f, key);
}

static guint
owe_authenticate(Fixture *f)
{
	return owe_authenticate_key(f, NULL);
}

/* The access point's association response with its OWE element (ap's
 * public key). */
static void
send_owe_answer(Fixture *f, const WifiOwe *ap)
{
	struct nl_msg *msg = event_new(NL80211_CMD_ASSOCIATE);
	guint8 frame[30 + WIFI_OWE_ELEMENT_MAX] = {0x10};
	gsize len;

	memcpy(frame + 4, sta_addr, 6);
	memcpy(frame + 10, ap_addr, 6);
	memcpy(frame + 16, ap_addr, 6);
	frame[28] = 1; /* AID */
	len = wifi_owe_write_element(ap, frame + 30);
	nla_put(msg, NL80211_ATTR_FRAME, (int)(30 + len), frame);
	send_event(f, msg);
}

/* The access point ends each association during the 4-way handshake (it
 * keys with a Diffie-Hellman answer we never read): joind associates again
 * with a new key pair, twice, without answering the call; then the call
 * fails, blaming no credentials. */
static void
test_owe_key_step_again(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);
	g_autoptr(WifiOwe) ap = wifi_owe_new(19, NULL);
	guint8 keys[WIFI_ATTEMPT_OWE_MAX_RENEWALS + 1][32];

	connect_to(f, network);
	for (guint i = 0; i <= WIFI_ATTEMPT_OWE_MAX_RENEWALS; i++) {
		g_assert_cmpuint(owe_authenticate_key(f, keys[i]), ==, 19);
		for (guint j = 0; j < i; j++)
			g_assert_true(memcmp(keys[i], keys[j], 32) != 0);
		send_owe_answer(f, ap);
		assert_state(f, JOIND_STATION_STATE_CONNECTING);
		g_assert_cmpuint(f->n_done, ==, 0);
		send_disconnect_event(f, 15);
	}
	assert_failed(f, JOIND_ERROR_FAILED, "reason 15", "H");
}

/* An OWE network is open; status 77 makes joind offer group 20; an answer
 * without the access point's element fails with a sentence. */
static void
test_owe_no_element(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);

	g_assert_cmpint(joind_network_get_network_type(JOIND_NETWORK(network)), ==,
	                JOIND_NETWORK_TYPE_OPEN);
	connect_to(f, network);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	g_assert_cmpuint(owe_authenticate(f), ==, 20);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_nonnull(strstr(f->error->message, "no OWE Diffie-Hellman element"));
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
}

static void
test_owe_groups_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);

	connect_to(f, network);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	g_assert_cmpuint(owe_authenticate(f), ==, 20);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	g_assert_cmpuint(owe_authenticate(f), ==, 21);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 77);
	assert_failed(f, JOIND_ERROR_FAILED,
	              "refused the association (finite cyclic group not supported)", "R");
}

/* No answer to an OWE association: asked again twice in the same group,
 * then the attempt fails. */
static void
test_owe_no_answer(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "cafe", RSNE_OWE, NULL);

	connect_to(f, network);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	g_assert_cmpuint(owe_authenticate(f), ==, 19);
	send_timed_out(f, NL80211_CMD_ASSOCIATE, ap_addr);
	assert_failed(f, JOIND_ERROR_FAILED, "did not answer (association)", "N");
}

/* SAE, then the cached PMKSA: open system authentication, the PMKID of
 * SAE's exchange in our RSNE, the 4-way handshake over its PMK. */
static void
test_sae_pmksa(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	SaeAp ap;
	guint8 pmk[32], pmkid[16];

	sae_ap_init(&ap, "wpa3", FALSE);
	sae_exchange(f, network, &ap);
	g_assert_false(sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid));
	assert_connected(f, network);
	g_assert_cmpuint(wifi_connector_get_rsn_plan(f->connector)->sae_group, ==, 19);
	g_assert_false(wifi_connector_get_rsn_plan(f->connector)->sae_pmksa);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	memcpy(pmk, wifi_sae_get_pmk(ap.sae), 32);
	disconnect_keep_profile(f, network);

	connect_to(f, network);
	g_assert_null(
	        fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE)->attrs[NL80211_ATTR_SAE_DATA]);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	g_assert_true(sae_associate(f, 0, pmk, FALSE, pmkid));
	g_assert_cmpmem(pmkid, 16, wifi_sae_get_pmkid(ap.sae), 16);
	assert_connected(f, network);
	g_assert_true(wifi_connector_get_rsn_plan(f->connector)->sae_pmksa);
	g_assert_cmpuint(wifi_connector_get_rsn_plan(f->connector)->sae_group, ==, 19);
	sae_ap_clear(&ap);
}

/* Connected once with SAE, then disconnected: the PMKSA is cached and the
 * next Connect() offers it with open system authentication. */
static void
sae_cache_pmksa(Fixture *f, WifiNetwork *network)
{
	SaeAp ap;
	guint8 pmkid[16];

	sae_ap_init(&ap, "wpa3", FALSE);
	sae_exchange(f, network, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid);
	assert_connected(f, network);
	disconnect_keep_profile(f, network);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	sae_ap_clear(&ap);
}

/* The PMKSA refused or unanswered, and SAE from the start in the same
 * Connect(): the entry is gone and the link comes up on SAE's new PMK. */
static void
sae_after_dropped_pmksa(Fixture *f, WifiNetwork *network)
{
	SaeAp ap;
	guint8 pmkid[16];

	g_assert_cmpuint(f->n_done, ==, 0);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
	sae_ap_init(&ap, "wpa3", FALSE);
	sae_run(f, &ap);
	g_assert_false(sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid));
	assert_connected(f, network);
	g_assert_false(wifi_connector_get_rsn_plan(f->connector)->sae_pmksa);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	sae_ap_clear(&ap);
}

/* An access point that no longer has the PMKSA refuses the association
 * (status 53, invalid PMKID): the entry goes and SAE runs after all, in
 * the same Connect(). */
static void
test_sae_pmksa_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	guint8 pmkid[16];

	sae_cache_pmksa(f, network);
	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	g_assert_true(sae_associate(f, 53, NULL, FALSE, pmkid));
	sae_after_dropped_pmksa(f, network);
}

/* The kernel expired the BSS (-ENOENT to the open system authentication)
 * and its own SME took the PMKSA attempt over with CMD_CONNECT; the
 * access point, restarted meanwhile, refuses the PMKID: SAE after all,
 * through joind's SME, as after a refused association. */
static void
test_sae_pmksa_refused_connect(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");

	sae_cache_pmksa(f, network);
	connect_to(f, network);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE), -ENOENT);
	iterate();
	ack(f, NL80211_CMD_CONNECT, ap_addr);
	send_connect_event(f, 53);
	sae_after_dropped_pmksa(f, network);
}

/* An access point that refuses open system authentication on its SAE
 * network (status 13) refuses the PMKSA with it: SAE after all. */
static void
test_sae_pmksa_open_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");

	sae_cache_pmksa(f, network);
	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 13);
	sae_after_dropped_pmksa(f, network);
}

/* The access point (restarted, busy) leaves the open system
 * authentication that offers the PMKSA unanswered within the kernel's
 * three short tries: on the network's only BSS, SAE after all, in the
 * same Connect(), with SAE's longer wait for each answer. */
static void
test_sae_pmksa_unanswered(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(GPtrArray) one = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);

	g_ptr_array_add(one, wifi_bss_ref(g_ptr_array_index(wifi_network_get_bsses(network), 0)));
	wifi_network_set_bsses(network, one);
	sae_cache_pmksa(f, network);
	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_timed_out(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	sae_after_dropped_pmksa(f, network);
}

static gchar *
saved_string(Fixture *f, const gchar *ssid, const gchar *group, const gchar *key)
{
	g_autoptr(JoindProfile) saved = joind_core_find_network_profile(
	        f->tc->core, (const guint8 *)ssid, strlen(ssid), JOIND_PROFILE_TYPE_PSK);

	return joind_profile_get_string(saved, group, key);
}

/* P-256's generator: a point of group 19, the PT of no passphrase. */
#define P256_G                                                             \
	"6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296" \
	"4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"

/* Hash-to-element: the PT lands in the profile (iwd's SAE-PT-Group19);
 * one that does not fit the passphrase (an admin changed it) costs one
 * more exchange, with a PT derived afresh, which replaces it. */
static void
test_sae_pt(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "wpa3", RSNE_SAE RSNXE_H2E,
	                                              "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(WifiNetwork) stale = NULL;
	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));
	g_autofree gchar *pt = NULL;
	g_autofree gchar *fixed = NULL;
	SaeAp ap, ap2, ap3;
	guint8 pmkid[16];

	sae_ap_init(&ap, "wpa3", TRUE);
	sae_exchange(f, network, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), TRUE, pmkid);
	assert_connected(f, network);
	g_assert_true(wifi_connector_get_rsn_plan(f->connector)->sae_h2e);
	pt = saved_string(f, "wpa3", "Security", "SAE-PT-Group19");
	g_assert_cmpuint(strlen(pt), ==, 128);
	disconnect_keep_profile(f, network);

	g_assert_cmpuint(wifi_pmksa_cache_flush_network(f->pmksa_cache, key), ==, 1);
	stale = make_network(f, "wpa3", RSNE_SAE RSNXE_H2E,
	                     "[Security]\nPassphrase=" PASSPHRASE "\nSAE-PT-Group19=" P256_G "\n");
	sae_ap_init(&ap2, "wpa3", TRUE);
	connect_to(f, stale);
	sae_to_ap(f, &ap2);
	sae_to_station(f, &ap2);
	sae_to_ap(f, &ap2); /* a confirm the access point cannot match */
	g_assert_true(ap2.failed);
	sae_to_station(f, &ap2); /* neither can we: again, a fresh PT */
	g_assert_cmpuint(f->n_done, ==, 0);
	sae_ap_init(&ap3, "wpa3", TRUE);
	sae_run(f, &ap3);
	sae_associate(f, 0, wifi_sae_get_pmk(ap3.sae), TRUE, pmkid);
	assert_connected(f, stale);
	fixed = saved_string(f, "wpa3", "Security", "SAE-PT-Group19");
	g_assert_cmpstr(fixed, ==, pt);
	sae_ap_clear(&ap);
	sae_ap_clear(&ap2);
	sae_ap_clear(&ap3);
}

/* The kernel expired the access point's BSS (not seen for 30 s): the
 * first commit is refused with -ENOENT; one scan of its frequency for the
 * SSID puts it back, SAE runs again and the link comes up. The BSS is
 * not avoided (no event before the connection). */
static void
test_sae_bss_expired(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	FakeNlRequest *req;
	struct nlattr *nest;
	SaeAp ap;
	guint8 pmkid[16];

	sae_ap_init(&ap, "wpa3", FALSE);
	f->iface->wiphy->max_scan_ssids = 4; /* the wildcard and the network's */
	connect_to(f, network);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE), -ENOENT);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 0);
	req = fake_nl_find(f->fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_nonnull(req);
	nest = req->attrs[NL80211_ATTR_SCAN_FREQUENCIES];
	g_assert_nonnull(nest);
	g_assert_cmpint(nla_len(nest), ==, NLA_HDRLEN + 4);
	g_assert_cmpuint(nla_get_u32(nla_data(nest)), ==, 2412);
	nest = req->attrs[NL80211_ATTR_SCAN_SSIDS];
	g_assert_nonnull(nest);
	nest = nla_find(nla_data(nest), nla_len(nest), 2);
	g_assert_nonnull(nest);
	g_assert_cmpmem(nla_data(nest), nla_len(nest), "wpa3", 4);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	fake_bss_complete_scan(f->fake, f->nl, NULL, 0);
	iterate();
	sae_run(f, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid);
	assert_connected(f, network);
	g_assert_cmpstr(f->events->str, ==, "C");
	sae_ap_clear(&ap);
}

/* expect_rescan F PASSIVE: the pending SAE commit refused with -ENOENT,
 * and the scan of 2412 MHz that follows it (probing for the SSID, or
 * PASSIVE: no probe at all) answered with no BSS. */
static void
expect_rescan(Fixture *f, gboolean passive)
{
	FakeNlRequest *req;

	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE), -ENOENT);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 0);
	req = fake_nl_find(f->fake, NL80211_CMD_TRIGGER_SCAN);
	g_assert_nonnull(req);
	g_assert_nonnull(req->attrs[NL80211_ATTR_SCAN_FREQUENCIES]);
	g_assert_true((req->attrs[NL80211_ATTR_SCAN_SSIDS] == NULL) == passive);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	fake_bss_complete_scan(f->fake, f->nl, NULL, 0);
	iterate();
}

/* An active scan dwells less than a beacon interval, and a busy access
 * point may not answer its probe: the BSS expired, its first scans (the
 * second passive, dwelling for a beacon) do not put it back, the third
 * (the last, connect-rescan.c) does and the link comes up. */
static void
test_sae_bss_expired_scans(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");
	SaeAp ap;
	guint8 pmkid[16];

	sae_ap_init(&ap, "wpa3", FALSE);
	f->iface->wiphy->max_scan_ssids = 4;
	connect_to(f, network);
	for (guint i = 0; i < 3; i++)
		expect_rescan(f, i == 1);
	sae_run(f, &ap);
	sae_associate(f, 0, wifi_sae_get_pmk(ap.sae), FALSE, pmkid);
	assert_connected(f, network);
	sae_ap_clear(&ap);
}

/* No scan puts the expired BSS back: the attempt fails after the last
 * one, saying so, without scanning for ever. */
static void
test_sae_bss_gone(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");

	f->iface->wiphy->max_scan_ssids = 4;
	connect_to(f, network);
	for (guint i = 0; i < 3; i++)
		expect_rescan(f, i == 1);
	fake_nl_done(f->fake, fake_nl_expect(f->fake, NL80211_CMD_AUTHENTICATE), -ENOENT);
	iterate();
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_TRIGGER_SCAN));
	assert_failed(f, JOIND_ERROR_FAILED, "3 scans of its channel (2412 MHz)", "F");
}

/* The access point deauthenticates us while we associate (hostapd drops a
 * station whose SAE commit came twice, and answers the association with
 * reason 6): mac80211 gives up the association and reports nothing else,
 * so the attempt starts over with SAE at once instead of waiting out its
 * 15 s; a second time, it fails naming the reason. Up to the second SAE
 * exchange (with the access point's fresh side, again), accepted; returns
 * the network. */
static WifiNetwork *
deauth_associating(Fixture *f, SaeAp *ap, SaeAp *again)
{
	WifiNetwork *network =
	        make_network(f, "wpa3", RSNE_SAE, "[Security]\nPassphrase=" PASSPHRASE "\n");

	sae_ap_init(ap, "wpa3", FALSE);
	sae_ap_init(again, "wpa3", FALSE);
	sae_exchange(f, network, ap);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_deauth_event(f, TRUE, 6);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 0);
	sae_run(f, again);
	return network;
}

static void
test_sae_deauth_associating(Fixture *f, gconstpointer data)
{
	SaeAp ap, again;
	g_autoptr(WifiNetwork) network = deauth_associating(f, &ap, &again);
	guint8 pmkid[16];

	sae_associate(f, 0, wifi_sae_get_pmk(again.sae), FALSE, pmkid);
	assert_connected(f, network);
	sae_ap_clear(&ap);
	sae_ap_clear(&again);
}

static void
test_sae_deauth_associating_twice(Fixture *f, gconstpointer data)
{
	SaeAp ap, again;
	/* Held until the attempt has failed. */
	g_autoptr(WifiNetwork) network G_GNUC_UNUSED = deauth_associating(f, &ap, &again);

	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_deauth_event(f, TRUE, 6);
	iterate();
	assert_failed(f, JOIND_ERROR_FAILED,
	              "deauthenticated us during the association (reason 6), twice", "R");
	sae_ap_clear(&ap);
	sae_ap_clear(&again);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	CONNECT_TEST_ADD("/connect/owe/group-refused-then-no-element", &sme_mfp,
	                 test_owe_no_element);
	CONNECT_TEST_ADD("/connect/owe/every-group-refused", &sme_mfp, test_owe_groups_refused);
	CONNECT_TEST_ADD("/connect/owe/no-answer", &sme_mfp, test_owe_no_answer);
	CONNECT_TEST_ADD("/connect/owe/key-step-again", &sme_mfp, test_owe_key_step_again);
	CONNECT_TEST_ADD("/connect/sae/pmksa", &sme_sae, test_sae_pmksa);
	CONNECT_TEST_ADD("/connect/sae/pmksa-refused", &sme_sae, test_sae_pmksa_refused);
	CONNECT_TEST_ADD("/connect/sae/pmksa-refused-connect", &sme_sae,
	                 test_sae_pmksa_refused_connect);
	CONNECT_TEST_ADD("/connect/sae/pmksa-open-refused", &sme_sae, test_sae_pmksa_open_refused);
	CONNECT_TEST_ADD("/connect/sae/pmksa-unanswered", &sme_sae, test_sae_pmksa_unanswered);
	CONNECT_TEST_ADD("/connect/sae/pt", &sme_sae, test_sae_pt);
	CONNECT_TEST_ADD("/connect/sae/bss-expired-scans", &sme_sae, test_sae_bss_expired_scans);
	CONNECT_TEST_ADD("/connect/sae/bss-gone", &sme_sae, test_sae_bss_gone);
	CONNECT_TEST_ADD("/connect/sae/deauth-associating", &sme_sae, test_sae_deauth_associating);
	CONNECT_TEST_ADD("/connect/sae/deauth-associating-twice", &sme_sae,
	                 test_sae_deauth_associating_twice);
	CONNECT_TEST_ADD("/connect/sae/bss-expired", &sme_sae, test_sae_bss_expired);
	return g_test_run();
}
