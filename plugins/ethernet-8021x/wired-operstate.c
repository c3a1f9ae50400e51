/* wired-operstate.c - link mode and operational state requests
 * (RTM_SETLINK with IFLA_LINKMODE and IFLA_OPERSTATE). */
#include "wired-operstate.h"

#include <errno.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>

#include "wired-rtnl.h"
#include "joind-log.h"

struct _WiredOperstateSocket {
	WiredRtnl *rtnl;
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
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == WIRED_OPERSTATE_LAST + 1);

	g_return_val_if_fail(state < G_N_ELEMENTS(names), "?");
	return names[state];
}

/* The kernel's answers: only failures are worth a line. */
static void
operstate_answer(const struct nlmsghdr *msg, gpointer user_data)
{
	const struct nlmsgerr *err = NLMSG_DATA(msg);

	if (msg->nlmsg_type != NLMSG_ERROR || msg->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
		return;
	/* ENODEV: the link went away before the request reached it. */
	if (err->error == -ENODEV)
		g_debug("rtnetlink: link gone before its operational state changed");
	else if (err->error < 0)
		g_warning("rtnetlink: cannot change a port's operational state: %s",
		          g_strerror(-err->error));
}

WiredOperstateSocket *
wired_operstate_socket_new(GError **error)
{
	g_autoptr(WiredOperstateSocket) self = g_new0(WiredOperstateSocket, 1);

	/* Several requests may be in flight: answers are only logged. */
	self->rtnl = wired_rtnl_new(0, operstate_answer, NULL, self, error);
	if (self->rtnl == NULL)
		return NULL;
	return g_steal_pointer(&self);
}

void
wired_operstate_socket_free(WiredOperstateSocket *self)
{
	if (self == NULL)
		return;
	g_clear_pointer(&self->rtnl, wired_rtnl_free);
	g_free(self);
}

void
wired_operstate_socket_set(WiredOperstateSocket *self, gint ifindex, const gchar *ifname,
                           WiredOperstate state)
{
	gboolean dormant_mode = state == WIRED_OPERSTATE_DORMANT || state == WIRED_OPERSTATE_UP;
	guint8 oper = state == WIRED_OPERSTATE_DEFAULT || state == WIRED_OPERSTATE_UP
	                      ? IF_OPER_UP
	                      : IF_OPER_DORMANT;
	struct {
		struct nlmsghdr hdr;
		struct ifinfomsg ifi;
		guint8 attrs[2 * RTA_SPACE(1)];
	} req = {
	        .hdr = {.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
	                .nlmsg_type = RTM_SETLINK,
	                .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK},
	        .ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex},
	};
	guint8 mode = dormant_mode ? IF_LINK_MODE_DORMANT : IF_LINK_MODE_DEFAULT;
	g_autoptr(GError) error = NULL;

	/* The buffer holds both attributes: these cannot fail. */
	wired_rtnl_put(&req.hdr, sizeof(req), IFLA_LINKMODE, &mode, 1);
	wired_rtnl_put(&req.hdr, sizeof(req), IFLA_OPERSTATE, &oper, 1);
	if (!wired_rtnl_send(self->rtnl, &req.hdr, &error))
		joind_dev_warning(ifname, "cannot ask for operational state %s: %s",
		                  wired_operstate_to_string(state), error->message);
	else
		joind_dev_debug(ifname, "operational state %s", wired_operstate_to_string(state));
}
