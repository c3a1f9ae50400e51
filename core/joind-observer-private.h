/* joind-observer-private.h - the error maps of front ends
 * (joind-observer.h), for the core's call path. Private to the core.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Answers invocation with error: through the error map of the connection
 * it came in on when a front end set one; otherwise a JOIND_ERROR keeps its
 * code and message and any other domain becomes net.joind.Error.Failed
 * with the same message. */
void joind_dbus_return_gerror(GDBusMethodInvocation *invocation, const GError *error);

G_END_DECLS
