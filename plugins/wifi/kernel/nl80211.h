/* nl80211.h - asynchronous nl80211 for the plugin's rooms.
 *
 * Every room (manager, station, scanner, connector, SME, autoconnect) sends
 * its commands and receives its events through one WifiNl. What carries
 * them is a small table of operations (WifiNlOps): nl80211-socket.c talks
 * to the kernel over libnl-genl-3 on the GLib main loop; a unit test puts
 * its own table in and plays the kernel, answering requests and injecting
 * events with wifi_nl_dispatch_event(). Nothing here blocks or polls.
 */
#pragma once

#include <glib.h>
#include <linux/nl80211.h>
#include <netlink/genl/genl.h>

G_BEGIN_DECLS

typedef struct _WifiNl WifiNl;

/* Called for every reply message of a request (once for a plain request,
 * once per object for a dump); attrs is indexed by NL80211_ATTR_*. */
typedef void (*WifiNlReplyFunc)(struct nlattr **attrs, gpointer user_data);
/* Called once when the request is over: error is 0 or a negative errno
 * (-EAGAIN for a dump the kernel interrupted; run it again). */
typedef void (*WifiNlDoneFunc)(int error, gpointer user_data);
/* An event from a multicast group (or addressed to our socket). */
typedef void (*WifiNlEventFunc)(guint8 cmd, struct nlattr **attrs, gpointer user_data);

/* What carries the messages. backend is the pointer given to
 * wifi_nl_new_with_ops(). */
typedef struct {
	/* Sends msg (always consumed). Returns a request id > 0, or 0 when
	 * sending failed, in which case done has already been called. */
	guint (*send)(gpointer backend, struct nl_msg *msg, WifiNlReplyFunc reply,
	              WifiNlDoneFunc done, gpointer user_data, GDestroyNotify destroy);
	/* No callback of request id runs after this; its destroy does. */
	void (*cancel)(gpointer backend, guint id);
	void (*free)(gpointer backend);
} WifiNlOps;

/* The kernel's nl80211 (nl80211-socket.c); fails when it has none. */
WifiNl *wifi_nl_new(GError **error);
/* A WifiNl over another carrier; family is the generic netlink family id
 * its messages are addressed to. backend is freed with ops->free. */
WifiNl *wifi_nl_new_with_ops(const WifiNlOps *ops, gpointer backend, int family);
void wifi_nl_free(WifiNl *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiNl, wifi_nl_free)

/* A new message for cmd; flags NLM_F_DUMP for dumps. */
struct nl_msg *wifi_nl_msg_new(WifiNl *self, guint8 cmd, int flags);
/* Sends msg (always consumed). Returns an id for wifi_nl_cancel(), or 0
 * when sending failed, in which case done has already been called. reply
 * may be NULL; destroy (may be NULL) frees user_data after done. */
guint wifi_nl_send(WifiNl *self, struct nl_msg *msg, WifiNlReplyFunc reply, WifiNlDoneFunc done,
                   gpointer user_data, GDestroyNotify destroy);
/* No callback of the request runs after this; destroy does. */
void wifi_nl_cancel(WifiNl *self, guint id);

guint wifi_nl_add_listener(WifiNl *self, WifiNlEventFunc func, gpointer user_data);
/* The carrier hands each event to the listeners through this. */
void wifi_nl_dispatch_event(WifiNl *self, guint8 cmd, struct nlattr **attrs);

/* Events were lost (a socket's receive buffer overran): what a listener
 * learned from events may be stale, so it reads the state again. */
typedef void (*WifiNlResyncFunc)(gpointer user_data);
guint wifi_nl_add_resync_listener(WifiNl *self, WifiNlResyncFunc func, gpointer user_data);
/* The carrier says so (where: which socket, for the log). */
void wifi_nl_events_lost(WifiNl *self, const gchar *where);
/* How many times that happened, for diagnostics. */
guint wifi_nl_get_n_overruns(WifiNl *self);

/* For logs: "TRIGGER_SCAN" and so on, or a number. */
const gchar *wifi_nl_cmd_name(guint8 cmd);

G_END_DECLS
