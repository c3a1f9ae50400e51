/* fuzz-eap-gtc.c - EAP-GTC's prompt parser on the whole input, then the
 * method in a session: the input is a sequence of Type-Data chunks (each
 * prefixed by a 16-bit length) sent as EAP-GTC Requests after a
 * Request/Identity. */
#include <stdint.h>
#include <string.h>

#include <gio/gio.h>

#include "eap-gtc.h"
#include "joind-eap-packet.h"
#include "joind-eap-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	JoindEapPacket p;

	if (!joind_eap_packet_parse(packet, len, &p, NULL) || p.code != JOIND_EAP_CODE_RESPONSE)
		abort();
}

static void
fuzz_rx(JoindEapSession *s, guint8 id, guint8 type, const guint8 *type_data, gsize len)
{
	g_autoptr(GByteArray) p = g_byte_array_new();
	guint8 header[5] = {JOIND_EAP_CODE_REQUEST, id, (guint8)((len + 5) >> 8),
	                    (guint8)((len + 5) & 0xff), type};

	g_byte_array_append(p, header, sizeof(header));
	g_byte_array_append(p, type_data, (guint)len);
	joind_eap_session_rx(s, p->data, p->len, NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const JoindEapSessionCallbacks callbacks = {.send = fuzz_send};
	static gboolean registered;
	g_autoptr(GKeyFile) kf = g_key_file_new();
	EapGtcRequest req;
	JoindEapSession *s;
	guint8 id = 1;

	if (!registered) {
		joind_eap_register_method(&eap_gtc_ops, NULL);
		registered = TRUE;
	}
	if (eap_gtc_request_parse(data, size, &req, NULL)) {
		if (!g_utf8_validate(req.prompt, -1, NULL))
			abort();
		eap_gtc_request_clear(&req);
	}
	g_key_file_set_string(kf, "Security", "EAP-Method", "GTC");
	g_key_file_set_string(kf, "Security", "EAP-Identity", "fuzzer");
	g_key_file_set_string(kf, "Security", "EAP-Password", "token");
	s = joind_eap_session_new_for_keyfile(kf, &callbacks, NULL);
	fuzz_rx(s, id++, JOIND_EAP_TYPE_IDENTITY, NULL, 0);
	while (size >= 2) {
		gsize len = MIN((gsize)((data[0] << 8) | data[1]), size - 2);

		fuzz_rx(s, id++, JOIND_EAP_TYPE_GTC, data + 2, MIN(len, 1400));
		data += 2 + len;
		size -= 2 + len;
	}
	joind_eap_session_unref(s);
	return 0;
}
