/* fuzz-ap-request.c - what an access point parses from the air: probe,
 * authentication and (re)association requests, and the RSNE a request
 * carries; then the answer built from them. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ap-ies.h"
#include "ie.h"
#include "mgmt-request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_request(const uint8_t *data, size_t size, const WifiMgmtRequest *r)
{
	static const guint8 bssid[6] = {0x02, 0, 0, 0, 1, 0};
	g_autoptr(GBytes) answer = NULL;
	WifiRsnInfo rsn;
	WifiApIes ies = {0};

	g_assert_true(r->body >= data && r->body + r->body_len == data + size);
	g_assert_cmpuint(r->n_rates, <=, G_N_ELEMENTS(r->rates));
	if (r->has_ssid)
		g_assert_cmpuint(r->ssid_len, <=, 32);
	if (r->rsne != NULL) {
		g_assert_cmpuint(r->rsne[0], ==, WIFI_IE_RSN);
		g_assert_cmpuint(r->rsne_len, ==, (gsize)r->rsne[1] + 2);
		wifi_ie_parse_rsn(r->rsne + 2, r->rsne_len - 2, &rsn, NULL);
	}
	if (r->rsnxe != NULL)
		g_assert_cmpuint(r->rsnxe_len, ==, (gsize)r->rsnxe[1] + 2);
	ies.ssid = (const guint8 *)"fuzz";
	ies.ssid_len = 4;
	if (r->kind == WIFI_MGMT_REQUEST_PROBE) {
		if (wifi_ap_probe_matches(&ies, r->ssid, r->has_ssid ? r->ssid_len : 0))
			answer = wifi_ap_probe_response(&ies, r->sa);
	} else if (r->kind == WIFI_MGMT_REQUEST_AUTH) {
		answer = wifi_mgmt_build_auth(bssid, r->sa, r->auth_algorithm, 2, 0, NULL, 0);
	} else {
		answer = wifi_mgmt_build_assoc_resp(
		        bssid, r->sa, r->kind == WIFI_MGMT_REQUEST_REASSOC, 0x0431, 0, 1, NULL, 0);
	}
	if (answer != NULL)
		g_assert_cmpuint(g_bytes_get_size(answer), >=, 24);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	WifiMgmtRequest r;

	if (wifi_mgmt_parse_request(data, size, &r, &error))
		check_request(data, size, &r);
	else
		g_assert_nonnull(error);
	return 0;
}
