/* joind-auth-rule.h - which polkit action a call on a plugin's own D-Bus
 * interfaces needs (ABI 3.0).
 *
 * Every method call and property write on joind's buses passes one gate
 * (the core's), which asks polkit for the action a rule names and refuses
 * any member no rule covers. The core's rules cover net.joind.*; a plugin
 * that exports interfaces of its own (the iwd front end's
 * net.connman.iwd.*) declares theirs before it exports them. */
#pragma once

#include <glib.h>

#include "joind-export.h"

G_BEGIN_DECLS

typedef struct _JoindCore JoindCore;

/* The polkit actions of data/net.joind.policy. */
#define JOIND_AUTH_ACTION_CONNECT "net.joind.network.connect"
#define JOIND_AUTH_ACTION_KNOWN   "net.joind.known.modify"
#define JOIND_AUTH_ACTION_PROFILE "net.joind.profile.manage"
#define JOIND_AUTH_ACTION_WIRED   "net.joind.wired.control"
#define JOIND_AUTH_ACTION_AGENT   "net.joind.agent.register"
/* Running the interface as an access point (ABI 3.1). */
#define JOIND_AUTH_ACTION_HOTSPOT "net.joind.hotspot"

typedef struct {
	const gchar *interface;
	const gchar *member; /* a method or a writable property; NULL: every one */
	const gchar *action;
	/* Needed instead when an administrator provisioned the object (its
	 * Source property says "admin"), or NULL: a user may change what they
	 * saved, not what was set up for them. */
	const gchar *admin_action;
} JoindAuthRule;

/* Declares the rules of a plugin's interfaces: rules is a table ended by
 * an entry whose interface is NULL, valid as long as the process runs (a
 * static table of the module; modules stay loaded). Declaring the same
 * table again does nothing. JOIND_ERROR_BUSY when another table already
 * covers one of its interfaces, JOIND_ERROR_INVALID_ARGS for a net.joind
 * interface (the core's) or a rule without an action. */
JOIND_EXPORT gboolean joind_core_declare_auth_rules(JoindCore *core, const JoindAuthRule *rules,
                                                    GError **error);

G_END_DECLS
