/* eapol-socket.c - EAPOL over AF_PACKET (see eapol-socket.h). */
#include "eapol-socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Longer than any EAPOL-Key frame joind accepts (2048 octets of key data). */
#define EAPOL_FRAME_MAX 4096

struct _WifiEapolSocket {
	int fd;
	guint32 ifindex;
	guint watch;
	WifiEapolRxFunc rx;
	gpointer user_data;
};

/* One frame per dispatch: the callback may free the socket, so nothing
 * touches self after it (the watch is level-triggered and comes back for
 * the next frame). */
static gboolean
on_readable(gint fd, GIOCondition condition, gpointer user_data)
{
	WifiEapolSocket *self = user_data;
	guint8 frame[EAPOL_FRAME_MAX];
	struct sockaddr_ll from;
	socklen_t from_len = sizeof(from);
	ssize_t n;

	if (condition & (G_IO_ERR | G_IO_HUP | G_IO_NVAL)) {
		g_warning("EAPOL socket on interface %u failed; no more EAPOL frames",
		          self->ifindex);
		self->watch = 0;
		return G_SOURCE_REMOVE;
	}
	memset(&from, 0, sizeof(from));
	n = recvfrom(fd, frame, sizeof(frame), MSG_TRUNC, (struct sockaddr *)&from, &from_len);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			g_debug("EAPOL socket on interface %u: %s", self->ifindex,
			        g_strerror(errno));
		return G_SOURCE_CONTINUE;
	}
	/* Bound to one interface, but frames queued before bind() may come
	 * from others; our own frames come back as PACKET_OUTGOING. */
	if ((guint32)from.sll_ifindex != self->ifindex || from.sll_pkttype == PACKET_OUTGOING ||
	    from.sll_halen != ETH_ALEN)
		return G_SOURCE_CONTINUE;
	if ((gsize)n > sizeof(frame)) {
		g_debug("EAPOL socket on interface %u: a %zd octet frame dropped", self->ifindex,
		        n);
		return G_SOURCE_CONTINUE;
	}
	self->rx(from.sll_addr, frame, (gsize)n, self->user_data);
	return G_SOURCE_CONTINUE;
}

WifiEapolSocket *
wifi_eapol_socket_new(guint32 ifindex, WifiEapolRxFunc rx, gpointer user_data, GError **error)
{
	struct sockaddr_ll addr = {
	        .sll_family = AF_PACKET,
	        .sll_protocol = htons(ETH_P_PAE),
	        .sll_ifindex = (int)ifindex,
	};
	WifiEapolSocket *self;
	int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_PAE));

	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int saved = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
		            "Cannot open an EAPOL (AF_PACKET) socket on interface %u: %s", ifindex,
		            g_strerror(saved));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	self = g_new0(WifiEapolSocket, 1);
	self->fd = fd;
	self->ifindex = ifindex;
	self->rx = rx;
	self->user_data = user_data;
	self->watch = g_unix_fd_add(fd, G_IO_IN | G_IO_ERR | G_IO_HUP, on_readable, self);
	g_debug("EAPOL socket (AF_PACKET, ETH_P_PAE) open on interface %u", ifindex);
	return self;
}

gboolean
wifi_eapol_socket_send(WifiEapolSocket *self, const guint8 dest[6], const guint8 *frame, gsize len,
                       GError **error)
{
	struct sockaddr_ll addr = {
	        .sll_family = AF_PACKET,
	        .sll_protocol = htons(ETH_P_PAE),
	        .sll_ifindex = (int)self->ifindex,
	        .sll_halen = ETH_ALEN,
	};
	ssize_t n;

	memcpy(addr.sll_addr, dest, ETH_ALEN);
	n = sendto(self->fd, frame, len, 0, (struct sockaddr *)&addr, sizeof(addr));
	if (n < 0 || (gsize)n != len) {
		int saved = n < 0 ? errno : EMSGSIZE;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
		            "Cannot send an EAPOL frame on interface %u: %s", self->ifindex,
		            g_strerror(saved));
		return FALSE;
	}
	return TRUE;
}

void
wifi_eapol_socket_free(WifiEapolSocket *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->watch, g_source_remove);
	close(self->fd);
	g_debug("EAPOL socket on interface %u closed", self->ifindex);
	g_free(self);
}
