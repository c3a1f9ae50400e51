/* test-diagnostics.c - the link facts of Daemon1.GetDiagnostics(): the
 * JSON built from a fake connection record, and NL80211_ATTR_STA_INFO
 * parsing (well-formed, truncated, wrong sizes). Asking the kernel:
 * test-diagnostics-async.c. */
#include <json-glib/json-glib.h>
#include <linux/nl80211.h>
#include <netlink/attr.h>
#include <string.h>

#include "diagnostics.h"
#include "rsn-suites.h"

static JsonObject *
to_json(GVariant *v, JsonNode **holder)
{
	g_variant_ref_sink(v);
	*holder = json_gvariant_serialize(v);
	g_variant_unref(v);
	g_assert_true(JSON_NODE_HOLDS_OBJECT(*holder));
	return json_node_get_object(*holder);
}

static void
test_connection_psk(void)
{
	WifiConnectionInfo info = {
	        .bssid = {0x02, 0x00, 0x00, 0x00, 0x6a, 0x01},
	        .freq = 2452,
	        .akm = WIFI_AKM_SUITE_PSK,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .connect_started_real = G_GINT64_CONSTANT(1700000000) * G_USEC_PER_SEC + 250000,
	        .connected_mono = 10 * G_USEC_PER_SEC,
	        .has_sta = TRUE,
	        .sta = {.has_signal = TRUE,
	                .signal_dbm = -31,
	                .has_bytes = TRUE,
	                .rx_bytes = 5,
	                .tx_bytes = 7},
	};
	g_autoptr(JsonNode) node = NULL;
	JsonObject *o =
	        to_json(wifi_diagnostics_connection(&info, 52 * G_USEC_PER_SEC + 999), &node);

	g_assert_cmpstr(json_object_get_string_member(o, "bssid"), ==, "02:00:00:00:6a:01");
	g_assert_cmpint(json_object_get_int_member(o, "frequency"), ==, 2452);
	g_assert_cmpint(json_object_get_int_member(o, "channel"), ==, 9);
	g_assert_cmpint(json_object_get_int_member(o, "rssi_dbm"), ==, -31);
	g_assert_false(json_object_has_member(o, "rssi_avg_dbm"));
	g_assert_cmpstr(json_object_get_string_member(o, "security"), ==, "psk");
	g_assert_cmpstr(json_object_get_string_member(o, "pairwise_cipher"), ==, "CCMP-128");
	g_assert_cmpstr(json_object_get_string_member(o, "group_cipher"), ==, "CCMP-128");
	g_assert_false(json_object_get_boolean_member(o, "mfp"));
	g_assert_false(json_object_has_member(o, "group_mgmt_cipher"));
	g_assert_cmpint(json_object_get_int_member(o, "connected_seconds"), ==, 42);
	g_assert_cmpint(json_object_get_int_member(o, "connect_started_unix"), ==, 1700000000);
	g_assert_cmpstr(json_object_get_string_member(o, "connect_started"), ==,
	                "2023-11-14T22:13:20Z");
	g_assert_cmpint(json_object_get_int_member(o, "rx_bytes"), ==, 5);
	g_assert_cmpint(json_object_get_int_member(o, "tx_bytes"), ==, 7);
	g_assert_false(json_object_has_member(o, "eap_method"));
	g_assert_false(json_object_has_member(o, "pmksa_cached"));
}

static void
test_connection_open_no_kernel_facts(void)
{
	WifiConnectionInfo info = {
	        .bssid = {0x02, 0x00, 0x00, 0x00, 0x6a, 0x02},
	        .freq = 5180,
	        .connected_mono = 100 * G_USEC_PER_SEC,
	};
	g_autoptr(JsonNode) node = NULL;
	/* A clock read before the link came up never makes a negative time. */
	JsonObject *o = to_json(wifi_diagnostics_connection(&info, 0), &node);

	g_assert_cmpint(json_object_get_int_member(o, "channel"), ==, 36);
	g_assert_cmpstr(json_object_get_string_member(o, "security"), ==, "open");
	g_assert_cmpstr(json_object_get_string_member(o, "pairwise_cipher"), ==, "none");
	g_assert_false(json_object_has_member(o, "rssi_dbm"));
	g_assert_false(json_object_has_member(o, "sae_group"));
	g_assert_cmpint(json_object_get_int_member(o, "connected_seconds"), ==, 0);
}

/* 802.1X: the method, the identity sent in the clear, whether a cached
 * PMKSA stood in for EAP; none of it for a PSK link (above). */
static void
test_connection_eap(void)
{
	WifiConnectionInfo info = {
	        .freq = 2427,
	        .akm = WIFI_AKM_SUITE_8021X_SHA256,
	        .eap_method = "PEAP",
	        .eap_identity = "anonymous@example.org",
	        .pmksa_used = TRUE,
	};
	g_autoptr(JsonNode) node = NULL;
	JsonObject *o = to_json(wifi_diagnostics_connection(&info, 0), &node);

	g_assert_cmpstr(json_object_get_string_member(o, "security"), ==, "8021x-sha256");
	g_assert_cmpstr(json_object_get_string_member(o, "eap_method"), ==, "PEAP");
	g_assert_cmpstr(json_object_get_string_member(o, "eap_identity"), ==,
	                "anonymous@example.org");
	g_assert_true(json_object_get_boolean_member(o, "pmksa_cached"));
	/* A link keyed from the cache sent no identity. */
	info.eap_identity[0] = '\0';
	g_clear_pointer(&node, json_node_unref);
	o = to_json(wifi_diagnostics_connection(&info, 0), &node);
	g_assert_false(json_object_has_member(o, "eap_identity"));
	g_assert_cmpstr(json_object_get_string_member(o, "eap_method"), ==, "PEAP");
	/* No TLS ran: no TLS facts. */
	g_assert_false(json_object_has_member(o, "tls_version"));
	g_assert_false(json_object_has_member(o, "server_subject"));
}

/* A TLS-based method: the TLS version and cipher, the server it trusted. */
static void
test_connection_eap_tls(void)
{
	WifiConnectionInfo info = {
	        .freq = 5180,
	        .akm = WIFI_AKM_SUITE_8021X,
	        .eap_method = "TTLS",
	        .tls_version = "TLSv1.3",
	        .tls_cipher = "TLS_AES_256_GCM_SHA384",
	        .server_subject = "CN=auth.test,O=joind test",
	        .server_pin = "sha256/YMTouxYZmIBMVJW/fDeNR8vHlEh6xRm64zfPnQt30gI=",
	};
	g_autoptr(JsonNode) node = NULL;
	JsonObject *o = to_json(wifi_diagnostics_connection(&info, 0), &node);

	g_assert_false(json_object_get_boolean_member(o, "pmksa_cached"));
	g_assert_cmpstr(json_object_get_string_member(o, "tls_version"), ==, "TLSv1.3");
	g_assert_cmpstr(json_object_get_string_member(o, "tls_cipher"), ==,
	                "TLS_AES_256_GCM_SHA384");
	g_assert_cmpstr(json_object_get_string_member(o, "server_subject"), ==,
	                "CN=auth.test,O=joind test");
	g_assert_cmpstr(json_object_get_string_member(o, "server_pin"), ==, info.server_pin);
}

/* The EAP session's report (joind-eap.h) of a server: the settings it
 * names and its trust. */
static GVariant *
server_report(gboolean trusted, gboolean names)
{
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "subject", "s", "CN=auth.test,O=joind test");
	g_variant_dict_insert(&d, "issuer", "s", "CN=joind test CA");
	g_variant_dict_insert(&d, "not-before", "s", "Jan  1 00:00:00 2026 GMT");
	g_variant_dict_insert(&d, "not-after", "s", "Jan  1 00:00:00 2036 GMT");
	g_variant_dict_insert(&d, "pin", "s",
	                      "sha256/YMTouxYZmIBMVJW/fDeNR8vHlEh6xRm64zfPnQt30gI=");
	g_variant_dict_insert(&d, "pin-setting", "s", "EAP-PEAP-ServerKeyPin");
	g_variant_dict_insert(&d, "tls-version", "s", "TLSv1.3");
	g_variant_dict_insert(&d, "trusted", "b", trusted);
	if (names) {
		g_variant_dict_insert(&d, "names", "s", "auth.test");
		g_variant_dict_insert(&d, "domain-mask-setting", "s", "EAP-PEAP-ServerDomainMask");
	}
	return g_variant_ref_sink(g_variant_dict_end(&d));
}

/* A refused server: its certificate under the names joinctl reads, the
 * network whose trust command pins it; nothing for a trusted one. */
static void
test_refused_server(void)
{
	g_autoptr(GVariant) refused = server_report(FALSE, TRUE);
	g_autoptr(GVariant) trusted = server_report(TRUE, FALSE);
	g_autoptr(GVariant) untold = g_variant_ref_sink(g_variant_new("a{sv}", NULL));
	g_autoptr(JsonNode) node = NULL;
	JsonObject *o = to_json(wifi_diagnostics_refused_server(refused, "joind-ent"), &node);

	g_assert_cmpstr(json_object_get_string_member(o, "network"), ==, "joind-ent");
	g_assert_cmpstr(json_object_get_string_member(o, "subject"), ==,
	                "CN=auth.test,O=joind test");
	g_assert_cmpstr(json_object_get_string_member(o, "issuer"), ==, "CN=joind test CA");
	g_assert_cmpstr(json_object_get_string_member(o, "not_before"), ==,
	                "Jan  1 00:00:00 2026 GMT");
	g_assert_cmpstr(json_object_get_string_member(o, "not_after"), ==,
	                "Jan  1 00:00:00 2036 GMT");
	g_assert_cmpstr(json_object_get_string_member(o, "pin"), ==,
	                "sha256/YMTouxYZmIBMVJW/fDeNR8vHlEh6xRm64zfPnQt30gI=");
	g_assert_cmpstr(json_object_get_string_member(o, "pin_setting"), ==,
	                "EAP-PEAP-ServerKeyPin");
	g_assert_cmpstr(json_object_get_string_member(o, "names"), ==, "auth.test");
	g_assert_cmpstr(json_object_get_string_member(o, "domain_mask_setting"), ==,
	                "EAP-PEAP-ServerDomainMask");
	/* The TLS parameters are the link's business, not the refusal's. */
	g_assert_false(json_object_has_member(o, "tls_version"));
	g_assert_false(json_object_has_member(o, "trusted"));
	g_assert_null(wifi_diagnostics_refused_server(trusted, "joind-ent"));
	g_assert_null(wifi_diagnostics_refused_server(untold, "joind-ent"));
	g_assert_null(wifi_diagnostics_refused_server(NULL, "joind-ent"));
	g_assert_null(wifi_diagnostics_refused_server(refused, NULL));
}

static void
test_connection_sae(void)
{
	WifiConnectionInfo info = {
	        .freq = 2437,
	        .akm = 8,
	        .sae_group = 20,
	        .sae_h2e = TRUE,
	};
	g_autoptr(JsonNode) node = NULL;
	JsonObject *o = to_json(wifi_diagnostics_connection(&info, 0), &node);

	g_assert_cmpstr(json_object_get_string_member(o, "security"), ==, "sae-h2e");
	g_assert_cmpint(json_object_get_int_member(o, "sae_group"), ==, 20);
	g_assert_true(json_object_get_boolean_member(o, "sae_h2e"));
	g_assert_false(json_object_get_boolean_member(o, "pmksa_cached"));

	/* Hunting and pecking's PMKSA, reused. */
	info.sae_group = 19;
	info.sae_h2e = FALSE;
	info.pmksa_used = TRUE;
	g_clear_pointer(&node, json_node_unref);
	o = to_json(wifi_diagnostics_connection(&info, 0), &node);
	g_assert_cmpstr(json_object_get_string_member(o, "security"), ==, "sae");
	g_assert_false(json_object_get_boolean_member(o, "sae_h2e"));
	g_assert_true(json_object_get_boolean_member(o, "pmksa_cached"));
	g_assert_false(json_object_has_member(o, "eap_method"));
}

static void
test_connection_mfp(void)
{
	WifiConnectionInfo info = {
	        .freq = 2412,
	        .akm = WIFI_AKM_SUITE_PSK_SHA256,
	        .pairwise_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .group_cipher = WIFI_CIPHER_SUITE_CCMP,
	        .mfp = TRUE,
	        .group_mgmt_cipher = WIFI_CIPHER_SUITE_BIP_CMAC,
	};
	g_autoptr(JsonNode) node = NULL;
	JsonObject *o = to_json(wifi_diagnostics_connection(&info, 0), &node);

	g_assert_cmpstr(json_object_get_string_member(o, "security"), ==, "psk-sha256");
	g_assert_true(json_object_get_boolean_member(o, "mfp"));
	g_assert_cmpstr(json_object_get_string_member(o, "group_mgmt_cipher"), ==, "BIP-CMAC-128");
}

/* ---- NL80211_ATTR_STA_INFO ------------------------------------------------ */

static void
put_attr(GByteArray *b, guint16 type, const void *data, guint16 len)
{
	struct nlattr hdr = {.nla_len = (guint16)(NLA_HDRLEN + len), .nla_type = type};
	static const guint8 pad[4] = {0};

	g_byte_array_append(b, (const guint8 *)&hdr, sizeof(hdr));
	g_byte_array_append(b, data, len);
	g_byte_array_append(b, pad, NLA_ALIGN(len) - len);
}

static GByteArray *
sample_sta_info(void)
{
	GByteArray *b = g_byte_array_new();
	g_autoptr(GByteArray) rate = g_byte_array_new();
	gint8 signal = -42, avg = -40;
	guint32 connected = 17, bitrate32 = 540;
	guint64 rx = G_GUINT64_CONSTANT(5000000000), tx = 12;
	guint16 bitrate16 = 11;

	put_attr(rate, NL80211_RATE_INFO_BITRATE, &bitrate16, 2);
	put_attr(rate, NL80211_RATE_INFO_BITRATE32, &bitrate32, 4);
	put_attr(b, NL80211_STA_INFO_CONNECTED_TIME, &connected, 4);
	put_attr(b, NL80211_STA_INFO_SIGNAL, &signal, 1);
	put_attr(b, NL80211_STA_INFO_SIGNAL_AVG, &avg, 1);
	put_attr(b, NL80211_STA_INFO_RX_BYTES64, &rx, 8);
	put_attr(b, NL80211_STA_INFO_TX_BYTES64, &tx, 8);
	put_attr(b, NL80211_STA_INFO_TX_BITRATE | NLA_F_NESTED, rate->data, (guint16)rate->len);
	put_attr(b, 250, "?", 1); /* unknown attributes are skipped */
	return b;
}

static void
test_sta_info(void)
{
	g_autoptr(GByteArray) b = sample_sta_info();
	g_autoptr(GError) error = NULL;
	WifiStaInfo info;

	g_assert_true(wifi_sta_info_parse(b->data, b->len, &info, &error));
	g_assert_no_error(error);
	g_assert_true(info.has_signal);
	g_assert_cmpint(info.signal_dbm, ==, -42);
	g_assert_true(info.has_signal_avg);
	g_assert_cmpint(info.signal_avg_dbm, ==, -40);
	g_assert_true(info.has_connected_time);
	g_assert_cmpuint(info.connected_time_s, ==, 17);
	g_assert_true(info.has_bytes);
	g_assert_cmpuint(info.rx_bytes, ==, G_GUINT64_CONSTANT(5000000000));
	g_assert_cmpuint(info.tx_bytes, ==, 12);
	g_assert_true(info.has_tx_bitrate);
	g_assert_cmpuint(info.tx_bitrate_100kbps, ==, 540); /* BITRATE32 wins */

	/* Nothing at all: valid, no facts. */
	g_assert_true(wifi_sta_info_parse(NULL, 0, &info, &error));
	g_assert_false(info.has_signal || info.has_bytes || info.has_tx_bitrate);
}

static void
expect_malformed(const guint8 *data, gsize len)
{
	g_autoptr(GError) error = NULL;
	WifiStaInfo info;

	g_assert_false(wifi_sta_info_parse(data, len, &info, &error));
	g_assert_error(error, WIFI_STA_INFO_ERROR, WIFI_STA_INFO_ERROR_MALFORMED);
}

static void
test_sta_info_malformed(void)
{
	g_autoptr(GByteArray) good = sample_sta_info();
	g_autoptr(GByteArray) short_time = g_byte_array_new();
	g_autoptr(GByteArray) short_rate = g_byte_array_new();
	g_autoptr(GByteArray) rate = g_byte_array_new();
	static const guint8 huge_len[] = {0xff, 0x00, NL80211_STA_INFO_SIGNAL, 0x00, 0xd0};
	static const guint8 tiny_len[] = {0x02, 0x00, NL80211_STA_INFO_SIGNAL, 0x00};
	guint16 two = 2;
	guint8 one = 1;

	/* Cut anywhere inside an attribute header: stray octets or a length
	 * that does not fit. */
	for (gsize cut = 1; cut < good->len; cut++) {
		WifiStaInfo info;
		g_autoptr(GError) error = NULL;

		if (!wifi_sta_info_parse(good->data, cut, &info, &error))
			g_assert_error(error, WIFI_STA_INFO_ERROR, WIFI_STA_INFO_ERROR_MALFORMED);
	}
	expect_malformed(good->data, 3);
	expect_malformed(huge_len, sizeof(huge_len));
	expect_malformed(tiny_len, sizeof(tiny_len));
	expect_malformed(NULL, 4);
	/* A 32-bit value in 2 octets; a nested rate that is too short. */
	put_attr(short_time, NL80211_STA_INFO_CONNECTED_TIME, &two, 2);
	expect_malformed(short_time->data, short_time->len);
	put_attr(rate, NL80211_RATE_INFO_BITRATE, &one, 1);
	put_attr(short_rate, NL80211_STA_INFO_TX_BITRATE, rate->data, (guint16)rate->len);
	expect_malformed(short_rate->data, short_rate->len);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/diagnostics/connection-psk", test_connection_psk);
	g_test_add_func("/wifi/diagnostics/connection-open", test_connection_open_no_kernel_facts);
	g_test_add_func("/wifi/diagnostics/connection-sae", test_connection_sae);
	g_test_add_func("/wifi/diagnostics/connection-mfp", test_connection_mfp);
	g_test_add_func("/wifi/diagnostics/connection-eap", test_connection_eap);
	g_test_add_func("/wifi/diagnostics/connection-eap-tls", test_connection_eap_tls);
	g_test_add_func("/wifi/diagnostics/refused-server", test_refused_server);
	g_test_add_func("/wifi/diagnostics/sta-info", test_sta_info);
	g_test_add_func("/wifi/diagnostics/sta-info-malformed", test_sta_info_malformed);
	return g_test_run();
}
