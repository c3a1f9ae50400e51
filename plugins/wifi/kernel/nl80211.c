/* nl80211.c - the rooms' side of nl80211: messages, requests through the
 * carrier's operations, event listeners (see nl80211.h).
 *
 * Every request has a deadline: the kernel answers nl80211 commands and
 * dumps within milliseconds, so one without an answer after
 * WIFI_NL_REQUEST_TIMEOUT_S was lost (a receive buffer overrun drops
 * replies too); it ends with -ETIMEDOUT instead of leaving its room
 * waiting for good.
 */
#include "nl80211.h"

#include <errno.h>
#include <netlink/msg.h>

#define WIFI_NL_REQUEST_TIMEOUT_S 5

typedef struct {
	WifiNl *nl;
	guint id;         /* ours, for wifi_nl_cancel() */
	guint backend_id; /* the carrier's */
	guint timer;
	WifiNlReplyFunc reply;
	WifiNlDoneFunc done;
	gpointer user_data;
	GDestroyNotify destroy;
} Request;

typedef struct {
	guint id;
	WifiNlEventFunc func;
	gpointer user_data;
} Listener;

typedef struct {
	WifiNlResyncFunc func;
	gpointer user_data;
} ResyncListener;

struct _WifiNl {
	const WifiNlOps *ops;
	gpointer backend;
	int family;
	GArray *listeners;        /* Listener */
	GArray *resync_listeners; /* ResyncListener */
	guint n_overruns;         /* receive buffer overruns seen */
	GHashTable *requests;     /* id -> Request */
	guint next_id;
};

static void
request_free(Request *req)
{
	g_clear_handle_id(&req->timer, g_source_remove);
	if (req->destroy != NULL)
		req->destroy(req->user_data);
	g_free(req);
}

static void
request_reply(struct nlattr **attrs, gpointer user_data)
{
	Request *req = user_data;

	if (req->reply != NULL)
		req->reply(attrs, req->user_data);
}

/* The request leaves the table before done runs, so done may send new
 * requests or cancel others. */
static void
request_done(int error, gpointer user_data)
{
	Request *req = user_data;

	g_hash_table_steal(req->nl->requests, GUINT_TO_POINTER(req->id));
	req->backend_id = 0;
	if (req->done != NULL)
		req->done(error, req->user_data);
	request_free(req);
}

static gboolean
request_timeout(gpointer user_data)
{
	Request *req = user_data;
	WifiNl *self = req->nl;
	guint backend_id = req->backend_id;

	req->timer = 0;
	g_warning("nl80211: request %u got no answer in %d s; giving up on it", req->id,
	          WIFI_NL_REQUEST_TIMEOUT_S);
	g_hash_table_steal(self->requests, GUINT_TO_POINTER(req->id));
	req->backend_id = 0;
	/* The carrier forgets it without calling back (its destroy is a
	 * no-op: the request is ours). */
	self->ops->cancel(self->backend, backend_id);
	if (req->done != NULL)
		req->done(-ETIMEDOUT, req->user_data);
	request_free(req);
	return G_SOURCE_REMOVE;
}

WifiNl *
wifi_nl_new_with_ops(const WifiNlOps *ops, gpointer backend, int family)
{
	WifiNl *self = g_new0(WifiNl, 1);

	self->ops = ops;
	self->backend = backend;
	self->family = family;
	self->listeners = g_array_new(FALSE, FALSE, sizeof(Listener));
	self->resync_listeners = g_array_new(FALSE, FALSE, sizeof(ResyncListener));
	self->requests = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	                                       (GDestroyNotify)request_free);
	return self;
}

void
wifi_nl_free(WifiNl *self)
{
	if (self == NULL)
		return;
	if (self->ops->free != NULL)
		self->ops->free(self->backend);
	g_hash_table_unref(self->requests);
	g_array_unref(self->listeners);
	g_array_unref(self->resync_listeners);
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
	Request *req = g_new0(Request, 1);
	guint backend_id;

	req->nl = self;
	req->reply = reply;
	req->done = done;
	req->user_data = user_data;
	req->destroy = destroy;
	req->id = ++self->next_id;
	g_hash_table_insert(self->requests, GUINT_TO_POINTER(req->id), req);
	backend_id = self->ops->send(self->backend, msg, request_reply, request_done, req, NULL);
	if (backend_id == 0)
		return 0; /* request_done() ran and freed it */
	req->backend_id = backend_id;
	req->timer = g_timeout_add_seconds(WIFI_NL_REQUEST_TIMEOUT_S, request_timeout, req);
	return req->id;
}

void
wifi_nl_cancel(WifiNl *self, guint id)
{
	Request *req = id != 0 ? g_hash_table_lookup(self->requests, GUINT_TO_POINTER(id)) : NULL;

	if (req == NULL)
		return;
	self->ops->cancel(self->backend, req->backend_id);
	g_hash_table_remove(self->requests, GUINT_TO_POINTER(id));
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

guint
wifi_nl_add_resync_listener(WifiNl *self, WifiNlResyncFunc func, gpointer user_data)
{
	ResyncListener l = {func, user_data};

	g_array_append_val(self->resync_listeners, l);
	return self->resync_listeners->len;
}

void
wifi_nl_events_lost(WifiNl *self, const gchar *where)
{
	g_autoptr(GArray) listeners = g_array_copy(self->resync_listeners);

	self->n_overruns++;
	g_info("nl80211: messages were lost on the %s socket (receive buffer overrun); "
	       "reading the state again",
	       where);
	for (guint i = 0; i < listeners->len; i++) {
		ResyncListener *l = &g_array_index(listeners, ResyncListener, i);

		l->func(l->user_data);
	}
}

guint
wifi_nl_get_n_overruns(WifiNl *self)
{
	return self->n_overruns;
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
