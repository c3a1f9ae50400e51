/* joinctl-agent.c - joinctl's built-in net.joind.Agent1: answers joind's
 * secret requests from the command line (--passphrase, --username, ...) or
 * by prompting on the terminal without echo. Only joind (the owner of
 * net.joind) may ask it; anyone else is refused. Secrets are never printed.
 */
#include "config.h"

#include <stdio.h>

#include "joinctl.h"

typedef enum {
	REQUEST_PASSPHRASE,
	REQUEST_KEY_PASSPHRASE,
	REQUEST_USER_AND_PASSWORD,
	REQUEST_USER_PASSWORD,
} RequestKind;

struct _JoinctlAgent {
	JoinctlContext *ctx;
	JoindDBusAgent1 *skeleton;
	gboolean interactive;
	gboolean announce; /* `joinctl agent`: report each event on stdout */
	gboolean exported;
	gboolean registered;
	gboolean released;
	/* The request being prompted for. */
	GDBusMethodInvocation *pending;
	RequestKind kind;
	gchar *target;
	gchar *user;
};

static void agent_announce(JoinctlAgent *agent, const gchar *event, const gchar *target,
                           const gchar *detail);

static gboolean
sender_is_joind(JoinctlAgent *agent, GDBusMethodInvocation *invocation)
{
	g_autofree gchar *owner = g_dbus_object_manager_client_get_name_owner(
	        G_DBUS_OBJECT_MANAGER_CLIENT(agent->ctx->manager));

	if (owner != NULL && g_strcmp0(g_dbus_method_invocation_get_sender(invocation), owner) == 0)
		return TRUE;
	g_dbus_method_invocation_return_dbus_error(invocation, "net.joind.Error.PermissionDenied",
	                                           _("Only joind may ask this agent for secrets."));
	return FALSE;
}

/* What the secret is for, for people: "network 'home' (psk)", "device eth0". */
static gchar *
describe_target(JoinctlAgent *agent, const gchar *path)
{
	g_autoptr(JoindDBusObject) object = joinctl_object(agent->ctx, path);
	JoindDBusNetwork1 *net = object ? joind_dbus_object_peek_network1(object) : NULL;
	JoindDBusKnownNetwork1 *known =
	        object ? joind_dbus_object_peek_known_network1(object) : NULL;
	JoindDBusDevice1 *dev = object ? joind_dbus_object_peek_device1(object) : NULL;

	if (net != NULL)
		return g_strdup_printf(_("network '%s' (%s)"), joind_dbus_network1_get_name(net),
		                       joind_dbus_network1_get_type_(net));
	if (known != NULL)
		return g_strdup_printf(_("network '%s' (%s)"),
		                       joind_dbus_known_network1_get_name(known),
		                       joind_dbus_known_network1_get_type_(known));
	if (dev != NULL)
		return g_strdup_printf(_("device %s"), joind_dbus_device1_get_name(dev));
	return g_strdup(path);
}

static void
pending_clear(JoinctlAgent *agent)
{
	agent->pending = NULL;
	g_clear_pointer(&agent->target, g_free);
	g_clear_pointer(&agent->user, g_free);
}

static void
pending_fail(JoinctlAgent *agent, const gchar *name, const gchar *message)
{
	joinctl_prompt_cancel();
	if (agent->pending != NULL)
		g_dbus_method_invocation_return_dbus_error(agent->pending, name, message);
	pending_clear(agent);
}

/* Answer the pending request; wipes the secret. */
static void
pending_answer(JoinctlAgent *agent, gchar *secret)
{
	switch (agent->kind) {
	case REQUEST_USER_AND_PASSWORD:
		g_dbus_method_invocation_return_value(agent->pending,
		                                      g_variant_new("(ss)", agent->user, secret));
		break;
	default:
		g_dbus_method_invocation_return_value(agent->pending, g_variant_new("(s)", secret));
		break;
	}
	agent_announce(agent, "answered", agent->target, NULL);
	joinctl_secret_free(secret);
	pending_clear(agent);
}

static void ask_next(JoinctlAgent *agent);

static void
on_line(gchar *line, gpointer user_data)
{
	JoinctlAgent *agent = user_data;

	if (line == NULL) {
		pending_fail(agent, "net.joind.Error.Aborted", _("The user gave no answer."));
		return;
	}
	if (agent->kind == REQUEST_USER_AND_PASSWORD && agent->user == NULL) {
		agent->user = line;
		ask_next(agent);
		return;
	}
	pending_answer(agent, line);
}

/* The secret given on the command line for this kind of request, if any. */
static const gchar *
given_secret(JoinctlAgent *agent)
{
	JoinctlSecrets *s = &agent->ctx->secrets;

	switch (agent->kind) {
	case REQUEST_PASSPHRASE:
		return s->passphrase;
	case REQUEST_KEY_PASSPHRASE:
		return s->key_passphrase ? s->key_passphrase : s->passphrase;
	default:
		return s->password;
	}
}

static gchar *
question_for(JoinctlAgent *agent)
{
	switch (agent->kind) {
	case REQUEST_PASSPHRASE:
		return g_strdup_printf(_("Passphrase for %s: "), agent->target);
	case REQUEST_KEY_PASSPHRASE:
		return g_strdup_printf(_("Private key passphrase for %s: "), agent->target);
	case REQUEST_USER_PASSWORD:
		return g_strdup_printf(_("Password of %s for %s: "), agent->user, agent->target);
	default:
		if (agent->user == NULL)
			return g_strdup_printf(_("User name for %s: "), agent->target);
		return g_strdup_printf(_("Password of %s for %s: "), agent->user, agent->target);
	}
}

/* Answer from the command line when it has what is asked, else prompt for
 * the next missing part, else refuse with Aborted and say what is missing. */
static void
ask_next(JoinctlAgent *agent)
{
	const gchar *given = given_secret(agent);
	g_autofree gchar *question = NULL;
	gboolean asking_user = agent->kind == REQUEST_USER_AND_PASSWORD && agent->user == NULL;
	g_autofree gchar *message = NULL;

	if (asking_user && agent->ctx->secrets.username != NULL) {
		agent->user = g_strdup(agent->ctx->secrets.username);
		asking_user = FALSE;
	}
	if (!asking_user && given != NULL) {
		pending_answer(agent, g_strdup(given));
		return;
	}
	question = question_for(agent);
	if (agent->interactive && joinctl_prompt_start(question, asking_user, on_line, agent))
		return;
	message = g_strdup_printf(_("joinctl has no secret for %s: give it with --passphrase, "
	                            "--key-passphrase, --username and --password, or run joinctl "
	                            "on a terminal"),
	                          agent->target);
	agent_announce(agent, "refused", agent->target, message);
	pending_fail(agent, "net.joind.Error.Aborted", message);
}

static gboolean
start_request(JoinctlAgent *agent, GDBusMethodInvocation *invocation, RequestKind kind,
              const gchar *object, const gchar *user)
{
	if (!sender_is_joind(agent, invocation))
		return TRUE;
	if (agent->pending != NULL || joinctl_prompt_busy()) {
		g_dbus_method_invocation_return_dbus_error(
		        invocation, "net.joind.Error.Busy",
		        _("This agent is already answering another request."));
		return TRUE;
	}
	agent->pending = invocation;
	agent->kind = kind;
	agent->target = describe_target(agent, object);
	agent->user = g_strdup(user);
	agent_announce(agent, "request", agent->target,
	               g_dbus_method_invocation_get_method_name(invocation));
	ask_next(agent);
	return TRUE;
}

static gboolean
on_request_passphrase(JoindDBusAgent1 *skeleton, GDBusMethodInvocation *invocation,
                      const gchar *object, JoinctlAgent *agent)
{
	return start_request(agent, invocation, REQUEST_PASSPHRASE, object, NULL);
}

static gboolean
on_request_key_passphrase(JoindDBusAgent1 *skeleton, GDBusMethodInvocation *invocation,
                          const gchar *object, JoinctlAgent *agent)
{
	return start_request(agent, invocation, REQUEST_KEY_PASSPHRASE, object, NULL);
}

static gboolean
on_request_user_and_password(JoindDBusAgent1 *skeleton, GDBusMethodInvocation *invocation,
                             const gchar *object, JoinctlAgent *agent)
{
	return start_request(agent, invocation, REQUEST_USER_AND_PASSWORD, object, NULL);
}

static gboolean
on_request_user_password(JoindDBusAgent1 *skeleton, GDBusMethodInvocation *invocation,
                         const gchar *object, const gchar *user, JoinctlAgent *agent)
{
	return start_request(agent, invocation, REQUEST_USER_PASSWORD, object, user);
}

static gboolean
on_cancel(JoindDBusAgent1 *skeleton, GDBusMethodInvocation *invocation, const gchar *reason,
          JoinctlAgent *agent)
{
	if (!sender_is_joind(agent, invocation))
		return TRUE;
	if (agent->pending != NULL) {
		joinctl_prompt_cancel(); /* restores the terminal before anything is said */
		if (!agent->announce)
			g_printerr(_("joind cancelled the request: %s\n"), reason);
		agent_announce(agent, "cancelled", agent->target, reason);
		pending_fail(agent, "net.joind.Error.Aborted", _("Cancelled by joind."));
	}
	joind_dbus_agent1_complete_cancel(skeleton, invocation);
	return TRUE;
}

static gboolean
on_release(JoindDBusAgent1 *skeleton, GDBusMethodInvocation *invocation, JoinctlAgent *agent)
{
	if (!sender_is_joind(agent, invocation))
		return TRUE;
	if (agent->pending != NULL)
		pending_fail(agent, "net.joind.Error.Aborted", _("The agent was released."));
	agent->released = TRUE;
	agent->registered = FALSE;
	agent_announce(agent, "released", NULL, NULL);
	joind_dbus_agent1_complete_release(skeleton, invocation);
	return TRUE;
}

static gchar *
announce_text(const gchar *event, const gchar *target, const gchar *detail)
{
	if (g_str_equal(event, "registered"))
		return g_strdup_printf(_("Agent registered at %s; answering joind's requests "
		                         "until Ctrl-C."),
		                       target);
	if (g_str_equal(event, "request"))
		return g_strdup_printf(_("joind asks for a secret for %s (%s)."), target, detail);
	if (g_str_equal(event, "answered"))
		return g_strdup_printf(_("Answered the request for %s."), target);
	if (g_str_equal(event, "refused"))
		return g_strdup_printf(_("Refused: %s"), detail);
	if (g_str_equal(event, "cancelled"))
		return g_strdup_printf(_("joind cancelled the request for %s: %s"), target, detail);
	if (g_str_equal(event, "released"))
		return g_strdup(_("joind released the agent."));
	return g_strdup(_("joind stopped; the agent registers again when it returns."));
}

static void
agent_announce(JoinctlAgent *agent, const gchar *event, const gchar *target, const gchar *detail)
{
	g_autoptr(JsonBuilder) b = NULL;
	g_autoptr(JsonNode) root = NULL;

	if (!agent->announce)
		return;
	if (!agent->ctx->json) {
		g_autofree gchar *text = announce_text(event, target, detail);
		printf("%s\n", text);
		fflush(stdout);
		return;
	}
	b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "event");
	json_builder_add_string_value(b, event);
	json_builder_set_member_name(b, "target");
	target ? json_builder_add_string_value(b, target) : json_builder_add_null_value(b);
	json_builder_set_member_name(b, "detail");
	detail ? json_builder_add_string_value(b, detail) : json_builder_add_null_value(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	joinctl_print_json(root, FALSE);
}

JoinctlAgent *
joinctl_agent_new(JoinctlContext *ctx, gboolean interactive)
{
	JoinctlAgent *agent = g_new0(JoinctlAgent, 1);

	agent->ctx = ctx;
	agent->interactive = interactive;
	agent->skeleton = joind_dbus_agent1_skeleton_new();
	g_signal_connect(agent->skeleton, "handle-request-passphrase",
	                 G_CALLBACK(on_request_passphrase), agent);
	g_signal_connect(agent->skeleton, "handle-request-private-key-passphrase",
	                 G_CALLBACK(on_request_key_passphrase), agent);
	g_signal_connect(agent->skeleton, "handle-request-user-name-and-password",
	                 G_CALLBACK(on_request_user_and_password), agent);
	g_signal_connect(agent->skeleton, "handle-request-user-password",
	                 G_CALLBACK(on_request_user_password), agent);
	g_signal_connect(agent->skeleton, "handle-cancel", G_CALLBACK(on_cancel), agent);
	g_signal_connect(agent->skeleton, "handle-release", G_CALLBACK(on_release), agent);
	return agent;
}

gboolean
joinctl_agent_register(JoinctlAgent *agent, GError **error)
{
	g_autoptr(JoindDBusAgentManager1) manager = joinctl_agent_manager_proxy(agent->ctx, error);
	g_autoptr(GVariant) reply = NULL;

	if (manager == NULL)
		return FALSE;
	if (!agent->exported &&
	    !g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(agent->skeleton),
	                                      agent->ctx->bus, JOINCTL_AGENT_PATH, error))
		return FALSE;
	agent->exported = TRUE;
	reply = joinctl_call(agent->ctx, manager, "RegisterAgent",
	                     g_variant_new("(o)", JOINCTL_AGENT_PATH), -1, error);
	if (reply == NULL) {
		g_prefix_error(error, _("registering the agent: "));
		return FALSE;
	}
	agent->registered = TRUE;
	agent->released = FALSE;
	return TRUE;
}

/* UnregisterAgent goes out even after Ctrl-C cancelled ctx->cancellable. */
static void
send_unregister(JoinctlAgent *agent)
{
	JoinctlContext *ctx = agent->ctx;
	g_autoptr(GCancellable) saved = g_steal_pointer(&ctx->cancellable);
	g_autoptr(JoindDBusAgentManager1) manager = NULL;
	g_autoptr(GVariant) reply = NULL;

	ctx->cancellable = g_cancellable_new();
	manager = joinctl_agent_manager_proxy(ctx, NULL);
	if (manager != NULL)
		reply = joinctl_call(ctx, manager, "UnregisterAgent",
		                     g_variant_new("(o)", JOINCTL_AGENT_PATH), 2000, NULL);
	g_object_unref(ctx->cancellable);
	ctx->cancellable = g_steal_pointer(&saved);
}

void
joinctl_agent_unregister(JoinctlAgent *agent)
{
	if (agent->pending != NULL)
		pending_fail(agent, "net.joind.Error.Aborted", _("joinctl is stopping."));
	if (agent->registered && joinctl_daemon_running(agent->ctx))
		send_unregister(agent);
	agent->registered = FALSE;
	if (agent->exported)
		g_dbus_interface_skeleton_unexport(G_DBUS_INTERFACE_SKELETON(agent->skeleton));
	agent->exported = FALSE;
}

void
joinctl_agent_free(JoinctlAgent *agent)
{
	if (agent == NULL)
		return;
	joinctl_agent_unregister(agent);
	g_signal_handlers_disconnect_by_data(agent->skeleton, agent);
	g_object_unref(agent->skeleton);
	g_free(agent);
}

static gboolean
have_given_secrets(JoinctlContext *ctx)
{
	JoinctlSecrets *s = &ctx->secrets;

	return s->passphrase || s->key_passphrase || s->username || s->password;
}

/* For connect and reauth: an agent when there is something to answer with
 * (secrets on the command line, or a terminal to prompt on). A failure to
 * register is a warning: another agent may still answer joind. */
JoinctlAgent *
joinctl_agent_start_for_call(JoinctlContext *ctx)
{
	g_autoptr(GError) error = NULL;
	gboolean interactive = joinctl_prompt_available();
	g_autoptr(JoinctlAgent) agent = NULL;

	if (!interactive && !have_given_secrets(ctx))
		return NULL;
	agent = joinctl_agent_new(ctx, interactive);
	if (!joinctl_agent_register(agent, &error)) {
		g_printerr(_("joinctl: warning: %s\n"), error->message);
		return NULL;
	}
	return g_steal_pointer(&agent);
}

static gboolean
reregister(gpointer user_data)
{
	JoinctlAgent *agent = user_data;
	g_autoptr(GError) error = NULL;

	if (agent->registered || !joinctl_daemon_running(agent->ctx))
		return G_SOURCE_REMOVE;
	if (joinctl_agent_register(agent, &error))
		agent_announce(agent, "registered", JOINCTL_AGENT_PATH, NULL);
	else
		g_printerr("joinctl: %s\n", error->message);
	return G_SOURCE_REMOVE;
}

/* joind restarted: it forgot the agent, so register again. */
static void
on_name_owner(GObject *manager, GParamSpec *pspec, JoinctlAgent *agent)
{
	if (!joinctl_daemon_running(agent->ctx)) {
		agent->registered = FALSE;
		agent_announce(agent, "daemon-stopped", NULL, NULL);
		return;
	}
	g_idle_add(reregister, agent);
}

int
joinctl_cmd_agent(JoinctlContext *ctx, gchar **args)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoinctlAgent) agent = NULL;

	if (g_strv_length(args) != 0)
		return joinctl_usage_error(_("usage: joinctl agent"));
	if (!joinctl_context_connect(ctx, TRUE, &error))
		return joinctl_report(error);
	agent = joinctl_agent_new(ctx, joinctl_prompt_available());
	agent->announce = TRUE;
	if (!joinctl_agent_register(agent, &error))
		return joinctl_report(error);
	agent_announce(agent, "registered", JOINCTL_AGENT_PATH, NULL);
	g_signal_connect(ctx->manager, "notify::name-owner", G_CALLBACK(on_name_owner), agent);
	while (!agent->released && !g_cancellable_is_cancelled(ctx->cancellable))
		g_main_context_iteration(NULL, TRUE);
	g_signal_handlers_disconnect_by_data(ctx->manager, agent);
	g_idle_remove_by_data(agent);
	return JOINCTL_EXIT_OK;
}
