/* ft-action.c - the FT Action frames of a transition over the DS (see
 * ft-action.h). */
#include "ft-action.h"

#include <string.h>

#include "action.h"

/* Category, action, the two addresses (9.6.8.2); the response's status
 * follows them (9.6.8.3). */
#define FT_ACTION_HEAD     14
#define FT_RESPONSE_STATUS 2

GBytes *
wifi_ft_action_request_build(const guint8 sta[6], const guint8 target[6], const guint8 *ies,
                             gsize ies_len)
{
	guint8 *body = g_malloc(FT_ACTION_HEAD + ies_len);

	body[0] = WIFI_ACTION_FT;
	body[1] = WIFI_FT_ACTION_REQUEST;
	memcpy(body + 2, sta, 6);
	memcpy(body + 8, target, 6);
	if (ies_len > 0)
		memcpy(body + FT_ACTION_HEAD, ies, ies_len);
	return g_bytes_new_take(body, FT_ACTION_HEAD + ies_len);
}

gboolean
wifi_ft_action_parse(const guint8 *body, gsize len, WifiFtAction *out, GError **error)
{
	gsize head = FT_ACTION_HEAD;

	if (body == NULL || len < 2) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED,
		            "An action frame body of %zu octets is too short.", len);
		return FALSE;
	}
	if (body[0] != WIFI_ACTION_FT ||
	    (body[1] != WIFI_FT_ACTION_REQUEST && body[1] != WIFI_FT_ACTION_RESPONSE)) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_OTHER,
		            "Action category %u, action %u is no FT Request or Response.", body[0],
		            body[1]);
		return FALSE;
	}
	if (body[1] == WIFI_FT_ACTION_RESPONSE)
		head += FT_RESPONSE_STATUS;
	if (len < head) {
		g_set_error(error, WIFI_ACTION_ERROR, WIFI_ACTION_ERROR_MALFORMED,
		            "An FT %s of %zu octets is too short (%zu at least).",
		            body[1] == WIFI_FT_ACTION_REQUEST ? "Request" : "Response", len, head);
		return FALSE;
	}
	memset(out, 0, sizeof(*out));
	out->action = body[1];
	memcpy(out->sta, body + 2, 6);
	memcpy(out->target, body + 8, 6);
	if (body[1] == WIFI_FT_ACTION_RESPONSE)
		out->status = (guint16)(body[FT_ACTION_HEAD] | body[FT_ACTION_HEAD + 1] << 8);
	out->ies = body + head;
	out->ies_len = len - head;
	return TRUE;
}
