/* nl80211-socket.c - the kernel's nl80211 as a WifiNl carrier: libnl-genl-3
 * sockets read from GLib fd watches.
 *
 * Two sockets: one for commands (requests are matched to replies by
 * sequence number, so several may be outstanding) and one joined to the
 * config, scan, mlme and regulatory multicast groups for events. Both are
 * non-blocking.
 */
#include "nl80211.h"

#include <errno.h>
#include <glib-unix.h>
#include <sys/socket.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>

#include "joind-error.h"

typedef struct {
	guint id;
	guint32 seq;
	WifiNlReplyFunc reply;
	WifiNlDoneFunc done;
	gpointer user_data;
	GDestroyNotify destroy;
	gboolean interrupted;  /* the kernel flagged the dump inconsistent */
	struct nl_msg *queued; /* a dump waiting for the running one to end */
} Request;

typedef struct {
	WifiNl *nl; /* events go to its listeners */
	struct nl_sock *cmd;
	struct nl_sock *events;
	struct nl_cb *cmd_cb;
	struct nl_cb *event_cb;
	int family;
	guint cmd_watch;
	guint event_watch;
	GHashTable *requests; /* seq -> Request */
	/* The kernel runs one dump per socket at a time (another is refused
	 * with EBUSY): later dumps wait here until the running one's DONE. */
	GQueue dumps;     /* Request, each with its queued message */
	guint32 dump_seq; /* the running dump, 0 when none */
	guint next_id;
	guint resync_idle;    /* after an overrun */
	const gchar *lost_on; /* which socket overran */
} NlSocket;

static void
request_free(Request *req)
{
	if (req->destroy != NULL)
		req->destroy(req->user_data);
	g_clear_pointer(&req->queued, nlmsg_free);
	g_free(req);
}

static Request *
request_for(NlSocket *self, const struct nlmsghdr *hdr)
{
	return g_hash_table_lookup(self->requests, GUINT_TO_POINTER(hdr->nlmsg_seq));
}

/* Ends a request: it leaves the table before done runs, so done may send
 * new requests or cancel others. */
static void
request_complete(NlSocket *self, Request *req, int error)
{
	g_hash_table_steal(self->requests, GUINT_TO_POINTER(req->seq));
	if (error == 0 && req->interrupted)
		error = -EAGAIN;
	if (req->done != NULL)
		req->done(error, req->user_data);
	request_free(req);
}

static int event_valid(struct nl_msg *msg, void *arg);
static void dump_ended(NlSocket *self, guint32 seq);

/* ---- command socket callbacks -------------------------------------------- */

static int
cmd_valid(struct nl_msg *msg, void *arg)
{
	NlSocket *self = arg;
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	Request *req = request_for(self, hdr);
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];

	/* The kernel sends some events only to the socket that owns a
	 * connection (NL80211_ATTR_SOCKET_OWNER): EAPOL frames of the control
	 * port. They carry no sequence number; listeners get them. */
	if (req == NULL && hdr->nlmsg_seq == 0)
		return event_valid(msg, arg);
	if (req == NULL || req->reply == NULL)
		return NL_SKIP;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, attrs, NL80211_ATTR_MAX, NULL) < 0) {
		g_debug("nl80211: unparsable reply to request %u", req->id);
		return NL_SKIP;
	}
	req->reply(attrs, req->user_data);
	return NL_SKIP;
}

static int
cmd_finish(struct nl_msg *msg, void *arg)
{
	NlSocket *self = arg;
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	Request *req = request_for(self, hdr);
	int error = 0;

	dump_ended(self, hdr->nlmsg_seq);
	if (req == NULL)
		return NL_SKIP;
	/* A dump that failed part-way carries the error in its DONE. */
	if (nlmsg_datalen(hdr) >= (int)sizeof(int))
		error = MIN(*(int *)nlmsg_data(hdr), 0);
	request_complete(self, req, error);
	return NL_SKIP;
}

static int
cmd_ack(struct nl_msg *msg, void *arg)
{
	NlSocket *self = arg;
	Request *req = request_for(self, nlmsg_hdr(msg));

	if (req != NULL)
		request_complete(self, req, 0);
	return NL_SKIP;
}

static int
cmd_error(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	NlSocket *self = arg;
	Request *req = request_for(self, &err->msg);

	dump_ended(self, err->msg.nlmsg_seq);
	if (req != NULL)
		request_complete(self, req, err->error < 0 ? err->error : -EIO);
	return NL_SKIP;
}

static int
cmd_dump_intr(struct nl_msg *msg, void *arg)
{
	NlSocket *self = arg;
	Request *req = request_for(self, nlmsg_hdr(msg));

	if (req != NULL)
		req->interrupted = TRUE;
	return NL_OK;
}

/* Replies are matched to requests by request_for(), events carry no
 * sequence: libnl's own check must not drop either. */
static int
seq_ok(struct nl_msg *msg, void *arg)
{
	return NL_OK;
}

/* ---- event socket --------------------------------------------------------- */

static int
event_valid(struct nl_msg *msg, void *arg)
{
	NlSocket *self = arg;
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	struct genlmsghdr *genl = nlmsg_data(hdr);
	struct nlattr *attrs[NL80211_ATTR_MAX + 1];

	if (genlmsg_parse(hdr, 0, attrs, NL80211_ATTR_MAX, NULL) < 0)
		return NL_SKIP;
	wifi_nl_dispatch_event(self->nl, genl->cmd, attrs);
	return NL_SKIP;
}

static gboolean
resync_now(gpointer user_data)
{
	NlSocket *self = user_data;

	self->resync_idle = 0;
	wifi_nl_events_lost(self->nl, self->lost_on);
	return G_SOURCE_REMOVE;
}

static gboolean
on_readable(gint fd, GIOCondition condition, gpointer user_data)
{
	NlSocket *self = user_data;
	gboolean is_cmd = fd == nl_socket_get_fd(self->cmd);
	int err = nl_recvmsgs(is_cmd ? self->cmd : self->events,
	                      is_cmd ? self->cmd_cb : self->event_cb);

	/* libnl says ENOBUFS (the kernel dropped messages for us) as
	 * NLE_NOMEM. The rooms read the state again once the burst that
	 * caused it has been read. */
	if (err == -NLE_NOMEM) {
		/* The running dump's DONE may be among what was lost. */
		if (is_cmd)
			dump_ended(self, self->dump_seq);
		self->lost_on = is_cmd ? "command" : "event";
		if (self->resync_idle == 0)
			self->resync_idle = g_idle_add(resync_now, self);
	} else if (err < 0 && err != -NLE_AGAIN)
		g_debug("nl80211: receiving on the %s socket: %s", is_cmd ? "command" : "event",
		        nl_geterror(err));
	return G_SOURCE_CONTINUE;
}

/* ---- set-up --------------------------------------------------------------- */

static struct nl_sock *
socket_open(GError **error)
{
	struct nl_sock *sock = nl_socket_alloc();
	int err;

	if (sock == NULL) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "Cannot allocate a netlink socket.");
		return NULL;
	}
	err = genl_connect(sock);
	if (err < 0) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "Cannot open a generic netlink socket: %s", nl_geterror(err));
		nl_socket_free(sock);
		return NULL;
	}
	/* Replies are matched to requests here, not by libnl. */
	nl_socket_disable_seq_check(sock);
	nl_socket_disable_auto_ack(sock);
	nl_socket_set_nonblocking(sock);
	nl_socket_set_msg_buf_size(sock, 32768);
	return sock;
}

static gboolean
join_groups(NlSocket *self, GError **error)
{
	static const gchar *const groups[] = {
	        NL80211_MULTICAST_GROUP_CONFIG, NL80211_MULTICAST_GROUP_SCAN,
	        NL80211_MULTICAST_GROUP_MLME, NL80211_MULTICAST_GROUP_REG};

	for (guint i = 0; i < G_N_ELEMENTS(groups); i++) {
		int grp = genl_ctrl_resolve_grp(self->events, "nl80211", groups[i]);

		if (grp < 0 || nl_socket_add_membership(self->events, grp) < 0) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
			            "Cannot join the nl80211 “%s” group: %s", groups[i],
			            nl_geterror(grp < 0 ? grp : -NLE_FAILURE));
			return FALSE;
		}
	}
	/* Scan result storms must not overrun the event socket. */
	nl_socket_set_buffer_size(self->events, 1 << 20, 0);
	return TRUE;
}

static void
nl_socket_free_all(gpointer backend)
{
	NlSocket *self = backend;

	if (self == NULL)
		return;
	g_clear_handle_id(&self->cmd_watch, g_source_remove);
	g_clear_handle_id(&self->event_watch, g_source_remove);
	g_clear_handle_id(&self->resync_idle, g_source_remove);
	g_clear_pointer(&self->requests, g_hash_table_unref);
	g_queue_clear_full(&self->dumps, (GDestroyNotify)request_free);
	g_clear_pointer(&self->cmd_cb, nl_cb_put);
	g_clear_pointer(&self->event_cb, nl_cb_put);
	g_clear_pointer(&self->cmd, nl_socket_free);
	g_clear_pointer(&self->events, nl_socket_free);
	g_free(self);
}

/* Sends req's message; done hears of a failure to send. */
static gboolean
request_send(NlSocket *self, Request *req, struct nl_msg *msg)
{
	struct nlmsghdr *hdr = nlmsg_hdr(msg);
	gboolean dump = (hdr->nlmsg_flags & NLM_F_DUMP) != 0;
	int err = nl_send_auto(self->cmd, msg);

	req->seq = hdr->nlmsg_seq; /* assigned by nl_send_auto() */
	nlmsg_free(msg);
	if (err < 0) {
		g_debug("nl80211: send failed: %s", nl_geterror(err));
		if (req->done != NULL)
			req->done(-EIO, req->user_data);
		request_free(req);
		return FALSE;
	}
	if (dump)
		self->dump_seq = req->seq;
	g_hash_table_insert(self->requests, GUINT_TO_POINTER(req->seq), req);
	return TRUE;
}

/* The dump of seq (if it is the running one) ended or was lost: the next
 * waiting dump goes out. */
static void
dump_ended(NlSocket *self, guint32 seq)
{
	Request *req;

	if (seq == 0 || seq != self->dump_seq)
		return;
	self->dump_seq = 0;
	while (self->dump_seq == 0 && (req = g_queue_pop_head(&self->dumps)) != NULL)
		request_send(self, req, g_steal_pointer(&req->queued));
}

static guint
nl_socket_send(gpointer backend, struct nl_msg *msg, WifiNlReplyFunc reply, WifiNlDoneFunc done,
               gpointer user_data, GDestroyNotify destroy)
{
	NlSocket *self = backend;
	Request *req = g_new0(Request, 1);
	struct nlmsghdr *hdr = nlmsg_hdr(msg);

	req->reply = reply;
	req->done = done;
	req->user_data = user_data;
	req->destroy = destroy;
	req->id = ++self->next_id;
	/* Dumps end with NLMSG_DONE; everything else asks for an ACK. */
	if (!(hdr->nlmsg_flags & NLM_F_DUMP))
		hdr->nlmsg_flags |= NLM_F_ACK;
	else if (self->dump_seq != 0) {
		req->queued = msg;
		g_queue_push_tail(&self->dumps, req);
		return req->id;
	}
	return request_send(self, req, msg) ? req->id : 0;
}

static gboolean
cancel_queued(NlSocket *self, guint id)
{
	for (GList *l = self->dumps.head; l != NULL; l = l->next) {
		Request *req = l->data;

		if (req->id == id) {
			g_queue_delete_link(&self->dumps, l);
			request_free(req);
			return TRUE;
		}
	}
	return FALSE;
}

/* A running dump cancelled stays marked as running: the kernel goes on
 * with it until its DONE, which dump_ended() still sees. */
static void
nl_socket_cancel(gpointer backend, guint id)
{
	NlSocket *self = backend;
	GHashTableIter iter;
	Request *req;

	if (cancel_queued(self, id))
		return;
	g_hash_table_iter_init(&iter, self->requests);
	while (g_hash_table_iter_next(&iter, NULL, (gpointer *)&req)) {
		if (req->id == id) {
			g_hash_table_iter_remove(&iter);
			return;
		}
	}
}

static const WifiNlOps nl_socket_ops = {nl_socket_send, nl_socket_cancel, nl_socket_free_all};

G_DEFINE_AUTOPTR_CLEANUP_FUNC(NlSocket, nl_socket_free_all)

static void
nl_socket_set_callbacks(NlSocket *self)
{
	self->cmd_cb = nl_cb_alloc(NL_CB_CUSTOM);
	nl_cb_set(self->cmd_cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_ok, NULL);
	nl_cb_set(self->cmd_cb, NL_CB_VALID, NL_CB_CUSTOM, cmd_valid, self);
	nl_cb_set(self->cmd_cb, NL_CB_FINISH, NL_CB_CUSTOM, cmd_finish, self);
	nl_cb_set(self->cmd_cb, NL_CB_ACK, NL_CB_CUSTOM, cmd_ack, self);
	nl_cb_set(self->cmd_cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, cmd_dump_intr, self);
	nl_cb_err(self->cmd_cb, NL_CB_CUSTOM, cmd_error, self);
	self->event_cb = nl_cb_alloc(NL_CB_CUSTOM);
	nl_cb_set(self->event_cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_ok, NULL);
	nl_cb_set(self->event_cb, NL_CB_VALID, NL_CB_CUSTOM, event_valid, self);
	self->cmd_watch = g_unix_fd_add(nl_socket_get_fd(self->cmd), G_IO_IN, on_readable, self);
	self->event_watch =
	        g_unix_fd_add(nl_socket_get_fd(self->events), G_IO_IN, on_readable, self);
}

/* Replies to joind's own requests arrive on the command socket: one lost
 * leaves its request waiting for the deadline, so that socket's buffer is
 * not left to net.core.rmem_max (which can be small) when joind may raise
 * it (CAP_NET_ADMIN). The event socket keeps the capped size: what it
 * loses is read again (wifi_nl_events_lost). */
static void
cmd_socket_size(struct nl_sock *sock)
{
	int size = 1 << 20;

	if (setsockopt(nl_socket_get_fd(sock), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		nl_socket_set_buffer_size(sock, size, 0);
}

WifiNl *
wifi_nl_new(GError **error)
{
	g_autoptr(NlSocket) self = g_new0(NlSocket, 1);
	int family;

	self->requests = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
	                                       (GDestroyNotify)request_free);
	self->cmd = socket_open(error);
	if (self->cmd == NULL)
		return NULL;
	cmd_socket_size(self->cmd);
	self->events = socket_open(error);
	if (self->events == NULL)
		return NULL;
	family = genl_ctrl_resolve(self->cmd, "nl80211");
	if (family < 0) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		                    "The kernel has no nl80211 (is cfg80211 loaded?).");
		return NULL;
	}
	if (!join_groups(self, error))
		return NULL;
	nl_socket_set_callbacks(self);
	self->nl = wifi_nl_new_with_ops(&nl_socket_ops, self, family);
	return g_steal_pointer(&self)->nl;
}
