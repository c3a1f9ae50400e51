/* attempt-transition.c - an attempt against its network's transition rules
 * (security/transition-disable.h), once its plan is made: the access
 * point chosen, another of the network the rules allow, or the refusal
 * (see attempt-private.h). */
#include "attempt-private.h"

#include <string.h>

#include "joind-mac.h"
#include "owe-transition.h"
#include "transition-disable.h"

/* What an attempt through bss would be: bss itself, or for an open
 * network the OWE access point it names (transition mode); with its
 * plan, or NULL for a plain open one. A new reference. */
static WifiBss *
td_candidate(WifiAttempt *attempt, JoindNetworkType type, WifiBss *bss, gboolean sae,
             WifiRsnPlan *plan, gboolean *planned)
{
	GPtrArray *bsses = wifi_network_get_bsses(attempt->network);
	WifiBss *candidate = type == JOIND_NETWORK_TYPE_OPEN
	                             ? wifi_owe_transition_target(bsses, bss)
	                             : wifi_bss_ref(bss);

	*planned = (type != JOIND_NETWORK_TYPE_OPEN || wifi_bss_offers_owe(candidate)) &&
	           wifi_rsn_plan(candidate, attempt->iface->wiphy, sae, plan, NULL);
	return candidate;
}

/* Another access point of the attempt's network that rules allow: the
 * attempt moves to it. */
static gboolean
td_pick_bss(WifiAttempt *attempt, const WifiTdRules *rules, JoindNetworkType type, gboolean sae)
{
	GPtrArray *bsses = wifi_network_get_bsses(attempt->network);
	gchar addr[JOIND_MAC_STRING_LEN];

	for (guint i = 0; bsses != NULL && i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);
		WifiRsnPlan plan;
		gboolean planned;
		g_autoptr(WifiBss) candidate = NULL;

		if (bss == attempt->bss ||
		    memcmp(bss->bssid, attempt->bss->bssid, sizeof(bss->bssid)) == 0)
			continue;
		candidate = td_candidate(attempt, type, bss, sae, &plan, &planned);
		if (wifi_td_forbidden(rules, type, planned ? &plan : NULL) != 0)
			continue;
		wifi_iface_info(attempt->iface,
		                "“%s” is joined as its transition rules allow: through %s",
		                wifi_attempt_get_name(attempt),
		                joind_mac_to_string(candidate->bssid, addr));
		wifi_bss_unref(attempt->bss);
		attempt->bss = g_steal_pointer(&candidate);
		attempt->plan = plan;
		attempt->secure = planned;
		return TRUE;
	}
	return FALSE;
}

gboolean
wifi_attempt_td_check(WifiAttempt *attempt, gboolean sae, const gchar *why, GError **error)
{
	JoindNetwork *network = JOIND_NETWORK(attempt->network);
	JoindNetworkType type = joind_network_get_network_type(network);
	WifiTdRules rules;
	guint forbidden;
	GError *local = NULL;

	wifi_td_rules_from_profile(joind_network_get_profile(network), &rules);
	forbidden = wifi_td_forbidden(&rules, type, attempt->secure ? &attempt->plan : NULL);
	if (forbidden == 0 || td_pick_bss(attempt, &rules, type, sae))
		return TRUE;
	wifi_td_set_error(&local, forbidden, wifi_attempt_get_name(attempt), why);
	wifi_iface_info(attempt->iface, "%s", local->message);
	g_propagate_error(error, local);
	return FALSE;
}
