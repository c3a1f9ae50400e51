/* connect.h - one station's connection, from Connect() to the link's
 * end: authenticate and associate (joind's SME or the kernel's
 * CMD_CONNECT), key (keying.c), stay connected, tear down.
 *
 * One connect at a time: a new Connect() aborts the pending one with
 * JOIND_ERROR_ABORTED and, when the link is (being) associated, tears it
 * down first. The connector drives JoindStation's State and
 * ConnectedNetwork and JoindNetwork's Connected.
 */
#pragma once

#include "connection-info.h"
#include "iface.h"
#include "joind.h"
#include "keying.h"
#include "network.h"
#include "rsn.h"
#include "scan.h"

G_BEGIN_DECLS

typedef struct _WifiConnector WifiConnector;

/* The radio's capabilities (iface->wiphy) decide whether EAPOL travels
 * over nl80211 (else an AF_PACKET socket carries it) and whether joind's
 * SME authenticates and associates. iface->link (NULL in tests) sets the
 * interface's link mode to dormant for the connector's life and its
 * operational state up while connected. An attempt holds scanner (the
 * station's, which outlives the connector) from its start until it is
 * connected or over. */
/* pmksa_cache is the station's (borrowed): the PMKSAs the connector's
 * attempts offer, add and drop. */
WifiConnector *wifi_connector_new(JoindCore *core, JoindStation *station, WifiIface *iface,
                                  WifiScanner *scanner, WifiPmksaCache *pmksa_cache);
/* Fails the pending calls (Aborted) and forgets the link state. */
void wifi_connector_free(WifiConnector *self);

/* The GTask's source object is the station. */
void wifi_connector_disconnect(WifiConnector *self, GCancellable *cancellable,
                               GAsyncReadyCallback callback, gpointer user_data);
/* Connects to bss of network (NULL: its best BSS). The GTask's source
 * object is network; finish with g_task_propagate_boolean(). */
void wifi_connector_connect_bss(WifiConnector *self, WifiNetwork *network, WifiBss *bss,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data);
/* A Connect() of network while an attempt on it is under way (one
 * autoconnect started): the caller takes that attempt over, answered as
 * wifi_connector_connect_bss() answers, and its first caller gets Aborted;
 * restarting it would cost a deauthentication and a second handshake.
 * FALSE (nothing changed) when no such attempt runs, or when it is an
 * 802.1X one (its agent was fixed when its conversation began). */
gboolean wifi_connector_take_over(WifiConnector *self, WifiNetwork *network,
                                  GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data);

/* Moves the connected link to bss, another BSS of its network
 * (reassociation; connect-roam.c): answered as attempts are, through the
 * observers (CONNECTED, or how it failed). FALSE when it cannot start
 * (not connected, the kernel's SME, the same BSS). */
gboolean wifi_connector_roam(WifiConnector *self, WifiBss *bss, GError **error);

/* A roam's move failed (status: the access point's IEEE 802.11 status
 * code, 0 when it did not answer or the key step failed): the BSS to try
 * instead (a new reference), or NULL to give up, the link then lost and
 * the observers told as for any attempt. The roamer answers, through the
 * station. */
typedef WifiBss *(*WifiConnectorRoamNextFunc)(guint16 status, gpointer user_data);
void wifi_connector_set_roam_next(WifiConnector *self, WifiConnectorRoamNextFunc func,
                                  gpointer user_data);

/* What became of a connection, whoever asked for it (autoconnect learns
 * from these which BSS to avoid and when to reconnect). */
typedef enum {
	WIFI_CONNECT_EVENT_CONNECTED,
	WIFI_CONNECT_EVENT_FAILED,           /* not the BSS's fault (kernel, set-up) */
	WIFI_CONNECT_EVENT_NO_ANSWER,        /* the access point did not answer */
	WIFI_CONNECT_EVENT_REFUSED,          /* authentication or association refused */
	WIFI_CONNECT_EVENT_HANDSHAKE_FAILED, /* the key handshake failed */
	WIFI_CONNECT_EVENT_KEYS_REFUSED,     /* no message 3 after our message 2: maybe the
	                                      * passphrase, maybe a forged or late frame */
	WIFI_CONNECT_EVENT_WRONG_PASSPHRASE, /* the access point reported a MIC failure */
	WIFI_CONNECT_EVENT_LINK_LOST,        /* connected, then the AP or the link dropped us */
} WifiConnectEvent;

/* Called synchronously, before the State change it causes: record, do not
 * start a connect from here. bss may be NULL. Every observer hears every
 * event, in the order they were added (autoconnect, roaming, tests). */
typedef void (*WifiConnectObserver)(WifiConnectEvent event, WifiNetwork *network,
                                    const WifiBss *bss, gpointer user_data);
void wifi_connector_add_observer(WifiConnector *self, WifiConnectObserver func, gpointer user_data);
/* Removes the observer added with the same func and user_data. */
void wifi_connector_remove_observer(WifiConnector *self, WifiConnectObserver func,
                                    gconstpointer user_data);

/* nl80211 CONNECT, DISCONNECT, AUTHENTICATE, ASSOCIATE, DEAUTHENTICATE,
 * DISASSOCIATE and CONTROL_PORT_FRAME events of the interface. */
void wifi_connector_handle_event(WifiConnector *self, guint8 cmd, struct nlattr **attrs);

/* Events may have been lost: an associated link checks that the kernel
 * still has it (GET_INTERFACE), and goes when it does not. */
void wifi_connector_resync(WifiConnector *self);

/* What the link is, for diagnostics. The BSS of the link, NULL unless
 * connected (borrowed). */
WifiBss *wifi_connector_get_connected_bss(WifiConnector *self);
/* The suites of a connected RSN link; NULL when open or not connected. */
const WifiRsnPlan *wifi_connector_get_rsn_plan(WifiConnector *self);
/* The key step of the link being keyed or connected, or NULL. */
WifiKeying *wifi_connector_get_keying(WifiConnector *self);
/* When the last Connect() was accepted (g_get_real_time()) and when it
 * came up (g_get_monotonic_time()); meaningful while connected. */
void wifi_connector_get_times(WifiConnector *self, gint64 *started_real, gint64 *connected_mono);
/* Fills info from the link, without the kernel's facts; FALSE when it is
 * not connected. */
gboolean wifi_connector_get_connection_info(WifiConnector *self, WifiConnectionInfo *info);
/* The last attempt's EAP server when it was refused for want of trust
 * (wifi_diagnostics_refused_server()'s a{sv}), NULL otherwise; it stays
 * until the next attempt starts (transfer none). */
GVariant *wifi_connector_get_refused_server(WifiConnector *self);

G_END_DECLS
