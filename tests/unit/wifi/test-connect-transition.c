/* test-connect-transition.c - transition disable in the connector: message
 * 3's KDE saved in the profile, and the access points each disabled mode
 * refuses (WPA2-Personal, WPA2-Enterprise, open) through a fake nl80211. */
#include "connect-keys.h"

/* Message 3's Transition Disable KDE goes into the profile (iwd's keys);
 * from then on the network's WPA2-only access points are refused before
 * anything is sent to them. */
static void
test_transition_disable(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network =
	        make_network(f, "home", RSNE_PSK, "[Security]\nPassphrase=" PASSPHRASE "\n");
	g_autoptr(TestAuth) a = make_authenticator(PASSPHRASE, "home");
	g_autoptr(JoindProfile) saved = NULL;
	g_autofree gchar *modes = NULL;

	a->transition_disable = 0x01;
	associate(f, network);
	run_4way(f, a);
	ack(f, NL80211_CMD_SET_STATION, ap_addr);
	assert_connected(f, network);
	saved = joind_core_find_network_profile(f->tc->core, (const guint8 *)"home", 4,
	                                        JOIND_PROFILE_TYPE_PSK);
	g_assert_true(joind_profile_get_boolean(saved, "Settings", "TransitionDisable", FALSE));
	modes = joind_profile_get_string(saved, "Settings", "DisabledTransitionModes");
	g_assert_cmpstr(modes, ==, "personal");
	disconnect_keep_profile(f, network);

	joind_network_set_profile(JOIND_NETWORK(network), saved);
	connect_to(f, network);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
	assert_state(f, JOIND_STATION_STATE_DISCONNECTED);
}

/* An admin's profile with the keys already: the same. */
static void
test_transition_disable_profile(Fixture *f, gconstpointer data)
{
	g_autoptr(WifiNetwork) network = make_network(
	        f, "home", RSNE_PSK,
	        "[Security]\nPassphrase=" PASSPHRASE
	        "\n[Settings]\nTransitionDisable=true\nDisabledTransitionModes=open, personal\n");

	connect_to(f, network);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_null(fake_nl_find(f->fake, NL80211_CMD_AUTHENTICATE));
}

#define RSNE_8021X_MFP "30 14 0100 000fac04 0100 000fac04 0100 000fac05 c000"

/* enterprise: WPA2-Enterprise is refused before anything is sent; an
 * access point of the network with management frame protection is taken
 * instead. */
static void
test_td_enterprise(Fixture *f, gconstpointer data)
{
	const gchar *profile = EAP_PROFILE "[Settings]\nDisabledTransitionModes=enterprise\n";
	g_autoptr(WifiNetwork) wpa2 = make_network(f, "corp", RSNE_8021X, profile);
	g_autoptr(WifiNetwork) mixed = NULL;

	connect_to(f, wpa2);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(f->error->message, "WPA3-Enterprise only"));
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);

	mixed = make_network2(f, "corp2", RSNE_8021X, RSNE_8021X_MFP, profile);
	wifi_connector_connect_bss(f->connector, mixed,
	                           g_ptr_array_index(wifi_network_get_bsses(mixed), 0), NULL,
	                           connect_done, f);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	g_assert_cmpuint(f->n_done, ==, 1);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 1);
	g_assert_cmpuint(f->n_done, ==, 2);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
}

/* open: a plain open access point is refused; the network's OWE access
 * point is taken instead, even when the plain one was asked for. */
static void
test_td_open(Fixture *f, gconstpointer data)
{
	const gchar *profile = "[Settings]\nDisabledTransitionModes=open\n";
	g_autoptr(WifiNetwork) plain = make_network(f, "cafe", NULL, profile);
	g_autoptr(WifiNetwork) mixed = NULL;
	WifiBss *open_bss = NULL;
	GPtrArray *bsses;

	connect_to(f, plain);
	iterate();
	g_assert_cmpuint(f->n_done, ==, 1);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(f->error->message, "Enhanced Open (OWE) only"));
	g_assert_cmpuint(fake_nl_n_pending(f->fake), ==, 0);

	mixed = make_network2(f, "cafe2", NULL, RSNE_OWE, profile);
	bsses = wifi_network_get_bsses(mixed);
	for (guint i = 0; i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (memcmp(bss->bssid, ap_addr, 6) == 0)
			open_bss = bss;
	}
	g_assert_nonnull(open_bss);
	wifi_connector_connect_bss(f->connector, mixed, open_bss, NULL, connect_done, f);
	ack(f, NL80211_CMD_AUTHENTICATE, ap2_addr);
	g_assert_cmpuint(f->n_done, ==, 1);
	send_answer(f, NL80211_CMD_AUTHENTICATE, ap2_addr, 1);
	g_assert_cmpuint(f->n_done, ==, 2);
	g_assert_error(f->error, JOIND_ERROR, JOIND_ERROR_FAILED);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* Before any profile is read: EAP-Method is checked against it. */
	g_assert_true(joind_eap_register_method(&testkey_ops, NULL));
	CONNECT_TEST_ADD("/connect/transition-disable/message-3", &sme, test_transition_disable);
	CONNECT_TEST_ADD("/connect/transition-disable/profile", &sme,
	                 test_transition_disable_profile);
	CONNECT_TEST_ADD("/connect/transition-disable/enterprise", &sme_mfp, test_td_enterprise);
	CONNECT_TEST_ADD("/connect/transition-disable/open", &sme_mfp, test_td_open);
	return g_test_run();
}
