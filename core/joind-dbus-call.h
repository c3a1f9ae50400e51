/* joind-dbus-call.h - the one path every D-Bus method call and property
 * write of the core takes: the caller is authorised (joind-auth), the
 * operation runs, and the call is answered exactly once, with a failure
 * named net.joind.Error.<Name>. Private to the core.
 *
 * The call holds its target (the model object it acts on) and the
 * interface it came in on weakly: when the target goes away while the
 * gate is asking about the caller, the operation never runs and the reply
 * says the object is gone; when it goes away while the operation runs,
 * the call's cancellable is cancelled and a failed operation is answered
 * the same way.
 */
#pragma once

#include <gio/gio.h>

#include "joind-error.h"

G_BEGIN_DECLS

typedef struct _JoindDBusCall JoindDBusCall;

/* Runs once the caller is allowed, with target alive. It owns call from
 * then on and answers it exactly once, now or later, with one of the
 * joind_dbus_call_return*() functions (which free it). */
typedef void (*JoindDBusCallFunc)(JoindDBusCall *call, gpointer target, gpointer data);

/* Handles invocation, which arrived on iface, for target (a GObject).
 * data is handed to func and freed with destroy when the call ends. */
void joind_dbus_call_start(GDBusInterfaceSkeleton *iface, GDBusMethodInvocation *invocation,
                           gpointer target, JoindDBusCallFunc func, gpointer data,
                           GDestroyNotify destroy);

/* Handles every call of a method of skeleton: signal is the method's
 * "handle-*" signal (whose arguments func reads from the invocation's
 * parameters) and target the object the calls act on. The connection
 * ends when target is finalized. */
void joind_dbus_call_connect(gpointer skeleton, const gchar *signal, gpointer target,
                             JoindDBusCallFunc func, gpointer data);

GDBusMethodInvocation *joind_dbus_call_get_invocation(JoindDBusCall *call);
/* Cancelled when the target goes away; for the operation to pass on. */
GCancellable *joind_dbus_call_get_cancellable(JoindDBusCall *call);

/* The unique bus name of the client whose call cancellable is the
 * cancellable of (joind_dbus_call_get_cancellable()), or NULL for any
 * other cancellable or NULL: how an operation learns whom it acts for. */
const gchar *joind_dbus_call_get_requester(GCancellable *cancellable);

/* Success with value (a tuple, floating taken; NULL for no values). The
 * interface's pending property changes go out first, so a client that
 * reads a property on the reply sees the state the call left. */
void joind_dbus_call_return(JoindDBusCall *call, GVariant *value);
/* Failure: a JOIND_ERROR keeps its code and message; any other domain
 * becomes net.joind.Error.Failed with the same message; once the target
 * is gone the reply says so (NotFound) whatever the error was. On a front
 * end's connection its error map names the failure (joind-observer.h). */
void joind_dbus_call_return_error(JoindDBusCall *call, const GError *error);
void joind_dbus_call_return_new_error(JoindDBusCall *call, JoindErrorCode code, const gchar *format,
                                      ...) G_GNUC_PRINTF(3, 4);
/* For operations that end in a gboolean and a GError. */
void joind_dbus_call_return_result(JoindDBusCall *call, gboolean ok, const GError *error);

G_END_DECLS
