/* joind-dbus-call.c - authorise, run, answer (see joind-dbus-call.h). */
#include "joind-dbus-call.h"

#include "joind-auth.h"
#include "joind-observer-private.h"

struct _JoindDBusCall {
	/* The handler's reference, given up by the one reply. */
	GDBusMethodInvocation *invocation;
	GObject *target; /* weak: NULL once it is gone */
	GWeakRef iface;
	GCancellable *cancellable;
	JoindDBusCallFunc func;
	gpointer data;
	GDestroyNotify destroy;
	/* Two owners: the gate until it is done, then func until it answers. */
	gint refcount;
};

static void
call_target_gone(gpointer user_data, GObject *where_the_object_was)
{
	JoindDBusCall *call = user_data;

	call->target = NULL;
	g_cancellable_cancel(call->cancellable);
}

static void
call_unref(gpointer user_data)
{
	JoindDBusCall *call = user_data;

	if (--call->refcount > 0)
		return;
	if (call->target != NULL)
		g_object_weak_unref(call->target, call_target_gone, call);
	g_weak_ref_clear(&call->iface);
	g_object_unref(call->cancellable);
	if (call->destroy != NULL)
		call->destroy(call->data);
	g_free(call);
}

static void
call_reply_gone(JoindDBusCall *call)
{
	const gchar *path = g_dbus_method_invocation_get_object_path(call->invocation);
	g_autoptr(GError) error =
	        g_error_new(JOIND_ERROR, JOIND_ERROR_NOT_FOUND, "The object %s is gone.", path);

	g_debug("%s.%s: %s went away meanwhile",
	        g_dbus_method_invocation_get_interface_name(call->invocation),
	        g_dbus_method_invocation_get_method_name(call->invocation), path);
	joind_dbus_return_gerror(call->invocation, error);
}

static void
call_authorized(GDBusMethodInvocation *invocation, gpointer user_data)
{
	JoindDBusCall *call = user_data;
	g_autoptr(GObject) target = NULL;

	if (call->target == NULL) {
		call_reply_gone(call);
		return;
	}
	/* Alive for as long as func runs, even if it answers at once. */
	target = g_object_ref(call->target);
	call->refcount++;
	call->func(call, target, call->data);
}

static GQuark
call_requester_quark(void)
{
	return g_quark_from_static_string("joind-dbus-call-requester");
}

const gchar *
joind_dbus_call_get_requester(GCancellable *cancellable)
{
	if (cancellable == NULL)
		return NULL;
	return g_object_get_qdata(G_OBJECT(cancellable), call_requester_quark());
}

void
joind_dbus_call_start(GDBusInterfaceSkeleton *iface, GDBusMethodInvocation *invocation,
                      gpointer target, JoindDBusCallFunc func, gpointer data,
                      GDestroyNotify destroy)
{
	JoindDBusCall *call = g_new0(JoindDBusCall, 1);

	call->invocation = invocation;
	call->target = G_OBJECT(target);
	g_object_weak_ref(call->target, call_target_gone, call);
	g_weak_ref_init(&call->iface, iface);
	call->cancellable = g_cancellable_new();
	g_object_set_qdata_full(G_OBJECT(call->cancellable), call_requester_quark(),
	                        g_strdup(g_dbus_method_invocation_get_sender(invocation)), g_free);
	call->func = func;
	call->data = data;
	call->destroy = destroy;
	call->refcount = 1;
	joind_auth_check(iface, invocation, call_authorized, call, call_unref);
}

/* A handler for any "handle-*" signal, whatever the method's arguments:
 * the marshaller reads only the skeleton and the invocation. */
typedef struct {
	GClosure closure;
	gpointer target; /* the closure is invalidated when it is finalized */
	JoindDBusCallFunc func;
	gpointer data;
} CallClosure;

static void
call_closure_marshal(GClosure *closure, GValue *return_value, guint n_param_values,
                     const GValue *param_values, gpointer invocation_hint, gpointer marshal_data)
{
	CallClosure *cc = (CallClosure *)closure;

	joind_dbus_call_start(g_value_get_object(&param_values[0]),
	                      g_value_get_object(&param_values[1]), cc->target, cc->func, cc->data,
	                      NULL);
	if (return_value != NULL)
		g_value_set_boolean(return_value, TRUE); /* handled */
}

void
joind_dbus_call_connect(gpointer skeleton, const gchar *signal, gpointer target,
                        JoindDBusCallFunc func, gpointer data)
{
	GClosure *closure = g_closure_new_simple(sizeof(CallClosure), NULL);
	CallClosure *cc = (CallClosure *)closure;

	cc->target = target;
	cc->func = func;
	cc->data = data;
	g_closure_set_marshal(closure, call_closure_marshal);
	g_object_watch_closure(target, closure);
	g_signal_connect_closure(skeleton, signal, closure, FALSE);
}

GDBusMethodInvocation *
joind_dbus_call_get_invocation(JoindDBusCall *call)
{
	return call->invocation;
}

GCancellable *
joind_dbus_call_get_cancellable(JoindDBusCall *call)
{
	return call->cancellable;
}

void
joind_dbus_call_return(JoindDBusCall *call, GVariant *value)
{
	g_autoptr(GDBusInterfaceSkeleton) iface = g_weak_ref_get(&call->iface);

	if (iface != NULL)
		g_dbus_interface_skeleton_flush(iface);
	g_dbus_method_invocation_return_value(call->invocation, value);
	call_unref(call);
}

void
joind_dbus_call_return_error(JoindDBusCall *call, const GError *error)
{
	if (call->target == NULL)
		call_reply_gone(call);
	else
		joind_dbus_return_gerror(call->invocation, error);
	call_unref(call);
}

void
joind_dbus_call_return_new_error(JoindDBusCall *call, JoindErrorCode code, const gchar *format, ...)
{
	g_autoptr(GError) error = NULL;
	va_list args;

	va_start(args, format);
	error = g_error_new_valist(JOIND_ERROR, code, format, args);
	va_end(args);
	joind_dbus_call_return_error(call, error);
}

void
joind_dbus_call_return_result(JoindDBusCall *call, gboolean ok, const GError *error)
{
	if (ok)
		joind_dbus_call_return(call, NULL);
	else
		joind_dbus_call_return_error(call, error);
}
