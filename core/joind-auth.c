/* joind-auth.c - authorising D-Bus callers: which polkit action each
 * method and property write needs, and the rule used when polkit is not
 * installed. */
#include "joind-auth.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "joind-caller.h"
#include "joind-error.h"
#include "joind-log-private.h"
#include "joind-polkit.h"

#define JOIND_AUTH_GROUP "netdev"
#define PROPERTIES_IFACE "org.freedesktop.DBus.Properties"
#define SOURCE_PROPERTY  "source"
#define SOURCE_ADMIN     "admin"

/* Every method and writable property of data/net.joind.xml, but for
 * Agent1 (which clients implement); the plugins' own interfaces are
 * covered by the tables they declare (declared_rules). A member no rule
 * covers is refused. */
static const JoindAuthRule core_rules[] = {
        {"net.joind.Daemon1", "GetDiagnostics", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.AgentManager1", "RegisterAgent", JOIND_AUTH_ACTION_AGENT, NULL},
        {"net.joind.AgentManager1", "UnregisterAgent", JOIND_AUTH_ACTION_AGENT, NULL},
        {"net.joind.Station1", "Scan", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.Station1", "Disconnect", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.Station1", "ConnectHiddenNetwork", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.Station1", "GetOrderedNetworks", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.Station1", "Roam", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.Network1", "Connect", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.joind.Port8021x1", "Reauthenticate", JOIND_AUTH_ACTION_WIRED, NULL},
        {"net.joind.Port8021x1", "Logoff", JOIND_AUTH_ACTION_WIRED, NULL},
        {"net.joind.KnownNetwork1", "AutoConnect", JOIND_AUTH_ACTION_KNOWN,
         JOIND_AUTH_ACTION_PROFILE},
        {"net.joind.KnownNetwork1", "Forget", JOIND_AUTH_ACTION_KNOWN, JOIND_AUTH_ACTION_PROFILE},
        {"net.joind.ProfileManager1", NULL, JOIND_AUTH_ACTION_PROFILE, NULL},
        {"net.joind.Device1", "Mode", JOIND_AUTH_ACTION_HOTSPOT, NULL},
        {"net.joind.AccessPoint1", NULL, JOIND_AUTH_ACTION_HOTSPOT, NULL},
        {"net.joind.AdHoc1", NULL, JOIND_AUTH_ACTION_HOTSPOT, NULL},
        {NULL, NULL, NULL, NULL},
};

/* The tables plugins declared (static in their modules, which stay
 * loaded); the gate is one per process, as the buses are. */
static GPtrArray *declared_rules;

static gboolean auth_uid_allowed(guint32 uid, const gchar *action);
static JoindAuthPolicy auth_policy = auth_uid_allowed;

typedef struct {
	GDBusMethodInvocation *invocation;
	const gchar *action; /* static: from a rule table */
	gint64 uid;          /* -1 until the fallback rule looked it up */
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

static const JoindAuthRule *
rules_find(const JoindAuthRule *rules, const gchar *interface, const gchar *member)
{
	for (const JoindAuthRule *rule = rules; rule->interface != NULL; rule++) {
		if (g_strcmp0(rule->interface, interface) == 0 &&
		    (rule->member == NULL || g_strcmp0(rule->member, member) == 0))
			return rule;
	}
	return NULL;
}

/* The table that covers interface, if any. */
static const JoindAuthRule *
rules_for_interface(const gchar *interface)
{
	if (g_str_has_prefix(interface, "net.joind."))
		return core_rules;
	for (guint i = 0; declared_rules != NULL && i < declared_rules->len; i++) {
		const JoindAuthRule *rules = g_ptr_array_index(declared_rules, i);

		for (const JoindAuthRule *rule = rules; rule->interface != NULL; rule++) {
			if (g_str_equal(rule->interface, interface))
				return rules;
		}
	}
	return NULL;
}

gboolean
joind_auth_declare_rules(const JoindAuthRule *rules, GError **error)
{
	if (declared_rules != NULL && g_ptr_array_find(declared_rules, rules, NULL))
		return TRUE;
	for (const JoindAuthRule *rule = rules; rule->interface != NULL; rule++) {
		const JoindAuthRule *owner = rules_for_interface(rule->interface);

		if (rule->action == NULL || g_str_has_prefix(rule->interface, "net.joind."))
			return joind_set_error(
			        error, JOIND_ERROR_INVALID_ARGS,
			        "%s: no action, or a net.joind interface (the core's)",
			        rule->interface);
		if (owner != NULL && owner != rules)
			return joind_set_error(
			        error, JOIND_ERROR_BUSY,
			        "%s: its calls are authorised by rules declared already",
			        rule->interface);
	}
	if (declared_rules == NULL)
		declared_rules = g_ptr_array_new();
	g_ptr_array_add(declared_rules, (gpointer)rules);
	return TRUE;
}

const gchar *
joind_auth_action_lookup(const gchar *interface, const gchar *member, gboolean admin_provisioned)
{
	const JoindAuthRule *rules = interface != NULL ? rules_for_interface(interface) : NULL;
	const JoindAuthRule *rule = rules != NULL ? rules_find(rules, interface, member) : NULL;

	if (rule == NULL)
		return NULL;
	if (admin_provisioned && rule->admin_action != NULL)
		return rule->admin_action;
	return rule->action;
}

static gboolean
auth_admin_provisioned(GDBusInterfaceSkeleton *iface)
{
	GParamSpec *pspec =
	        g_object_class_find_property(G_OBJECT_GET_CLASS(iface), SOURCE_PROPERTY);
	g_autofree gchar *source = NULL;

	if (pspec == NULL || pspec->value_type != G_TYPE_STRING)
		return FALSE;
	g_object_get(iface, SOURCE_PROPERTY, &source, NULL);
	return g_strcmp0(source, SOURCE_ADMIN) == 0;
}

/* For a property write, the interface and member are the property's. */
static void
auth_member(GDBusMethodInvocation *invocation, const gchar **interface, const gchar **member)
{
	*interface = g_dbus_method_invocation_get_interface_name(invocation);
	*member = g_dbus_method_invocation_get_method_name(invocation);
	if (g_strcmp0(*interface, PROPERTIES_IFACE) == 0 && g_strcmp0(*member, "Set") == 0)
		g_variant_get(g_dbus_method_invocation_get_parameters(invocation), "(&s&sv)",
		              interface, member, NULL);
}

static void auth_deny(AuthRequest *req, const gchar *why, const gchar *format, ...)
        G_GNUC_PRINTF(3, 4);

/* Every decision is logged with its fields (MESSAGE_ID of an
 * authorisation); a refusal, and any grant that changes what joind does,
 * at info, so that an administrator can audit them; connecting and
 * scanning, which desktops do all day, at debug. */
static void
auth_log(AuthRequest *req, gboolean allowed, const gchar *how)
{
	const gchar *interface, *member;
	g_autofree gchar *called = NULL;
	GLogLevelFlags level = G_LOG_LEVEL_INFO;

	auth_member(req->invocation, &interface, &member);
	called = g_strconcat(interface, ".", member, NULL);
	if (allowed && g_strcmp0(req->action, JOIND_AUTH_ACTION_CONNECT) == 0)
		level = G_LOG_LEVEL_DEBUG;
	joind_log_authorization(
	        level, &(JoindLogAuthorization){
	                       .member = called,
	                       .action = req->action,
	                       .caller = g_dbus_method_invocation_get_sender(req->invocation),
	                       .uid = req->uid,
	                       .allowed = allowed,
	                       .how = how,
	               });
}

static void auth_deny(AuthRequest *req, const gchar *why, const gchar *format, ...)
        G_GNUC_PRINTF(3, 4);

/* Answers PermissionDenied with the message format says, and logs why. */
static void
auth_deny(AuthRequest *req, const gchar *why, const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	auth_log(req, FALSE, why);
	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_dbus_method_invocation_return_error_literal(req->invocation, JOIND_ERROR,
	                                              JOIND_ERROR_PERMISSION_DENIED, message);
	auth_request_free(req);
}

static void
auth_allow(AuthRequest *req, const gchar *how)
{
	auth_log(req, TRUE, how);
	req->func(req->invocation, req->user_data);
	auth_request_free(req);
}

/* ---- without polkit -------------------------------------------------------- */

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

/* Without polkit, group netdev connects, scans, answers prompts and edits
 * the networks its members saved; managing profiles makes one the
 * administrator of every system profile, and running an access point
 * takes the radio from every user and opens a network on the machine,
 * so those stay root's (and the daemon's own user's, as on a session
 * bus). */
static gboolean
auth_action_is_roots(const gchar *action)
{
	return g_strcmp0(action, JOIND_AUTH_ACTION_PROFILE) == 0 ||
	       g_strcmp0(action, JOIND_AUTH_ACTION_HOTSPOT) == 0;
}

static gboolean
auth_uid_allowed(guint32 uid, const gchar *action)
{
	if (uid == 0 || uid == (guint32)geteuid())
		return TRUE;
	if (auth_action_is_roots(action))
		return FALSE;
	return uid_in_group(uid, JOIND_AUTH_GROUP);
}

void
joind_auth_set_policy(JoindAuthPolicy policy)
{
	auth_policy = policy != NULL ? policy : auth_uid_allowed;
}

static void
auth_deny_without_polkit(AuthRequest *req)
{
	if (g_strcmp0(req->action, JOIND_AUTH_ACTION_PROFILE) == 0)
		auth_deny(req, "without polkit: profile management is root's",
		          "Without polkit only root manages profiles (%s).", req->action);
	else if (g_strcmp0(req->action, JOIND_AUTH_ACTION_HOTSPOT) == 0)
		auth_deny(req, "without polkit: access points are root's",
		          "Without polkit only root runs access points (%s).", req->action);
	else
		auth_deny(req, "without polkit: neither root nor in group " JOIND_AUTH_GROUP,
		          "Only root and members of group “%s” may do this.", JOIND_AUTH_GROUP);
}

/* The groups are read at each call: an administrator may change them at
 * any time, while a client's uid stays what it was. */
static void
auth_got_uid(GObject *source, GAsyncResult *result, gpointer user_data)
{
	AuthRequest *req = user_data;
	g_autoptr(GError) error = NULL;
	guint32 uid;

	if (!joind_caller_uid_finish(G_DBUS_CONNECTION(source), result, &uid, &error)) {
		auth_deny(req, error->message, "Could not identify the caller: %s", error->message);
		return;
	}
	req->uid = uid;
	if (!auth_policy(uid, req->action)) {
		auth_deny_without_polkit(req);
		return;
	}
	auth_allow(req, "without polkit: root, joind's own user or group " JOIND_AUTH_GROUP);
}

static void
auth_check_uid(AuthRequest *req)
{
	joind_caller_uid(g_dbus_method_invocation_get_connection(req->invocation),
	                 g_dbus_method_invocation_get_sender(req->invocation), auth_got_uid, req);
}

/* ---- with polkit ----------------------------------------------------------- */

static void
auth_polkit_answered(GObject *source, GAsyncResult *result, gpointer user_data)
{
	AuthRequest *req = user_data;
	g_autoptr(GError) error = NULL;

	switch (joind_polkit_check_finish(result, &error)) {
	case JOIND_POLKIT_ABSENT:
		auth_check_uid(req);
		break;
	case JOIND_POLKIT_AUTHORIZED:
		auth_allow(req, "polkit");
		break;
	case JOIND_POLKIT_NOT_AUTHORIZED:
		auth_deny(req, "polkit", "Not authorised by polkit for %s.", req->action);
		break;
	case JOIND_POLKIT_CHALLENGE:
		auth_deny(req, "polkit: authentication needed, which the call did not allow",
		          "%s needs authentication, which this call did not allow (or no polkit "
		          "agent could ask for it).",
		          req->action);
		break;
	default:
		auth_deny(req, error->message, "Could not ask polkit about %s: %s", req->action,
		          error->message);
		break;
	}
}

void
joind_auth_check(GDBusInterfaceSkeleton *iface, GDBusMethodInvocation *invocation,
                 JoindAuthFunc func, gpointer user_data, GDestroyNotify destroy)
{
	AuthRequest *req = g_new0(AuthRequest, 1);
	GDBusMessage *message = g_dbus_method_invocation_get_message(invocation);
	const gchar *interface, *member;

	req->invocation = g_object_ref(invocation);
	req->uid = -1;
	req->func = func;
	req->user_data = user_data;
	req->destroy = destroy;
	auth_member(invocation, &interface, &member);
	req->action = joind_auth_action_lookup(interface, member, auth_admin_provisioned(iface));
	if (req->action == NULL) {
		auth_deny(req, "no polkit action covers it", "No permission covers %s.%s.",
		          interface, member);
		return;
	}
	joind_polkit_check_async(g_dbus_method_invocation_get_connection(invocation),
	                         g_dbus_method_invocation_get_sender(invocation), req->action,
	                         (g_dbus_message_get_flags(message) &
	                          G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION) != 0,
	                         auth_polkit_answered, req);
}
