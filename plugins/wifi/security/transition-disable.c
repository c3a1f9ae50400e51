/* transition-disable.c - the profile's transition rules (see
 * transition-disable.h). */
#include "transition-disable.h"

#include <string.h>

/* iwd's words for the bits, in its order, and what each leaves. */
static const struct {
	guint8 bit;
	const gchar *word;
	const gchar *only;    /* what the network is joined with from then on */
	const gchar *lacking; /* the default reason no access point will do */
} td_modes[] = {
        {WIFI_TRANSITION_DISABLE_WPA3_PERSONAL, "personal", "WPA3-Personal",
         "no access point of it in range offers WPA3-Personal (SAE)"},
        {WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE, "enterprise", "WPA3-Enterprise",
         "no access point of it in range offers management frame protection: this one offers "
         "only WPA2-Enterprise"},
        {WIFI_TRANSITION_DISABLE_ENHANCED_OPEN, "open", "Enhanced Open (OWE)",
         "no access point of it in range offers OWE: this one is open, without encryption"},
};

/* The words of the profile's DisabledTransitionModes, stripped. */
static gchar **
td_words(JoindProfile *profile)
{
	g_autofree gchar *value =
	        profile != NULL
	                ? joind_profile_get_string(profile, "Settings", "DisabledTransitionModes")
	                : NULL;
	gchar **words = g_strsplit(value != NULL ? value : "", ",", -1);

	for (guint i = 0; words[i] != NULL; i++)
		g_strstrip(words[i]);
	return words;
}

void
wifi_td_rules_from_profile(JoindProfile *profile, WifiTdRules *rules)
{
	g_auto(GStrv) words = td_words(profile);

	*rules = (WifiTdRules){0};
	for (guint i = 0; i < G_N_ELEMENTS(td_modes); i++) {
		if (g_strv_contains((const gchar *const *)words, td_modes[i].word))
			rules->modes |= td_modes[i].bit;
	}
	rules->mfp = profile != NULL &&
	             joind_profile_get_boolean(profile, "Settings", "TransitionDisable", FALSE);
}

guint
wifi_td_forbidden(const WifiTdRules *rules, JoindNetworkType type, const WifiRsnPlan *plan)
{
	gboolean mfp = plan != NULL && plan->mfp != WIFI_MFP_OFF;

	switch (type) {
	case JOIND_NETWORK_TYPE_PSK:
	case JOIND_NETWORK_TYPE_SAE:
		if ((rules->modes & WIFI_TRANSITION_DISABLE_WPA3_PERSONAL) &&
		    (plan == NULL || !wifi_akm_is_sae(plan->akm)))
			return WIFI_TRANSITION_DISABLE_WPA3_PERSONAL;
		break;
	case JOIND_NETWORK_TYPE_8021X:
		/* WPA3-Enterprise is 802.1X with management frame protection
		 * (the 192-bit mode requires it too). */
		if ((rules->modes & WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE) && !mfp)
			return WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE;
		break;
	case JOIND_NETWORK_TYPE_OPEN:
	case JOIND_NETWORK_TYPE_OWE:
		if ((rules->modes & WIFI_TRANSITION_DISABLE_ENHANCED_OPEN) &&
		    (plan == NULL || plan->akm != WIFI_AKM_SUITE_OWE))
			return WIFI_TRANSITION_DISABLE_ENHANCED_OPEN;
		break;
	default:
		break;
	}
	return rules->mfp && !mfp ? WIFI_TD_NO_MFP : 0;
}

void
wifi_td_set_error(GError **error, guint forbidden, const gchar *name, const gchar *why)
{
	for (guint i = 0; i < G_N_ELEMENTS(td_modes); i++) {
		if (forbidden != td_modes[i].bit)
			continue;
		g_set_error(error, JOIND_ERROR,
		            why != NULL ? JOIND_ERROR_NOT_SUPPORTED : JOIND_ERROR_NOT_FOUND,
		            "“%s” is %s only (its access points disabled the transition mode; "
		            "DisabledTransitionModes=%s in its profile), and %s.",
		            name, td_modes[i].only, td_modes[i].word,
		            why != NULL ? why : td_modes[i].lacking);
		return;
	}
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
	            "“%s” must be joined with management frame protection (TransitionDisable "
	            "in its profile), which no access point of it in range offers.",
	            name);
}

gchar *
wifi_td_modes_with(JoindProfile *profile, guint8 bits)
{
	g_auto(GStrv) old = td_words(profile);
	g_autoptr(GPtrArray) all = g_ptr_array_new();

	for (guint i = 0; old[i] != NULL; i++) {
		if (old[i][0] != '\0')
			g_ptr_array_add(all, old[i]);
	}
	for (guint i = 0; i < G_N_ELEMENTS(td_modes); i++) {
		if ((bits & td_modes[i].bit) != 0 &&
		    !g_strv_contains((const gchar *const *)old, td_modes[i].word))
			g_ptr_array_add(all, (gpointer)td_modes[i].word);
	}
	g_ptr_array_add(all, NULL);
	return g_strjoinv(",", (gchar **)all->pdata);
}
