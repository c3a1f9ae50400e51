/* joind-auth.c - authorising D-Bus callers. */
#include "joind-auth.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "joind-error.h"

#define JOIND_AUTH_GROUP "netdev"

typedef struct {
	GDBusMethodInvocation *invocation;
	JoindAuthFunc func;
	gpointer user_data;
	GDestroyNotify destroy;
} AuthRequest;

static void
auth_request_free(AuthRequest *req)
{
	if (req->destroy != NULL)
		req->destroy(req->user_data);
	g_object_unref(req->invocation);
	g_free(req);
}

static gboolean
uid_in_group(guint32 uid, const gchar *group_name)
{
	/* The reentrant lookups: GIO and GDBus run threads of their own, and
	 * the plain ones share static buffers. An entry larger than the
	 * buffer fails the lookup, which denies. */
	gchar pw_buf[4096], gr_buf[16384];
	struct passwd pw_entry, *pw = NULL;
	struct group gr_entry, *gr = NULL;
	gid_t groups[256];
	int n = G_N_ELEMENTS(groups);

	if (getpwuid_r(uid, &pw_entry, pw_buf, sizeof(pw_buf), &pw) != 0 || pw == NULL)
		return FALSE;
	if (getgrnam_r(group_name, &gr_entry, gr_buf, sizeof(gr_buf), &gr) != 0 || gr == NULL)
		return FALSE;
	if (getgrouplist(pw->pw_name, pw->pw_gid, groups, &n) < 0)
		return FALSE;
	for (int i = 0; i < n; i++) {
		if (groups[i] == gr->gr_gid)
			return TRUE;
	}
	return FALSE;
}

static gboolean
auth_uid_allowed(guint32 uid)
{
	return uid == 0 || uid == (guint32)geteuid() || uid_in_group(uid, JOIND_AUTH_GROUP);
}

static void
auth_got_uid(GObject *source, GAsyncResult *result, gpointer user_data)
{
	AuthRequest *req = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	guint32 uid;

	if (reply == NULL) {
		g_dbus_method_invocation_return_error(
		        req->invocation, JOIND_ERROR, JOIND_ERROR_PERMISSION_DENIED,
		        "Could not identify the caller: %s", error->message);
		auth_request_free(req);
		return;
	}
	g_variant_get(reply, "(u)", &uid);
	if (!auth_uid_allowed(uid)) {
		g_info("denied %s.%s to uid %u",
		       g_dbus_method_invocation_get_interface_name(req->invocation),
		       g_dbus_method_invocation_get_method_name(req->invocation), uid);
		g_dbus_method_invocation_return_error(
		        req->invocation, JOIND_ERROR, JOIND_ERROR_PERMISSION_DENIED,
		        "Only root and members of group “%s” may do this.", JOIND_AUTH_GROUP);
		auth_request_free(req);
		return;
	}
	req->func(req->invocation, req->user_data);
	auth_request_free(req);
}

void
joind_auth_check(GDBusMethodInvocation *invocation, JoindAuthFunc func, gpointer user_data,
                 GDestroyNotify destroy)
{
	AuthRequest *req = g_new0(AuthRequest, 1);
	GDBusConnection *bus = g_dbus_method_invocation_get_connection(invocation);

	req->invocation = g_object_ref(invocation);
	req->func = func;
	req->user_data = user_data;
	req->destroy = destroy;
	g_dbus_connection_call(
	        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
	        "GetConnectionUnixUser",
	        g_variant_new("(s)", g_dbus_method_invocation_get_sender(invocation)),
	        G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, auth_got_uid, req);
}
