/* joind-eap-secret.c - secrets for EAP methods: the profile first, then what
 * an agent supplied to this session, then a question to the agent while the
 * conversation pauses. */
#undef G_LOG_DOMAIN
#define G_LOG_DOMAIN "joind-eap"

#include <string.h>

#include "joind-core.h"
#include "joind-eap-private.h"
#include "joind-error.h"
#include "joind-secret.h"

struct _JoindEapSecretRequest {
	JoindEapSession *session; /* NULL once the session let go of it */
	JoindSecretKind kind;
	gchar *key;      /* full key the secret is cached under */
	gchar *user_key; /* full key of the identity, USER_NAME_AND_PASSWORD */
	GCancellable *cancellable;
	JoindEapSecretProvider provider;
	gpointer provider_data;
};

typedef struct {
	gchar *value;
	gboolean from_agent;
} JoindEapSecretValue;

static void
eap_secret_value_free(gpointer data)
{
	JoindEapSecretValue *v = data;

	joind_secret_wipe(v->value);
	g_free(v);
}

GHashTable *
joind_eap_secret_table_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, eap_secret_value_free);
}

static void
eap_secret_request_free(JoindEapSecretRequest *req)
{
	g_clear_object(&req->cancellable);
	g_free(req->key);
	g_free(req->user_key);
	g_free(req);
}

void
joind_eap_secret_request_drop(JoindEapSession *session)
{
	JoindEapSecretRequest *req = session->secret_request;

	/* The completion frees req; cancelling also withdraws the question
	 * from the agent. */
	session->secret_request = NULL;
	req->session = NULL;
	g_cancellable_cancel(req->cancellable);
}

static void
eap_secret_store(JoindEapSession *session, const gchar *full_key, const gchar *value,
                 gboolean from_agent)
{
	JoindEapSession *root = joind_eap_session_root(session);
	JoindEapSecretValue *v = g_new0(JoindEapSecretValue, 1);

	v->value = g_strdup(value);
	v->from_agent = from_agent;
	g_hash_table_replace(root->secrets, g_strdup(full_key), v);
}

static const gchar *
eap_secret_lookup(JoindEapSession *session, const gchar *full_key)
{
	JoindEapSession *root = joind_eap_session_root(session);
	JoindEapSecretValue *v = g_hash_table_lookup(root->secrets, full_key);

	return v != NULL ? v->value : NULL;
}

const gchar *
joind_eap_session_lookup_agent_identity(JoindEapSession *session)
{
	g_autofree gchar *full = g_strconcat(session->prefix, "Identity", NULL);

	return eap_secret_lookup(session, full);
}

static gchar *
eap_secret_describe_need(JoindEapSession *session, JoindSecretKind kind, const gchar *key)
{
	g_autofree gchar *where = joind_eap_session_describe_setting(session, key);
	g_autofree gchar *who = session->method != NULL
	                                ? g_strdup_printf("EAP-%s", session->method->name)
	                                : g_strdup("The EAP identity stage");
	const gchar *what;

	switch (kind) {
	case JOIND_SECRET_PRIVATE_KEY_PASSPHRASE:
		what = "the passphrase of the client key";
		break;
	case JOIND_SECRET_USER_NAME_AND_PASSWORD:
		what = "a user name and password";
		break;
	case JOIND_SECRET_USER_PASSWORD:
		what = "a password";
		break;
	default:
		what = "a passphrase";
		break;
	}
	return g_strdup_printf("%s needs %s (%s is not set)", who, what, where);
}

static void
eap_secret_set_no_agent(JoindEapSession *session, JoindSecretKind kind, const gchar *key,
                        GError **error)
{
	g_autofree gchar *need = eap_secret_describe_need(session, kind, key);

	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT,
	            "%s and no agent is registered to ask for it", need);
}

static void eap_secret_ready(GObject *source, GAsyncResult *result, gpointer data);

JoindEapSecretStatus
joind_eap_session_get_secret(JoindEapSession *session, const gchar *key, JoindSecretKind kind,
                             const gchar **value, GError **error)
{
	JoindEapSession *root = joind_eap_session_root(session);
	g_autofree gchar *full = g_strconcat(session->prefix, key, NULL);
	g_autofree gchar *from_profile = joind_eap_session_get_setting(session, key);
	JoindEapSecretRequest *req;

	*value = NULL;
	if (from_profile != NULL && eap_secret_lookup(session, full) == NULL)
		eap_secret_store(session, full, from_profile, FALSE);
	*value = eap_secret_lookup(session, full);
	if (from_profile != NULL)
		joind_secret_wipe(g_steal_pointer(&from_profile));
	if (*value != NULL)
		return JOIND_EAP_SECRET_AVAILABLE;
	if (session->secret_request != NULL)
		return JOIND_EAP_SECRET_PENDING; /* asked already; resumes when answered */
	if (root->provider.request == NULL ||
	    (root->provider.has_agent != NULL && !root->provider.has_agent(root->provider_data))) {
		eap_secret_set_no_agent(session, kind, key, error);
		return JOIND_EAP_SECRET_FAILED;
	}

	req = g_new0(JoindEapSecretRequest, 1);
	req->session = session;
	req->kind = kind;
	req->key = g_steal_pointer(&full);
	if (kind == JOIND_SECRET_USER_NAME_AND_PASSWORD)
		req->user_key = g_strconcat(session->prefix, "Identity", NULL);
	req->cancellable = g_cancellable_new();
	req->provider = root->provider;
	req->provider_data = root->provider_data;
	session->secret_request = req;
	g_debug("%s: asking the agent for %s", session->label, req->key);
	if (root->provider.request_for != NULL)
		root->provider.request_for(
		        root->provider_data, root->requester, kind, root->object_path,
		        kind == JOIND_SECRET_USER_PASSWORD ? session->identity : NULL,
		        req->cancellable, eap_secret_ready, req);
	else
		root->provider.request(root->provider_data, kind, root->object_path,
		                       kind == JOIND_SECRET_USER_PASSWORD ? session->identity
		                                                          : NULL,
		                       req->cancellable, eap_secret_ready, req);
	return JOIND_EAP_SECRET_PENDING;
}

gboolean
joind_eap_session_secret_in_flight(JoindEapSession *session)
{
	return session->secret_request != NULL;
}

void
joind_eap_session_forget_secret(JoindEapSession *session, const gchar *key)
{
	JoindEapSession *root = joind_eap_session_root(session);
	g_autofree gchar *full = g_strconcat(session->prefix, key, NULL);
	JoindEapSecretValue *v = g_hash_table_lookup(root->secrets, full);

	if (v != NULL && v->from_agent)
		g_hash_table_remove(root->secrets, full);
}

static void
eap_secret_failed(JoindEapSession *session, JoindEapSecretRequest *req, const GError *error)
{
	g_autofree gchar *key = g_strdup(req->key + strlen(session->prefix));
	g_autofree gchar *need = eap_secret_describe_need(session, req->kind, key);
	g_autoptr(GError) sentence = NULL;
	JoindEapStage stage = session->paused_from == JOIND_EAP_STATE_METHOD
	                              ? JOIND_EAP_STAGE_METHOD
	                              : JOIND_EAP_STAGE_IDENTITY;

	if (g_error_matches(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT))
		sentence = g_error_new(JOIND_ERROR, JOIND_ERROR_NO_AGENT,
		                       "%s and no agent is registered to ask for it", need);
	else if (g_error_matches(error, JOIND_ERROR, JOIND_ERROR_ABORTED) ||
	         g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		sentence = g_error_new(JOIND_ERROR, JOIND_ERROR_ABORTED,
		                       "%s and the agent request was cancelled", need);
	else
		sentence =
		        g_error_new(JOIND_ERROR, JOIND_ERROR_NO_AGENT,
		                    "%s and the agent did not supply it: %s", need, error->message);
	joind_eap_session_fail(session, stage, sentence);
}

static void
eap_secret_ready(GObject *source, GAsyncResult *result, gpointer data)
{
	JoindEapSecretRequest *req = data;
	JoindEapSession *session = req->session;
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindSecret) secret = req->provider.finish(req->provider_data, result, &error);

	if (session == NULL) {
		eap_secret_request_free(req);
		return;
	}
	joind_eap_session_ref(session);
	session->secret_request = NULL;
	if (secret != NULL && secret->secret != NULL) {
		eap_secret_store(session, req->key, secret->secret, TRUE);
		if (req->user_key != NULL && secret->user != NULL)
			eap_secret_store(session, req->user_key, secret->user, TRUE);
		g_debug("%s: the agent supplied %s", session->label, req->key);
	} else if (error == NULL) {
		error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED, "empty answer");
	}
	if (session->state == JOIND_EAP_STATE_PAUSED &&
	    session->pause_reason == JOIND_EAP_PAUSE_SECRET) {
		if (error != NULL)
			eap_secret_failed(session, req, error);
		else
			joind_eap_peer_resume(session);
	} else if (error != NULL) {
		g_debug("%s: agent request for %s ended: %s", session->label, req->key,
		        error->message);
	}
	eap_secret_request_free(req);
	joind_eap_session_unref(session);
}

/* ---- EAP-RememberCredentials -------------------------------------------- */

/* The full keys of what agents supplied, sorted (stable file edits). */
static GPtrArray *
eap_secret_agent_keys(JoindEapSession *root)
{
	GPtrArray *keys = g_ptr_array_new();
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, root->secrets);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		if (((JoindEapSecretValue *)value)->from_agent)
			g_ptr_array_add(keys, key);
	}
	g_ptr_array_sort(keys, (GCompareFunc)g_strcmp0);
	return keys;
}

static void
eap_secret_mark_stored(JoindEapSession *root, const gchar *const *keys)
{
	for (guint i = 0; keys[i] != NULL; i++) {
		JoindEapSecretValue *v = g_hash_table_lookup(root->secrets, keys[i]);

		if (v != NULL)
			v->from_agent = FALSE;
	}
}

/* Writes what the agent supplied into the profile, from the main loop: the
 * write emits profile-changed, whose handlers may restart this session. */
static gboolean
eap_secret_remember(gpointer data)
{
	JoindEapSession *root = data;
	g_autoptr(JoindProfile) profile = g_object_ref(root->profile);
	g_autoptr(GPtrArray) keys = eap_secret_agent_keys(root);
	g_autoptr(GPtrArray) values = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) names = g_string_new(NULL);

	root->remember_id = 0;
	if (root->state != JOIND_EAP_STATE_SUCCESS || keys->len == 0)
		return G_SOURCE_REMOVE; /* restarted meanwhile: nothing proven */
	for (guint i = 0; i < keys->len; i++) {
		JoindEapSecretValue *v = g_hash_table_lookup(root->secrets, keys->pdata[i]);

		g_ptr_array_add(values, v->value);
		g_string_append_printf(names, "%s%s", i > 0 ? ", " : "",
		                       (const gchar *)keys->pdata[i]);
	}
	g_ptr_array_add(keys, NULL);
	g_ptr_array_add(values, NULL);
	/* Handlers of the profile-changed signal see the agent's values still
	 * marked as such (joind_eap_session_adopt_profile() relies on it). */
	if (!joind_core_update_profile_keys(root->core, profile, "Security",
	                                    (const gchar *const *)keys->pdata,
	                                    (const gchar *const *)values->pdata, &error)) {
		g_warning("%s: could not remember the credentials the agent supplied (%s): %s",
		          root->label, names->str, error->message);
		return G_SOURCE_REMOVE;
	}
	eap_secret_mark_stored(root, (const gchar *const *)keys->pdata);
	g_info("%s: remembered %s in %s (EAP-RememberCredentials)", root->label, names->str,
	       joind_profile_get_path(profile));
	return G_SOURCE_REMOVE;
}

void
joind_eap_secret_remember_later(JoindEapSession *session)
{
	g_autoptr(GPtrArray) keys = NULL;

	if (session->outer != NULL || session->core == NULL || session->profile == NULL ||
	    session->remember_id != 0 ||
	    !joind_profile_get_boolean(session->profile, "Security", "EAP-RememberCredentials",
	                               FALSE))
		return;
	keys = eap_secret_agent_keys(session);
	if (keys->len == 0)
		return;
	session->remember_id = g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, eap_secret_remember,
	                                       joind_eap_session_ref(session),
	                                       (GDestroyNotify)joind_eap_session_unref);
}

gboolean
joind_eap_secret_adopt(JoindEapSession *root, JoindProfile *profile, const gchar *const *keys)
{
	for (guint i = 0; keys[i] != NULL; i++) {
		JoindEapSecretValue *v = g_hash_table_lookup(root->secrets, keys[i]);
		g_autofree gchar *value = joind_profile_get_string(profile, "Security", keys[i]);
		gboolean same =
		        v != NULL && v->from_agent && value != NULL && g_str_equal(v->value, value);

		joind_secret_wipe(g_steal_pointer(&value));
		if (!same)
			return FALSE;
	}
	eap_secret_mark_stored(root, keys);
	return TRUE;
}
