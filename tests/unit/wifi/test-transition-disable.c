/* test-transition-disable.c - what a profile's transition rules
 * (DisabledTransitionModes, TransitionDisable) forbid: for each kind of
 * network, each plan an access point may give (WPA2 or WPA3, with or
 * without management frame protection, plain open or OWE), and the
 * sentence of the refusal. The attempts that follow these answers (another
 * access point picked, or the refusal before anything is sent) are in
 * test-connect-transition.c. */
#include <string.h>

#include "transition-disable.h"

static WifiRsnPlan
plan_of(guint akm, WifiMfp mfp)
{
	return (WifiRsnPlan){.akm = akm, .mfp = mfp};
}

/* No rules: everything goes. */
static void
test_none(void)
{
	const WifiTdRules none = {0};
	WifiRsnPlan psk = plan_of(WIFI_AKM_SUITE_PSK, WIFI_MFP_OFF);
	WifiRsnPlan eap = plan_of(WIFI_AKM_SUITE_8021X, WIFI_MFP_OFF);

	g_assert_cmpuint(wifi_td_forbidden(&none, JOIND_NETWORK_TYPE_PSK, &psk), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&none, JOIND_NETWORK_TYPE_8021X, &eap), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&none, JOIND_NETWORK_TYPE_OPEN, NULL), ==, 0);
}

/* personal: WPA2-PSK (with or without MFP, SHA-256 or not) is refused,
 * SAE taken; the mode says nothing about other kinds of network. */
static void
test_personal(void)
{
	const WifiTdRules rules = {.modes = WIFI_TRANSITION_DISABLE_WPA3_PERSONAL};
	WifiRsnPlan psk = plan_of(WIFI_AKM_SUITE_PSK, WIFI_MFP_OFF);
	WifiRsnPlan psk256 = plan_of(WIFI_AKM_SUITE_PSK_SHA256, WIFI_MFP_REQUIRED);
	WifiRsnPlan sae = plan_of(WIFI_AKM_SUITE_SAE, WIFI_MFP_OPTIONAL);
	WifiRsnPlan eap = plan_of(WIFI_AKM_SUITE_8021X, WIFI_MFP_OFF);

	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_PSK, &psk), ==,
	                 WIFI_TRANSITION_DISABLE_WPA3_PERSONAL);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_PSK, &psk256), ==,
	                 WIFI_TRANSITION_DISABLE_WPA3_PERSONAL);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_PSK, NULL), ==,
	                 WIFI_TRANSITION_DISABLE_WPA3_PERSONAL);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_PSK, &sae), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_8021X, &eap), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_OPEN, NULL), ==, 0);
}

/* enterprise: 802.1X without management frame protection (WPA2-Enterprise)
 * is refused; with it (WPA3-Enterprise, the plain AKM or SHA-256, MFP
 * optional or required, and the 192-bit mode) it is taken. */
static void
test_enterprise(void)
{
	const WifiTdRules rules = {.modes = WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE};
	WifiRsnPlan wpa2 = plan_of(WIFI_AKM_SUITE_8021X, WIFI_MFP_OFF);
	WifiRsnPlan wpa2_256 = plan_of(WIFI_AKM_SUITE_8021X_SHA256, WIFI_MFP_OFF);
	WifiRsnPlan transition = plan_of(WIFI_AKM_SUITE_8021X, WIFI_MFP_OPTIONAL);
	WifiRsnPlan only = plan_of(WIFI_AKM_SUITE_8021X_SHA256, WIFI_MFP_REQUIRED);
	WifiRsnPlan suite_b = plan_of(WIFI_AKM_SUITE_8021X_SUITE_B_192, WIFI_MFP_REQUIRED);
	WifiRsnPlan psk = plan_of(WIFI_AKM_SUITE_PSK, WIFI_MFP_OFF);

	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_8021X, &wpa2), ==,
	                 WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_8021X, &wpa2_256), ==,
	                 WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_8021X, &transition), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_8021X, &only), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_8021X, &suite_b), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_PSK, &psk), ==, 0);
}

/* open: a plain open access point is refused, OWE taken. */
static void
test_open(void)
{
	const WifiTdRules rules = {.modes = WIFI_TRANSITION_DISABLE_ENHANCED_OPEN};
	WifiRsnPlan owe = plan_of(WIFI_AKM_SUITE_OWE, WIFI_MFP_REQUIRED);
	WifiRsnPlan psk = plan_of(WIFI_AKM_SUITE_PSK, WIFI_MFP_OFF);

	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_OPEN, NULL), ==,
	                 WIFI_TRANSITION_DISABLE_ENHANCED_OPEN);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_OPEN, &owe), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&rules, JOIND_NETWORK_TYPE_PSK, &psk), ==, 0);
}

/* TransitionDisable=true alone: no association without management frame
 * protection, whatever the kind; a mode the network breaks is named
 * before it. */
static void
test_mfp(void)
{
	const WifiTdRules mfp = {.mfp = TRUE};
	const WifiTdRules both = {.modes = WIFI_TRANSITION_DISABLE_WPA3_PERSONAL, .mfp = TRUE};
	WifiRsnPlan psk = plan_of(WIFI_AKM_SUITE_PSK, WIFI_MFP_OFF);
	WifiRsnPlan psk_mfp = plan_of(WIFI_AKM_SUITE_PSK_SHA256, WIFI_MFP_OPTIONAL);
	WifiRsnPlan eap = plan_of(WIFI_AKM_SUITE_8021X, WIFI_MFP_OFF);
	WifiRsnPlan owe = plan_of(WIFI_AKM_SUITE_OWE, WIFI_MFP_REQUIRED);

	g_assert_cmpuint(wifi_td_forbidden(&mfp, JOIND_NETWORK_TYPE_PSK, &psk), ==, WIFI_TD_NO_MFP);
	g_assert_cmpuint(wifi_td_forbidden(&mfp, JOIND_NETWORK_TYPE_PSK, &psk_mfp), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&mfp, JOIND_NETWORK_TYPE_8021X, &eap), ==,
	                 WIFI_TD_NO_MFP);
	g_assert_cmpuint(wifi_td_forbidden(&mfp, JOIND_NETWORK_TYPE_OPEN, NULL), ==,
	                 WIFI_TD_NO_MFP);
	g_assert_cmpuint(wifi_td_forbidden(&mfp, JOIND_NETWORK_TYPE_OPEN, &owe), ==, 0);
	g_assert_cmpuint(wifi_td_forbidden(&both, JOIND_NETWORK_TYPE_PSK, &psk), ==,
	                 WIFI_TRANSITION_DISABLE_WPA3_PERSONAL);
}

/* The refusal names the network, the mode and its profile key, and the
 * reason no access point will do: the mode's own (none in range: NotFound,
 * a later scan may bring one) or the caller's (NotSupported). */
static void
test_sentences(void)
{
	g_autoptr(GError) personal = NULL;
	g_autoptr(GError) radio = NULL;
	g_autoptr(GError) enterprise = NULL;
	g_autoptr(GError) open = NULL;
	g_autoptr(GError) mfp = NULL;

	wifi_td_set_error(&personal, WIFI_TRANSITION_DISABLE_WPA3_PERSONAL, "home", NULL);
	g_assert_error(personal, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_cmpstr(personal->message, ==,
	                "“home” is WPA3-Personal only (its access points disabled the transition "
	                "mode; DisabledTransitionModes=personal in its profile), and no access "
	                "point of it in range offers WPA3-Personal (SAE).");
	wifi_td_set_error(&radio, WIFI_TRANSITION_DISABLE_WPA3_PERSONAL, "home",
	                  "this radio cannot run SAE");
	g_assert_error(radio, JOIND_ERROR, JOIND_ERROR_NOT_SUPPORTED);
	g_assert_true(g_str_has_suffix(radio->message, "), and this radio cannot run SAE."));
	wifi_td_set_error(&enterprise, WIFI_TRANSITION_DISABLE_WPA3_ENTERPRISE, "corp", NULL);
	g_assert_nonnull(strstr(enterprise->message, "“corp” is WPA3-Enterprise only"));
	g_assert_nonnull(strstr(enterprise->message, "DisabledTransitionModes=enterprise"));
	g_assert_nonnull(strstr(enterprise->message, "only WPA2-Enterprise"));
	wifi_td_set_error(&open, WIFI_TRANSITION_DISABLE_ENHANCED_OPEN, "cafe", NULL);
	g_assert_nonnull(strstr(open->message, "“cafe” is Enhanced Open (OWE) only"));
	g_assert_nonnull(strstr(open->message, "DisabledTransitionModes=open"));
	g_assert_nonnull(strstr(open->message, "open, without encryption"));
	wifi_td_set_error(&mfp, WIFI_TD_NO_MFP, "home", "ignored");
	g_assert_error(mfp, JOIND_ERROR, JOIND_ERROR_NOT_FOUND);
	g_assert_cmpstr(mfp->message, ==,
	                "“home” must be joined with management frame protection "
	                "(TransitionDisable in its profile), which no access point of it in "
	                "range offers.");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wifi/transition-disable/none", test_none);
	g_test_add_func("/wifi/transition-disable/personal", test_personal);
	g_test_add_func("/wifi/transition-disable/enterprise", test_enterprise);
	g_test_add_func("/wifi/transition-disable/open", test_open);
	g_test_add_func("/wifi/transition-disable/mfp", test_mfp);
	g_test_add_func("/wifi/transition-disable/sentences", test_sentences);
	return g_test_run();
}
