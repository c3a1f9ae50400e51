/* fuzz-eap-ttls-avp.c - EAP-TTLS's AVP reader and the MS-CHAP2-Success
 * check on whatever it yields. */
#include <stdint.h>

#include <gio/gio.h>

#include "eap-ttls-avp.h"
#include "eap-ttls-phase2.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const gchar expected[EAP_MSCHAP_AUTH_RESPONSE_LEN] =
	        "S=407A5589115FD0D6209F510FE9C04566932CDA56";
	EapTtlsAvps avps;
	gsize pos = 0;
	EapTtlsAvp avp;

	while (pos < size && eap_ttls_avp_next(data, size, &pos, &avp, NULL)) {
		if (avp.data + avp.len > data + size)
			abort();
	}
	if (!eap_ttls_avps_parse(data, size, &avps, NULL))
		return 0;
	if (avps.ms_chap2_success != NULL) {
		gsize len;
		const guint8 *d = g_bytes_get_data(avps.ms_chap2_success, &len);
		eap_ttls_mschapv2_verify(d, len, 7, expected, NULL);
	}
	eap_ttls_avps_clear(&avps);
	return 0;
}
