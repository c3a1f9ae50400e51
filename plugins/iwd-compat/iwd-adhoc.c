/* iwd-adhoc.c - iwd's AdHoc interface (see iwd-adhoc.h). */
#include "iwd-adhoc.h"

#include "iwd-introspection.h"
#include "iwd-names.h"

struct _IwdAdHoc {
	GDBusObjectSkeleton *object;
	JoindAdHoc *adhoc;
	IwdIface *iface;
	gulong notify_id;
};

static void
adhoc_start(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_ADHOC_START);
}

static void
adhoc_start_open(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_ADHOC_START_OPEN);
}

static void
adhoc_stop(JoindCall *call, gpointer target, gpointer data)
{
	joind_call_run(call, iwd_iface_get_model(target), JOIND_CALL_OP_ADHOC_STOP);
}

static const IwdMethod adhoc_methods[] = {
        {"Start", adhoc_start},
        {"StartOpen", adhoc_start_open},
        {"Stop", adhoc_stop},
        {NULL, NULL},
};

static void
adhoc_sync(IwdAdHoc *self)
{
	iwd_iface_set(self->iface, "Started",
	              g_variant_new_boolean(joind_adhoc_get_started(self->adhoc)));
	iwd_iface_set(self->iface, "ConnectedPeers",
	              g_variant_new_strv(joind_adhoc_get_peers(self->adhoc), -1));
}

static void
adhoc_changed(JoindAdHoc *adhoc, GParamSpec *pspec, gpointer user_data)
{
	adhoc_sync(user_data);
}

IwdAdHoc *
iwd_adhoc_new(GDBusObjectSkeleton *object, JoindAdHoc *adhoc)
{
	IwdAdHoc *self = g_new0(IwdAdHoc, 1);

	self->object = object;
	self->adhoc = g_object_ref(adhoc);
	self->iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_ADHOC), adhoc_methods, NULL,
	                            adhoc);
	adhoc_sync(self);
	self->notify_id = g_signal_connect(adhoc, "notify", G_CALLBACK(adhoc_changed), self);
	g_dbus_object_skeleton_add_interface(object, G_DBUS_INTERFACE_SKELETON(self->iface));
	return self;
}

JoindAdHoc *
iwd_adhoc_get_model(IwdAdHoc *self)
{
	return self->adhoc;
}

void
iwd_adhoc_free(IwdAdHoc *self)
{
	if (self == NULL)
		return;
	g_clear_signal_handler(&self->notify_id, self->adhoc);
	g_dbus_object_skeleton_remove_interface(self->object,
	                                        G_DBUS_INTERFACE_SKELETON(self->iface));
	g_object_unref(self->iface);
	g_object_unref(self->adhoc);
	g_free(self);
}
