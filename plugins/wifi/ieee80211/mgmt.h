/* mgmt.h - the few IEEE 802.11 management frames joind reads whole:
 * deauthentication and disassociation (nl80211 hands them over in
 * DEAUTHENTICATE / DISASSOCIATE events). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_MGMT_ERROR (wifi_mgmt_error_quark())
GQuark wifi_mgmt_error_quark(void);
typedef enum {
	WIFI_MGMT_ERROR_MALFORMED,
} WifiMgmtError;

typedef struct {
	gboolean disassoc; /* disassociation, else deauthentication */
	guint8 da[6];
	guint8 sa[6];
	guint8 bssid[6];
	guint16 reason; /* IEEE 802.11 reason code */
} WifiMgmtLeave;

/* Parses a deauthentication or disassociation frame (the MAC header,
 * then the reason code; anything after it, e.g. vendor elements or a
 * MIC, is ignored). Fails with WIFI_MGMT_ERROR_MALFORMED on a short frame
 * or another frame type. */
gboolean wifi_mgmt_parse_leave(const guint8 *data, gsize len, WifiMgmtLeave *out, GError **error);

/* What answered our authentication or association request (nl80211 hands
 * the frame over in the AUTHENTICATE / ASSOCIATE event of a userspace
 * SME). */
typedef struct {
	gboolean assoc; /* an (re)association response, else an authentication */
	guint8 bssid[6];
	guint16 auth_algorithm; /* authentication only */
	guint16 auth_seq;       /* authentication only */
	guint16 status;         /* IEEE 802.11 status code, 0: success */
	guint16 aid;            /* association only, without the two top bits */
	const guint8 *ies;      /* association only: the elements (into the frame) */
	gsize ies_len;
} WifiMgmtAnswer;

/* Parses an authentication frame or a (re)association response: the MAC
 * header, then the fixed fields up to the status code; a response's
 * elements are pointed at, not parsed. Fails with WIFI_MGMT_ERROR_MALFORMED on a short frame or
 * another frame type. */
gboolean wifi_mgmt_parse_answer(const guint8 *data, gsize len, WifiMgmtAnswer *out, GError **error);

G_END_DECLS
