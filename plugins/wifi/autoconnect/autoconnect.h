/* autoconnect.h - one station's autoconnect: joins the best known network
 * on its own, and again after a link loss, without a user.
 *
 * Event-driven: the station feeds it its start and power changes, scan
 * results, profile changes, the user's Connect()/Disconnect() and CQM
 * events; the connector tells it what became of each connection. Its only
 * timer is the retry wait after a failure or a link loss. A user's
 * Disconnect() turns it off until the user's next Connect() (or a restart);
 * a user's Connect() takes over any attempt of its own.
 */
#pragma once

#include "autoconnect-retry.h"
#include "connect.h"
#include "iface.h"
#include "joind.h"
#include "network.h"
#include "nl80211.h"
#include "scan.h"

G_BEGIN_DECLS

typedef struct _WifiAutoconnect WifiAutoconnect;

/* What autoconnect asks of the connector (connect.h), as functions: the
 * station's setup leaves connector_ops NULL (the connector's own); a test
 * hands a fake connector and drives autoconnect by what it tells the
 * observer, without playing the link through nl80211. */
typedef struct {
	void (*connect_bss)(gpointer connector, WifiNetwork *network, WifiBss *bss,
	                    GCancellable *cancellable, GAsyncReadyCallback callback,
	                    gpointer user_data);
	gboolean (*take_over)(gpointer connector, WifiNetwork *network, GCancellable *cancellable,
	                      GAsyncReadyCallback callback, gpointer user_data);
	void (*disconnect)(gpointer connector, GCancellable *cancellable,
	                   GAsyncReadyCallback callback, gpointer user_data);
	void (*add_observer)(gpointer connector, WifiConnectObserver func, gpointer user_data);
	void (*remove_observer)(gpointer connector, WifiConnectObserver func,
	                        gconstpointer user_data);
} WifiAutoconnectConnectorOps;

/* The connector's own functions. */
extern const WifiAutoconnectConnectorOps wifi_autoconnect_connector_ops;

/* A full scan's parameters (hidden SSIDs to probe), transfer full. */
typedef WifiScanParams *(*WifiAutoconnectParamsFunc)(gpointer user_data);

typedef struct {
	JoindCore *core;
	JoindStation *station;
	gpointer connector; /* a WifiConnector; the autoconnect becomes its observer */
	const WifiAutoconnectConnectorOps *connector_ops; /* NULL: the connector's own */
	WifiScanner *scanner;
	WifiIface *iface;
	WifiAutoconnectParamsFunc full_scan_params;
	gpointer user_data;
	const WifiAutoconnectTimings *timings; /* NULL: wifi_autoconnect_timings */
} WifiAutoconnectSetup;

WifiAutoconnect *wifi_autoconnect_new(const WifiAutoconnectSetup *setup);
/* Free before the connector and the scanner. */
void wifi_autoconnect_free(WifiAutoconnect *self);

/* The station is up (started, or its interface came up): TRUE when a quick
 * scan of the remembered frequencies was started, so the station need not
 * start its own full scan first. */
gboolean wifi_autoconnect_start(WifiAutoconnect *self, const gchar *why);
/* The interface went down. */
void wifi_autoconnect_stop(WifiAutoconnect *self);
/* The system resumed from sleep: the kernel dropped the link when it went
 * to sleep, so the remembered frequencies are scanned now instead of at
 * the next periodic scan. TRUE when autoconnect has it in hand (that quick
 * scan, or a scan or connect of its own already running); FALSE when the
 * station should scan (nothing remembered, or autoconnect is off). */
gboolean wifi_autoconnect_resumed(WifiAutoconnect *self);

/* After the station took in a scan's results. */
void wifi_autoconnect_scan_results(WifiAutoconnect *self);
/* After the station matched its networks to the changed profile. */
void wifi_autoconnect_profile_changed(WifiAutoconnect *self, JoindProfile *profile,
                                      JoindProfileChange change);

/* Network1.Connect() by a user: the GTask's source object is network. */
void wifi_autoconnect_user_connect(WifiAutoconnect *self, WifiNetwork *network,
                                   GCancellable *cancellable, GAsyncReadyCallback callback,
                                   gpointer user_data);
/* Station1.Disconnect() by a user, before the connector is asked. */
void wifi_autoconnect_user_disconnect(WifiAutoconnect *self);

/* Quick-scanning the remembered frequencies after a link loss: a full
 * scan now would only delay the reconnect. */
gboolean wifi_autoconnect_is_retrying(WifiAutoconnect *self);

/* NOTIFY_CQM events of the interface: a beacon loss drops the link and
 * reconnects as after any link loss. */
void wifi_autoconnect_handle_event(WifiAutoconnect *self, guint8 cmd, struct nlattr **attrs);

G_END_DECLS
