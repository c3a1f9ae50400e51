/* eapol-socket.h - EAPOL frames over an AF_PACKET socket, for radios that
 * cannot carry them over nl80211's control port (no
 * NL80211_EXT_FEATURE_CONTROL_PORT_OVER_NL80211) or when main.conf says
 * [General] ControlPortOverNL80211=false.
 *
 * One socket per connection attempt: a datagram packet socket bound to
 * ETH_P_PAE on one interface, read from a GLib fd watch (no polling, no
 * blocking). Frames of other interfaces and our own outgoing frames are
 * dropped; each other frame goes to the callback with its source address.
 * Frames are whole EAPOL packets (IEEE 802.1X header included), as over
 * nl80211.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WifiEapolSocket WifiEapolSocket;

/* A received frame. The callback may free the socket. */
typedef void (*WifiEapolRxFunc)(const guint8 *src, const guint8 *frame, gsize len,
                                gpointer user_data);

/* Opens and binds the socket (needs CAP_NET_RAW) and starts reading. */
WifiEapolSocket *wifi_eapol_socket_new(guint32 ifindex, WifiEapolRxFunc rx, gpointer user_data,
                                       GError **error);
/* Sends one EAPOL frame to dest. */
gboolean wifi_eapol_socket_send(WifiEapolSocket *self, const guint8 dest[6], const guint8 *frame,
                                gsize len, GError **error);
/* Stops reading and closes the socket (NULL-safe). */
void wifi_eapol_socket_free(WifiEapolSocket *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiEapolSocket, wifi_eapol_socket_free)

G_END_DECLS
