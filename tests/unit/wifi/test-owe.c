/* test-owe.c - OWE (RFC 8110): the key derivation against known answers,
 * the Diffie-Hellman element written and read, answers refused (no element,
 * another group, a key that is no point), the next group after status 77,
 * and transition-mode pairs grouped into one open network.
 *
 * The known answers were computed independently of joind with Python's
 * `cryptography` package (ECDH on the curve, HMAC for HKDF-Extract,
 * HKDFExpand, hashlib for the PMKID) from the two private keys below:
 * client 0x1c2b3a4958677685, access point 0x0f1e2d3c4b5a6978. */
#include <string.h>

#include "bss.h"
#include "network.h"
#include "owe-transition.h"
#include "owe.h"

static const guint8 priv_client[] = {0x1c, 0x2b, 0x3a, 0x49, 0x58, 0x67, 0x76, 0x85};

typedef struct {
	guint group;
	const gchar *c, *a, *pmk, *pmkid;
} Kat;

static const Kat kats[] = {
        {19, "43062b1ec5c1eb23c8810c8735b08a26e217c0a865ce23aaa4ca5d2bcb30bee9",
         "93fab104bf7f2744e72259b0144897a50b5e1ced239ee94f82c2e24f1b382bab",
         "f52c99103244911484053137f9d87256598afe06435e4633e308f11b6e5d5350",
         "453cd976e8bbacb761184e1f347de3b8"},
        {20,
         "ba76a2f654364cc08e5a2ee327f91724a7774fcf64ac854aa1469089b1423995cd4ec305c5fe9b094308534a"
         "f310dd8a",
         "febbe3e5a02c211183d5b36c9032dfac9bd4bea42c2c9f9cb445c5076a7ff577e009330e6d2c155e5ceb924a"
         "7b0ea78d",
         "724af5285c15a838f15aeff3f43410398b3fc3df8a54094be5dd4a48737adefcd7c9661de9dca920d9604b63"
         "5e1519c6",
         "3e4ff21c013a1ee75f4f39090645c8b2"},
        {21,
         "00a28db76cb2d19ef3818322c587ac19f303c74bda663e2ada522aa2fd7fe0d3bbb8b5a622eb943f05a3eb56"
         "67fd9b760d85ff2b772191e1e5908f6d228c96ab3a3c",
         "00c82e9ff3cc782c4833033616be3eea4db663c0c83b1b02a2b2d2f426cb91641fbc029012b741e6ce12368f"
         "33b9cb254097dce752146b55fe5b304587e33d12a12c",
         "9937c13fd9632ca82f5166d9f65a66b958bb3dee86f6e5fa38a908823b149fe67663be1fecd7241317edea78"
         "67484ec0dba7c441f4ca8a6530209b7abe2519b5",
         "4aeb6bbd74d3464187fcc5d3a4fa98db"},
};

static GByteArray *
unhex(const gchar *hex)
{
	GByteArray *out = g_byte_array_new();

	for (gsize i = 0; hex[i] != '\0' && hex[i + 1] != '\0'; i += 2) {
		guint8 b = (guint8)(g_ascii_xdigit_value(hex[i]) << 4 |
		                    g_ascii_xdigit_value(hex[i + 1]));

		g_byte_array_append(out, &b, 1);
	}
	return out;
}

/* An association response's elements: supported rates, then the OWE
 * element with group and key. */
static GByteArray *
response_ies(guint group, const guint8 *key, gsize key_len)
{
	static const guint8 rates[] = {0x01, 0x04, 0x82, 0x84, 0x8b, 0x96};
	GByteArray *ies = g_byte_array_new();
	guint8 head[] = {0xff, (guint8)(3 + key_len), WIFI_OWE_DH_EXT_ID, (guint8)(group & 0xff),
	                 (guint8)(group >> 8)};

	g_byte_array_append(ies, rates, sizeof(rates));
	g_byte_array_append(ies, head, sizeof(head));
	g_byte_array_append(ies, key, (guint)key_len);
	return ies;
}

static void
test_kat(gconstpointer data)
{
	const Kat *kat = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(WifiOwe) owe =
	        wifi_owe_new_with_private(kat->group, priv_client, sizeof(priv_client), &error);
	g_autoptr(GByteArray) c = unhex(kat->c);
	g_autoptr(GByteArray) a = unhex(kat->a);
	g_autoptr(GByteArray) want_pmk = unhex(kat->pmk);
	g_autoptr(GByteArray) want_pmkid = unhex(kat->pmkid);
	g_autoptr(GByteArray) ies = NULL;
	guint8 element[WIFI_OWE_ELEMENT_MAX], pmk[WIFI_OWE_PMK_MAX], pmkid[WIFI_OWE_PMKID_LEN];
	gsize len, pmk_len = 0;

	g_assert_no_error(error);
	g_assert_cmpuint(wifi_owe_get_group(owe), ==, kat->group);
	/* Our element: extension 32, the group little endian, our x. */
	len = wifi_owe_write_element(owe, element);
	g_assert_cmpuint(len, ==, 5 + c->len);
	g_assert_cmpuint(element[0], ==, 0xff);
	g_assert_cmpuint(element[1], ==, len - 2);
	g_assert_cmpuint(element[2], ==, 32);
	g_assert_cmpuint(element[3] | element[4] << 8, ==, kat->group);
	g_assert_cmpmem(element + 5, len - 5, c->data, c->len);

	ies = response_ies(kat->group, a->data, a->len);
	g_assert_true(wifi_owe_derive(owe, ies->data, ies->len, pmk, &pmk_len, pmkid, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(pmk, pmk_len, want_pmk->data, want_pmk->len);
	g_assert_cmpmem(pmkid, sizeof(pmkid), want_pmkid->data, want_pmkid->len);
}

static void
assert_refused(WifiOwe *owe, const GByteArray *ies, gint code, const gchar *part)
{
	g_autoptr(GError) error = NULL;
	guint8 pmk[WIFI_OWE_PMK_MAX], pmkid[WIFI_OWE_PMKID_LEN];
	gsize pmk_len = 0;

	g_assert_false(wifi_owe_derive(owe, ies->data, ies->len, pmk, &pmk_len, pmkid, &error));
	g_assert_error(error, WIFI_OWE_ERROR, code);
	g_test_message("refused: %s", error->message);
	g_assert_nonnull(strstr(error->message, part));
}

static void
test_refused(void)
{
	g_autoptr(WifiOwe) owe = wifi_owe_new(19, NULL);
	g_autoptr(GByteArray) a = unhex(kats[0].a);
	g_autoptr(GByteArray) a20 = unhex(kats[1].a);
	g_autoptr(GByteArray) none = g_byte_array_new();
	g_autoptr(GByteArray) other_group = response_ies(20, a20->data, a20->len);
	g_autoptr(GByteArray) wrong_len = response_ies(19, a->data, a->len - 1);
	g_autoptr(GByteArray) above_prime = NULL;
	g_autoptr(GByteArray) short_element = NULL;
	guint8 ff[32];
	static const guint8 only_group[] = {0xff, 0x03, 32, 19, 0};

	g_assert_nonnull(owe);
	memset(ff, 0xff, sizeof(ff));
	above_prime = response_ies(19, ff, sizeof(ff));
	short_element = g_byte_array_new();
	g_byte_array_append(short_element, only_group, sizeof(only_group));

	assert_refused(owe, none, WIFI_OWE_ERROR_MISSING, "no OWE Diffie-Hellman element");
	assert_refused(owe, other_group, WIFI_OWE_ERROR_GROUP, "group 20, not in our group 19");
	assert_refused(owe, wrong_len, WIFI_OWE_ERROR_KEY, "31 octets");
	assert_refused(owe, above_prime, WIFI_OWE_ERROR_KEY, "not a point of group 19");
	assert_refused(owe, short_element, WIFI_OWE_ERROR_MALFORMED, "no public key");
}

static void
test_parse(void)
{
	static const guint8 body[] = {0x14, 0x00, 0xaa, 0xbb};
	g_autoptr(GError) error = NULL;
	const guint8 *key = NULL;
	gsize key_len = 0;
	guint group = 0;

	g_assert_true(wifi_owe_dh_parse(body, sizeof(body), &group, &key, &key_len, &error));
	g_assert_cmpuint(group, ==, 20);
	g_assert_true(key == body + 2);
	g_assert_cmpuint(key_len, ==, 2);
	g_assert_false(wifi_owe_dh_parse(body, 2, &group, &key, &key_len, &error));
	g_assert_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_MALFORMED);
	g_clear_error(&error);
	g_assert_false(wifi_owe_dh_parse(NULL, 0, &group, &key, &key_len, &error));
	g_assert_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_MALFORMED);
}

static void
test_groups(void)
{
	g_autoptr(GError) error = NULL;
	WifiOwe *owe;

	g_assert_cmpuint(wifi_owe_next_group(19), ==, 20);
	g_assert_cmpuint(wifi_owe_next_group(20), ==, 21);
	g_assert_cmpuint(wifi_owe_next_group(21), ==, 0);
	owe = wifi_owe_new(22, &error);
	g_assert_null(owe);
	g_assert_error(error, WIFI_OWE_ERROR, WIFI_OWE_ERROR_GROUP);
}

/* ---- transition mode ---- */

static const guint8 owe_bssid[6] = {0x02, 0, 0, 0, 0x05, 0x02};
static const guint8 open_bssid[6] = {0x02, 0, 0, 0, 0x05, 0x01};

static WifiBss *
make_bss(const guint8 *bssid, const gchar *ssid, gboolean owe, const gchar *names)
{
	/* RSN: CCMP, CCMP, AKM 00-0F-AC:18, MFPC and MFPR. */
	static const guint8 rsn[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	                             0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
	                             0x00, 0x0f, 0xac, 0x12, 0xc0, 0x00};
	static const guint8 wfa[] = {0x50, 0x6f, 0x9a, 0x1c};
	g_autoptr(GByteArray) ies = g_byte_array_new();
	guint8 head[2] = {0, (guint8)strlen(ssid)};
	WifiBss *bss;

	g_byte_array_append(ies, head, 2);
	g_byte_array_append(ies, (const guint8 *)ssid, (guint)strlen(ssid));
	if (owe)
		g_byte_array_append(ies, rsn, sizeof(rsn));
	if (names != NULL) {
		guint8 vendor[2] = {0xdd, (guint8)(4 + 6 + 1 + strlen(names))};
		guint8 len = (guint8)strlen(names);

		g_byte_array_append(ies, vendor, 2);
		g_byte_array_append(ies, wfa, sizeof(wfa));
		g_byte_array_append(ies, owe ? open_bssid : owe_bssid, 6);
		g_byte_array_append(ies, &len, 1);
		g_byte_array_append(ies, (const guint8 *)names, len);
	}
	bss = wifi_bss_new(bssid, 2427, -4000, owe ? WIFI_CAPABILITY_PRIVACY : 0, ies->data,
	                   ies->len, NULL);
	g_assert_nonnull(bss);
	return bss;
}

static void
test_transition(void)
{
	g_autoptr(GPtrArray) bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GHashTable) groups = NULL;
	g_autoptr(WifiBss) target = NULL;
	g_autoptr(WifiNetwork) network = NULL;
	g_autoptr(GBytes) ssid = g_bytes_new_static("cafe", 4);
	g_autofree gchar *key =
	        wifi_network_key((const guint8 *)"cafe", 4, JOIND_NETWORK_TYPE_OPEN);
	g_autofree gchar *security = NULL;
	GPtrArray *group;

	/* The hidden OWE BSS first: the open one still names the network. */
	g_ptr_array_add(bsses, make_bss(owe_bssid, "", TRUE, "cafe"));
	g_ptr_array_add(bsses, make_bss(open_bssid, "cafe", FALSE, "cafe-owe"));
	groups = wifi_group_bsses(bsses);
	g_assert_cmpuint(g_hash_table_size(groups), ==, 1);
	group = g_hash_table_lookup(groups, key);
	g_assert_nonnull(group);
	g_assert_cmpuint(group->len, ==, 2);
	g_assert_false(wifi_bss_offers_owe(g_ptr_array_index(group, 0)));

	network = wifi_network_new(ssid, JOIND_NETWORK_TYPE_OPEN);
	wifi_network_set_bsses(network, group);
	g_object_get(network, "security", &security, NULL);
	g_assert_cmpstr(security, ==, "owe");
	/* Connect() joins the OWE BSS, named as the open BSS names it. */
	g_assert_true(wifi_bss_offers_owe(g_ptr_array_index(wifi_network_get_bsses(network), 0)));
	target = wifi_owe_transition_target(wifi_network_get_bsses(network),
	                                    g_ptr_array_index(bsses, 1));
	g_assert_cmpmem(target->bssid, 6, owe_bssid, 6);
	g_assert_cmpmem(target->ies.ssid, target->ies.ssid_len, "cafe-owe", 8);
	g_assert_false(wifi_bss_is_hidden(target));
}

/* An open BSS naming an OWE BSS that was not seen stays a plain open BSS;
 * an OWE BSS whose SSID differs from the one named is a network of its
 * own. */
static void
test_transition_unpaired(void)
{
	g_autoptr(GPtrArray) bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_autoptr(GHashTable) groups = NULL;
	g_autoptr(WifiBss) target = NULL;

	g_ptr_array_add(bsses, make_bss(open_bssid, "cafe", FALSE, "cafe-owe"));
	target = wifi_owe_transition_target(bsses, g_ptr_array_index(bsses, 0));
	g_assert_true(target == g_ptr_array_index(bsses, 0));
	g_ptr_array_add(bsses, make_bss(owe_bssid, "elsewhere", TRUE, NULL));
	g_assert_null(wifi_owe_transition_find_open(bsses, g_ptr_array_index(bsses, 1)));
	groups = wifi_group_bsses(bsses);
	g_assert_cmpuint(g_hash_table_size(groups), ==, 2);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(kats); i++) {
		g_autofree gchar *path = g_strdup_printf("/wifi/owe/kat/group-%u", kats[i].group);

		g_test_add_data_func(path, &kats[i], test_kat);
	}
	g_test_add_func("/wifi/owe/refused", test_refused);
	g_test_add_func("/wifi/owe/parse", test_parse);
	g_test_add_func("/wifi/owe/groups", test_groups);
	g_test_add_func("/wifi/owe/transition", test_transition);
	g_test_add_func("/wifi/owe/transition-unpaired", test_transition_unpaired);
	return g_test_run();
}
