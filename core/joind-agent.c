/* joind-agent.c - net.joind.AgentManager1 and secret requests to agents.
 *
 * Each D-Bus connection may register one agent, a user at most
 * AGENT_PER_UID_MAX (root as many as there is room for: the last
 * AGENT_ROOT_RESERVED places are kept for root's agents, NetworkManager's
 * among them); a request goes to the agent of the client that asked for
 * the secret (see joind-agent.h for the rule when no client asked). An agent whose client leaves
 * the bus is dropped at once (a name watch per client), so requests never go to a dead peer. Agents
 * registered through a front end's API (joind-observer.h) are kept in the same list: they are
 * called on the front end's connection and interface, with the front end's object paths.
 */
#include "joind-agent-manager.h"

#include "joind-caller.h"
#include "joind-dbus-call.h"
#include "joind-error.h"
#include "joind-seat.h"
#include "joind-secret.h"

/* People type passphrases: give them time, but not forever. */
#define AGENT_REQUEST_TIMEOUT_MS (120 * 1000)
/* One per connection already; this bounds what many connections can make
 * the daemon hold and watch. */
#define AGENT_MAX 64
/* A desktop has a few (a panel, joinctl in a terminal): one user may not
 * take every place. */
#define AGENT_PER_UID_MAX   16
#define AGENT_ROOT_RESERVED 16

typedef struct {
	gchar *owner; /* unique bus name */
	gchar *path;
	GDBusConnection *bus; /* the connection it registered on */
	gchar *interface;     /* its agent interface */
	JoindPathMapFunc map; /* NULL: the core's own paths */
	gpointer map_data;
	guint32 uid;
	gboolean uid_known; /* asked of the bus while registering */
	guint watch_id;
} Agent;

struct _JoindAgentManager {
	GObject parent_instance;
	GDBusConnection *bus;
	JoindDBusAgentManager1 *skeleton;
	GPtrArray *agents; /* Agent*, in the order they registered */
};

G_DEFINE_TYPE(JoindAgentManager, joind_agent_manager, G_TYPE_OBJECT)

static void
agent_free(Agent *agent)
{
	if (agent->watch_id != 0)
		g_bus_unwatch_name(agent->watch_id);
	g_free(agent->owner);
	g_free(agent->path);
	g_object_unref(agent->bus);
	g_free(agent->interface);
	g_free(agent);
}

/* The agent of owner (any path when path is NULL). */
static Agent *
agent_find(JoindAgentManager *self, const gchar *owner, const gchar *path, guint *index)
{
	for (guint i = 0; i < self->agents->len; i++) {
		Agent *agent = g_ptr_array_index(self->agents, i);

		if (g_str_equal(agent->owner, owner) &&
		    (path == NULL || g_str_equal(agent->path, path))) {
			if (index != NULL)
				*index = i;
			return agent;
		}
	}
	return NULL;
}

static void
agent_owner_vanished(GDBusConnection *bus, const gchar *name, gpointer user_data)
{
	JoindAgentManager *self = user_data;
	guint index;

	if (agent_find(self, name, NULL, &index) == NULL)
		return;
	g_info("agent %s%s left the bus; dropped", name,
	       ((Agent *)g_ptr_array_index(self->agents, index))->path);
	g_ptr_array_remove_index(self->agents, index);
}

/* Who calls (a unique bus name) and the agent path it gives. */
static const gchar *
agent_call_args(JoindDBusCall *call, const gchar **path)
{
	GDBusMethodInvocation *invocation = joind_dbus_call_get_invocation(call);

	g_variant_get(g_dbus_method_invocation_get_parameters(invocation), "(&o)", path);
	return g_dbus_method_invocation_get_sender(invocation);
}

static gboolean
agent_check_room(JoindAgentManager *self, const gchar *sender, GError **error)
{
	Agent *agent = agent_find(self, sender, NULL, NULL);

	if (agent != NULL)
		return joind_set_error(error, JOIND_ERROR_BUSY,
		                       "This client has an agent registered already (%s); a "
		                       "client may register one.",
		                       agent->path);
	if (self->agents->len >= AGENT_MAX)
		return joind_set_error(error, JOIND_ERROR_BUSY,
		                       "%u agents are registered, the most joind takes; try "
		                       "again when one has gone.",
		                       (guint)AGENT_MAX);
	return TRUE;
}

/* Once the bus has said whose an agent is: its user's share. */
static gboolean
agent_check_uid_room(JoindAgentManager *self, guint32 uid, GError **error)
{
	guint mine = 0, others = 0;

	for (guint i = 0; i < self->agents->len; i++) {
		Agent *agent = g_ptr_array_index(self->agents, i);

		if (!agent->uid_known || agent->uid == 0)
			continue;
		mine += agent->uid == uid;
		others++;
	}
	if (uid == 0)
		return TRUE;
	if (mine >= AGENT_PER_UID_MAX)
		return joind_set_error(error, JOIND_ERROR_BUSY,
		                       "uid %u has %u agents registered, the most one user may "
		                       "have; unregister one first.",
		                       uid, mine);
	if (others >= AGENT_MAX - AGENT_ROOT_RESERVED)
		return joind_set_error(error, JOIND_ERROR_BUSY,
		                       "%u agents of users are registered; the places left are "
		                       "kept for root's agents.",
		                       others);
	return TRUE;
}

/* The registration completes once the bus has said whose the connection
 * is: the rule for requests no client made needs the owner's uid. */
typedef struct {
	JoindAgentManager *self;
	JoindDBusCall *call;
	gchar *owner;
	gchar *path;
} AgentRegistration;

static void
agent_got_uid(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree AgentRegistration *reg = user_data;
	g_autoptr(JoindAgentManager) self = reg->self;
	g_autofree gchar *owner = reg->owner;
	g_autofree gchar *path = reg->path;
	g_autoptr(GError) error = NULL;
	guint32 uid = 0;
	gboolean known = joind_caller_uid_finish(G_DBUS_CONNECTION(source), result, &uid, &error);
	guint index;
	Agent *agent = agent_find(self, owner, path, &index);

	if (agent == NULL) {
		joind_dbus_call_return_new_error(reg->call, JOIND_ERROR_ABORTED,
		                                 "The agent went away while it registered.");
		return;
	}
	if (!known) {
		g_ptr_array_remove_index(self->agents, index);
		joind_dbus_call_return_new_error(reg->call, JOIND_ERROR_FAILED,
		                                 "Could not tell whose the agent is: %s",
		                                 error->message);
		return;
	}
	if (!agent_check_uid_room(self, uid, &error)) {
		g_ptr_array_remove_index(self->agents, index);
		joind_dbus_call_return_error(reg->call, error);
		return;
	}
	agent->uid = uid;
	agent->uid_known = TRUE;
	g_info("agent %s%s of uid %u registered", owner, path, agent->uid);
	joind_dbus_call_return(reg->call, NULL);
	g_signal_emit_by_name(self, "agent-added");
}

typedef struct {
	GDBusConnection *bus;
	const gchar *interface;
	JoindPathMapFunc map;
	gpointer map_data;
} AgentLine;

static void
agent_register_on(JoindAgentManager *self, JoindDBusCall *call, const AgentLine *line)
{
	const gchar *path = NULL;
	const gchar *sender = agent_call_args(call, &path);
	g_autoptr(GError) error = NULL;
	AgentRegistration *reg;
	Agent *agent;

	if (!agent_check_room(self, sender, &error)) {
		joind_dbus_call_return_error(call, error);
		return;
	}
	agent = g_new0(Agent, 1);
	agent->owner = g_strdup(sender);
	agent->path = g_strdup(path);
	agent->bus = g_object_ref(line->bus);
	agent->interface = g_strdup(line->interface);
	agent->map = line->map;
	agent->map_data = line->map_data;
	agent->watch_id =
	        g_bus_watch_name_on_connection(line->bus, sender, G_BUS_NAME_WATCHER_FLAGS_NONE,
	                                       NULL, agent_owner_vanished, self, NULL);
	g_ptr_array_add(self->agents, agent);
	reg = g_new0(AgentRegistration, 1);
	reg->self = g_object_ref(self);
	reg->call = call;
	reg->owner = g_strdup(sender);
	reg->path = g_strdup(path);
	joind_caller_uid(line->bus, sender, agent_got_uid, reg);
}

static void
agent_register(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindAgentManager *self = target;
	const AgentLine line = {self->bus, "net.joind.Agent1", NULL, NULL};

	agent_register_on(self, call, &line);
}

void
joind_agent_manager_register(JoindAgentManager *self, JoindDBusCall *call, const gchar *interface,
                             JoindPathMapFunc map, gpointer map_data)
{
	const AgentLine line = {
	        g_dbus_method_invocation_get_connection(joind_dbus_call_get_invocation(call)),
	        interface, map, map_data};

	agent_register_on(self, call, &line);
}

static void
agent_unregister(JoindDBusCall *call, gpointer target, gpointer data)
{
	JoindAgentManager *self = target;
	const gchar *path = NULL;
	const gchar *sender = agent_call_args(call, &path);
	guint index;

	if (agent_find(self, sender, path, &index) == NULL) {
		joind_dbus_call_return_new_error(call, JOIND_ERROR_NOT_FOUND,
		                                 "No agent %s is registered by this client.", path);
		return;
	}
	g_ptr_array_remove_index(self->agents, index);
	g_info("agent %s%s unregistered", sender, path);
	joind_dbus_call_return(call, NULL);
}

void
joind_agent_manager_unregister(JoindAgentManager *self, JoindDBusCall *call)
{
	agent_unregister(call, self, NULL);
}

static void
joind_agent_manager_finalize(GObject *object)
{
	JoindAgentManager *self = JOIND_AGENT_MANAGER(object);

	g_ptr_array_unref(self->agents);
	g_clear_object(&self->skeleton);
	g_clear_object(&self->bus);
	G_OBJECT_CLASS(joind_agent_manager_parent_class)->finalize(object);
}

static void
joind_agent_manager_class_init(JoindAgentManagerClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = joind_agent_manager_finalize;
	/* "agent-added" (): someone can now be asked for secrets. */
	g_signal_new("agent-added", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
	             NULL, G_TYPE_NONE, 0);
}

static void
joind_agent_manager_init(JoindAgentManager *self)
{
	self->agents = g_ptr_array_new_with_free_func((GDestroyNotify)agent_free);
}

JoindAgentManager *
joind_agent_manager_new(GDBusConnection *bus, JoindDBusAgentManager1 *skeleton)
{
	JoindAgentManager *self = g_object_new(JOIND_TYPE_AGENT_MANAGER, NULL);

	self->bus = g_object_ref(bus);
	self->skeleton = g_object_ref(skeleton);
	joind_dbus_call_connect(skeleton, "handle-register-agent", self, agent_register, NULL);
	joind_dbus_call_connect(skeleton, "handle-unregister-agent", self, agent_unregister, NULL);
	return self;
}

guint
joind_agent_manager_get_n_agents(JoindAgentManager *self)
{
	return self->agents->len;
}

void
joind_agent_manager_release_all(JoindAgentManager *self)
{
	for (guint i = 0; i < self->agents->len; i++) {
		Agent *agent = g_ptr_array_index(self->agents, i);

		g_dbus_connection_call(agent->bus, agent->owner, agent->path, agent->interface,
		                       "Release", NULL, NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1,
		                       NULL, NULL, NULL);
	}
	g_ptr_array_set_size(self->agents, 0);
}

/* ---- secret requests ---------------------------------------------------- */

typedef struct {
	JoindAgentManager *self; /* while the agent is picked */
	JoindSecretKind kind;
	gchar *object_path; /* what the secret is for */
	gchar *user;
	gchar *owner; /* the agent asked, once picked */
	gchar *path;
	GDBusConnection *bus;
	gchar *interface;
	gulong cancel_id;
} SecretRequest;

static void
secret_request_free(SecretRequest *req)
{
	g_clear_object(&req->self);
	g_free(req->object_path);
	g_free(req->user);
	g_free(req->owner);
	g_free(req->path);
	g_clear_object(&req->bus);
	g_free(req->interface);
	g_free(req);
}

void
joind_secret_free(JoindSecret *secret)
{
	if (secret == NULL)
		return;
	g_free(secret->user);
	joind_secret_wipe(secret->secret);
	g_free(secret);
}

static const gchar *
secret_kind_method(JoindSecretKind kind, const GVariantType **reply_type)
{
	switch (kind) {
	case JOIND_SECRET_PASSPHRASE:
		*reply_type = G_VARIANT_TYPE("(s)");
		return "RequestPassphrase";
	case JOIND_SECRET_PRIVATE_KEY_PASSPHRASE:
		*reply_type = G_VARIANT_TYPE("(s)");
		return "RequestPrivateKeyPassphrase";
	case JOIND_SECRET_USER_NAME_AND_PASSWORD:
		*reply_type = G_VARIANT_TYPE("(ss)");
		return "RequestUserNameAndPassword";
	case JOIND_SECRET_USER_PASSWORD:
		*reply_type = G_VARIANT_TYPE("(s)");
		return "RequestUserPassword";
	}
	return NULL;
}

/* An agent that declines (its user pressed Cancel) answers with an error
 * named *.Canceled or *.Aborted: that is an abort, not a failure. */
static GError *
secret_map_error(GError *error)
{
	g_autofree gchar *name = g_dbus_error_get_remote_error(error);

	if (name != NULL &&
	    (g_str_has_suffix(name, ".Canceled") || g_str_has_suffix(name, ".Cancelled") ||
	     g_str_has_suffix(name, ".Aborted")))
		return g_error_new_literal(JOIND_ERROR, JOIND_ERROR_ABORTED,
		                           "The request for a secret was cancelled by the agent.");
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return g_error_new_literal(JOIND_ERROR, JOIND_ERROR_ABORTED,
		                           "The request for a secret was cancelled.");
	if (name != NULL)
		g_dbus_error_strip_remote_error(error);
	return g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED, "The agent did not answer: %s",
	                   error->message);
}

/* The reply's strings live in buffers of the variant (its children's, or
 * one serialised buffer they point into): overwrite them before it is
 * freed. What GDBus itself read off the socket is beyond reach. */
static void
secret_reply_wipe(GVariant *reply)
{
	for (gsize i = 0; i < g_variant_n_children(reply); i++) {
		g_autoptr(GVariant) child = g_variant_get_child_value(reply, i);
		gsize len = 0;
		const gchar *text = g_variant_get_string(child, &len);

		joind_secret_clear((void *)text, len);
	}
}

static void
secret_request_done(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	SecretRequest *req = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), result, &error);
	JoindSecret *secret;

	if (req->cancel_id != 0)
		g_cancellable_disconnect(g_task_get_cancellable(task), req->cancel_id);
	if (reply == NULL) {
		g_task_return_error(task, secret_map_error(error));
		return;
	}
	secret = g_new0(JoindSecret, 1);
	if (req->kind == JOIND_SECRET_USER_NAME_AND_PASSWORD)
		g_variant_get(reply, "(ss)", &secret->user, &secret->secret);
	else
		g_variant_get(reply, "(s)", &secret->secret);
	secret_reply_wipe(reply);
	g_task_return_pointer(task, secret, (GDestroyNotify)joind_secret_free);
}

/* Runs in the cancelling thread: only sends a message. */
static void
secret_request_cancelled(GCancellable *cancellable, gpointer user_data)
{
	GTask *task = user_data;
	SecretRequest *req = g_task_get_task_data(task);

	g_dbus_connection_call(req->bus, req->owner, req->path, req->interface, "Cancel",
	                       g_variant_new("(s)", "canceled"), NULL,
	                       G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, NULL, NULL);
}

/* The first agent of uid that registered, or NULL. */
static Agent *
secret_agent_of_uid(JoindAgentManager *self, guint32 uid)
{
	for (guint i = 0; i < self->agents->len; i++) {
		Agent *candidate = g_ptr_array_index(self->agents, i);

		if (candidate->uid_known && candidate->uid == uid)
			return candidate;
	}
	return NULL;
}

static GVariant *
secret_request_args(JoindSecretKind kind, const gchar *object_path, const gchar *user)
{
	if (kind == JOIND_SECRET_USER_PASSWORD)
		return g_variant_new("(os)", object_path, user != NULL ? user : "");
	return g_variant_new("(o)", object_path);
}

/* Sends the request of task to agent. */
static void
secret_ask(GTask *task, Agent *agent)
{
	SecretRequest *req = g_task_get_task_data(task);
	GCancellable *cancellable = g_task_get_cancellable(task);
	const GVariantType *reply_type = NULL;
	const gchar *method = secret_kind_method(req->kind, &reply_type);
	g_autofree gchar *mapped = NULL;
	const gchar *object_path = req->object_path;

	req->owner = g_strdup(agent->owner);
	req->path = g_strdup(agent->path);
	req->bus = g_object_ref(agent->bus);
	req->interface = g_strdup(agent->interface);
	mapped = agent->map != NULL ? agent->map(object_path, agent->map_data) : NULL;
	if (mapped != NULL)
		object_path = mapped;
	g_debug("asking agent %s%s: %s.%s for %s", agent->owner, agent->path, agent->interface,
	        method, object_path);
	if (cancellable != NULL)
		req->cancel_id = g_cancellable_connect(
		        cancellable, G_CALLBACK(secret_request_cancelled), task, NULL);
	g_dbus_connection_call(req->bus, agent->owner, agent->path, req->interface, method,
	                       secret_request_args(req->kind, object_path, req->user), reply_type,
	                       G_DBUS_CALL_FLAGS_NO_AUTO_START, AGENT_REQUEST_TIMEOUT_MS,
	                       cancellable, secret_request_done, g_object_ref(task));
}

/* No client asked and root has no agent: the user on the active seat. */
static void
secret_got_seat_user(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	SecretRequest *req = g_task_get_task_data(task);
	g_autoptr(JoindAgentManager) self = g_steal_pointer(&req->self);
	g_autoptr(GError) error = NULL;
	guint32 uid = 0;
	Agent *agent;

	if (!joind_seat_active_uid_finish(result, &uid, &error)) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NO_AGENT,
		                        "A secret is needed that no client asked for: root has no "
		                        "agent registered, and no user is on the active seat to "
		                        "ask (%s)",
		                        error->message);
		return;
	}
	agent = secret_agent_of_uid(self, uid);
	if (agent == NULL) {
		g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NO_AGENT,
		                        "A secret is needed that no client asked for: neither root "
		                        "nor the user on the active seat (uid %u) has an agent "
		                        "registered.",
		                        uid);
		return;
	}
	g_info("no client asked for the secret of %s: asking the agent of uid %u, the user on "
	       "the active seat (%s%s)",
	       req->object_path, uid, agent->owner, agent->path);
	secret_ask(task, agent);
}

/* Whom to ask: the requester's own agent, never another client's; with no
 * requester root's first agent, else the agent of the user on the active
 * seat (asked of logind), never just any agent: its user's answer could be
 * saved into a system profile. */
void
joind_agent_manager_request(JoindAgentManager *self, const gchar *requester, JoindSecretKind kind,
                            const gchar *object_path, const gchar *user, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(self, cancellable, callback, user_data);
	SecretRequest *req = g_new0(SecretRequest, 1);
	Agent *agent;

	req->kind = kind;
	req->object_path = g_strdup(object_path);
	req->user = g_strdup(user);
	g_task_set_task_data(task, req, (GDestroyNotify)secret_request_free);
	if (requester != NULL) {
		agent = agent_find(self, requester, NULL, NULL);
		if (agent == NULL)
			g_task_return_new_error(task, JOIND_ERROR, JOIND_ERROR_NO_AGENT,
			                        "A secret is needed and the client that asked (%s) "
			                        "has no agent registered to ask for it.",
			                        requester);
		else
			secret_ask(task, agent);
		return;
	}
	agent = secret_agent_of_uid(self, 0);
	if (agent != NULL) {
		g_info("no client asked for the secret of %s: asking root's agent (%s%s)",
		       object_path, agent->owner, agent->path);
		secret_ask(task, agent);
		return;
	}
	req->self = g_object_ref(self);
	joind_seat_active_uid(self->bus, cancellable, secret_got_seat_user, g_steal_pointer(&task));
}

JoindSecret *
joind_agent_manager_request_finish(JoindAgentManager *self, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, self), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}
