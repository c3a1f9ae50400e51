/* test-ft-keys-akms.c - the FT key hierarchy of FT-SAE, FT-802.1X and
 * FT-802.1X-SHA384 against values recorded from real exchanges: hostapd
 * 2.10 (two BSSes on two radios, mobility domain a1b2, R0KH-ID
 * "ap1.example.com", R1KH-IDs 02:00:00:00:00:00 and 02:00:00:00:01:00,
 * their RRB frames over two bridges joined by a veth pair, its own EAP
 * server with EAP-pwd) and wpa_supplicant 2.10 on mac80211_hwsim, SSID
 * "ft-rec", station 02:00:00:00:02:00, debug output with keys (-dd -K):
 * the initial mobility domain association's hierarchy and PTK from SAE's
 * PMK or EAP's MSK, the PMK-R1 and PTK of an FT over the air roam, and
 * the 24-octet MIC of an FT-802.1X-SHA384 reassociation request. The
 * standard has no FT vectors. */
#include <string.h>

#include "ft-keys.h"
#include "hs-test-util.h"
#include "rsn-suites.h"

#define SSID "ft-rec"
#define STA  "020000000200"
#define AP0  "020000000000"
#define AP1  "020000000100"

static void
recorded_holders(WifiFtHolders *h)
{
	memset(h, 0, sizeof(*h));
	h->mdid[0] = 0xa1;
	h->mdid[1] = 0xb2;
	h->r0kh_id_len = strlen("ap1.example.com");
	memcpy(h->r0kh_id, "ap1.example.com", h->r0kh_id_len);
	hs_test_hex_into(AP0, h->r1kh_id, sizeof(h->r1kh_id));
	hs_test_hex_into(STA, h->spa, sizeof(h->spa));
}

/* A recorded PTK: nonces in, the whole PTK (KCK, KEK, TK) and PTKName
 * out. */
typedef struct {
	const gchar *snonce, *anonce, *ptk, *name;
} PtkVector;

/* What one exchange recorded: the initial association's PMK-R0, PMK-R1
 * and PTK with the first access point, the roam's PMK-R1 and PTK with
 * the second. */
typedef struct {
	const gchar *r0, *r0_name, *r1, *r1_name;
	PtkVector first;
	const gchar *target_r1, *target_r1_name;
	PtkVector roam;
} HierarchyVector;

static void
check_ptk(const WifiFtKeys *keys, const PtkVector *v, const gchar *bssid_hex)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) want = hs_test_hex(v->ptk);
	guint8 snonce[32], anonce[32], bssid[6], sta[6], got[72], name[16];
	WifiPtk ptk;
	gsize n;

	hs_test_hex_into(v->snonce, snonce, 32);
	hs_test_hex_into(v->anonce, anonce, 32);
	hs_test_hex_into(bssid_hex, bssid, 6);
	hs_test_hex_into(STA, sta, 6);
	g_assert_true(wifi_ft_ptk_derive(keys, WIFI_CIPHER_SUITE_CCMP, snonce, anonce, bssid, sta,
	                                 &ptk, name, &error));
	g_assert_no_error(error);
	n = ptk.kck_len + ptk.kek_len + ptk.tk_len;
	g_assert_cmpuint(n, ==, g_bytes_get_size(want));
	memcpy(got, ptk.kck, ptk.kck_len);
	memcpy(got + ptk.kck_len, ptk.kek, ptk.kek_len);
	memcpy(got + ptk.kck_len + ptk.kek_len, ptk.tk, ptk.tk_len);
	g_assert_cmpmem(got, n, g_bytes_get_data(want, NULL), g_bytes_get_size(want));
	hs_assert_hex(name, 16, v->name);
	wifi_ptk_clear(&ptk);
}

/* The hierarchy of xxkey against v, through the roam. */
static void
check_hierarchy(guint akm, const guint8 *xxkey, gsize xxkey_len, const HierarchyVector *v)
{
	g_autoptr(GError) error = NULL;
	guint8 r1kh[6], sta[6];
	WifiFtHolders h;
	WifiFtKeys keys;

	recorded_holders(&h);
	g_assert_true(wifi_ft_keys_derive(akm, xxkey, xxkey_len, (const guint8 *)SSID, strlen(SSID),
	                                  &h, &keys, &error));
	g_assert_no_error(error);
	hs_assert_hex(keys.pmk_r0, keys.pmk_len, v->r0);
	hs_assert_hex(keys.pmk_r0_name, 16, v->r0_name);
	hs_assert_hex(keys.pmk_r1, keys.pmk_len, v->r1);
	hs_assert_hex(keys.pmk_r1_name, 16, v->r1_name);
	check_ptk(&keys, &v->first, AP0);
	hs_test_hex_into(AP1, r1kh, 6);
	hs_test_hex_into(STA, sta, 6);
	g_assert_true(wifi_ft_keys_for_r1kh(&keys, r1kh, sta, &error));
	g_assert_no_error(error);
	hs_assert_hex(keys.pmk_r1, keys.pmk_len, v->target_r1);
	hs_assert_hex(keys.pmk_r1_name, 16, v->target_r1_name);
	check_ptk(&keys, &v->roam, AP1);
	wifi_ft_keys_clear(&keys);
}

/* FT-SAE: the XXKey is SAE's PMK. */
static void
test_ft_sae(void)
{
	static const HierarchyVector v = {
	        "58f16f21501666ea2de4cc11d9b49487b1b134448ef32f8f802325ad6049b185",
	        "d009bbf2388e67306cf3cba74d9729fc",
	        "569cf330edb9ee4645ca359de51c248d2874b301d1c260a8a8537f1240aa1d6f",
	        "66dfbb56017343ff29f22273ed95f2a5",
	        {"a1254f70974b6083d747ec45195d2165df13ef716167d8258e5e00fdd4e26b8e",
	         "38eb6cfdba4506e68eb9a9e3248693a7d7fbf35a246ee0b726c2151209847527",
	         "e7033f79f333682b4f8a9a236c85a6b6f61280ec78a8b31f9a2d04372c909400"
	         "6e31d707e2938c0d791a6730dd72a60a",
	         "3ec925809c252a9ea46d7c3fc2dfbac5"},
	        "e02d93cae9b56268cde7d258120e1f250d915f3b7364cac10cf91f22ac40d194",
	        "e325c02c57fbefbd4722bcf310cc9aa3",
	        {"86fa04b18798bfc98dedfa4448c1611bbb20ac0c801695526051bfb89d087cb1",
	         "df26771b6f13b5c45646dc948ce76aa7cbdd03aff0d200f62ef70d3ed07c8a96",
	         "f24270d93ade3f171cbdb75083080ee08be6f3c15fbb87b7bcfe16e2edd997fb"
	         "0d7a4ad56c4f6cde7fff369f07dabb64",
	         "60819f5263041fc26a3cd604fd7ca698"},
	};
	guint8 pmk[32];

	hs_test_hex_into("2a4a12a901585508e3fb3158721232d9598ac5c9b4bc479324f358c81a268dbc", pmk,
	                 32);
	check_hierarchy(WIFI_AKM_SUITE_FT_SAE, pmk, sizeof(pmk), &v);
}

/* The XXKey of an FT-802.1X AKM from msk_hex (msk_len octets; what
 * msk_hex leaves out is 0x5a), checked against want_hex. */
static gsize
xxkey_of(guint akm, const gchar *msk_hex, gsize msk_len, const gchar *want_hex,
         guint8 xxkey[WIFI_FT_PMK_MAX_LEN])
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) known = hs_test_hex(msk_hex);
	guint8 msk[64];
	gsize len = 0;

	memset(msk, 0x5a, sizeof(msk));
	memcpy(msk, g_bytes_get_data(known, NULL), g_bytes_get_size(known));
	g_assert_true(wifi_ft_xxkey_from_msk(akm, msk, msk_len, xxkey, &len, &error));
	g_assert_no_error(error);
	hs_assert_hex(xxkey, len, want_hex);
	return len;
}

/* FT-802.1X: the XXKey is the MSK's second 256 bits (its first are the
 * PMK wpa_supplicant printed, the second its XXKey). */
static void
test_ft_8021x(void)
{
	static const HierarchyVector v = {
	        "f62635ca9f8f29be08097770d876410685581f591a65b0876508a3b3b099f085",
	        "445c2fec4d7e3808b41cd6db1906978c",
	        "310f095dfef21f681afc049cd6250cbbc599ab3af1950bcaad030dbd6365c67c",
	        "8c6b04e655aae52010fe1c5e1660a2a0",
	        {"cde42985c2a9b0fd8d631d7f33be1c3dd92e9bf44dcd6ea9f138dcadfd97e0d1",
	         "fb64d8b766764cf8cc7a98ac627a46db274c4bb6ac32caed2ddd375a655da7b7",
	         "f1d09aded610e7264e0a88321755011b998729d7e1a6f747c297fdb7d7880ce3"
	         "29227912938b996a64badb495ee3f29c",
	         "98a2b6671e157ee2c8cd8533cd76d3d8"},
	        "186fbbd09b8e91728dfef669637ccded7ffe72b06faf07126b2822753068702c",
	        "43a1726adc21c470c491b97b578e8647",
	        {"256e36947573909d6d4e7902dc05cd9226879f82bdfb757fd8c5fce8d33e9be1",
	         "81eabb08ad12746ae6593e807bf538ead9212cf3701db7f76e8cd93025c60a80",
	         "44dfe53d756ead4927fb8e291fd222f6103e2d3fd74bd01f00090f2d310e6b4a"
	         "5019efcc9ae856ac0919ae853eb0ed8b",
	         "9c739f5c467bdb602bce8f3f326debb7"},
	};
	guint8 xxkey[WIFI_FT_PMK_MAX_LEN];
	gsize len = xxkey_of(WIFI_AKM_SUITE_FT_8021X,
	                     "d5461a6bb277b83dd1b2c19fe495a0e3a89681ca6b967e9238ec1a418ba0d73f"
	                     "ee968fae00484c82772857c6503c4be91e03573eaa125ad72d377a720f5129b0",
	                     64, "ee968fae00484c82772857c6503c4be91e03573eaa125ad72d377a720f5129b0",
	                     xxkey);

	check_hierarchy(WIFI_AKM_SUITE_FT_8021X, xxkey, len, &v);
}

#define SHA384_KCK "4d2c61663304be837bfe60727665d02bcaeba3de84b54acc"
#define SHA384_MSK                                                         \
	"3ad9b3802d61fcbe94e3f264c0a920b9f4db0bf49f4c09d45a5e506127b2859c" \
	"01f0f7c874cc90f5af4caf55e119ab63"

/* FT-802.1X-SHA384: the MSK's first 384 bits (its last 128, which
 * wpa_supplicant did not print, do not count), SHA-384 throughout, a
 * 24-octet KCK, a 32-octet KEK. */
static void
test_ft_8021x_sha384(void)
{
	static const HierarchyVector v = {
	        "18d24a089e99c22acadd7e165ecf7bb4ee7810f1beadefea69e62447599f751e"
	        "cb92cecc1bf93ebb08294bc3eeb4a7ef",
	        "90fdd0cd5013ad71fd7bf3005266976f",
	        "a5a4dbd08fef01c70b0adede8e06465ce6f49e6e4dd0968fa05003d11b2484de"
	        "6d0ef6a9c821a9a7600daf9c9db8efff",
	        "e6eafe76e57bf48871c41c1abad1fdd0",
	        {"e415844f230029093d9a53b977df35d3f105355d3acdf840bec2794a489a505a",
	         "3cfbf761e0c4395d675d22d910a9e682d628bfa3c91e400ecf387e5708d1cd59",
	         "1c406e71cc14848e4b3bd4464a6adae51a9310b5bf35710d23bf2a588ed49a9f"
	         "c0b69c089d855dd649c838cfd9fd48ea65259e9fc54e22cde25fa6ff5e9c048e"
	         "8a5e30c0bc9dd373",
	         "946d8bb1f794eadd2ac5d632a8fe94ad"},
	        "f0e985fe41f9ec946819936807ed3e8871519335265305df30ca8719e925cac3"
	        "0a2e4780c672575198854fd35c50bec1",
	        "c088c3a39e42be6151959b3afe732c54",
	        {"426a9607fad48aa3f6946f5782ad7ca42b9ed591255df6645f60070027f66c74",
	         "3fc31bfa8d08947e9e403cca677b1dd22ab4ddfdb769e6971f83f098e4720fb5",
	         SHA384_KCK "dde1302a278048fc50fa5c9812f7ed2a30bc68d3cf4b66cbd301793f96094b5b"
	                    "4ea312a041af9aea5080ee6b977f1d2a",
	         "bcf2be88306f2083727b1098594106de"},
	};
	guint8 xxkey[WIFI_FT_PMK_MAX_LEN];
	gsize len = xxkey_of(WIFI_AKM_SUITE_FT_8021X_SHA384, SHA384_MSK, 64, SHA384_MSK, xxkey);

	check_hierarchy(WIFI_AKM_SUITE_FT_8021X_SHA384, xxkey, len, &v);
}

/* The reassociation request of that roam as hostapd received it: the
 * MIC over RSNE (PMKR1Name), MDE and the FTE with its MIC zeroed is
 * HMAC-SHA-384 with the 24-octet KCK, cut to 24 octets. */
static void
test_sha384_mic(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) rsne = hs_test_hex("302a 0100 000fac04 0100 000fac04 0100 000fac0d c000"
	                                     "0100 c088c3a39e42be6151959b3afe732c54 000fac06");
	g_autoptr(GBytes) mde = hs_test_hex("3603a1b200");
	g_autoptr(GBytes) fte =
	        hs_test_hex("3773 0003 000000000000000000000000000000000000000000000000"
	                    "3fc31bfa8d08947e9e403cca677b1dd22ab4ddfdb769e6971f83f098e4720fb5"
	                    "426a9607fad48aa3f6946f5782ad7ca42b9ed591255df6645f60070027f66c74"
	                    "0106020000000100 030f6170312e6578616d706c652e636f6d");
	guint8 kck[24], sta[6], ap[6], mic[WIFI_FT_MIC_MAX_LEN];
	gsize mic_len = 0;
	WifiFtMicInput in = {sta, ap, 5};

	hs_test_hex_into(SHA384_KCK, kck, 24);
	hs_test_hex_into(STA, sta, 6);
	hs_test_hex_into(AP1, ap, 6);
	in.rsne = g_bytes_get_data(rsne, &in.rsne_len);
	in.mde = g_bytes_get_data(mde, &in.mde_len);
	in.fte = g_bytes_get_data(fte, &in.fte_len);
	g_assert_true(
	        wifi_ft_mic(WIFI_AKM_SUITE_FT_8021X_SHA384, kck, 24, &in, mic, &mic_len, &error));
	g_assert_no_error(error);
	hs_assert_hex(mic, mic_len, "fb02ed94da4582fa7f22d0f5f047b11b1b938c4013ad7cef");
}

/* Only the two FT-802.1X AKMs take an XXKey from the MSK, and only from
 * one long enough. */
static void
test_msk_refusals(void)
{
	guint8 msk[64] = {0}, xxkey[WIFI_FT_PMK_MAX_LEN];
	gsize len = 0;
	GError *error = NULL;

	g_assert_false(wifi_ft_xxkey_from_msk(WIFI_AKM_SUITE_FT_SAE, msk, 64, xxkey, &len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
	g_clear_error(&error);
	g_assert_false(
	        wifi_ft_xxkey_from_msk(WIFI_AKM_SUITE_FT_8021X, msk, 48, xxkey, &len, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_false(wifi_ft_xxkey_from_msk(WIFI_AKM_SUITE_FT_8021X_SHA384, msk, 32, xxkey, &len,
	                                      &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_clear_error(&error);
	g_assert_true(wifi_akm_is_sae(WIFI_AKM_SUITE_FT_SAE));
	g_assert_false(wifi_akm_is_sae(WIFI_AKM_SUITE_FT_PSK));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi-handshake/ft-akms/ft-sae", test_ft_sae);
	g_test_add_func("/wifi-handshake/ft-akms/ft-8021x", test_ft_8021x);
	g_test_add_func("/wifi-handshake/ft-akms/ft-8021x-sha384", test_ft_8021x_sha384);
	g_test_add_func("/wifi-handshake/ft-akms/sha384-mic", test_sha384_mic);
	g_test_add_func("/wifi-handshake/ft-akms/msk-refusals", test_msk_refusals);
	return g_test_run();
}
