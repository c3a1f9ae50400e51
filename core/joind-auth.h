/* joind-auth.h - the one gate every D-Bus method call passes.
 *
 * The D-Bus policy (data/net.joind.conf) is the first fence; this gate is
 * the second: it asks the bus for the caller's uid and lets root, the
 * daemon's own user (session-bus tests) and members of group "netdev" in.
 * polkit would slot in here.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Called only when the caller is allowed; otherwise the gate has already
 * answered the invocation with net.joind.Error.PermissionDenied. */
typedef void (*JoindAuthFunc)(GDBusMethodInvocation *invocation, gpointer user_data);

void joind_auth_check(GDBusMethodInvocation *invocation, JoindAuthFunc func, gpointer user_data,
                      GDestroyNotify destroy);

G_END_DECLS
