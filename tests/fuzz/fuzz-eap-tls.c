/* fuzz-eap-tls.c - the EAP-TLS fragment reassembler: the input is a series
 * of packets (16-bit length prefix each) pushed into one reassembler, and
 * every completed message is fragmented again and reassembled, which must
 * give it back unchanged. */
#include <stdint.h>
#include <stdlib.h>

#include <gio/gio.h>

#include "eap-tls-frag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_round_trip(GBytes *message, gsize mtu)
{
	g_autoptr(EapTlsFragmenter) f = eap_tls_fragmenter_new();
	g_autoptr(EapTlsReassembler) r = eap_tls_reassembler_new(EAP_TLS_MAX_MESSAGE);
	g_autoptr(GBytes) again = NULL;
	gboolean complete = FALSE;

	eap_tls_fragmenter_set(f, message);
	while (!complete) {
		g_autoptr(GByteArray) pkt = g_byte_array_new();
		EapTlsHeader h;

		eap_tls_fragmenter_next(f, mtu, 0, pkt);
		if (!eap_tls_header_parse(pkt->data, pkt->len, &h, NULL) ||
		    !eap_tls_reassembler_push(r, &h, &complete, NULL))
			abort();
	}
	again = eap_tls_reassembler_take(r);
	if (!g_bytes_equal(again, message))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(EapTlsReassembler) r = eap_tls_reassembler_new(4096);

	while (size >= 2) {
		gsize len = MIN((gsize)((data[0] << 8) | data[1]), size - 2);
		gboolean complete = FALSE;
		EapTlsHeader h;

		if (eap_tls_header_parse(data + 2, len, &h, NULL) &&
		    eap_tls_reassembler_push(r, &h, &complete, NULL) && complete) {
			g_autoptr(GBytes) message = eap_tls_reassembler_take(r);
			fuzz_round_trip(message, 16 + (len % 200));
		}
		data += 2 + len;
		size -= 2 + len;
	}
	return 0;
}
