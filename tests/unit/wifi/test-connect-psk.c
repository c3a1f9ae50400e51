/* test-connect-psk.c - the connector's WPA2-PSK connections through a fake
 * nl80211, the access point's 4-way handshake played by the test
 * authenticator: messages out of order, deauthentications and timeouts in
 * the handshake, and an access point that starts it over. */
#include "connect-keys.h"

static void
test_psk(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(JoindProfile) saved = NULL;
	g_autofree gchar *psk = NULL;

	associate(f, network);
	run_4way(f, a);
	g_assert_cmpuint(f->n_done, ==, 0); /* until the port is authorized */
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	g_assert_nonnull(wifi_connector_get_rsn_plan(f->connector));
	/* The PSK is cached in the profile; the passphrase stays. */
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"home", 4,
	                                        JOIND_PROFILE_TYPE_PSK);
	psk = joind_profile_get_string(saved, "Security", "PreSharedKey");
	g_assert_cmpuint(strlen(psk), ==, 64);
	joind_secret_wipe(g_steal_pointer(&psk));
	psk = joind_profile_get_string(saved, "Security", "Passphrase");
	g_assert_cmpstr(psk, ==, PASSPHRASE);
	/* A group rekey keeps the link. */
	test_auth_rekey_group(a);
	{
		g_autoptr(GBytes) group1 = test_auth_group_msg1(a);
		g_autoptr(GBytes) group2 = NULL;
		g_autofree gchar *why = NULL;

		send_eapol(f, group1);
		group2 = take_eapol(f);
		g_assert_true(test_auth_rx_group_msg2(a, group2, &why));
		g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 1);
	}
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

/* Message 1 may be read before the event that says the association is
 * done, when the kernel would still refuse the answer (ENOTCONN, and the
 * access point repeats only a second later): it is held, and answered
 * once that event came; on the kernel's SME (data: the CONNECT event)
 * and on joind's (the ASSOCIATE answer). */
static void
test_psk_msg1_before_association_event(Fixture *f, gconstpointer data)
{
	gboolean by_kernel = !((const Setup *)data)->sme;
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(GBytes) msg3 = NULL;
	g_autoptr(GBytes) msg4 = NULL;
	g_autofree gchar *why = NULL;

	connect_to(f, network);
	if (by_kernel) {
		ack(f, NL80211_CMD_CONNECT, ap_addr);
	} else {
		authenticate(f, ap_addr);
	}
	send_eapol(f, msg1);
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);
	if (by_kernel)
		send_connect_event(f, 0);
	else
		send_answer(f, NL80211_CMD_ASSOCIATE, ap_addr, 0);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	/* Message 1 again, as the access point repeats it: answered anew. */
	send_eapol(f, msg1);
	g_clear_pointer(&msg2, g_bytes_unref);
	msg2 = take_eapol(f);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	assert_state(f, JOIND_STATION_STATE_CONNECTING);
	msg3 = test_auth_msg3(a);
	send_eapol(f, msg3);
	msg4 = take_eapol(f);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	g_assert_cmpuint(fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0), ==, 2);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
}

/* Deauthenticated after message 2 and before message 3 (reason 15): what a
 * wrong passphrase looks like, but a forged or late frame too: the user's
 * call fails with AuthenticationFailed, the event is only a suspicion (K);
 * nothing is saved. */
static void
test_deauth_in_handshake(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=wrong passphrase\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(JoindProfile) saved = NULL;
	g_autofree gchar *psk = NULL;

	associate(f, network);
	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	send_disconnect_event(f, 15);
	assert_failed(f, JOIND_ERROR_AUTHENTICATION_FAILED, "", "K");
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"home", 4,
	                                        JOIND_PROFILE_TYPE_PSK);
	psk = joind_profile_get_string(saved, "Security", "PreSharedKey");
	g_assert_null(psk);
}

/* The event for a deauthentication after message 2 by its reason: 3 (the
 * AP leaving; anyone can forge it) keys refused, 14 (the AP's MIC failure)
 * wrong passphrase. Both fail the user's call with AuthenticationFailed. */
static void
test_deauth_after_msg2_reason(Fixture *f, guint16 reason, const gchar *event)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = test_auth_msg1(a);
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *part = g_strdup_printf("reason %u", reason);

	associate(f, network);
	send_eapol(f, msg1);
	msg2 = take_eapol(f);
	send_disconnect_event(f, reason);
	assert_failed(f, JOIND_ERROR_AUTHENTICATION_FAILED, part, event);
}

static void
test_deauth_reason3(Fixture *f, gconstpointer data)
{
	test_deauth_after_msg2_reason(f, 3, "K");
}

static void
test_deauth_reason14(Fixture *f, gconstpointer data)
{
	test_deauth_after_msg2_reason(f, 14, "W");
}

/* No EAPOL at all after the association: the handshake's timer. */
static void
test_handshake_timeout(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");

	associate(f, network);
	while (f->n_done == 0)
		g_main_context_iteration(NULL, TRUE);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
	g_assert_cmpstr(f->events->str, ==, "H");
	/* Associated: joind's SME deauthenticates, the DISCONNECT event ends it. */
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* An access point that took a retransmitted association request for a new
 * association drops our keys and runs the 4-way handshake again in the
 * clear: it is answered in the clear; a group rekey under the keys is not. */
static void
test_ap_restarts_in_clear(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autoptr(GBytes) msg3 = NULL;
	g_autoptr(GBytes) msg4 = NULL;
	g_autoptr(GBytes) group1 = NULL;
	g_autoptr(GBytes) group2 = NULL;
	g_autofree gchar *why = NULL;
	gboolean clear = FALSE;

	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);

	msg1 = test_auth_msg1(a);
	send_eapol_as(f, msg1, TRUE);
	msg2 = take_eapol_as(f, &clear);
	g_assert_true(clear);
	g_assert_true(test_auth_rx_msg2(a, msg2, &why));
	msg3 = test_auth_msg3(a);
	send_eapol_as(f, msg3, TRUE);
	msg4 = take_eapol_as(f, &clear);
	g_assert_true(clear);
	g_assert_true(test_auth_rx_msg4(a, msg4, &why));
	fake_nl_done_all(f->fake, NL80211_CMD_NEW_KEY, 0);

	test_auth_rekey_group(a);
	group1 = test_auth_group_msg1(a);
	send_eapol(f, group1);
	group2 = take_eapol_as(f, &clear);
	g_assert_false(clear);
	g_assert_true(test_auth_rx_group_msg2(a, group2, &why));
	assert_state(f, JOIND_STATION_STATE_CONNECTED);
}

/* A handshake the access point starts over on the keyed link (in the
 * clear: it dropped our keys) with a PMK we do not hold: our message 2
 * never verifies, and after the bound the link is lost (autoconnect comes
 * back), joind's SME deauthenticating. */
static void
test_restart_unfinished(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(TestAuth) other = make_authenticator("another passphrase", "home");
	g_autoptr(GBytes) msg1 = NULL;
	g_autoptr(GBytes) msg2 = NULL;
	g_autofree gchar *why = NULL;

	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	/* Past the first handshake's replay counters. */
	for (guint i = 0; i < 4; i++)
		g_bytes_unref(test_auth_msg1(other));
	msg1 = test_auth_msg1(other);
	send_eapol_as(f, msg1, TRUE);
	msg2 = take_eapol(f);
	g_assert_false(test_auth_rx_msg2(other, msg2, &why));
	while (strchr(f->events->str, 'L') == NULL)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpstr(f->events->str, ==, "CL");
	ack(f, NL80211_CMD_DEAUTHENTICATE, ap_addr);
	send_disconnect_event(f, 3);
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	CONNECT_TEST_ADD("/connect/psk/sme", &sme, test_psk);
	CONNECT_TEST_ADD("/connect/psk/msg1-before-association/kernel-sme", &kernel_sme,
	                 test_psk_msg1_before_association_event);
	CONNECT_TEST_ADD("/connect/psk/msg1-before-association/sme", &sme,
	                 test_psk_msg1_before_association_event);
	CONNECT_TEST_ADD("/connect/psk/deauth-in-handshake", &sme, test_deauth_in_handshake);
	CONNECT_TEST_ADD("/connect/psk/deauth-after-msg2/reason-3", &sme, test_deauth_reason3);
	CONNECT_TEST_ADD("/connect/psk/deauth-after-msg2/reason-14", &sme, test_deauth_reason14);
	CONNECT_TEST_ADD("/connect/psk/handshake-timeout", &sme, test_handshake_timeout);
	CONNECT_TEST_ADD("/connect/psk/ap-restarts-in-the-clear", &sme, test_ap_restarts_in_clear);
	CONNECT_TEST_ADD("/connect/psk/restart-unfinished", &sme, test_restart_unfinished);
	return g_test_run();
}
