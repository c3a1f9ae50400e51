/* test-eap-packet.c - EAP framing: valid packets, padding, malformed cases. */
#include <gio/gio.h>

#include "joind-eap-packet.h"
#include "joind-eap.h"

static void
test_request_parse(void)
{
	/* Request id 7, Identity, "hi", then two octets of Ethernet padding. */
	const guint8 data[] = {1, 7, 0, 7, 1, 'h', 'i', 0, 0};
	JoindEapPacket p;
	g_autoptr(GError) error = NULL;

	g_assert_true(joind_eap_packet_parse(data, sizeof(data), &p, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(p.code, ==, JOIND_EAP_CODE_REQUEST);
	g_assert_cmpuint(p.id, ==, 7);
	g_assert_cmpuint(p.length, ==, 7);
	g_assert_cmpuint(p.type, ==, JOIND_EAP_TYPE_IDENTITY);
	g_assert_cmpuint(p.type_data_len, ==, 2);
	g_assert_cmpmem(p.type_data, 2, "hi", 2);
	g_assert_true(p.raw == data);
}

static void
test_success_parse(void)
{
	const guint8 data[] = {3, 29, 0, 4};
	JoindEapPacket p;

	g_assert_true(joind_eap_packet_parse(data, sizeof(data), &p, NULL));
	g_assert_cmpuint(p.code, ==, JOIND_EAP_CODE_SUCCESS);
	g_assert_cmpuint(p.id, ==, 29);
	g_assert_cmpuint(p.type, ==, 0);
}

static void
test_expanded_parse(void)
{
	const guint8 data[] = {1, 1, 0, 12, 254, 0, 0, 0, 0, 0, 0, 1};
	JoindEapPacket p;

	g_assert_true(joind_eap_packet_parse(data, sizeof(data), &p, NULL));
	g_assert_cmpuint(p.type, ==, JOIND_EAP_TYPE_EXPANDED);
	g_assert_cmpuint(p.type_data_len, ==, 7);
}

typedef struct {
	const gchar *name;
	guint8 data[16];
	gsize len;
	const gchar *message_part;
} MalformedCase;

static const MalformedCase malformed[] = {
        {"empty", {0}, 0, "shorter than the 4-octet header"},
        {"three octets", {1, 1, 0}, 3, "shorter than the 4-octet header"},
        {"length below header", {1, 1, 0, 3, 1}, 5, "shorter than the header"},
        {"length beyond data", {1, 1, 0, 9, 1, 'a'}, 6, "exceeds the 6 octets"},
        {"request without type", {1, 1, 0, 4}, 4, "without a Type"},
        {"response without type", {2, 1, 0, 4, 9}, 5, "without a Type"},
        {"success with data", {3, 1, 0, 5, 0}, 5, "Length 5 (must be 4)"},
        {"failure with data", {4, 1, 0, 6, 0, 0}, 6, "Length 6 (must be 4)"},
        {"short expanded type", {1, 1, 0, 8, 254, 0, 0, 0}, 8, "vendor fields"},
        {"code zero", {0, 1, 0, 4}, 4, "code 0 is not supported"},
        {"ERP initiate", {5, 1, 0, 5, 1}, 5, "code 5 is not supported"},
        {"code 200", {200, 1, 0, 4}, 4, "code 200 is not supported"},
};

static void
test_malformed(gconstpointer data)
{
	const MalformedCase *c = data;
	JoindEapPacket p;
	g_autoptr(GError) error = NULL;

	g_assert_false(joind_eap_packet_parse(c->len > 0 ? c->data : NULL, c->len, &p, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	if (strstr(error->message, c->message_part) == NULL)
		g_error("%s: \"%s\" lacks \"%s\"", c->name, error->message, c->message_part);
}

static void
test_build(void)
{
	g_autoptr(GByteArray) r = joind_eap_packet_build(JOIND_EAP_CODE_RESPONSE, 9, 4,
	                                                 (const guint8 *)"abc", 3, NULL);
	g_autoptr(GByteArray) s =
	        joind_eap_packet_build(JOIND_EAP_CODE_SUCCESS, 9, 0, NULL, 0, NULL);
	const guint8 want_r[] = {2, 9, 0, 8, 4, 'a', 'b', 'c'};
	const guint8 want_s[] = {3, 9, 0, 4};

	g_assert_cmpmem(r->data, r->len, want_r, sizeof(want_r));
	g_assert_cmpmem(s->data, s->len, want_s, sizeof(want_s));
}

static void
test_build_oversize(void)
{
	g_autofree guint8 *big = g_malloc0(70000);
	g_autoptr(GError) error = NULL;
	GByteArray *r = joind_eap_packet_build(JOIND_EAP_CODE_RESPONSE, 1, 13, big, 70000, &error);

	g_assert_null(r);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap/packet/request", test_request_parse);
	g_test_add_func("/eap/packet/success", test_success_parse);
	g_test_add_func("/eap/packet/expanded", test_expanded_parse);
	for (gsize i = 0; i < G_N_ELEMENTS(malformed); i++) {
		g_autofree gchar *path =
		        g_strdup_printf("/eap/packet/malformed/%s", malformed[i].name);
		g_test_add_data_func(path, &malformed[i], test_malformed);
	}
	g_test_add_func("/eap/packet/build", test_build);
	g_test_add_func("/eap/packet/build-oversize", test_build_oversize);
	return g_test_run();
}
