/* fuzz-eap-peap-tlv.c - PEAP's Extensions TLV parser, and the Crypto-Binding
 * check and answer for whatever it accepts. */
#include <stdint.h>

#include <gio/gio.h>

#include "eap-peap-tlv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const guint8 cmk[EAP_PEAP_CMK_LEN] = {1, 2, 3};
	g_autoptr(GByteArray) out = g_byte_array_new();
	EapPeapTlvs tlvs;

	if (!eap_peap_tlvs_parse(data, size, &tlvs, NULL))
		return 0;
	if (tlvs.result != 0 && tlvs.result != EAP_PEAP_RESULT_SUCCESS &&
	    tlvs.result != EAP_PEAP_RESULT_FAILURE)
		abort();
	if (tlvs.has_binding) {
		eap_peap_binding_verify(&tlvs, cmk, NULL);
		if (!eap_peap_binding_build(out, &tlvs, cmk, NULL) ||
		    out->len != EAP_PEAP_BINDING_TLV_LEN)
			abort();
	}
	return 0;
}
