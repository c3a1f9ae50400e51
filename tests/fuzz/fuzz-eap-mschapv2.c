/* fuzz-eap-mschapv2.c - EAP-MSCHAPv2's parsers on the whole input, then
 * the method in a session: the input is a sequence of Type-Data chunks
 * (each prefixed by a 16-bit length) sent as EAP-MSCHAPv2 Requests after a
 * Request/Identity. */
#include <stdint.h>
#include <string.h>

#include <gio/gio.h>

#include "eap-mschapv2-packet.h"
#include "eap-mschapv2.h"
#include "joind-eap-packet.h"
#include "joind-eap-private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_send(JoindEapSession *s, const guint8 *packet, gsize len, gpointer data)
{
	JoindEapPacket p;

	/* Everything the peer sends must itself parse as a Response. */
	if (!joind_eap_packet_parse(packet, len, &p, NULL) || p.code != JOIND_EAP_CODE_RESPONSE)
		abort();
}

static void
fuzz_parsers(const uint8_t *data, size_t size)
{
	EapMschapv2Request req;
	EapMschapFailure failure;
	const gchar *auth = NULL;
	gchar *text = NULL;

	if (eap_mschapv2_request_parse(data, size, &req, NULL) &&
	    req.op_code == EAP_MSCHAPV2_OP_FAILURE &&
	    eap_mschap_failure_parse(req.message, req.message_len, &failure, NULL)) {
		g_free(eap_mschap_failure_describe(&failure));
		eap_mschap_failure_clear(&failure);
	}
	if (eap_mschap_success_parse(data, size, &auth, &text, NULL) && auth[0] != 'S')
		abort();
	g_free(text);
	if (eap_mschap_failure_parse(data, size, &failure, NULL))
		eap_mschap_failure_clear(&failure);
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
	JoindEapSession *s;
	guint8 id = 1;

	if (!registered) {
		joind_eap_register_method(&eap_mschapv2_ops, NULL);
		registered = TRUE;
	}
	fuzz_parsers(data, size);
	g_key_file_set_string(kf, "Security", "EAP-Method", "MSCHAPV2");
	g_key_file_set_string(kf, "Security", "EAP-Identity", "DOMAIN\\fuzzer");
	if (size > 0 && (data[0] & 0x80))
		g_key_file_set_string(kf, "Security", "EAP-Password-Hash",
		                      "44EBBA8D5312B8D611474411F56989AE");
	else
		g_key_file_set_string(kf, "Security", "EAP-Password", "clientPass");
	s = joind_eap_session_new_for_keyfile(kf, &callbacks, NULL);
	fuzz_rx(s, id++, JOIND_EAP_TYPE_IDENTITY, NULL, 0);
	while (size >= 2) {
		gsize len = MIN((gsize)((data[0] << 8) | data[1]), size - 2);

		fuzz_rx(s, id++, JOIND_EAP_TYPE_MSCHAPV2, data + 2, MIN(len, 1400));
		data += 2 + len;
		size -= 2 + len;
	}
	joind_eap_session_unref(s);
	return 0;
}
