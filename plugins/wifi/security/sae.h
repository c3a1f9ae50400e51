/* sae.h - one SAE exchange (IEEE 802.11-2020 12.4): its own state machine
 * (12.4.8.6: Nothing, Committed, Confirmed, Accepted), the commit and
 * confirm it sends and reads, anti-clogging tokens, the groups it offers
 * in turn when the peer refuses one, the retransmission timer and the sync
 * counter; on acceptance, the PMK for the 4-way handshake.
 *
 * The exchange is symmetric: the station starts it (wifi_sae_start()); a
 * peer that receives a commit in Nothing answers it (the access point's
 * role, which the unit tests play). Frames go out through config->send as
 * nl80211's SAE data: transaction sequence number, status code, body. */
#pragma once

#include <glib.h>

#include "sae-frame.h"
#include "sae-pt.h"

G_BEGIN_DECLS

typedef enum {
	WIFI_SAE_NOTHING,
	WIFI_SAE_COMMITTED,
	WIFI_SAE_CONFIRMED,
	WIFI_SAE_ACCEPTED,
	WIFI_SAE_LAST = WIFI_SAE_ACCEPTED, /* move with a new last state: the names check it */
} WifiSaeState;

/* The retransmissions a state makes before it gives up
 * (dot11RSNASAESync). */
#define WIFI_SAE_MAX_SYNC 5

typedef void (*WifiSaeSendFunc)(const guint8 *data, gsize len, gpointer user_data);
/* The exchange is over: error is NULL when accepted. Called last: the
 * callee may free the exchange. */
typedef void (*WifiSaeDoneFunc)(const GError *error, gpointer user_data);

typedef struct {
	guint8 own_addr[6];
	guint8 peer_addr[6];
	const guint8 *password;
	gsize password_len;
	const guint8 *ssid; /* hash-to-element's PT */
	gsize ssid_len;
	const gchar *identifier; /* password identifier, or NULL */
	const guint *groups;     /* offered in this order */
	guint n_groups;
	gboolean h2e; /* hash-to-element, else hunting and pecking */
	/* H2E: the network's PTs, read and filled per group (borrowed: it
	 * outlives the exchange), or NULL: each derived and dropped. */
	WifiSaePtCache *pts;
	guint retrans_ms; /* the retransmission period; 0: one second */
	WifiSaeSendFunc send;
	WifiSaeDoneFunc done;
	gpointer user_data;
} WifiSaeConfig;

typedef struct _WifiSae WifiSae;

/* Copies what config points to. Fails for a list of groups of which
 * none is supported. */
WifiSae *wifi_sae_new(const WifiSaeConfig *config, GError **error);
void wifi_sae_free(WifiSae *sae);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiSae, wifi_sae_free)

/* Sends the first commit. */
void wifi_sae_start(WifiSae *sae);
/* An authentication frame of the peer: its sequence number (1 commit,
 * 2 confirm), status code and the body after them. */
void wifi_sae_rx(WifiSae *sae, guint16 seq, guint16 status, const guint8 *body, gsize len);

WifiSaeState wifi_sae_get_state(const WifiSae *sae);
/* The group in use (or last tried). */
guint wifi_sae_get_group(const WifiSae *sae);
/* Accepted only: the PMK (WIFI_SAE_PMK_LEN octets) and its PMKID
 * (WIFI_SAE_PMKID_LEN), for the 4-way handshake and the PMKSA cache. */
const guint8 *wifi_sae_get_pmk(const WifiSae *sae);
const guint8 *wifi_sae_get_pmkid(const WifiSae *sae);

G_END_DECLS
