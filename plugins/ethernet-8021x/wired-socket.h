/* wired-socket.h - the raw EAPOL socket of one port.
 *
 * An AF_PACKET SOCK_RAW socket for EtherType 0x888E bound to one interface,
 * a member of the PAE group address 01:80:c2:00:00:03 (authenticators such
 * as hostapd with use_pae_group_addr=1 send every frame there), watched on
 * the main loop. Received frames are parsed and handed over only when they
 * are addressed to the group or to this port and did not come from the port
 * itself; malformed ones are logged and dropped here.
 */
#pragma once

#include "wired-eapol.h"

G_BEGIN_DECLS

typedef struct _WiredSocket WiredSocket;

typedef void (*WiredSocketFunc)(const WiredEapolFrame *frame, gpointer user_data);

WiredSocket *wired_socket_new(gint ifindex, const gchar *ifname, WiredSocketFunc func,
                              gpointer user_data, GError **error);
/* Frames go out from this address (the port's MAC). */
void wired_socket_set_address(WiredSocket *self, const guint8 *address);
/* Sends an EAPOL PDU of this type to the PAE group address. */
gboolean wired_socket_send(WiredSocket *self, guint8 type, const guint8 *body, gsize body_len,
                           GError **error);
/* The interface MTU (1500 when the kernel will not say). */
guint wired_socket_get_mtu(WiredSocket *self);
void wired_socket_free(WiredSocket *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WiredSocket, wired_socket_free)

G_END_DECLS
