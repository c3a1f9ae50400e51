/* wired-operstate.h - what a port tells the rest of the system about its
 * 802.1X state through the link's RFC 2863 operational state.
 *
 * An authenticator drops everything but EAPOL until it authorises the port,
 * yet the kernel calls a link with carrier "up": DHCP clients and
 * systemd-networkd would start (and time out) before the port opens. While a
 * profile applies, the port's link mode is "dormant" (the kernel then turns
 * carrier-up into operstate dormant), and joind moves the operstate to up
 * once authorised and back to dormant when that ends. A port joind leaves
 * alone gets its default link mode back.
 *
 * One rtnetlink socket for all ports; requests are not waited for, the
 * kernel's answers are read from the main loop and failures logged.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	WIRED_OPERSTATE_DEFAULT, /* link mode default, operstate up (carrier allowing) */
	WIRED_OPERSTATE_DORMANT, /* link mode dormant, operstate dormant */
	WIRED_OPERSTATE_UP,      /* link mode dormant, operstate up: authorised */
	WIRED_OPERSTATE_STOPPED, /* link mode default, operstate left dormant:
	                          * joind stopped, the port is not authorised */
	/* the last value, which name tables are checked against */
	WIRED_OPERSTATE_LAST = WIRED_OPERSTATE_STOPPED,
} WiredOperstate;

typedef struct _WiredOperstateSocket WiredOperstateSocket;

WiredOperstateSocket *wired_operstate_socket_new(GError **error);
void wired_operstate_socket_free(WiredOperstateSocket *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WiredOperstateSocket, wired_operstate_socket_free)

/* Asks the kernel to put link ifindex in this state. */
void wired_operstate_socket_set(WiredOperstateSocket *self, gint ifindex, const gchar *ifname,
                                WiredOperstate state);

const gchar *wired_operstate_to_string(WiredOperstate state);

G_END_DECLS
