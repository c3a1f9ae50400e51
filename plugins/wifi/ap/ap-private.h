/* ap-private.h - the access point's object and its station table, shared
 * by ap.c (the BSS: start, stop, group key, event dispatch) and ap-sta.c
 * (each station: authentication, association, its 4-way handshake). */
#pragma once

#include "ap-ies.h"
#include "ap.h"
#include "mgmt-request.h"
#include "rsn-authenticator.h"
#include "sae.h"
#include "scan.h"
#include "sta-info.h"

G_BEGIN_DECLS

#define AP_MAX_AID 2007

typedef enum {
	AP_STA_AUTHENTICATED, /* open system authentication answered */
	AP_STA_ADDING,        /* NEW_STATION sent */
	AP_STA_KEYING,        /* associated, 4-way handshake under way */
	AP_STA_AUTHORIZED,    /* port open */
	AP_STA_STATE_LAST = AP_STA_AUTHORIZED,
} ApStaState;

typedef struct _WifiAp WifiAp;

typedef struct {
	WifiAp *ap;
	gint64 key; /* the address as a number: the table's key */
	guint8 mac[6];
	gchar name[18]; /* the address, for log lines */
	ApStaState state;
	guint16 aid;
	guint16 capabilities, listen_interval;
	gboolean reassoc;
	gboolean mfp;
	guint8 rates[16];
	guint n_rates;
	guint8 rsne[257];
	gsize rsne_len;
	guint8 rsnxe[257];
	gsize rsnxe_len;
	guint akm;             /* WifiAkmSuite of the association */
	WifiSae *sae;          /* SAE authentication under way */
	gboolean sae_accepted; /* pmk and pmkid are SAE's */
	gboolean sae_h2e;      /* the station's commit asked for hash-to-element */
	guint8 pmk[32];
	guint8 pmkid[16];
	WifiAuthenticator *auth;
	WifiStaInfo info;     /* the kernel's facts, from the last check */
	gboolean checked;     /* the check under way reported it */
	guint timer;          /* the handshake's retransmissions, or the wait for
	                       * the association response's acknowledgement */
	guint64 assoc_cookie; /* the association response's transmission */
	guint request;        /* the pending nl80211 request */
} ApSta;

struct _WifiAp {
	WifiIface *iface;
	WifiApCallbacks cb;
	gpointer user_data;
	WifiApState state;
	guint8 bssid[6];
	guint8 ssid[32];
	gsize ssid_len;
	gboolean open, hidden, mfpc, mfpr;
	WifiApSecurity security;
	gchar *passphrase;    /* SAE's password; NULL without SAE */
	guint8 rsnxe[3];      /* hash-to-element capable, with SAE */
	guint8 token_key[32]; /* SAE's anti-clogging tokens' */
	gsize rsnxe_len;
	guint32 freq;
	guint channel;
	guint rekey_interval, max_stations;
	guint8 pmk[32]; /* the PSK */
	/* An HMAC (token_key) of the SSID and secret pmk came from, when
	 * pmk_valid: a start with the same ones keeps it. */
	guint8 pmk_source[32];
	gboolean pmk_valid;
	guint8 rsne[257];
	gsize rsne_len;
	WifiGroupKeys gk;
	WifiApIes ies;
	GBytes *beacon_head, *beacon_tail;
	GHashTable *stations; /* &ApSta.key -> ApSta */
	guint step;           /* starting: the step under way */
	guint n_pending;      /* requests of the step not answered */
	GPtrArray *requests;  /* ids of the step's requests */
	guint rekey_timer;
	guint max_inactivity;
	guint check_timer;    /* the stations' facts */
	guint check_request;  /* the GET_STATION dump under way */
	WifiScanner *scanner; /* the channel choice's */
	GCancellable *cancel; /* cancelled when the AP goes */
	guint chosen;         /* the channel the scan's results point to */
	/* The latest transmission statuses no station was waiting for: the
	 * kernel sends a frame's status on the event socket and its cookie in
	 * the reply on the command socket, and the status can be read first. */
	struct {
		guint64 cookie;
		gboolean acked;
	} early[4];
	guint early_next;
};

/* The one place the AP's state changes: logs "old -> new (reason)". */
void wifi_ap_enter(WifiAp *self, WifiApState state, const gchar *reason);
/* Sends a request of the AP itself; done is called with the errno. */
guint wifi_ap_send(WifiAp *self, struct nl_msg *msg, WifiNlDoneFunc done, gpointer user_data);

/* The channel scan's results (ap-start.c). */
void wifi_ap_scan_results(GPtrArray *bsses, const GArray *scanned_freqs, gboolean authoritative,
                          gpointer user_data);

/* The station table (ap-sta.c). */
ApSta *wifi_ap_sta_lookup(WifiAp *ap, const guint8 mac[6]);
/* The one place a station's state changes: logs "old -> new (reason)". */
void wifi_ap_sta_enter(ApSta *sta, ApStaState state, const gchar *reason);
/* Ends a station (DEL_STATION, or a deauthentication with reason when it
 * was not added; reason 0: nothing sent) and frees it. */
void wifi_ap_sta_remove(ApSta *sta, guint16 reason, const gchar *why);
/* Transmits a management frame (consumed). */
void wifi_ap_send_frame(WifiAp *ap, GBytes *frame);
gint64 wifi_ap_sta_key(const guint8 mac[6]);
void wifi_ap_sta_free(gpointer data);
void wifi_ap_sta_frame(WifiAp *ap, const guint8 *frame, gsize len);
void wifi_ap_sta_eapol(WifiAp *ap, const guint8 mac[6], const guint8 *frame, gsize len);
/* The kernel removed a station (inactivity, or our DEL_STATION). */
void wifi_ap_sta_deleted(WifiAp *ap, const guint8 mac[6]);
/* SAE as the responder (ap-sta-sae.c): an authentication frame of
 * algorithm 3 from the station; the station's SAE state freed. */
void wifi_ap_sta_sae_rx(WifiAp *ap, const WifiMgmtRequest *r);
void wifi_ap_sta_sae_clear(ApSta *sta);
/* Whether the AP offers PSK, SAE. */
gboolean wifi_ap_offers_psk(const WifiAp *self);
gboolean wifi_ap_offers_sae(const WifiAp *self);
/* A new station in the table (authenticated or authenticating). */
ApSta *wifi_ap_sta_new(WifiAp *ap, const guint8 mac[6]);

/* A station's keys (ap-sta-keys.c): NEW_STATION, then the association
 * response and the 4-way handshake. */
void wifi_ap_sta_add(ApSta *sta);
/* A management frame's transmission status (FRAME_TX_STATUS): the
 * association response's lets the station's handshake begin. */
void wifi_ap_sta_tx_status(WifiAp *ap, guint64 cookie, gboolean acked);
/* Sends group message 1 to every authorised station. */
void wifi_ap_sta_rekey_all(WifiAp *ap);

G_END_DECLS
