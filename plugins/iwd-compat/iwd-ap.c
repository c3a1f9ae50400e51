/* iwd-ap.c - iwd's AccessPoint interface (see iwd-ap.h). */
#include "iwd-ap.h"

#include "iwd-introspection.h"
#include "iwd-names.h"

struct _IwdAp {
	GDBusObjectSkeleton *object;
	JoindAccessPoint *access_point;
	IwdIface *iface;
	gulong notify_id;
};

static void
ap_run(JoindCall *call, gpointer target, JoindCallOp op)
{
	joind_call_run(call, iwd_iface_get_model(target), op);
}

static void
ap_start(JoindCall *call, gpointer target, gpointer data)
{
	ap_run(call, target, JOIND_CALL_OP_AP_START_WPA2);
}

static void
ap_start_profile(JoindCall *call, gpointer target, gpointer data)
{
	ap_run(call, target, JOIND_CALL_OP_AP_START_PROFILE);
}

static void
ap_stop(JoindCall *call, gpointer target, gpointer data)
{
	ap_run(call, target, JOIND_CALL_OP_AP_STOP);
}

static const IwdMethod ap_methods[] = {
        {"Start", ap_start},
        {"StartProfile", ap_start_profile},
        {"Stop", ap_stop},
        {NULL, NULL},
};

/* As iwd: the facts of a started BSS are there only while it is. */
static void
ap_sync(IwdAp *self)
{
	JoindAccessPoint *ap = self->access_point;
	gboolean started = joind_access_point_get_started(ap);
	static const gchar *const ccmp[] = {"CCMP-128", NULL};

	iwd_iface_set(self->iface, "Started", g_variant_new_boolean(started));
	iwd_iface_set(self->iface, "Name",
	              started ? g_variant_new_string(joind_access_point_get_name(ap)) : NULL);
	iwd_iface_set(self->iface, "Scanning", g_variant_new_boolean(FALSE));
	iwd_iface_set(self->iface, "Frequency",
	              started ? g_variant_new_uint32(joind_access_point_get_frequency(ap)) : NULL);
	iwd_iface_set(self->iface, "PairwiseCiphers",
	              started ? g_variant_new_strv(ccmp, -1) : NULL);
	iwd_iface_set(self->iface, "GroupCipher", started ? g_variant_new_string(ccmp[0]) : NULL);
}

static void
ap_changed(JoindAccessPoint *access_point, GParamSpec *pspec, gpointer user_data)
{
	ap_sync(user_data);
}

IwdAp *
iwd_ap_new(GDBusObjectSkeleton *object, JoindAccessPoint *access_point)
{
	IwdAp *self = g_new0(IwdAp, 1);

	self->object = object;
	self->access_point = g_object_ref(access_point);
	self->iface = iwd_iface_new(iwd_introspection_lookup(IWD_IFACE_AP), ap_methods, NULL,
	                            access_point);
	ap_sync(self);
	self->notify_id = g_signal_connect(access_point, "notify", G_CALLBACK(ap_changed), self);
	g_dbus_object_skeleton_add_interface(object, G_DBUS_INTERFACE_SKELETON(self->iface));
	return self;
}

JoindAccessPoint *
iwd_ap_get_model(IwdAp *self)
{
	return self->access_point;
}

void
iwd_ap_free(IwdAp *self)
{
	if (self == NULL)
		return;
	g_clear_signal_handler(&self->notify_id, self->access_point);
	g_dbus_object_skeleton_remove_interface(self->object,
	                                        G_DBUS_INTERFACE_SKELETON(self->iface));
	g_object_unref(self->iface);
	g_object_unref(self->access_point);
	g_free(self);
}
