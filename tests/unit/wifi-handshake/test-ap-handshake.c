/* test-ap-handshake.c - the authenticator (rsn-authenticator.h) against
 * the station's own supplicant (rsn-handshake.h) in one process: every
 * frame one side sends is the other's input, so each side checks the
 * other's frames, MICs, key wraps and replay counters. Plus Annex J.7's
 * PTK reached through the whole handshake, a wrong passphrase, a lost
 * message 3, a downgraded RSNE, a silent station and group rekeys.
 */
#include <string.h>

#include "hs-test-util.h"
#include "joind-secret.h"
#include "rsn-authenticator.h"
#include "rsn-handshake.h"

#define RSNE_PSK        "30140100000fac040100000fac040100000fac020000"
#define RSNE_PSK_MFPC   "30140100000fac040100000fac040100000fac028000"
#define RSNE_SHA256_MFP "301a0100000fac040100000fac040100000fac06c0000000000fac06"
#define RSNE_SAE        "301a0100000fac040100000fac040100000fac0880000000000fac06"

typedef struct {
	WifiHandshake *sta;
	WifiAuthenticator *ap;
	WifiGroupKeys gk;
	GQueue to_sta, to_ap; /* GBytes */
	GPtrArray *sta_keys;  /* GBytes: kind, key ID, then the key */
	GPtrArray *ap_keys;
	guint8 spa[6];
	guint drop_to_sta; /* frames for the station to lose */
	WifiHandshakeRx last_ap_rx;
	GError *ap_error;
} Pair;

static void
record_key(GPtrArray *keys, const WifiHandshakeKey *key)
{
	GByteArray *k = g_byte_array_new();
	guint8 head[2] = {(guint8)key->kind, (guint8)key->key_id};

	g_byte_array_append(k, head, 2);
	g_byte_array_append(k, key->key, (guint)key->key_len);
	g_ptr_array_add(keys, g_byte_array_free_to_bytes(k));
}

static void
sta_send(const guint8 *frame, gsize len, gpointer user_data)
{
	g_queue_push_tail(&((Pair *)user_data)->to_ap, g_bytes_new(frame, len));
}

static void
sta_install(const WifiHandshakeKey *key, gpointer user_data)
{
	record_key(((Pair *)user_data)->sta_keys, key);
}

static void
ap_send(const guint8 *frame, gsize len, gpointer user_data)
{
	Pair *p = user_data;

	if (p->drop_to_sta > 0) {
		p->drop_to_sta--;
		return;
	}
	g_queue_push_tail(&p->to_sta, g_bytes_new(frame, len));
}

static void
ap_install(const WifiHandshakeKey *key, gpointer user_data)
{
	Pair *p = user_data;

	g_assert_cmpmem(key->addr, 6, p->spa, 6);
	record_key(p->ap_keys, key);
}

typedef struct {
	guint akm, group_mgmt;
	const gchar *ap_rsne, *sta_rsne, *assoc_rsne; /* assoc_rsne: what the AP saw */
	const gchar *pmk_ap, *pmk_sta;
	const gchar *pmkid;
	const gchar *aa, *spa;
} PairSetup;

static void
pair_start_sta(Pair *p, const PairSetup *s)
{
	static const WifiHandshakeCallbacks cb = {sta_send, sta_install, NULL};
	g_autoptr(GBytes) pmk = hs_test_hex(s->pmk_sta);
	g_autoptr(GBytes) own = hs_test_hex(s->sta_rsne);
	g_autoptr(GBytes) ap = hs_test_hex(s->ap_rsne);
	g_autoptr(GBytes) pmkid = s->pmkid != NULL ? hs_test_hex(s->pmkid) : NULL;
	g_autoptr(GError) error = NULL;
	WifiHandshakeConfig c = {0};

	c.akm = s->akm;
	c.pairwise_cipher = c.group_cipher = WIFI_CIPHER_SUITE_CCMP;
	c.group_mgmt_cipher = s->group_mgmt;
	hs_test_hex_into(s->aa, c.aa, 6);
	hs_test_hex_into(s->spa, c.spa, 6);
	c.pmk = g_bytes_get_data(pmk, &c.pmk_len);
	c.own_rsne = g_bytes_get_data(own, &c.own_rsne_len);
	c.ap_rsne = g_bytes_get_data(ap, &c.ap_rsne_len);
	c.pmkid = pmkid != NULL ? g_bytes_get_data(pmkid, NULL) : NULL;
	p->sta = wifi_handshake_new(&c, &cb, p, &error);
	g_assert_no_error(error);
}

static void
pair_start_ap(Pair *p, const PairSetup *s)
{
	static const WifiAuthenticatorCallbacks cb = {ap_send, ap_install, NULL};
	g_autoptr(GBytes) pmk = hs_test_hex(s->pmk_ap);
	g_autoptr(GBytes) own = hs_test_hex(s->ap_rsne);
	g_autoptr(GBytes) sta = hs_test_hex(s->assoc_rsne != NULL ? s->assoc_rsne : s->sta_rsne);
	g_autoptr(GBytes) pmkid = s->pmkid != NULL ? hs_test_hex(s->pmkid) : NULL;
	g_autoptr(GError) error = NULL;
	WifiAuthenticatorConfig c = {0};

	g_assert_true(wifi_group_keys_generate(&p->gk, WIFI_CIPHER_SUITE_CCMP, s->group_mgmt, NULL,
	                                       &error));
	c.akm = s->akm;
	c.pairwise_cipher = c.group_cipher = WIFI_CIPHER_SUITE_CCMP;
	c.group_mgmt_cipher = s->group_mgmt;
	hs_test_hex_into(s->aa, c.aa, 6);
	hs_test_hex_into(s->spa, c.spa, 6);
	c.pmk = g_bytes_get_data(pmk, &c.pmk_len);
	c.pmkid = pmkid != NULL ? g_bytes_get_data(pmkid, NULL) : NULL;
	c.own_rsne = g_bytes_get_data(own, &c.own_rsne_len);
	c.sta_rsne = g_bytes_get_data(sta, &c.sta_rsne_len);
	c.group_keys = &p->gk;
	p->ap = wifi_authenticator_new(&c, &cb, p, &error);
	g_assert_no_error(error);
}

static Pair *
pair_new(const PairSetup *s)
{
	Pair *p = g_new0(Pair, 1);

	p->sta_keys = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	p->ap_keys = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
	hs_test_hex_into(s->spa, p->spa, 6);
	pair_start_sta(p, s);
	pair_start_ap(p, s);
	return p;
}

static void
pair_free(Pair *p)
{
	wifi_handshake_free(p->sta);
	wifi_authenticator_free(p->ap);
	g_queue_clear_full(&p->to_sta, (GDestroyNotify)g_bytes_unref);
	g_queue_clear_full(&p->to_ap, (GDestroyNotify)g_bytes_unref);
	g_ptr_array_unref(p->sta_keys);
	g_ptr_array_unref(p->ap_keys);
	g_clear_error(&p->ap_error);
	joind_secret_clear(&p->gk, sizeof(p->gk));
	g_free(p);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Pair, pair_free)

/* Delivers frames both ways until none is left. */
static void
pair_pump(Pair *p)
{
	GBytes *f;

	while (!g_queue_is_empty(&p->to_sta) || !g_queue_is_empty(&p->to_ap)) {
		while ((f = g_queue_pop_head(&p->to_sta)) != NULL) {
			g_autoptr(GError) error = NULL;

			wifi_handshake_rx(p->sta, g_bytes_get_data(f, NULL), g_bytes_get_size(f),
			                  &error);
			g_bytes_unref(f);
		}
		while ((f = g_queue_pop_head(&p->to_ap)) != NULL) {
			g_clear_error(&p->ap_error);
			p->last_ap_rx = wifi_authenticator_rx(p->ap, g_bytes_get_data(f, NULL),
			                                      g_bytes_get_size(f), &p->ap_error);
			g_bytes_unref(f);
		}
	}
}

static void
assert_key(GPtrArray *keys, guint i, WifiKeyKind kind, guint id, const guint8 *key, gsize len)
{
	const guint8 *k;
	gsize k_len;

	g_assert_cmpuint(i, <, keys->len);
	k = g_bytes_get_data(g_ptr_array_index(keys, i), &k_len);
	g_assert_cmpuint(k[0], ==, kind);
	g_assert_cmpuint(k[1], ==, id);
	g_assert_cmpmem(k + 2, k_len - 2, key, len);
}

/* Both sides complete with the same TK; the station holds the AP's group
 * keys. */
static void
assert_complete(Pair *p)
{
	const guint8 *tk;
	gsize tk_len;

	g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==, WIFI_AUTHENTICATOR_STATE_COMPLETE);
	g_assert_cmpint(wifi_handshake_get_state(p->sta), ==, WIFI_HANDSHAKE_STATE_COMPLETE);
	g_assert_true(wifi_authenticator_has_ptk(p->ap));
	g_assert_cmpuint(p->ap_keys->len, ==, 1);
	tk = g_bytes_get_data(g_ptr_array_index(p->ap_keys, 0), &tk_len);
	assert_key(p->sta_keys, 0, WIFI_KEY_KIND_PAIRWISE, 0, tk + 2, tk_len - 2);
	assert_key(p->sta_keys, 1, WIFI_KEY_KIND_GROUP, p->gk.gtk_id, p->gk.gtk, p->gk.gtk_len);
	if (p->gk.igtk_len > 0)
		assert_key(p->sta_keys, 2, WIFI_KEY_KIND_GROUP_MGMT, p->gk.igtk_id, p->gk.igtk,
		           p->gk.igtk_len);
}

static const PairSetup psk_setup = {
        .akm = WIFI_AKM_SUITE_PSK,
        .ap_rsne = RSNE_PSK,
        .sta_rsne = RSNE_PSK,
        .pmk_ap = "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af",
        .pmk_sta = "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af",
        .aa = "020000000100",
        .spa = "020000000200",
};

static void
run(const PairSetup *s)
{
	g_autoptr(Pair) p = pair_new(s);
	g_autoptr(GError) error = NULL;

	g_assert_true(wifi_authenticator_start(p->ap, &error));
	g_assert_no_error(error);
	pair_pump(p);
	g_assert_no_error(p->ap_error);
	assert_complete(p);
}

static void
test_psk(void)
{
	run(&psk_setup);
}

/* The PSK setup with another AKM and management frame protection. */
static PairSetup
mfp_setup(guint akm, const gchar *rsne)
{
	PairSetup s = psk_setup;

	s.akm = akm;
	s.group_mgmt = WIFI_CIPHER_SUITE_BIP_CMAC;
	s.ap_rsne = s.sta_rsne = rsne;
	return s;
}

static void
test_psk_sha256_mfp(void)
{
	PairSetup s = mfp_setup(WIFI_AKM_SUITE_PSK_SHA256, RSNE_SHA256_MFP);

	run(&s);
}

/* SAE's PMK and PMKID (from the SAE exchange): message 1 names the PMKID
 * and the station checks it. */
static void
test_sae(void)
{
	PairSetup s = mfp_setup(WIFI_AKM_SUITE_SAE, RSNE_SAE);

	s.pmk_ap = s.pmk_sta = "7b2e47855f22e13e493e970b08d1450123456789abcdef0123456789abcdef01";
	s.pmkid = "067b2e47855f22e13e493e970b08d145";
	run(&s);
}

/* IEEE 802.11-2020 J.7 (table J-14): with the standard's PMK, addresses
 * and nonces the whole handshake ends in the standard's TK on both sides. */
static void
test_annex_j7(void)
{
	PairSetup s = psk_setup;
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = NULL;
	guint8 anonce[32], snonce[32];

	s.aa = "a0a1a1a3a4a5";
	s.spa = "b0b1b2b3b4b5";
	p = pair_new(&s);
	hs_test_hex_into("e0e1e2e3e4e5e6e7e8e9f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405", anonce,
	                 sizeof(anonce));
	hs_test_hex_into("c0c1c2c3c4c5c6c7c8c9d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5", snonce,
	                 sizeof(snonce));
	wifi_authenticator_set_anonce(p->ap, anonce, 0);
	wifi_handshake_set_snonce(p->sta, snonce);
	g_assert_true(wifi_authenticator_start(p->ap, &error));
	pair_pump(p);
	assert_complete(p);
	assert_key(
	        p->ap_keys, 0, WIFI_KEY_KIND_PAIRWISE, 0,
	        (const guint8 *)"\xb2\x36\x0c\x79\xe9\x71\x0f\xdd\x58\xbe\xa9\x3d\xea\xf0\x65\x99",
	        16);
}

/* A rotation: group message 1 with the next key ID, installed by the
 * station, acknowledged; twice, so the IDs come back round. */
static void
test_group_rekey(void)
{
	PairSetup s = mfp_setup(WIFI_AKM_SUITE_PSK_SHA256, RSNE_SHA256_MFP);
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = pair_new(&s);

	g_assert_true(wifi_authenticator_start(p->ap, &error));
	pair_pump(p);
	assert_complete(p);
	for (guint round = 0; round < 2; round++) {
		WifiGroupKeys old = p->gk;
		guint n = p->sta_keys->len;

		g_assert_true(wifi_group_keys_generate(&p->gk, WIFI_CIPHER_SUITE_CCMP,
		                                       WIFI_CIPHER_SUITE_BIP_CMAC, &old, &error));
		g_assert_cmpuint(p->gk.gtk_id, ==, old.gtk_id == 1 ? 2 : 1);
		g_assert_cmpuint(p->gk.igtk_id, ==, old.igtk_id == 4 ? 5 : 4);
		g_assert_true(memcmp(p->gk.gtk, old.gtk, 16) != 0);
		g_assert_true(wifi_authenticator_rekey_group(p->ap, &error));
		g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==,
		                WIFI_AUTHENTICATOR_STATE_WAIT_GROUP_MSG2);
		pair_pump(p);
		g_assert_no_error(p->ap_error);
		g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==,
		                WIFI_AUTHENTICATOR_STATE_COMPLETE);
		assert_key(p->sta_keys, n, WIFI_KEY_KIND_GROUP, p->gk.gtk_id, p->gk.gtk, 16);
		assert_key(p->sta_keys, n + 1, WIFI_KEY_KIND_GROUP_MGMT, p->gk.igtk_id, p->gk.igtk,
		           16);
		joind_secret_clear(&old, sizeof(old));
	}
	g_assert_cmpuint(p->ap_keys->len, ==, 1);
}

/* A station with another passphrase: each message 2 fails its MIC and is
 * dropped; each timeout resends message 1; the fourth ends the handshake
 * naming the passphrase, with no key installed. */
static void
test_wrong_passphrase(void)
{
	PairSetup s = psk_setup;
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = NULL;

	s.pmk_sta = "1dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af";
	p = pair_new(&s);
	g_assert_true(wifi_authenticator_start(p->ap, &error));
	for (guint i = 0; i < WIFI_AUTHENTICATOR_TRIES; i++) {
		pair_pump(p);
		g_assert_cmpint(p->last_ap_rx, ==, WIFI_HANDSHAKE_RX_DROPPED);
		g_assert_error(p->ap_error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC);
		g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==,
		                WIFI_AUTHENTICATOR_STATE_WAIT_MSG2);
		if (i + 1 < WIFI_AUTHENTICATOR_TRIES)
			g_assert_true(wifi_authenticator_timeout(p->ap, &error));
	}
	g_assert_false(wifi_authenticator_timeout(p->ap, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE);
	g_assert_nonnull(strstr(error->message, "4 times"));
	g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==, WIFI_AUTHENTICATOR_STATE_FAILED);
	g_assert_cmpuint(p->ap_keys->len, ==, 0);
	g_assert_false(wifi_authenticator_has_ptk(p->ap));
}

/* A station that never answers: four message 1s, then the timeout says so. */
static void
test_silent_station(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = pair_new(&psk_setup);

	g_assert_true(wifi_authenticator_start(p->ap, &error));
	for (guint i = 1; i < WIFI_AUTHENTICATOR_TRIES; i++)
		g_assert_true(wifi_authenticator_timeout(p->ap, &error));
	g_assert_cmpuint(g_queue_get_length(&p->to_sta), ==, WIFI_AUTHENTICATOR_TRIES);
	g_assert_false(wifi_authenticator_timeout(p->ap, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_TIMEOUT);
	g_assert_nonnull(strstr(error->message, "message 1"));
	/* A failed handshake waits on nothing: a later timeout does nothing. */
	g_clear_error(&error);
	g_assert_true(wifi_authenticator_timeout(p->ap, &error));
	g_assert_no_error(error);
}

/* Message 3 lost on the air: the timeout resends it with the next replay
 * counter and the handshake completes. */
static void
test_lost_msg3(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = pair_new(&psk_setup);
	GBytes *msg1;

	g_assert_true(wifi_authenticator_start(p->ap, &error));
	msg1 = g_queue_pop_head(&p->to_sta);
	wifi_handshake_rx(p->sta, g_bytes_get_data(msg1, NULL), g_bytes_get_size(msg1), &error);
	g_assert_no_error(error);
	g_bytes_unref(msg1);
	p->drop_to_sta = 1;
	pair_pump(p);
	g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==,
	                WIFI_AUTHENTICATOR_STATE_WAIT_MSG4);
	g_assert_true(wifi_authenticator_timeout(p->ap, &error));
	pair_pump(p);
	g_assert_no_error(p->ap_error);
	assert_complete(p);
}

/* The association request asked for MFP capability; message 2's RSNE does
 * not: someone changed one of them, and the handshake fails. */
static void
test_rsne_mismatch(void)
{
	PairSetup s = psk_setup;
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = NULL;

	s.assoc_rsne = RSNE_PSK_MFPC;
	p = pair_new(&s);
	g_assert_true(wifi_authenticator_start(p->ap, &error));
	pair_pump(p);
	g_assert_cmpint(p->last_ap_rx, ==, WIFI_HANDSHAKE_RX_FAILED);
	g_assert_error(p->ap_error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH);
	g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==, WIFI_AUTHENTICATOR_STATE_FAILED);
	g_assert_cmpuint(p->ap_keys->len, ==, 0);
}

/* Frames out of place: a replayed message 2 after completion, a message 4
 * from before, a frame that does not parse, a frame an authenticator sends. */
static void
test_out_of_place(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Pair) p = pair_new(&psk_setup);
	GBytes *msg1, *msg2;
	static const guint8 junk[] = {0x02, 0x03, 0x00, 0x05, 0x02, 0x00};

	g_assert_true(wifi_authenticator_start(p->ap, &error));
	msg1 = g_queue_pop_head(&p->to_sta);
	wifi_handshake_rx(p->sta, g_bytes_get_data(msg1, NULL), g_bytes_get_size(msg1), &error);
	msg2 = g_queue_peek_head(&p->to_ap);
	g_bytes_ref(msg2);
	pair_pump(p);
	assert_complete(p);
	g_assert_cmpint(wifi_authenticator_rx(p->ap, g_bytes_get_data(msg2, NULL),
	                                      g_bytes_get_size(msg2), &error),
	                ==, WIFI_HANDSHAKE_RX_DROPPED);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	g_clear_error(&error);
	g_assert_cmpint(wifi_authenticator_rx(p->ap, g_bytes_get_data(msg1, NULL),
	                                      g_bytes_get_size(msg1), &error),
	                ==, WIFI_HANDSHAKE_RX_DROPPED);
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNEXPECTED);
	g_clear_error(&error);
	g_assert_cmpint(wifi_authenticator_rx(p->ap, junk, sizeof(junk), &error), ==,
	                WIFI_HANDSHAKE_RX_DROPPED);
	g_assert_nonnull(error);
	g_assert_cmpint(wifi_authenticator_get_state(p->ap), ==, WIFI_AUTHENTICATOR_STATE_COMPLETE);
	g_bytes_unref(msg1);
	g_bytes_unref(msg2);
}

/* A configuration without group keys of the group cipher's size, or with
 * a station RSNE that is not one element, is refused with a sentence. */
static void
test_config_refused(void)
{
	static const WifiAuthenticatorCallbacks cb = {ap_send, ap_install, NULL};
	g_autoptr(GError) error = NULL;
	WifiAuthenticatorConfig c = {0};
	WifiGroupKeys gk = {0};
	guint8 pmk[32] = {0}, rsne[] = {0x30, 0x14, 0x01};

	c.akm = WIFI_AKM_SUITE_PSK;
	c.pairwise_cipher = c.group_cipher = WIFI_CIPHER_SUITE_CCMP;
	c.pmk = pmk;
	c.pmk_len = sizeof(pmk);
	c.own_rsne = c.sta_rsne = rsne;
	c.own_rsne_len = c.sta_rsne_len = sizeof(rsne);
	c.group_keys = &gk;
	g_assert_null(wifi_authenticator_new(&c, &cb, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "group keys"));
	g_clear_error(&error);
	g_assert_true(wifi_group_keys_generate(&gk, WIFI_CIPHER_SUITE_CCMP, 0, NULL, &error));
	g_assert_null(wifi_authenticator_new(&c, &cb, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_INVALID_ARGS);
	g_assert_nonnull(strstr(error->message, "not one whole element"));
	g_clear_error(&error);
	g_assert_false(wifi_group_keys_generate(&gk, WIFI_CIPHER_SUITE_TKIP, 0, NULL, &error));
	g_assert_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_UNSUPPORTED);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ap-handshake/psk", test_psk);
	g_test_add_func("/ap-handshake/psk-sha256-mfp", test_psk_sha256_mfp);
	g_test_add_func("/ap-handshake/sae", test_sae);
	g_test_add_func("/ap-handshake/annex-j7", test_annex_j7);
	g_test_add_func("/ap-handshake/group-rekey", test_group_rekey);
	g_test_add_func("/ap-handshake/wrong-passphrase", test_wrong_passphrase);
	g_test_add_func("/ap-handshake/silent-station", test_silent_station);
	g_test_add_func("/ap-handshake/lost-msg3", test_lost_msg3);
	g_test_add_func("/ap-handshake/rsne-mismatch", test_rsne_mismatch);
	g_test_add_func("/ap-handshake/out-of-place", test_out_of_place);
	g_test_add_func("/ap-handshake/config-refused", test_config_refused);
	return g_test_run();
}
