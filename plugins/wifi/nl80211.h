/* nl80211.h - asynchronous nl80211 over libnl-genl-3 on the GLib main loop.
 *
 * Two sockets: one for commands (requests are matched to replies by
 * sequence number, so several may be outstanding) and one joined to the
 * config, scan, mlme and regulatory multicast groups for events. Both are
 * non-blocking and read from GLib fd watches: nothing here blocks or polls.
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
/* An event from a multicast group. */
typedef void (*WifiNlEventFunc)(guint8 cmd, struct nlattr **attrs, gpointer user_data);

/* Resolves nl80211 and its groups; fails when the kernel has no nl80211. */
WifiNl *wifi_nl_new(GError **error);
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

/* For logs: "TRIGGER_SCAN" and so on, or a number. */
const gchar *wifi_nl_cmd_name(guint8 cmd);

G_END_DECLS
