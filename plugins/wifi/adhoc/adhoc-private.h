/* adhoc-private.h - the IBSS's object and its peers, shared by adhoc.c
 * (joining, leaving, the group key, the event dispatch) and adhoc-peer.c
 * (each peer: its two handshakes, its keys and port). */
#pragma once

#include "adhoc.h"
#include "rsn-authenticator.h"
#include "rsn-handshake.h"

G_BEGIN_DECLS

typedef enum {
	ADHOC_PEER_NEW,         /* seen, nothing done yet */
	ADHOC_PEER_KEYING,      /* RSN: its two 4-way handshakes under way */
	ADHOC_PEER_AUTHORIZING, /* RSN: both done, its port being opened */
	ADHOC_PEER_LINKED,      /* its link is open */
	ADHOC_PEER_GONE,        /* left or dropped: freed next */
	ADHOC_PEER_STATE_LAST = ADHOC_PEER_GONE,
} AdhocPeerState;

typedef struct {
	WifiAdhoc *adhoc;
	gint64 key; /* the address as a number: the table's key */
	guint8 mac[6];
	gchar name[18]; /* the address, for log lines */
	AdhocPeerState state;
	WifiHandshake *supp;     /* we are its supplicant */
	WifiAuthenticator *auth; /* we are its authenticator */
	gboolean supp_done, auth_done;
	guint retransmit; /* the authenticator's one-second timer */
	guint deadline;   /* WIFI_ADHOC_KEYING_TIMEOUT_S */
	guint request;    /* SET_STATION or DEL_STATION under way */
} AdhocPeer;

struct _WifiAdhoc {
	WifiIface *iface;
	WifiAdhocCallbacks cb;
	gpointer user_data;
	WifiAdhocState state;
	guint8 address[6];
	guint8 ssid[32];
	gsize ssid_len;
	guint32 freq;
	gboolean open;
	guint8 pmk[32]; /* the PSK */
	guint8 rsne[257];
	gsize rsne_len;
	WifiGroupKeys gk;  /* ours: what our broadcasts are sent with */
	GHashTable *peers; /* &AdhocPeer.key -> AdhocPeer */
	guint request;     /* JOIN_IBSS or LEAVE_IBSS under way */
};

/* The one place the IBSS's state changes: logs "old -> new (reason)". */
void wifi_adhoc_enter(WifiAdhoc *self, WifiAdhocState state, const gchar *reason);

/* The peer table (adhoc-peer.c). */
AdhocPeer *wifi_adhoc_peer_lookup(WifiAdhoc *adhoc, const guint8 mac[6]);
/* The kernel saw a peer (NEW_STATION), or an EAPOL frame came from one
 * not seen yet: its link opens (open) or its handshakes start. */
AdhocPeer *wifi_adhoc_peer_seen(WifiAdhoc *adhoc, const guint8 mac[6]);
/* The kernel dropped the peer (DEL_STATION). */
void wifi_adhoc_peer_deleted(WifiAdhoc *adhoc, const guint8 mac[6]);
void wifi_adhoc_peer_eapol(WifiAdhoc *adhoc, const guint8 mac[6], const guint8 *frame, gsize len);
void wifi_adhoc_peer_free(gpointer data);

G_END_DECLS
