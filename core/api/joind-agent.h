/* joind-agent.h - asking the registered agent for a secret.
 *
 * Agents are clients (joinctl, a desktop panel) that registered with
 * net.joind.AgentManager1. A request fails with JOIND_ERROR_NO_AGENT when
 * none is registered and JOIND_ERROR_ABORTED when the agent (or the
 * cancellable) cancels it; cancelling the GCancellable also tells the agent.
 */
#pragma once

#include <gio/gio.h>

#include "joind-export.h"
#include "joind-plugin.h"

G_BEGIN_DECLS

typedef enum {
	JOIND_SECRET_PASSPHRASE,             /* network passphrase */
	JOIND_SECRET_PRIVATE_KEY_PASSPHRASE, /* client key passphrase */
	JOIND_SECRET_USER_NAME_AND_PASSWORD,
	JOIND_SECRET_USER_PASSWORD, /* password for a known user name */
} JoindSecretKind;

typedef struct {
	gchar *user;   /* NULL unless the agent supplied a user name */
	gchar *secret; /* wiped on free */
} JoindSecret;

JOIND_EXPORT void joind_secret_free(JoindSecret *secret);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindSecret, joind_secret_free)

/* object_path: what the secret is for (a network or device object);
 * user: the known user name for JOIND_SECRET_USER_PASSWORD, else NULL. */
JOIND_EXPORT void joind_core_request_secret(JoindCore *core, JoindSecretKind kind,
                                            const gchar *object_path, const gchar *user,
                                            GCancellable *cancellable, GAsyncReadyCallback callback,
                                            gpointer user_data);
JOIND_EXPORT JoindSecret *joind_core_request_secret_finish(JoindCore *core, GAsyncResult *result,
                                                           GError **error);
JOIND_EXPORT gboolean joind_core_has_agent(JoindCore *core);

G_END_DECLS
