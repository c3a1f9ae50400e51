/* btm.c - 802.11v BSS Transition Management frames (see btm.h). */
#include "btm.h"

#include "action.h"
#include "neighbor.h"

#define BTM_FIXED_LEN       7  /* category, action, token, mode, timer (2), validity */
#define BTM_TERMINATION_LEN 12 /* subelement 4: id, length 10, TSF (8), minutes (2) */

static gboolean
malformed(GError **error, const gchar *what)
{
	g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED, "%s", what);
	return FALSE;
}

/* The BSS Termination Duration and the Session Information URL, present
 * as the request mode says; *pos moves past them. */
static gboolean
btm_optional_fields(const guint8 *body, gsize len, gsize *pos, WifiBtmRequest *out, GError **error)
{
	if (out->mode & WIFI_BTM_MODE_BSS_TERMINATION) {
		const guint8 *t = body + *pos;

		if (len - *pos < BTM_TERMINATION_LEN || t[0] != 4 || t[1] != 10)
			return malformed(error, "A BSS transition request's termination duration "
			                        "is missing or malformed.");
		out->termination_tsf = 0;
		for (guint i = 8; i-- > 0;)
			out->termination_tsf = (out->termination_tsf << 8) | t[2 + i];
		out->termination_minutes = (guint16)(t[10] | (t[11] << 8));
		*pos += BTM_TERMINATION_LEN;
	}
	if (out->mode & WIFI_BTM_MODE_ESS_DISASSOC) {
		if (len - *pos < 1 || body[*pos] > len - *pos - 1)
			return malformed(error, "A BSS transition request's session URL runs past "
			                        "its end.");
		out->url = g_strndup((const gchar *)body + *pos + 1, body[*pos]);
		*pos += 1u + body[*pos];
	}
	return TRUE;
}

gboolean
wifi_btm_request_parse(const guint8 *body, gsize len, WifiBtmRequest *out, GError **error)
{
	gsize pos = BTM_FIXED_LEN;

	if (body == NULL || len < BTM_FIXED_LEN)
		return malformed(error, "A BSS transition request is shorter than 7 octets.");
	if (body[0] != WIFI_ACTION_WNM || body[1] != WIFI_WNM_ACTION_BTM_REQUEST) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_OTHER,
		            "Action %u/%u is not a BSS transition request.", body[0], body[1]);
		return FALSE;
	}
	*out = (WifiBtmRequest){
	        .token = body[2],
	        .mode = body[3],
	        .disassoc_timer = (guint16)(body[4] | (body[5] << 8)),
	        .validity = body[6],
	};
	if (!btm_optional_fields(body, len, &pos, out, error)) {
		wifi_btm_request_clear(out);
		return FALSE;
	}
	/* Without the flag the list is absent; vendor elements (MBO) may
	 * follow either way, and the list parser passes over them. */
	if (out->mode & WIFI_BTM_MODE_CANDIDATE_LIST)
		out->candidates = wifi_neighbor_list_parse(body + pos, len - pos, error);
	else
		out->candidates = g_array_new(FALSE, TRUE, sizeof(WifiNeighbor));
	if (out->candidates == NULL) {
		wifi_btm_request_clear(out);
		return FALSE;
	}
	return TRUE;
}

void
wifi_btm_request_clear(WifiBtmRequest *req)
{
	g_clear_pointer(&req->url, g_free);
	g_clear_pointer(&req->candidates, g_array_unref);
}

GBytes *
wifi_btm_response_build(guint8 token, WifiBtmStatus status, guint8 termination_delay,
                        const guint8 *target)
{
	GByteArray *out = g_byte_array_new();
	const guint8 head[] = {WIFI_ACTION_WNM, WIFI_WNM_ACTION_BTM_RESPONSE, token, (guint8)status,
	                       termination_delay};

	g_byte_array_append(out, head, sizeof(head));
	if (status == WIFI_BTM_ACCEPT && target != NULL)
		g_byte_array_append(out, target, 6);
	return g_byte_array_free_to_bytes(out);
}

static const gchar *const btm_status_names[] = {
        [WIFI_BTM_ACCEPT] = "accept",
        [WIFI_BTM_REJECT_UNSPECIFIED] = "reject",
        [WIFI_BTM_REJECT_INSUFFICIENT_BEACONS] = "reject: insufficient beacons",
        [WIFI_BTM_REJECT_INSUFFICIENT_CAPACITY] = "reject: insufficient capacity",
        [WIFI_BTM_REJECT_TERMINATION_UNDESIRED] = "reject: BSS termination undesired",
        [WIFI_BTM_REJECT_TERMINATION_DELAY] = "reject: BSS termination delay requested",
        [WIFI_BTM_REJECT_CANDIDATE_LIST_PROVIDED] = "reject: own candidate list provided",
        [WIFI_BTM_REJECT_NO_CANDIDATES] = "reject: no suitable candidates",
        [WIFI_BTM_REJECT_LEAVING_ESS] = "reject: leaving the ESS",
};
G_STATIC_ASSERT(G_N_ELEMENTS(btm_status_names) == WIFI_BTM_REJECT_LEAVING_ESS + 1);

const gchar *
wifi_btm_status_to_string(WifiBtmStatus status)
{
	if ((guint)status >= G_N_ELEMENTS(btm_status_names))
		return "reserved";
	return btm_status_names[status];
}
