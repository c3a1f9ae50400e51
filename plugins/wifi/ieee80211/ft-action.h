/* ft-action.h - the Fast BSS Transition Action frames (IEEE 802.11-2020
 * 9.6.8, category 6) of a transition over the DS: the station's FT
 * Request, sent to the access point it is associated with and forwarded
 * to the target, and the target's FT Response that comes back the same
 * way. Each carries the station's address, the target's BSSID and the
 * elements an FT authentication frame carries (ft-ie.h); the response
 * also a status code. Pure: octets in, values out; the parser has a fuzz
 * target. The MAC header around them is action.h's. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* FT Action field values (table 9-485). */
enum {
	WIFI_FT_ACTION_REQUEST = 1,
	WIFI_FT_ACTION_RESPONSE = 2,
};

typedef struct {
	guint8 action; /* WIFI_FT_ACTION_REQUEST or _RESPONSE */
	guint8 sta[6];
	guint8 target[6];
	guint16 status;    /* the response's; 0 in a request */
	const guint8 *ies; /* the elements that follow (into the body) */
	gsize ies_len;
} WifiFtAction;

/* An FT Request's body, from the category octet on: sta asks for a
 * transition to target with ies (RSNE, MDE, FTE). */
GBytes *wifi_ft_action_request_build(const guint8 sta[6], const guint8 target[6], const guint8 *ies,
                                     gsize ies_len);
/* An FT Request's or Response's body, from the category octet on (an
 * action frame's WifiActionFrame.body). Fails with WIFI_ACTION_ERROR:
 * MALFORMED when it is short, OTHER when it is another category or
 * action. The elements are pointed at, not checked (wifi_ft_ies_parse()). */
gboolean wifi_ft_action_parse(const guint8 *body, gsize len, WifiFtAction *out, GError **error);

G_END_DECLS
