/* auth-ft.c - fast transition (802.11r) in the connector: an attempt on
 * a BSS that offers FT-PSK, FT-SAE or FT-802.1X with a Mobility Domain
 * element associates with its MDE (initial mobility domain association,
 * rsn.c's plan), and the association response's key holders give the FT
 * key hierarchy that the 4-way handshake then runs over
 * (handshake/rsn-handshake-ft.c). Its XXKey is the PSK, SAE's PMK, or
 * part of EAP's MSK (the key step derives that one once EAP is done). */
#include "attempt-private.h"

#include <string.h>

#include "ft-ie.h"
#include "joind-secret.h"

gboolean
wifi_attempt_ft_prepare(WifiAttempt *attempt, gboolean sme, GError **error)
{
	GError *local = NULL;

	if (!wifi_rsn_plan_ft(&attempt->plan, attempt->bss, sme, &local)) {
		if (local == NULL)
			return TRUE;
		g_propagate_error(error, local);
		return FALSE;
	}
	/* A cached PMKSA (SAE's, 802.1X's) was for the AKM without FT: SAE
	 * or EAP runs, and gives the XXKey. */
	if (attempt->pmksa != NULL) {
		wifi_iface_debug(attempt->iface, "the cached PMKSA is not offered: %s keys anew",
		                 wifi_akm_suite_to_string(attempt->plan.akm));
		g_clear_pointer(&attempt->pmksa, wifi_pmksa_free);
		joind_secret_clear(attempt->sae_pmk, sizeof(attempt->sae_pmk));
		attempt->plan.sae_pmksa = FALSE;
	}
	/* The mobility domain's two octets as on the air (hostapd's
	 * mobility_domain). */
	wifi_iface_info(attempt->iface,
	                "“%s” is joined with %s in mobility domain %02x%02x (fast transition)",
	                wifi_attempt_get_name(attempt), wifi_akm_suite_to_string(attempt->plan.akm),
	                attempt->plan.own_mde[2], attempt->plan.own_mde[3]);
	return TRUE;
}

/* The key holders the association response names, checked against the
 * mobility domain we associated in. */
static gboolean
ft_holders(const WifiAttempt *attempt, const WifiFtIes *ft, WifiFtHolders *h, GError **error)
{
	if (memcmp(ft->mdid, attempt->plan.own_mde + 2, 2) != 0 || !ft->parsed.has_r1kh_id ||
	    ft->parsed.r0kh_id_len == 0) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "The access point's association response names another "
		                    "mobility domain or no key holders (R0KH-ID, R1KH-ID): fast "
		                    "transition cannot key.");
		return FALSE;
	}
	memset(h, 0, sizeof(*h));
	memcpy(h->mdid, ft->mdid, 2);
	memcpy(h->r0kh_id, ft->parsed.r0kh_id, ft->parsed.r0kh_id_len);
	h->r0kh_id_len = ft->parsed.r0kh_id_len;
	memcpy(h->r1kh_id, ft->parsed.r1kh_id, 6);
	memcpy(h->spa, attempt->spa, 6);
	return TRUE;
}

/* The hierarchy of the PSK (FT-PSK) or SAE's PMK (FT-SAE), bound to
 * holders (PMK-R0, and PMK-R1 for holders->r1kh_id). */
static gboolean
ft_derive(const WifiAttempt *attempt, const WifiFtHolders *holders, WifiFtKeys *keys,
          GError **error)
{
	GBytes *ssid = joind_network_get_ssid(JOIND_NETWORK(attempt->network));
	const guint8 *xxkey =
	        attempt->plan.akm == WIFI_AKM_SUITE_FT_SAE ? attempt->sae_pmk : attempt->psk.pmk;

	return wifi_ft_keys_derive(attempt->plan.akm, xxkey, WIFI_PSK_LEN,
	                           g_bytes_get_data(ssid, NULL), g_bytes_get_size(ssid), holders,
	                           keys, error);
}

/* FT-802.1X: the key step derives the hierarchy once EAP gave the MSK. */
static gboolean
ft_associated_8021x(WifiAttempt *attempt, const WifiFtIes *ft, const WifiFtHolders *holders,
                    WifiKeying *keying, GError **error)
{
	GBytes *ssid = joind_network_get_ssid(JOIND_NETWORK(attempt->network));

	if (!wifi_keying_set_ft_holders(keying, holders, g_bytes_get_data(ssid, NULL),
	                                g_bytes_get_size(ssid), ft->mde, ft->mde_len, ft->fte,
	                                ft->fte_len, error))
		return FALSE;
	attempt->ft_holders = *holders;
	attempt->has_ft_holders = TRUE;
	return TRUE;
}

void
wifi_attempt_ft_remember(WifiAttempt *attempt, WifiKeying *keying)
{
	const WifiFtKeys *keys = wifi_keying_get_ft_keys(keying);

	if (keys != NULL && attempt->has_ft_holders)
		attempt->ft_keys = *keys;
	/* Only a conversation that ran names its identity. */
	if (wifi_keying_get_eap_identity(keying) != NULL) {
		g_free(attempt->ft_eap_method);
		g_free(attempt->ft_eap_identity);
		attempt->ft_eap_method = g_strdup(wifi_keying_get_eap_method(keying));
		attempt->ft_eap_identity = g_strdup(wifi_keying_get_eap_identity(keying));
	}
}

/* A transition over the air: the reassociation response's MIC and group
 * keys key the link, no 4-way handshake follows. */
static gboolean
ft_reassociated(WifiAttempt *attempt, const guint8 *ies, gsize ies_len, WifiKeying *keying,
                GError **error)
{
	WifiFtGroupKeys group;
	WifiFtIes ft;
	gboolean ok;

	if (!wifi_ft_transition_reassoc_response(attempt->ft_air, ies, ies_len, &group, error))
		return FALSE;
	(void)wifi_ft_ies_parse(ies, ies_len, 16, &ft, NULL);
	ok = wifi_keying_ft_transition(keying, attempt->ft_air, ft.mde, ft.mde_len, ft.fte,
	                               ft.fte_len, &group, error);
	wifi_ft_group_keys_clear(&group);
	if (!ok)
		return FALSE;
	memcpy(attempt->ft_holders.r1kh_id, ft.parsed.r1kh_id, 6);
	/* FT-802.1X: a re-authentication here derives from the new MSK for
	 * this access point, and its 4-way handshake repeats this response's
	 * MDE and FTE. */
	return attempt->eap_profile == NULL ||
	       ft_associated_8021x(attempt, &ft, &attempt->ft_holders, keying, error);
}

gboolean
wifi_attempt_ft_associated(WifiAttempt *attempt, const guint8 *ies, gsize ies_len,
                           WifiKeying *keying, GError **error)
{
	WifiFtHolders holders;
	WifiFtKeys keys;
	WifiFtIes ft;
	gboolean ok;

	if (attempt->ft_air != NULL)
		return ft_reassociated(attempt, ies, ies_len, keying, error);
	if (!wifi_ft_ies_parse(ies, ies_len, 16, &ft, error)) {
		g_prefix_error(error, "The access point's association response is not one of fast "
		                      "transition: ");
		return FALSE;
	}
	if (!ft_holders(attempt, &ft, &holders, error))
		return FALSE;
	if (attempt->eap_profile != NULL) {
		ok = ft_associated_8021x(attempt, &ft, &holders, keying, error);
		joind_secret_clear(&holders, sizeof(holders));
		return ok;
	}
	ok = ft_derive(attempt, &holders, &keys, error) &&
	     wifi_keying_set_ft(keying, &keys, ft.mde, ft.mde_len, ft.fte, ft.fte_len, error);
	if (ok) {
		attempt->ft_holders = holders;
		attempt->has_ft_holders = TRUE;
		attempt->ft_keys = keys;
	}
	wifi_ft_keys_clear(&keys);
	joind_secret_clear(&holders, sizeof(holders));
	return ok;
}

/* ---- over the air --------------------------------------------------------- */

gboolean
wifi_attempt_ft_can_transition(const WifiAttempt *attempt)
{
	return attempt->has_ft_holders && attempt->secure && attempt->ft_keys.pmk_len != 0 &&
	       attempt->plan.akm == attempt->ft_keys.akm &&
	       attempt->plan.own_mde_len == WIFI_MDE_LEN &&
	       memcmp(attempt->plan.own_mde + 2, attempt->ft_holders.mdid, 2) == 0;
}

gboolean
wifi_attempt_ft_over_ds(const WifiAttempt *attempt)
{
	return (attempt->bss->ies.ft_capability & WIFI_FT_CAP_OVER_DS) != 0;
}

/* Our RSNE, the MDE (the target's, once it answered) and our FTE of a
 * request the transition built into the plan, where the SME's commands
 * take them. */
static void
plan_take(WifiRsnPlan *plan, GBytes *ies)
{
	gsize len;
	const guint8 *p = g_bytes_get_data(ies, &len);
	gsize rsne_len = (gsize)p[1] + 2, fte_at = rsne_len + WIFI_MDE_LEN;

	memcpy(plan->own_rsne, p, rsne_len);
	plan->own_rsne_len = rsne_len;
	memcpy(plan->own_mde, p + rsne_len, WIFI_MDE_LEN);
	memcpy(plan->own_fte, p + fte_at, len - fte_at);
	plan->own_fte_len = len - fte_at;
}

gboolean
wifi_attempt_ft_begin(WifiAttempt *attempt, GError **error)
{
	g_autoptr(GBytes) ies = NULL;
	WifiFtTransitionConfig config = {
	        .akm = attempt->plan.akm,
	        .pairwise_cipher = attempt->plan.pairwise_cipher,
	        .own_rsne = attempt->plan.own_rsne,
	        .own_rsne_len = attempt->plan.own_rsne_len,
	        .mde = attempt->plan.own_mde,
	        .spa = attempt->spa,
	        .target = attempt->bss->bssid,
	        .keys = &attempt->ft_keys,
	        .r0kh_id = attempt->ft_holders.r0kh_id,
	        .r0kh_id_len = attempt->ft_holders.r0kh_id_len,
	};

	g_clear_pointer(&attempt->ft_air, wifi_ft_transition_free);
	attempt->ft_air = wifi_ft_transition_new(&config, NULL, error);
	if (attempt->ft_air == NULL)
		return FALSE;
	ies = wifi_ft_transition_auth_ies(attempt->ft_air);
	plan_take(&attempt->plan, ies);
	attempt->plan.ft_over_air = TRUE;
	return TRUE;
}

gboolean
wifi_attempt_ft_authenticated(WifiAttempt *attempt, const guint8 *ies, gsize ies_len,
                              GError **error)
{
	g_autoptr(GBytes) reassoc = NULL;

	if (!wifi_ft_transition_auth_response(attempt->ft_air, ies, ies_len, error))
		return FALSE;
	reassoc = wifi_ft_transition_reassoc_ies(attempt->ft_air, error);
	if (reassoc == NULL)
		return FALSE;
	plan_take(&attempt->plan, reassoc);
	attempt->plan.ft_over_air = FALSE;
	return TRUE;
}

const gchar *
wifi_attempt_ft_transition_name(const WifiAttempt *attempt)
{
	if (attempt->ft_air == NULL)
		return NULL;
	return attempt->ft_over_ds ? "FT over the DS" : "FT over the air";
}

void
wifi_attempt_ft_abandon(WifiAttempt *attempt)
{
	g_clear_pointer(&attempt->ft_air, wifi_ft_transition_free);
	attempt->has_ft_holders = FALSE;
	wifi_ft_keys_clear(&attempt->ft_keys);
	attempt->plan.ft_over_air = FALSE;
	attempt->ft_over_ds = FALSE;
	attempt->plan.own_fte_len = 0;
	wifi_rsn_plan_offer_pmkid(&attempt->plan, NULL);
}
