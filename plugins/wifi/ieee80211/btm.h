/* btm.h - 802.11v BSS Transition Management: the request an access point
 * sends (IEEE 802.11-2020 9.6.13.9) and the response a station answers
 * with (9.6.13.10). The request's candidates are Neighbor Report elements
 * (neighbor.h). Pure: bodies in, values out. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* WNM action codes (9.6.13.1, table 9-425). */
enum {
	WIFI_WNM_ACTION_BTM_QUERY = 6,
	WIFI_WNM_ACTION_BTM_REQUEST = 7,
	WIFI_WNM_ACTION_BTM_RESPONSE = 8,
};

/* Request Mode (figure 9-924). */
#define WIFI_BTM_MODE_CANDIDATE_LIST    (1u << 0)
#define WIFI_BTM_MODE_ABRIDGED          (1u << 1)
#define WIFI_BTM_MODE_DISASSOC_IMMINENT (1u << 2)
#define WIFI_BTM_MODE_BSS_TERMINATION   (1u << 3)
#define WIFI_BTM_MODE_ESS_DISASSOC      (1u << 4)

/* BTM status codes (table 9-428). */
typedef enum {
	WIFI_BTM_ACCEPT = 0,
	WIFI_BTM_REJECT_UNSPECIFIED = 1,
	WIFI_BTM_REJECT_INSUFFICIENT_BEACONS = 2,
	WIFI_BTM_REJECT_INSUFFICIENT_CAPACITY = 3,
	WIFI_BTM_REJECT_TERMINATION_UNDESIRED = 4,
	WIFI_BTM_REJECT_TERMINATION_DELAY = 5,
	WIFI_BTM_REJECT_CANDIDATE_LIST_PROVIDED = 6,
	WIFI_BTM_REJECT_NO_CANDIDATES = 7,
	WIFI_BTM_REJECT_LEAVING_ESS = 8,
} WifiBtmStatus;

typedef struct {
	guint8 token;
	guint8 mode;             /* WIFI_BTM_MODE_* */
	guint16 disassoc_timer;  /* TBTTs until the AP disassociates us; 0: unknown */
	guint8 validity;         /* TBTTs the candidate list holds; 0 is reserved */
	guint64 termination_tsf; /* with WIFI_BTM_MODE_BSS_TERMINATION */
	guint16 termination_minutes;
	gchar *url;         /* Session Information URL (ESS disassociation), or NULL */
	GArray *candidates; /* WifiNeighbor, in the AP's order; never NULL once parsed */
} WifiBtmRequest;

/* A BTM request's body (category first). Fails on a short or inconsistent
 * frame (a flagged field missing, a candidate that does not parse). */
gboolean wifi_btm_request_parse(const guint8 *body, gsize len, WifiBtmRequest *out, GError **error);
void wifi_btm_request_clear(WifiBtmRequest *req);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(WifiBtmRequest, wifi_btm_request_clear)

/* A BTM response's body (category first). target (may be NULL) names the
 * BSS we move to and is sent only with WIFI_BTM_ACCEPT. */
GBytes *wifi_btm_response_build(guint8 token, WifiBtmStatus status, guint8 termination_delay,
                                const guint8 *target);
/* Words for the log and diagnostics. */
const gchar *wifi_btm_status_to_string(WifiBtmStatus status);

G_END_DECLS
