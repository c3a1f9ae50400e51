/* wired-rtnl.c - a raw rtnetlink socket on the main loop. */
#include "wired-rtnl.h"

#include <errno.h>
#include <glib-unix.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "joind-error.h"

struct _WiredRtnl {
	int fd;
	guint32 seq;
	guint watch_id;
	WiredRtnlFunc func;
	WiredRtnlLostFunc lost;
	gpointer user_data;
};

typedef enum {
	READ_AGAIN, /* nothing more to read now */
	READ_MORE,  /* a datagram was handled */
	READ_LOST,  /* the kernel dropped messages */
	READ_DONE,  /* the awaited request finished */
	READ_FAILED,
} ReadResult;

/* Hands every message of one datagram to func; READ_DONE when it holds the
 * end of the request numbered seq (0: none awaited). */
static ReadResult
rtnl_dispatch(WiredRtnl *self, const guint8 *buf, gsize len, guint32 seq)
{
	const struct nlmsghdr *msg = (const struct nlmsghdr *)buf;
	ReadResult result = READ_MORE;

	for (; NLMSG_OK(msg, len); msg = NLMSG_NEXT(msg, len)) {
		gboolean ours = seq != 0 && msg->nlmsg_seq == seq;

		if (ours && (msg->nlmsg_flags & NLM_F_DUMP_INTR) != 0)
			result = READ_LOST;
		if (ours && msg->nlmsg_type == NLMSG_ERROR &&
		    ((const struct nlmsgerr *)NLMSG_DATA(msg))->error != 0) {
			errno = -((const struct nlmsgerr *)NLMSG_DATA(msg))->error;
			return READ_FAILED;
		}
		if (ours && (msg->nlmsg_type == NLMSG_DONE || msg->nlmsg_type == NLMSG_ERROR)) {
			if (result != READ_LOST)
				result = READ_DONE;
			continue;
		}
		if (msg->nlmsg_type != NLMSG_DONE && msg->nlmsg_type != NLMSG_NOOP)
			self->func(msg, self->user_data);
	}
	return result;
}

/* Reads one datagram, sized first so that none is cut short. */
static ReadResult
rtnl_read(WiredRtnl *self, int flags, guint32 seq)
{
	guint8 probe;
	ssize_t len = recv(self->fd, &probe, sizeof(probe), flags | MSG_PEEK | MSG_TRUNC);
	g_autofree guint8 *buf = NULL;

	if (len < 0 && errno == EINTR)
		return READ_MORE;
	if (len < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return READ_AGAIN;
	if (len < 0 && errno == ENOBUFS)
		return READ_LOST;
	if (len < 0)
		return READ_FAILED;
	buf = g_malloc(MAX(len, 1));
	len = recv(self->fd, buf, len, flags);
	if (len < 0)
		return errno == ENOBUFS ? READ_LOST : READ_FAILED;
	return rtnl_dispatch(self, buf, len, seq);
}

static gboolean
rtnl_readable(gint fd, GIOCondition cond, gpointer user_data)
{
	WiredRtnl *self = user_data;
	ReadResult r;

	while ((r = rtnl_read(self, MSG_DONTWAIT, 0)) != READ_AGAIN) {
		if (r == READ_FAILED) {
			g_warning("reading rtnetlink failed: %s", g_strerror(errno));
			break;
		}
		if (r == READ_LOST && self->lost != NULL)
			self->lost(self->user_data);
	}
	return G_SOURCE_CONTINUE;
}

WiredRtnl *
wired_rtnl_new(guint32 groups, WiredRtnlFunc func, WiredRtnlLostFunc lost, gpointer user_data,
               GError **error)
{
	g_autoptr(WiredRtnl) self = g_new0(WiredRtnl, 1);
	struct sockaddr_nl addr = {.nl_family = AF_NETLINK, .nl_groups = groups};

	self->func = func;
	self->lost = lost;
	self->user_data = user_data;
	self->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (self->fd < 0 || bind(self->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int err = errno;

		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot open an rtnetlink socket: %s", g_strerror(err));
		return NULL;
	}
	self->watch_id = g_unix_fd_add(self->fd, G_IO_IN, rtnl_readable, self);
	return g_steal_pointer(&self);
}

void
wired_rtnl_free(WiredRtnl *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->watch_id, g_source_remove);
	if (self->fd >= 0)
		close(self->fd);
	g_free(self);
}

gboolean
wired_rtnl_send(WiredRtnl *self, struct nlmsghdr *msg, GError **error)
{
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};

	msg->nlmsg_seq = ++self->seq != 0 ? self->seq : ++self->seq;
	msg->nlmsg_pid = 0;
	if (sendto(self->fd, msg, msg->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) <
	    0) {
		int err = errno;

		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "rtnetlink: %s",
		            g_strerror(err));
		return FALSE;
	}
	return TRUE;
}

/* One dump, read to its end; READ_LOST when events were dropped meanwhile
 * or the dump was interrupted by a change. */
static ReadResult
rtnl_dump_once(WiredRtnl *self, GError **error)
{
	struct {
		struct nlmsghdr hdr;
		struct ifinfomsg ifi;
	} req = {
	        .hdr = {.nlmsg_len = sizeof(req),
	                .nlmsg_type = RTM_GETLINK,
	                .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP},
	        .ifi = {.ifi_family = AF_UNSPEC},
	};
	gboolean lost = FALSE;
	ReadResult r;

	if (!wired_rtnl_send(self, &req.hdr, error))
		return READ_FAILED;
	while ((r = rtnl_read(self, 0, req.hdr.nlmsg_seq)) != READ_DONE) {
		if (r == READ_FAILED) {
			int err = errno;

			g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
			            "Cannot list network links: %s", g_strerror(err));
			return READ_FAILED;
		}
		lost = lost || r == READ_LOST;
	}
	return lost ? READ_LOST : READ_DONE;
}

gboolean
wired_rtnl_dump_links(WiredRtnl *self, GError **error)
{
	/* Events lost during a dump may be older than what it listed, or
	 * newer: only a dump that nothing interrupted is the whole truth. */
	for (guint tries = 0; tries < 5; tries++) {
		ReadResult r = rtnl_dump_once(self, error);

		if (r != READ_LOST)
			return r == READ_DONE;
	}
	g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
	                    "Cannot list network links: they kept changing while listed");
	return FALSE;
}

gboolean
wired_rtnl_put(struct nlmsghdr *msg, gsize size, guint16 type, const void *data, gsize len)
{
	gsize at = NLMSG_ALIGN(msg->nlmsg_len);
	struct rtattr *rta = (struct rtattr *)((guint8 *)msg + at);

	if (at + RTA_SPACE(len) > size)
		return FALSE;
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	msg->nlmsg_len = at + RTA_SPACE(len);
	return TRUE;
}
