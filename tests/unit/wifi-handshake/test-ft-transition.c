/* test-ft-transition.c - one FT over the air transition replayed from the
 * recorded hostapd exchange (test-ft-keys.c says how it was made): our
 * authentication request's elements equal what hostapd received from
 * wpa_supplicant with the same SNonce, its authentication response gives
 * the recorded PTK, our reassociation request (MIC included) equals the
 * recorded one, and the recorded reassociation response verifies and
 * yields hostapd's GTK; altered answers are refused. */
#include <string.h>

#include "ft-transition.h"
#include "hs-test-util.h"
#include "rsn-suites.h"

#define SSID       "ft-rec"
#define REC_SNONCE "51084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e32"
#define REC_XXKEY  "c3a6bb3d9470312bd6baa1f6f19780c432469b9624087e9e5654d229a563f31e"
/* Our RSNE as planned (FT-PSK, CCMP, no PMKID). */
#define OWN_RSNE "30140100000fac040100000fac040100000fac040000"
/* The authentication request's elements hostapd received. */
#define REC_AUTH_REQ                                                               \
	"30260100000fac040100000fac040100000fac040000010075609e578f100b7dbe874743" \
	"812b89b83603a1b200376300000000000000000000000000000000000000000000000000" \
	"0000000000000000000000000000000000000000000000000051084ad4ec704f8139fd29" \
	"a0377a5ecb89a8391e25b9b12a20240101f31e4e32030f6170312e6578616d706c652e63" \
	"6f6d"
/* hostapd's authentication response's elements. */
#define REC_AUTH_RESP                                                              \
	"30260100000fac040100000fac040100000fac040000010075609e578f100b7dbe874743" \
	"812b89b83603a1b200376b000000000000000000000000000000000000cbe87b4ca8295b" \
	"71210a913ae4172708f57cbb9c05025e52a753b845ce1980f551084ad4ec704f8139fd29" \
	"a0377a5ecb89a8391e25b9b12a20240101f31e4e320106020000000022030f6170312e65" \
	"78616d706c652e636f6d"
/* The reassociation request's RSNE, MDE and FTE hostapd received. */
#define REC_REASSOC_REQ                                                            \
	"30260100000fac040100000fac040100000fac0400000100c1acfd90898c36f34a2de8f6" \
	"9dc723283603a1b200376b00035fa942085e8ccb3bbde60dffa7342f04cbe87b4ca8295b" \
	"71210a913ae4172708f57cbb9c05025e52a753b845ce1980f551084ad4ec704f8139fd29" \
	"a0377a5ecb89a8391e25b9b12a20240101f31e4e320106020000000022030f6170312e65" \
	"78616d706c652e636f6d"
/* The elements of hostapd's reassociation response (the frame it sent). */
#define REC_REASSOC_RESP                                                           \
	"010882848b960c12182432043048606c30260100000fac040100000fac040100000fac04" \
	"00000100c1acfd90898c36f34a2de8f69dc723283603a1b20037900003bd5c1d5e462fa3" \
	"c4840d1dbb6ac28ca7cbe87b4ca8295b71210a913ae4172708f57cbb9c05025e52a753b8" \
	"45ce1980f551084ad4ec704f8139fd29a0377a5ecb89a8391e25b9b12a20240101f31e4e" \
	"320106020000000022030f6170312e6578616d706c652e636f6d02230100100000000000" \
	"00000023891d01dd38aae61ddc6cd1cea2ca9ca8711efe4ff3aa0c7f0804004002000000" \
	"405a03240100"
#define REC_GTK "19ce116117b5dbce9fccec7287079629"
#define REC_KCK "3f7d698fdea6d67d76f314bab50f3a06"

static WifiFtTransition *
recorded_transition(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) rsne = hs_test_hex(OWN_RSNE);
	guint8 xxkey[32], snonce[32], spa[6], target[6], mde[] = {0x36, 3, 0xa1, 0xb2, 0};
	WifiFtHolders h = {.mdid = {0xa1, 0xb2}, .r0kh_id_len = 15};
	WifiFtKeys keys;
	WifiFtTransition *ft;
	WifiFtTransitionConfig c = {
	        .akm = WIFI_AKM_SUITE_FT_PSK,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .own_rsne = g_bytes_get_data(rsne, NULL),
	        .own_rsne_len = g_bytes_get_size(rsne),
	        .mde = mde,
	        .spa = spa,
	        .target = target,
	        .keys = &keys,
	        .r0kh_id = (const guint8 *)"ap1.example.com",
	        .r0kh_id_len = 15,
	};

	memcpy(h.r0kh_id, "ap1.example.com", 15);
	hs_test_hex_into("020000000011", h.r1kh_id, 6);
	hs_test_hex_into("020000000200", spa, 6);
	memcpy(h.spa, spa, 6);
	hs_test_hex_into("020000000100", target, 6);
	hs_test_hex_into(REC_XXKEY, xxkey, 32);
	hs_test_hex_into(REC_SNONCE, snonce, 32);
	g_assert_true(wifi_ft_keys_derive(WIFI_AKM_SUITE_FT_PSK, xxkey, 32, (const guint8 *)SSID,
	                                  strlen(SSID), &h, &keys, &error));
	ft = wifi_ft_transition_new(&c, snonce, &error);
	g_assert_no_error(error);
	wifi_ft_keys_clear(&keys);
	return ft;
}

static gboolean
feed(WifiFtTransition *ft, const gchar *hex, gboolean reassoc, WifiFtGroupKeys *gk, GError **error)
{
	g_autoptr(GBytes) ies = hs_test_hex(hex);
	const guint8 *p = g_bytes_get_data(ies, NULL);
	gsize n = g_bytes_get_size(ies);

	return reassoc ? wifi_ft_transition_reassoc_response(ft, p, n, gk, error)
	               : wifi_ft_transition_auth_response(ft, p, n, error);
}

static void
test_recorded(void)
{
	g_autoptr(WifiFtTransition) ft = recorded_transition();
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) auth = wifi_ft_transition_auth_ies(ft);
	g_autoptr(GBytes) want_auth = hs_test_hex(REC_AUTH_REQ);
	g_autoptr(GBytes) want_reassoc = hs_test_hex(REC_REASSOC_REQ);
	g_autoptr(GBytes) reassoc = NULL;
	guint8 kck[16], gtk[16];
	WifiFtGroupKeys gk;

	g_assert_true(g_bytes_equal(auth, want_auth));
	g_assert_true(feed(ft, REC_AUTH_RESP, FALSE, NULL, &error));
	g_assert_no_error(error);
	hs_test_hex_into(REC_KCK, kck, 16);
	g_assert_cmpmem(wifi_ft_transition_get_ptk(ft)->kck, 16, kck, 16);
	reassoc = wifi_ft_transition_reassoc_ies(ft, &error);
	g_assert_no_error(error);
	g_assert_true(g_bytes_equal(reassoc, want_reassoc));
	g_assert_true(feed(ft, REC_REASSOC_RESP, TRUE, &gk, &error));
	g_assert_no_error(error);
	hs_test_hex_into(REC_GTK, gtk, 16);
	g_assert_true(gk.has_gtk);
	g_assert_false(gk.has_igtk);
	g_assert_cmpuint(gk.gtk_key_id, ==, 1);
	g_assert_cmpmem(gk.gtk, gk.gtk_len, gtk, 16);
	wifi_ft_group_keys_clear(&gk);
}

/* hex with the octet at offset replaced by value. */
static gchar *
altered(const gchar *hex, gsize offset, const gchar *value)
{
	gchar *s = g_strdup(hex);

	memcpy(s + 2 * offset, value, 2);
	return s;
}

static void
test_refused(void)
{
	g_autoptr(WifiFtTransition) ft = recorded_transition();
	g_autoptr(GError) error = NULL;
	/* Octet 24: the RSNE's PMKID; 97: our SNonce in the FTE; 66 of the
	 * reassociation response: its MIC. */
	g_autofree gchar *other_pmkid = altered(REC_AUTH_RESP, 24, "00");
	g_autofree gchar *other_snonce = altered(REC_AUTH_RESP, 97, "00");
	g_autofree gchar *bad_mic = altered(REC_REASSOC_RESP, 66, "00");
	WifiFtGroupKeys gk;

	g_assert_false(feed(ft, other_pmkid, FALSE, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
	g_clear_error(&error);
	g_assert_false(feed(ft, other_snonce, FALSE, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
	g_clear_error(&error);
	g_assert_true(feed(ft, REC_AUTH_RESP, FALSE, NULL, &error));
	g_assert_false(feed(ft, bad_mic, TRUE, &gk, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/ft-transition/recorded", test_recorded);
	g_test_add_func("/wifi/ft-transition/refused", test_refused);
	return g_test_run();
}
