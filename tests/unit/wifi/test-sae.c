/* test-sae.c - SAE: known answers from IEEE 802.11-2020 Annex J.10 (as
 * hostapd's and iwd's unit tests publish them), then joind's SAE against
 * itself for groups 19, 20 and 21 with either password element method,
 * and what it must refuse: another password, reflected commits, scalars
 * and elements out of range, groups not offered, anti-clogging, silence. */
#include <string.h>

#include <gio/gio.h>

#include "sae-crypto.h"
#include "sae.h"

static guint8 *
hex(const gchar *text, gsize *len)
{
	gsize n = strlen(text) / 2;
	guint8 *out = g_malloc(n);

	for (gsize i = 0; i < n; i++)
		out[i] = (guint8)((g_ascii_xdigit_value(text[2 * i]) << 4) |
		                  g_ascii_xdigit_value(text[2 * i + 1]));
	if (len != NULL)
		*len = n;
	return out;
}

static void
assert_octets(const guint8 *data, gsize len, const gchar *expected)
{
	gsize n;
	g_autofree guint8 *want = hex(expected, &n);

	g_assert_cmpmem(data, len, want, n);
}

static void
assert_point(JoindEcGroup *group, const EC_POINT *point, const gchar *expected)
{
	guint8 out[2 * JOIND_EC_MAX_PRIME_LEN];
	g_autoptr(GError) error = NULL;

	g_assert_nonnull(point);
	g_assert_true(joind_ec_group_point_to_octets(group, point, out, &error));
	assert_octets(out, 2 * joind_ec_group_get_prime_len(group), expected);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(BIGNUM, BN_free)

static BIGNUM *
bn(const gchar *text)
{
	gsize n;
	g_autofree guint8 *data = hex(text, &n);

	return BN_bin2bn(data, (int)n, NULL);
}

/* ---- Annex J.10: hunting and pecking with a password identifier ---- */

static const guint8 j10_a[6] = {0x82, 0x7b, 0x91, 0x9d, 0xd4, 0xb9};
static const guint8 j10_b[6] = {0x1e, 0xec, 0x49, 0xea, 0x64, 0x88};
#define J10_PASSWORD "mekmitasdigoat"
#define J10_ID       "psk4internet"
#define J10_ID_ELEMENT \
	"ff0d21"       \
	"70736b34696e7465726e6574"
#define J10_RAND "a906f61e4d3a5d4eb2965ff34cf917dd044445c878c17ca5d5b93786da9f83cf"
#define J10_MASK "4234b4fb17aa435c52fbfdebe64039b43478200e54ff7b6e07b69cad74153c15"
#define J10_LOCAL_COMMIT                                                               \
	"1300eb3bab1964e4a0ab05925ddf33395191"                                         \
	"38bc65d6cdc0f813dd6fd4344eb4bfe44b5c2159"                                     \
	"7658f4e3eddfb4b99f25b4d6540f32ff1fd5c530c60a794448610bc6de3d92bdbbd47d935980" \
	"ca6cf8988ab6630be6764c885ceb9793970f695217ee" J10_ID_ELEMENT
#define J10_PEER_COMMIT                                                                \
	"13005564f045b2ea1e566cf1dd741f70d9be35d2df5b9a5502946ee03cf8dae27e1e05b8430e" \
	"b7a99e24877ce69baf3dc580e309633d6b385f83ee1c3ec3591f1a5393c06e805ddceb2fde50" \
	"930dd7cfebb987c6ff9666af164eb5184d8e6662ed6a" J10_ID_ELEMENT
#define J10_KCK           "599d6f1e27548be8499dceed2feccf94818ce1c79f1b4eb3d6a53228a09bf3ed"
#define J10_PMK           "7aead86fba4c3221fc437f5f14d70d854ea5d5aac1690116793081eda4d557c5"
#define J10_PMKID         "40a09b6017cebf0072843b5352aa2b4f"
#define J10_LOCAL_CONFIRM "010012d9d5c78c500526d36c41dbc56aedf2914cedddd7cad4a58c48f83dbde9fc77"
#define J10_PEER_CONFIRM  "010002871cf906898b8060ec184143be77b8c08a8019b13eb6d0aef0d8383dfac2fd"

typedef struct {
	JoindEcGroup *group;
	guint8 scalar[32], element[64];
	BIGNUM *rand, *own_scalar;
	EC_POINT *pwe;
} J10Local;

/* The station's commit from the published rand and mask. */
static void
j10_local_commit(J10Local *l)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GByteArray) body = g_byte_array_new();
	g_autoptr(BIGNUM) mask = bn(J10_MASK);
	EC_POINT *element;
	guint rounds = 0;
	WifiSaeCommit commit = {.group = 19,
	                        .identifier = (const guint8 *)J10_ID,
	                        .identifier_len = strlen(J10_ID)};

	l->group = joind_ec_group_new(19, &error);
	g_assert_nonnull(l->group);
	l->pwe = wifi_sae_pwe_hunt(l->group, j10_a, j10_b, (const guint8 *)J10_PASSWORD,
	                           strlen(J10_PASSWORD), J10_ID, &rounds, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(rounds, >=, 1);
	l->rand = bn(J10_RAND);
	l->own_scalar = BN_new();
	element = EC_POINT_new(joind_ec_group_get_curve(l->group));
	g_assert_true(joind_ec_group_commit(l->group, l->pwe, l->rand, mask, l->own_scalar, element,
	                                    &error));
	g_assert_true(joind_ec_group_scalar_to_octets(l->group, l->own_scalar, l->scalar, &error));
	g_assert_true(joind_ec_group_point_to_octets(l->group, element, l->element, &error));
	EC_POINT_free(element);
	commit.scalar = l->scalar;
	commit.element = l->element;
	wifi_sae_commit_build(body, &commit, FALSE, 32, 64);
	assert_octets(body->data, body->len, J10_LOCAL_COMMIT);
}

static void
test_j10_hunting_and_pecking(void)
{
	g_autoptr(GError) error = NULL;
	gsize peer_len;
	g_autofree guint8 *peer = hex(J10_PEER_COMMIT, &peer_len);
	guint8 k[32], kck[WIFI_SAE_MAX_HASH_LEN], pmk[32], pmkid[16], confirm[32];
	WifiSaeCommit commit;
	J10Local l = {0};
	BIGNUM *peer_scalar;
	EC_POINT *peer_element;

	j10_local_commit(&l);
	g_assert_true(wifi_sae_commit_parse(peer, peer_len, FALSE, 0, &commit, &error));
	g_assert_cmpmem(commit.identifier, commit.identifier_len, J10_ID, strlen(J10_ID));
	peer_scalar = joind_ec_group_scalar_from_octets(l.group, commit.scalar, 32, &error);
	peer_element = joind_ec_group_point_from_octets(l.group, commit.element, 64, &error);
	g_assert_no_error(error);
	g_assert_true(joind_ec_group_shared_secret(l.group, l.pwe, l.rand, peer_scalar,
	                                           peer_element, k, &error));
	g_assert_true(wifi_sae_derive_keys(l.group, FALSE, NULL, 0, k, l.own_scalar, peer_scalar,
	                                   kck, pmk, pmkid, &error));
	assert_octets(kck, 32, J10_KCK);
	assert_octets(pmk, 32, J10_PMK);
	assert_octets(pmkid, 16, J10_PMKID);
	g_assert_true(wifi_sae_confirm_compute(l.group, kck, 32, 1, l.scalar, l.element,
	                                       commit.scalar, commit.element, confirm, &error));
	assert_octets(confirm, 32, J10_LOCAL_CONFIRM + 4);
	/* The peer's confirm, from its side (send-confirm 1). */
	g_assert_true(wifi_sae_confirm_compute(l.group, kck, 32, 1, commit.scalar, commit.element,
	                                       l.scalar, l.element, confirm, &error));
	assert_octets(confirm, 32, J10_PEER_CONFIRM + 4);
	BN_free(peer_scalar);
	EC_POINT_free(peer_element);
	BN_free(l.rand);
	BN_free(l.own_scalar);
	EC_POINT_free(l.pwe);
	joind_ec_group_free(l.group);
}

/* ---- Annex J.10: hash-to-element, group 19 ---- */

#define H2E_U1 "dc941bc3c6a2b4948b6c61d55590ecb1f0c51c4b1bebaff677e593698d5a53c6"
#define H2E_P1                                                             \
	"a07c260764a13445ff8cd97c5acc644e7119bde51bad42583eed6f4109639e6b" \
	"3bdc8df0d32337936c74df604933a454142251c53c576c0351b28deaf9428d7e"
#define H2E_PT                                                             \
	"b6e38c98750c684b5d17c3d8c9a4100b39931279187ca6cced5f37ef46ddfa97" \
	"5687e972e50f73e3898861e7edad21bea7d5f622df88243bb804920ae8e647fa"
#define H2E_PWE                                                            \
	"c93049b9e64000f848201649e999f2b5c22dea69b5632c9df4d633b8aa1f6c1e" \
	"73634e94b53d82e7383a8d258199d9dc1a5ee8269d060382ccbf33e614ff59a0"

static void
test_j10_hash_to_element(void)
{
	static const guint8 a[6] = {0x00, 0x09, 0x5b, 0x66, 0xec, 0x1e};
	static const guint8 b[6] = {0x00, 0x0b, 0x6b, 0xd9, 0x02, 0x46};
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindEcGroup) group = joind_ec_group_new(19, &error);
	g_autoptr(BIGNUM) u1 = bn(H2E_U1);
	EC_POINT *p1 = wifi_sae_sswu(group, u1, &error);
	EC_POINT *pt, *pwe;

	assert_point(group, p1, H2E_P1);
	pt = wifi_sae_derive_pt(group, (const guint8 *)"byteme", 6, (const guint8 *)J10_PASSWORD,
	                        strlen(J10_PASSWORD), J10_ID, &error);
	g_assert_no_error(error);
	assert_point(group, pt, H2E_PT);
	pwe = wifi_sae_pwe_from_pt(group, pt, a, b, &error);
	assert_point(group, pwe, H2E_PWE);
	EC_POINT_free(pwe);
	/* The addresses in either order. */
	pwe = wifi_sae_pwe_from_pt(group, pt, b, a, &error);
	assert_point(group, pwe, H2E_PWE);
	EC_POINT_free(pwe);
	EC_POINT_free(pt);
	EC_POINT_free(p1);
}

/* ---- joind's SAE against itself ---- */

typedef struct _Side Side;
struct _Side {
	const gchar *name;
	WifiSae *sae;
	Side *peer;
	GQueue *wire; /* GBytes the other side has not read yet */
	gboolean done;
	GError *error;
	guint sent;
};

static void
side_send(const guint8 *data, gsize len, gpointer user_data)
{
	Side *side = user_data;

	g_assert_cmpuint(len, >=, 4);
	side->sent++;
	g_queue_push_tail(side->wire, g_bytes_new(data, len));
}

static void
side_done(const GError *error, gpointer user_data)
{
	Side *side = user_data;

	side->done = TRUE;
	if (error != NULL)
		side->error = g_error_copy(error);
}

static void
deliver(Side *to, GBytes *frame)
{
	gsize len;
	const guint8 *d = g_bytes_get_data(frame, &len);

	wifi_sae_rx(to->sae, (guint16)(d[0] | (d[1] << 8)), (guint16)(d[2] | (d[3] << 8)), d + 4,
	            len - 4);
}

/* Delivers every frame in flight, in order, until the wires are empty. */
static void
pump(Side *a, Side *b)
{
	while (!g_queue_is_empty(a->wire) || !g_queue_is_empty(b->wire)) {
		Side *from = !g_queue_is_empty(a->wire) ? a : b;
		g_autoptr(GBytes) frame = g_queue_pop_head(from->wire);

		deliver(from->peer, frame);
	}
}

static void
side_init(Side *side, const gchar *name, const guint8 own[6], const guint8 peer[6],
          const gchar *password, const guint *groups, guint n_groups, gboolean h2e,
          WifiSaePtCache *pts)
{
	WifiSaeConfig config = {
	        .password = (const guint8 *)password,
	        .password_len = strlen(password),
	        .ssid = (const guint8 *)"joind-sae",
	        .ssid_len = 9,
	        .groups = groups,
	        .n_groups = n_groups,
	        .h2e = h2e,
	        .pts = pts,
	        .retrans_ms = 10,
	        .send = side_send,
	        .done = side_done,
	        .user_data = side,
	};
	g_autoptr(GError) error = NULL;

	memset(side, 0, sizeof(*side));
	side->name = name;
	side->wire = g_queue_new();
	memcpy(config.own_addr, own, 6);
	memcpy(config.peer_addr, peer, 6);
	side->sae = wifi_sae_new(&config, &error);
	g_assert_no_error(error);
}

static void
side_clear(Side *side)
{
	g_queue_free_full(side->wire, (GDestroyNotify)g_bytes_unref);
	g_clear_pointer(&side->sae, wifi_sae_free);
	g_clear_error(&side->error);
}

static const guint8 sta_addr[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};
static const guint8 ap_addr[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x00};

static void
pair_init(Side *sta, Side *ap, const gchar *sta_password, const gchar *ap_password,
          const guint *sta_groups, guint n_sta, const guint *ap_groups, guint n_ap, gboolean h2e)
{
	side_init(sta, "station", sta_addr, ap_addr, sta_password, sta_groups, n_sta, h2e, NULL);
	side_init(ap, "access point", ap_addr, sta_addr, ap_password, ap_groups, n_ap, h2e, NULL);
	sta->peer = ap;
	ap->peer = sta;
}

static void
test_exchange(gconstpointer data)
{
	guint group = GPOINTER_TO_UINT(data) & 0xff;
	gboolean h2e = (GPOINTER_TO_UINT(data) & 0x100) != 0;
	Side sta, ap;

	pair_init(&sta, &ap, "correct horse", "correct horse", &group, 1, &group, 1, h2e);
	wifi_sae_start(sta.sae);
	pump(&sta, &ap);
	g_assert_no_error(sta.error);
	g_assert_no_error(ap.error);
	g_assert_cmpint(wifi_sae_get_state(sta.sae), ==, WIFI_SAE_ACCEPTED);
	g_assert_cmpint(wifi_sae_get_state(ap.sae), ==, WIFI_SAE_ACCEPTED);
	g_assert_cmpuint(wifi_sae_get_group(sta.sae), ==, group);
	g_assert_cmpmem(wifi_sae_get_pmk(sta.sae), WIFI_SAE_PMK_LEN, wifi_sae_get_pmk(ap.sae),
	                WIFI_SAE_PMK_LEN);
	/* commit and confirm each */
	g_assert_cmpuint(sta.sent, ==, 2);
	g_assert_cmpuint(ap.sent, ==, 2);
	side_clear(&sta);
	side_clear(&ap);
}

/* One H2E exchange of a station keeping its PTs in pts against an access
 * point; both end with the same PMK and PMKID. */
static void
pt_exchange(WifiSaePtCache *pts, const gchar *sta_password, gboolean accepted)
{
	static const guint group = 19;
	Side sta, ap;

	side_init(&sta, "station", sta_addr, ap_addr, sta_password, &group, 1, TRUE, pts);
	side_init(&ap, "access point", ap_addr, sta_addr, "correct horse", &group, 1, TRUE, NULL);
	sta.peer = &ap;
	ap.peer = &sta;
	wifi_sae_start(sta.sae);
	pump(&sta, &ap);
	g_assert_cmpint(wifi_sae_get_state(sta.sae) == WIFI_SAE_ACCEPTED, ==, accepted);
	if (accepted)
		g_assert_cmpmem(wifi_sae_get_pmkid(sta.sae), WIFI_SAE_PMKID_LEN,
		                wifi_sae_get_pmkid(ap.sae), WIFI_SAE_PMKID_LEN);
	else
		g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_CONFIRM_MISMATCH);
	side_clear(&sta);
	side_clear(&ap);
}

/* The PT derived once is kept (the one wifi_sae_derive_pt() gives) and
 * serves the next exchange; one that does not fit the password fails the
 * confirm. */
static void
test_pt_cache(void)
{
	g_autoptr(WifiSaePtCache) pts = wifi_sae_pt_cache_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindEcGroup) group = joind_ec_group_new(19, &error);
	EC_POINT *pt = wifi_sae_derive_pt(group, (const guint8 *)"joind-sae", 9,
	                                  (const guint8 *)"correct horse", 13, NULL, &error);
	guint8 want[64], right[64];
	gsize len = 0;

	g_assert_no_error(error);
	g_assert_true(joind_ec_group_point_to_octets(group, pt, want, &error));
	g_assert_null(wifi_sae_pt_cache_lookup(pts, 19, &len));
	pt_exchange(pts, "correct horse", TRUE);
	g_assert_cmpmem(wifi_sae_pt_cache_lookup(pts, 19, &len), len, want, sizeof(want));
	memcpy(right, want, sizeof(right));
	pt_exchange(pts, "correct horse", TRUE);
	/* Another password's PT, kept under this one's name. */
	EC_POINT_free(pt);
	pt = wifi_sae_derive_pt(group, (const guint8 *)"joind-sae", 9, (const guint8 *)"other", 5,
	                        NULL, &error);
	g_assert_true(joind_ec_group_point_to_octets(group, pt, want, &error));
	wifi_sae_pt_cache_store(pts, 19, want, sizeof(want));
	pt_exchange(pts, "correct horse", FALSE);
	/* Not a point of the group: derived anew. */
	memset(want, 0xff, sizeof(want));
	wifi_sae_pt_cache_store(pts, 19, want, sizeof(want));
	pt_exchange(pts, "correct horse", TRUE);
	g_assert_cmpmem(wifi_sae_pt_cache_lookup(pts, 19, &len), len, right, sizeof(right));
	EC_POINT_free(pt);
}

static void
test_wrong_password(void)
{
	static const guint group = 19;
	Side sta, ap;

	pair_init(&sta, &ap, "correct horse", "battery staple", &group, 1, &group, 1, TRUE);
	wifi_sae_start(sta.sae);
	pump(&sta, &ap);
	g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_CONFIRM_MISMATCH);
	g_assert_error(ap.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_CONFIRM_MISMATCH);
	g_assert_null(wifi_sae_get_pmk(sta.sae));
	g_assert_cmpint(wifi_sae_get_state(sta.sae), ==, WIFI_SAE_NOTHING);
	side_clear(&sta);
	side_clear(&ap);
}

/* The station's first commit, taken off the wire. */
static GBytes *
first_commit(Side *sta)
{
	wifi_sae_start(sta->sae);
	g_assert_cmpuint(g_queue_get_length(sta->wire), ==, 1);
	return g_queue_pop_head(sta->wire);
}

static void
test_reflection(void)
{
	static const guint group = 19;
	Side sta, ap;
	g_autoptr(GBytes) commit = NULL;

	pair_init(&sta, &ap, "pw", "pw", &group, 1, &group, 1, FALSE);
	commit = first_commit(&sta);
	deliver(&sta, commit);
	g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_INVALID);
	g_assert_nonnull(strstr(sta.error->message, "reflection"));
	g_assert_true(g_queue_is_empty(sta.wire));
	side_clear(&sta);
	side_clear(&ap);
}

/* The peer's commit with one part replaced, then the station's error. */
static void
run_bad_commit(gsize offset, const gchar *replacement, const gchar *fragment)
{
	static const guint group = 19;
	Side sta, ap;
	g_autoptr(GBytes) commit = NULL;
	g_autoptr(GBytes) answer = NULL;
	gsize len, rlen;
	guint8 *frame;
	g_autofree guint8 *r = hex(replacement, &rlen);

	pair_init(&sta, &ap, "pw", "pw", &group, 1, &group, 1, FALSE);
	commit = first_commit(&sta);
	deliver(&ap, commit);
	answer = g_queue_pop_head(ap.wire);
	frame = g_bytes_unref_to_data(g_steal_pointer(&answer), &len);
	memcpy(frame + 4 + 2 + offset, r, rlen);
	answer = g_bytes_new_take(frame, len);
	deliver(&sta, answer);
	g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_INVALID);
	g_assert_nonnull(strstr(sta.error->message, fragment));
	side_clear(&sta);
	side_clear(&ap);
}

#define P256_ORDER "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
#define P256_PRIME "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff"

static void
test_invalid_commit(void)
{
	g_autofree gchar *zero = g_strnfill(64, '0');
	g_autofree gchar *one = g_strdup(zero);

	one[63] = '1';

	run_bad_commit(0, zero, "scalar is not between 1 and the group order");
	run_bad_commit(0, one, "scalar is not between 1 and the group order");
	run_bad_commit(0, P256_ORDER, "scalar is not between 1 and the group order");
	run_bad_commit(32, P256_PRIME, "not below the prime");
	run_bad_commit(32 + 32, zero, "not on the curve");
}

static void
test_group_not_offered(void)
{
	static const guint g19 = 19, g20 = 20;
	Side sta, ap;

	/* The access point answers with a group the station did not offer. */
	pair_init(&sta, &ap, "pw", "pw", &g19, 1, &g20, 1, FALSE);
	wifi_sae_start(sta.sae);
	g_queue_clear_full(sta.wire, (GDestroyNotify)g_bytes_unref);
	{
		g_autoptr(GBytes) c = NULL;
		Side other;

		side_init(&other, "other", ap_addr, sta_addr, "pw", &g20, 1, FALSE, NULL);
		wifi_sae_start(other.sae);
		c = g_queue_pop_head(other.wire);
		deliver(&sta, c);
		side_clear(&other);
	}
	g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP);
	g_assert_nonnull(strstr(sta.error->message, "group 20"));
	side_clear(&sta);
	side_clear(&ap);
	/* The station offers only groups the access point does not take. */
	pair_init(&sta, &ap, "pw", "pw", &g19, 1, &g20, 1, FALSE);
	wifi_sae_start(sta.sae);
	pump(&sta, &ap);
	g_assert_error(ap.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP);
	side_clear(&sta);
	side_clear(&ap);
}

static GBytes *
refusal(guint16 status, const guint8 *body, gsize len)
{
	GByteArray *frame = g_byte_array_new();
	guint8 head[4] = {1, 0, (guint8)status, (guint8)(status >> 8)};

	g_byte_array_append(frame, head, 4);
	g_byte_array_append(frame, body, (guint)len);
	return g_byte_array_free_to_bytes(frame);
}

/* Status 77: the station offers its next group, naming the refused one
 * in H2E's rejected groups; the exchange then succeeds in group 20. */
static void
test_group_refused(void)
{
	static const guint sta_groups[] = {19, 20}, ap_group = 20;
	static const guint8 g19[2] = {19, 0};
	g_autoptr(GBytes) commit = NULL;
	g_autoptr(GBytes) no = refusal(77, g19, 2);
	g_autoptr(GError) error = NULL;
	WifiSaeCommit parsed;
	gsize len;
	const guint8 *d;
	Side sta, ap;

	pair_init(&sta, &ap, "pw", "pw", sta_groups, 2, &ap_group, 1, TRUE);
	commit = first_commit(&sta);
	deliver(&sta, no);
	g_assert_no_error(sta.error);
	d = g_bytes_get_data(g_queue_peek_head(sta.wire), &len);
	g_assert_true(wifi_sae_commit_parse(d + 4, len - 4, TRUE, 0, &parsed, &error));
	g_assert_cmpuint(parsed.group, ==, 20);
	g_assert_cmpmem(parsed.rejected, parsed.rejected_len, g19, 2);
	pump(&sta, &ap);
	g_assert_no_error(sta.error);
	g_assert_no_error(ap.error);
	g_assert_cmpuint(wifi_sae_get_group(sta.sae), ==, 20);
	g_assert_cmpmem(wifi_sae_get_pmk(sta.sae), WIFI_SAE_PMK_LEN, wifi_sae_get_pmk(ap.sae),
	                WIFI_SAE_PMK_LEN);
	side_clear(&sta);
	side_clear(&ap);
}

/* Status 76: the same commit again, with the token (after the group, or
 * in its container element with H2E). */
static void
test_anti_clogging(gconstpointer data)
{
	static const guint group = 19;
	static const guint8 token_only[] = {19, 0, 't', 'o', 'k', 'e', 'n'};
	static const guint8 token_h2e[] = {19, 0, 0xff, 6, 93, 't', 'o', 'k', 'e', 'n'};
	gboolean h2e = GPOINTER_TO_INT(data);
	g_autoptr(GBytes) first = NULL;
	g_autoptr(GBytes) ask = h2e ? refusal(76, token_h2e, sizeof(token_h2e))
	                            : refusal(76, token_only, sizeof(token_only));
	g_autoptr(GError) error = NULL;
	WifiSaeCommit a, b;
	gsize len1, len2;
	const guint8 *d1, *d2;
	Side sta, ap;

	pair_init(&sta, &ap, "pw", "pw", &group, 1, &group, 1, h2e);
	first = first_commit(&sta);
	deliver(&sta, ask);
	g_assert_no_error(sta.error);
	g_assert_cmpint(wifi_sae_get_state(sta.sae), ==, WIFI_SAE_COMMITTED);
	d1 = g_bytes_get_data(first, &len1);
	d2 = g_bytes_get_data(g_queue_peek_head(sta.wire), &len2);
	g_assert_cmpuint(len2, ==, len1 + (h2e ? 8 : 5));
	g_assert_true(wifi_sae_commit_parse(d1 + 4, len1 - 4, h2e, 0, &a, &error));
	g_assert_true(wifi_sae_commit_parse(d2 + 4, len2 - 4, h2e, 5, &b, &error));
	g_assert_cmpmem(b.token, b.token_len, "token", 5);
	g_assert_cmpmem(a.scalar, 32, b.scalar, 32);
	g_assert_cmpmem(a.element, 64, b.element, 64);
	side_clear(&sta);
	side_clear(&ap);
}

/* No answer: the commit is resent WIFI_SAE_MAX_SYNC times, then the
 * exchange fails. */
static void
test_retransmission(void)
{
	static const guint group = 19;
	Side sta, ap;

	pair_init(&sta, &ap, "pw", "pw", &group, 1, &group, 1, FALSE);
	wifi_sae_start(sta.sae);
	while (!sta.done)
		g_main_context_iteration(NULL, TRUE);
	g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_TIMED_OUT);
	g_assert_cmpuint(sta.sent, ==, 1 + WIFI_SAE_MAX_SYNC);
	side_clear(&sta);
	side_clear(&ap);
}

/* The peer's commit comes, its confirm never: the confirm is resent, then
 * the exchange fails as the password's, maybe. */
static void
test_no_confirm(void)
{
	static const guint group = 19;
	g_autoptr(GBytes) commit = NULL;
	g_autoptr(GBytes) ap_commit = NULL;
	Side sta, ap;

	pair_init(&sta, &ap, "pw", "pw", &group, 1, &group, 1, FALSE);
	commit = first_commit(&sta);
	deliver(&ap, commit);
	ap_commit = g_queue_pop_head(ap.wire);
	deliver(&sta, ap_commit);
	while (!sta.done)
		g_main_context_iteration(NULL, TRUE);
	g_assert_error(sta.error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_NO_CONFIRM);
	/* commit, then the confirm 1 + WIFI_SAE_MAX_SYNC times */
	g_assert_cmpuint(sta.sent, ==, 2 + WIFI_SAE_MAX_SYNC);
	side_clear(&sta);
	side_clear(&ap);
}

/* A lost confirm: the access point resends its commit; the station
 * answers with its confirm again and both accept. */
static void
test_lost_confirm(void)
{
	static const guint group = 19;
	g_autoptr(GBytes) commit = NULL;
	Side sta, ap;

	pair_init(&sta, &ap, "pw", "pw", &group, 1, &group, 1, TRUE);
	commit = first_commit(&sta);
	deliver(&ap, commit);
	{
		g_autoptr(GBytes) ap_commit = g_queue_pop_head(ap.wire);
		g_autoptr(GBytes) ap_confirm = g_queue_pop_head(ap.wire);

		deliver(&sta, ap_commit);
		g_queue_clear_full(sta.wire, (GDestroyNotify)g_bytes_unref); /* lost */
		deliver(&sta, ap_commit);
		/* commit and confirm again (12.4.8.6.5) */
		g_assert_cmpuint(g_queue_get_length(sta.wire), ==, 2);
		deliver(&sta, ap_confirm);
	}
	pump(&sta, &ap);
	g_assert_no_error(sta.error);
	g_assert_no_error(ap.error);
	g_assert_cmpint(wifi_sae_get_state(sta.sae), ==, WIFI_SAE_ACCEPTED);
	g_assert_cmpint(wifi_sae_get_state(ap.sae), ==, WIFI_SAE_ACCEPTED);
	side_clear(&sta);
	side_clear(&ap);
}

/* ---- the parsers ---- */

static void
test_parse_malformed(void)
{
	static const guint8 short_commit[] = {19, 0, 1, 2, 3};
	static const guint8 group_1[] = {1, 0};
	static const guint8 short_confirm[] = {1, 0, 2};
	g_autofree guint8 *peer = NULL;
	g_autoptr(GError) error = NULL;
	WifiSaeCommit commit;
	WifiSaeConfirm confirm;
	gsize len;

	g_assert_false(wifi_sae_commit_parse(short_commit, sizeof(short_commit), FALSE, 0, &commit,
	                                     &error));
	g_assert_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_false(wifi_sae_commit_parse(group_1, sizeof(group_1), FALSE, 0, &commit, &error));
	g_assert_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP);
	g_clear_error(&error);
	/* the password identifier element cut short */
	peer = hex(J10_PEER_COMMIT, &len);
	g_assert_false(wifi_sae_commit_parse(peer, len - 1, FALSE, 0, &commit, &error));
	g_assert_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_false(
	        wifi_sae_confirm_parse(short_confirm, sizeof(short_confirm), 32, &confirm, &error));
	g_assert_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_false(wifi_sae_token_parse(group_1, sizeof(group_1), FALSE, &(guint16){0},
	                                    &(const guint8 *){NULL}, &len, &error));
	g_assert_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_MALFORMED);
}

int
main(int argc, char **argv)
{
	static const guint groups[] = {19, 20, 21};

	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sae/j10/hunting-and-pecking", test_j10_hunting_and_pecking);
	g_test_add_func("/sae/j10/hash-to-element", test_j10_hash_to_element);
	for (guint i = 0; i < G_N_ELEMENTS(groups); i++) {
		for (guint h2e = 0; h2e <= 1; h2e++) {
			g_autofree gchar *path =
			        g_strdup_printf("/sae/exchange/%u/%s", groups[i],
			                        h2e ? "h2e" : "hunting-and-pecking");

			g_test_add_data_func(path, GUINT_TO_POINTER(groups[i] | (h2e << 8)),
			                     test_exchange);
		}
	}
	g_test_add_func("/sae/wrong-password", test_wrong_password);
	g_test_add_func("/sae/pt-cache", test_pt_cache);
	g_test_add_func("/sae/reflection", test_reflection);
	g_test_add_func("/sae/invalid-commit", test_invalid_commit);
	g_test_add_func("/sae/group-not-offered", test_group_not_offered);
	g_test_add_func("/sae/group-refused", test_group_refused);
	g_test_add_data_func("/sae/anti-clogging/hunting-and-pecking", GINT_TO_POINTER(FALSE),
	                     test_anti_clogging);
	g_test_add_data_func("/sae/anti-clogging/h2e", GINT_TO_POINTER(TRUE), test_anti_clogging);
	g_test_add_func("/sae/retransmission", test_retransmission);
	g_test_add_func("/sae/no-confirm", test_no_confirm);
	g_test_add_func("/sae/lost-confirm", test_lost_confirm);
	g_test_add_func("/sae/parse-malformed", test_parse_malformed);
	return g_test_run();
}
