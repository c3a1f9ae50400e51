/* link.c - the rooms' WifiLink calls through its carrier's operations
 * (see link.h), and the kernel's carrier: link flags through rtnetlink
 * events and SIOC[GS]IFFLAGS; link mode and operational state through
 * RTM_SETLINK requests on a socket of their own, whose answers are read
 * from the main loop. The two attributes are put by hand: libnl-route, a
 * large library with dozens of constructors, is not mapped for them. */
#include "link.h"

#include <errno.h>
#include <glib-unix.h>
#include <linux/ethtool.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/sockios.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "joind-mac.h"
#include "joind-error.h"
#include "neigh-evict.h"

struct _WifiLink {
	const WifiLinkOps *ops;
	gpointer backend;
};

/* The kernel's carrier. */
typedef struct {
	struct nl_sock *sock;
	struct nl_cb *cb;
	guint watch;
	struct nl_sock *req; /* link mode / operstate requests */
	guint req_watch;
	int ioctl_fd;
	WifiLinkFunc func;
	gpointer user_data;
} LinkSocket;

static void link_socket_free(gpointer backend);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LinkSocket, link_socket_free)

static int
link_valid(struct nl_msg *msg, void *arg)
{
	LinkSocket *self = arg;
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct ifinfomsg *ifi;
	struct nlattr *tb[IFLA_MAX + 1];
	gchar addr[JOIND_MAC_STRING_LEN] = "";
	const gchar *name = NULL;

	if (hdr->nlmsg_type != RTM_NEWLINK ||
	    nlmsg_parse(hdr, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0)
		return NL_SKIP;
	ifi = nlmsg_data(hdr);
	if (tb[IFLA_IFNAME] != NULL)
		name = nla_get_string(tb[IFLA_IFNAME]);
	if (tb[IFLA_ADDRESS] != NULL && nla_len(tb[IFLA_ADDRESS]) == 6)
		joind_mac_to_string(nla_data(tb[IFLA_ADDRESS]), addr);
	self->func(ifi->ifi_index, name, addr[0] != '\0' ? addr : NULL, ifi->ifi_flags,
	           self->user_data);
	return NL_SKIP;
}

/* Events carry no sequence number to check. */
static int
link_seq_ok(struct nl_msg *msg, void *arg)
{
	return NL_OK;
}

static gboolean
link_readable(gint fd, GIOCondition condition, gpointer user_data)
{
	LinkSocket *self = user_data;
	int err = nl_recvmsgs(self->sock, self->cb);

	if (err < 0 && err != -NLE_AGAIN)
		g_debug("rtnetlink: %s", nl_geterror(err));
	return G_SOURCE_CONTINUE;
}

static int
req_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	/* ENODEV: the interface went away meanwhile (a radio removed). */
	if (err->error == -ENODEV)
		g_debug("rtnetlink: link mode / operational state of a link gone");
	else if (err->error < 0)
		g_warning("rtnetlink: cannot change a link's operational state: %s",
		          g_strerror(-err->error));
	return NL_SKIP;
}

static gboolean
req_readable(gint fd, GIOCondition condition, gpointer user_data)
{
	LinkSocket *self = user_data;
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);

	nl_cb_err(cb, NL_CB_CUSTOM, req_error, self);
	(void)nl_recvmsgs(self->req, cb);
	nl_cb_put(cb);
	return G_SOURCE_CONTINUE;
}

/* The request socket; FALSE (logged) when it cannot be had. */
static gboolean
link_req_open(LinkSocket *self)
{
	int err;

	if (self->req != NULL)
		return TRUE;
	self->req = nl_socket_alloc();
	if (self->req == NULL)
		return FALSE;
	err = nl_connect(self->req, NETLINK_ROUTE);
	if (err < 0) {
		g_warning("rtnetlink: %s", nl_geterror(err));
		g_clear_pointer(&self->req, nl_socket_free);
		return FALSE;
	}
	nl_socket_set_nonblocking(self->req);
	self->req_watch = g_unix_fd_add(nl_socket_get_fd(self->req), G_IO_IN, req_readable, self);
	return TRUE;
}

static void
link_change(LinkSocket *self, gint ifindex, gint linkmode, gint operstate)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_SETLINK, NLM_F_ACK);
	int err = msg != NULL ? nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) : -NLE_NOMEM;

	if (err >= 0 && linkmode >= 0)
		err = nla_put_u8(msg, IFLA_LINKMODE, (guint8)linkmode);
	if (err >= 0 && operstate >= 0)
		err = nla_put_u8(msg, IFLA_OPERSTATE, (guint8)operstate);
	if (err >= 0 && link_req_open(self))
		err = nl_send_auto(self->req, msg);
	if (err < 0)
		g_warning("rtnetlink: link %d: %s", ifindex, nl_geterror(err));
	nlmsg_free(msg);
}

static void
link_socket_set_dormant_mode(gpointer backend, gint ifindex, gboolean dormant)
{
	link_change(backend, ifindex, dormant ? IF_LINK_MODE_DORMANT : IF_LINK_MODE_DEFAULT, -1);
}

static void
link_socket_set_oper_up(gpointer backend, gint ifindex, gboolean up)
{
	link_change(backend, ifindex, -1, up ? IF_OPER_UP : IF_OPER_DORMANT);
}

static LinkSocket *
link_socket_new(WifiLinkFunc func, gpointer user_data, GError **error)
{
	g_autoptr(LinkSocket) self = g_new0(LinkSocket, 1);
	int err;

	self->func = func;
	self->user_data = user_data;
	self->ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	self->sock = nl_socket_alloc();
	if (self->ioctl_fd < 0 || self->sock == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot open sockets: %s",
		            g_strerror(errno));
		return NULL;
	}
	nl_socket_disable_seq_check(self->sock);
	err = nl_connect(self->sock, NETLINK_ROUTE);
	if (err >= 0)
		err = nl_socket_add_membership(self->sock, RTNLGRP_LINK);
	if (err < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot listen to link changes: %s", nl_geterror(err));
		return NULL;
	}
	nl_socket_set_nonblocking(self->sock);
	self->cb = nl_cb_alloc(NL_CB_CUSTOM);
	nl_cb_set(self->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, link_seq_ok, NULL);
	nl_cb_set(self->cb, NL_CB_VALID, NL_CB_CUSTOM, link_valid, self);
	self->watch = g_unix_fd_add(nl_socket_get_fd(self->sock), G_IO_IN, link_readable, self);
	return g_steal_pointer(&self);
}

static void
link_socket_free(gpointer backend)
{
	LinkSocket *self = backend;

	if (self == NULL)
		return;
	g_clear_handle_id(&self->watch, g_source_remove);
	g_clear_handle_id(&self->req_watch, g_source_remove);
	g_clear_pointer(&self->req, nl_socket_free);
	g_clear_pointer(&self->cb, nl_cb_put);
	g_clear_pointer(&self->sock, nl_socket_free);
	if (self->ioctl_fd >= 0)
		close(self->ioctl_fd);
	g_free(self);
}

static gboolean
link_socket_get_flags(gpointer backend, const gchar *ifname, guint *flags, GError **error)
{
	LinkSocket *self = backend;
	struct ifreq ifr = {0};

	g_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	if (ioctl(self->ioctl_fd, SIOCGIFFLAGS, &ifr) < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "%s: %s", ifname,
		            g_strerror(errno));
		return FALSE;
	}
	*flags = (guint)(gushort)ifr.ifr_flags;
	return TRUE;
}

static gboolean
link_socket_set_up(gpointer backend, const gchar *ifname, GError **error)
{
	LinkSocket *self = backend;
	struct ifreq ifr = {0};
	gboolean ok;

	g_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ok = ioctl(self->ioctl_fd, SIOCGIFFLAGS, &ifr) == 0;
	if (ok && (ifr.ifr_flags & IFF_UP))
		return TRUE;
	ifr.ifr_flags |= IFF_UP;
	if (ok && ioctl(self->ioctl_fd, SIOCSIFFLAGS, &ifr) == 0)
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot bring %s up: %s", ifname,
	            g_strerror(errno));
	return FALSE;
}

/* SIOCSIFFLAGS with flags; errno kept for the caller. */
static gboolean
link_socket_put_flags(LinkSocket *self, const gchar *ifname, gshort flags)
{
	struct ifreq ifr = {0};

	g_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ifr.ifr_flags = flags;
	return ioctl(self->ioctl_fd, SIOCSIFFLAGS, &ifr) == 0;
}

static gboolean
link_socket_set_down(gpointer backend, const gchar *ifname, GError **error)
{
	LinkSocket *self = backend;
	struct ifreq ifr = {0};

	g_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	if (ioctl(self->ioctl_fd, SIOCGIFFLAGS, &ifr) == 0 &&
	    ((ifr.ifr_flags & IFF_UP) == 0 ||
	     link_socket_put_flags(self, ifname, (gshort)(ifr.ifr_flags & ~IFF_UP))))
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Cannot take %s down: %s", ifname,
	            g_strerror(errno));
	return FALSE;
}

static gboolean
link_socket_set_address(gpointer backend, const gchar *ifname, const guint8 addr[6], GError **error)
{
	LinkSocket *self = backend;
	struct ifreq ifr = {0};
	gshort flags;
	gboolean ok;
	int err;

	g_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ok = ioctl(self->ioctl_fd, SIOCGIFFLAGS, &ifr) == 0;
	flags = ifr.ifr_flags;
	if (ok && (flags & IFF_UP))
		ok = link_socket_put_flags(self, ifname, (gshort)(flags & ~IFF_UP));
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, addr, 6);
	ok = ok && ioctl(self->ioctl_fd, SIOCSIFHWADDR, &ifr) == 0;
	err = errno;
	/* Up again as it was, whether the address took or not. */
	if ((flags & IFF_UP) && !link_socket_put_flags(self, ifname, flags) && ok) {
		ok = FALSE;
		err = errno;
	}
	if (!ok)
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot change the address of %s: %s", ifname, g_strerror(err));
	return ok;
}

static gboolean
link_socket_get_permanent_address(gpointer backend, const gchar *ifname, guint8 addr[6],
                                  GError **error)
{
	LinkSocket *self = backend;
	/* The request ends in a flexible array: a union gives it room
	 * (standard C, where a struct around it is a GNU extension). */
	union {
		struct ethtool_perm_addr head;
		guint8 room[sizeof(struct ethtool_perm_addr) + MAX_ADDR_LEN];
	} req = {.head = {.cmd = ETHTOOL_GPERMADDR, .size = MAX_ADDR_LEN}};
	struct ifreq ifr = {0};

	g_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	ifr.ifr_data = (gpointer)&req;
	if (ioctl(self->ioctl_fd, SIOCETHTOOL, &ifr) < 0 || req.head.size != 6) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "%s: no permanent address (%s)", ifname,
		            req.head.size != 6 ? "not 6 octets" : g_strerror(errno));
		return FALSE;
	}
	memcpy(addr, req.head.data, 6);
	return TRUE;
}

static guint
link_socket_set_neigh_evict(gpointer backend, const gchar *ifname, gboolean evict, guint which)
{
	return wifi_neigh_evict_set("/proc/sys", ifname, evict, which);
}

static const WifiLinkOps link_socket_ops = {
        .get_flags = link_socket_get_flags,
        .set_up = link_socket_set_up,
        .set_down = link_socket_set_down,
        .set_address = link_socket_set_address,
        .get_permanent_address = link_socket_get_permanent_address,
        .set_dormant_mode = link_socket_set_dormant_mode,
        .set_oper_up = link_socket_set_oper_up,
        .set_neigh_evict = link_socket_set_neigh_evict,
        .free = link_socket_free,
};

WifiLink *
wifi_link_new(WifiLinkFunc func, gpointer user_data, GError **error)
{
	LinkSocket *sock = link_socket_new(func, user_data, error);

	return sock != NULL ? wifi_link_new_with_ops(&link_socket_ops, sock) : NULL;
}

/* ---- the rooms' side ------------------------------------------------------ */

WifiLink *
wifi_link_new_with_ops(const WifiLinkOps *ops, gpointer backend)
{
	WifiLink *self = g_new0(WifiLink, 1);

	self->ops = ops;
	self->backend = backend;
	return self;
}

void
wifi_link_free(WifiLink *self)
{
	if (self == NULL)
		return;
	if (self->ops->free != NULL)
		self->ops->free(self->backend);
	g_free(self);
}

gboolean
wifi_link_get_flags(WifiLink *self, const gchar *ifname, guint *flags, GError **error)
{
	return self->ops->get_flags(self->backend, ifname, flags, error);
}

gboolean
wifi_link_set_up(WifiLink *self, const gchar *ifname, GError **error)
{
	return self->ops->set_up(self->backend, ifname, error);
}

gboolean
wifi_link_set_down(WifiLink *self, const gchar *ifname, GError **error)
{
	if (self->ops->set_down == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "Cannot take %s down here.", ifname);
		return FALSE;
	}
	return self->ops->set_down(self->backend, ifname, error);
}

gboolean
wifi_link_set_address(WifiLink *self, const gchar *ifname, const guint8 addr[6], GError **error)
{
	if (self->ops->set_address == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "Cannot change the address of %s here.", ifname);
		return FALSE;
	}
	return self->ops->set_address(self->backend, ifname, addr, error);
}

gboolean
wifi_link_get_permanent_address(WifiLink *self, const gchar *ifname, guint8 addr[6], GError **error)
{
	if (self->ops->get_permanent_address == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "%s: no permanent address here", ifname);
		return FALSE;
	}
	return self->ops->get_permanent_address(self->backend, ifname, addr, error);
}

void
wifi_link_set_dormant_mode(WifiLink *self, gint ifindex, gboolean dormant)
{
	self->ops->set_dormant_mode(self->backend, ifindex, dormant);
}

void
wifi_link_set_oper_up(WifiLink *self, gint ifindex, gboolean up)
{
	self->ops->set_oper_up(self->backend, ifindex, up);
}

guint
wifi_link_set_neigh_evict(WifiLink *self, const gchar *ifname, gboolean evict, guint which)
{
	if (self->ops->set_neigh_evict == NULL)
		return 0;
	return self->ops->set_neigh_evict(self->backend, ifname, evict, which);
}
