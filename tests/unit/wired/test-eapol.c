/* test-eapol.c - EAPOL framing (plugins/ethernet-8021x/wired-eapol.c).
 *
 * The valid frames are the ones captured between wpa_supplicant and hostapd
 * (driver=wired) on a veth pair: EAPOL-Start is an 18-octet frame there,
 * unpadded, while real Ethernet pads it to 60 octets. */
#include <string.h>

#include "wired-eapol.h"

static const guint8 pae_group[] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03};
static const guint8 supp_mac[] = {0x02, 0x00, 0x00, 0x00, 0x80, 0x02};
static const guint8 auth_mac[] = {0x02, 0x00, 0x00, 0x00, 0x80, 0x01};

/* Frame 1 of the capture: S->A EAPOL-Start, version 2, length 0. */
static const guint8 cap_start[] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03, 0x02, 0x00, 0x00,
                                   0x00, 0x80, 0x02, 0x88, 0x8e, 0x02, 0x01, 0x00, 0x00};
/* Frame 2: A->S EAP-Request/Identity, id 24, empty identity (23 octets). */
static const guint8 cap_req_identity[] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x03, 0x02, 0x00,
                                          0x00, 0x00, 0x80, 0x01, 0x88, 0x8e, 0x02, 0x00,
                                          0x00, 0x05, 0x01, 0x18, 0x00, 0x05, 0x01};

static void
test_parse_start(void)
{
	WiredEapolFrame f;
	g_autoptr(GError) error = NULL;

	g_assert_true(wired_eapol_parse_frame(cap_start, sizeof(cap_start), &f, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(f.dst, 6, pae_group, 6);
	g_assert_cmpmem(f.src, 6, supp_mac, 6);
	g_assert_cmpuint(f.pdu.version, ==, 2);
	g_assert_cmpuint(f.pdu.type, ==, WIRED_EAPOL_START);
	g_assert_cmpuint(f.pdu.body_len, ==, 0);
}

/* The same Start padded to the 60-octet Ethernet minimum. */
static void
test_parse_padded(void)
{
	guint8 padded[60] = {0};
	WiredEapolFrame f;

	memcpy(padded, cap_start, sizeof(cap_start));
	g_assert_true(wired_eapol_parse_frame(padded, sizeof(padded), &f, NULL));
	g_assert_cmpuint(f.pdu.type, ==, WIRED_EAPOL_START);
	g_assert_cmpuint(f.pdu.body_len, ==, 0);

	memcpy(padded, cap_req_identity, sizeof(cap_req_identity));
	g_assert_true(wired_eapol_parse_frame(padded, sizeof(padded), &f, NULL));
	g_assert_cmpuint(f.pdu.body_len, ==, 5);
}

static void
test_parse_request_identity(void)
{
	WiredEapolFrame f;
	g_autoptr(GError) error = NULL;

	g_assert_true(
	        wired_eapol_parse_frame(cap_req_identity, sizeof(cap_req_identity), &f, &error));
	g_assert_no_error(error);
	g_assert_cmpmem(f.src, 6, auth_mac, 6);
	g_assert_cmpuint(f.pdu.type, ==, WIRED_EAPOL_EAP);
	g_assert_cmpuint(f.pdu.body_len, ==, 5);
	g_assert_true(f.pdu.body == cap_req_identity + 18);
	g_assert_cmpuint(f.pdu.body[0], ==, 1);  /* Request */
	g_assert_cmpuint(f.pdu.body[1], ==, 24); /* identifier */
	g_assert_cmpuint(f.pdu.body[4], ==, 1);  /* Identity */
}

/* Versions above 2 are read as ours (802.1X-2010 11.4); unknown types are
 * parsed and left to the PAE. */
static void
test_parse_versions_and_types(void)
{
	guint8 pdu[] = {0x03, 0x05, 0x00, 0x02, 0xaa, 0xbb};
	WiredEapolPdu p;

	g_assert_true(wired_eapol_parse(pdu, sizeof(pdu), &p, NULL));
	g_assert_cmpuint(p.version, ==, 3);
	g_assert_cmpuint(p.type, ==, WIRED_EAPOL_MKA);
	g_assert_cmpuint(p.body_len, ==, 2);
	pdu[0] = 0x7f;
	pdu[1] = 0x42;
	g_assert_true(wired_eapol_parse(pdu, sizeof(pdu), &p, NULL));
	g_assert_cmpuint(p.type, ==, 0x42);
	g_assert_cmpstr(wired_eapol_type_to_string(0x42), ==, "unknown EAPOL type");
	g_assert_cmpstr(wired_eapol_type_to_string(WIRED_EAPOL_LOGOFF), ==, "EAPOL-Logoff");
}

static void
expect_pdu_error(const guint8 *data, gsize len, gint code)
{
	WiredEapolPdu p;
	g_autoptr(GError) error = NULL;

	g_assert_false(wired_eapol_parse(data, len, &p, &error));
	g_assert_error(error, WIRED_EAPOL_ERROR, code);
	g_assert_nonnull(error->message);
}

static void
test_malformed_pdu(void)
{
	const guint8 short_header[] = {0x02, 0x00, 0x00};
	const guint8 long_body[] = {0x02, 0x00, 0x00, 0x09, 0x01, 0x01, 0x00, 0x05, 0x01};
	const guint8 version0[] = {0x00, 0x01, 0x00, 0x00};
	const guint8 eap_too_short[] = {0x02, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00};
	const guint8 eap_len_big[] = {0x02, 0x00, 0x00, 0x05, 0x01, 0x01, 0x00, 0x06, 0x01};
	const guint8 eap_len_small[] = {0x02, 0x00, 0x00, 0x05, 0x01, 0x01, 0x00, 0x03, 0x01};

	expect_pdu_error(NULL, 0, WIRED_EAPOL_ERROR_TRUNCATED);
	expect_pdu_error(short_header, sizeof(short_header), WIRED_EAPOL_ERROR_TRUNCATED);
	expect_pdu_error(long_body, sizeof(long_body), WIRED_EAPOL_ERROR_TRUNCATED);
	expect_pdu_error(version0, sizeof(version0), WIRED_EAPOL_ERROR_VERSION);
	expect_pdu_error(eap_too_short, sizeof(eap_too_short), WIRED_EAPOL_ERROR_EAP_LENGTH);
	expect_pdu_error(eap_len_big, sizeof(eap_len_big), WIRED_EAPOL_ERROR_EAP_LENGTH);
	expect_pdu_error(eap_len_small, sizeof(eap_len_small), WIRED_EAPOL_ERROR_EAP_LENGTH);
}

static void
test_malformed_frame(void)
{
	guint8 frame[sizeof(cap_req_identity)];
	WiredEapolFrame f;
	g_autoptr(GError) error = NULL;

	g_assert_false(wired_eapol_parse_frame(cap_start, 13, &f, &error));
	g_assert_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_TRUNCATED);
	g_clear_error(&error);

	/* An IPv4 EtherType. */
	memcpy(frame, cap_req_identity, sizeof(frame));
	frame[12] = 0x08;
	frame[13] = 0x00;
	g_assert_false(wired_eapol_parse_frame(frame, sizeof(frame), &f, &error));
	g_assert_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_ETHERTYPE);
	g_clear_error(&error);

	/* Cut inside the EAP packet. */
	g_assert_false(wired_eapol_parse_frame(cap_req_identity, sizeof(cap_req_identity) - 1, &f,
	                                       &error));
	g_assert_error(error, WIRED_EAPOL_ERROR, WIRED_EAPOL_ERROR_TRUNCATED);
}

static void
test_build(void)
{
	const guint8 body[] = {0x02, 0x18, 0x00, 0x0c, 0x01, 't', 'l', 's', 'u', 's', 'e', 'r'};
	g_autoptr(GByteArray) start = NULL;
	g_autoptr(GByteArray) response = NULL;
	WiredEapolFrame f;

	start = wired_eapol_build_frame(pae_group, supp_mac, WIRED_EAPOL_START, NULL, 0);
	g_assert_cmpmem(start->data, start->len, cap_start, sizeof(cap_start));

	/* Frame 3 of the capture: Response/Identity "tlsuser", 30 octets. */
	response =
	        wired_eapol_build_frame(pae_group, supp_mac, WIRED_EAPOL_EAP, body, sizeof(body));
	g_assert_cmpuint(response->len, ==, 30);
	g_assert_cmpuint(response->data[16], ==, 0x00);
	g_assert_cmpuint(response->data[17], ==, sizeof(body));
	g_assert_true(wired_eapol_parse_frame(response->data, response->len, &f, NULL));
	g_assert_cmpmem(f.pdu.body, f.pdu.body_len, body, sizeof(body));
}

static void
test_parse_address(void)
{
	guint8 mac[6] = {0};
	const gchar *bad[] = {
	        "",
	        "02:00:00:00:80",
	        "02:00:00:00:80:0",
	        "02:00:00:00:80:022",
	        "02-00-00-00-80-02",
	        NULL,
	        "0x:00:00:00:80:02",
	        " 2:00:00:00:80:02",
	        "02:00:00:00:80:0g",
	};

	g_assert_true(wired_eapol_parse_address("02:00:00:00:80:02", mac));
	g_assert_cmpmem(mac, 6, supp_mac, 6);
	g_assert_true(wired_eapol_parse_address("01:80:C2:00:00:03", mac));
	g_assert_cmpmem(mac, 6, pae_group, 6);
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(wired_eapol_parse_address(bad[i], mac));
	/* A failed parse leaves the output alone. */
	g_assert_cmpmem(mac, 6, pae_group, 6);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wired/eapol/parse-start", test_parse_start);
	g_test_add_func("/wired/eapol/parse-padded", test_parse_padded);
	g_test_add_func("/wired/eapol/parse-request-identity", test_parse_request_identity);
	g_test_add_func("/wired/eapol/versions-and-types", test_parse_versions_and_types);
	g_test_add_func("/wired/eapol/malformed-pdu", test_malformed_pdu);
	g_test_add_func("/wired/eapol/malformed-frame", test_malformed_frame);
	g_test_add_func("/wired/eapol/build", test_build);
	g_test_add_func("/wired/eapol/parse-address", test_parse_address);
	return g_test_run();
}
