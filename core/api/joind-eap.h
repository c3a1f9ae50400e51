/* joind-eap.h - running an EAP conversation, and registering EAP methods.
 *
 * Two kinds of plugins meet here:
 *
 * Device plugins (wired 802.1X, WiFi) run the peer side of an EAP conversation
 * (RFC 3748, state machine of RFC 4137) with a JoindEapSession: create one for
 * a profile, feed it every EAP packet the authenticator sends
 * (joind_eap_session_rx()), transmit what its send callback hands back, and
 * learn the outcome from the other callbacks. On success the MSK and EMSK are
 * available for key derivation. The session has no timers: retransmissions
 * and give-up periods belong to the lower layer (802.1X authWhile/heldWhile).
 *
 * EAP method plugins (md5, tls, peap, ...) register a JoindEapMethodOps table
 * from their init() (JOIND_EAP_METHOD_PLUGIN_DEFINE writes the whole module).
 * Profiles are read after the method plugins have started, and each profile's
 * EAP-Method is checked against this registry then (joind_eap_check_profile()),
 * each method checking its own keys. The session selects a method from the profile's
 * EAP-Method key, creates the method's per-session state and hands it each
 * Request of its type. Methods read their settings and secrets through the
 * session, so the same method runs as an outer method ("EAP-" keys) or, inside
 * a tunnel, as an inner one ("EAP-PEAP-Phase2-" keys) without knowing which.
 *
 * Tunnelled methods (PEAP, TTLS) run the inner conversation with an inner
 * session (joind_eap_session_new_inner()): they feed it the decrypted inner
 * EAP packets (rebuilding headers the tunnel omits) and encrypt what its send
 * callback produces. The inner session finds its method through the same
 * registry, restricted to methods flagged JOIND_EAP_METHOD_FLAG_INNER.
 *
 * Profile keys ([Security] group; "<P>" is the session's prefix, "EAP-" for
 * the outer session):
 *   <P>Method                  method name as registered ("MD5", "TLS", ...)
 *   <P>Identity                identity sent in Response/Identity
 *   <P>Password                password (MD5, MSCHAPv2, GTC, PWD, ...)
 *   <P>TLS-CACert              PEM file of trusted CA certificates
 *   <P>TLS-SystemCA            true: trust the system CA store (explicit opt-in,
 *                              only used when no CACert is given)
 *   <P>TLS-ServerKeyPin        sha256/BASE64 (';'-separated): the server keys to
 *                              accept, alone or with a CA (the pin decides)
 *   <P>TLS-ClientCert          PEM certificate, or a PKCS#12 bundle
 *   <P>TLS-ClientKey           PEM / PKCS#8 (possibly encrypted) key, or PKCS#12
 *   <P>TLS-ClientKeyBundle     PKCS#12 or PEM with certificate, chain and key
 *                              (instead of ClientCert and ClientKey)
 *   <P>TLS-ClientKeyPassphrase passphrase of the key or bundle
 *   <P>TLS-ServerDomainMask    server name(s) to accept, ';'-separated, '*.' masks
 *   <P>TLS-FastReauthentication false: never resume a TLS session (default true)
 *   <P>TLS-Version-Min/Max     "1.2" or "1.3"
 * Certificate and key settings take a path or "embed:<name>" ([@pem@name]).
 * EAP-RememberCredentials     true: once an authentication succeeded, the
 *                            credentials agents supplied for it (identities,
 *                            passwords, key passphrases) are written into
 *                            the profile file (atomically, mode 0600), so the
 *                            next one asks nobody; default false: they live
 *                            only as long as the session
 * (PEAP and TTLS use the same TLS keys with "PEAP-"/"TTLS-" in place of "TLS-".)
 * Relative file paths are relative to the profile's directory.
 */
#pragma once

#include <gio/gio.h>

#include "joind-agent.h"
#include "joind-error.h"
#include "joind-export.h"
#include "joind-plugin.h"
#include "joind-profile.h"

G_BEGIN_DECLS

/* EAP codes (RFC 3748 section 4) */
#define JOIND_EAP_CODE_REQUEST  1
#define JOIND_EAP_CODE_RESPONSE 2
#define JOIND_EAP_CODE_SUCCESS  3
#define JOIND_EAP_CODE_FAILURE  4

/* EAP method types (IANA) */
#define JOIND_EAP_TYPE_IDENTITY     1
#define JOIND_EAP_TYPE_NOTIFICATION 2
#define JOIND_EAP_TYPE_NAK          3
#define JOIND_EAP_TYPE_MD5          4
#define JOIND_EAP_TYPE_GTC          6
#define JOIND_EAP_TYPE_TLS          13
#define JOIND_EAP_TYPE_TTLS         21
#define JOIND_EAP_TYPE_PEAP         25
#define JOIND_EAP_TYPE_MSCHAPV2     26
#define JOIND_EAP_TYPE_PWD          52
#define JOIND_EAP_TYPE_EXPANDED     254

/* Sizes of the keys a key-generating method exports (RFC 5247). */
#define JOIND_EAP_MSK_LEN  64
#define JOIND_EAP_EMSK_LEN 64

typedef struct _JoindEapSession JoindEapSession;

/* The peer's state (RFC 4137's long-lived states; the per-packet steps
 * RECEIVED, SEND_RESPONSE, DISCARD, RETRANSMIT are not states here). */
typedef enum {
	JOIND_EAP_STATE_IDLE,     /* waiting for the authenticator's first Request */
	JOIND_EAP_STATE_IDENTITY, /* answered Request/Identity, no method yet */
	JOIND_EAP_STATE_METHOD,   /* a method is running */
	JOIND_EAP_STATE_PAUSED,   /* waiting for a secret from the agent */
	JOIND_EAP_STATE_SUCCESS,
	JOIND_EAP_STATE_FAILURE,
	/* the last value, which name tables are checked against */
	JOIND_EAP_STATE_LAST = JOIND_EAP_STATE_FAILURE,
} JoindEapState;

/* Where a failed conversation stopped, for error sentences. */
typedef enum {
	JOIND_EAP_STAGE_IDENTITY,    /* before or right after Response/Identity */
	JOIND_EAP_STAGE_NEGOTIATION, /* choosing a method (NAK) */
	JOIND_EAP_STAGE_METHOD,      /* inside the method */
	JOIND_EAP_STAGE_RESULT,      /* the authenticator's EAP-Failure after the method */
	/* the last value, which name tables are checked against */
	JOIND_EAP_STAGE_LAST = JOIND_EAP_STAGE_RESULT,
} JoindEapStage;

/* What the session reports to its owner. send is required, the rest may be
 * NULL. The callbacks run from within joind_eap_session_rx() or from the
 * completion of an agent request; they may unref the session. */
typedef struct {
	/* A complete EAP packet (code, id, length, data) to transmit. */
	void (*send)(JoindEapSession *session, const guint8 *packet, gsize len, gpointer user_data);
	/* An (re-)authentication has begun: Response/Identity was sent
	 * (identity NULL when the authenticator skipped Identity). */
	void (*started)(JoindEapSession *session, const gchar *identity, gpointer user_data);
	/* The authenticator proposed a method the profile allows; it now runs. */
	void (*method_selected)(JoindEapSession *session, const gchar *method, gpointer user_data);
	/* EAP-Success accepted; joind_eap_session_get_msk() now has the keys
	 * if the method generated any. */
	void (*succeeded)(JoindEapSession *session, gpointer user_data);
	/* The conversation failed. error: JOIND_ERROR_AUTHENTICATION_FAILED (the
	 * authenticator or the method rejected), JOIND_ERROR_NO_AGENT (a secret
	 * is missing and nobody can supply it), JOIND_ERROR_ABORTED (the agent
	 * request was cancelled), JOIND_ERROR_INVALID_ARGS (the profile is
	 * wrong); its message is a sentence for a person. */
	void (*failed)(JoindEapSession *session, JoindEapStage stage, const GError *error,
	               gpointer user_data);
	/* Text of an EAP Request/Notification (sanitised to printable UTF-8). */
	void (*notification)(JoindEapSession *session, const gchar *text, gpointer user_data);
} JoindEapSessionCallbacks;

/* ---- For device plugins ---- */

/* profile: its [Security] keys configure the session.
 * core: for agent requests (may be NULL: then no agent can be asked).
 * object_path: the D-Bus object the secrets are for (the device). */
JOIND_EXPORT JoindEapSession *joind_eap_session_new(JoindCore *core, JoindProfile *profile,
                                                    const gchar *object_path,
                                                    const JoindEapSessionCallbacks *callbacks,
                                                    gpointer user_data);
/* profile is a newer snapshot of the session's profile file (its
 * "profile-changed" CHANGED): when it differs only by [Security] values
 * that equal secrets an agent supplied to this session (as after
 * EAP-RememberCredentials wrote them back), the session takes the new
 * snapshot and returns TRUE: nothing it authenticates with changed, so the
 * caller need not restart. FALSE otherwise: restart with a new session
 * (ABI 1.2). */
JOIND_EXPORT gboolean joind_eap_session_adopt_profile(JoindEapSession *session,
                                                      JoindProfile *profile);
/* The client the session's agent requests are for (joind-agent.h: its
 * own agent is asked), e.g. the caller of the Connect() that started the
 * conversation; NULL (the default): nobody's in particular (ABI 1.4). */
JOIND_EXPORT void joind_eap_session_set_requester(JoindEapSession *session, const gchar *requester);
JOIND_EXPORT JoindEapSession *joind_eap_session_ref(JoindEapSession *session);
/* Dropping the last reference cancels a pending agent request (without
 * calling back) and wipes keys and secrets. */
JOIND_EXPORT void joind_eap_session_unref(JoindEapSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindEapSession, joind_eap_session_unref)

/* Checks the profile without talking to anyone: a method is configured and
 * registered, and the method's own settings check passes. The error names
 * the profile file, line and key. */
JOIND_EXPORT gboolean joind_eap_session_check(JoindEapSession *session, GError **error);

/* One received EAP packet, from its first octet (code); octets after the EAP
 * Length are lower-layer padding and ignored. Returns FALSE with an error
 * for a malformed packet (which is discarded); everything else, including
 * packets the state machine discards, returns TRUE. */
JOIND_EXPORT gboolean joind_eap_session_rx(JoindEapSession *session, const guint8 *data, gsize len,
                                           GError **error);

/* Back to IDLE (lower layer restarted: carrier loss, EAPOL-Start sent anew).
 * Secrets an agent supplied are kept for the next conversation; keys are
 * wiped. Does not call back. */
JOIND_EXPORT void joind_eap_session_reset(JoindEapSession *session);

/* Largest EAP packet the lower layer carries (default 1400); methods that
 * fragment (TLS) size their fragments from it. */
JOIND_EXPORT void joind_eap_session_set_mtu(JoindEapSession *session, gsize mtu);
JOIND_EXPORT gsize joind_eap_session_get_mtu(JoindEapSession *session);

JOIND_EXPORT JoindEapState joind_eap_session_get_state(JoindEapSession *session);
/* The identity sent in the last Response/Identity, or NULL. */
JOIND_EXPORT const gchar *joind_eap_session_get_identity(JoindEapSession *session);
/* The running method's name; NULL until the authenticator proposes one
 * the profile allows, and again after a restart. */
JOIND_EXPORT const gchar *joind_eap_session_get_method_name(JoindEapSession *session);
/* After succeeded: the keys, or NULL if the method generated none. */
JOIND_EXPORT const guint8 *joind_eap_session_get_msk(JoindEapSession *session, gsize *len);
JOIND_EXPORT const guint8 *joind_eap_session_get_emsk(JoindEapSession *session, gsize *len);

JOIND_EXPORT const gchar *joind_eap_state_to_string(JoindEapState state);
JOIND_EXPORT const gchar *joind_eap_stage_to_string(JoindEapStage stage);

/* ---- For EAP method plugins ---- */

typedef enum {
	JOIND_EAP_METHOD_FLAG_NONE = 0,
	JOIND_EAP_METHOD_FLAG_OUTER = 1 << 0, /* may run directly on the lower layer */
	JOIND_EAP_METHOD_FLAG_INNER = 1 << 1, /* may run inside a tunnel */
	/* Needs <P>Identity and <P>Password: when the profile has no identity the
	 * session asks the agent for user name and password together. */
	JOIND_EAP_METHOD_FLAG_PASSWORD = 1 << 2,
} JoindEapMethodFlags;

/* RFC 4137 methodState and decision, which decide whether the session
 * accepts EAP-Success/Failure. A method starts CONT/FAIL and sets them with
 * joind_eap_session_set_decision() as it learns more:
 *   MAY_CONT: the authenticator may end the conversation now (an EAP-Failure
 *             is accepted); DONE: the method has finished.
 *   COND_SUCC: success is acceptable if the authenticator says so;
 *   UNCOND_SUCC: the method knows it succeeded (a lost EAP-Success is fine). */
typedef enum {
	JOIND_EAP_METHOD_STATE_CONT,
	JOIND_EAP_METHOD_STATE_MAY_CONT,
	JOIND_EAP_METHOD_STATE_DONE,
} JoindEapMethodState;

typedef enum {
	JOIND_EAP_DECISION_FAIL,
	JOIND_EAP_DECISION_COND_SUCC,
	JOIND_EAP_DECISION_UNCOND_SUCC,
} JoindEapDecision;

typedef enum {
	/* response holds the Type-Data to send (possibly empty, e.g. an ACK) */
	JOIND_EAP_METHOD_RESPOND,
	/* Waiting for a secret (joind_eap_session_get_secret() returned
	 * PENDING): handle_request is called again with the same request once it
	 * arrives; the method must not have changed its state. Or waiting for an
	 * inner session: the method answers later with
	 * joind_eap_session_method_reply() / _method_fail(). */
	JOIND_EAP_METHOD_PENDING,
	/* Ignore the request (integrity check failed, ...): nothing is sent. */
	JOIND_EAP_METHOD_DISCARD,
	/* The method gave up; error says why (a sentence). Any Type-Data in
	 * response (a TLS alert) is still sent before the session fails. */
	JOIND_EAP_METHOD_FAIL,
} JoindEapMethodResult;

/* Sets error to the JOIND_ERROR code with a printf-style message (a
 * sentence) and gives JOIND_EAP_METHOD_FAIL, so that a method can end in
 * "return joind_eap_method_fail(...)" (ABI 1.4). */
#define joind_eap_method_fail(error, code, ...) \
	(joind_set_error((error), (code), __VA_ARGS__), JOIND_EAP_METHOD_FAIL)

struct _JoindEapMethodOps {
	guint8 type;       /* JOIND_EAP_TYPE_* */
	const gchar *name; /* "MD5", "TLS": the EAP-Method value, case-insensitive */
	guint32 flags;     /* JoindEapMethodFlags */
	/* Optional: validate the settings without network or agent. */
	gboolean (*check_settings)(JoindEapSession *session, GError **error);
	/* Per-session state, created when the authenticator proposes the method.
	 * Failing here fails the conversation (use JOIND_ERROR_INVALID_ARGS for
	 * profile errors). */
	gpointer (*state_new)(JoindEapSession *session, GError **error);
	void (*state_free)(gpointer state);
	/* One Request of this type: data/len is the Type-Data (after the Type
	 * octet), id the Request's identifier. Append the response's Type-Data
	 * to response; the session adds the EAP header and Type. */
	JoindEapMethodResult (*handle_request)(JoindEapSession *session, gpointer state, guint8 id,
	                                       const guint8 *data, gsize len, GByteArray *response,
	                                       GError **error);
	/* Optional (ABI 1.4): checks the method's own [Security] keys of a
	 * profile as the file is read, before any session: the shape of the
	 * values only, no files opened, nobody asked (check_settings does the
	 * rest when a session starts). The method's keys start with prefix
	 * ("EAP-", or e.g. "EAP-PEAP-Phase2-" inside a tunnel); a tunnel checks
	 * its inner method with joind_eap_check_profile(). Errors start with
	 * joind_profile_describe_key(). */
	gboolean (*check_profile)(JoindProfile *profile, const gchar *prefix, GError **error);
};

/* The registry is process-wide. Registering a second method with the same
 * type or name fails with JOIND_ERROR_BUSY. The table must stay valid until
 * unregistered (plugins register in init() and unregister in shutdown()). */
JOIND_EXPORT gboolean joind_eap_register_method(const JoindEapMethodOps *ops, GError **error);
JOIND_EXPORT void joind_eap_unregister_method(const JoindEapMethodOps *ops);
JOIND_EXPORT const JoindEapMethodOps *joind_eap_find_method(const gchar *name);
JOIND_EXPORT const JoindEapMethodOps *joind_eap_find_method_by_type(guint8 type);

/* Checks <prefix>Method of a profile as it is read (ABI 1.4): it names
 * methods, each provided by a registered plugin and allowed where it runs
 * (outside a tunnel for "EAP-", inside one otherwise), and each method's
 * check_profile passes. The error names the file, line and key; for a
 * method no plugin provides it says so. */
JOIND_EXPORT gboolean joind_eap_check_profile(JoindProfile *profile, const gchar *prefix,
                                              GError **error);

/* The whole module of an EAP method plugin: its descriptor (naming ops as
 * the method it provides, so that the module is opened only when a profile
 * first names the method), an init() that registers ops (a
 * JoindEapMethodOps variable the method's room exports) and a shutdown()
 * that unregisters it. */
#define JOIND_EAP_METHOD_PLUGIN_DEFINE(name_, description_, ops_) \
	JOIND_EAP_METHOD_PLUGIN_DEFINE_CONFIG(name_, description_, ops_, NULL)

/* The same with the main.conf keys the method reads (a JoindConfigKey
 * table ended by an entry whose group is NULL): declared from the
 * plugin's manifest at start, the module still opened only on first use;
 * read with joind_eap_session_get_config_string() (ABI 3.0). */
#define JOIND_EAP_METHOD_PLUGIN_DEFINE_CONFIG(name_, description_, ops_, config_keys_)             \
	static gboolean joind_eap_method_plugin_init(JoindCore *core, GError **error)              \
	{                                                                                          \
		return joind_eap_register_method(&(ops_), error);                                  \
	}                                                                                          \
	static void joind_eap_method_plugin_shutdown(JoindCore *core)                              \
	{                                                                                          \
		joind_eap_unregister_method(&(ops_));                                              \
	}                                                                                          \
	static const JoindEapMethodOps *const joind_eap_method_plugin_methods[] = {&(ops_), NULL}; \
	JOIND_PLUGIN_DEFINE_FULL(name_, description_, JOIND_PLUGIN_PRIORITY_EAP_METHOD,            \
	                         joind_eap_method_plugin_init, joind_eap_method_plugin_shutdown,   \
	                         joind_eap_method_plugin_methods, (config_keys_))

/* Settings, read from [Security] <prefix><key> of the session's profile;
 * NULL when absent. key is given without the prefix: "Password",
 * "TLS-CACert". */
JOIND_EXPORT gchar *joind_eap_session_get_setting(JoindEapSession *session, const gchar *key);
JOIND_EXPORT gboolean joind_eap_session_get_setting_bool(JoindEapSession *session, const gchar *key,
                                                         gboolean default_value);
/* A file path setting, relative paths resolved against the profile's
 * directory; NULL when absent. iwd's "embed:<name>" (a PEM group of the
 * profile itself) comes back as it is: read it with
 * joind_eap_session_get_embedded_pem(). */
JOIND_EXPORT gchar *joind_eap_session_get_setting_path(JoindEapSession *session, const gchar *key);
/* A main.conf string the method's plugin declared (its descriptor's
 * config_keys: declared from its manifest at start, before the module is
 * opened), read through the core the session was made with. NULL when the
 * session has no core, the value is empty, or no plugin declared the key
 * (its plugin is disabled). Methods that share a key (TLS, PEAP and TTLS
 * present client keys alike) read the one declaration of it (ABI 3.0). */
JOIND_EXPORT gchar *joind_eap_session_get_config_string(JoindEapSession *session,
                                                        const gchar *group, const gchar *key);
/* The text of the profile's [@pem@name] group; NULL when it has none. */
JOIND_EXPORT const gchar *joind_eap_session_get_embedded_pem(JoindEapSession *session,
                                                             const gchar *name);
/* "<file>:<line>: <prefix><key>" (or "<file>: <prefix><key>" when the key is
 * absent), to start error sentences about a setting. */
JOIND_EXPORT gchar *joind_eap_session_describe_setting(JoindEapSession *session, const gchar *key);

typedef enum {
	JOIND_EAP_SECRET_AVAILABLE, /* *value points to it (valid until the session
	                             * is reset or the secret forgotten) */
	JOIND_EAP_SECRET_PENDING,   /* the agent was asked: return
	                             * JOIND_EAP_METHOD_PENDING */
	JOIND_EAP_SECRET_FAILED,    /* error set (no agent can be asked):
	                             * return JOIND_EAP_METHOD_FAIL with it */
} JoindEapSecretStatus;

/* A secret: <prefix><key> from the profile, else one an agent supplied to
 * this session earlier, else asks the agent for it (kind says which
 * question; JOIND_SECRET_USER_PASSWORD names the session's identity,
 * JOIND_SECRET_USER_NAME_AND_PASSWORD also fills <prefix>Identity). When the
 * agent answers, the session re-runs the pending request; when the agent
 * request fails later (agent gone, cancelled) the session fails the
 * conversation itself with NO_AGENT or ABORTED. */
JOIND_EXPORT JoindEapSecretStatus joind_eap_session_get_secret(JoindEapSession *session,
                                                               const gchar *key,
                                                               JoindSecretKind kind,
                                                               const gchar **value, GError **error);
/* Drop a secret an agent supplied (it was wrong), so the next
 * conversation asks again. Profile values are never forgotten. */
JOIND_EXPORT void joind_eap_session_forget_secret(JoindEapSession *session, const gchar *key);

/* The method's progress; see JoindEapMethodState. */
JOIND_EXPORT void joind_eap_session_set_decision(JoindEapSession *session,
                                                 JoindEapMethodState method_state,
                                                 JoindEapDecision decision);
/* Key material of a key-generating method; copied, wiped with the session.
 * msk_len is at least 64 (RFC 3748), emsk may be NULL. */
JOIND_EXPORT void joind_eap_session_set_keys(JoindEapSession *session, const guint8 *msk,
                                             gsize msk_len, const guint8 *emsk, gsize emsk_len);
/* What the method learned about why the authenticator is about to reject
 * (a TLS alert it sent, a method-specific failure code): added to the
 * sentence of the EAP-Failure that follows. */
JOIND_EXPORT void joind_eap_session_set_peer_reason(JoindEapSession *session, const gchar *reason);
/* Answer a request for which handle_request returned PENDING without a
 * secret request of its own (a tunnel waiting for its inner session). */
JOIND_EXPORT void joind_eap_session_method_reply(JoindEapSession *session, const guint8 *type_data,
                                                 gsize len);
JOIND_EXPORT void joind_eap_session_method_fail(JoindEapSession *session, const GError *error);

/* ---- For tunnelled methods ---- */

/* An inner conversation: settings under prefix (e.g. "EAP-PEAP-Phase2-"),
 * the outer session's profile, agent and supplied secrets, methods limited
 * to JOIND_EAP_METHOD_FLAG_INNER. Its send callback gets the inner EAP
 * packets; a tunnel that carries no inner EAP-Success (PEAPv0) feeds the
 * inner session a synthesised one with the last identifier once the tunnel
 * reports success, and then reads the inner keys with get_msk(). */
JOIND_EXPORT JoindEapSession *joind_eap_session_new_inner(JoindEapSession *outer,
                                                          const gchar *prefix,
                                                          const JoindEapSessionCallbacks *callbacks,
                                                          gpointer user_data);
/* The settings prefix of a session ("EAP-" for an outer one). */
JOIND_EXPORT const gchar *joind_eap_session_get_prefix(JoindEapSession *session);
/* Data a method keeps across the conversations of one session (its
 * re-authentications), e.g. a TLS session to resume: held by the outer-most
 * session under key, freed with destroy when replaced, when set to NULL, or
 * when the session goes (a new profile snapshot means a new session, so
 * nothing outlives the settings it was made with). ABI 1.2. */
JOIND_EXPORT void joind_eap_session_set_data(JoindEapSession *session, const gchar *key,
                                             gpointer data, GDestroyNotify destroy);
JOIND_EXPORT gpointer joind_eap_session_get_data(JoindEapSession *session, const gchar *key);

/* The certificate the server presented in the session's last TLS
 * handshake, set by the TLS-based methods (ABI 1.5), as a{sv}:
 *   "subject", "issuer"       RFC 2253 names
 *   "not-before", "not-after" validity, as OpenSSL prints times
 *   "pin"                     "sha256/BASE64" of its SubjectPublicKeyInfo
 *   "pin-setting"             the key that would pin it ("EAP-PEAP-ServerKeyPin")
 *   "trusted"                 b: it passed the profile's trust settings
 *   "domain-mask-setting", "names"  when its names (", "-separated) matched
 *                             no mask of that key
 * and once the handshake is done (ABI 2.1) "tls-version" ("TLSv1.3"),
 * "cipher" (the IANA name) and "resumed" (b: no certificate was shown, the
 * rest is the earlier handshake's). When a server is refused for want of
 * trust, this is what a person needs to decide whether to pin it: the core
 * keeps the last one of each profile for the diagnostics
 * (Daemon1.GetDiagnostics), which is where `joinctl ... trust` reads it.
 * set takes a floating reference (NULL clears); get returns NULL when none
 * (transfer none). */
JOIND_EXPORT void joind_eap_session_set_server_cert(JoindEapSession *session, GVariant *details);
JOIND_EXPORT GVariant *joind_eap_session_get_server_cert(JoindEapSession *session);
/* The command that pins a refused server (ABI 2.1): when the conversation
 * fails because the server's certificate was not trusted, the failure
 * sentence ends by naming "<command> <argument>" (argument quoted for a
 * shell when it needs to be), e.g. "joinctl wired trust eth0". Device
 * plugins set it; the TLS methods know nothing of networks or ports. */
JOIND_EXPORT void joind_eap_session_set_trust_command(JoindEapSession *session,
                                                      const gchar *command, const gchar *argument);

/* Text that came from the peer (prompts, notifications, server names),
 * made safe for logs and sentences: cut at a NUL or 256 octets, valid UTF-8,
 * unprintable characters as '?', double quotes as single ones. */
JOIND_EXPORT gchar *joind_eap_sanitize_text(const guint8 *data, gsize len);

G_END_DECLS
