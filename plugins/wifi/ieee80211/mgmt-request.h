/* mgmt-request.h - the management frames a station sends an access point
 * (probe, authentication, (re)association requests; deauthentication and
 * disassociation are mgmt.h's), and the frames the access point answers
 * with (authentication, (re)association response, deauthentication).
 * Parsers take whole frames as nl80211 passes registered frames up
 * (NL80211_ATTR_FRAME) and point into them; builders return whole frames
 * for NL80211_CMD_FRAME.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	WIFI_MGMT_REQUEST_PROBE,
	WIFI_MGMT_REQUEST_AUTH,
	WIFI_MGMT_REQUEST_ASSOC,
	WIFI_MGMT_REQUEST_REASSOC,
} WifiMgmtRequestKind;

typedef struct {
	WifiMgmtRequestKind kind;
	guint8 da[6], sa[6], bssid[6];
	/* authentication */
	guint16 auth_algorithm; /* 0 open system, 3 SAE */
	guint16 auth_seq;
	guint16 status;
	/* (re)association */
	guint16 capabilities;
	guint16 listen_interval;
	guint8 current_ap[6]; /* reassociation only */
	/* The elements (association, probe) or the fields after the status
	 * (SAE's commit and confirm): pointers into the frame. */
	const guint8 *body;
	gsize body_len;
	/* From the elements of a probe or (re)association request; the
	 * RSNE and RSNXE whole (ID and length), NULL when absent. */
	gboolean has_ssid;
	const guint8 *ssid;
	gsize ssid_len;
	const guint8 *rsne;
	gsize rsne_len;
	const guint8 *rsnxe;
	gsize rsnxe_len;
	guint8 rates[16]; /* Supported and Extended Supported Rates */
	guint n_rates;
} WifiMgmtRequest;

/* Parses a request. Fails with WIFI_MGMT_ERROR_MALFORMED on a short frame,
 * another frame type, an element list that does not parse, or a repeated
 * SSID, RSNE or RSNXE (a station must not leave the access point guessing
 * what it asked for). */
gboolean wifi_mgmt_parse_request(const guint8 *data, gsize len, WifiMgmtRequest *out,
                                 GError **error);

/* An authentication frame from bssid to da: algorithm, sequence, status,
 * then body (SAE's fields; NULL for open system). */
GBytes *wifi_mgmt_build_auth(const guint8 bssid[6], const guint8 da[6], guint16 algorithm,
                             guint16 seq, guint16 status, const guint8 *body, gsize body_len);
/* A (re)association response: capabilities, status, AID (its two top
 * bits set, as the standard wants), then the elements ies. */
GBytes *wifi_mgmt_build_assoc_resp(const guint8 bssid[6], const guint8 da[6], gboolean reassoc,
                                   guint16 capabilities, guint16 status, guint16 aid,
                                   const guint8 *ies, gsize ies_len);
/* A deauthentication (or disassociation) frame with a reason code. */
GBytes *wifi_mgmt_build_leave(const guint8 bssid[6], const guint8 da[6], gboolean disassoc,
                              guint16 reason);

G_END_DECLS
