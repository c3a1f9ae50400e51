/* test-eapol-key.c - EAPOL-Key frames, their MIC and Key Data, KDEs and RSN
 * elements: round trips, frames laid out by hand from IEEE 802.11-2020
 * figure 12-32, a MIC recomputed with GLib's HMAC, and malformed input. */
#include <string.h>

#include "eapol-key.h"
#include "hs-test-util.h"
#include "rsn-crypto.h"
#include "rsn-kde.h"
#include "rsn-suites.h"

/* Message 1 of a WPA2-PSK/CCMP handshake, written out field by field. */
static const gchar msg1_hex[] = "02 03 005f"                       /* 802.1X v2, Key, 95 */
                                "02"                               /* RSN descriptor */
                                "008a"                             /* ACK|pairwise|v2 */
                                "0010"                             /* key length 16 */
                                "0000000000000007"                 /* replay counter */
                                "000102030405060708090a0b0c0d0e0f" /* ANonce ... */
                                "101112131415161718191a1b1c1d1e1f" /* ... */
                                "00000000000000000000000000000000" /* IV */
                                "0000000000000000"                 /* RSC */
                                "0000000000000000"                 /* reserved */
                                "00000000000000000000000000000000" /* MIC */
                                "0000";                            /* no key data */

static void
test_parse_by_hand(void)
{
	g_autoptr(GBytes) frame = hs_test_hex(msg1_hex);
	g_autoptr(GError) error = NULL;
	WifiEapolKey key;

	g_assert_true(wifi_eapol_key_parse(g_bytes_get_data(frame, NULL), g_bytes_get_size(frame),
	                                   16, &key, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(key.protocol_version, ==, 2);
	g_assert_cmpuint(key.descriptor_type, ==, WIFI_EAPOL_KEY_DESC_RSN);
	g_assert_cmpuint(key.key_info, ==,
	                 WIFI_KEY_INFO_ACK | WIFI_KEY_INFO_PAIRWISE |
	                         WIFI_KEY_DESC_VERSION_SHA1_AES);
	g_assert_cmpuint(wifi_eapol_key_version(&key), ==, 2);
	g_assert_cmpuint(key.key_length, ==, 16);
	g_assert_cmpuint(key.replay_counter, ==, 7);
	g_assert_cmpuint(key.nonce[0], ==, 0x00);
	g_assert_cmpuint(key.nonce[31], ==, 0x1f);
	g_assert_cmpuint(key.mic_len, ==, 16);
	g_assert_true(key.mic == (const guint8 *)g_bytes_get_data(frame, NULL) + 81);
	g_assert_cmpuint(key.key_data_len, ==, 0);
	g_assert_null(key.key_data);
	g_assert_cmpuint(key.frame_len, ==, 99);
}

static void
test_build_parse_round_trip(void)
{
	const guint8 key_data[] = {0x30, 0x02, 0x01, 0x00, 0xdd, 0x00};
	guint8 mic[16];
	WifiEapolKey in = {0}, out;
	g_autofree guint8 *frame = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	memset(mic, 0x77, sizeof(mic));
	in.protocol_version = 1;
	in.descriptor_type = WIFI_EAPOL_KEY_DESC_RSN;
	in.key_info = WIFI_KEY_INFO_PAIRWISE | WIFI_KEY_INFO_MIC | WIFI_KEY_INFO_SECURE |
	              WIFI_KEY_INFO_ENCRYPTED | WIFI_KEY_INFO_INSTALL | WIFI_KEY_INFO_ACK | 3;
	in.key_length = 32;
	in.replay_counter = G_GUINT64_CONSTANT(0x0102030405060708);
	for (guint i = 0; i < 32; i++)
		in.nonce[i] = (guint8)(0xa0 + i);
	memset(in.iv, 0x11, sizeof(in.iv));
	memset(in.rsc, 0x22, sizeof(in.rsc));
	in.mic = mic;
	in.mic_len = sizeof(mic);
	in.key_data = key_data;
	in.key_data_len = sizeof(key_data);
	frame = wifi_eapol_key_build(&in, &len);
	g_assert_cmpuint(len, ==, 99 + sizeof(key_data));
	/* The replay counter is big-endian on the wire. */
	g_assert_cmpuint(frame[9], ==, 0x01);
	g_assert_cmpuint(frame[16], ==, 0x08);
	g_assert_true(wifi_eapol_key_parse(frame, len, 16, &out, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(out.protocol_version, ==, in.protocol_version);
	g_assert_cmpuint(out.key_info, ==, in.key_info);
	g_assert_cmpuint(out.key_length, ==, in.key_length);
	g_assert_cmpuint(out.replay_counter, ==, in.replay_counter);
	g_assert_cmpmem(out.nonce, 32, in.nonce, 32);
	g_assert_cmpmem(out.iv, 16, in.iv, 16);
	g_assert_cmpmem(out.rsc, 8, in.rsc, 8);
	g_assert_cmpmem(out.mic, out.mic_len, mic, sizeof(mic));
	g_assert_cmpmem(out.key_data, out.key_data_len, key_data, sizeof(key_data));
	g_assert_cmpuint(out.frame_len, ==, len);
}

/* The MIC covers the whole frame with a zeroed MIC field: recompute the
 * HMAC-SHA1-128 with GLib's HMAC and compare; then CMAC for AKM 6. */
static void
test_mic(void)
{
	g_autoptr(GBytes) hex = hs_test_hex(msg1_hex);
	g_autofree guint8 *frame = g_memdup2(g_bytes_get_data(hex, NULL), g_bytes_get_size(hex));
	gsize len = g_bytes_get_size(hex);
	g_autoptr(GError) error = NULL;
	g_autoptr(GHmac) hmac = NULL;
	guint8 kck[16], digest[20];
	gsize digest_len = sizeof(digest);
	WifiEapolKey key;

	memset(kck, 0x3c, sizeof(kck));
	frame[5] |= 0x01; /* the MIC bit (0x0100 of the big-endian key info) */
	hmac = g_hmac_new(G_CHECKSUM_SHA1, kck, sizeof(kck));
	g_hmac_update(hmac, frame, len);
	g_hmac_get_digest(hmac, digest, &digest_len);
	g_assert_true(wifi_eapol_key_sign(WIFI_AKM_SUITE_PSK, kck, 16, frame, len, 16, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(frame + WIFI_EAPOL_KEY_MIC_OFFSET, 16, digest, 16);
	g_assert_true(wifi_eapol_key_parse(frame, len, 16, &key, &error));
	g_assert_true(wifi_eapol_key_verify_mic(WIFI_AKM_SUITE_PSK, kck, 16, frame, &key, &error));
	g_assert_no_error(error);
	/* Any changed octet, the MIC's own included, fails the check. */
	for (gsize i = 0; i < len; i += 7) {
		frame[i] ^= 0x40;
		if (wifi_eapol_key_parse(frame, len, 16, &key, NULL)) {
			g_assert_false(wifi_eapol_key_verify_mic(WIFI_AKM_SUITE_PSK, kck, 16, frame,
			                                         &key, &error));
			g_assert_nonnull(error);
			g_clear_error(&error);
		}
		frame[i] ^= 0x40;
	}
	/* AKM 6 uses AES-128-CMAC: a different MIC that still verifies. */
	g_assert_true(
	        wifi_eapol_key_sign(WIFI_AKM_SUITE_PSK_SHA256, kck, 16, frame, len, 16, &error));
	g_assert_true(memcmp(frame + WIFI_EAPOL_KEY_MIC_OFFSET, digest, 16) != 0);
	g_assert_true(wifi_eapol_key_parse(frame, len, 16, &key, &error));
	g_assert_true(
	        wifi_eapol_key_verify_mic(WIFI_AKM_SUITE_PSK_SHA256, kck, 16, frame, &key, &error));
	g_assert_false(wifi_eapol_key_verify_mic(WIFI_AKM_SUITE_PSK, kck, 16, frame, &key, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC);
}

static void
check_malformed(const guint8 *data, gsize len, gint code)
{
	g_autoptr(GError) error = NULL;
	WifiEapolKey key;

	g_assert_false(wifi_eapol_key_parse(data, len, 16, &key, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, code);
}

static void
test_malformed_frames(void)
{
	g_autoptr(GBytes) hex = hs_test_hex(msg1_hex);
	gsize len = g_bytes_get_size(hex);
	g_autofree guint8 *f = g_malloc0(len + 8);
	WifiEapolKey key;

	memcpy(f, g_bytes_get_data(hex, NULL), len);
	/* Every truncation of a good frame fails cleanly. */
	for (gsize n = 0; n < len; n++)
		check_malformed(f, n, WIFI_HANDSHAKE_ERROR_MALFORMED);
	/* Link-layer padding after the 802.1X body is ignored. */
	g_assert_true(wifi_eapol_key_parse(f, len + 8, 16, &key, NULL));
	g_assert_cmpuint(key.frame_len, ==, len);

	f[0] = 0; /* protocol version */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[0] = 4;
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[0] = 2;
	f[1] = 0; /* EAP packet, not EAPOL-Key */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[1] = 3;
	f[3] = 0x60; /* body length one past the buffer */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[3] = 0x5e; /* body one short of a descriptor */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[3] = 0x5f;
	f[4] = 1; /* unknown descriptor type */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[4] = 254; /* WPA1 */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	f[4] = 2;
	for (guint v = 4; v < 8; v++) { /* unknown descriptor versions */
		f[6] = (guint8)(0x88 | v);
		check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	}
	f[6] = 0x8a;
	f[98] = 1; /* key data length 1, no octet left */
	check_malformed(f, len, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[97] = 0xff;
	f[98] = 0xff;
	check_malformed(f, len + 8, WIFI_HANDSHAKE_ERROR_MALFORMED);
	f[97] = 0;
	f[98] = 0;
	g_assert_true(wifi_eapol_key_parse(f, len, 16, &key, NULL));
}

static void
test_key_data_encryption(void)
{
	guint8 kek[16], plain[48];

	memset(kek, 0x5e, sizeof(kek));
	for (guint i = 0; i < sizeof(plain); i++)
		plain[i] = (guint8)(i + 1);
	for (gsize len = 0; len <= 40; len++) {
		g_autoptr(GError) error = NULL;
		g_autofree guint8 *enc = NULL, *dec = NULL;
		gsize enc_len = 0, dec_len = 0;
		gsize padded = MAX((len + 7) / 8 * 8, (gsize)16);

		enc = wifi_eapol_key_data_encrypt(kek, 16, plain, len, &enc_len, &error);
		g_assert_no_error(error);
		g_assert_cmpuint(enc_len, ==, padded + 8);
		dec = wifi_eapol_key_data_decrypt(kek, 16, enc, enc_len, &dec_len, &error);
		g_assert_no_error(error);
		g_assert_cmpuint(dec_len, ==, padded);
		g_assert_cmpmem(dec, len, plain, len);
		/* Padding: 0xdd then zeros (12.7.2 j). */
		if (padded > len) {
			g_assert_cmpuint(dec[len], ==, 0xdd);
			for (gsize i = len + 1; i < padded; i++)
				g_assert_cmpuint(dec[i], ==, 0);
		}
	}
}

static void
test_key_data_decrypt_failures(void)
{
	guint8 kek[16], other[16], buf[40];
	g_autoptr(GError) error = NULL;
	g_autofree guint8 *enc = NULL;
	gsize enc_len = 0, out_len = 0;

	memset(kek, 1, sizeof(kek));
	memset(other, 2, sizeof(other));
	memset(buf, 0, sizeof(buf));
	g_assert_null(wifi_eapol_key_data_decrypt(kek, 16, buf, 16, &out_len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	g_clear_error(&error);
	g_assert_null(wifi_eapol_key_data_decrypt(kek, 16, buf, 25, &out_len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA);
	g_clear_error(&error);
	enc = wifi_eapol_key_data_encrypt(kek, 16, buf, 22, &enc_len, &error);
	g_assert_nonnull(enc);
	g_assert_null(wifi_eapol_key_data_decrypt(other, 16, enc, enc_len, &out_len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA);
}

/* A PSK/CCMP RSNE with MFP capable and BIP-CMAC, as hostapd writes it. */
static const gchar rsne_hex[] = "30 14 0100 000fac04 0100 000fac04 0100 000fac02 8000";

static void
test_key_data_parse(void)
{
	g_autoptr(GBytes) rsne = hs_test_hex(rsne_hex);
	const guint8 rsnxe[] = {WIFI_ELEMENT_RSNX, 1, 0x20};
	const guint8 wpa_vendor[] = {0xdd, 0x06, 0x00, 0x50, 0xf2, 0x01, 0x01, 0x00};
	const guint8 other_kde[] = {0xdd, 0x05, 0x00, 0x0f, 0xac, 0x0a, 0x01};
	const guint8 unknown_elem[] = {0x36, 0x03, 0x01, 0x02, 0x03};
	guint8 gtk[16], igtk[16], ipn[6] = {1, 2, 3, 4, 5, 6}, pmkid[16];
	GByteArray *kd_buf = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	WifiKeyData kd;

	memset(gtk, 0x61, sizeof(gtk));
	memset(igtk, 0x62, sizeof(igtk));
	memset(pmkid, 0x63, sizeof(pmkid));
	g_byte_array_append(kd_buf, g_bytes_get_data(rsne, NULL), g_bytes_get_size(rsne));
	g_byte_array_append(kd_buf, rsnxe, sizeof(rsnxe));
	g_byte_array_append(kd_buf, wpa_vendor, sizeof(wpa_vendor));
	g_byte_array_append(kd_buf, other_kde, sizeof(other_kde));
	g_byte_array_append(kd_buf, unknown_elem, sizeof(unknown_elem));
	wifi_kde_append_gtk(kd_buf, 2, TRUE, gtk, sizeof(gtk));
	wifi_kde_append_igtk(kd_buf, 4, ipn, igtk, sizeof(igtk));
	wifi_kde_append_pmkid(kd_buf, pmkid);
	wifi_kde_append_transition_disable(kd_buf, WIFI_TRANSITION_DISABLE_WPA3_PERSONAL);
	g_byte_array_append(kd_buf, (const guint8 *)"\xdd\0\0\0", 4); /* padding */
	g_assert_true(wifi_key_data_parse(kd_buf->data, kd_buf->len, &kd, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(kd.rsne, kd.rsne_len, g_bytes_get_data(rsne, NULL), g_bytes_get_size(rsne));
	g_assert_null(kd.rsne2);
	g_assert_cmpmem(kd.rsnxe, kd.rsnxe_len, rsnxe, sizeof(rsnxe));
	g_assert_true(kd.has_gtk);
	g_assert_cmpuint(kd.gtk_key_id, ==, 2);
	g_assert_true(kd.gtk_tx);
	g_assert_cmpmem(kd.gtk, kd.gtk_len, gtk, sizeof(gtk));
	g_assert_true(kd.has_igtk);
	g_assert_cmpuint(kd.igtk_key_id, ==, 4);
	g_assert_cmpmem(kd.igtk_ipn, 6, ipn, 6);
	g_assert_cmpmem(kd.igtk, kd.igtk_len, igtk, sizeof(igtk));
	g_assert_cmpmem(kd.pmkid, 16, pmkid, 16);
	g_assert_null(kd.mac_address);
	g_assert_true(kd.has_transition_disable);
	g_assert_cmphex(kd.transition_disable, ==, 0x01);
	wifi_key_data_free(kd_buf);
}

static void
test_key_data_malformed(void)
{
	hs_check_key_data_malformed("30", NULL);              /* a lone octet */
	hs_check_key_data_malformed("30 05 0100 000f", NULL); /* runs past the end */
	hs_check_key_data_malformed("dd 03 000fac", NULL);    /* KDE without a type */
	hs_check_key_data_malformed("dd 00 00 01", NULL);     /* not padding: a short KDE */
	hs_check_key_data_malformed("dd 08 000fac01 0000 0102", NULL); /* GTK of 2 octets */
	hs_check_key_data_malformed("dd 0e 000fac01 0000 0102030405060708"
	                            "dd 0e 000fac01 0000 0102030405060708",
	                            NULL); /* two GTKs */
	hs_check_key_data_malformed("dd 14 000fac09 0400 010203040506 0102030405060708",
	                            NULL);                                   /* IGTK 8 */
	hs_check_key_data_malformed("dd 09 000fac04 0102030405", NULL);      /* PMKID of 5 */
	hs_check_key_data_malformed("dd 06 000fac03 0102", NULL);            /* MAC address of 2 */
	hs_check_key_data_malformed("dd 04 506f9a20", "Transition Disable"); /* no bits */
	hs_check_key_data_malformed("30 02 0100 30 02 0100 30 02 0100", NULL); /* three RSNEs */
	hs_check_key_data_malformed("f4 01 20 f4 01 20", NULL);                /* two RSNXEs */
}

static void
test_key_data_edges(void)
{
	g_autoptr(GError) error = NULL;
	WifiKeyData kd;
	const guint8 only_padding[] = {0xdd, 0, 0, 0, 0, 0, 0, 0};
	const guint8 two_rsne[] = {0x30, 2, 1, 0, 0x30, 2, 1, 0};

	g_assert_true(wifi_key_data_parse(NULL, 0, &kd, &error));
	g_assert_true(wifi_key_data_parse(only_padding, sizeof(only_padding), &kd, &error));
	g_assert_false(kd.has_gtk);
	g_assert_false(kd.has_transition_disable);
	g_assert_true(wifi_key_data_parse(two_rsne, sizeof(two_rsne), &kd, &error));
	g_assert_true(kd.rsne2 == two_rsne + 4);
	g_assert_no_error(error);
}

static void
test_rsne_parse(void)
{
	g_autoptr(GBytes) full =
	        hs_test_hex("30 2e 0100 000fac04 0200 000fac04 000fac0a"
	                    "0100 000fac06 cc00 0100 000102030405060708090a0b0c0d0e0f"
	                    "000fac06");
	g_autoptr(GBytes) minimal = hs_test_hex("30 02 0100");
	g_autoptr(GError) error = NULL;
	WifiRsne r;

	g_assert_true(
	        wifi_rsne_parse(g_bytes_get_data(full, NULL), g_bytes_get_size(full), &r, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(r.version, ==, 1);
	g_assert_cmphex(r.group_cipher, ==, 0x000fac04);
	g_assert_cmpuint(r.n_pairwise, ==, 2);
	g_assert_cmphex(r.pairwise[1], ==, 0x000fac0a);
	g_assert_cmpuint(r.n_akms, ==, 1);
	g_assert_cmphex(r.akms[0], ==, 0x000fac06);
	g_assert_cmphex(r.capabilities, ==, 0x00cc);
	g_assert_cmphex(r.group_mgmt_cipher, ==, 0x000fac06);
	/* Absent fields take the defaults: CCMP and 802.1X. */
	g_assert_true(wifi_rsne_parse(g_bytes_get_data(minimal, NULL), g_bytes_get_size(minimal),
	                              &r, &error));
	g_assert_cmphex(r.group_cipher, ==, 0x000fac04);
	g_assert_cmphex(r.pairwise[0], ==, 0x000fac04);
	g_assert_cmphex(r.akms[0], ==, 0x000fac01);
	/* Each cut of the full element inside a field fails; the element
	 * length is adjusted so that only the field is incomplete. */
	for (gsize cut = 4; cut < g_bytes_get_size(full); cut++) {
		g_autofree guint8 *e = g_memdup2(g_bytes_get_data(full, NULL), cut);
		gboolean at_boundary =
		        cut == 4 || cut == 8 || cut == 18 || cut == 24 || cut == 26 || cut == 44;

		e[1] = (guint8)(cut - 2);
		g_assert_cmpint(wifi_rsne_parse(e, cut, &r, NULL), ==, at_boundary);
	}
}

/* The RSNEs wpa_supplicant 2.10 put in its association requests in the
 * captured handshakes (PSK; PSK-SHA256 and SAE with MFP; SAE with a PMKID),
 * rebuilt from their parts and round-tripped through the parser. */
static void
test_rsne_write(void)
{
	static const struct {
		guint32 akm, caps, mgmt;
		const gchar *pmkid, *expected;
	} cases[] = {
	        {0x000fac02, 0, 0, NULL, "30140100000fac040100000fac040100000fac020000"},
	        {0x000fac06, 0xc0, 0x000fac06, NULL,
	         "301a0100000fac040100000fac040100000fac06c0000000000fac06"},
	        {0x000fac08, 0xc0, 0x000fac06, "1a1540d4e7efbb231513cb6afbaccf2f",
	         "302a0100000fac040100000fac040100000fac08c00001001a1540d4e7efbb23"
	         "1513cb6afbaccf2f000fac06"},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		WifiRsne r, back;
		guint8 out[257], pmkid[16];
		gsize len;

		/* memset: the struct is compared whole, padding included. */
		memset(&r, 0, sizeof(r));
		r.version = 1;
		r.group_cipher = 0x000fac04;
		r.n_pairwise = 1;
		r.n_akms = 1;
		r.pairwise[0] = 0x000fac04;
		r.akms[0] = cases[i].akm;
		r.capabilities = (guint16)cases[i].caps;
		r.group_mgmt_cipher = cases[i].mgmt;
		if (cases[i].pmkid != NULL) {
			hs_test_hex_into(cases[i].pmkid, pmkid, sizeof(pmkid));
			/* Parsing keeps the PMKID list's first entry. */
			r.has_pmkid = TRUE;
			memcpy(r.pmkid, pmkid, sizeof(pmkid));
		}
		len = wifi_rsne_write(&r, cases[i].pmkid != NULL ? pmkid : NULL, out);
		hs_assert_hex(out, len, cases[i].expected);
		g_assert_true(wifi_rsne_parse(out, len, &back, NULL));
		g_assert_cmpmem(&back, sizeof(back), &r, sizeof(r));
	}
}

static void
check_rsne_match(const gchar *a, const gchar *b, gboolean expected)
{
	g_autoptr(GBytes) x = hs_test_hex(a);
	g_autoptr(GBytes) y = hs_test_hex(b);
	g_autoptr(GError) error = NULL;
	gboolean ok = wifi_rsne_matches(g_bytes_get_data(x, NULL), g_bytes_get_size(x),
	                                g_bytes_get_data(y, NULL), g_bytes_get_size(y), &error);

	g_assert_cmpint(ok, ==, expected);
	if (!expected)
		g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
}

static void
test_rsne_matches(void)
{
	check_rsne_match(rsne_hex, rsne_hex, TRUE);
	/* A PMKID list and an explicit default group management cipher do
	 * not change what the element means. */
	check_rsne_match(rsne_hex,
	                 "30 2a 0100 000fac04 0100 000fac04 0100 000fac02 8000"
	                 "0100 00000000000000000000000000000000 000fac06",
	                 TRUE);
	check_rsne_match(rsne_hex, "30 14 0100 000fac04 0100 000fac04 0100 000fac06 8000", FALSE);
	check_rsne_match(rsne_hex, "30 14 0100 000fac02 0100 000fac04 0100 000fac02 8000", FALSE);
	check_rsne_match(rsne_hex, "30 14 0100 000fac04 0100 000fac02 0100 000fac02 8000", FALSE);
	check_rsne_match(rsne_hex, "30 14 0100 000fac04 0100 000fac04 0100 000fac02 0000", FALSE);
	check_rsne_match(rsne_hex, "30 18 0100 000fac04 0200 000fac04 000fac02 0100 000fac02 8000",
	                 FALSE);
	check_rsne_match(rsne_hex, "30 13 0100 000fac04 0100 000fac04 0100 000fac02 80", FALSE);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi-handshake/eapol-key/parse-by-hand", test_parse_by_hand);
	g_test_add_func("/wifi-handshake/eapol-key/round-trip", test_build_parse_round_trip);
	g_test_add_func("/wifi-handshake/eapol-key/mic", test_mic);
	g_test_add_func("/wifi-handshake/eapol-key/malformed", test_malformed_frames);
	g_test_add_func("/wifi-handshake/eapol-key/key-data-encryption", test_key_data_encryption);
	g_test_add_func("/wifi-handshake/eapol-key/key-data-decrypt-failures",
	                test_key_data_decrypt_failures);
	g_test_add_func("/wifi-handshake/key-data/parse", test_key_data_parse);
	g_test_add_func("/wifi-handshake/key-data/malformed", test_key_data_malformed);
	g_test_add_func("/wifi-handshake/key-data/edges", test_key_data_edges);
	g_test_add_func("/wifi-handshake/rsne/parse", test_rsne_parse);
	g_test_add_func("/wifi-handshake/rsne/matches", test_rsne_matches);
	g_test_add_func("/wifi-handshake/rsne/write", test_rsne_write);
	return g_test_run();
}
