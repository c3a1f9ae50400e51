/* neighbor.h - 802.11k neighbour reports: the Neighbor Report element
 * (IEEE 802.11-2020 9.4.2.36), the Neighbor Report Request a station sends
 * (9.6.6.6) and the Response it reads (9.6.6.7). A BSS Transition
 * Management request carries its candidates as the same elements (btm.h).
 * Pure: bodies in, values out. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_IE_NEIGHBOR_REPORT 52

/* Radio measurement action codes (9.6.6.1, table 9-342). */
enum {
	WIFI_RM_ACTION_NEIGHBOR_REQUEST = 4,
	WIFI_RM_ACTION_NEIGHBOR_RESPONSE = 5,
};

/* BSSID Information (figure 9-338): AP reachability in bits 0-1, then
 * single bits. */
#define WIFI_NEIGHBOR_REACHABILITY(info) ((info)&0x3u)
#define WIFI_NEIGHBOR_NOT_REACHABLE      1u
#define WIFI_NEIGHBOR_INFO_SECURITY      (1u << 2)
#define WIFI_NEIGHBOR_INFO_RM            (1u << 7)
#define WIFI_NEIGHBOR_INFO_MOBILITY      (1u << 10)

typedef struct {
	guint8 bssid[6];
	guint32 info; /* BSSID Information */
	guint8 op_class;
	guint8 channel;
	guint8 phy_type;
	guint32 freq; /* MHz from op_class and channel; 0 when unknown */
	/* BSS Transition Candidate Preference subelement (9.4.2.36): 255 is
	 * the most preferred, 0 an excluded BSS. */
	gboolean has_preference;
	guint8 preference;
	/* BSS Termination Duration subelement: when and for how long. */
	gboolean has_termination;
	guint64 termination_tsf;
	guint16 termination_minutes;
} WifiNeighbor;

/* A Neighbor Report element's body (after ID and length). */
gboolean wifi_neighbor_parse(const guint8 *body, gsize len, WifiNeighbor *out, GError **error);
/* The Neighbor Report elements of an element list, in order (others are
 * skipped); an empty array when there are none. Fails when the list or
 * one of them is malformed. */
GArray *wifi_neighbor_list_parse(const guint8 *data, gsize len, GError **error);

/* The centre frequency of a channel in a global operating class (Annex E,
 * table E-4), or by the channel's number where the class is a country's:
 * 1-14 in 2.4 GHz, else 5 GHz. 0 when it names none. */
guint32 wifi_op_class_channel_to_freq(guint8 op_class, guint8 channel);

/* A Neighbor Report Request's body (category first): the dialog token
 * and, when ssid is given, an SSID element naming the ESS asked about. */
GBytes *wifi_neighbor_request_build(guint8 token, const guint8 *ssid, gsize ssid_len);
/* A Neighbor Report Response's body (category first): its dialog token
 * and its neighbours (GArray of WifiNeighbor, possibly empty). */
gboolean wifi_neighbor_response_parse(const guint8 *body, gsize len, guint8 *token,
                                      GArray **neighbors, GError **error);

G_END_DECLS
