/* nl80211.c - the rooms' side of nl80211: messages, requests through the
 * carrier's operations, event listeners (see nl80211.h). */
#include "nl80211.h"

#include <netlink/msg.h>

typedef struct {
	guint id;
	WifiNlEventFunc func;
	gpointer user_data;
} Listener;

struct _WifiNl {
	const WifiNlOps *ops;
	gpointer backend;
	int family;
	GArray *listeners; /* Listener */
	guint next_id;
};

WifiNl *
wifi_nl_new_with_ops(const WifiNlOps *ops, gpointer backend, int family)
{
	WifiNl *self = g_new0(WifiNl, 1);

	self->ops = ops;
	self->backend = backend;
	self->family = family;
	self->listeners = g_array_new(FALSE, FALSE, sizeof(Listener));
	return self;
}

void
wifi_nl_free(WifiNl *self)
{
	if (self == NULL)
		return;
	if (self->ops->free != NULL)
		self->ops->free(self->backend);
	g_array_unref(self->listeners);
	g_free(self);
}

struct nl_msg *
wifi_nl_msg_new(WifiNl *self, guint8 cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, self->family, 0, flags, cmd, 0);
	return msg;
}

guint
wifi_nl_send(WifiNl *self, struct nl_msg *msg, WifiNlReplyFunc reply, WifiNlDoneFunc done,
             gpointer user_data, GDestroyNotify destroy)
{
	return self->ops->send(self->backend, msg, reply, done, user_data, destroy);
}

void
wifi_nl_cancel(WifiNl *self, guint id)
{
	if (id != 0)
		self->ops->cancel(self->backend, id);
}

guint
wifi_nl_add_listener(WifiNl *self, WifiNlEventFunc func, gpointer user_data)
{
	Listener l = {++self->next_id, func, user_data};

	g_array_append_val(self->listeners, l);
	return l.id;
}

void
wifi_nl_dispatch_event(WifiNl *self, guint8 cmd, struct nlattr **attrs)
{
	/* A listener may add listeners: iterate over a copy. */
	g_autoptr(GArray) listeners = g_array_copy(self->listeners);

	for (guint i = 0; i < listeners->len; i++) {
		Listener *l = &g_array_index(listeners, Listener, i);

		l->func(cmd, attrs, l->user_data);
	}
}

const gchar *
wifi_nl_cmd_name(guint8 cmd)
{
	switch (cmd) {
	case NL80211_CMD_NEW_WIPHY:
		return "NEW_WIPHY";
	case NL80211_CMD_DEL_WIPHY:
		return "DEL_WIPHY";
	case NL80211_CMD_NEW_INTERFACE:
		return "NEW_INTERFACE";
	case NL80211_CMD_DEL_INTERFACE:
		return "DEL_INTERFACE";
	case NL80211_CMD_SET_INTERFACE:
		return "SET_INTERFACE";
	case NL80211_CMD_TRIGGER_SCAN:
		return "TRIGGER_SCAN";
	case NL80211_CMD_NEW_SCAN_RESULTS:
		return "NEW_SCAN_RESULTS";
	case NL80211_CMD_SCAN_ABORTED:
		return "SCAN_ABORTED";
	case NL80211_CMD_REG_CHANGE:
		return "REG_CHANGE";
	case NL80211_CMD_AUTHENTICATE:
		return "AUTHENTICATE";
	case NL80211_CMD_ASSOCIATE:
		return "ASSOCIATE";
	case NL80211_CMD_DEAUTHENTICATE:
		return "DEAUTHENTICATE";
	case NL80211_CMD_DISASSOCIATE:
		return "DISASSOCIATE";
	case NL80211_CMD_CONNECT:
		return "CONNECT";
	case NL80211_CMD_DISCONNECT:
		return "DISCONNECT";
	case NL80211_CMD_CONTROL_PORT_FRAME:
		return "CONTROL_PORT_FRAME";
	default:
		return "other";
	}
}
