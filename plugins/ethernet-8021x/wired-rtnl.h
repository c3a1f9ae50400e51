/* wired-rtnl.h - a raw rtnetlink socket on the main loop.
 *
 * The plugin's only rtnetlink needs are link events, one link dump and
 * RTM_SETLINK requests, a few fixed-layout messages: a socket and the
 * kernel's own header macros do that without libnl-route, whose resident
 * size (mostly relocated data) was the largest part of an idle daemon's.
 */
#pragma once

#include <glib.h>
#include <linux/netlink.h>

G_BEGIN_DECLS

typedef struct _WiredRtnl WiredRtnl;

/* One message from the kernel: an event, a dumped link, or NLMSG_ERROR
 * answering a request (its error 0 for an acknowledgement). */
typedef void (*WiredRtnlFunc)(const struct nlmsghdr *msg, gpointer user_data);
/* The kernel dropped messages (ENOBUFS): whatever they said is lost. */
typedef void (*WiredRtnlLostFunc)(gpointer user_data);

/* groups: RTMGRP_* multicast groups to join (0: requests only). */
WiredRtnl *wired_rtnl_new(guint32 groups, WiredRtnlFunc func, WiredRtnlLostFunc lost,
                          gpointer user_data, GError **error);
void wired_rtnl_free(WiredRtnl *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WiredRtnl, wired_rtnl_free)

/* Sends msg (nlmsg_seq and nlmsg_pid are filled in). */
gboolean wired_rtnl_send(WiredRtnl *self, struct nlmsghdr *msg, GError **error);
/* Dumps every link (RTM_GETLINK), handing each RTM_NEWLINK to the socket's
 * func, and returns when the dump is done; events read meanwhile go to
 * func too. */
gboolean wired_rtnl_dump_links(WiredRtnl *self, GError **error);

/* Appends an attribute to msg, whose buffer holds at least size bytes. */
gboolean wired_rtnl_put(struct nlmsghdr *msg, gsize size, guint16 type, const void *data,
                        gsize len);

G_END_DECLS
