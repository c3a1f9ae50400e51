/* action.h - IEEE 802.11 Action frames (802.11-2020 9.3.3.13): the MAC
 * header around a category's body, as NL80211_CMD_FRAME sends and
 * reports them. The bodies are built and parsed by each category's file
 * (neighbor.h: radio measurement, btm.h: WNM, ft-action.h: fast BSS
 * transition). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Categories (9.4.1.11, table 9-51). */
enum {
	WIFI_ACTION_RADIO_MEASUREMENT = 5,
	WIFI_ACTION_FT = 6,
	WIFI_ACTION_WNM = 10,
};

#define WIFI_ACTION_ERROR (wifi_action_error_quark())
GQuark wifi_action_error_quark(void);
typedef enum {
	WIFI_ACTION_ERROR_MALFORMED, /* short, or a field out of its range */
	WIFI_ACTION_ERROR_OTHER,     /* well formed, but another frame than asked */
} WifiActionError;

typedef struct {
	guint8 da[6];
	guint8 sa[6];
	guint8 bssid[6];
	guint8 category;
	const guint8 *body; /* from the category octet on (into the frame) */
	gsize body_len;
} WifiActionFrame;

/* Parses an Action (or Action No Ack) frame's MAC header; the body is
 * pointed at. Fails on a short frame or another frame type. */
gboolean wifi_action_parse(const guint8 *data, gsize len, WifiActionFrame *out, GError **error);
/* An Action frame to bssid from sa carrying body (its category first). */
GBytes *wifi_action_build(const guint8 *bssid, const guint8 *sa, const guint8 *body,
                          gsize body_len);

G_END_DECLS
