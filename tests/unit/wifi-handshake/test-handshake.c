/* test-handshake.c - the supplicant state machine against the authenticator
 * model: complete 4-way handshakes for PSK, PSK-SHA256 with MFP, SAE and
 * OWE (its three groups' sizes);
 * retransmitted and replayed frames, bad MICs, a wrong passphrase, RSNE
 * mismatches, missing keys, GTK and PTK rekeys; and a check that no secret
 * reaches the log. */
#include <string.h>

#include "eapol-key.h"
#include "hs-test-util.h"
#include "rsn-handshake.h"
#include "rsn-kde.h"
#include "test-authenticator.h"
#include "test-names.h"
#include "test-station.h"

#define RSNE_PSK        "30 14 0100 000fac04 0100 000fac04 0100 000fac02 0000"
#define RSNE_PSK_SHA256 "30 14 0100 000fac04 0100 000fac04 0100 000fac06 c000"
#define RSNE_SAE        "30 14 0100 000fac09 0100 000fac09 0100 000fac08 c000"
#define RSNE_OWE        "30 14 0100 000fac04 0100 000fac04 0100 000fac12 c000"
#define RSNXE_H2E       "f4 01 20"

static guint8 test_psk[32];

static void
test_psk_ccmp(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);

	run_4way(sta, a);
	g_assert_cmpuint(sta->sent->len, ==, 2);
	g_assert_cmpuint(sta->installed->len, ==, 2);
	assert_installed(installed(sta, 0), WIFI_KEY_KIND_PAIRWISE, 0, WIFI_CIPHER_SUITE_CCMP,
	                 a->ptk.tk, 16);
	g_assert_null(installed(sta, 0)->seq);
	assert_installed(installed(sta, 1), WIFI_KEY_KIND_GROUP, 1, WIFI_CIPHER_SUITE_CCMP, a->gtk,
	                 16);
	/* The GTK's receive counter comes from message 3's Key RSC. */
	hs_assert_hex(g_bytes_get_data(installed(sta, 1)->seq, NULL), 6, "050000000000");
	g_assert_cmpstr(sta->states->str, ==, "wait-msg1>wait-msg3;wait-msg3>complete;");
}

static void
test_psk_sha256_mfp(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_BIP_CMAC,
	                                      test_psk, RSNE_PSK_SHA256);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK_SHA256, NULL);
	WifiEapolKey key;

	a->protocol_version = 1;
	run_4way(sta, a);
	/* Descriptor version 3 (AES-128-CMAC) and the echoed 802.1X version. */
	g_assert_true(wifi_eapol_key_parse(g_bytes_get_data(last_sent(sta), NULL),
	                                   g_bytes_get_size(last_sent(sta)), 16, &key, NULL));
	g_assert_cmpuint(wifi_eapol_key_version(&key), ==, 3);
	g_assert_cmpuint(key.protocol_version, ==, 1);
	g_assert_cmpuint(sta->installed->len, ==, 3);
	assert_installed(installed(sta, 2), WIFI_KEY_KIND_GROUP_MGMT, 4, WIFI_CIPHER_SUITE_BIP_CMAC,
	                 a->igtk, 16);
	hs_assert_hex(g_bytes_get_data(installed(sta, 2)->seq, NULL), 6, "090000000000");
}

static void
test_sae_gcmp256(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_SAE, WIFI_CIPHER_SUITE_GCMP_256,
	                                      WIFI_CIPHER_SUITE_GCMP_256,
	                                      WIFI_CIPHER_SUITE_BIP_GMAC_256, test_psk, RSNE_SAE);
	g_autoptr(Sta) sta = NULL;

	a->rsnxe = hs_test_hex(RSNXE_H2E);
	sta = sta_new(a, RSNE_SAE, RSNXE_H2E);
	run_4way(sta, a);
	assert_installed(installed(sta, 0), WIFI_KEY_KIND_PAIRWISE, 0, WIFI_CIPHER_SUITE_GCMP_256,
	                 a->ptk.tk, 32);
	assert_installed(installed(sta, 1), WIFI_KEY_KIND_GROUP, 1, WIFI_CIPHER_SUITE_GCMP_256,
	                 a->gtk, 32);
	assert_installed(installed(sta, 2), WIFI_KEY_KIND_GROUP_MGMT, 4,
	                 WIFI_CIPHER_SUITE_BIP_GMAC_256, a->igtk, 32);
}

/* OWE's sizes follow the PMK of its group: 32 octets (SHA-256, MIC 16),
 * 48 (SHA-384, MIC 24), 64 (SHA-512, MIC 32); descriptor version 0. */
static void
test_owe(void)
{
	static const gsize pmk_lens[] = {32, 48, 64};

	for (guint i = 0; i < G_N_ELEMENTS(pmk_lens); i++) {
		g_autoptr(TestAuth) a = test_auth_new(
		        WIFI_AKM_SUITE_OWE, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP,
		        WIFI_CIPHER_SUITE_BIP_CMAC, test_psk, RSNE_OWE);
		g_autoptr(Sta) sta = NULL;
		gsize mic_len = pmk_lens[i] / 2;
		WifiEapolKey key;

		g_test_message("OWE with a PMK of %zu octets", pmk_lens[i]);
		a->pmk_len = pmk_lens[i];
		memset(a->pmk, 0x5a + (gint)i, a->pmk_len);
		sta = sta_new(a, RSNE_OWE, NULL);
		run_4way(sta, a);
		g_assert_true(wifi_eapol_key_parse(g_bytes_get_data(last_sent(sta), NULL),
		                                   g_bytes_get_size(last_sent(sta)), mic_len, &key,
		                                   NULL));
		g_assert_cmpuint(wifi_eapol_key_version(&key), ==, 0);
		g_assert_cmpuint(a->ptk.kck_len, ==, mic_len);
		g_assert_cmpuint(a->ptk.kek_len, ==, pmk_lens[i] == 32 ? 16 : 32);
		assert_installed(installed(sta, 0), WIFI_KEY_KIND_PAIRWISE, 0,
		                 WIFI_CIPHER_SUITE_CCMP, a->ptk.tk, 16);
		g_assert_cmpstr(sta->states->str, ==, "wait-msg1>wait-msg3;wait-msg3>complete;");
	}
}

/* Message 2 lost: the AP resends message 1 (same ANonce, next counter); the
 * station answers again with the same SNonce. */
static void
test_retransmitted_msg1(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = test_auth_msg1(a);
	g_autoptr(GBytes) m1b = NULL, m3 = NULL, first_msg2 = NULL;
	WifiEapolKey k1, k2;

	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	first_msg2 = g_bytes_ref(last_sent(sta));
	m1b = test_auth_msg1_again(a);
	sta_rx(sta, m1b, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->sent->len, ==, 2);
	g_assert_true(wifi_eapol_key_parse(g_bytes_get_data(first_msg2, NULL),
	                                   g_bytes_get_size(first_msg2), 16, &k1, NULL));
	g_assert_true(wifi_eapol_key_parse(g_bytes_get_data(last_sent(sta), NULL),
	                                   g_bytes_get_size(last_sent(sta)), 16, &k2, NULL));
	g_assert_cmpmem(k1.nonce, 32, k2.nonce, 32);
	g_assert_cmpuint(k2.replay_counter, ==, k1.replay_counter + 1);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg4, a, last_sent(sta));
	g_assert_cmpstr(sta->states->str, ==,
	                "wait-msg1>wait-msg3;wait-msg3>wait-msg3;wait-msg3>complete;");
}

/* A message 1 with a new ANonce restarts the exchange: message 3 for the
 * old ANonce is dropped, the one for the new ANonce completes. */
static void
test_msg1_new_anonce(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = test_auth_msg1(a);
	g_autoptr(GBytes) m1b = NULL, stale_m3 = NULL, m3 = NULL;

	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	stale_m3 = test_auth_msg3(a);
	m1b = test_auth_msg1(a);
	sta_rx(sta, m1b, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	sta_rx(sta, stale_m3, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	assert_installed(installed(sta, 0), WIFI_KEY_KIND_PAIRWISE, 0, WIFI_CIPHER_SUITE_CCMP,
	                 a->ptk.tk, 16);
}

/* Message 4 lost: the AP resends message 3 (next counter). The station sends
 * message 4 again and does not reinstall any key. */
static void
test_retransmitted_msg3(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m3b = NULL;

	run_4way(sta, a);
	m3b = test_auth_msg3(a);
	sta_rx(sta, m3b, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->sent->len, ==, 3);
	auth_accepts(test_auth_rx_msg4, a, last_sent(sta));
	g_assert_cmpuint(sta->installed->len, ==, 2);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
	/* After a group rekey to key ID 2, a message 3 still carrying GTK 1
	 * (authentic, with a fresh counter) must not reinstall key 1: that
	 * would reset its receive counter. */
	{
		guint8 old_gtk[32];
		g_autoptr(GBytes) g1 = NULL, m3c = NULL;

		memcpy(old_gtk, a->gtk, sizeof(old_gtk));
		test_auth_rekey_group(a);
		g1 = test_auth_group_msg1(a);
		sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		g_assert_cmpuint(sta->installed->len, ==, 3);
		memcpy(a->gtk, old_gtk, sizeof(old_gtk));
		a->gtk_id = 1;
		m3c = test_auth_msg3(a);
		sta_rx(sta, m3c, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		auth_accepts(test_auth_rx_msg4, a, last_sent(sta));
		g_assert_cmpuint(sta->installed->len, ==, 3);
	}
}

/* Replayed frames (same replay counter, or older) are dropped and change
 * nothing: no frame sent, no key installed. */
static void
test_replays(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = test_auth_msg1(a);
	g_autoptr(GBytes) m3 = NULL, g1 = NULL;

	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	test_auth_rekey_group(a);
	g1 = test_auth_group_msg1(a);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->sent->len, ==, 3);
	g_assert_cmpuint(sta->installed->len, ==, 3);

	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_REPLAY);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_REPLAY);
	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_REPLAY);
	g_assert_cmpuint(sta->sent->len, ==, 3);
	g_assert_cmpuint(sta->installed->len, ==, 3);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
}

/* A message 3 with a bad MIC is dropped (the AP will resend it) and the
 * error says what a bad MIC on message 3 means; the next good one works. */
static void
test_bad_mic_msg3(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = test_auth_msg1(a);
	g_autoptr(GBytes) m3 = NULL, bad = NULL;
	g_autoptr(GError) error = NULL;
	guint8 *raw;
	gsize len;

	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	len = g_bytes_get_size(m3);
	raw = g_memdup2(g_bytes_get_data(m3, NULL), len);
	raw[WIFI_EAPOL_KEY_MIC_OFFSET + 3] ^= 0x01;
	bad = g_bytes_new_take(raw, len);
	g_assert_cmpint(wifi_handshake_rx(sta->hs, raw, len, &error), ==,
	                WIFI_HANDSHAKE_RX_DROPPED);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC);
	g_assert_nonnull(strstr(error->message, "passphrase is most likely wrong"));
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_WAIT_MSG3);
	g_assert_cmpuint(sta->sent->len, ==, 1);
	g_assert_cmpuint(sta->installed->len, ==, 0);
	/* The replay counter of a frame that failed its MIC is not taken: a
	 * good frame with the same counter still works. */
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
}

/* The AP has another passphrase. Like hostapd, it cannot verify message 2
 * and resends message 1 until it gives up; the station's timer fires and
 * the error says the passphrase is most likely wrong, but only as a
 * suspicion (NO_MSG3): a resent message 1 has no MIC, anyone can forge it. */
static void
test_wrong_passphrase_msg1_resent(void)
{
	guint8 other[32];
	g_autoptr(TestAuth) a = NULL;
	g_autoptr(Sta) sta = NULL;
	g_autoptr(GError) error = NULL;

	memset(other, 0x6f, sizeof(other));
	a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP, 0,
	                  test_psk, RSNE_PSK);
	sta = sta_new(a, RSNE_PSK, NULL);
	memcpy(a->pmk, other, sizeof(other));
	for (guint i = 0; i < 4; i++) {
		g_autoptr(GBytes) m1 = i == 0 ? test_auth_msg1(a) : test_auth_msg1_again(a);
		g_autofree gchar *why = NULL;

		sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		g_assert_false(test_auth_rx_msg2(a, last_sent(sta), &why));
		g_assert_nonnull(strstr(why, "MIC"));
	}
	wifi_handshake_abort(sta->hs, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0, &error);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3);
	g_assert_nonnull(strstr(error->message, "message 1 4 times"));
	g_assert_nonnull(strstr(error->message, "passphrase is most likely wrong"));
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_FAILED);
	g_assert_cmpuint(sta->installed->len, ==, 0);
	g_clear_error(&error);
	/* A failed handshake takes no more frames. */
	{
		g_autoptr(GBytes) m1 = test_auth_msg1(a);

		sta_rx(sta, m1, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	}
}

/* An AP with another passphrase that sends message 3 anyway: message 3 fails
 * its MIC, and a deauthentication with reason 15 then reports a suspected
 * wrong passphrase (a message 3 with a bad MIC is as easy to forge as the
 * deauthentication). */
static void
test_wrong_passphrase_msg3_mic(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = NULL;
	g_autoptr(GError) error = NULL;

	memset(a->pmk, 0x6f, sizeof(a->pmk));
	m1 = test_auth_msg1(a);
	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	test_auth_take_snonce(a, last_sent(sta));
	for (guint i = 0; i < 3; i++) {
		g_autoptr(GBytes) m3 = test_auth_msg3(a);

		sta_rx(sta, m3, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_MIC);
	}
	wifi_handshake_abort(sta->hs, WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED, 15, &error);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3);
	g_assert_nonnull(strstr(error->message, "integrity check 3 time(s)"));
	g_assert_nonnull(strstr(error->message, "4-way handshake timeout"));
	g_assert_nonnull(strstr(error->message, "passphrase is most likely wrong"));
	g_assert_cmpuint(sta->installed->len, ==, 0);
}

static void
test_abort_other_states(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) s1 = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(Sta) s2 = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(Sta) s3 = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = NULL;
	g_autoptr(GError) error = NULL;

	wifi_handshake_abort(s1->hs, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0, &error);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_TIMEOUT);
	g_assert_nonnull(strstr(error->message, "never sent message 1"));
	g_clear_error(&error);
	wifi_handshake_abort(s1->hs, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0, &error);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	g_clear_error(&error);
	run_4way(s2, a);
	wifi_handshake_abort(s2->hs, WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED, 3, &error);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_DEAUTHENTICATED);
	g_assert_nonnull(strstr(error->message, "reason 3"));
	g_clear_error(&error);
	/* One message 1 answered, then silence: "may be wrong". */
	m1 = test_auth_msg1(a);
	sta_rx(s3, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	wifi_handshake_abort(s3->hs, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0, &error);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3);
	g_assert_nonnull(strstr(error->message, "passphrase may be wrong"));
}

/* A deauthentication after message 2 (a forged one looks the same): only
 * reason 14, the access point saying MIC failure, is a wrong passphrase;
 * any other reason, and forged frames before it (a message 1 sent again,
 * a message 3 with a bad MIC), only a suspicion. */
static void
test_abort_after_msg2_reasons(void)
{
	static const struct {
		guint16 reason;
		gboolean forged_frames;
		WifiHandshakeErrorCode code;
	} cases[] = {
	        {3, FALSE, WIFI_HANDSHAKE_ERROR_NO_MSG3},
	        {3, TRUE, WIFI_HANDSHAKE_ERROR_NO_MSG3},
	        {15, FALSE, WIFI_HANDSHAKE_ERROR_NO_MSG3},
	        {23, FALSE, WIFI_HANDSHAKE_ERROR_NO_MSG3},
	        {0, FALSE, WIFI_HANDSHAKE_ERROR_NO_MSG3},
	        {14, FALSE, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE},
	        {14, TRUE, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(TestAuth) a =
		        test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
		                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
		g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
		g_autoptr(GBytes) m1 = test_auth_msg1(a);
		g_autoptr(GError) error = NULL;
		g_autofree gchar *reason = NULL;

		sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		test_auth_take_snonce(a, last_sent(sta));
		if (cases[i].forged_frames) {
			g_autoptr(GBytes) again = test_auth_msg1_again(a);
			g_autoptr(GBytes) m3 = NULL;

			/* A forger does not know the PMK. */
			memset(a->pmk, 0x6f, sizeof(a->pmk));
			sta_rx(sta, again, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
			test_auth_take_snonce(a, last_sent(sta));
			m3 = test_auth_msg3(a);
			sta_rx(sta, m3, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_MIC);
		}
		wifi_handshake_abort(sta->hs, WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED, cases[i].reason,
		                     &error);
		g_assert_error(error, WIFI_HANDSHAKE_ERROR, (gint)cases[i].code);
		reason = g_strdup_printf("reason %u", cases[i].reason);
		g_assert_nonnull(strstr(error->message, reason));
		g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_FAILED);
		g_assert_cmpuint(sta->installed->len, ==, 0);
	}
}

/* Message 3 whose RSNE differs from the beacon's (a downgrade): the
 * handshake fails, no message 4, no key. */
static void
test_rsne_mismatch(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = test_auth_msg1(a);
	g_autoptr(GBytes) m3 = NULL;

	a->msg3_rsne = hs_test_hex("30 14 0100 000fac02 0100 000fac04 0100 000fac02 0000");
	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_FAILED, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_FAILED);
	g_assert_cmpuint(sta->sent->len, ==, 1);
	g_assert_cmpuint(sta->installed->len, ==, 0);
	g_assert_nonnull(strstr(sta->states->str, "wait-msg3>failed;"));
}

/* Message 3 cases that fail after a good MIC. knob selects the fault. */
typedef enum {
	FAULT_NO_RSNXE,
	FAULT_NO_GTK,
	FAULT_NO_IGTK,
	FAULT_PLAIN_KEY_DATA,
	FAULT_WRONG_KEK,
	FAULT_SECOND_RSNE,
} Msg3Fault;

static void
check_msg3_fault(Msg3Fault fault, gint code)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_BIP_CMAC,
	                                      test_psk, RSNE_PSK_SHA256);
	g_autoptr(Sta) sta = NULL;
	g_autoptr(GBytes) m1 = NULL, m3 = NULL;

	a->rsnxe = hs_test_hex(RSNXE_H2E);
	sta = sta_new(a, RSNE_PSK_SHA256, RSNXE_H2E);
	a->omit_rsnxe = fault == FAULT_NO_RSNXE;
	a->omit_gtk = fault == FAULT_NO_GTK;
	a->omit_igtk = fault == FAULT_NO_IGTK;
	a->plain_key_data = fault == FAULT_PLAIN_KEY_DATA;
	a->wrong_kek = fault == FAULT_WRONG_KEK;
	if (fault == FAULT_SECOND_RSNE) /* assigns TKIP as pairwise cipher */
		a->msg3_rsne = hs_test_hex(RSNE_PSK_SHA256
		                           "30 14 0100 000fac04 0100 000fac02 0100 000fac06 c000");
	m1 = test_auth_msg1(a);
	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_FAILED, code);
	g_assert_cmpuint(sta->installed->len, ==, 0);
	g_assert_cmpuint(sta->sent->len, ==, 1);
}

static void
test_msg3_faults(void)
{
	check_msg3_fault(FAULT_NO_RSNXE, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
	check_msg3_fault(FAULT_NO_GTK, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	check_msg3_fault(FAULT_NO_IGTK, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	check_msg3_fault(FAULT_PLAIN_KEY_DATA, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	check_msg3_fault(FAULT_WRONG_KEK, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	check_msg3_fault(FAULT_SECOND_RSNE, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
}

/* Group rekeys: each new GTK (and IGTK) is installed, the state stays
 * complete, group message 2 verifies at the AP; a resent group message 1
 * with the same keys is answered but installs nothing. */
static void
test_group_rekey(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_BIP_CMAC,
	                                      test_psk, RSNE_PSK_SHA256);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK_SHA256, NULL);

	run_4way(sta, a);
	g_assert_cmpuint(sta->installed->len, ==, 3);
	for (guint round = 0; round < 3; round++) {
		g_autoptr(GBytes) g1 = NULL, again = NULL;
		guint n = sta->installed->len;

		test_auth_rekey_group(a);
		g1 = test_auth_group_msg1(a);
		sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
		g_assert_cmpuint(sta->installed->len, ==, n + 2);
		assert_installed(installed(sta, n), WIFI_KEY_KIND_GROUP, a->gtk_id,
		                 WIFI_CIPHER_SUITE_CCMP, a->gtk, 16);
		assert_installed(installed(sta, n + 1), WIFI_KEY_KIND_GROUP_MGMT, a->igtk_id,
		                 WIFI_CIPHER_SUITE_BIP_CMAC, a->igtk, 16);
		again = test_auth_group_msg1(a);
		sta_rx(sta, again, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
		g_assert_cmpuint(sta->installed->len, ==, n + 2);
		g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==,
		                WIFI_HANDSHAKE_STATE_COMPLETE);
	}
	g_assert_nonnull(strstr(sta->states->str, "complete>complete;"));
}

/* A PTK rekey: message 1 in complete starts a new exchange with a new
 * SNonce; a group rekey in the middle is verified with the old PTK; the
 * new PTK is installed at message 3. */
static void
test_ptk_rekey(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = NULL, g1 = NULL, m3 = NULL;
	WifiPtk old_ptk;
	guint8 old_snonce[32];

	run_4way(sta, a);
	old_ptk = a->ptk;
	memcpy(old_snonce, a->snonce, 32);
	m1 = test_auth_msg1(a);
	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_WAIT_MSG3);
	auth_accepts(test_auth_rx_msg2, a, last_sent(sta));
	g_assert_true(memcmp(old_snonce, a->snonce, 32) != 0);
	/* Until message 4 the AP still uses the old PTK for group messages. */
	{
		WifiPtk new_ptk = a->ptk;

		a->ptk = old_ptk;
		test_auth_rekey_group(a);
		g1 = test_auth_group_msg1(a);
		sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
		auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
		a->ptk = new_ptk;
	}
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg4, a, last_sent(sta));
	/* Messages 2 and 4 of the first handshake before any TK; the group
	 * message 2 and the rekey's messages with one. */
	g_assert_cmpstr(sta->ptk_when_sent->str, ==, "nnyyy");
	/* Keys: TK, GTK; GTK 2 (group rekey); the new TK. The GTK of message
	 * 3 is the one installed already. */
	g_assert_cmpuint(sta->installed->len, ==, 4);
	assert_installed(installed(sta, 3), WIFI_KEY_KIND_PAIRWISE, 0, WIFI_CIPHER_SUITE_CCMP,
	                 a->ptk.tk, 16);
	g_assert_true(memcmp(a->ptk.tk, old_ptk.tk, 16) != 0);
}

static void
test_unexpected_frames(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, 0, test_psk, RSNE_PSK);
	g_autoptr(Sta) sta = sta_new(a, RSNE_PSK, NULL);
	g_autoptr(GBytes) m1 = NULL, m3 = NULL, g1 = NULL, v3 = NULL, junk = NULL;
	guint8 *raw;
	gsize len;

	/* Message 3 and group message 1 before message 1 (the authenticator
	 * model signs with an all-zero PTK here). */
	a->have_ptk = TRUE;
	a->ptk.kck_len = 16;
	a->ptk.kek_len = 16;
	m3 = test_auth_msg3(a);
	sta_rx(sta, m3, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	g1 = test_auth_group_msg1(a);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	/* Descriptor version 3 under AKM 2. */
	m1 = test_auth_msg1(a);
	len = g_bytes_get_size(m1);
	raw = g_memdup2(g_bytes_get_data(m1, NULL), len);
	raw[6] = (guint8)((raw[6] & ~0x07) | 3);
	v3 = g_bytes_new_take(raw, len);
	sta_rx(sta, v3, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	/* A frame without Key Ack (e.g. a supplicant's own message looped
	 * back), and one that does not parse. */
	sta_rx(sta, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	sta_rx(sta, last_sent(sta), WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	junk = hs_test_hex("01 00 0004 01020304");
	sta_rx(sta, junk, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_MALFORMED);
	g_assert_cmpuint(sta->sent->len, ==, 1);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_WAIT_MSG3);
}

static void
check_config_refused(WifiHandshakeConfig *c, gint code)
{
	const WifiHandshakeCallbacks cb = {sta_send, sta_install, NULL};
	g_autoptr(GError) error = NULL;

	g_assert_null(wifi_handshake_new(c, &cb, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, code);
}

static void
test_config_invalid(void)
{
	const guint8 rsne[] = {0x30, 0x02, 0x01, 0x00};
	const guint8 bad_rsne[] = {0x30, 0x03, 0x01, 0x00};
	WifiHandshakeConfig good = {
	        .akm = WIFI_AKM_SUITE_PSK,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .pmk = test_psk,
	        .pmk_len = 32,
	        .own_rsne = rsne,
	        .own_rsne_len = sizeof(rsne),
	        .ap_rsne = rsne,
	        .ap_rsne_len = sizeof(rsne),
	};
	WifiHandshakeConfig c;
	const WifiHandshakeCallbacks cb = {sta_send, sta_install, NULL};
	g_autoptr(GError) error = NULL;
	WifiHandshake *hs = wifi_handshake_new(&good, &cb, NULL, &error);

	g_assert_no_error(error);
	wifi_handshake_free(hs);
	c = good;
	c.akm = 7; /* TDLS (FT: test-ft-handshake) */
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	c = good;
	c.pairwise_cipher = WIFI_CIPHER_SUITE_TKIP;
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	c = good;
	c.group_mgmt_cipher = WIFI_CIPHER_SUITE_CCMP;
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	c = good;
	c.pmk_len = 16;
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	c = good;
	c.own_rsne = NULL;
	c.own_rsne_len = 0;
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	c = good;
	c.ap_rsne = bad_rsne;
	c.ap_rsne_len = sizeof(bad_rsne);
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	c = good;
	c.ap_rsnxe = rsne; /* not an RSNXE */
	c.ap_rsnxe_len = sizeof(rsne);
	check_config_refused(&c, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
}

/* Every log line of the library, captured while the tests below run. */
static GString *captured_log;

static GLogWriterOutput
capture_writer(GLogLevelFlags level, const GLogField *fields, gsize n_fields, gpointer data)
{
	if (captured_log != NULL) {
		for (gsize i = 0; i < n_fields; i++) {
			if (g_strcmp0(fields[i].key, "MESSAGE") == 0 && fields[i].length < 0) {
				g_string_append(captured_log, fields[i].value);
				g_string_append_c(captured_log, '\n');
			}
		}
		if (!(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)))
			return G_LOG_WRITER_HANDLED;
	}
	return g_log_writer_default(level, fields, n_fields, data);
}

static void
assert_not_logged(const guint8 *secret, gsize len)
{
	g_autofree gchar *lower = g_malloc0(2 * len + 1);
	g_autofree gchar *upper = NULL;

	for (gsize i = 0; i < len; i++)
		g_snprintf(lower + 2 * i, 3, "%02x", secret[i]);
	upper = g_ascii_strup(lower, -1);
	g_assert_null(strstr(captured_log->str, lower));
	g_assert_null(strstr(captured_log->str, upper));
	g_assert_null(memmem(captured_log->str, captured_log->len, secret, len));
	/* Not even a recognisable piece (8 octets) of it. */
	lower[16] = '\0';
	g_assert_null(strstr(captured_log->str, lower));
}

static void
test_no_secrets_in_log(void)
{
	g_autoptr(TestAuth) a = test_auth_new(WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP,
	                                      WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_BIP_CMAC,
	                                      test_psk, RSNE_PSK_SHA256);
	g_autoptr(Sta) sta = NULL;
	g_autoptr(GBytes) g1 = NULL;

	captured_log = g_string_new(NULL);
	sta = sta_new(a, RSNE_PSK_SHA256, NULL);
	run_4way(sta, a);
	test_auth_rekey_group(a);
	g1 = test_auth_group_msg1(a);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	wifi_handshake_abort(sta->hs, WIFI_HANDSHAKE_ABORT_DEAUTHENTICATED, 3, NULL);
	/* The log tells the story ... */
	g_assert_nonnull(
	        strstr(captured_log->str, "wait-msg1 -> wait-msg3 (message 1, replay counter"));
	g_assert_nonnull(strstr(captured_log->str, "wait-msg3 -> complete (message 3 verified"));
	g_assert_nonnull(strstr(captured_log->str, "complete -> complete (group key handshake"));
	g_assert_nonnull(strstr(captured_log->str, "complete -> failed"));
	/* ... without a secret. */
	assert_not_logged(test_psk, 32);
	assert_not_logged(a->ptk.kck, 16);
	assert_not_logged(a->ptk.kek, 16);
	assert_not_logged(a->ptk.tk, 16);
	assert_not_logged(a->gtk, 16);
	assert_not_logged(a->igtk, 16);
	g_string_free(captured_log, TRUE);
	captured_log = NULL;
}

/* Every state has a name in the log. */
static void
test_state_names(void)
{
	TEST_ASSERT_NAMES(wifi_handshake_state_to_string, WIFI_HANDSHAKE_STATE_LAST, "unknown");
	g_assert_cmpstr(wifi_handshake_state_to_string(WIFI_HANDSHAKE_STATE_LAST + 1), ==,
	                "unknown");
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;

	g_log_set_writer_func(capture_writer, NULL, NULL);
	g_test_init(&argc, &argv, NULL);
	g_assert_true(wifi_psk_from_passphrase("ThisIsAPassword", (const guint8 *)"ThisIsASSID", 11,
	                                       test_psk, &error));
	g_test_add_func("/wifi-handshake/4way/psk-ccmp", test_psk_ccmp);
	g_test_add_func("/wifi-handshake/4way/psk-sha256-mfp", test_psk_sha256_mfp);
	g_test_add_func("/wifi-handshake/4way/sae-gcmp256", test_sae_gcmp256);
	g_test_add_func("/wifi-handshake/4way/owe", test_owe);
	g_test_add_func("/wifi-handshake/4way/retransmitted-msg1", test_retransmitted_msg1);
	g_test_add_func("/wifi-handshake/4way/msg1-new-anonce", test_msg1_new_anonce);
	g_test_add_func("/wifi-handshake/4way/retransmitted-msg3", test_retransmitted_msg3);
	g_test_add_func("/wifi-handshake/4way/replays", test_replays);
	g_test_add_func("/wifi-handshake/4way/bad-mic-msg3", test_bad_mic_msg3);
	g_test_add_func("/wifi-handshake/4way/wrong-passphrase-msg1-resent",
	                test_wrong_passphrase_msg1_resent);
	g_test_add_func("/wifi-handshake/4way/wrong-passphrase-msg3-mic",
	                test_wrong_passphrase_msg3_mic);
	g_test_add_func("/wifi-handshake/4way/abort", test_abort_other_states);
	g_test_add_func("/wifi-handshake/4way/abort-after-msg2-reasons",
	                test_abort_after_msg2_reasons);
	g_test_add_func("/wifi-handshake/4way/rsne-mismatch", test_rsne_mismatch);
	g_test_add_func("/wifi-handshake/4way/msg3-faults", test_msg3_faults);
	g_test_add_func("/wifi-handshake/group/rekey", test_group_rekey);
	g_test_add_func("/wifi-handshake/4way/ptk-rekey", test_ptk_rekey);
	g_test_add_func("/wifi-handshake/4way/unexpected-frames", test_unexpected_frames);
	g_test_add_func("/wifi-handshake/config/invalid", test_config_invalid);
	g_test_add_func("/wifi-handshake/log/no-secrets", test_no_secrets_in_log);
	g_test_add_func("/wifi-handshake/state-names", test_state_names);
	return g_test_run();
}
