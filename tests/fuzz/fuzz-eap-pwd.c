/* fuzz-eap-pwd.c - EAP-pwd's header, ID and reassembly parsers and the
 * commit validation on the input, then the method in a session: the input
 * is a sequence of Type-Data chunks (each prefixed by a 16-bit length) sent
 * as EAP-pwd Requests after a Request/Identity. */
#include <stdint.h>
#include <string.h>

#include <gio/gio.h>

#include "eap-pwd-crypto.h"
#include "eap-pwd-packet.h"
#include "eap-pwd.h"
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
fuzz_parsers(const uint8_t *data, size_t size)
{
	static EapPwdExchange *ex;
	EapPwdReassembly r = {0};
	EapPwdHeader h;
	EapPwdId id;
	GBytes *msg = NULL;
	guint8 commit[EAP_PWD_COMMIT_LEN];

	if (eap_pwd_header_parse(data, size, &h, NULL)) {
		if (eap_pwd_reassembly_add(&r, &h, &msg, NULL) == EAP_PWD_REASSEMBLY_COMPLETE &&
		    g_bytes_get_size(msg) != h.payload_len)
			abort();
		g_clear_pointer(&msg, g_bytes_unref);
		eap_pwd_reassembly_clear(&r);
	}
	eap_pwd_id_parse(data, size, &id, NULL);
	/* Commit validation on the raw input, with a fixed password element. */
	if (ex == NULL) {
		static const guint8 token[4] = {1, 2, 3, 4};
		ex = eap_pwd_exchange_new(19, NULL);
		eap_pwd_exchange_derive_pwe(ex, token, (const guint8 *)"p", 1, (const guint8 *)"s",
		                            1, (const guint8 *)"pw", 2, NULL, NULL);
		eap_pwd_exchange_commit(ex, commit, NULL);
	}
	eap_pwd_exchange_process_commit(ex, data, size, NULL);
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
		joind_eap_register_method(&eap_pwd_ops, NULL);
		registered = TRUE;
	}
	fuzz_parsers(data, size);
	g_key_file_set_string(kf, "Security", "EAP-Method", "PWD");
	g_key_file_set_string(kf, "Security", "EAP-Identity", "fuzzer");
	g_key_file_set_string(kf, "Security", "EAP-Password", "pw");
	s = joind_eap_session_new_for_keyfile(kf, &callbacks, NULL);
	/* Small packets, so that the peer fragments too. */
	joind_eap_session_set_mtu(s, 40);
	fuzz_rx(s, id++, JOIND_EAP_TYPE_IDENTITY, NULL, 0);
	while (size >= 2) {
		gsize len = MIN((gsize)((data[0] << 8) | data[1]), size - 2);

		fuzz_rx(s, id++, JOIND_EAP_TYPE_PWD, data + 2, MIN(len, 1400));
		data += 2 + len;
		size -= 2 + len;
	}
	joind_eap_session_unref(s);
	return 0;
}
