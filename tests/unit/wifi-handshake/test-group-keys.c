/* test-group-keys.c - management frame protection's group keys and the
 * group key handshake: the IGTK KDE (well-formed and malformed), IGTKs of
 * message 3 and group message 1 with their IPN, replayed and forged group
 * messages, and reinstall protection (a key already installed under its key
 * ID is never installed again, GTK or IGTK). */
#include <string.h>

#include "eapol-key.h"
#include "hs-test-util.h"
#include "rsn-handshake.h"
#include "rsn-kde.h"
#include "test-authenticator.h"
#include "test-station.h"

#define RSNE_PSK_SHA256 "30 14 0100 000fac04 0100 000fac04 0100 000fac06 c000"
/* The same with BIP-CMAC-256 as group management cipher. */
#define RSNE_PSK_SHA256_CMAC256 "30 1a 0100 000fac04 0100 000fac04 0100 000fac06 c000 0000 000fac0d"

static guint8 test_psk[32];

static void
test_igtk_kde_parse(void)
{
	/* BIP-CMAC-128: key ID 5, IPN 0x060504030201, a 16 octet IGTK. */
	g_autoptr(GBytes) cmac128 = hs_test_hex("dd 1c 000fac09 0500 010203040506"
	                                        "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf dd 00");
	/* BIP-CMAC-256 / BIP-GMAC-256: a 32 octet IGTK, key ID 4. */
	g_autoptr(GBytes) igtk256 = hs_test_hex("dd 2c 000fac09 0400 ffeeddccbbaa"
	                                        "000102030405060708090a0b0c0d0e0f"
	                                        "101112131415161718191a1b1c1d1e1f");
	g_autoptr(GError) error = NULL;
	WifiKeyData kd;

	g_assert_true(wifi_key_data_parse(g_bytes_get_data(cmac128, NULL),
	                                  g_bytes_get_size(cmac128), &kd, &error));
	g_assert_no_error(error);
	g_assert_false(kd.has_gtk);
	g_assert_true(kd.has_igtk);
	g_assert_cmpuint(kd.igtk_key_id, ==, 5);
	hs_assert_hex(kd.igtk_ipn, WIFI_IPN_LEN, "010203040506");
	hs_assert_hex(kd.igtk, kd.igtk_len, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");

	g_assert_true(wifi_key_data_parse(g_bytes_get_data(igtk256, NULL),
	                                  g_bytes_get_size(igtk256), &kd, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(kd.igtk_key_id, ==, 4);
	hs_assert_hex(kd.igtk_ipn, WIFI_IPN_LEN, "ffeeddccbbaa");
	g_assert_cmpuint(kd.igtk_len, ==, 32);
}

static void
test_igtk_kde_malformed(void)
{
	hs_check_key_data_malformed("dd 04 000fac09", "IGTK KDE of 0 octets");
	hs_check_key_data_malformed("dd 0b 000fac09 0400 01020304050607", "IGTK KDE of 7 octets");
	/* 15 and 17 octet keys: neither BIP size. */
	hs_check_key_data_malformed(
	        "dd 1b 000fac09 0400 010203040506 000102030405060708090a0b0c0d0e",
	        "IGTK KDE of 23 octets");
	hs_check_key_data_malformed(
	        "dd 1d 000fac09 0400 010203040506 000102030405060708090a0b0c0d0e0f10",
	        "IGTK KDE of 25 octets");
	/* The length runs past the end of the key data. */
	hs_check_key_data_malformed("dd 1c 000fac09 0400 010203040506 000102030405060708090a0b0c0d",
	                            "runs past");
	hs_check_key_data_malformed(
	        "dd 1c 000fac09 0400 010203040506 000102030405060708090a0b0c0d0e0f"
	        "dd 1c 000fac09 0500 010203040506 000102030405060708090a0b0c0d0e0f",
	        "more than one IGTK KDE");
}

/* A connected supplicant with MFP (PSK-SHA256, BIP-CMAC-128): TK, GTK and
 * IGTK installed by message 3. */
static Sta *
connected_mfp(TestAuth *a)
{
	Sta *sta = sta_new(a, RSNE_PSK_SHA256, NULL);

	run_4way(sta, a);
	g_assert_cmpuint(sta->installed->len, ==, 3);
	assert_installed(installed(sta, 2), WIFI_KEY_KIND_GROUP_MGMT, 4, WIFI_CIPHER_SUITE_BIP_CMAC,
	                 a->igtk, 16);
	return sta;
}

static TestAuth *
auth_mfp(void)
{
	return test_auth_new(WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP,
	                     WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_BIP_CMAC, test_psk,
	                     RSNE_PSK_SHA256);
}

/* Group message 1 installs the new GTK and IGTK with the IGTK's IPN as
 * its receive sequence counter. */
static void
test_group_msg1_igtk_ipn(void)
{
	g_autoptr(TestAuth) a = auth_mfp();
	g_autoptr(Sta) sta = connected_mfp(a);
	g_autoptr(GBytes) g1 = NULL;

	test_auth_rekey_group(a);
	memcpy(a->ipn, "\x11\x22\x33\x44\x55\x66", WIFI_IPN_LEN);
	g1 = test_auth_group_msg1(a);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
	g_assert_cmpuint(sta->installed->len, ==, 5);
	assert_installed(installed(sta, 3), WIFI_KEY_KIND_GROUP, 2, WIFI_CIPHER_SUITE_CCMP, a->gtk,
	                 16);
	assert_installed(installed(sta, 4), WIFI_KEY_KIND_GROUP_MGMT, 5, WIFI_CIPHER_SUITE_BIP_CMAC,
	                 a->igtk, 16);
	hs_assert_hex(g_bytes_get_data(installed(sta, 4)->seq, NULL),
	              g_bytes_get_size(installed(sta, 4)->seq), "112233445566");
}

/* Replayed group messages (the same frame again, or an older one) and a
 * forged one (bad MIC) are dropped without an answer or a key; the
 * counter of a frame that failed its MIC is not taken. */
static void
test_group_replays(void)
{
	g_autoptr(TestAuth) a = auth_mfp();
	g_autoptr(Sta) sta = connected_mfp(a);
	g_autoptr(GBytes) g1 = NULL, g2 = NULL, g3 = NULL, forged = NULL;
	guint8 *raw;
	gsize len;

	test_auth_rekey_group(a);
	g1 = test_auth_group_msg1(a);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->sent->len, ==, 3);
	g_assert_cmpuint(sta->installed->len, ==, 5);
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_REPLAY);

	test_auth_rekey_group(a);
	g2 = test_auth_group_msg1(a);
	sta_rx(sta, g2, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->installed->len, ==, 7);
	/* The older frame, then this one again. */
	sta_rx(sta, g1, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_REPLAY);
	sta_rx(sta, g2, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_REPLAY);
	g_assert_cmpuint(sta->sent->len, ==, 4);
	g_assert_cmpuint(sta->installed->len, ==, 7);

	/* A forged frame with the next counter: dropped; the genuine frame
	 * with that counter still verifies. */
	test_auth_rekey_group(a);
	g3 = test_auth_group_msg1(a);
	len = g_bytes_get_size(g3);
	raw = g_memdup2(g_bytes_get_data(g3, NULL), len);
	raw[WIFI_EAPOL_KEY_MIC_OFFSET] ^= 0x80;
	forged = g_bytes_new_take(raw, len);
	sta_rx(sta, forged, WIFI_HANDSHAKE_RX_DROPPED, WIFI_HANDSHAKE_ERROR_MIC);
	g_assert_cmpuint(sta->installed->len, ==, 7);
	sta_rx(sta, g3, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
	g_assert_cmpuint(sta->installed->len, ==, 9);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
}

/* Reinstall protection: a key already installed under its key ID is not
 * installed again, whatever the message (a retransmitted group message 1
 * with a new replay counter, keys going back to the ones of the other key
 * ID, one key changing without the other). */
static void
test_group_reinstall(void)
{
	g_autoptr(TestAuth) a = auth_mfp();
	g_autoptr(Sta) sta = connected_mfp(a);
	g_autoptr(GBytes) again = NULL, igtk_only = NULL, gtk_only = NULL, back = NULL;
	guint8 old_gtk[32], old_igtk[32], old_ipn[6];
	guint old_gtk_id = a->gtk_id, old_igtk_id = a->igtk_id;

	/* The keys of message 3 again, as a group message: nothing new. */
	again = test_auth_group_msg1(a);
	sta_rx(sta, again, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
	g_assert_cmpuint(sta->installed->len, ==, 3);

	memcpy(old_gtk, a->gtk, sizeof(old_gtk));
	memcpy(old_igtk, a->igtk, sizeof(old_igtk));
	memcpy(old_ipn, a->ipn, sizeof(old_ipn));
	test_auth_rekey_group(a);
	/* Only the IGTK changes: only it is installed. */
	memcpy(a->gtk, old_gtk, sizeof(old_gtk));
	a->gtk_id = old_gtk_id;
	igtk_only = test_auth_group_msg1(a);
	sta_rx(sta, igtk_only, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->installed->len, ==, 4);
	assert_installed(installed(sta, 3), WIFI_KEY_KIND_GROUP_MGMT, 5, WIFI_CIPHER_SUITE_BIP_CMAC,
	                 a->igtk, 16);
	/* Only the GTK changes. */
	a->gtk_id = 2;
	a->gtk[0] ^= 0xff;
	gtk_only = test_auth_group_msg1(a);
	sta_rx(sta, gtk_only, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->installed->len, ==, 5);
	assert_installed(installed(sta, 4), WIFI_KEY_KIND_GROUP, 2, WIFI_CIPHER_SUITE_CCMP, a->gtk,
	                 16);
	/* Back to the first GTK and IGTK under their old key IDs, which still
	 * hold them: installing them again would reset their replay counters. */
	memcpy(a->gtk, old_gtk, sizeof(old_gtk));
	a->gtk_id = old_gtk_id;
	memcpy(a->igtk, old_igtk, sizeof(old_igtk));
	a->igtk_id = old_igtk_id;
	memcpy(a->ipn, old_ipn, sizeof(old_ipn));
	back = test_auth_group_msg1(a);
	sta_rx(sta, back, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_group_msg2, a, last_sent(sta));
	g_assert_cmpuint(sta->installed->len, ==, 5);
	g_assert_cmpint(wifi_handshake_get_state(sta->hs), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
}

/* A group message may leave the IGTK out (only the GTK changes); an IGTK
 * with a key ID other than 4 or 5, or of the wrong size for the cipher,
 * ends the association. */
static void
test_group_igtk_faults(void)
{
	g_autoptr(TestAuth) a = auth_mfp();
	g_autoptr(Sta) sta = connected_mfp(a);
	g_autoptr(TestAuth) a2 = auth_mfp();
	g_autoptr(Sta) sta2 = connected_mfp(a2);
	g_autoptr(GBytes) no_igtk = NULL, bad_id = NULL;
	g_autoptr(TestAuth) a3 = test_auth_new(
	        WIFI_AKM_SUITE_PSK_SHA256, WIFI_CIPHER_SUITE_CCMP, WIFI_CIPHER_SUITE_CCMP,
	        WIFI_CIPHER_SUITE_BIP_CMAC_256, test_psk, RSNE_PSK_SHA256_CMAC256);
	g_autoptr(Sta) sta3 = NULL;
	g_autoptr(GBytes) m1 = NULL, m3 = NULL;

	test_auth_rekey_group(a);
	a->omit_igtk = TRUE;
	no_igtk = test_auth_group_msg1(a);
	sta_rx(sta, no_igtk, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	g_assert_cmpuint(sta->installed->len, ==, 4);
	g_assert_cmpint(installed(sta, 3)->kind, ==, WIFI_KEY_KIND_GROUP);

	test_auth_rekey_group(a2);
	a2->igtk_id = 6;
	bad_id = test_auth_group_msg1(a2);
	sta_rx(sta2, bad_id, WIFI_HANDSHAKE_RX_FAILED, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	g_assert_cmpuint(sta2->installed->len, ==, 3);
	g_assert_cmpint(wifi_handshake_get_state(sta2->hs), ==, WIFI_HANDSHAKE_STATE_FAILED);

	/* BIP-CMAC-256 negotiated (32 octet IGTKs), but message 3 carries a
	 * 16 octet one. */
	sta3 = sta_new(a3, RSNE_PSK_SHA256_CMAC256, NULL);
	a3->group_mgmt = WIFI_CIPHER_SUITE_BIP_CMAC;
	m1 = test_auth_msg1(a3);
	sta_rx(sta3, m1, WIFI_HANDSHAKE_RX_ACCEPTED, 0);
	auth_accepts(test_auth_rx_msg2, a3, last_sent(sta3));
	m3 = test_auth_msg3(a3);
	sta_rx(sta3, m3, WIFI_HANDSHAKE_RX_FAILED, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	g_assert_cmpuint(sta3->installed->len, ==, 0);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;

	g_test_init(&argc, &argv, NULL);
	g_assert_true(wifi_psk_from_passphrase("ThisIsAPassword", (const guint8 *)"ThisIsASSID", 11,
	                                       test_psk, &error));
	g_test_add_func("/wifi-handshake/igtk-kde/parse", test_igtk_kde_parse);
	g_test_add_func("/wifi-handshake/igtk-kde/malformed", test_igtk_kde_malformed);
	g_test_add_func("/wifi-handshake/group/igtk-ipn", test_group_msg1_igtk_ipn);
	g_test_add_func("/wifi-handshake/group/replays", test_group_replays);
	g_test_add_func("/wifi-handshake/group/reinstall-protection", test_group_reinstall);
	g_test_add_func("/wifi-handshake/group/igtk-faults", test_group_igtk_faults);
	return g_test_run();
}
