/* joind-agent.h - asking an agent for a secret.
 *
 * Agents are clients (joinctl, a desktop panel) that registered with
 * net.joind.AgentManager1, one per D-Bus connection. A request made for a
 * client (its requester: the unique bus name of the client whose method
 * call needs the secret) goes to that client's agent and to no other: a
 * secret typed by one user never reaches another user's session. A
 * request with no requester (autoconnect, a wired port) goes to the first
 * agent of root (uid 0) that registered, else to the agent of the user
 * whose session is active on seat0 (asked of logind), never to just any
 * agent; the log names the agent asked.
 *
 * A request fails with JOIND_ERROR_NO_AGENT when there is no agent to ask
 * and JOIND_ERROR_ABORTED when the agent (or the cancellable) cancels it;
 * cancelling the GCancellable also tells the agent.
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

/* Asks with no requester. object_path: what the secret is for (a network or device object);
 * user: the known user name for JOIND_SECRET_USER_PASSWORD, else NULL. */
JOIND_EXPORT void joind_core_request_secret(JoindCore *core, JoindSecretKind kind,
                                            const gchar *object_path, const gchar *user,
                                            GCancellable *cancellable, GAsyncReadyCallback callback,
                                            gpointer user_data);
/* As joind_core_request_secret(), for requester (NULL: none) (ABI 1.4). */
JOIND_EXPORT void joind_core_request_secret_for(JoindCore *core, const gchar *requester,
                                                JoindSecretKind kind, const gchar *object_path,
                                                const gchar *user, GCancellable *cancellable,
                                                GAsyncReadyCallback callback, gpointer user_data);
/* The requester of an operation a D-Bus method call started (ABI 1.4).
 * The core hands such an operation (JoindNetworkClass.connect,
 * joind_station_connect_hidden() and the others) the call's own
 * cancellable; given that one, this returns the unique bus name of the
 * client that made the call, valid as long as the cancellable. Any other
 * cancellable, or NULL, gives NULL: no client asked. */
JOIND_EXPORT const gchar *joind_requester_from_cancellable(GCancellable *cancellable);
JOIND_EXPORT JoindSecret *joind_core_request_secret_finish(JoindCore *core, GAsyncResult *result,
                                                           GError **error);
JOIND_EXPORT gboolean joind_core_has_agent(JoindCore *core);

G_END_DECLS
