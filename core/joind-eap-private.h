/* joind-eap-private.h - the EAP session's insides, shared by the session
 * (joind-eap-session.c: lifetime, settings, secrets) and the peer state
 * machine (joind-eap-peer.c), plus seams for unit tests and fuzzing. */
#pragma once

#include "joind-eap.h"
#include "joind-eap-packet.h"

G_BEGIN_DECLS

/* Where secrets come from: the core's agents, or a test's fake agent. */
typedef struct {
	void (*request)(gpointer data, JoindSecretKind kind, const gchar *object_path,
	                const gchar *user, GCancellable *cancellable, GAsyncReadyCallback callback,
	                gpointer user_data);
	JoindSecret *(*finish)(gpointer data, GAsyncResult *result, GError **error);
	gboolean (*has_agent)(gpointer data);
	/* Optional: request for a client (the session's requester); used
	 * instead of request when set. */
	void (*request_for)(gpointer data, const gchar *requester, JoindSecretKind kind,
	                    const gchar *object_path, const gchar *user, GCancellable *cancellable,
	                    GAsyncReadyCallback callback, gpointer user_data);
} JoindEapSecretProvider;

/* Why a session is PAUSED. */
typedef enum {
	JOIND_EAP_PAUSE_SECRET, /* an agent request of this session is in flight */
	JOIND_EAP_PAUSE_METHOD, /* the method answers later (method_reply) */
} JoindEapPauseReason;

typedef struct _JoindEapSecretRequest JoindEapSecretRequest;

struct _JoindEapSession {
	gint ref_count;
	/* Inner sessions point at their outer session without a reference: the
	 * tunnel's method state owns the inner session, so it always dies
	 * first. The root (outer-most) session holds the settings, the agent
	 * and the secrets. */
	JoindEapSession *outer;
	gchar *prefix;
	gchar *label; /* for logs: object path, "inner" appended */

	/* root only */
	JoindCore *core;
	JoindProfile *profile;
	GKeyFile *keyfile; /* tests: settings without a profile file */
	gchar *object_path;
	gchar *requester; /* the client whose agent is asked, or NULL */
	JoindEapSecretProvider provider;
	gpointer provider_data;
	GHashTable *secrets; /* full key -> JoindEapSecretValue */

	JoindEapSessionCallbacks callbacks;
	gpointer user_data;
	gsize mtu;

	/* RFC 4137 peer variables */
	JoindEapState state;
	gint last_id; /* -1: none sent yet */
	GByteArray *last_response;
	const JoindEapMethodOps *method;
	gpointer method_state;
	JoindEapMethodState method_progress;
	JoindEapDecision decision;
	gchar *identity;
	guint8 offered[8]; /* method types the authenticator proposed and we NAKed */
	guint n_offered;
	gchar *notification; /* last Notification text, for failure sentences */
	gchar *peer_reason;  /* what the method learned of the authenticator's verdict */

	/* PAUSED */
	JoindEapState paused_from;
	JoindEapPauseReason pause_reason;
	GBytes *held_request; /* the raw Request being worked on */
	JoindEapSecretRequest *secret_request;

	guint8 *msk, *emsk;
	gsize msk_len, emsk_len;
	guint remember_id;       /* root: EAP-RememberCredentials write pending */
	GData *data;             /* root: joind_eap_session_set_data() */
	GVariant *server_cert;   /* root: joind_eap_session_set_server_cert() */
	gboolean server_refused; /* root: this conversation's server was not trusted */
	gchar *trust_command;    /* root: joind_eap_session_set_trust_command() */
};

/* Tests and fuzzing: a session whose [Security] settings come from a key
 * file, and whose secrets come from provider (NULL: no agent). */
JoindEapSession *joind_eap_session_new_for_keyfile(GKeyFile *keyfile,
                                                   const JoindEapSessionCallbacks *callbacks,
                                                   gpointer user_data);
void joind_eap_session_set_secret_provider(JoindEapSession *session,
                                           const JoindEapSecretProvider *provider, gpointer data);

/* joind-eap-session.c, for the peer */
JoindEapSession *joind_eap_session_root(JoindEapSession *session);
void joind_eap_session_set_state(JoindEapSession *session, JoindEapState state,
                                 const gchar *reason);
/* Fails the conversation: FAILURE, then the failed callback. */
void joind_eap_session_fail(JoindEapSession *session, JoindEapStage stage, const GError *error);
/* The methods the profile allows here, in the profile's order, registered
 * and fit for this session (inner/outer). Sets error when none. */
GPtrArray *joind_eap_session_allowed_methods(JoindEapSession *session, GError **error);
void joind_eap_session_clear_method(JoindEapSession *session);
void joind_eap_session_wipe_keys(JoindEapSession *session);
/* TRUE when the last get_secret() started an agent request. */
gboolean joind_eap_session_secret_in_flight(JoindEapSession *session);

/* joind-eap-secret.c */
GHashTable *joind_eap_secret_table_new(void);
/* Forget the session's agent request (cancelling it) without calling back. */
void joind_eap_secret_request_drop(JoindEapSession *session);
/* After the root session succeeded: with EAP-RememberCredentials=true,
 * writes what agents supplied into the profile from an idle callback. */
void joind_eap_secret_remember_later(JoindEapSession *session);
/* Do the values of keys (full keys) in profile equal secrets an agent
 * supplied? If so they count from now on as the profile's. */
gboolean joind_eap_secret_adopt(JoindEapSession *root, JoindProfile *profile,
                                const gchar *const *keys);
/* <prefix>Identity as an agent supplied it, or NULL. */
const gchar *joind_eap_session_lookup_agent_identity(JoindEapSession *session);

/* joind-eap-peer.c */
void joind_eap_peer_receive(JoindEapSession *session, const JoindEapPacket *packet);
/* Restart the conversation (lower layer restart, new Request/Identity). */
void joind_eap_peer_restart(JoindEapSession *session, const gchar *reason);
/* An agent answered: run the held request again. */
void joind_eap_peer_resume(JoindEapSession *session);
/* Printable, bounded copy of text from the wire for logs and sentences. */

G_END_DECLS
