/* fuzz-eapol.c - EAPOL frame parser (plugins/ethernet-8021x/wired-eapol.c).
 *
 * Every input is parsed as a whole Ethernet frame and as a bare EAPOL PDU;
 * what parses must point inside the input, and must survive a rebuild and
 * a second parse unchanged. */
#include <stdint.h>
#include <string.h>

#include "wired-eapol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_pdu(const guint8 *data, gsize size, const WiredEapolPdu *pdu)
{
	g_autoptr(GByteArray) frame = NULL;
	WiredEapolFrame again;
	static const guint8 src[WIRED_ETH_ALEN] = {2, 0, 0, 0, 0, 1};

	g_assert_true(pdu->body >= data);
	g_assert_true(pdu->body + pdu->body_len <= data + size);
	frame = wired_eapol_build_frame(wired_eapol_pae_group, src, pdu->type, pdu->body,
	                                pdu->body_len);
	g_assert_true(wired_eapol_parse_frame(frame->data, frame->len, &again, NULL));
	g_assert_cmpuint(again.pdu.type, ==, pdu->type);
	g_assert_cmpuint(again.pdu.body_len, ==, pdu->body_len);
	g_assert_true(pdu->body_len == 0 || memcmp(again.pdu.body, pdu->body, pdu->body_len) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	WiredEapolFrame frame;
	WiredEapolPdu pdu;
	GError *error = NULL;

	if (wired_eapol_parse_frame(data, size, &frame, &error))
		check_pdu(data, size, &frame.pdu);
	else
		g_assert_nonnull(error);
	g_clear_error(&error);
	if (wired_eapol_parse(data, size, &pdu, &error))
		check_pdu(data, size, &pdu);
	else
		g_assert_nonnull(error);
	g_clear_error(&error);
	return 0;
}
