/* keying.h - the key step of a connection: the 4-way handshake over a PMK
 * (a PSK today; SAE's and EAP's PMK plug in here the same way), EAPOL over
 * the nl80211 control port or an AF_PACKET socket, the keys it yields
 * installed (NEW_KEY, SET_KEY) and the port authorized (SET_STATION). The
 * group key handshakes that follow run here for the life of the link.
 *
 * Made before the association is asked for: message 1 may be read before
 * the CONNECT or ASSOCIATE event that says the association is done.
 */
#pragma once

#include "iface.h"
#include "rsn.h"

G_BEGIN_DECLS

typedef struct _WifiKeying WifiKeying;

typedef struct {
	const WifiRsnPlan *plan;
	const guint8 *pmk;
	gsize pmk_len;
	guint8 spa[6];            /* our address */
	guint8 aa[6];             /* the access point's */
	gboolean control_port_nl; /* EAPOL over nl80211, else AF_PACKET */
} WifiKeyingConfig;

/* error NULL: the first handshake's keys are in and the port is
 * authorized (once). Otherwise a handshake failed, the first or a later
 * group key handshake (a WIFI_HANDSHAKE_ERROR or JOIND_ERROR): the link
 * must go. */
typedef void (*WifiKeyingFunc)(const GError *error, gpointer user_data);

WifiKeying *wifi_keying_new(WifiIface *iface, const WifiKeyingConfig *config, WifiKeyingFunc func,
                            gpointer user_data, GError **error);
void wifi_keying_free(WifiKeying *self);

/* An EAPOL frame from the control port (src may be NULL: not said). */
void wifi_keying_rx(WifiKeying *self, const guint8 *src, const guint8 *frame, gsize len);
/* The handshake cannot finish (cause, with the IEEE 802.11 reason of a
 * deauthentication): its verdict, a wrong passphrase or not. */
GError *wifi_keying_abort(WifiKeying *self, WifiHandshakeAbort cause, guint16 reason);
/* Whether the 4-way handshake completed (the port may still be being
 * authorized). */
gboolean wifi_keying_handshake_done(WifiKeying *self);

G_END_DECLS
