/* attempt.c - one Connect() and its credentials (see attempt.h). */
#include "attempt-private.h"

#include <netlink/attr.h>
#include <string.h>

#include "joind-mac.h"
#include "address.h"
#include "mgmt.h"
#include "owe-transition.h"

const gchar *
wifi_attempt_get_name(WifiAttempt *attempt)
{
	return attempt != NULL ? joind_network_get_name(JOIND_NETWORK(attempt->network)) : NULL;
}

/* SAE needs the passphrase: with only a PreSharedKey in the profile, an
 * access point that offers PSK too is joined with WPA2. */
static gboolean
attempt_check_sae(WifiAttempt *attempt, const WifiWiphy *wiphy, GError **error)
{
	if (!wifi_akm_is_sae(attempt->plan.akm) || attempt->psk.passphrase != NULL)
		return TRUE;
	if (wifi_rsn_plan(attempt->bss, wiphy, FALSE, &attempt->plan, NULL))
		return TRUE;
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
	            "“%s” is WPA3-Personal (SAE) only, which needs the passphrase; its profile "
	            "holds only a PreSharedKey.",
	            wifi_attempt_get_name(attempt));
	return FALSE;
}

static gboolean
attempt_parse_spa(WifiAttempt *attempt, const gchar *address, GError **error)
{
	if (joind_mac_parse(address, attempt->spa))
		return TRUE;
	g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
	                    "The interface has no MAC address.");
	return FALSE;
}

static gboolean
attempt_prepare_psk(WifiAttempt *attempt, JoindCore *core, const WifiWiphy *wiphy, gboolean sae,
                    const gchar *address, gboolean *ask_agent, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (!attempt_parse_spa(attempt, address, error))
		return FALSE;
	if (!wifi_rsn_plan(attempt->bss, wiphy, sae, &attempt->plan, error))
		return FALSE;
	attempt->secure = TRUE;
	if (wifi_psk_from_profile(attempt->network, &attempt->psk, &local)) {
		if (!attempt_check_sae(attempt, wiphy, error))
			return FALSE;
	} else if (local != NULL) {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	} else if (!joind_core_has_agent(core)) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NO_AGENT,
		            "“%s” needs a passphrase and no agent is registered to ask for it.",
		            wifi_attempt_get_name(attempt));
		return FALSE;
	} else {
		*ask_agent = TRUE;
	}
	return wifi_attempt_sae_check(attempt, sae, *ask_agent || attempt->psk.passphrase != NULL,
	                              error);
}

/* Opportunistic key caching, which the profile allows: access points of
 * one network that share their PMKs take a PMKID derived for them from
 * the PMK another one of them gave. Off by default: an access point
 * without it ignores the PMKID (full EAP follows), and the PMK was never
 * meant for it. */
static WifiPmksa *
attempt_okc_pmksa(WifiAttempt *attempt, WifiIface *iface)
{
	g_autoptr(GError) error = NULL;
	const WifiPmksa *from = wifi_pmksa_cache_lookup_network(
	        attempt->pmksa_cache, attempt->spa, attempt->network_key, attempt->plan.akm,
	        g_get_monotonic_time());
	WifiPmksa *derived;
	gchar from_text[JOIND_MAC_STRING_LEN];

	if (from == NULL)
		return NULL;
	derived = wifi_pmksa_derive(from, attempt->bss->bssid, &error);
	if (derived == NULL) {
		wifi_iface_debug(iface, "no opportunistic PMKSA: %s", error->message);
		return NULL;
	}
	wifi_iface_info(iface, "offering “%s” the PMKSA of %s (opportunistic key caching)",
	                wifi_attempt_get_name(attempt),
	                joind_mac_to_string(from->bssid, from_text));
	return derived;
}

/* 802.1X: the profile says how to authenticate; a PMKSA cached for this
 * access point goes into our RSNE, so that EAP may be skipped. */
static gboolean
attempt_prepare_eap(WifiAttempt *attempt, WifiIface *iface, const gchar *address, GError **error)
{
	JoindProfile *profile = joind_network_get_profile(JOIND_NETWORK(attempt->network));
	const WifiPmksa *pmksa;

	if (profile == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		            "“%s” is an 802.1X network and has no profile: it needs one saying how "
		            "to authenticate (“%s.8021x” in the state directory).",
		            wifi_attempt_get_name(attempt), wifi_attempt_get_name(attempt));
		return FALSE;
	}
	if (!attempt_parse_spa(attempt, address, error))
		return FALSE;
	if (!wifi_rsn_plan(attempt->bss, iface->wiphy, FALSE, &attempt->plan, error))
		return FALSE;
	attempt->secure = TRUE;
	if (!wifi_attempt_td_check(attempt, FALSE, NULL, error))
		return FALSE;
	attempt->eap_profile = g_object_ref(profile);
	attempt->network_key = wifi_known_network_key(JOIND_NETWORK(attempt->network));
	pmksa = wifi_pmksa_cache_lookup(attempt->pmksa_cache, attempt->bss->bssid, attempt->spa,
	                                attempt->network_key, attempt->plan.akm,
	                                g_get_monotonic_time());
	if (pmksa != NULL) {
		attempt->pmksa = wifi_pmksa_copy(pmksa);
		wifi_iface_info(iface, "offering the cached PMKSA of “%s”",
		                wifi_attempt_get_name(attempt));
	} else if (joind_profile_get_boolean(profile, "Settings", "OKC", FALSE)) {
		attempt->pmksa = attempt_okc_pmksa(attempt, iface);
	}
	if (attempt->pmksa != NULL)
		wifi_rsn_plan_offer_pmkid(&attempt->plan, attempt->pmksa->pmkid);
	return TRUE;
}

/* OWE: a key pair in group, its element in the association request. */
static gboolean
attempt_owe_offer(WifiAttempt *attempt, guint group, GError **error)
{
	WifiOwe *owe = wifi_owe_new(group, error);

	if (owe == NULL)
		return FALSE;
	g_clear_pointer(&attempt->owe, wifi_owe_free);
	attempt->owe = owe;
	attempt->plan.owe_dh_len = wifi_owe_write_element(owe, attempt->plan.owe_dh);
	attempt->plan.owe_group = group;
	return TRUE;
}

/* An open network: OWE when the chosen BSS offers it or names an OWE BSS
 * (transition mode), group 19 first; otherwise nothing to prepare. */
static gboolean
attempt_prepare_open(WifiAttempt *attempt, WifiIface *iface, const gchar *address, GError **error)
{
	WifiBss *target =
	        wifi_owe_transition_target(wifi_network_get_bsses(attempt->network), attempt->bss);
	gchar addr[JOIND_MAC_STRING_LEN];

	wifi_bss_unref(attempt->bss);
	attempt->bss = target;
	/* A plain open access point, unless the profile's transition rules
	 * move the attempt to an OWE one. */
	if (!wifi_bss_offers_owe(target) && !wifi_attempt_td_check(attempt, FALSE, NULL, error))
		return FALSE;
	target = attempt->bss;
	if (!wifi_bss_offers_owe(target))
		return TRUE;
	if (!attempt_parse_spa(attempt, address, error) ||
	    !wifi_rsn_plan(target, iface->wiphy, FALSE, &attempt->plan, error))
		return FALSE;
	attempt->secure = TRUE;
	wifi_iface_info(iface, "“%s” is joined with OWE, through %s",
	                wifi_attempt_get_name(attempt), joind_mac_to_string(target->bssid, addr));
	return attempt_owe_offer(attempt, 19, error);
}

/* The address this attempt shows (address.h: the interface's own, or the
 * network's) into *address, spelt in chosen; the interface's (address as
 * given) when it has none yet, which only a secure network needs. */
static gboolean
attempt_choose_address(WifiAttempt *attempt, WifiIface *iface, const gchar **address,
                       gchar chosen[JOIND_MAC_STRING_LEN], GError **error)
{
	GBytes *ssid = joind_network_get_ssid(JOIND_NETWORK(attempt->network));
	guint8 current[6];

	if (!joind_mac_parse(*address, current))
		return TRUE;
	if (!wifi_address_for_network(iface->address, iface, g_bytes_get_data(ssid, NULL),
	                              g_bytes_get_size(ssid),
	                              joind_network_get_profile(JOIND_NETWORK(attempt->network)),
	                              current, attempt->spa, error))
		return FALSE;
	*address = joind_mac_to_string(attempt->spa, chosen);
	return TRUE;
}

gboolean
wifi_attempt_take_address(WifiAttempt *attempt, WifiIface *iface, const gchar *address,
                          GError **error)
{
	static const guint8 none[6];
	guint8 current[6];

	if (memcmp(attempt->spa, none, 6) == 0 || !joind_mac_parse(address, current))
		return TRUE;
	return wifi_address_apply(iface, attempt->spa, current, error);
}

WifiAttempt *
wifi_attempt_new(JoindCore *core, WifiNetwork *network, WifiBss *bss, WifiIface *iface,
                 WifiPmksaCache *pmksa_cache, gboolean sme, const gchar *current,
                 gboolean *ask_agent, GError **error)
{
	JoindNetworkType type = joind_network_get_network_type(JOIND_NETWORK(network));
	WifiAttempt *attempt = g_new0(WifiAttempt, 1);
	gboolean sae = sme && iface->wiphy != NULL && wifi_wiphy_can_sae_sme(iface->wiphy);
	gchar chosen[JOIND_MAC_STRING_LEN];
	const gchar *address = current;

	attempt->network = g_object_ref(network);
	attempt->bss = wifi_bss_ref(bss);
	attempt->iface = wifi_iface_ref(iface);
	attempt->pmksa_cache = pmksa_cache;
	*ask_agent = FALSE;
	if (!attempt_choose_address(attempt, iface, &address, chosen, error)) {
		wifi_attempt_free(attempt);
		return NULL;
	}
	switch (type) {
	case JOIND_NETWORK_TYPE_OPEN:
		if (attempt_prepare_open(attempt, iface, address, error))
			return attempt;
		break;
	case JOIND_NETWORK_TYPE_PSK:
		if (attempt_prepare_psk(attempt, core, iface->wiphy, sae, address, ask_agent,
		                        error) &&
		    wifi_attempt_ft_prepare(attempt, sme, error))
			return attempt;
		break;
	case JOIND_NETWORK_TYPE_8021X:
		if (attempt_prepare_eap(attempt, iface, address, error) &&
		    wifi_attempt_ft_prepare(attempt, sme, error))
			return attempt;
		break;
	default:
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED,
		            "joind cannot join %s networks yet.",
		            joind_network_type_to_string(type));
		break;
	}
	wifi_attempt_free(attempt);
	return NULL;
}

void
wifi_attempt_keying_config(WifiAttempt *attempt, JoindCore *core, gboolean control_port_nl,
                           WifiKeyingConfig *config)
{
	GCancellable *call = attempt->task != NULL ? g_task_get_cancellable(attempt->task) : NULL;

	*config = (WifiKeyingConfig){
	        .plan = &attempt->plan,
	        .control_port_nl = control_port_nl,
	};
	memcpy(config->aa, attempt->bss->bssid, 6);
	memcpy(config->spa, attempt->spa, 6);
	/* OWE's PMK, or FT's hierarchy, comes with the association
	 * (wifi_attempt_associated); a transition keys with no EAP, but
	 * FT-802.1X's link takes the access point's re-authentications. */
	if (attempt->owe != NULL || (attempt->ft_air != NULL && attempt->eap_profile == NULL))
		return;
	if (attempt->eap_profile == NULL) {
		if (wifi_ft_akm_is_ft(attempt->plan.akm))
			return;
		config->pmk = attempt->plan.akm == WIFI_AKM_SUITE_SAE ? attempt->sae_pmk
		                                                      : attempt->psk.pmk;
		config->pmk_len = sizeof(attempt->psk.pmk);
		return;
	}
	config->core = core;
	config->profile = attempt->eap_profile;
	config->object_path = joind_network_get_object_path(JOIND_NETWORK(attempt->network));
	/* The Connect() call's cancellable says whose agent to ask. */
	config->requester = joind_requester_from_cancellable(call);
	config->network = attempt->network_key;
	config->pmksa = attempt->ft_air == NULL ? attempt->pmksa : NULL;
	config->pmksa_cache = attempt->pmksa_cache;
}

void
wifi_attempt_free(WifiAttempt *attempt)
{
	if (attempt == NULL)
		return;
	if (attempt->secret != NULL)
		g_cancellable_cancel(attempt->secret);
	g_clear_object(&attempt->secret);
	g_clear_object(&attempt->task);
	g_clear_object(&attempt->network);
	g_clear_pointer(&attempt->bss, wifi_bss_unref);
	wifi_psk_secret_clear(&attempt->psk);
	g_clear_object(&attempt->eap_profile);
	g_free(attempt->network_key);
	g_clear_pointer(&attempt->pmksa, wifi_pmksa_free);
	g_clear_pointer(&attempt->owe, wifi_owe_free);
	g_clear_pointer(&attempt->sae_pts, wifi_sae_pt_cache_free);
	joind_secret_clear(attempt->sae_pmk, sizeof(attempt->sae_pmk));
	g_clear_pointer(&attempt->iface, wifi_iface_unref);
	g_clear_pointer(&attempt->silent, g_ptr_array_unref);
	g_clear_pointer(&attempt->ft_air, wifi_ft_transition_free);
	joind_secret_clear(&attempt->ft_holders, sizeof(attempt->ft_holders));
	wifi_ft_keys_clear(&attempt->ft_keys);
	g_free(attempt->ft_eap_method);
	g_free(attempt->ft_eap_identity);
	g_free(attempt);
}

static gboolean
attempt_found_silent(WifiAttempt *attempt, const WifiBss *bss)
{
	for (guint i = 0; attempt->silent != NULL && i < attempt->silent->len; i++) {
		const WifiBss *silent = g_ptr_array_index(attempt->silent, i);

		if (memcmp(silent->bssid, bss->bssid, 6) == 0)
			return TRUE;
	}
	return memcmp(attempt->bss->bssid, bss->bssid, 6) == 0;
}

WifiBss *
wifi_attempt_next_bss(WifiAttempt *attempt)
{
	GPtrArray *bsses = wifi_network_get_bsses(attempt->network);

	for (guint i = 0; bsses != NULL && i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		if (!attempt_found_silent(attempt, bss))
			return bss;
	}
	return NULL;
}

WifiAttempt *
wifi_attempt_move_to(WifiAttempt *attempt, JoindCore *core, WifiBss *bss, gboolean sme,
                     const gchar *current, GError **error)
{
	gboolean ask_agent = FALSE;
	WifiAttempt *moved =
	        wifi_attempt_new(core, attempt->network, bss, attempt->iface, attempt->pmksa_cache,
	                         sme, current, &ask_agent, error);

	if (moved == NULL)
		return NULL;
	/* The agent was asked once for this Connect(): its answer holds. */
	if (ask_agent) {
		moved->psk = attempt->psk;
		attempt->psk = (WifiPskSecret){0};
	}
	moved->silent = attempt->silent != NULL
	                        ? g_steal_pointer(&attempt->silent)
	                        : g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_ptr_array_add(moved->silent, wifi_bss_ref(attempt->bss));
	moved->task = g_steal_pointer(&attempt->task);
	moved->has_ft_holders = attempt->has_ft_holders;
	moved->ft_holders = attempt->ft_holders;
	moved->ft_keys = attempt->ft_keys;
	moved->ft_eap_method = g_strdup(attempt->ft_eap_method);
	moved->ft_eap_identity = g_strdup(attempt->ft_eap_identity);
	return moved;
}

gboolean
wifi_attempt_associated(WifiAttempt *attempt, struct nlattr **attrs, WifiKeying *keying,
                        GError **error)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	struct nlattr *resp = attrs[NL80211_ATTR_RESP_IE];
	WifiMgmtAnswer answer = {0};
	guint8 pmk[WIFI_OWE_PMK_MAX], pmkid[WIFI_OWE_PMKID_LEN];
	gsize pmk_len = 0;
	gboolean ok;

	if (attempt->owe == NULL && !wifi_ft_akm_is_ft(attempt->plan.akm))
		return TRUE;
	if (frame != NULL &&
	    !wifi_mgmt_parse_answer(nla_data(frame), (gsize)nla_len(frame), &answer, error))
		return FALSE;
	if (frame == NULL && resp != NULL) {
		answer.ies = nla_data(resp);
		answer.ies_len = (gsize)nla_len(resp);
	}
	if (attempt->owe == NULL)
		return wifi_attempt_ft_associated(attempt, answer.ies, answer.ies_len, keying,
		                                  error);
	ok = wifi_owe_derive(attempt->owe, answer.ies, answer.ies_len, pmk, &pmk_len, pmkid,
	                     error) &&
	     wifi_keying_set_pmk(keying, pmk, pmk_len, pmkid, error);
	joind_secret_clear(pmk, sizeof(pmk));
	return ok;
}

#define OWE_MAX_RETRIES 2u

gboolean
wifi_attempt_owe_again(WifiAttempt *attempt, gboolean timed_out, guint16 status)
{
	g_autoptr(GError) error = NULL;
	guint group = attempt->owe != NULL ? wifi_owe_get_group(attempt->owe) : 0;
	guint next = status == WIFI_OWE_STATUS_GROUP_REFUSED ? wifi_owe_next_group(group) : 0;

	if (group != 0 && timed_out && attempt->owe_retries < OWE_MAX_RETRIES) {
		attempt->owe_retries++;
		g_info("“%s”: no answer to the OWE association: asking again (%u of %u)",
		       wifi_attempt_get_name(attempt), attempt->owe_retries, OWE_MAX_RETRIES);
		return TRUE;
	}
	if (timed_out || next == 0)
		return FALSE;
	if (!attempt_owe_offer(attempt, next, &error)) {
		g_warning("“%s”: %s", wifi_attempt_get_name(attempt), error->message);
		return FALSE;
	}
	g_info("“%s”: the access point does not do OWE group %u: offering group %u",
	       wifi_attempt_get_name(attempt), group, next);
	return TRUE;
}

WifiAttempt *
wifi_attempt_owe_renew(WifiAttempt *attempt)
{
	g_autoptr(GError) error = NULL;
	WifiAttempt *again;

	if (attempt->owe == NULL || attempt->owe_renewals >= WIFI_ATTEMPT_OWE_MAX_RENEWALS)
		return NULL;
	again = g_new0(WifiAttempt, 1);
	again->network = g_object_ref(attempt->network);
	again->bss = wifi_bss_ref(attempt->bss);
	again->iface = wifi_iface_ref(attempt->iface);
	again->secure = TRUE;
	again->plan = attempt->plan; /* its RSNEs point into the same BSS */
	memcpy(again->spa, attempt->spa, sizeof(again->spa));
	again->owe_retries = attempt->owe_retries;
	again->owe_renewals = attempt->owe_renewals + 1;
	if (!attempt_owe_offer(again, wifi_owe_get_group(attempt->owe), &error)) {
		g_warning("“%s”: %s", wifi_attempt_get_name(attempt), error->message);
		wifi_attempt_free(again);
		return NULL;
	}
	again->task = g_steal_pointer(&attempt->task);
	return again;
}

void
wifi_attempt_fail(WifiAttempt *attempt, const gchar *ifname, gint code, const gchar *message)
{
	g_autoptr(GTask) task = NULL;

	if (attempt == NULL || attempt->task == NULL)
		return;
	task = g_steal_pointer(&attempt->task);
	if (code != JOIND_ERROR_ABORTED)
		wifi_attempt_sae_failed(attempt);
	joind_dev_info(ifname, "connect to “%s” failed: %s", wifi_attempt_get_name(attempt),
	               message);
	g_task_return_new_error(task, JOIND_ERROR, code, "%s", message);
}

/* The agent may answer after the attempt is gone: then its request was
 * cancelled first, and nothing of the attempt is touched. */
typedef struct {
	WifiAttempt *attempt;
	GCancellable *cancellable;
	WifiAttemptSecretFunc func;
	gpointer user_data;
} SecretRequest;

static void
secret_received(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autofree SecretRequest *req = user_data;
	g_autoptr(GCancellable) cancellable = req->cancellable;
	g_autoptr(GError) error = NULL;
	WifiAttempt *attempt = req->attempt;

	if (g_cancellable_is_cancelled(cancellable)) {
		g_task_propagate_pointer(G_TASK(result), NULL);
		return;
	}
	g_clear_object(&attempt->secret);
	wifi_psk_request_finish(attempt->network, result, &attempt->psk, &error);
	req->func(attempt, error, req->user_data);
}

void
wifi_attempt_request_secret(WifiAttempt *attempt, JoindCore *core, WifiAttemptSecretFunc func,
                            gpointer user_data)
{
	SecretRequest *req = g_new0(SecretRequest, 1);

	attempt->secret = g_cancellable_new();
	req->attempt = attempt;
	req->cancellable = g_object_ref(attempt->secret);
	req->func = func;
	req->user_data = user_data;
	/* The Connect() call's cancellable says whose agent to ask. */
	wifi_psk_request(core,
	                 joind_requester_from_cancellable(g_task_get_cancellable(attempt->task)),
	                 attempt->network, attempt->secret, secret_received, req);
}

/* What joind learned (state.json) and, for an open network joined for the
 * first time, its profile: like iwd, an open network once joined is known
 * and autoconnects. */
static void
attempt_note_connected(WifiAttempt *attempt, JoindCore *core, const gchar *ifname)
{
	JoindNetwork *network = JOIND_NETWORK(attempt->network);
	g_autoptr(GKeyFile) kf = NULL;
	g_autoptr(GError) error = NULL;
	JoindProfileType type;
	gsize len = 0;
	const guint8 *ssid = g_bytes_get_data(joind_network_get_ssid(network), &len);

	if (!joind_network_type_to_profile_type(joind_network_get_network_type(network), &type))
		return;
	joind_core_note_connected(core, ssid, len, type, attempt->bss->freq);
	if (type != JOIND_PROFILE_TYPE_OPEN || joind_network_get_profile(network) != NULL)
		return;
	kf = g_key_file_new();
	if (!joind_core_save_network_profile(core, ssid, len, type, kf, &error))
		joind_dev_warning(ifname, "cannot save the profile of “%s”: %s",
		                  wifi_attempt_get_name(attempt), error->message);
	else
		joind_dev_info(ifname, "saved the profile of “%s”", wifi_attempt_get_name(attempt));
}

void
wifi_attempt_remember(WifiAttempt *attempt, JoindCore *core, WifiKeying *keying)
{
	const gchar *ifname = attempt->iface->name;

	/* First: an OWE network's profile, made there, takes its access
	 * point's transition disable. */
	attempt_note_connected(attempt, core, ifname);
	if (attempt->secure) {
		wifi_psk_save(core, attempt->network, &attempt->psk,
		              wifi_akm_is_sae(attempt->plan.akm), ifname);
		wifi_attempt_sae_remember(attempt, core, keying);
		wifi_attempt_ft_remember(attempt, keying);
	}
}
