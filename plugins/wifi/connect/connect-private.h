/* connect-private.h - the connector's state, shared by its two files:
 * connect.c (the state machine: states, commands, attempts, life cycle)
 * and connect-events.c (what nl80211's events do to it), and the
 * authentication methods they call through (auth-method.h). Only these
 * include it. */
#pragma once

#include "connect.h"

#include "attempt.h"
#include "keying.h"

G_BEGIN_DECLS

typedef struct {
	WifiConnectObserver func;
	gpointer user_data;
} WifiConnectObserverEntry;

typedef struct _WifiAuthMethod WifiAuthMethod;

typedef enum {
	CONN_IDLE,
	CONN_WAITING, /* for the scan under way to end (wifi_scanner_hold()) */
	CONN_AUTHENTICATING,
	CONN_ASSOCIATING,
	CONN_KEYING,
	CONN_CONNECTED,
	CONN_DEAUTHENTICATING,
	CONN_DISCONNECTING,
	CONN_REASSOCIATING,             /* a roam's association (connect-roam.c) */
	CONN_LAST = CONN_REASSOCIATING, /* move with a new last state: the names check it */
} ConnState;

extern const gchar *const conn_state_names[];

struct _WifiConnector {
	JoindStation *station; /* the station owns the connector */
	JoindCore *core;
	WifiIface *iface;
	WifiScanner *scanner;        /* the station's; held from start to connected */
	WifiPmksaCache *pmksa_cache; /* the station's */
	gboolean control_port_nl;    /* EAPOL over nl80211 (else AF_PACKET) */
	gboolean use_sme;            /* the radio can and main.conf allows it */
	ConnState state;
	guint timer;   /* the state's: KEYING's bound, a teardown's fallback */
	guint request; /* the state's nl80211 command */
	WifiAttempt *cur;
	WifiAttempt *next;
	gboolean via_sme;             /* cur authenticates and associates with joind's SME */
	const WifiAuthMethod *method; /* cur's */
	gpointer method_data;         /* the method's own state (SAE: its exchange) */
	WifiKeying *keying;
	gboolean oper_up;
	GPtrArray *disconnect_tasks; /* Disconnect() calls waiting for the teardown */
	GArray *observers;           /* WifiConnectObserverEntry, in the order added */
	/* A roam runs (connect-roam.c): cur moves the link from roam_from,
	 * whose network stays connected meanwhile. */
	gboolean roaming;
	guint8 roam_from[6];
	guint neigh_kept; /* WIFI_NEIGH_EVICT_* the roam turned off */
	/* Where a failed move goes next (wifi_connector_set_roam_next()),
	 * and the status the target refused it with. */
	WifiConnectorRoamNextFunc roam_next;
	gpointer roam_next_data;
	guint16 roam_status;
	/* For diagnostics: when Connect() was accepted (wall clock, µs) and
	 * when the link came up (monotonic, µs). */
	gint64 connect_started_real;
	gint64 connected_mono;
	/* The last attempt's EAP server, when it was refused for want of
	 * trust (wifi_diagnostics_refused_server()); cleared when the next
	 * attempt starts. */
	GVariant *refused_server;
	/* cur's directed scan for a BSS the kernel expired (connect-rescan.c),
	 * and how many ran in this attempt (WIFI_RESCAN_TRIES at most). */
	GCancellable *rescan;
	guint rescans;
};

/* connect.c's, for the event handlers. */
void connector_enter(WifiConnector *self, ConnState state, const gchar *reason);
void connector_start(WifiConnector *self);
void connector_release(WifiConnector *self);
/* The interface's operational state (link.c): "up" once the port is
 * authorized, "dormant" before. */
void connector_set_oper_up(WifiConnector *self, gboolean up);
/* connect-roam.c: the kernel keeps the interface's neighbours across
 * the roam's carrier loss (keep), or evicts them again as before. */
void connector_keep_neighbours(WifiConnector *self, gboolean keep);
/* connect-roam.c: a roam's failed move tries the roamer's next BSS;
 * TRUE when it started (the failure is then no loss). */
gboolean connector_roam_elsewhere(WifiConnector *self, const gchar *message);
void connector_fail(WifiConnector *self, WifiConnectEvent event, gint code, const gchar *message,
                    ConnState next);
void connector_keying_failed(WifiConnector *self, const GError *error, ConnState next);
/* cur's key step over its PMK; FALSE: it could not start (cur failed). */
gboolean connector_key_step(WifiConnector *self);
/* CMD_AUTHENTICATE, CMD_ASSOCIATE (joind's SME) or CMD_CONNECT for cur. */
void connector_send_command(WifiConnector *self, guint8 cmd);
/* The state of cur's association: REASSOCIATING in a roam. */
ConnState connector_association_state(WifiConnector *self);
/* The scanner's go-ahead for cur (wifi_scanner_hold()). */
void connector_radio_ready(gpointer user_data);
/* The teardown's DISCONNECT (or our DEAUTHENTICATE) event came. */
void connector_teardown_done(WifiConnector *self, const gchar *why);

/* connect-rescan.c's: the kernel refused cur's authentication with
 * -ENOENT (its scan table lost the BSS): a scan of the BSS's frequency,
 * then AUTHENTICATING again. FALSE when cur had its WIFI_RESCAN_TRIES
 * scans already (connect-rescan.c says why more than one). */
#define WIFI_RESCAN_TRIES 3
gboolean connector_rescan_bss(WifiConnector *self);
void connector_rescan_cancel(WifiConnector *self);

G_END_DECLS
