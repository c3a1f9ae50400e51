/* test-ft-ie.c - the Mobility Domain and Fast BSS Transition elements and
 * the FT Action frames, on the elements recorded from hostapd 2.10's FT
 * over the air exchange with wpa_supplicant 2.10 (see test-ft-keys.c):
 * the authentication response, the reassociation response with its GTK
 * subelement (unwrapped with the recorded KEK to the GTK hostapd
 * installed), and malformed variants. */
#include <string.h>

#include "ft-ie.h"
#include "hs-test-util.h"
#include "ie.h"
#include "rsn-crypto.h"

#define REC_RSNE \
	"3026010000 0fac04 0100000fac04 0100000fac04 0000 0100 c1acfd90898c36f34a2de8f69dc72328"
#define REC_NONCES                                                         \
	"cbe87b4ca8295b71210a913ae4172708f57cbb9c05025e52a753b845ce1980f5" \
	"51084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e32"
#define REC_SUBS "0106020000000022 030f6170312e6578616d706c652e636f6d"
#define REC_GTK  "0223 0100 10 0000000000000000 23891d01dd38aae61ddc6cd1cea2ca9ca8711efe4ff3aa0c"
/* The reassociation response's elements: rates, RSNE, MDE, FTE (MIC
 * bd5c..., GTK), Extended Capabilities, BSS Max Idle Period. */
#define REC_REASSOC_RESP                                                         \
	"010882848b960c12182432043048606c" REC_RSNE "3603a1b200"                 \
	"3790 0003 bd5c1d5e462fa3c4840d1dbb6ac28ca7" REC_NONCES REC_SUBS REC_GTK \
	"7f0804004002000000405a03240100"

static void
test_reassoc_response(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) ies = hs_test_hex(REC_REASSOC_RESP);
	guint8 kek[16], gtk[32];
	gsize len;
	const guint8 *data = g_bytes_get_data(ies, &len);
	WifiFtIes ft;

	g_assert_true(wifi_ft_ies_parse(data, len, 16, &ft, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(ft.rsne_len, ==, 40);
	g_assert_cmpuint(ft.mdid[0], ==, 0xa1);
	g_assert_cmpuint(ft.mdid[1], ==, 0xb2);
	g_assert_cmpuint(ft.ft_capability, ==, 0);
	g_assert_cmpuint(ft.fte_len, ==, 146);
	g_assert_null(ft.rsnxe);
	g_assert_cmpuint(ft.parsed.element_count, ==, 3);
	g_assert_false(ft.parsed.rsnxe_used);
	hs_assert_hex(ft.parsed.mic, ft.parsed.mic_len, "bd5c1d5e462fa3c4840d1dbb6ac28ca7");
	hs_assert_hex(ft.parsed.anonce, 32,
	              "cbe87b4ca8295b71210a913ae4172708f57cbb9c05025e52a753b845ce1980f5");
	g_assert_true(ft.parsed.has_r1kh_id);
	hs_assert_hex(ft.parsed.r1kh_id, 6, "020000000022");
	g_assert_cmpmem(ft.parsed.r0kh_id, ft.parsed.r0kh_id_len, "ap1.example.com", 15);
	g_assert_true(ft.parsed.has_gtk);
	g_assert_false(ft.parsed.has_igtk);
	g_assert_cmpuint(ft.parsed.gtk_key_id, ==, 1);
	g_assert_cmpuint(ft.parsed.gtk_len, ==, 16);
	/* The KEK of the recorded transition's PTK. */
	hs_test_hex_into("678798207bd2fa1bfef8c81ca364ea44", kek, 16);
	g_assert_true(wifi_aes_key_unwrap(kek, 16, ft.parsed.gtk_wrapped, ft.parsed.gtk_wrapped_len,
	                                  gtk, &error));
	hs_assert_hex(gtk, ft.parsed.gtk_len, "19ce116117b5dbce9fccec7287079629");
}

/* Building the parsed FTE again gives the recorded octets back. */
static void
test_fte_round_trip(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) want = hs_test_hex(
	        "3790 0003 bd5c1d5e462fa3c4840d1dbb6ac28ca7" REC_NONCES REC_SUBS REC_GTK);
	g_autoptr(GBytes) built = NULL;
	const guint8 *w = g_bytes_get_data(want, NULL);
	WifiFte fte;

	g_assert_true(wifi_fte_parse(w + 2, g_bytes_get_size(want) - 2, 16, &fte, &error));
	built = wifi_fte_build(&fte);
	/* The builder puts R1KH-ID, the keys, then R0KH-ID: compare parsed. */
	{
		WifiFte again;
		gsize n;
		const guint8 *b = g_bytes_get_data(built, &n);

		g_assert_cmpuint(n, ==, g_bytes_get_size(want));
		g_assert_cmpuint(b[0], ==, 55);
		g_assert_cmpmem(b + WIFI_FTE_MIC_OFFSET, 16, fte.mic, 16);
		g_assert_true(wifi_fte_parse(b + 2, n - 2, 16, &again, &error));
		g_assert_cmpmem(&again, sizeof(again), &fte, sizeof(fte));
	}
}

/* The authentication request joind sends: RSNE (PMKR0Name), MDE, FTE with
 * SNonce and R0KH-ID, as wpa_supplicant sent it. */
static void
test_auth_request_build(void)
{
	g_autoptr(GBytes) want =
	        hs_test_hex("3763 0000 00000000000000000000000000000000"
	                    "0000000000000000000000000000000000000000000000000000000000000000"
	                    "51084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e32"
	                    "030f6170312e6578616d706c652e636f6d");
	g_autoptr(GBytes) built = NULL;
	WifiFte fte = {.mic_len = 16, .r0kh_id_len = 15};
	guint8 mde[WIFI_MDE_LEN], mdid[2] = {0xa1, 0xb2};

	hs_test_hex_into("51084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e32",
	                 fte.snonce, 32);
	memcpy(fte.r0kh_id, "ap1.example.com", 15);
	built = wifi_fte_build(&fte);
	g_assert_true(g_bytes_equal(built, want));
	wifi_mde_write(mde, mdid, WIFI_FT_CAP_OVER_DS);
	hs_assert_hex(mde, sizeof(mde), "3603a1b201");
}

static void
check_fte_bad(const gchar *hex, gsize mic_len)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) b = hs_test_hex(hex);
	WifiFte fte;

	g_assert_false(wifi_fte_parse(g_bytes_get_data(b, NULL), g_bytes_get_size(b), mic_len, &fte,
	                              &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
}

#define ZERO_FIXED                                                         \
	"0000 00000000000000000000000000000000"                            \
	"0000000000000000000000000000000000000000000000000000000000000000" \
	"0000000000000000000000000000000000000000000000000000000000000000"

static void
test_fte_malformed(void)
{
	check_fte_bad("0000 0000", 16);                  /* short */
	check_fte_bad(ZERO_FIXED, 24);                   /* short for a 24-octet MIC */
	check_fte_bad(ZERO_FIXED "0105 0102030405", 16); /* R1KH-ID of 5 */
	check_fte_bad(ZERO_FIXED "0106 010203040506 0106 010203040506", 16); /* R1KH-ID twice */
	check_fte_bad(ZERO_FIXED "0300", 16);                                /* empty R0KH-ID */
	check_fte_bad(ZERO_FIXED "0309 6170", 16);                           /* runs past the end */
	check_fte_bad(ZERO_FIXED "020b 0100 10 0000000000000000", 16);       /* GTK without key */
	check_fte_bad(ZERO_FIXED "0221 0100 10 0000000000000000"
	                         "1111111111111111111111111111111111111111111111",
	              16);
}

static void
test_ft_ies_missing(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) no_fte = hs_test_hex(REC_RSNE "3603a1b200");
	g_autoptr(GBytes) two_mde = hs_test_hex("3603a1b200 3603a1b200");
	WifiFtIes ft;

	g_assert_false(wifi_ft_ies_parse(g_bytes_get_data(no_fte, NULL), g_bytes_get_size(no_fte),
	                                 16, &ft, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(wifi_ft_ies_parse(g_bytes_get_data(two_mde, NULL), g_bytes_get_size(two_mde),
	                                 16, &ft, &error));
	g_assert_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/ft-ie/reassoc-response", test_reassoc_response);
	g_test_add_func("/wifi/ft-ie/fte-round-trip", test_fte_round_trip);
	g_test_add_func("/wifi/ft-ie/auth-request-build", test_auth_request_build);
	g_test_add_func("/wifi/ft-ie/fte-malformed", test_fte_malformed);
	g_test_add_func("/wifi/ft-ie/ft-ies-missing", test_ft_ies_missing);
	return g_test_run();
}
