/* joind-observer.h - what a front end needs of the core (ABI 2.0).
 *
 * A front end is a plugin that exports the model under another D-Bus API
 * (iwd's net.connman.iwd for NetworkManager, ConnMan and iwctl). It owns
 * no device: it watches the devices, stations, networks and profiles the
 * provider plugins publish (their GObject properties signal every change
 * through "notify"; stations signal "network-added" and "network-removed";
 * the core signals "profile-changed") and calls into them through the
 * core's one authorised call path below, so that a second API is never a
 * way around the rules of net.joind: the same gate decides who may call,
 * operations learn the caller (joind_requester_from_cancellable()) and a
 * call whose object goes away is answered once.
 */
#pragma once

#include <gio/gio.h>

#include "joind-core.h"
#include "joind-export.h"

G_BEGIN_DECLS

/* ---- watching the model ---------------------------------------------------- */

/* Every device the core manages (element type JoindDevice, transfer
 * container). The core signals "device-added" and "device-removed"
 * (JoindDevice *) on itself after a device joined and before it leaves. */
JOIND_EXPORT GPtrArray *joind_core_list_devices(JoindCore *self);
/* The state directory (where profiles live), for clients that write
 * profiles themselves. */
JOIND_EXPORT const gchar *joind_core_get_state_dir(JoindCore *self);
/* Whether an administrator provisioned the profile (net.joind's Source
 * "admin") rather than a user saving it through joind: the gate then asks
 * for the stronger action before it is changed or forgotten. */
JOIND_EXPORT gboolean joind_core_profile_is_admin(JoindCore *self, JoindProfile *profile);
/* The bus the core's own API is on; a front end opens a connection of its
 * own to the same bus to own its name. NULL before the core started. */
JOIND_EXPORT GDBusConnection *joind_core_get_bus(JoindCore *self);

/* ---- the authorised call path --------------------------------------------- */

typedef struct _JoindDBusCall JoindCall;

/* Runs once the caller is allowed, with target alive; it owns call from then
 * on and answers it exactly once with joind_call_return*(). */
typedef void (*JoindCallFunc)(JoindCall *call, gpointer target, gpointer data);

/* Takes invocation (a method call or a Properties.Set that arrived on
 * iface) through the gate for target (a GObject of the model, or the front
 * end's own); data is handed to func and freed with destroy at the end. */
JOIND_EXPORT void joind_call_start(GDBusInterfaceSkeleton *iface, GDBusMethodInvocation *invocation,
                                   gpointer target, JoindCallFunc func, gpointer data,
                                   GDestroyNotify destroy);
JOIND_EXPORT GDBusMethodInvocation *joind_call_get_invocation(JoindCall *call);
/* Success with value (a tuple, floating taken; NULL for none), after the
 * interface's pending property changes went out. */
JOIND_EXPORT void joind_call_return(JoindCall *call, GVariant *value);
/* Failure, passed through the error map of the connection the call came
 * in on (below). */
JOIND_EXPORT void joind_call_return_error(JoindCall *call, const GError *error);
JOIND_EXPORT void joind_call_return_result(JoindCall *call, gboolean ok, const GError *error);

/* The model's operations a call can run: Station's Scan, Disconnect and
 * ConnectHiddenNetwork (its parameters "(s)", the SSID) on a JoindStation,
 * Network's Connect on a JoindNetwork; powering a JoindDevice on or off
 * (its link set up or down, which its plugin follows as it follows
 * `ip link`: off disconnects and stops scans, on scans and autoconnects
 * again), answered once the device's "powered" says so. ABI 3.1: a
 * Properties.Set of a device's Mode (parameters "(ssv)", the value one
 * of joind_device_mode_to_string()'s names) on a JoindDevice, answered
 * once it runs in that mode; an access point's Start ("(ss)": SSID and
 * passphrase; the strongest security every client can use, or with
 * _WPA2 WPA2-Personal alone, as iwd's), StartProfile ("(s)") and Stop on
 * a JoindAccessPoint. ABI 3.2: an ad-hoc network's Start ("(ss)": SSID
 * and passphrase), StartOpen ("(s)") and Stop on a JoindAdHoc. */
typedef enum {
	JOIND_CALL_OP_SCAN,
	JOIND_CALL_OP_DISCONNECT,
	JOIND_CALL_OP_CONNECT_HIDDEN,
	JOIND_CALL_OP_CONNECT,
	JOIND_CALL_OP_POWER_ON,
	JOIND_CALL_OP_POWER_OFF,
	JOIND_CALL_OP_SET_MODE,
	JOIND_CALL_OP_AP_START,
	JOIND_CALL_OP_AP_START_WPA2,
	JOIND_CALL_OP_AP_START_PROFILE,
	JOIND_CALL_OP_AP_STOP,
	JOIND_CALL_OP_ADHOC_START,
	JOIND_CALL_OP_ADHOC_START_OPEN,
	JOIND_CALL_OP_ADHOC_STOP,
} JoindCallOp;

/* Runs op on model for call, with the call's cancellable (so a secret is
 * asked of the caller's own agent), and answers call once the model has:
 * Connect only when connected or failed. The core's own net.joind export
 * takes the same way. */
JOIND_EXPORT void joind_call_run(JoindCall *call, gpointer model, JoindCallOp op);

/* How a front end names failures: every error answered on connection
 * (by the call path, the agent registry or a target that went away) goes
 * through map, which returns a new GError of a domain registered with
 * g_dbus_error_register_error_domain(); it may look at the invocation
 * (the method) to choose. NULL removes the map. */
typedef GError *(*JoindErrorMapFunc)(GDBusMethodInvocation *invocation, const GError *error);
JOIND_EXPORT void joind_core_set_error_map(JoindCore *self, GDBusConnection *connection,
                                           JoindErrorMapFunc map);

/* ---- agents on a front end's API ------------------------------------------ */

/* Turns a path of the core's API (a network's or a device's object) into
 * the front end's, or NULL when it has none; free with g_free(). */
typedef gchar *(*JoindPathMapFunc)(const gchar *path, gpointer user_data);

/* Handles a front end's RegisterAgent(o path) call (its parameters are
 * "(o)"), answering it: the caller's agent joins the same registry as
 * net.joind.AgentManager1's, so requests made for that caller reach it
 * (joind-agent.h). It is called on interface, whose methods mirror
 * net.joind.Agent1 (RequestPassphrase, ..., Cancel, Release), over the
 * connection the call came in on, with object paths passed through map. */
JOIND_EXPORT void joind_core_register_agent(JoindCore *self, JoindCall *call,
                                            const gchar *interface, JoindPathMapFunc map,
                                            gpointer map_data);
/* Handles UnregisterAgent(o path), answering it. */
JOIND_EXPORT void joind_core_unregister_agent(JoindCore *self, JoindCall *call);

G_END_DECLS
