/* psk-secret.c - the PSK of a WPA2-PSK connection (see psk-secret.h). */
#include "psk-secret.h"

static const guint8 *
network_ssid(WifiNetwork *network, gsize *len)
{
	return g_bytes_get_data(joind_network_get_ssid(JOIND_NETWORK(network)), len);
}

void
wifi_psk_secret_clear(WifiPskSecret *secret)
{
	joind_secret_clear(secret->pmk, sizeof(secret->pmk));
	g_clear_pointer(&secret->passphrase, joind_secret_wipe);
}

gboolean
wifi_psk_from_profile(WifiNetwork *network, WifiPskSecret *out, GError **error)
{
	JoindProfile *profile = joind_network_get_profile(JOIND_NETWORK(network));
	g_autoptr(GError) local = NULL;
	gsize len = 0;
	const guint8 *ssid = network_ssid(network, &len);
	gchar *secret;
	gboolean ok;

	if (profile == NULL)
		return FALSE;
	secret = joind_profile_get_string(profile, "Security", "PreSharedKey");
	out->save = secret == NULL;
	out->passphrase = joind_profile_get_string(profile, "Security", "Passphrase");
	if (secret == NULL && out->passphrase == NULL)
		return FALSE;
	ok = wifi_psk_from_secret(secret != NULL ? secret : out->passphrase, ssid, len, out->pmk,
	                          &local);
	joind_secret_wipe(secret);
	if (!ok)
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "The profile %s: %s",
		            joind_profile_get_name(profile), local->message);
	return ok;
}

static void
psk_received(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	g_autoptr(GError) error = NULL;
	JoindSecret *secret =
	        joind_core_request_secret_finish(g_task_get_task_data(task), result, &error);

	if (secret == NULL && error == NULL)
		error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED,
		                            "The agent gave no passphrase.");
	if (error != NULL)
		g_task_return_error(task, g_steal_pointer(&error));
	else
		g_task_return_pointer(task, secret, (GDestroyNotify)joind_secret_free);
}

void
wifi_psk_request(JoindCore *core, const gchar *requester, WifiNetwork *network,
                 GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(network, cancellable, callback, user_data);

	g_task_set_task_data(task, g_object_ref(core), g_object_unref);
	joind_core_request_secret_for(core, requester, JOIND_SECRET_PASSPHRASE,
	                              joind_network_get_object_path(JOIND_NETWORK(network)), NULL,
	                              cancellable, psk_received, task);
}

gboolean
wifi_psk_request_finish(WifiNetwork *network, GAsyncResult *result, WifiPskSecret *out,
                        GError **error)
{
	g_autoptr(JoindSecret) secret = g_task_propagate_pointer(G_TASK(result), error);
	g_autoptr(GError) bad = NULL;
	gsize len = 0;
	const guint8 *ssid = network_ssid(network, &len);

	if (secret == NULL)
		return FALSE;
	if (!wifi_psk_from_secret(secret->secret, ssid, len, out->pmk, &bad)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s", bad->message);
		return FALSE;
	}
	out->save = TRUE;
	out->passphrase = g_strdup(secret->secret);
	out->save_passphrase = TRUE;
	return TRUE;
}

/* An existing profile gets only these lines set, so that whatever else
 * its author wrote (comments, other keys) stays. A passphrase from an
 * agent is written only for SAE, which cannot do without it. */
static gboolean
psk_write(JoindCore *core, WifiNetwork *network, const gchar *hex, const gchar *passphrase,
          GError **error)
{
	JoindProfile *profile = joind_network_get_profile(JOIND_NETWORK(network));
	const gchar *const keys[] = {"PreSharedKey", passphrase != NULL ? "Passphrase" : NULL,
	                             NULL};
	const gchar *const values[] = {hex, passphrase, NULL};
	g_autoptr(GKeyFile) kf = NULL;
	gsize len = 0;
	const guint8 *ssid = network_ssid(network, &len);

	if (profile != NULL)
		return joind_core_update_profile_keys(core, profile, "Security", keys, values,
		                                      error);
	kf = g_key_file_new();
	g_key_file_set_string(kf, "Security", "PreSharedKey", hex);
	if (passphrase != NULL)
		g_key_file_set_string(kf, "Security", "Passphrase", passphrase);
	return joind_core_save_network_profile(core, ssid, len, JOIND_PROFILE_TYPE_PSK, kf, error);
}

void
wifi_psk_save(JoindCore *core, WifiNetwork *network, WifiPskSecret *secret, gboolean sae,
              const gchar *ifname)
{
	const gchar *name = joind_network_get_name(JOIND_NETWORK(network));
	const gchar *passphrase = sae && secret->save_passphrase ? secret->passphrase : NULL;
	g_autoptr(GError) error = NULL;
	gchar hex[2 * WIFI_PSK_LEN + 1];
	gboolean ok;

	if (!secret->save && passphrase == NULL)
		return;
	secret->save = FALSE;
	secret->save_passphrase = FALSE;
	for (gsize i = 0; i < sizeof(secret->pmk); i++)
		g_snprintf(hex + 2 * i, 3, "%02x", secret->pmk[i]);
	ok = psk_write(core, network, hex, passphrase, &error);
	joind_secret_clear(hex, sizeof(hex));
	if (!ok)
		joind_dev_warning(ifname, "cannot save the profile of “%s”: %s", name,
		                  error->message);
	else
		joind_dev_info(ifname, "saved the profile of “%s”", name);
}
