/* joind-agent-manager.h - registered agents and the secrets asked of them. */
#pragma once

#include <gio/gio.h>

#include "joind-agent.h"
#include "joind-dbus-call.h"
#include "joind-dbus-generated.h"
#include "joind-observer.h"

G_BEGIN_DECLS

#define JOIND_TYPE_AGENT_MANAGER (joind_agent_manager_get_type())
G_DECLARE_FINAL_TYPE(JoindAgentManager, joind_agent_manager, JOIND, AGENT_MANAGER, GObject)

/* Handles net.joind.AgentManager1 on the given skeleton. */
JoindAgentManager *joind_agent_manager_new(GDBusConnection *bus, JoindDBusAgentManager1 *skeleton);
guint joind_agent_manager_get_n_agents(JoindAgentManager *self);
/* A front end's RegisterAgent()/UnregisterAgent() (joind-observer.h):
 * answer call, whose parameters are "(o)". */
void joind_agent_manager_register(JoindAgentManager *self, JoindDBusCall *call,
                                  const gchar *interface, JoindPathMapFunc map, gpointer map_data);
void joind_agent_manager_unregister(JoindAgentManager *self, JoindDBusCall *call);
/* Tells every agent it is released (daemon shutdown). */
void joind_agent_manager_release_all(JoindAgentManager *self);

/* requester: the unique bus name of the client that asked, or NULL (the
 * rule in joind-agent.h). */
void joind_agent_manager_request(JoindAgentManager *self, const gchar *requester,
                                 JoindSecretKind kind, const gchar *object_path, const gchar *user,
                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data);
JoindSecret *joind_agent_manager_request_finish(JoindAgentManager *self, GAsyncResult *result,
                                                GError **error);

G_END_DECLS
