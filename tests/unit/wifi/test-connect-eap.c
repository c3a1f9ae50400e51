/* test-connect-eap.c - the connector's 802.1X connections through a fake
 * nl80211: EAP with the TESTKEY method (connect-keys.h), the PMK from its
 * MSK, the PMKSA cache, EAP failures, EAPOL-Start, re-authentication and
 * WPA3-Enterprise 192-bit. */
#include "connect-keys.h"
#include "autoconnect-known.h"

static TestAuth *
make_eap_authenticator(const gchar *password)
{
	guint8 pmk[32];
	TestAuth *a;

	testkey_pmk(password, pmk, sizeof(pmk));
	a = test_auth_new(WIFI_AKM_SUITE_8021X, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                  pmk, RSNE_8021X);
	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	return a;
}

/* Up to the association on joind's SME; the PMKID the request named is
 * copied into pmkid (FALSE: none). */
static gboolean
associate_eap(Fixture *f, WifiNetwork *network, guint8 pmkid[16])
{
	FakeNlRequest *req;
	const guint8 *named;

	connect_to(f, network);
	ack(f, NL80211_CMD_AUTHENTICATE, ap_addr);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap_addr, 0);
	req = fake_nl_expect(f->fake, NL80211_CMD_ASSOCIATE);
	named = assoc_pmkid(req);
	if (named != NULL)
		memcpy(pmkid, named, 16);
	ack(f, NL80211_CMD_ASSOCIATE, ap_addr);
	send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	return named != NULL;
}

static void
assert_eap_connected(Fixture *f, WifiNetwork *network, gboolean pmksa_used)
{
	WifiKeying *keying;

	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	keying = wifi_connector_get_keying(f->connector);
	g_assert_nonnull(keying);
	g_assert_cmpstr(wifi_keying_get_eap_method(keying), ==, "TESTKEY");
	g_assert_true(wifi_keying_pmksa_used(keying) == pmksa_used);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
}

/* Full EAP, the PMK from the MSK, message 1 naming its PMKID: connected,
 * the PMKSA cached. */
static void
test_eap_full(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	guint8 pmkid[16];

	g_assert_false(associate_eap(f, network, pmkid));
	run_eap(f, "alice", TRUE);
	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_8021X, a->pmk, 32, ap_addr, sta_addr, pmkid, NULL));
	a->msg1_pmkid = pmkid;
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	g_assert_cmpstr(wifi_keying_get_eap_identity(wifi_connector_get_keying(f->connector)), ==,
	                "alice");
}

/* The second association names the cached PMKID; the access point that
 * takes it starts the 4-way handshake at once: no EAP. */
static void
test_eap_pmksa(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	guint8 pmkid[16], named[16];

	g_assert_true(wifi_pmkid(WIFI_AKM_SUITE_8021X, a->pmk, 32, ap_addr, sta_addr, pmkid, NULL));
	associate_eap(f, network, named);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	disconnect_and_reset(f);

	g_assert_true(associate_eap(f, network, named));
	g_assert_cmpmem(named, 16, pmkid, 16);
	a->msg1_pmkid = pmkid;
	run_4way(f, a);
	assert_eap_connected(f, network, TRUE);
}

/* An access point that lost the PMKSA (restarted) begins EAP instead:
 * full EAP, a new PMKSA. */
static void
test_eap_pmksa_refused(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	guint8 named[16];

	associate_eap(f, network, named);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	disconnect_and_reset(f);

	g_assert_true(associate_eap(f, network, named));
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
}

/* EAP-Failure after the password went out: AuthenticationFailed, and the
 * observer hears of wrong credentials (autoconnect blocks the network). */
static void
test_eap_wrong_password(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	guint8 named[16];

	associate_eap(f, network, named);
	run_eap(f, "alice", FALSE);
	assert_failed_teardown(f, JOIND_ERROR_AUTHENTICATION_FAILED, "W");
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
}

/* EAP-Failure to the identity alone: no credentials were judged, so it is
 * an ordinary failed attempt. */
static void
test_eap_failure_at_identity(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autofree gchar *identity = NULL;
	guint8 named[16];

	associate_eap(f, network, named);
	send_eap(f, JOIND_EAP_CODE_REQUEST, 1, JOIND_EAP_TYPE_IDENTITY, NULL);
	identity = take_eap_response(f, JOIND_EAP_TYPE_IDENTITY);
	send_eap(f, JOIND_EAP_CODE_FAILURE, 1, 0, NULL);
	assert_failed_teardown(f, JOIND_ERROR_AUTHENTICATION_FAILED, "H");
}

/* An access point that stays quiet after the association gets an
 * EAPOL-Start after 3 s; the 4-way handshake's 5 s bound does not cut the
 * authentication short. */
static void
test_eap_start(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	g_autoptr(GBytes) start = NULL;
	gint64 t0 = g_get_monotonic_time();
	guint8 named[16];

	associate_eap(f, network, named);
	while (fake_nl_find(f->fake, NL80211_CMD_CONTROL_PORT_FRAME) == NULL)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpint(g_get_monotonic_time() - t0, >=, 2900000);
	start = take_eapol(f);
	g_assert_cmpuint(g_bytes_get_size(start), ==, 4);
	g_assert_cmpuint(((const guint8 *)g_bytes_get_data(start, NULL))[1], ==, 1);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
}

/* The authenticator re-authenticates a connected station: EAP again, then
 * a 4-way handshake over the new PMK; the link stays up throughout. */
static void
test_eap_reauth(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, EAP_PROFILE);
	g_autoptr(TestAuth) a = make_eap_authenticator("secret");
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *why = NULL;
	g_autofree gchar *key = wifi_known_network_key(JOIND_NETWORK(network));
	guint8 named[16];

	associate_eap(f, network, named);
	run_eap(f, "alice", TRUE);
	run_4way(f, a);
	assert_eap_connected(f, network, FALSE);
	wifi_pmksa_cache_flush_network(f->pmksa_cache, key);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
	run_eap(f, "alice", TRUE);
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	/* The access point holds the new PMKSA at once: so does the cache. */
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 1);
	/* The handshake after it: message 2 verifies with the new PMK's PTK
	 * (the test method's MSK is the same, so the PMK is too). */
	msg1 = test_auth_msg1(a);
	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
	g_assert_cmpuint(f->n_done, ==, 1);
}

/* WPA3-Enterprise 192-bit (AKM 12): a 48-octet PMK from the MSK, the
 * SHA-384 KDF and MIC, GCMP-256 keys and a BIP-GMAC-256 IGTK. Its PMKID
 * comes from the KCK, so nothing is cached. */
static void
test_eap_suite_b(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(
	        f, "corp192", "30 1a 0100 000fac09 0100 000fac09 0100 000fac0c c000 0000 000fac0c",
	        EAP_PROFILE);
	g_autoptr(TestAuth) a = NULL;
	guint8 pmk[48], named[16];
	const WifiRsnPlan *plan;

	testkey_pmk("secret", pmk, sizeof(pmk));
	a = test_auth_new(WIFI_AKM_SUITE_8021X_SUITE_B_192, WIFI_CIPHER_SUITE_GCMP_256,
	                  WIFI_CIPHER_SUITE_GCMP_256, WIFI_CIPHER_SUITE_BIP_GMAC_256, pmk,
	                  "30 1a 0100 000fac09 0100 000fac09 0100 000fac0c c000 0000 000fac0c");
	memcpy(a->aa, ap_addr, 6);
	memcpy(a->spa, sta_addr, 6);
	g_assert_false(associate_eap(f, network, named));
	run_eap(f, "alice", TRUE);
	/* TK, GTK, IGTK, and the IGTK made the default management key. */
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	plan = wifi_connector_get_rsn_plan(f->connector);
	g_assert_cmpuint(plan->akm, ==, WIFI_AKM_SUITE_8021X_SUITE_B_192);
	g_assert_cmpuint(plan->pairwise_cipher, ==, WIFI_CIPHER_SUITE_GCMP_256);
	g_assert_cmpuint(wifi_pmksa_cache_size(f->pmksa_cache), ==, 0);
}

/* A BSS of an 802.1X network without a profile cannot be joined. */
static void
test_eap_no_profile(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(f, "corp", RSNE_8021X, NULL);

	assert_refused_at_once(f, network, JOIND_ERROR_NOT_FOUND);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* Before any profile is read: EAP-Method is checked against it. */
	g_assert_true(joind_eap_register_method(&testkey_ops, NULL));
	CONNECT_TEST_ADD("/connect/eap/full", &sme, test_eap_full);
	CONNECT_TEST_ADD("/connect/eap/pmksa", &sme, test_eap_pmksa);
	CONNECT_TEST_ADD("/connect/eap/pmksa-refused", &sme, test_eap_pmksa_refused);
	CONNECT_TEST_ADD("/connect/eap/wrong-password", &sme, test_eap_wrong_password);
	CONNECT_TEST_ADD("/connect/eap/failure-at-identity", &sme, test_eap_failure_at_identity);
	CONNECT_TEST_ADD("/connect/eap/eapol-start", &sme, test_eap_start);
	CONNECT_TEST_ADD("/connect/eap/no-profile", &sme, test_eap_no_profile);
	CONNECT_TEST_ADD("/connect/eap/reauthentication", &sme, test_eap_reauth);
	CONNECT_TEST_ADD("/connect/eap/suite-b-192", &sme_suite_b, test_eap_suite_b);
	return g_test_run();
}
