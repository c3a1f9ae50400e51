/* test-eap-tunnel-codec.c - the encoders and decoders of the tunnels: PEAP
 * Extensions TLVs (Result, Crypto-Binding) and compound keys, TTLS AVPs and
 * the non-EAP phase 2 attributes, each with malformed cases. */
#include <string.h>

#include <gio/gio.h>

#include "eap-mschap-crypto.h"
#include "eap-peap-tlv.h"
#include "eap-ttls-avp.h"
#include "eap-ttls-phase2.h"

static GBytes *
bytes_of(const gchar *hex)
{
	gsize len = strlen(hex) / 2;
	guint8 *out = g_malloc(len);

	for (gsize i = 0; i < len; i++)
		out[i] = (guint8)((g_ascii_xdigit_value(hex[2 * i]) << 4) |
		                  g_ascii_xdigit_value(hex[2 * i + 1]));
	return g_bytes_new_take(out, len);
}

/* ---- PEAP ---- */

static void
binding_request(guint8 tlv[EAP_PEAP_BINDING_TLV_LEN], const guint8 cmk[EAP_PEAP_CMK_LEN])
{
	memset(tlv, 0, EAP_PEAP_BINDING_TLV_LEN);
	tlv[1] = EAP_PEAP_TLV_BINDING;
	tlv[3] = EAP_PEAP_BINDING_VALUE_LEN;
	for (guint i = 0; i < EAP_PEAP_BINDING_NONCE_LEN; i++)
		tlv[8 + i] = (guint8)(0xa0 + i);
	g_assert_true(eap_peap_compound_mac(cmk, tlv, tlv + 40, NULL));
}

static void
test_peap_tlvs(void)
{
	static const guint8 cmk[EAP_PEAP_CMK_LEN] = {7, 7, 7};
	guint8 msg[6 + EAP_PEAP_BINDING_TLV_LEN + 5];
	g_autoptr(GByteArray) reply = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	EapPeapTlvs tlvs;
	guint8 mac[EAP_PEAP_BINDING_MAC_LEN];

	/* Result (mandatory) + Crypto-Binding + an optional unknown TLV */
	eap_peap_result_tlv_build(reply, EAP_PEAP_RESULT_SUCCESS);
	memcpy(msg, reply->data, 6);
	binding_request(msg + 6, cmk);
	memcpy(msg + 6 + EAP_PEAP_BINDING_TLV_LEN, (const guint8[]){0, 9, 0, 1, 0x55}, 5);
	g_assert_true(eap_peap_tlvs_parse(msg, sizeof(msg), &tlvs, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(tlvs.result, ==, EAP_PEAP_RESULT_SUCCESS);
	g_assert_true(tlvs.has_binding);
	g_assert_cmpuint(tlvs.unknown_mandatory, ==, 0);
	g_assert_true(eap_peap_binding_verify(&tlvs, cmk, &error));
	/* Our answer: SubType 1, the server's nonce, a MAC over the answer. */
	g_byte_array_set_size(reply, 0);
	g_assert_true(eap_peap_binding_build(reply, &tlvs, cmk, &error));
	g_assert_cmpuint(reply->len, ==, EAP_PEAP_BINDING_TLV_LEN);
	g_assert_cmpuint(reply->data[7], ==, EAP_PEAP_BINDING_RESPONSE);
	g_assert_cmpmem(reply->data + 8, 32, tlvs.binding + 8, 32);
	g_assert_true(eap_peap_compound_mac(cmk, reply->data, mac, &error));
	g_assert_cmpmem(mac, sizeof(mac), reply->data + 40, 20);
	/* A wrong MAC or a wrong key fails verification. */
	tlvs.binding[59] ^= 1;
	g_assert_false(eap_peap_binding_verify(&tlvs, cmk, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	g_clear_error(&error);
	tlvs.binding[59] ^= 1;
	g_assert_false(eap_peap_binding_verify(&tlvs, (const guint8[20]){8}, &error));
	g_clear_error(&error);
	/* An unknown mandatory TLV is reported, not an error of the parser. */
	g_assert_true(eap_peap_tlvs_parse((const guint8[]){0x80, 9, 0, 0}, 4, &tlvs, &error));
	g_assert_cmpuint(tlvs.unknown_mandatory, ==, 9);
}

static void
test_peap_tlvs_malformed(void)
{
	static const struct {
		const gchar *hex;
		const gchar *what;
	} bad[] = {
	        {"8003", "truncated TLV header"},
	        {"80030002", "longer than the packet"},
	        {"800300020001800300020001", "two Result TLVs"},
	        {"8003000100", "not 2 octets"},
	        {"800300020003", "unknown Result status"},
	        {"800300020000", "unknown Result status"},
	        {"000c0004000000000", "wrong length"},
	        {"00030002000100", "truncated TLV header"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GBytes) b = bytes_of(bad[i].hex);
		g_autoptr(GError) error = NULL;
		EapPeapTlvs tlvs;

		g_assert_false(eap_peap_tlvs_parse(g_bytes_get_data(b, NULL), g_bytes_get_size(b),
		                                   &tlvs, &error));
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
		if (strstr(error->message, bad[i].what) == NULL)
			g_error("%s: \"%s\" not in \"%s\"", bad[i].hex, bad[i].what,
			        error->message);
	}
	/* A Crypto-Binding that is itself a response, or given twice. */
	{
		guint8 two[2 * EAP_PEAP_BINDING_TLV_LEN];
		g_autoptr(GError) error = NULL;
		EapPeapTlvs tlvs;

		binding_request(two, (const guint8[20]){1});
		memcpy(two + EAP_PEAP_BINDING_TLV_LEN, two, EAP_PEAP_BINDING_TLV_LEN);
		g_assert_false(eap_peap_tlvs_parse(two, sizeof(two), &tlvs, &error));
		g_assert_nonnull(strstr(error->message, "two Crypto-Binding"));
		g_clear_error(&error);
		two[7] = EAP_PEAP_BINDING_RESPONSE;
		g_assert_false(eap_peap_tlvs_parse(two, EAP_PEAP_BINDING_TLV_LEN, &tlvs, &error));
		g_assert_nonnull(strstr(error->message, "no request"));
	}
}

static void
test_peap_keys(void)
{
	guint8 tempkey[EAP_PEAP_TEMPKEY_LEN], isk[EAP_PEAP_ISK_LEN];
	guint8 ipmk[EAP_PEAP_IPMK_LEN], cmk[EAP_PEAP_CMK_LEN], ipmk2[EAP_PEAP_IPMK_LEN];
	guint8 cmk2[EAP_PEAP_CMK_LEN], imck[60], msk[64], emsk[64], csk[128];
	g_autoptr(GError) error = NULL;

	for (guint i = 0; i < sizeof(tempkey); i++)
		tempkey[i] = (guint8)i;
	memset(isk, 0x11, sizeof(isk));
	g_assert_true(eap_peap_compound_keys(tempkey, isk, ipmk, cmk, &error));
	/* IPMK | CMK is the first 60 octets of the PRF+ output, whose blocks
	 * chain: asking for more changes nothing in front. */
	g_assert_true(eap_peap_prf_plus(tempkey, sizeof(tempkey), "Inner Methods Compound Keys",
	                                isk, sizeof(isk), imck, sizeof(imck), &error));
	g_assert_cmpmem(ipmk, 40, imck, 40);
	g_assert_cmpmem(cmk, 20, imck + 40, 20);
	{
		guint8 longer[100];
		g_assert_true(eap_peap_prf_plus(tempkey, sizeof(tempkey),
		                                "Inner Methods Compound Keys", isk, sizeof(isk),
		                                longer, sizeof(longer), &error));
		g_assert_cmpmem(longer, 60, imck, 60);
	}
	/* Another ISK, other keys. */
	isk[0] ^= 1;
	g_assert_true(eap_peap_compound_keys(tempkey, isk, ipmk2, cmk2, &error));
	g_assert_true(memcmp(ipmk, ipmk2, sizeof(ipmk)) != 0);
	g_assert_true(memcmp(cmk, cmk2, sizeof(cmk)) != 0);
	/* MSK | EMSK with binding: PRF+(IPMK, "Session Key Generating Function", 0x00). */
	g_assert_true(eap_peap_binding_session_keys(ipmk, msk, emsk, &error));
	g_assert_true(eap_peap_prf_plus(ipmk, sizeof(ipmk), "Session Key Generating Function",
	                                (const guint8[]){0}, 1, csk, sizeof(csk), &error));
	g_assert_cmpmem(msk, 64, csk, 64);
	g_assert_cmpmem(emsk, 64, csk + 64, 64);
}

/* ---- TTLS ---- */

static void
test_ttls_avps(void)
{
	g_autoptr(GByteArray) out = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	static const guint8 eap[] = {1, 7, 0, 6, 4, 0};
	EapTtlsAvps avps;
	EapTtlsAvp avp;
	gsize pos = 0;

	/* EAP-Message (6 octets: padded to 16), a vendor AVP, a Reply-Message
	 * with a control character, and an optional unknown AVP. */
	eap_ttls_avp_append(out, EAP_TTLS_AVP_EAP_MESSAGE, 0, eap, sizeof(eap));
	g_assert_cmpuint(out->len, ==, 16);
	g_assert_cmpuint(out->data[4], ==, EAP_TTLS_AVP_FLAG_M);
	g_assert_cmpuint(out->data[7], ==, 14);
	eap_ttls_avp_append(out, EAP_TTLS_MS_CHAP2_SUCCESS, EAP_TTLS_VENDOR_MICROSOFT,
	                    (const guint8 *)"\x07S=", 3);
	g_assert_cmpuint(out->len, ==, 16 + 16);
	g_assert_cmpuint(out->data[16 + 4], ==, EAP_TTLS_AVP_FLAG_M | EAP_TTLS_AVP_FLAG_V);
	eap_ttls_avp_append(out, EAP_TTLS_AVP_REPLY_MESSAGE, 0, (const guint8 *)"no\x01", 3);
	g_byte_array_append(out, (const guint8[]){0, 0, 0, 99, 0, 0, 0, 9, 'x'}, 9);
	g_assert_true(eap_ttls_avp_next(out->data, out->len, &pos, &avp, &error));
	g_assert_cmpuint(avp.code, ==, EAP_TTLS_AVP_EAP_MESSAGE);
	g_assert_cmpuint(pos, ==, 16);
	g_assert_true(eap_ttls_avps_parse(out->data, out->len, &avps, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(avps.eap_message->data, avps.eap_message->len, eap, sizeof(eap));
	g_assert_cmpuint(g_bytes_get_size(avps.ms_chap2_success), ==, 3);
	g_assert_cmpstr(avps.reply_message, ==, "no?");
	eap_ttls_avps_clear(&avps);
	/* Two EAP-Message AVPs are one EAP packet. */
	g_byte_array_set_size(out, 0);
	eap_ttls_avp_append(out, EAP_TTLS_AVP_EAP_MESSAGE, 0, eap, 3);
	eap_ttls_avp_append(out, EAP_TTLS_AVP_EAP_MESSAGE, 0, eap + 3, 3);
	g_assert_true(eap_ttls_avps_parse(out->data, out->len, &avps, &error));
	g_assert_cmpmem(avps.eap_message->data, avps.eap_message->len, eap, sizeof(eap));
	eap_ttls_avps_clear(&avps);
}

static void
test_ttls_avps_malformed(void)
{
	static const struct {
		const gchar *hex;
		const gchar *what;
	} bad[] = {
	        {"0000004f400000", "header truncated"},
	        {"0000004f40000007", "length 7"},
	        {"0000004f4000000c0102", "length 12"},
	        {"0000001a80000008", "Vendor-ID"},
	        {"0000001ac00000100000", "room for its Vendor-ID"},
	        {"0000001ac00000100000000000000000", "Vendor-ID 0"},
	        {"000004d24000000978000000", "mandatory TTLS AVP 1234"},
	        {"0000001240000009780000000000004f4000", "header truncated"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GBytes) b = bytes_of(bad[i].hex);
		g_autoptr(GError) error = NULL;
		EapTtlsAvps avps;

		g_assert_false(eap_ttls_avps_parse(g_bytes_get_data(b, NULL), g_bytes_get_size(b),
		                                   &avps, &error));
		g_assert_nonnull(error);
		g_assert_null(avps.eap_message);
		if (strstr(error->message, bad[i].what) == NULL)
			g_error("%s: \"%s\" not in \"%s\"", bad[i].hex, bad[i].what,
			        error->message);
	}
}

static const guint8 *
find_avp(GByteArray *avps, guint32 code, guint32 vendor, gsize *len)
{
	gsize pos = 0;
	EapTtlsAvp avp;

	while (pos < avps->len && eap_ttls_avp_next(avps->data, avps->len, &pos, &avp, NULL)) {
		if (avp.code == code && avp.vendor == vendor) {
			*len = avp.len;
			return avp.data;
		}
	}
	return NULL;
}

static void
test_ttls_phase2(void)
{
	g_autoptr(GByteArray) out = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	guint8 material[17], hash[16], expected_nt[24];
	gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN], server[EAP_MSCHAP_AUTH_RESPONSE_LEN];
	gchar success[1 + EAP_MSCHAP_AUTH_RESPONSE_LEN];
	const guint8 *d;
	gsize len = 0;

	g_assert_cmpint(eap_ttls_phase2_from_setting("tunneled-pap"), ==, EAP_TTLS_PHASE2_PAP);
	g_assert_cmpint(eap_ttls_phase2_from_setting("Tunneled-MSCHAPv2"), ==,
	                EAP_TTLS_PHASE2_MSCHAPV2);
	g_assert_cmpint(eap_ttls_phase2_from_setting("MSCHAPV2"), ==, EAP_TTLS_PHASE2_EAP);
	g_assert_cmpint(eap_ttls_phase2_from_setting(NULL), ==, EAP_TTLS_PHASE2_EAP);
	/* PAP: the password NUL-padded to 16 octets (and an empty one to 16). */
	eap_ttls_pap_build(out, "u", "0123456789abcdefg");
	d = find_avp(out, EAP_TTLS_AVP_USER_PASSWORD, 0, &len);
	g_assert_cmpuint(len, ==, 32);
	g_assert_cmpmem(d, 17, "0123456789abcdefg", 17);
	g_assert_cmpuint(d[31], ==, 0);
	g_byte_array_set_size(out, 0);
	eap_ttls_pap_build(out, "u", "");
	d = find_avp(out, EAP_TTLS_AVP_USER_PASSWORD, 0, &len);
	g_assert_cmpuint(len, ==, 16);
	g_assert_cmpmem(d, 16, (const guint8[16]){0}, 16);
	/* MS-CHAPv2: the NT-Response a server computes, and its answer checked. */
	for (guint i = 0; i < sizeof(material); i++)
		material[i] = (guint8)(i * 3);
	g_assert_true(eap_mschap_nt_hash("ttlspass", hash, &error));
	g_byte_array_set_size(out, 0);
	g_assert_true(
	        eap_ttls_mschapv2_build(out, "DOM\\ttlsuser", hash, material, expected, &error));
	d = find_avp(out, EAP_TTLS_MS_CHAP2_RESPONSE, EAP_TTLS_VENDOR_MICROSOFT, &len);
	g_assert_cmpuint(len, ==, 50);
	g_assert_cmpuint(d[0], ==, material[16]);
	g_assert_true(
	        eap_mschap_v2_nt_response(material, d + 2, "ttlsuser", hash, expected_nt, &error));
	g_assert_cmpmem(d + 26, 24, expected_nt, 24);
	g_assert_true(eap_mschap_v2_authenticator_response(hash, d + 26, d + 2, material,
	                                                   "ttlsuser", server, &error));
	success[0] = (gchar)material[16];
	memcpy(success + 1, server, sizeof(server));
	g_assert_true(eap_ttls_mschapv2_verify((const guint8 *)success, sizeof(success),
	                                       material[16], expected, &error));
	g_assert_false(eap_ttls_mschapv2_verify((const guint8 *)success, sizeof(success),
	                                        material[16] + 1, expected, &error));
	g_clear_error(&error);
	success[5] = success[5] == 'A' ? 'B' : 'A';
	g_assert_false(eap_ttls_mschapv2_verify((const guint8 *)success, sizeof(success),
	                                        material[16], expected, &error));
	g_clear_error(&error);
	g_assert_false(eap_ttls_mschapv2_verify((const guint8 *)success, 10, material[16], expected,
	                                        &error));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap-tunnel/peap/tlvs", test_peap_tlvs);
	g_test_add_func("/eap-tunnel/peap/tlvs-malformed", test_peap_tlvs_malformed);
	g_test_add_func("/eap-tunnel/peap/keys", test_peap_keys);
	g_test_add_func("/eap-tunnel/ttls/avps", test_ttls_avps);
	g_test_add_func("/eap-tunnel/ttls/avps-malformed", test_ttls_avps_malformed);
	g_test_add_func("/eap-tunnel/ttls/phase2", test_ttls_phase2);
	return g_test_run();
}
