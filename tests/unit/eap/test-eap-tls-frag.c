/* test-eap-tls-frag.c - EAP-TLS Flags/Length parsing, reassembly with every
 * L/M combination RFC 5216 allows or forbids, fragmentation round trips,
 * and ServerDomainMask matching. */
#include <string.h>

#include <gio/gio.h>

#include "eap-tls-domain.h"
#include "eap-tls-frag.h"

static gboolean
push(EapTlsReassembler *r, const guint8 *data, gsize len, gboolean *complete, GError **error)
{
	EapTlsHeader h;

	g_assert_true(eap_tls_header_parse(data, len, &h, NULL));
	return eap_tls_reassembler_push(r, &h, complete, error);
}

static void
test_header(void)
{
	const guint8 with_len[] = {0xc0, 0, 0, 0x08, 0xe9, 'a', 'b'};
	const guint8 start[] = {0x21};
	EapTlsHeader h;
	g_autoptr(GError) error = NULL;

	g_assert_true(eap_tls_header_parse(with_len, sizeof(with_len), &h, NULL));
	g_assert_true(h.has_length);
	g_assert_cmpuint(h.tls_length, ==, 2281);
	g_assert_cmpuint(h.data_len, ==, 2);
	g_assert_true(eap_tls_header_parse(start, sizeof(start), &h, NULL));
	g_assert_cmpuint(h.flags & EAP_TLS_FLAG_START, !=, 0);
	g_assert_cmpuint(h.flags & EAP_TLS_VERSION_MASK, ==, 1);
	g_assert_cmpuint(h.data_len, ==, 0);

	g_assert_false(eap_tls_header_parse(NULL, 0, &h, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	g_clear_error(&error);
	g_assert_false(eap_tls_header_parse(with_len, 4, &h, &error));
	g_assert_nonnull(strstr(error->message, "needs 4"));
}

static void
test_single(void)
{
	g_autoptr(EapTlsReassembler) r = eap_tls_reassembler_new(100);
	const guint8 plain[] = {0x00, 1, 2, 3};
	const guint8 with_len[] = {0x80, 0, 0, 0, 3, 1, 2, 3};
	gboolean complete = FALSE;
	g_autoptr(GBytes) a = NULL;
	g_autoptr(GBytes) b = NULL;

	g_assert_true(push(r, plain, sizeof(plain), &complete, NULL));
	g_assert_true(complete);
	a = eap_tls_reassembler_take(r);
	g_assert_cmpmem(g_bytes_get_data(a, NULL), g_bytes_get_size(a), plain + 1, 3);
	/* L on an unfragmented message is allowed. */
	g_assert_true(push(r, with_len, sizeof(with_len), &complete, NULL));
	g_assert_true(complete);
	b = eap_tls_reassembler_take(r);
	g_assert_true(g_bytes_equal(a, b));
	g_assert_false(eap_tls_reassembler_in_progress(r));
}

static void
test_fragments(void)
{
	g_autoptr(EapTlsReassembler) r = eap_tls_reassembler_new(100);
	const guint8 f1[] = {0xc0, 0, 0, 0, 6, 'a', 'b'};
	const guint8 f2[] = {0x40, 'c', 'd'};
	const guint8 f3[] = {0x80, 0, 0, 0, 6, 'e', 'f'}; /* L repeated, same length */
	gboolean complete = TRUE;
	g_autoptr(GBytes) msg = NULL;

	g_assert_true(push(r, f1, sizeof(f1), &complete, NULL));
	g_assert_false(complete);
	g_assert_true(eap_tls_reassembler_in_progress(r));
	g_assert_true(push(r, f2, sizeof(f2), &complete, NULL));
	g_assert_false(complete);
	g_assert_true(push(r, f3, sizeof(f3), &complete, NULL));
	g_assert_true(complete);
	msg = eap_tls_reassembler_take(r);
	g_assert_cmpmem(g_bytes_get_data(msg, NULL), g_bytes_get_size(msg), "abcdef", 6);
}

typedef struct {
	const gchar *name;
	guint8 first[10];
	gsize first_len;
	guint8 second[10];
	gsize second_len; /* 0: the first packet alone must fail */
	const gchar *message;
} BadCase;

static const BadCase bad_cases[] = {
        {"M without L", {0x40, 'a'}, 2, {0}, 0, "without the L flag"},
        {"oversize", {0xc0, 0, 0, 1, 0, 'a'}, 6, {0}, 0, "exceeds the 100 accepted"},
        {"oversize unfragmented", {0x80, 0xff, 0xff, 0xff, 0xff}, 5, {0}, 0, "exceeds"},
        {"data beyond L", {0xc0, 0, 0, 0, 1, 'a', 'b'}, 7, {0}, 0, "exceeds the announced 1"},
        {"short single", {0x80, 0, 0, 0, 5, 'a'}, 6, {0}, 0, "announces 5 octets but carries 1"},
        {"empty M first", {0xc0, 0, 0, 0, 5}, 5, {0}, 0, "empty EAP-TLS fragment"},
        {"M completes", {0xc0, 0, 0, 0, 2, 'a', 'b'}, 7, {0}, 0, "completes the message"},
        {"empty middle", {0xc0, 0, 0, 0, 4, 'a'}, 6, {0x40}, 1, "empty EAP-TLS fragment"},
        {"length changes",
         {0xc0, 0, 0, 0, 4, 'a'},
         6,
         {0xc0, 0, 0, 0, 5, 'b'},
         6,
         "changes the message length"},
        {"too much", {0xc0, 0, 0, 0, 3, 'a'}, 6, {0x40, 'b', 'c', 'd'}, 4, "more than"},
        {"ends short", {0xc0, 0, 0, 0, 4, 'a'}, 6, {0x00, 'b'}, 2, "ends after 2 of 4"},
        {"last too long", {0xc0, 0, 0, 0, 3, 'a'}, 6, {0x00, 'b', 'c', 'd'}, 4, "more than"},
};

static void
test_bad(gconstpointer data)
{
	const BadCase *c = data;
	g_autoptr(EapTlsReassembler) r = eap_tls_reassembler_new(100);
	g_autoptr(GError) error = NULL;
	gboolean complete = FALSE;
	const guint8 good[] = {0x00, 'z'};

	if (c->second_len == 0) {
		g_assert_false(push(r, c->first, c->first_len, &complete, &error));
	} else {
		g_assert_true(push(r, c->first, c->first_len, &complete, NULL));
		g_assert_false(complete);
		g_assert_false(push(r, c->second, c->second_len, &complete, &error));
	}
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
	if (strstr(error->message, c->message) == NULL)
		g_error("%s: \"%s\" lacks \"%s\"", c->name, error->message, c->message);
	/* The reassembler starts over after an error. */
	g_assert_false(eap_tls_reassembler_in_progress(r));
	g_assert_true(push(r, good, sizeof(good), &complete, NULL));
	g_assert_true(complete);
}

/* Fragment a message, check each packet's shape, reassemble it. */
static void
round_trip(gsize message_len, gsize max_type_data)
{
	g_autofree guint8 *data = g_malloc(message_len);
	g_autoptr(GBytes) message = NULL;
	g_autoptr(EapTlsFragmenter) f = eap_tls_fragmenter_new();
	g_autoptr(EapTlsReassembler) r = eap_tls_reassembler_new(EAP_TLS_MAX_MESSAGE);
	g_autoptr(GBytes) out = NULL;
	gboolean complete = FALSE;
	guint packets = 0;

	for (gsize i = 0; i < message_len; i++)
		data[i] = (guint8)(i * 7);
	message = g_bytes_new(data, message_len);
	eap_tls_fragmenter_set(f, message);
	while (!complete) {
		g_autoptr(GByteArray) pkt = g_byte_array_new();
		g_autoptr(GError) error = NULL;
		EapTlsHeader h;

		g_assert_true(eap_tls_fragmenter_pending(f) || message_len == 0);
		eap_tls_fragmenter_next(f, max_type_data, 1, pkt);
		g_assert_cmpuint(pkt->len, <=, max_type_data);
		g_assert_true(eap_tls_header_parse(pkt->data, pkt->len, &h, NULL));
		g_assert_cmpuint(h.flags & EAP_TLS_VERSION_MASK, ==, 1);
		/* L exactly on the first packet of a fragmented message. */
		g_assert_cmpint(h.has_length, ==, packets == 0 && message_len > max_type_data - 1);
		g_assert_true(eap_tls_reassembler_push(r, &h, &complete, &error));
		g_assert_no_error(error);
		g_assert_cmpint(complete, ==, (h.flags & EAP_TLS_FLAG_MORE) == 0);
		packets++;
	}
	g_assert_false(eap_tls_fragmenter_pending(f));
	g_assert_cmpuint(packets, ==,
	                 message_len <= max_type_data - 1
	                         ? 1
	                         : 1 + (message_len - (max_type_data - 5) + max_type_data - 2) /
	                                           (max_type_data - 1));
	out = eap_tls_reassembler_take(r);
	g_assert_true(g_bytes_equal(out, message));
}

static void
test_round_trip(void)
{
	const gsize sizes[] = {0, 1, 10, 1393, 1394, 1395, 2281, 5000, 65536};
	const gsize mtus[] = {16, 17, 100, 1395, 1398};

	for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++)
		for (gsize j = 0; j < G_N_ELEMENTS(mtus); j++)
			round_trip(sizes[i], mtus[j]);
}

static void
test_fragmenter_shape(void)
{
	/* hostapd-like numbers: 2281 octets, 1398 octets of Type-Data. */
	g_autofree guint8 *data = g_malloc0(2281);
	g_autoptr(GBytes) message = g_bytes_new(data, 2281);
	g_autoptr(EapTlsFragmenter) f = eap_tls_fragmenter_new();
	g_autoptr(GByteArray) p1 = g_byte_array_new();
	g_autoptr(GByteArray) p2 = g_byte_array_new();
	const guint8 head[] = {0xc0, 0, 0, 0x08, 0xe9};

	eap_tls_fragmenter_set(f, message);
	eap_tls_fragmenter_next(f, 1398, 0, p1);
	g_assert_cmpuint(p1->len, ==, 1398);
	g_assert_cmpmem(p1->data, 5, head, sizeof(head));
	eap_tls_fragmenter_next(f, 1398, 0, p2);
	g_assert_cmpuint(p2->data[0], ==, 0x00);
	g_assert_cmpuint(p2->len, ==, 1 + 2281 - 1393);
	g_assert_false(eap_tls_fragmenter_pending(f));
	/* With nothing queued, the next packet is an ACK: Flags only. */
	{
		g_autoptr(GByteArray) ack = g_byte_array_new();
		eap_tls_fragmenter_next(f, 1398, 1, ack);
		g_assert_cmpuint(ack->len, ==, 1);
		g_assert_cmpuint(ack->data[0], ==, 0x01);
	}
}

static void
test_domain_mask(void)
{
	const struct {
		const gchar *mask, *name;
		gboolean match;
	} cases[] = {
	        {"auth.test", "auth.test", TRUE},
	        {"AUTH.test", "auth.TEST", TRUE},
	        {"auth.test", "auth.test.", TRUE},
	        {"auth.test", "other.test", FALSE},
	        {"auth.test", "x.auth.test", FALSE},
	        {"x.auth.test", "auth.test", FALSE},
	        {"*.test", "auth.test", TRUE},
	        {"*.example.com", "radius.example.com", TRUE},
	        {"*.example.com", "a.b.example.com", TRUE},
	        {"*.example.com", "example.com", FALSE},
	        {"radius.*.com", "radius.example.com", TRUE},
	        {"radius.*.com", "radius.a.b.com", FALSE},
	        {"*", "anything", TRUE},
	        {"auth..test", "auth..test", FALSE},
	        {"", "auth.test", FALSE},
	        {"auth.test", "", FALSE},
	};
	const gchar *names[] = {"radius.corp.example", "auth.test", NULL};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		if (eap_tls_domain_mask_match(cases[i].mask, cases[i].name) != cases[i].match)
			g_error("mask \"%s\" name \"%s\": expected %d", cases[i].mask,
			        cases[i].name, cases[i].match);
	}
	g_assert_true(eap_tls_domain_masks_match("foo.example; auth.test", names));
	g_assert_true(eap_tls_domain_masks_match("*.example", names));
	g_assert_false(eap_tls_domain_masks_match("foo.example;;", names));
	g_assert_false(eap_tls_domain_masks_match("auth.test", NULL));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/eap/tls-frag/header", test_header);
	g_test_add_func("/eap/tls-frag/single", test_single);
	g_test_add_func("/eap/tls-frag/fragments", test_fragments);
	for (gsize i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		g_autofree gchar *path = g_strdup_printf("/eap/tls-frag/bad/%s", bad_cases[i].name);
		g_test_add_data_func(path, &bad_cases[i], test_bad);
	}
	g_test_add_func("/eap/tls-frag/round-trip", test_round_trip);
	g_test_add_func("/eap/tls-frag/fragmenter-shape", test_fragmenter_shape);
	g_test_add_func("/eap/tls-frag/domain-mask", test_domain_mask);
	return g_test_run();
}
