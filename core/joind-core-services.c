/* joind-core-services.c - what the core lends plugins through core/api/:
 * main.conf settings, profiles, secrets from agents, what joind learned
 * about known networks (joind-known.h), and the gate's rules for a
 * plugin's own D-Bus interfaces (joind-auth-rule.h).
 */
#include "joind-core-internal.h"

#include "joind-auth.h"
#include "joind-error.h"
#include "joind-known.h"

/* ---- settings, profiles, agents ------------------------------------------ */

gboolean
joind_core_declare_config(JoindCore *self, const JoindConfigKey *keys, GError **error)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), FALSE);
	/* Listing only: the plugin's init() stops here, before any I/O. */
	if (self->declared != NULL) {
		g_ptr_array_add(self->declared, (gpointer)keys);
		return joind_set_error(error, JOIND_ERROR_ABORTED, JOIND_CORE_LISTING_CONFIG);
	}
	return joind_config_declare(self->config, keys, error);
}

gint
joind_core_get_config_int(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_int(self->config, group, key);
}

gboolean
joind_core_get_config_bool(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_bool(self->config, group, key);
}

gchar *
joind_core_get_config_string(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_string(self->config, group, key);
}

gchar **
joind_core_get_config_strv(JoindCore *self, const gchar *group, const gchar *key)
{
	return joind_config_get_strv(self->config, group, key);
}

JoindProfile *
joind_core_find_wired_profile(JoindCore *self, const gchar *ifname, const gchar *address)
{
	return joind_profile_store_find_wired(self->profiles, ifname, address);
}

JoindProfile *
joind_core_find_network_profile(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                JoindProfileType type)
{
	return joind_profile_store_find_network(self->profiles, ssid, ssid_len, type);
}

GPtrArray *
joind_core_list_profiles(JoindCore *self, JoindProfileType type)
{
	return joind_profile_store_list(self->profiles, type);
}

gboolean
joind_core_save_network_profile(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                JoindProfileType type, GKeyFile *contents, GError **error)
{
	g_autoptr(JoindProfile) existing =
	        joind_profile_store_find_network(self->profiles, ssid, ssid_len, type);

	/* A profile joind creates is the user's (Source "user"); marked first so
	 * that its KnownNetwork1 object appears with it. */
	if (existing == NULL)
		joind_known_state_set_user_saved(self->known, ssid, ssid_len, type, TRUE);
	if (joind_profile_store_save_network(self->profiles, ssid, ssid_len, type, contents, error))
		return TRUE;
	if (existing == NULL)
		joind_known_state_set_user_saved(self->known, ssid, ssid_len, type, FALSE);
	return FALSE;
}

gboolean
joind_core_update_profile_keys(JoindCore *self, JoindProfile *profile, const gchar *group,
                               const gchar *const *keys, const gchar *const *values, GError **error)
{
	return joind_profile_store_update_keys(self->profiles, profile, group, keys, values, error);
}

gboolean
joind_core_remove_profile(JoindCore *self, JoindProfile *profile, GError **error)
{
	return joind_profile_store_remove(self->profiles, profile, error);
}

void
joind_core_request_secret(JoindCore *core, JoindSecretKind kind, const gchar *object_path,
                          const gchar *user, GCancellable *cancellable,
                          GAsyncReadyCallback callback, gpointer user_data)
{
	joind_agent_manager_request(core->agents, NULL, kind, object_path, user, cancellable,
	                            callback, user_data);
}

void
joind_core_request_secret_for(JoindCore *core, const gchar *requester, JoindSecretKind kind,
                              const gchar *object_path, const gchar *user,
                              GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data)
{
	joind_agent_manager_request(core->agents, requester, kind, object_path, user, cancellable,
	                            callback, user_data);
}

const gchar *
joind_requester_from_cancellable(GCancellable *cancellable)
{
	return joind_dbus_call_get_requester(cancellable);
}

JoindSecret *
joind_core_request_secret_finish(JoindCore *core, GAsyncResult *result, GError **error)
{
	return joind_agent_manager_request_finish(core->agents, result, error);
}

void
joind_core_register_agent(JoindCore *self, JoindCall *call, const gchar *interface,
                          JoindPathMapFunc map, gpointer map_data)
{
	joind_agent_manager_register(self->agents, call, interface, map, map_data);
}

void
joind_core_unregister_agent(JoindCore *self, JoindCall *call)
{
	joind_agent_manager_unregister(self->agents, call);
}

gboolean
joind_core_has_agent(JoindCore *core)
{
	return core->agents != NULL && joind_agent_manager_get_n_agents(core->agents) > 0;
}

/* ---- what joind learned about known networks (joind-known.h) ------------- */

void
joind_core_note_connected(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                          JoindProfileType type, guint32 freq)
{
	g_return_if_fail(JOIND_IS_CORE(self));
	joind_known_state_note_connected(self->known, ssid, ssid_len, type, freq,
	                                 g_get_real_time() / G_USEC_PER_SEC);
	if (self->known_export != NULL)
		joind_dbus_known_refresh(self->known_export, ssid, ssid_len, type);
}

void
joind_core_note_seen(JoindCore *self, const guint8 *ssid, gsize ssid_len, JoindProfileType type,
                     guint32 freq)
{
	g_return_if_fail(JOIND_IS_CORE(self));
	joind_known_state_note_seen(self->known, ssid, ssid_len, type, freq);
}

GArray *
joind_core_get_known_frequencies(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), NULL);
	return joind_known_state_get_frequencies(self->known, ssid, ssid_len, type);
}

gint64
joind_core_get_last_connected(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                              JoindProfileType type)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), 0);
	return joind_known_state_get_last_connected(self->known, ssid, ssid_len, type);
}

gboolean
joind_core_declare_auth_rules(JoindCore *self, const JoindAuthRule *rules, GError **error)
{
	g_return_val_if_fail(JOIND_IS_CORE(self), FALSE);
	return joind_auth_declare_rules(rules, error);
}
