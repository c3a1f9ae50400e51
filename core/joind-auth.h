/* joind-auth.h - the one gate every D-Bus method call and property write
 * passes.
 *
 * The D-Bus policy (data/net.joind.conf) is the first fence; this gate is
 * the second. Each method and writable property maps to one polkit action
 * (data/net.joind.policy; the core's table is in joind-auth.c, plugins
 * declare the rules of their own interfaces: joind-auth-rule.h) and polkit is
 * asked whether the caller may do it (joind-polkit.h), with interaction
 * when the caller's message allows it. Only when polkit is not installed
 * does the gate decide alone: root, the daemon's own user (session-bus
 * tests) and members of group "netdev" are let in, by the uid the bus
 * gives for the client (joind-caller.h), but for profile management
 * (net.joind.profile.manage), which is root's and the daemon's user's
 * only. Its one caller is the
 * core's call path (joind-dbus-call.h), which every method handler and
 * setter takes.
 */
#pragma once

#include <gio/gio.h>

#include "joind-auth-rule.h"

G_BEGIN_DECLS

/* Called only when the caller is allowed; otherwise the gate has already
 * answered the invocation with net.joind.Error.PermissionDenied. */
typedef void (*JoindAuthFunc)(GDBusMethodInvocation *invocation, gpointer user_data);

/* invocation arrived on iface (whose Source property, if it has one, says
 * whether an administrator provisioned the object). */
void joind_auth_check(GDBusInterfaceSkeleton *iface, GDBusMethodInvocation *invocation,
                      JoindAuthFunc func, gpointer user_data, GDestroyNotify destroy);

/* The gate's half of joind_core_declare_auth_rules(). */
gboolean joind_auth_declare_rules(const JoindAuthRule *rules, GError **error);

/* The polkit action a call of member (a method, or a property being
 * written) of interface needs; admin_provisioned: the object it acts on
 * came from an administrator (Source "admin"). NULL when no rule covers
 * the member: the gate then refuses the call. */
const gchar *joind_auth_action_lookup(const gchar *interface, const gchar *member,
                                      gboolean admin_provisioned);

/* Which uids the gate lets do action when polkit is not installed: root,
 * the daemon's own user and group netdev (but for profile management)
 * unless replaced. Tests refuse a caller here that the bus would otherwise
 * let through. NULL restores the default. */
typedef gboolean (*JoindAuthPolicy)(guint32 uid, const gchar *action);
void joind_auth_set_policy(JoindAuthPolicy policy);

G_END_DECLS
