/* joind-eap-session.c - an EAP peer conversation: its lifetime, the settings
 * and secrets methods read through it, and the outcome it reports. The
 * packet handling is in joind-eap-peer.c. */
#undef G_LOG_DOMAIN
#define G_LOG_DOMAIN "joind-eap"

#include <string.h>

#include "joind-agent.h"
#include "joind-core.h"
#include "joind-eap-method.h"
#include "joind-eap-private.h"
#include "joind-eap-seen.h"
#include "joind-profile-private.h"
#include "joind-error.h"
#include "joind-secret.h"
#include "joind-log.h"

#define EAP_DEFAULT_MTU 1400
#define EAP_MIN_MTU     64

static void
eap_provider_core_request(gpointer data, JoindSecretKind kind, const gchar *object_path,
                          const gchar *user, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
	joind_core_request_secret(data, kind, object_path, user, cancellable, callback, user_data);
}

static void
eap_provider_core_request_for(gpointer data, const gchar *requester, JoindSecretKind kind,
                              const gchar *object_path, const gchar *user,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
	joind_core_request_secret_for(data, requester, kind, object_path, user, cancellable,
	                              callback, user_data);
}

static JoindSecret *
eap_provider_core_finish(gpointer data, GAsyncResult *result, GError **error)
{
	return joind_core_request_secret_finish(data, result, error);
}

static gboolean
eap_provider_core_has_agent(gpointer data)
{
	return joind_core_has_agent(data);
}

static const JoindEapSecretProvider eap_core_provider = {
        .request = eap_provider_core_request,
        .finish = eap_provider_core_finish,
        .has_agent = eap_provider_core_has_agent,
        .request_for = eap_provider_core_request_for,
};

static JoindEapSession *
eap_session_alloc(const gchar *prefix, const JoindEapSessionCallbacks *callbacks,
                  gpointer user_data)
{
	JoindEapSession *s = g_new0(JoindEapSession, 1);

	g_return_val_if_fail(callbacks != NULL && callbacks->send != NULL, NULL);
	s->ref_count = 1;
	s->prefix = g_strdup(prefix);
	s->callbacks = *callbacks;
	s->user_data = user_data;
	s->mtu = EAP_DEFAULT_MTU;
	s->state = JOIND_EAP_STATE_IDLE;
	s->last_id = -1;
	return s;
}

static void
eap_session_init_root(JoindEapSession *s, const gchar *object_path)
{
	s->object_path = g_strdup(object_path);
	s->label = g_strdup(object_path != NULL ? object_path : "eap");
	s->secrets = joind_eap_secret_table_new();
}

JoindEapSession *
joind_eap_session_new(JoindCore *core, JoindProfile *profile, const gchar *object_path,
                      const JoindEapSessionCallbacks *callbacks, gpointer user_data)
{
	JoindEapSession *s;

	g_return_val_if_fail(JOIND_IS_PROFILE(profile), NULL);
	s = eap_session_alloc("EAP-", callbacks, user_data);
	eap_session_init_root(s, object_path);
	s->profile = g_object_ref(profile);
	if (core != NULL) {
		s->core = g_object_ref(core);
		joind_eap_session_set_secret_provider(s, &eap_core_provider, core);
	}
	return s;
}

JoindEapSession *
joind_eap_session_new_for_keyfile(GKeyFile *keyfile, const JoindEapSessionCallbacks *callbacks,
                                  gpointer user_data)
{
	JoindEapSession *s = eap_session_alloc("EAP-", callbacks, user_data);

	eap_session_init_root(s, NULL);
	s->keyfile = g_key_file_ref(keyfile);
	return s;
}

JoindEapSession *
joind_eap_session_new_inner(JoindEapSession *outer, const gchar *prefix,
                            const JoindEapSessionCallbacks *callbacks, gpointer user_data)
{
	JoindEapSession *s;

	g_return_val_if_fail(outer != NULL && prefix != NULL, NULL);
	s = eap_session_alloc(prefix, callbacks, user_data);
	s->outer = outer;
	s->label = g_strdup_printf("%s inner %s", outer->label, prefix);
	return s;
}

void
joind_eap_session_set_secret_provider(JoindEapSession *session,
                                      const JoindEapSecretProvider *provider, gpointer data)
{
	JoindEapSession *root = joind_eap_session_root(session);

	if (provider != NULL)
		root->provider = *provider;
	else
		memset(&root->provider, 0, sizeof(root->provider));
	root->provider_data = data;
}

void
joind_eap_session_set_requester(JoindEapSession *session, const gchar *requester)
{
	JoindEapSession *root = joind_eap_session_root(session);

	g_free(root->requester);
	root->requester = g_strdup(requester);
}

gboolean
joind_eap_session_adopt_profile(JoindEapSession *session, JoindProfile *profile)
{
	g_auto(GStrv) changed = NULL;

	g_return_val_if_fail(session != NULL && JOIND_IS_PROFILE(profile), FALSE);
	if (session->outer != NULL || session->profile == NULL)
		return FALSE;
	if (profile == session->profile)
		return TRUE;
	changed = joind_profile_security_changes(session->profile, profile);
	if (changed == NULL ||
	    !joind_eap_secret_adopt(session, profile, (const gchar *const *)changed))
		return FALSE;
	g_debug("%s: %s now holds what the agent supplied; the conversation goes on",
	        session->label, joind_profile_get_path(profile));
	g_set_object(&session->profile, profile);
	return TRUE;
}

JoindEapSession *
joind_eap_session_ref(JoindEapSession *session)
{
	g_return_val_if_fail(session != NULL, NULL);
	session->ref_count++;
	return session;
}

static void
eap_session_free(JoindEapSession *s)
{
	joind_eap_session_clear_method(s);
	joind_eap_session_wipe_keys(s);
	if (s->secret_request != NULL)
		joind_eap_secret_request_drop(s);
	g_clear_pointer(&s->held_request, g_bytes_unref);
	if (s->last_response != NULL)
		joind_secret_clear(s->last_response->data, s->last_response->len);
	g_clear_pointer(&s->last_response, g_byte_array_unref);
	g_clear_pointer(&s->secrets, g_hash_table_unref);
	g_datalist_clear(&s->data);
	g_clear_pointer(&s->server_cert, g_variant_unref);
	g_free(s->trust_command);
	g_clear_object(&s->profile);
	g_clear_object(&s->core);
	g_clear_pointer(&s->keyfile, g_key_file_unref);
	g_free(s->object_path);
	g_free(s->requester);
	g_free(s->identity);
	g_free(s->notification);
	g_free(s->peer_reason);
	g_free(s->prefix);
	g_free(s->label);
	g_free(s);
}

void
joind_eap_session_unref(JoindEapSession *session)
{
	if (session == NULL)
		return;
	g_return_if_fail(session->ref_count > 0);
	if (--session->ref_count == 0)
		eap_session_free(session);
}

JoindEapSession *
joind_eap_session_root(JoindEapSession *session)
{
	while (session->outer != NULL)
		session = session->outer;
	return session;
}

const gchar *
joind_eap_session_get_prefix(JoindEapSession *session)
{
	return session->prefix;
}

void
joind_eap_session_set_data(JoindEapSession *session, const gchar *key, gpointer data,
                           GDestroyNotify destroy)
{
	JoindEapSession *root = joind_eap_session_root(session);

	g_return_if_fail(key != NULL);
	g_datalist_set_data_full(&root->data, key, data, destroy);
}

gpointer
joind_eap_session_get_data(JoindEapSession *session, const gchar *key)
{
	JoindEapSession *root = joind_eap_session_root(session);

	g_return_val_if_fail(key != NULL, NULL);
	return g_datalist_get_data(&root->data, key);
}

void
joind_eap_session_set_server_cert(JoindEapSession *session, GVariant *details)
{
	JoindEapSession *root = joind_eap_session_root(session);
	gboolean trusted = TRUE;

	g_return_if_fail(details == NULL || g_variant_is_of_type(details, G_VARIANT_TYPE_VARDICT));
	if (details != NULL) {
		g_variant_ref_sink(details);
		g_variant_lookup(details, "trusted", "b", &trusted);
		if (root->profile != NULL)
			joind_eap_seen_record(root->profile, details);
	}
	root->server_refused = !trusted;
	g_clear_pointer(&root->server_cert, g_variant_unref);
	root->server_cert = details;
}

void
joind_eap_session_set_trust_command(JoindEapSession *session, const gchar *command,
                                    const gchar *argument)
{
	JoindEapSession *root = joind_eap_session_root(session);
	g_autofree gchar *quoted = NULL;

	g_free(root->trust_command);
	root->trust_command = NULL;
	if (command == NULL)
		return;
	/* Quoted only when a shell would split or expand it: the sentence is
	 * read by people, who copy it. */
	if (argument != NULL && argument[0] != '\0' &&
	    strspn(argument, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	                     "._-@+:/,=") == strlen(argument))
		quoted = g_strdup(argument);
	else
		quoted = g_shell_quote(argument != NULL ? argument : "");
	root->trust_command = g_strdup_printf("%s %s", command, quoted);
}

GVariant *
joind_eap_session_get_server_cert(JoindEapSession *session)
{
	return joind_eap_session_root(session)->server_cert;
}

void
joind_eap_session_set_mtu(JoindEapSession *session, gsize mtu)
{
	session->mtu = MAX(mtu, EAP_MIN_MTU);
}

gsize
joind_eap_session_get_mtu(JoindEapSession *session)
{
	return session->mtu;
}

JoindEapState
joind_eap_session_get_state(JoindEapSession *session)
{
	return session->state;
}

const gchar *
joind_eap_session_get_identity(JoindEapSession *session)
{
	return session->identity;
}

const gchar *
joind_eap_session_get_method_name(JoindEapSession *session)
{
	return session->method != NULL ? session->method->name : NULL;
}

const guint8 *
joind_eap_session_get_msk(JoindEapSession *session, gsize *len)
{
	if (len != NULL)
		*len = session->state == JOIND_EAP_STATE_SUCCESS ? session->msk_len : 0;
	return session->state == JOIND_EAP_STATE_SUCCESS ? session->msk : NULL;
}

const guint8 *
joind_eap_session_get_emsk(JoindEapSession *session, gsize *len)
{
	if (len != NULL)
		*len = session->state == JOIND_EAP_STATE_SUCCESS ? session->emsk_len : 0;
	return session->state == JOIND_EAP_STATE_SUCCESS ? session->emsk : NULL;
}

const gchar *
joind_eap_state_to_string(JoindEapState state)
{
	static const gchar *const names[] = {
	        [JOIND_EAP_STATE_IDLE] = "idle",       [JOIND_EAP_STATE_IDENTITY] = "identity",
	        [JOIND_EAP_STATE_METHOD] = "method",   [JOIND_EAP_STATE_PAUSED] = "paused",
	        [JOIND_EAP_STATE_SUCCESS] = "success", [JOIND_EAP_STATE_FAILURE] = "failure",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == JOIND_EAP_STATE_LAST + 1);

	return (guint)state < G_N_ELEMENTS(names) ? names[state] : "invalid";
}

const gchar *
joind_eap_stage_to_string(JoindEapStage stage)
{
	static const gchar *const names[] = {
	        [JOIND_EAP_STAGE_IDENTITY] = "identity",
	        [JOIND_EAP_STAGE_NEGOTIATION] = "method negotiation",
	        [JOIND_EAP_STAGE_METHOD] = "method",
	        [JOIND_EAP_STAGE_RESULT] = "result",
	};
	G_STATIC_ASSERT(G_N_ELEMENTS(names) == JOIND_EAP_STAGE_LAST + 1);

	return (guint)stage < G_N_ELEMENTS(names) ? names[stage] : "invalid";
}

void
joind_eap_session_set_state(JoindEapSession *session, JoindEapState state, const gchar *reason)
{
	if (session->state == state)
		return;
	const JoindLogSubject subject = {.machine = session->label};

	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE, &subject,
	                       joind_eap_state_to_string(session->state),
	                       joind_eap_state_to_string(state), reason);
	session->state = state;
}

void
joind_eap_session_fail(JoindEapSession *session, JoindEapStage stage, const GError *error)
{
	g_autoptr(GError) pointed = NULL;

	/* A server refused for want of trust: the sentence ends with the way
	 * through, the command that shows its certificate and pins it once a
	 * person has said yes. */
	if (session->outer == NULL && session->server_refused && session->trust_command != NULL &&
	    g_error_matches(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED)) {
		pointed = g_error_new(JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		                      "%s To trust this server from now on, run “%s”: it shows "
		                      "the certificate and writes its pin into the profile once "
		                      "you confirm.",
		                      error->message, session->trust_command);
		error = pointed;
	}
	joind_eap_session_set_state(session, JOIND_EAP_STATE_FAILURE, error->message);
	g_clear_pointer(&session->held_request, g_bytes_unref);
	joind_eap_session_wipe_keys(session);
	if (session->callbacks.failed != NULL)
		session->callbacks.failed(session, stage, error, session->user_data);
}

void
joind_eap_session_clear_method(JoindEapSession *session)
{
	if (session->method != NULL && session->method_state != NULL)
		session->method->state_free(session->method_state);
	session->method_state = NULL;
	session->method = NULL;
	session->method_progress = JOIND_EAP_METHOD_STATE_CONT;
	session->decision = JOIND_EAP_DECISION_FAIL;
}

void
joind_eap_session_wipe_keys(JoindEapSession *session)
{
	if (session->msk != NULL)
		joind_secret_clear(session->msk, session->msk_len);
	if (session->emsk != NULL)
		joind_secret_clear(session->emsk, session->emsk_len);
	g_clear_pointer(&session->msk, g_free);
	g_clear_pointer(&session->emsk, g_free);
	session->msk_len = session->emsk_len = 0;
}

void
joind_eap_session_reset(JoindEapSession *session)
{
	/* An agent request stays in flight: a person may be typing the answer,
	 * which the next conversation will use. */
	joind_eap_peer_restart(session, "lower layer restarted");
}

void
joind_eap_session_set_decision(JoindEapSession *session, JoindEapMethodState method_state,
                               JoindEapDecision decision)
{
	session->method_progress = method_state;
	session->decision = decision;
}

void
joind_eap_session_set_keys(JoindEapSession *session, const guint8 *msk, gsize msk_len,
                           const guint8 *emsk, gsize emsk_len)
{
	joind_eap_session_wipe_keys(session);
	if (msk != NULL && msk_len > 0) {
		session->msk = g_memdup2(msk, msk_len);
		session->msk_len = msk_len;
	}
	if (emsk != NULL && emsk_len > 0) {
		session->emsk = g_memdup2(emsk, emsk_len);
		session->emsk_len = emsk_len;
	}
}

/* ---- settings ---- */

static gchar *
eap_session_lookup(JoindEapSession *session, const gchar *key)
{
	JoindEapSession *root = joind_eap_session_root(session);
	g_autofree gchar *full = g_strconcat(session->prefix, key, NULL);

	if (root->profile != NULL)
		return joind_profile_get_string(root->profile, "Security", full);
	if (root->keyfile != NULL)
		return g_key_file_get_string(root->keyfile, "Security", full, NULL);
	return NULL;
}

gchar *
joind_eap_session_get_setting(JoindEapSession *session, const gchar *key)
{
	g_autofree gchar *value = eap_session_lookup(session, key);

	if (value != NULL)
		g_strstrip(value);
	if (value == NULL || *value == '\0')
		return NULL;
	return g_steal_pointer(&value);
}

gboolean
joind_eap_session_get_setting_bool(JoindEapSession *session, const gchar *key,
                                   gboolean default_value)
{
	g_autofree gchar *value = joind_eap_session_get_setting(session, key);

	if (value == NULL)
		return default_value;
	if (g_ascii_strcasecmp(value, "true") == 0 || g_strcmp0(value, "1") == 0)
		return TRUE;
	if (g_ascii_strcasecmp(value, "false") == 0 || g_strcmp0(value, "0") == 0)
		return FALSE;
	g_warning("%s: %s%s=%s is not a boolean, using %s", session->label, session->prefix, key,
	          value, default_value ? "true" : "false");
	return default_value;
}

static const gchar *
eap_session_source_path(JoindEapSession *session)
{
	JoindEapSession *root = joind_eap_session_root(session);

	return root->profile != NULL ? joind_profile_get_path(root->profile) : "(settings)";
}

gchar *
joind_eap_session_get_setting_path(JoindEapSession *session, const gchar *key)
{
	g_autofree gchar *value = joind_eap_session_get_setting(session, key);
	g_autofree gchar *dir = NULL;

	if (value == NULL || g_path_is_absolute(value) || g_str_has_prefix(value, "embed:"))
		return g_steal_pointer(&value);
	dir = g_path_get_dirname(eap_session_source_path(session));
	return g_build_filename(dir, value, NULL);
}

const gchar *
joind_eap_session_get_embedded_pem(JoindEapSession *session, const gchar *name)
{
	JoindEapSession *root = joind_eap_session_root(session);

	return root->profile != NULL ? joind_profile_get_embedded_pem(root->profile, name) : NULL;
}

gchar *
joind_eap_session_describe_setting(JoindEapSession *session, const gchar *key)
{
	JoindEapSession *root = joind_eap_session_root(session);
	g_autofree gchar *full = g_strconcat(session->prefix, key, NULL);
	guint line = 0;

	if (root->profile != NULL)
		line = joind_profile_get_line(root->profile, "Security", full);
	if (line > 0)
		return g_strdup_printf("%s:%u: %s", eap_session_source_path(session), line, full);
	return g_strdup_printf("%s: %s", eap_session_source_path(session), full);
}

GPtrArray *
joind_eap_session_allowed_methods(JoindEapSession *session, GError **error)
{
	g_autofree gchar *setting = joind_eap_session_get_setting(session, "Method");
	g_autofree gchar *where = joind_eap_session_describe_setting(session, "Method");

	return joind_eap_methods_parse(setting, where,
	                               session->outer != NULL ? JOIND_EAP_METHOD_FLAG_INNER
	                                                      : JOIND_EAP_METHOD_FLAG_OUTER,
	                               error);
}

gboolean
joind_eap_session_check(JoindEapSession *session, GError **error)
{
	g_autoptr(GPtrArray) methods = joind_eap_session_allowed_methods(session, error);

	if (methods == NULL)
		return FALSE;
	for (guint i = 0; i < methods->len; i++) {
		const JoindEapMethodOps *ops = g_ptr_array_index(methods, i);
		if (ops->check_settings != NULL && !ops->check_settings(session, error))
			return FALSE;
	}
	return TRUE;
}
