/* wired-operstate.c - link mode and operational state requests
 * (RTM_SETLINK with IFLA_LINKMODE and IFLA_OPERSTATE). */
#include "wired-operstate.h"

#include <errno.h>
#include <glib-unix.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "joind-error.h"

struct _WiredOperstateSocket {
	struct nl_sock *sock;
	guint watch_id;
};

const gchar *
wired_operstate_to_string(WiredOperstate state)
{
	static const gchar *const names[] = {
	        [WIRED_OPERSTATE_DEFAULT] = "default (not an 802.1X port)",
	        [WIRED_OPERSTATE_DORMANT] = "dormant",
	        [WIRED_OPERSTATE_UP] = "up",
	        [WIRED_OPERSTATE_STOPPED] = "dormant, link mode default (joind stopped)",
	};

	g_return_val_if_fail(state < G_N_ELEMENTS(names), "?");
	return names[state];
}

static int
operstate_nack(struct sockaddr_nl *who, struct nlmsgerr *err, void *arg)
{
	/* ENODEV: the link went away before the request reached it. */
	if (err->error == -ENODEV)
		g_debug("rtnetlink: link gone before its operational state changed");
	else if (err->error < 0)
		g_warning("rtnetlink: cannot change a port's operational state: %s",
		          g_strerror(-err->error));
	return NL_SKIP;
}

static gboolean
operstate_readable(gint fd, GIOCondition condition, gpointer user_data)
{
	WiredOperstateSocket *self = user_data;
	int err = nl_recvmsgs_default(self->sock);

	if (err < 0 && err != -NLE_AGAIN)
		g_debug("rtnetlink answers: %s", nl_geterror(err));
	return G_SOURCE_CONTINUE;
}

WiredOperstateSocket *
wired_operstate_socket_new(GError **error)
{
	g_autoptr(WiredOperstateSocket) self = g_new0(WiredOperstateSocket, 1);
	int err;

	self->sock = nl_socket_alloc();
	if (self->sock == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot allocate an rtnetlink socket");
		return NULL;
	}
	err = nl_connect(self->sock, NETLINK_ROUTE);
	if (err < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot open an rtnetlink socket for link states: %s",
		            nl_geterror(err));
		return NULL;
	}
	/* Several requests may be in flight: answers are only logged. */
	nl_socket_disable_seq_check(self->sock);
	nl_socket_set_nonblocking(self->sock);
	nl_socket_modify_err_cb(self->sock, NL_CB_CUSTOM, operstate_nack, self);
	self->watch_id =
	        g_unix_fd_add(nl_socket_get_fd(self->sock), G_IO_IN, operstate_readable, self);
	return g_steal_pointer(&self);
}

void
wired_operstate_socket_free(WiredOperstateSocket *self)
{
	if (self == NULL)
		return;
	g_clear_handle_id(&self->watch_id, g_source_remove);
	g_clear_pointer(&self->sock, nl_socket_free);
	g_free(self);
}

void
wired_operstate_socket_set(WiredOperstateSocket *self, gint ifindex, const gchar *ifname,
                           WiredOperstate state)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	gboolean dormant_mode = state == WIRED_OPERSTATE_DORMANT || state == WIRED_OPERSTATE_UP;
	guint8 oper = state == WIRED_OPERSTATE_DEFAULT || state == WIRED_OPERSTATE_UP
	                      ? IF_OPER_UP
	                      : IF_OPER_DORMANT;
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_SETLINK, NLM_F_REQUEST | NLM_F_ACK);
	int err = msg != NULL ? 0 : -NLE_NOMEM;

	if (err == 0)
		err = nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
	if (err == 0)
		err = nla_put_u8(msg, IFLA_LINKMODE,
		                 dormant_mode ? IF_LINK_MODE_DORMANT : IF_LINK_MODE_DEFAULT);
	if (err == 0)
		err = nla_put_u8(msg, IFLA_OPERSTATE, oper);
	if (err == 0)
		err = nl_send_auto(self->sock, msg);
	if (err < 0)
		g_warning("%s: cannot ask for operational state %s: %s", ifname,
		          wired_operstate_to_string(state), nl_geterror(err));
	else
		g_debug("%s: operational state %s", ifname, wired_operstate_to_string(state));
	nlmsg_free(msg);
}
