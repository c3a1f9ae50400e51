/* joind-polkit.c - polkit's presence on the bus, and its answers. */
#include "joind-polkit.h"
#include "joind-log.h"

#define POLKIT_NAME  "org.freedesktop.PolicyKit1"
#define POLKIT_PATH  "/org/freedesktop/PolicyKit1/Authority"
#define POLKIT_IFACE "org.freedesktop.PolicyKit1.Authority"
#define DBUS_NAME    "org.freedesktop.DBus"
#define DBUS_PATH    "/org/freedesktop/DBus"

/* CheckAuthorization's flag for "the subject may be asked to authenticate". */
#define POLKIT_ALLOW_USER_INTERACTION 1u

/* What is known of polkit on the bus. */
typedef enum {
	POLKIT_UNKNOWN, /* not looked yet, or it left the bus */
	POLKIT_PROBING, /* asking the bus whether it is there */
	POLKIT_PRESENT, /* running or activatable: ask it */
	POLKIT_ABSENT,  /* neither: the callers' fallback applies */
} PolkitState;

/* One per process: polkit is asked on one connection, whichever front end
 * a call came in on (the core's and the iwd front end's are two connections
 * to one bus, and a unique name is the bus's, not a connection's). Another
 * connection takes its place only once it has closed (tests run one
 * private bus after another). */
static struct {
	GWeakRef bus;
	guint owner_watch; /* NameOwnerChanged for POLKIT_NAME on bus */
	PolkitState state;
	guint probe;    /* the probe under way: a reply to an older one is stale */
	GQueue waiting; /* GTasks asked while PROBING */
} polkit;

typedef struct {
	gchar *sender;
	gchar *action;
	gboolean interactive;
	gboolean retried; /* asked again once after polkit left the bus */
} PolkitQuery;

static void polkit_ask(GTask *task);
static void polkit_route(GTask *task);

static void
polkit_query_free(gpointer data)
{
	PolkitQuery *q = data;

	g_free(q->sender);
	g_free(q->action);
	g_free(q);
}

static const gchar *
polkit_state_to_string(PolkitState state)
{
	switch (state) {
	case POLKIT_UNKNOWN:
		return "unknown";
	case POLKIT_PROBING:
		return "probing";
	case POLKIT_PRESENT:
		return "present";
	case POLKIT_ABSENT:
		return "absent";
	}
	return "?";
}

/* Answers the checks that waited for the probe. */
static void
polkit_serve_waiting(void)
{
	GTask *task;

	while ((task = g_queue_pop_head(&polkit.waiting)) != NULL) {
		if (polkit.state == POLKIT_ABSENT)
			g_task_return_int(task, JOIND_POLKIT_ABSENT);
		else
			polkit_ask(task);
		g_object_unref(task);
	}
}

static void
polkit_enter(PolkitState state, const gchar *reason)
{
	const JoindLogSubject subject = {.machine = "polkit"};

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, JOIND_LOG_STATE_CHANGE, &subject,
	                       polkit_state_to_string(polkit.state), polkit_state_to_string(state),
	                       reason);
	polkit.state = state;
	if (state == POLKIT_ABSENT)
		g_message("polkit is not installed (%s is neither on the bus nor activatable): "
		          "joind decides alone who may use its D-Bus API",
		          POLKIT_NAME);
	if (state == POLKIT_PRESENT || state == POLKIT_ABSENT)
		polkit_serve_waiting();
}

static void
polkit_owner_changed(GDBusConnection *bus, const gchar *sender_name, const gchar *object_path,
                     const gchar *interface_name, const gchar *signal_name, GVariant *parameters,
                     gpointer user_data)
{
	const gchar *new_owner = NULL;

	g_variant_get(parameters, "(&s&s&s)", NULL, NULL, &new_owner);
	if (new_owner[0] != '\0' && polkit.state != POLKIT_PRESENT)
		polkit_enter(POLKIT_PRESENT, "it appeared on the bus");
	else if (new_owner[0] == '\0' && polkit.state == POLKIT_PRESENT)
		/* Restarting, or uninstalled: the next check looks again. */
		polkit_enter(POLKIT_UNKNOWN, "it left the bus");
}

/* polkit is asked on the connection it was asked on before while that is
 * open, else on offered. What waits for a probe is asked again on the new
 * one, never refused for the change. */
static void
polkit_use_bus(GDBusConnection *offered)
{
	g_autoptr(GDBusConnection) bus = g_weak_ref_get(&polkit.bus);

	if (bus != NULL && !g_dbus_connection_is_closed(bus))
		return;
	if (bus != NULL)
		g_dbus_connection_signal_unsubscribe(bus, polkit.owner_watch);
	g_weak_ref_set(&polkit.bus, offered);
	polkit.owner_watch = g_dbus_connection_signal_subscribe(
	        offered, DBUS_NAME, DBUS_NAME, "NameOwnerChanged", DBUS_PATH, POLKIT_NAME,
	        G_DBUS_SIGNAL_FLAGS_NONE, polkit_owner_changed, NULL, NULL);
	if (polkit.state != POLKIT_UNKNOWN)
		polkit_enter(POLKIT_UNKNOWN, "the connection it was asked on closed");
}

/* ---- is it there? --------------------------------------------------------- */

static void
polkit_probe_failed(const GError *error)
{
	GTask *task;

	g_warning("Could not find out whether polkit is installed: %s", error->message);
	polkit_enter(POLKIT_UNKNOWN, "the bus did not answer");
	while ((task = g_queue_pop_head(&polkit.waiting)) != NULL) {
		g_task_return_error(task, g_error_copy(error));
		g_object_unref(task);
	}
}

static void
polkit_got_owner(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	gboolean owned = FALSE;

	if (polkit.state != POLKIT_PROBING || GPOINTER_TO_UINT(user_data) != polkit.probe)
		return; /* NameOwnerChanged answered first, or a probe on a closed connection */
	if (reply == NULL) {
		polkit_probe_failed(error);
		return;
	}
	g_variant_get(reply, "(b)", &owned);
	if (owned)
		polkit_enter(POLKIT_PRESENT, "running, not activatable");
	else
		polkit_enter(POLKIT_ABSENT, "neither running nor activatable");
}

/* Activatable is the common case (installed, not started yet), so it is
 * asked first; only when it is not is the running name looked for. */
static void
polkit_got_activatable(GObject *source, GAsyncResult *result, gpointer user_data)
{
	GDBusConnection *bus = G_DBUS_CONNECTION(source);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_finish(bus, result, &error);
	g_autofree const gchar **names = NULL;

	if (polkit.state != POLKIT_PROBING || GPOINTER_TO_UINT(user_data) != polkit.probe)
		return;
	if (reply == NULL) {
		polkit_probe_failed(error);
		return;
	}
	g_variant_get(reply, "(^a&s)", &names);
	if (g_strv_contains(names, POLKIT_NAME)) {
		polkit_enter(POLKIT_PRESENT, "activatable");
		return;
	}
	g_dbus_connection_call(bus, DBUS_NAME, DBUS_PATH, DBUS_NAME, "NameHasOwner",
	                       g_variant_new("(s)", POLKIT_NAME), G_VARIANT_TYPE("(b)"),
	                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, polkit_got_owner, user_data);
}

static void
polkit_probe(GDBusConnection *bus)
{
	polkit_enter(POLKIT_PROBING, "a caller to authorise");
	polkit.probe++;
	g_dbus_connection_call(bus, DBUS_NAME, DBUS_PATH, DBUS_NAME, "ListActivatableNames", NULL,
	                       G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL,
	                       polkit_got_activatable, GUINT_TO_POINTER(polkit.probe));
}

/* ---- the question ---------------------------------------------------------- */

static gboolean
polkit_gone(const GError *error)
{
	return g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	       g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER);
}

static void
polkit_answered(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	PolkitQuery *q = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	gboolean authorized = FALSE, challenge = FALSE;

	if (reply == NULL && polkit_gone(error) && !q->retried) {
		/* Uninstalled since it was found: look again, ask once more. */
		q->retried = TRUE;
		if (polkit.state == POLKIT_PRESENT)
			polkit_enter(POLKIT_UNKNOWN, "it could not be reached");
		polkit_route(task);
		return;
	}
	if (reply == NULL) {
		g_dbus_error_strip_remote_error(error);
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_variant_get(reply, "((bb@a{ss}))", &authorized, &challenge, NULL);
	g_task_return_int(task, authorized  ? JOIND_POLKIT_AUTHORIZED
	                        : challenge ? JOIND_POLKIT_CHALLENGE
	                                    : JOIND_POLKIT_NOT_AUTHORIZED);
}

static void
polkit_ask(GTask *task)
{
	PolkitQuery *q = g_task_get_task_data(task);
	g_autoptr(GDBusConnection) bus = g_weak_ref_get(&polkit.bus);
	GVariantBuilder subject;

	if (bus == NULL) {
		g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CLOSED,
		                        "The bus connection closed.");
		return;
	}
	g_variant_builder_init(&subject, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(&subject, "{sv}", "name", g_variant_new_string(q->sender));
	/* Activation starts polkitd if it is not running yet; a person
	 * authenticating may take a while. */
	g_dbus_connection_call(
	        bus, POLKIT_NAME, POLKIT_PATH, POLKIT_IFACE, "CheckAuthorization",
	        g_variant_new("((sa{sv})s@a{ss}us)", "system-bus-name", &subject, q->action,
	                      g_variant_new_array(G_VARIANT_TYPE("{ss}"), NULL, 0),
	                      q->interactive ? POLKIT_ALLOW_USER_INTERACTION : 0u, ""),
	        G_VARIANT_TYPE("((bba{ss}))"), G_DBUS_CALL_FLAGS_NONE,
	        q->interactive ? G_MAXINT : -1, NULL, polkit_answered, g_object_ref(task));
}

/* Answers task, asks polkit, or waits for the bus to say whether polkit is
 * there. */
static void
polkit_route(GTask *task)
{
	g_autoptr(GDBusConnection) bus = g_weak_ref_get(&polkit.bus);

	if (bus == NULL) {
		g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CLOSED,
		                        "The bus connection closed.");
		return;
	}
	switch (polkit.state) {
	case POLKIT_ABSENT:
		g_task_return_int(task, JOIND_POLKIT_ABSENT);
		break;
	case POLKIT_PRESENT:
		polkit_ask(task);
		break;
	case POLKIT_UNKNOWN:
		polkit_probe(bus);
		g_queue_push_tail(&polkit.waiting, g_object_ref(task));
		break;
	case POLKIT_PROBING:
		g_queue_push_tail(&polkit.waiting, g_object_ref(task));
		break;
	}
}

void
joind_polkit_check_async(GDBusConnection *bus, const gchar *sender, const gchar *action,
                         gboolean interactive, GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(NULL, NULL, callback, user_data);
	PolkitQuery *q = g_new0(PolkitQuery, 1);

	q->sender = g_strdup(sender);
	q->action = g_strdup(action);
	q->interactive = interactive;
	g_task_set_task_data(task, q, polkit_query_free);
	g_task_set_source_tag(task, joind_polkit_check_async);
	polkit_use_bus(bus);
	polkit_route(task);
}

JoindPolkitAnswer
joind_polkit_check_finish(GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, NULL), -1);
	return (JoindPolkitAnswer)g_task_propagate_int(G_TASK(result), error);
}
