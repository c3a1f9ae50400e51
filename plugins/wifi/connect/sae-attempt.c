/* sae-attempt.c - SAE's part of an attempt (see sae-attempt.h). */
#include "sae-attempt.h"

#include <string.h>

#include "attempt-private.h"
#include "transition-disable.h"

static JoindProfile *
attempt_profile(WifiAttempt *attempt)
{
	return joind_network_get_profile(JOIND_NETWORK(attempt->network));
}

/* ---- transition disable ---------------------------------------------------- */

/* Why no access point of the network can be joined with SAE: NULL when
 * it could, had one of them offered it. */
static const gchar *
no_sae_reason(gboolean sae, gboolean passphrase)
{
	if (!sae)
		return "this radio cannot run SAE through joind's SME";
	if (!passphrase)
		return "SAE needs the passphrase and the profile holds only a PreSharedKey";
	return NULL;
}

/* ---- the PMKSA cache ----------------------------------------------------------- */

static void
attempt_offer_pmksa(WifiAttempt *attempt)
{
	const WifiPmksa *pmksa;

	if (attempt->plan.akm != WIFI_AKM_SUITE_SAE)
		return;
	attempt->network_key = wifi_known_network_key(JOIND_NETWORK(attempt->network));
	pmksa = wifi_pmksa_cache_lookup(attempt->pmksa_cache, attempt->bss->bssid, attempt->spa,
	                                attempt->network_key, WIFI_AKM_SUITE_SAE,
	                                g_get_monotonic_time());
	if (pmksa == NULL)
		return;
	attempt->pmksa = wifi_pmksa_copy(pmksa);
	memcpy(attempt->sae_pmk, pmksa->pmk, sizeof(attempt->sae_pmk));
	attempt->plan.sae_group = pmksa->sae_group;
	attempt->plan.sae_pmksa = TRUE;
	wifi_rsn_plan_offer_pmkid(&attempt->plan, pmksa->pmkid);
	wifi_iface_info(attempt->iface, "offering the cached SAE PMKSA of “%s” (group %u)",
	                wifi_attempt_get_name(attempt), pmksa->sae_group);
}

gboolean
wifi_attempt_sae_check(WifiAttempt *attempt, gboolean sae, gboolean passphrase, GError **error)
{
	if (!wifi_attempt_td_check(attempt, sae && passphrase, no_sae_reason(sae, passphrase),
	                           error))
		return FALSE;
	attempt_offer_pmksa(attempt);
	return TRUE;
}

gboolean
wifi_attempt_sae_pmksa_refused(WifiAttempt *attempt, gboolean unanswered)
{
	if (attempt->pmksa == NULL || attempt->plan.akm != WIFI_AKM_SUITE_SAE)
		return FALSE;
	wifi_iface_info(attempt->iface, "the access point %s the cached PMKSA of “%s”: SAE instead",
	                unanswered ? "did not answer the attempt with" : "refused",
	                wifi_attempt_get_name(attempt));
	wifi_pmksa_cache_remove(attempt->pmksa_cache, attempt->bss->bssid, attempt->spa,
	                        attempt->network_key);
	g_clear_pointer(&attempt->pmksa, wifi_pmksa_free);
	joind_secret_clear(attempt->sae_pmk, sizeof(attempt->sae_pmk));
	/* The same plan, without the PMKID. */
	return wifi_rsn_plan(attempt->bss, attempt->iface->wiphy, TRUE, &attempt->plan, NULL) &&
	       attempt->plan.akm == WIFI_AKM_SUITE_SAE;
}

void
wifi_attempt_sae_failed(WifiAttempt *attempt)
{
	if (attempt->pmksa == NULL || attempt->plan.akm != WIFI_AKM_SUITE_SAE)
		return;
	if (wifi_pmksa_cache_remove(attempt->pmksa_cache, attempt->bss->bssid, attempt->spa,
	                            attempt->network_key))
		wifi_iface_info(
		        attempt->iface,
		        "the cached SAE PMKSA of “%s” dropped: the link did not come up with it",
		        wifi_attempt_get_name(attempt));
}

/* ---- SAE ------------------------------------------------------------------------ */

WifiSaeAuth *
wifi_attempt_sae_auth_new(WifiAttempt *attempt, WifiSaeAuthDone done, gpointer user_data)
{
	if (!attempt->secure || !wifi_akm_is_sae(attempt->plan.akm) || attempt->pmksa != NULL)
		return NULL;
	/* The profile's PTs go with its passphrase, not with the agent's. */
	if (attempt->sae_pts == NULL)
		attempt->sae_pts = wifi_sae_pt_cache_new(
		        attempt->psk.save_passphrase ? NULL : attempt_profile(attempt));
	return wifi_sae_auth_new(attempt->iface, attempt->bss, attempt->spa,
	                         attempt->psk.passphrase, attempt->plan.sae_h2e, attempt->sae_pts,
	                         done, user_data);
}

void
wifi_attempt_sae_accepted(WifiAttempt *attempt, WifiSaeAuth *auth)
{
	memcpy(attempt->sae_pmk, wifi_sae_auth_get_pmk(auth), sizeof(attempt->sae_pmk));
	memcpy(attempt->sae_pmkid, wifi_sae_auth_get_pmkid(auth), sizeof(attempt->sae_pmkid));
	attempt->sae_accepted = TRUE;
	attempt->plan.sae_group = wifi_sae_auth_get_group(auth);
}

/* ---- once the link is up --------------------------------------------------------- */

/* The profile as it is now (an earlier write made a new snapshot): a new
 * reference, or NULL. */
static JoindProfile *
attempt_current_profile(WifiAttempt *attempt, JoindCore *core)
{
	JoindNetwork *network = JOIND_NETWORK(attempt->network);
	JoindProfileType type;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(network), &len);

	if (!joind_network_type_to_profile_type(joind_network_get_network_type(network), &type))
		return NULL;
	return joind_core_find_network_profile(core, ssid, len, type);
}

static void
attempt_save_pts(WifiAttempt *attempt, JoindCore *core)
{
	g_autoptr(JoindProfile) profile = attempt_current_profile(attempt, core);
	g_autoptr(GError) error = NULL;

	if (attempt->sae_pts == NULL || profile == NULL)
		return;
	if (!wifi_sae_pt_cache_save(attempt->sae_pts, core, profile, &error))
		wifi_iface_warning(attempt->iface,
		                   "cannot keep the SAE PT of “%s” in its profile: %s",
		                   wifi_attempt_get_name(attempt), error->message);
}

static void
attempt_save_transition_disable(WifiAttempt *attempt, JoindCore *core, WifiKeying *keying)
{
	guint8 bits = keying != NULL ? wifi_keying_get_transition_disable(keying) : 0;
	g_autoptr(JoindProfile) profile = NULL;
	const gchar *const keys[] = {"TransitionDisable", "DisabledTransitionModes", NULL};
	g_autofree gchar *modes = NULL;
	g_autoptr(GError) error = NULL;

	if (bits == 0 || (profile = attempt_current_profile(attempt, core)) == NULL)
		return;
	modes = wifi_td_modes_with(profile, bits);
	if (!joind_core_update_profile_keys(core, profile, "Settings", keys,
	                                    (const gchar *const[]){"true", modes, NULL}, &error))
		wifi_iface_warning(attempt->iface,
		                   "cannot keep the transition disable of “%s” in its profile: %s",
		                   wifi_attempt_get_name(attempt), error->message);
	else
		wifi_iface_info(attempt->iface,
		                "the access point of “%s” disabled its transition mode (0x%02x): "
		                "DisabledTransitionModes=%s",
		                wifi_attempt_get_name(attempt), bits, modes);
}

static void
attempt_cache_pmksa(WifiAttempt *attempt)
{
	g_autoptr(GError) error = NULL;
	WifiPmksa *pmksa;

	/* FT-SAE's links key through the FT hierarchy, never a PMKSA. */
	if (!attempt->sae_accepted || attempt->plan.akm != WIFI_AKM_SUITE_SAE)
		return;
	pmksa = wifi_pmksa_new_with_pmkid(
	        WIFI_AKM_SUITE_SAE, attempt->sae_pmk, sizeof(attempt->sae_pmk), attempt->sae_pmkid,
	        attempt->bss->bssid, attempt->spa, attempt->network_key,
	        WIFI_PMKSA_DEFAULT_LIFETIME_S, g_get_monotonic_time(), &error);
	if (pmksa == NULL) {
		wifi_iface_debug(attempt->iface, "no SAE PMKSA to cache: %s", error->message);
		return;
	}
	pmksa->sae_group = attempt->plan.sae_group;
	pmksa->sae_h2e = attempt->plan.sae_h2e;
	wifi_pmksa_cache_add(attempt->pmksa_cache, pmksa);
	wifi_iface_info(attempt->iface, "SAE PMKSA of “%s” cached (%u in the cache)",
	                wifi_attempt_get_name(attempt),
	                wifi_pmksa_cache_size(attempt->pmksa_cache));
}

void
wifi_attempt_sae_remember(WifiAttempt *attempt, JoindCore *core, WifiKeying *keying)
{
	attempt_save_pts(attempt, core);
	attempt_save_transition_disable(attempt, core, keying);
	attempt_cache_pmksa(attempt);
}
