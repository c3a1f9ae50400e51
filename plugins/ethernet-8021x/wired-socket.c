/* wired-socket.c - AF_PACKET socket for EAPOL on one interface. */
#include "wired-socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <glib-unix.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "joind-error.h"
#include "joind-log.h"

/* Largest frame we read: jumbo frames carry EAP-TLS fragments too. */
#define WIRED_SOCKET_BUF 9216

struct _WiredSocket {
	gint fd;
	gint ifindex;
	gchar *ifname;
	guint8 address[WIRED_ETH_ALEN];
	guint watch_id;
	WiredSocketFunc func;
	gpointer user_data;
};

static gboolean
socket_error(GError **error, const gchar *ifname, const gchar *what)
{
	gint saved = errno;

	g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "%s: cannot %s: %s", ifname, what,
	            g_strerror(saved));
	return FALSE;
}

/* Is the frame for us: the PAE group address or our own MAC? */
static gboolean
socket_frame_is_for_us(WiredSocket *self, const WiredEapolFrame *frame)
{
	return memcmp(frame->dst, wired_eapol_pae_group, WIRED_ETH_ALEN) == 0 ||
	       memcmp(frame->dst, self->address, WIRED_ETH_ALEN) == 0;
}

static void
socket_handle_packet(WiredSocket *self, const guint8 *buf, gsize len,
                     const struct sockaddr_ll *from)
{
	WiredEapolFrame frame;
	g_autoptr(GError) error = NULL;

	/* The kernel shows a packet socket our own transmissions too. */
	if (from->sll_pkttype == PACKET_OUTGOING)
		return;
	if (!wired_eapol_parse_frame(buf, len, &frame, &error)) {
		joind_dev_debug(self->ifname, "dropping a malformed EAPOL frame: %s",
		                error->message);
		return;
	}
	if (!socket_frame_is_for_us(self, &frame))
		return;
	self->func(&frame, self->user_data);
}

/* One frame per wake-up: the watch is level-triggered, so anything still
 * queued wakes us again, and the callback may free self (a profile went
 * away), which removes this watch before GLib could call it again. */
static gboolean
socket_readable(gint fd, GIOCondition cond, gpointer user_data)
{
	WiredSocket *self = user_data;
	guint8 buf[WIRED_SOCKET_BUF];
	struct sockaddr_ll from = {0};
	socklen_t from_len = sizeof(from);
	ssize_t n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC,
	                     (struct sockaddr *)&from, &from_len);

	if (n < 0) {
		/* ENETDOWN is reported once when the link goes down: the PAE
		 * learns that from the link monitor. */
		if (errno == ENETDOWN)
			joind_dev_debug(self->ifname, "link went down under the EAPOL socket");
		else if (errno != EAGAIN && errno != EINTR)
			joind_dev_warning(self->ifname, "reading EAPOL failed: %s",
			                  g_strerror(errno));
		return G_SOURCE_CONTINUE;
	}
	if ((gsize)n > sizeof(buf)) {
		joind_dev_debug(self->ifname, "dropping an oversized frame of %zd octets", n);
		return G_SOURCE_CONTINUE;
	}
	socket_handle_packet(self, buf, n, &from);
	return G_SOURCE_CONTINUE;
}

static gboolean
socket_open(WiredSocket *self, GError **error)
{
	struct sockaddr_ll sll = {
	        .sll_family = AF_PACKET,
	        .sll_protocol = htons(WIRED_ETH_P_PAE),
	        .sll_ifindex = self->ifindex,
	};
	struct packet_mreq mreq = {
	        .mr_ifindex = self->ifindex,
	        .mr_type = PACKET_MR_MULTICAST,
	        .mr_alen = WIRED_ETH_ALEN,
	};
	gint one = 1;

	/* Protocol 0 here and ETH_P_PAE in bind(): a socket opened with a
	 * protocol is hooked to all interfaces at once, and re-binding it to one
	 * waits for an RCU grace period (~10-20 ms measured) in the kernel. */
	self->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (self->fd < 0)
		return socket_error(error, self->ifname, "open an EAPOL packet socket");
	if (bind(self->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return socket_error(error, self->ifname, "bind the EAPOL socket");
	memcpy(mreq.mr_address, wired_eapol_pae_group, WIRED_ETH_ALEN);
	if (setsockopt(self->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mreq, sizeof(mreq)) < 0)
		return socket_error(error, self->ifname, "join the PAE group address");
	/* Saves waking up for our own frames (Linux >= 4.20); the pkttype check
	 * in socket_handle_packet() covers older kernels. */
	if (setsockopt(self->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)) < 0)
		joind_dev_debug(self->ifname, "PACKET_IGNORE_OUTGOING: %s", g_strerror(errno));
	return TRUE;
}

WiredSocket *
wired_socket_new(gint ifindex, const gchar *ifname, WiredSocketFunc func, gpointer user_data,
                 GError **error)
{
	g_autoptr(WiredSocket) self = g_new0(WiredSocket, 1);

	self->fd = -1;
	self->ifindex = ifindex;
	self->ifname = g_strdup(ifname);
	self->func = func;
	self->user_data = user_data;
	if (!socket_open(self, error))
		return NULL;
	self->watch_id = g_unix_fd_add(self->fd, G_IO_IN, socket_readable, self);
	return g_steal_pointer(&self);
}

void
wired_socket_set_address(WiredSocket *self, const guint8 *address)
{
	memcpy(self->address, address, WIRED_ETH_ALEN);
}

gboolean
wired_socket_send(WiredSocket *self, guint8 type, const guint8 *body, gsize body_len,
                  GError **error)
{
	g_autoptr(GByteArray) frame = NULL;
	struct sockaddr_ll to = {
	        .sll_family = AF_PACKET,
	        .sll_protocol = htons(WIRED_ETH_P_PAE),
	        .sll_ifindex = self->ifindex,
	        .sll_halen = WIRED_ETH_ALEN,
	};
	ssize_t n;

	frame = wired_eapol_build_frame(wired_eapol_pae_group, self->address, type, body, body_len);
	memcpy(to.sll_addr, wired_eapol_pae_group, WIRED_ETH_ALEN);
	n = sendto(self->fd, frame->data, frame->len, 0, (struct sockaddr *)&to, sizeof(to));
	if (n < 0) {
		g_autofree gchar *what =
		        g_strdup_printf("send %s", wired_eapol_type_to_string(type));

		return socket_error(error, self->ifname, what);
	}
	return TRUE;
}

guint
wired_socket_get_mtu(WiredSocket *self)
{
	struct ifreq ifr = {0};

	if (if_indextoname(self->ifindex, ifr.ifr_name) == NULL)
		return 1500;
	if (ioctl(self->fd, SIOCGIFMTU, &ifr) < 0 || ifr.ifr_mtu <= 0)
		return 1500;
	return (guint)ifr.ifr_mtu;
}

void
wired_socket_free(WiredSocket *self)
{
	if (self == NULL)
		return;
	if (self->watch_id != 0)
		g_source_remove(self->watch_id);
	if (self->fd >= 0)
		close(self->fd);
	g_free(self->ifname);
	g_free(self);
}
